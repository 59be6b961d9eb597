"""Plain aligned text tables for the commands' output (no colour, no box).

Laid out here rather than by rich's Table: ``minister games`` lists a whole club archive, and
rich took ~0.3 s to import and lay out 500 rows (tests/unit/test_plain_table.py checks the
output is what rich's Table printed, cell widths measured the same way).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len

from projections.plain import visible


def plain_table(headers: Sequence[str], rows: Iterable[Sequence[str]], *,
                right: Iterable[str] = ()) -> str:
    """The rows under their headers, columns two spaces apart, ``right`` columns right-aligned.

    Cells are taken as plain text (a title with ``[brackets]`` is not markup), their control
    characters shown visibly; lines carry no trailing spaces.
    """
    aligned = [header in set(right) for header in headers]
    table = [list(headers), *([visible(cell) for cell in row] for row in rows)]
    for row in table:
        row.extend("" for _ in range(len(headers) - len(row)))
    sizes = [[cell_len(cell) for cell in row] for row in table]
    widths = [max(size[column] for size in sizes) for column in range(len(headers))]
    lines = []
    for row, size in zip(table, sizes, strict=True):
        cells = [_right(cell, width) if right_aligned else cell + " " * (width - used)
                 for cell, used, width, right_aligned in zip(row, size, widths, aligned, strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def _right(cell: str, width: int) -> str:
    """A right-aligned cell: its trailing spaces dropped (as rich does), then padded on the left."""
    text = cell.rstrip()
    return " " * (width - cell_len(text)) + text
