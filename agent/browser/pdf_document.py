"""Reading a PDF's bytes (pypdf): metadata, text by page, a search with page numbers, the outline.

Pure and bounded: only the first :data:`PAGE_LIMIT` pages are ever read, and a result says so when the document
is longer. Page numbers are 1-based everywhere, and every line of text or match names its page (``[page 3]``),
so an answer copied from a result carries the page it came from (:func:`paged_lines` reads them back). A file pypdf cannot read is a
:class:`PdfError` with one clear line, never a traceback.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

#: Hard limit of pages read from one document (the planner seed's limit).
PAGE_LIMIT = 50
#: Bound of the text one extraction returns (the observation and the records keep it whole).
MAX_TEXT_CHARS = 20_000
MAX_MATCHES = 20
#: The modes of ``pdf_extract``; ``analysis`` is the text handed to a model with a task (done above the browser).
PDF_MODES = ("metadata", "text", "find", "outline", "analysis")
PAGE_MARK = re.compile(r"\[page (\d+)\]")

logging.getLogger("pypdf").setLevel(logging.ERROR)  # pypdf warns on every odd object; the result says enough


class PdfError(Exception):
    """The bytes are not a PDF pypdf can read, or the request does not fit the document."""


@dataclass
class PdfReading:
    """What one extraction found: the text handed back (``[page N]`` lines) and a one-line summary."""

    text: str
    summary: str
    pages: list[int] = field(default_factory=list)  # the pages the text comes from
    limited: bool = False  # the document has more pages than PAGE_LIMIT


def parse_pages(spec: Any, total: int) -> list[int]:
    """Pages asked for, 1-based, within the first ``min(total, PAGE_LIMIT)``: a list ``[3, 5]``, a range dict
    ``{"start": 1, "end": 5}``, a string ``"2-4,7"``, one number, or nothing (every readable page)."""
    last = min(total, PAGE_LIMIT)
    if spec in (None, "", [], {}):
        return list(range(1, last + 1))
    wanted: list[int] = []
    if isinstance(spec, dict):
        start, end = int(spec.get("start") or 1), int(spec.get("end") or last)
        wanted = list(range(start, end + 1))
    elif isinstance(spec, int | float):
        wanted = [int(spec)]
    elif isinstance(spec, list):
        wanted = [int(p) for p in spec if str(p).strip().lstrip("-").isdigit()]
    else:
        for piece in re.split(r"[,\s]+", str(spec).strip()):
            bounds = re.fullmatch(r"(\d+)\s*-\s*(\d+)", piece)
            if bounds:
                wanted += list(range(int(bounds.group(1)), int(bounds.group(2)) + 1))
            elif piece.isdigit():
                wanted.append(int(piece))
    pages = sorted({p for p in wanted if 1 <= p <= last})
    if not pages:
        raise PdfError(
            f"no readable page in {spec!r}: the document has {total} page(s), {last} of them readable"
        )
    return pages


def _reader(data: bytes) -> Any:
    from pypdf import PdfReader

    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise PdfError("the file is not a PDF (it does not start with %PDF)")
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        _ = len(reader.pages)
    except Exception as exc:
        raise PdfError(
            f"the PDF could not be read: {str(exc).splitlines()[0][:160] or type(exc).__name__}"
        ) from exc
    if reader.is_encrypted:
        try:
            reader.decrypt("")
        except Exception as exc:
            raise PdfError("the PDF is encrypted and needs a password") from exc
    return reader


def _limit_note(total: int) -> str:
    return (
        f" (only the first {PAGE_LIMIT} of {total} pages are read: the page limit)"
        if total > PAGE_LIMIT
        else ""
    )


def _noted(text: str, note: str) -> str:
    """The limit note goes first, before any ``[page N]`` mark, so no page claims it."""
    return f"{note.strip()}\n{text}" if note else text


def _page_lines(reader: Any, number: int) -> list[str]:
    """The page's text lines, spaces normalised, empty lines dropped."""
    try:
        text = reader.pages[number - 1].extract_text() or ""
    except Exception as exc:
        return [f"(page {number} could not be read: {type(exc).__name__})"]
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _metadata(reader: Any, total: int) -> PdfReading:
    info = reader.metadata or {}
    fields = {
        "title": info.get("/Title"),
        "author": info.get("/Author"),
        "subject": info.get("/Subject"),
        "creator": info.get("/Creator"),
        "producer": info.get("/Producer"),
        "created": info.get("/CreationDate"),
        "modified": info.get("/ModDate"),
    }
    lines = [f"{name}: {value}" for name, value in fields.items() if value not in (None, "")]
    lines.append(f"pages: {total}")
    note = _limit_note(total)
    return PdfReading(_noted("\n".join(lines), note), f"metadata{note}", [], bool(note))


def _text(reader: Any, total: int, pages: list[int]) -> PdfReading:
    lines, used = [], 0
    taken: list[int] = []
    for number in pages:
        line = "\n".join([f"[page {number}]", *_page_lines(reader, number)])
        if used + len(line) > MAX_TEXT_CHARS:
            lines.append(f"(text cut at {MAX_TEXT_CHARS} characters; ask for later pages)")
            break
        lines.append(line)
        taken.append(number)
        used += len(line) + 1
    note = _limit_note(total)
    span = f"page {taken[0]}" if len(taken) == 1 else f"pages {taken[0]}-{taken[-1]}" if taken else "no page"
    return PdfReading(_noted("\n".join(lines), note), f"text of {span}{note}", taken, bool(note))


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def _find(reader: Any, total: int, pages: list[int], query: str) -> PdfReading:
    words = [w for w in re.findall(r"\w+", query.lower()) if len(w) > 1] or [query.lower().strip()]
    if not any(words):
        raise PdfError("find needs a query")
    exact, partial = [], []
    for number in pages:
        for sentence in (s for line in _page_lines(reader, number) for s in _sentences(line)):
            low = sentence.lower()
            if query.lower().strip() in low:
                exact.append((number, sentence))
            elif sum(1 for w in words if w in low) >= max(1, (len(words) + 1) // 2):
                partial.append((number, sentence))
    matches = (exact + partial)[:MAX_MATCHES]
    note = _limit_note(total)
    lines = [f"[page {n}] {s[:500]}" for n, s in matches]
    hit_pages = sorted({n for n, _ in matches})
    summary = (
        f"{len(matches)} match(es) for {query!r} on page(s) {', '.join(map(str, hit_pages))}{note}"
        if matches
        else f"no match for {query!r} in {len(pages)} page(s){note}"
    )
    text = "\n".join(lines) if lines else f"no match for {query!r}"
    return PdfReading(_noted(text, note), summary, hit_pages, bool(note))


def _outline(reader: Any, total: int) -> PdfReading:
    lines: list[str] = []

    def walk(items: list[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
                continue
            try:
                page = reader.get_destination_page_number(item) + 1
            except Exception:
                page = 0
            where = f" (page {page})" if page > 0 else ""
            lines.append(f"{'  ' * depth}{getattr(item, 'title', '') or '(untitled)'}{where}")

    try:
        walk(list(reader.outline or []), 0)
    except Exception as exc:
        raise PdfError(f"the PDF's outline could not be read: {type(exc).__name__}") from exc
    note = _limit_note(total)
    if not lines:
        return PdfReading("the document has no outline" + note, "no outline" + note, [], bool(note))
    return PdfReading("\n".join(lines), f"outline of {len(lines)} entries{note}", [], bool(note))


def read_pdf(data: bytes, mode: str, *, pages: Any = None, query: str = "") -> PdfReading:
    """One extraction of ``mode`` (metadata | text | find | outline; analysis reads text) from the bytes."""
    if mode not in PDF_MODES:
        raise PdfError(f"unknown pdf_extract mode {mode!r}; use one of {', '.join(PDF_MODES)}")
    reader = _reader(data)
    total = len(reader.pages)
    if mode == "metadata":
        return _metadata(reader, total)
    if mode == "outline":
        return _outline(reader, total)
    wanted = parse_pages(pages, total)
    if mode == "find":
        return _find(reader, total, wanted, query)
    return _text(reader, total, wanted)


def paged_lines(text: str) -> list[tuple[int, str]]:
    """(page, line) for each line of a result's text: a ``[page N]`` mark sets the page of what follows it
    (on its own line or the rest of its line); lines before any mark are page 0."""
    page, out = 0, []
    for raw in (text or "").splitlines():
        mark = PAGE_MARK.match(raw.strip())
        if mark:
            page = int(mark.group(1))
            raw = raw.strip()[mark.end() :]
        if raw.strip():
            out.append((page, raw.strip()))
    return out
