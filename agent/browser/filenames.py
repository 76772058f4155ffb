"""Safe file names for what the browser writes into a run: downloads and screenshots."""

from __future__ import annotations

import re
import unicodedata

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
