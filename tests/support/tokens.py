"""Token counts as a model would bill them: tiktoken's o200k_base table, shipped by bpe-openai (offline)."""

from __future__ import annotations

import warnings
from functools import cache

#: An observation's text stays within this many o200k tokens on any page.
TOKEN_BOUND = 2500


@cache
def _encoding():
    import bpe_openai

    with warnings.catch_warnings():  # bpe-openai 0.1.4 reads its table through a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        return bpe_openai.get_encoding("o200k_base")


def o200k_tokens(text: str) -> int:
    """How many o200k_base tokens ``text`` is."""
    return len(_encoding().encode(text))
