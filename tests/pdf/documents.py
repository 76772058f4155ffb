"""PDFs the PDF tests write for themselves (reportlab): several pages with metadata and an outline, a long one
past the page limit, and a broken file."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

#: The text of each page of the handbook, a heading and a paragraph (page numbers from 1).
HANDBOOK_PAGES: list[tuple[str, str]] = [
    ("Welcome", "This handbook describes the Orchard Cooperative and how members work together."),
    ("Membership", "The annual membership fee is 42 euros, paid each January."),
    ("Harvest", "The apple harvest starts on 12 September and lasts three weeks."),
    ("Contact", "Write to the secretary at office@orchard.example for any question."),
]
HANDBOOK_TITLE = "Orchard Cooperative Handbook"
HANDBOOK_AUTHOR = "Ada Greenfield"


def write_handbook(path: Path) -> Path:
    """Four pages, a title and author, and an outline entry per page."""
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setTitle(HANDBOOK_TITLE)
    canvas.setAuthor(HANDBOOK_AUTHOR)
    canvas.setSubject("Member handbook")
    for number, (heading, body) in enumerate(HANDBOOK_PAGES, start=1):
        canvas.bookmarkPage(f"p{number}")
        canvas.addOutlineEntry(heading, f"p{number}", level=0)
        canvas.setFont("Helvetica-Bold", 18)
        canvas.drawString(72, 770, heading)
        canvas.setFont("Helvetica", 12)
        canvas.drawString(72, 740, body)
        canvas.showPage()
    canvas.save()
    return path


def write_long(path: Path, pages: int = 60) -> Path:
    """``pages`` pages, each saying its own number; the word 'lighthouse' only on page 55."""
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setTitle("Long report")
    for number in range(1, pages + 1):
        canvas.setFont("Helvetica", 12)
        canvas.drawString(72, 770, f"Section {number} of the long report.")
        if number == 55:
            canvas.drawString(72, 740, "The lighthouse keeper appears only here.")
        canvas.showPage()
    canvas.save()
    return path


def write_broken(path: Path) -> Path:
    """A file that starts like a PDF and then is garbage."""
    path.write_bytes(b"%PDF-1.7\n" + b"\x00garbage that is no pdf object\n" * 50)
    return path
