"""The browser layer's text normalisers, each a plain mapping from what a model or a server wrote to what the
browser uses: key names, download file names, URLs."""

from __future__ import annotations

import pytest

from agent.browser.actions import normalize_key
from agent.browser.session import safe_filename
from agent.browser.urls import normalize_url

#: normaliser -> {input: what it gives}
MAPPINGS = {
    normalize_key: {
        "enter": "Enter",
        "ESC": "Escape",
        "down": "ArrowDown",
        "ctrl+a": "Control+a",
        "f5": "F5",
        "Tab": "Tab",
    },
    safe_filename: {
        "../../evil.txt": "evil.txt",
        "_.._evil.txt": "evil.txt",
        "/etc/passwd": "passwd",
        "C:\\Windows\\system32\\x.dll": "x.dll",
        "..": "download",
        "": "download",
        "a\x00b\x1fc.txt": "a_b_c.txt",
        ".bashrc": "bashrc",
        "-rf": "rf",
        "con.txt": "_con.txt",
        "report: Q1?.pdf": "report_ Q1_.pdf",
    },
    normalize_url: {
        "example.com": "https://example.com/",
        "example.com/path?q=1": "https://example.com/path?q=1",
        "  'example.com'  ": "https://example.com/",
        '"https://example.com/a"': "https://example.com/a",
        "`www.example.org`": "https://www.example.org/",
        "<https://example.com/x>": "https://example.com/x",
        "\u201cexample.com\u201d": "https://example.com/",
        "HTTPS://Example.COM/Path": "https://example.com/Path",
        "http://example.com": "http://example.com/",
        "//cdn.example.com/lib.js": "https://cdn.example.com/lib.js",
        "example.com:8080/x": "https://example.com:8080/x",
        "localhost:8000/app": "http://localhost:8000/app",
        "localhost": "http://localhost/",
        "127.0.0.1:5000": "http://127.0.0.1:5000/",
        "http://127.0.0.1:5000/a": "http://127.0.0.1:5000/a",
        "https://localhost:8443/": "https://localhost:8443/",
        "[::1]:8080/x": "http://[::1]:8080/x",
        "exa\tmple.com/pa\nth": "https://example.com/path",
        "https:\\\\example.com\\a\\b": "https://example.com/a/b",
        "https:example.com": "https://example.com/",
        "about:blank": "about:blank",
        "": "",
        "   ": "",
    },
}
CASES = [
    (normalize, raw, expected) for normalize, table in MAPPINGS.items() for raw, expected in table.items()
]


@pytest.mark.parametrize(
    ("normalize", "raw", "expected"), CASES, ids=[f"{f.__name__}-{r!r}" for f, r, _ in CASES]
)
def test_normalizers(normalize, raw: str, expected: str) -> None:
    assert normalize(raw) == expected
