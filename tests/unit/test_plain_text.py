"""The one sanitiser every terminal output uses (projections.plain.visible)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from projections.plain import visible


def test_control_characters_become_visible_signs() -> None:
    assert visible("a\x1b[2Jb\x07c\rd\ne\tf\x7fg\x9bh") == \
        "a\u241b[2Jb\u2407c\u240dd\u240ae\u2409f\u2421g\\x9bh"
    assert visible("a\x1b]0;t\x07\nb\tc", lines=True) == "a\u241b]0;t\u2407\nb\tc"
    assert visible("[bold]plain[/bold] é ✓") == "[bold]plain[/bold] é ✓"


@given(st.text())
def test_nothing_a_terminal_obeys_is_left(text: str) -> None:
    shown = visible(text)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in shown)
    kept = visible(text, lines=True)
    assert not any((ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in kept)
    # Text with nothing to hide is left as it is.
    clean = "".join(c for c in text if not (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F))
    assert visible(clean) == clean
