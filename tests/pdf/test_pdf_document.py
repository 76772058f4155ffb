"""Reading PDF bytes: every mode, page selection, the 50-page limit and a broken file (pure, no browser)."""

from __future__ import annotations

import time

import pytest

from agent.browser.pdf_document import PAGE_LIMIT, PdfError, paged_lines, parse_pages, read_pdf
from tests.pdf.documents import HANDBOOK_AUTHOR, HANDBOOK_PAGES, HANDBOOK_TITLE


def test_metadata_names_title_author_and_pages(pdf_dir):
    reading = read_pdf((pdf_dir / "handbook.pdf").read_bytes(), "metadata")
    assert f"title: {HANDBOOK_TITLE}" in reading.text
    assert f"author: {HANDBOOK_AUTHOR}" in reading.text
    assert "pages: 4" in reading.text
    assert not reading.limited


def test_text_of_a_range_marks_each_page(pdf_dir):
    reading = read_pdf((pdf_dir / "handbook.pdf").read_bytes(), "text", pages="2-3")
    assert reading.pages == [2, 3]
    lines = paged_lines(reading.text)
    assert {page for page, _ in lines} == {2, 3}
    assert (2, HANDBOOK_PAGES[1][1]) in lines
    assert HANDBOOK_PAGES[0][1] not in reading.text


def test_find_gives_matches_with_page_numbers(pdf_dir):
    reading = read_pdf((pdf_dir / "handbook.pdf").read_bytes(), "find", query="apple harvest")
    assert reading.pages == [3]
    assert reading.text.startswith("[page 3] The apple harvest starts on 12 September")
    missing = read_pdf((pdf_dir / "handbook.pdf").read_bytes(), "find", query="swimming pool")
    assert missing.pages == [] and "no match" in missing.summary


def test_outline_lists_entries_with_their_pages(pdf_dir):
    reading = read_pdf((pdf_dir / "handbook.pdf").read_bytes(), "outline")
    assert reading.text.splitlines() == [f"{h} (page {n})" for n, (h, _) in enumerate(HANDBOOK_PAGES, 1)]


def test_only_the_first_fifty_pages_are_read_and_the_result_says_so(pdf_dir):
    data = (pdf_dir / "long.pdf").read_bytes()
    text = read_pdf(data, "text")
    assert text.limited and text.pages[-1] == PAGE_LIMIT
    assert "only the first 50 of 60 pages" in text.summary
    found = read_pdf(data, "find", query="lighthouse")  # it is on page 55, past the limit
    assert found.pages == [] and "only the first 50 of 60 pages" in found.summary
    assert "only the first 50 of 60 pages" in read_pdf(data, "metadata").text
    with pytest.raises(PdfError, match="no readable page"):
        read_pdf(data, "text", pages=[55])


def test_page_specs():
    assert parse_pages([3, 5], 10) == [3, 5]
    assert parse_pages({"start": 2, "end": 4}, 10) == [2, 3, 4]
    assert parse_pages("1-2, 7", 10) == [1, 2, 7]
    assert parse_pages(None, 80) == list(range(1, 51))
    assert parse_pages("49-60", 80) == [49, 50]


def test_a_broken_file_is_one_clear_error_quickly(pdf_dir):
    started = time.monotonic()
    with pytest.raises(PdfError, match="could not be read") as caught:
        read_pdf((pdf_dir / "broken.pdf").read_bytes(), "text")
    assert time.monotonic() - started < 5
    assert "\n" not in str(caught.value)
    with pytest.raises(PdfError, match="not a PDF"):
        read_pdf(b"<html>hello</html>", "text")
    with pytest.raises(PdfError, match="unknown pdf_extract mode"):
        read_pdf((pdf_dir / "handbook.pdf").read_bytes(), "poetry")
