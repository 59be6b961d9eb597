"""What the Minister hands on can be trusted (issues 26 and 27), on a real store (SQLite, and
PostgreSQL when ``MINISTER_TEST_POSTGRES`` names a server): the letter shows players' words as
written in every format, and bad dice are refused at the door."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.e2e.test_desk import GAME_ID, imported, run, spec, stored

__all__ = ["spec"]  # the store fixture (SQLite, PostgreSQL), shared with test_desk

HOSTILE = '<script>alert(1)</script> <img src=x onerror=alert(1)> [see](javascript:alert(1))'


def test_the_letter_shows_players_words_never_their_markup(
        tmp_path: Path, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A report and a ruling whose words carry HTML and a Markdown link: the Markdown letter,
    rendered as most mail programs do (raw HTML allowed), and the HTML letter hold no tag and
    no link of theirs; the words are there, as typed (issue 26 item 6)."""
    imported(tmp_path, spec, capsys)
    assert run(capsys, "report", GAME_ID, "--by", "<b>Germany</b>", "--text", HOSTILE, "--store", spec)[0] == 0
    assert run(capsys, "rule", GAME_ID, "--finding", "F1", "--decision", "dismiss", "--text", HOSTILE,
               "--store", spec)[0] == 0
    code, markdown, _ = run(capsys, "letter", GAME_ID, "--format", "markdown", "--store", spec)
    assert code == 0
    rendered = MarkdownIt("commonmark").render(markdown)
    code, html, _ = run(capsys, "letter", GAME_ID, "--format", "html", "--store", spec)
    assert code == 0
    for page in (rendered, html):
        for tag in ("<script", "<img", "<a ", "<b>", "javascript:alert(1)\""):
            assert tag not in page, (tag, page)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page


@pytest.mark.parametrize("faces", [" ", "", "*", " , ", "6" * 10_001],
                         ids=["blank", "empty", "star", "commas", "10001-dice"])
def test_no_dice_or_too_many_are_refused_at_entry(tmp_path: Path, spec: str, faces: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``dice GAME --battle B " "`` stored zero dice, after which the game could never be
    exported and imported again (issue 26 item 5): exit 2, nothing stored."""
    imported(tmp_path, spec, capsys)
    before = stored(spec)
    code, _, err = run(capsys, "dice", GAME_ID, "--battle", "W Europe", faces, "--store", spec)
    assert code == 2 and ("no die given" in err or "expected at most 10000" in err
                          or "expected faces 1-6" in err), err
    assert "Traceback" not in err and stored(spec) == before
