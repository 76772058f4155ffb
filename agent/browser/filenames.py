"""Safe file names for what the browser writes into a run (downloads, screenshots), and the files it may
read from the disk to upload."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

_RESERVED_CHARS = re.compile(r'[<>:"|?*\x00-\x1f\x7f]')
_WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}
)


def safe_filename(name: str | None, default: str = "download", max_bytes: int = 150) -> str:
    """A file name that cannot leave its directory: no directories, ``..``, absolute paths or control chars."""
    text = unicodedata.normalize("NFC", name or "")
    text = text.replace("\\", "/").split("/")[-1]  # last path component only
    text = _RESERVED_CHARS.sub("_", text)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    text = re.sub(r"\.{2,}", ".", text)  # no ".." left anywhere (Chromium turns "../x" into "_.._x")
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"^[\s._-]+", "", text).rstrip(". ")  # no hidden files, no option-like names
    if not text or set(text) <= {".", "_", " "}:
        text = default
    stem, dot, ext = text.rpartition(".")
    if not dot:
        stem, ext = text, ""
    if stem.lower() in _WINDOWS_RESERVED:
        stem = f"_{stem}"
    ext = ext[:16]
    budget = max_bytes - len(ext.encode()) - (1 if ext else 0)
    stem_bytes = stem.encode()[: max(budget, 1)]
    stem = stem_bytes.decode("utf-8", errors="ignore").rstrip() or default
    return f"{stem}.{ext}" if ext else stem


def upload_source(raw: str, roots: list[Path]) -> Path:
    """The file ``raw`` names, when a page may be given it: an existing regular file under one of ``roots``
    (symbolic links resolved first), with no hidden component (``.env``, ``.ssh/``) below the root.
    ValueError says why not; the message names the allowed folders, never what else is on the disk."""
    text = (raw or "").strip().strip("\"'")
    if not text:
        raise ValueError("no file named to upload")
    allowed = [Path(root).expanduser().resolve() for root in roots]
    where = ", ".join(str(root) for root in allowed) or "none"
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = (allowed[0] if allowed else Path.cwd()) / path
    path = path.resolve()
    root = next((r for r in allowed if path == r or r in path.parents), None)
    if root is None:
        raise ValueError(f"{text!r} is outside the folders files may be uploaded from ({where})")
    if any(part.startswith(".") for part in path.relative_to(root).parts):
        raise ValueError(f"{text!r} is a hidden file or inside a hidden folder; refusing to upload it")
    if not path.is_file():
        raise ValueError(f"{text!r} is not an existing file in {root}")
    return path
