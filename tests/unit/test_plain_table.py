"""The commands' plain text tables: aligned columns, text taken as written, no trailing spaces."""

from __future__ import annotations

from tui.commands.tables import plain_table


def test_columns_align_under_their_headers() -> None:
    text = plain_table(("GAME", "EVENTS", "TITLE"),
                       [("part14-east-europe", "7", "East [bold]Europe"), ("x", "12345", "")],
                       right=("EVENTS",))
    assert text.splitlines() == [
        "GAME                EVENTS  TITLE",
        "part14-east-europe       7  East [bold]Europe",
        "x                    12345",
    ]
