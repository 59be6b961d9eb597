"""The commands' plain text tables: aligned columns, text taken as written, no trailing spaces."""

from __future__ import annotations

from collections.abc import Sequence
from io import StringIO

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from projections.plain import visible
from tui.commands.tables import plain_table


def rich_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[str]) -> str:
    """What the commands printed when rich laid the table out (the reference)."""
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style=None)
    for header in headers:
        table.add_column(header, justify="right" if header in right else "left", no_wrap=True)
    for row in rows:
        table.add_row(*(Text(visible(cell)) for cell in row))
    out = StringIO()
    Console(file=out, width=100_000, no_color=True, highlight=False, emoji=False, markup=False,
            force_terminal=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines()) + "\n"


#: Names and titles as a club writes them: wide (CJK) and combining characters, emoji, controls.
CELL = st.text(st.sampled_from("ab Z9[]-_:\x1b\t\n\u00e9e\u0301\u4e2d\u6587\U0001f3b2\u2502 "), max_size=12)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(CELL, CELL, CELL), max_size=6),
       right=st.sampled_from([(), ("N",), ("A", "N")]))
def test_the_table_is_what_rich_laid_out(rows: list[tuple[str, str, str]], right: tuple[str, ...]) -> None:
    headers = ("A", "TITLE", "N")
    assert plain_table(headers, rows, right=right) == rich_table(headers, rows, right)


def test_columns_align_under_their_headers() -> None:
    text = plain_table(("GAME", "EVENTS", "TITLE"),
                       [("part14-east-europe", "7", "East [bold]Europe"), ("x", "12345", "")],
                       right=("EVENTS",))
    assert text.splitlines() == [
        "GAME                EVENTS  TITLE",
        "part14-east-europe       7  East [bold]Europe",
        "x                    12345",
    ]
