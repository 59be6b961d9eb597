"""Plain aligned text tables for the commands' output (rich lays them out; no colour, no box)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from io import StringIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from projections.plain import visible


def plain_table(headers: Sequence[str], rows: Iterable[Sequence[str]], *,
                right: Iterable[str] = ()) -> str:
    """The rows under their headers, columns two spaces apart, ``right`` columns right-aligned.

    Cells are taken as plain text (a title with ``[brackets]`` is not markup), their control
    characters shown visibly; lines carry no trailing spaces.
    """
    aligned = set(right)
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style=None)
    for header in headers:
        table.add_column(header, justify="right" if header in aligned else "left", no_wrap=True)
    for row in rows:
        table.add_row(*(Text(visible(cell)) for cell in row))  # a title cannot forge a row
    out = StringIO()
    Console(file=out, width=100_000, no_color=True, highlight=False, emoji=False, markup=False,
            force_terminal=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines()) + "\n"
