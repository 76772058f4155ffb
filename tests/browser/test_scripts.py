"""Page scripts as sent: comments and indentation go, code (strings, regexes, template text) stays."""

from __future__ import annotations

from agent.browser.scripts import compact_script
from agent.dom.pass_script import SOM_DIR, SOM_JS, SOM_PARTS


def test_compact_script_drops_comments_keeps_code() -> None:
    text = "(a) => {\n  // a comment line\n\n  const u = 'http://x.test/a'; // why\n  return /\\/\\// .test(u); // a/b\n}\n"
    assert compact_script(text) == (
        "(a) => {\nconst u = 'http://x.test/a';\nreturn /\\/\\// .test(u); // a/b\n}"
    )


def test_compact_script_leaves_template_literals_alone() -> None:
    text = "(a) => {\n  return `line one\n  // not a comment`;\n}"
    assert compact_script(text) == text


def test_marking_pass_is_sent_compacted() -> None:
    full = "".join((SOM_DIR / f"{part}.js").read_text(encoding="utf-8") for part in SOM_PARTS)
    assert len(SOM_JS) < 0.8 * len(full)
    assert not any(line.startswith("//") or line != line.strip() for line in SOM_JS.split("\n"))
