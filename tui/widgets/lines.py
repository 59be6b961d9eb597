"""Panels drawn line by line from prepared text: fast to update, and only changed lines repainted.

Textual re-renders a widget's whole content when it changes; the board and the luck panel change
on every key press, so they render their text once per change (a :class:`Grid` is laid out by hand,
several times faster than Rich's Table) and repaint only the lines that differ.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from tui.widgets.styles import TAG_STYLES


class Grid:
    """A plain table laid out by hand: fixed label column, the others shared by ratio, cells wrapped.

    Rich's Table measures every cell twice to fit columns; the board's columns are known, and this
    is several times faster, which matters on every key press.
    """

    def __init__(self, headers: tuple[str, ...], ratios: tuple[int, ...], *, label_width: int,
                 short: tuple[str, ...] | None = None, fit_label: bool = False) -> None:
        self.headers = headers
        #: The label column only as wide as its widest label or header (``label_width`` at most):
        #: a narrow panel gives the other columns the room short labels leave.
        self.fit_label = fit_label
        #: Headers used when the full ones do not fit their columns (a narrow panel).
        self.short = short or headers
        self.ratios = ratios
        self.label_width = label_width
        self.rows: list[tuple[Text, ...]] = []

    def add_row(self, *cells: Text) -> None:
        """A row: the label, then one cell per ratio."""
        self.rows.append(cells)

    def widths(self, width: int) -> list[int]:
        """Column widths for a total width (one space between columns)."""
        label = self.label_width
        if self.fit_label:
            label = min(label, max([len(self.headers[0]), *(row[0].cell_len for row in self.rows)]))
        rest = max(len(self.ratios), width - label - len(self.ratios))
        total = sum(self.ratios)
        widths = [rest * r // total for r in self.ratios]
        widths[-1] += rest - sum(widths)
        return [label, *widths]

    def lines(self, console: Console, width: int) -> list[Text]:
        """The header, a rule, and each row's lines, each exactly ``width`` cells or less."""
        widths = self.widths(width)
        fits = all(len(h) <= w for h, w in zip(self.headers, widths, strict=True))
        out = [self._line([Text(h, "bold") for h in (self.headers if fits else self.short)], widths),
               Text("─" * width, TAG_STYLES["dim"], no_wrap=True)]
        for cells in self.rows:
            wrapped = [list(cell.wrap(console, max(1, w), overflow="fold")) if cell.cell_len > w
                       or "\n" in cell.plain else [cell] for cell, w in zip(cells, widths, strict=True)]
            for k in range(max(len(lines) for lines in wrapped)):
                out.append(self._line([lines[k] if k < len(lines) else Text() for lines in wrapped], widths))
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The grid's lines at the width offered."""
        yield from self.lines(console, options.max_width)

    @staticmethod
    def _line(parts: list[Text], widths: list[int]) -> Text:
        line = Text(no_wrap=True, overflow="crop")
        for part, w in zip(parts, widths, strict=True):
            length = part.cell_len
            if length <= w and not part.style:
                # Most cells fit: no copy to pad (the spaces are unstyled either way).
                line.append_text(part)
                line.append(" " * (w - length + 1))
                continue
            piece = part.copy()
            piece.truncate(w, overflow="crop", pad=True)
            line.append_text(piece)
            line.append(" ")
        line.rstrip()
        return line


def content_lines(content: RenderableType, console: Console, options: ConsoleOptions) -> list[list[Segment]]:
    """Rendered lines; texts and grids directly (much faster than the console's general rendering)."""
    width = options.max_width
    parts = content.renderables if isinstance(content, Group) else [content]
    if all(isinstance(r, Text | Grid) for r in parts):
        texts: list[Text] = []
        for part in parts:
            if isinstance(part, Grid):
                texts.extend(part.lines(console, width))
            elif isinstance(part, Text):
                texts.extend(part.wrap(console, width) if part.cell_len > width or "\n" in part.plain
                             else [part])
        return [[s for s in text.render(console) if s.text != "\n"] for text in texts]
    return console.render_lines(content, options, pad=False)


class LinesPanel(Widget):
    """A panel showing a renderable, rendered once per change; only changed lines are repainted."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._content: RenderableType = Text()
        self._strips: list[Strip] = []
        #: A row under the content (Textual works ``rich_style`` out from every ancestor at each call).
        self._blank = Strip([])
        self._width = -1

    def set_content(self, content: RenderableType, *, relayout: bool = False) -> None:
        """Show ``content`` (repainting the lines that differ from what is on screen; all of them
        when the panel is about to be laid out again: ``relayout``, drawn once at its new size)."""
        old = self._strips if self._width == self.content_region.width and not relayout else None
        self._content = content
        self._width = -1
        if old is None:
            self.refresh()
            return
        new = self._render_strips()
        width = self._width
        for y in range(max(len(old), len(new))):
            if y >= len(old) or y >= len(new) or old[y]._segments != new[y]._segments:
                self.refresh(Region(0, y, width, 1))

    @property
    def text(self) -> str:
        """The panel's content as plain text (for tests)."""
        return "\n".join(strip.text.rstrip() for strip in self._render_strips())

    def _render_strips(self) -> list[Strip]:
        width = self.content_region.width
        if width != self._width:
            self._width = width
            console = self.app.console
            options = console.options.update(width=max(1, width), height=None, highlight=False)
            base = self.rich_style
            self._strips = [Strip(Segment.apply_style(line, base)).crop_extend(0, width, base)
                            for line in content_lines(self._content, console, options)]
            self._blank = Strip.blank(width, base)
        return self._strips

    def render_line(self, y: int) -> Strip:
        """One line of the panel."""
        strips = self._render_strips()
        if y < len(strips):
            return strips[y]
        return self._blank
