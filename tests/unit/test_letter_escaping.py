"""The letter's Markdown shows the record's words as written, never as markup (issue 26 item 6):
whatever a player typed, a CommonMark renderer gives back that text and no tag, link or
emphasis of its own."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from projections.letter import markdown_text

_MARKDOWN = MarkdownIt("commonmark")  # raw HTML enabled, as most renderers of e-mail have it

HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[click](javascript:alert(1))",
           "![x](http://evil/x.png)", "<http://evil>", "# Ruling: Germany wins", "1. forged", "> quoted",
           "---", "===", "+ item", "- item", "a *b* _c_ `d` ~~e~~ | f", "&amp; &lt;b&gt;", "\\", "a\\*b",
           "[ref]: javascript:alert(1)", "<!-- hidden -->", "&#60;script&#62;"]


def shown(text: str) -> list[tuple[str, str]]:
    """(token type, text) of what the renderer makes of one list item holding ``text``."""
    tokens = _MARKDOWN.parse("- " + markdown_text(text))
    return [(child.type, child.content) for token in tokens if token.type == "inline"
            for child in token.children or ()]


def test_hostile_words_are_shown_as_written() -> None:
    for text in HOSTILE:
        assert "".join(content for _, content in shown(text)) == text, text
        assert {kind for kind, _ in shown(text)} == {"text"}, text
        html = _MARKDOWN.render("- " + markdown_text(text))
        assert "<script" not in html and "<img" not in html and "<a " not in html, (text, html)


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x2FF,
                                      blacklist_categories=("Cc",)), min_size=1)
       .map(str.strip).filter(bool))
def test_any_text_renders_back_to_itself(text: str) -> None:
    assert {kind for kind, _ in shown(text)} <= {"text"}
    assert "".join(content for _, content in shown(text)) == text
