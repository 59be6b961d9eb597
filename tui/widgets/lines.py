"""Panels drawn line by line from prepared text: fast to update, and only changed lines repainted.

Textual re-renders a widget's whole content when it changes; the board and the luck panel change
on every key press, so they render their text once per change (a :class:`Grid` is laid out by hand,
several times faster than Rich's Table) and repaint only the lines that differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from tui.widgets.styles import TAG_STYLES

#: The narrowest a column that may wrap is left when the others are kept whole.
MIN_COLUMN = 6


class Grid:
    """A plain table laid out by hand: fixed label column, the others shared by ratio, cells wrapped.

    Rich's Table measures every cell twice to fit columns; the board's columns are known, and this
    is several times faster, which matters on every key press. A column's cells are not wrapped
    while they fit: each column gets the room its widest cell needs when the grid has it, the
    ``whole`` ones (units: "4 INF, 2 ARM" cut in two reads as two rows) first; what is left is
    shared by ratio among the columns that need more (the dice wrap).
    """

    def __init__(self, headers: tuple[str, ...], ratios: tuple[int, ...], *, label_width: int,
                 short: tuple[str, ...] | None = None, fit_label: bool = False,
                 whole: tuple[bool, ...] | None = None) -> None:
        self.headers = headers
        #: The label column only as wide as its widest label or header (``label_width`` at most):
        #: a narrow panel gives the other columns the room short labels leave.
        self.fit_label = fit_label
        #: Headers used when the full ones do not fit their columns (a narrow panel).
        self.short = short or headers
        self.ratios = ratios
        self.whole = whole or (False,) * len(ratios)
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
        count = len(self.ratios)
        rest = max(count, width - label - count)
        natural = [max([len(self.short[c + 1]), *(_widest(row[c + 1]) for row in self.rows)])
                   for c in range(count)]
        widths = [0] * count
        # The columns kept whole, narrowest first, while the others keep MIN_COLUMN each.
        kept = 0
        for c in sorted((c for c in range(count) if self.whole[c]), key=natural.__getitem__):
            if kept + natural[c] + MIN_COLUMN * (count - 1 - sum(1 for w in widths if w)) > rest:
                break
            widths[c] = natural[c]
            kept += natural[c]
        _share(widths, [c for c in range(count) if not widths[c]], rest - sum(widths), natural, self.ratios)
        return [label, *widths]

    def lines(self, console: Console, width: int) -> list[Text]:
        """The header, a rule, and each row's lines, each exactly ``width`` cells or less."""
        widths = self.widths(width)
        fits = all(len(h) <= w for h, w in zip(self.headers, widths, strict=True))
        out = [self._line([Text(h, "bold") for h in (self.headers if fits else self.short)], widths),
               Text("─" * width, TAG_STYLES["dim"], no_wrap=True)]
        for cells in self.rows:
            wrapped = [_cell_lines(cell, console, w) for cell, w in zip(cells, widths, strict=True)]
            for k in range(max(len(lines) for lines in wrapped)):
                out.append(self._line([lines[k] if k < len(lines) else Text() for lines in wrapped], widths))
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The grid's lines at the width offered."""
        yield from self.lines(console, options.max_width)

    @staticmethod
    def _line(parts: list[Text], widths: list[int]) -> Text:
        """The cells side by side, each cropped or padded to its column, one space between
        them, trailing spaces stripped: what appending each to a Text and ``rstrip`` make (the
        same text and spans), in one Text rather than an append each (a board has a hundred)."""
        pieces: list[str] = []
        spans: list[Span] = []
        at = 0
        for cell, w in zip(parts, widths, strict=True):
            length = cell.cell_len
            pad = w - length + 1
            piece = cell
            if length > w or cell.style:
                piece = cell.copy()
                piece.truncate(w, overflow="crop", pad=True)
                pad = 1
                if piece.style:
                    spans.append(Span(at, at + len(piece), piece.style))
            spans.extend(Span(at + start, at + end, style) for start, end, style in piece.spans)
            pieces.append(piece.plain)
            pieces.append(" " * pad)
            at += len(piece) + pad
        plain = "".join(pieces)
        text = plain.rstrip()
        if len(text) < len(plain):  # Text.rstrip: the spans past the end go, those over it are cut
            end = len(text)
            spans = [span if span.end < end else Span(span.start, end, span.style)
                     for span in spans if span.start < end]
        return Text(text, no_wrap=True, overflow="crop", spans=spans)


def _cell_lines(cell: Text, console: Console, width: int) -> list[Text]:
    """A cell's lines in ``width`` cells: wrapped when too wide; a cell of several lines that
    all fit split at its line breaks (what wrapping gives it, without measuring every word)."""
    plain = cell.plain
    if "\n" not in plain:
        return list(cell.wrap(console, max(1, width), overflow="fold")) if cell.cell_len > width else [cell]
    if "\t" not in plain and _widest(cell) <= width:
        return list(cell.split("\n", allow_blank=True))
    return list(cell.wrap(console, max(1, width), overflow="fold"))


def _widest(cell: Text) -> int:
    """The widest line of a cell."""
    plain = cell.plain
    return max(len(line) for line in plain.split("\n")) if "\n" in plain else cell.cell_len


def _share(widths: list[int], columns: list[int], room: int, natural: list[int],
           ratios: tuple[int, ...]) -> None:
    """Share ``room`` among ``columns`` by ratio, none beyond its natural width while another
    needs more; what is left over then goes to every column by ratio."""
    waiting = list(columns)
    while waiting and room > 0:
        total = sum(ratios[c] for c in waiting)
        offer = {c: room * ratios[c] // total for c in waiting}
        settled = [c for c in waiting if natural[c] - widths[c] <= offer[c]]
        if not settled:
            for c in waiting:
                widths[c] += offer[c]
            widths[waiting[-1]] += room - sum(offer.values())
            room = 0
            break
        for c in settled:
            room -= natural[c] - widths[c]
            widths[c] = natural[c]
            waiting.remove(c)
    if room > 0:
        total = sum(ratios)
        extra = [room * ratio // total for ratio in ratios]
        extra[-1] += room - sum(extra)
        for c, more in enumerate(extra):
            widths[c] += more
    for c, have in enumerate(widths):
        widths[c] = max(1, have)


class Rendered:
    """Lines of text rendered once at a width, kept by a panel redrawn on every key press for
    the lines that did not change (the story's rows); any other width renders the texts anew."""

    def __init__(self, texts: list[Text], console: Console, width: int) -> None:
        self.texts = texts
        self.width = width
        self.lines = _text_lines(texts, console, width)
        #: The lines as a panel's strips, for the panel's style they were made with.
        self._strips: tuple[Style, list[Strip]] | None = None

    def strips(self, base: Style) -> list[Strip]:
        """The lines as strips in ``base`` (a pure function of the lines, the width and
        ``base``, so they are made once for each style a panel asks with)."""
        kept = self._strips
        if kept is None or kept[0] != base:
            kept = self._strips = (base, _strips(self.lines, base, self.width))
        return kept[1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The texts, as a Group of them renders (``z`` shows a panel this way)."""
        yield from self.texts


def content_lines(content: RenderableType, console: Console, options: ConsoleOptions) -> list[list[Segment]]:
    """Rendered lines; texts and grids directly (much faster than the console's general rendering)."""
    width = options.max_width
    parts = content.renderables if isinstance(content, Group) else [content]
    if all(isinstance(r, Text | Grid | Rendered) for r in parts):
        lines: list[list[Segment]] = []
        for part in parts:
            if isinstance(part, Rendered):
                lines.extend(part.lines if part.width == width else _text_lines(part.texts, console, width))
            elif isinstance(part, Text | Grid):
                lines.extend(_text_lines([part], console, width))
        return lines
    return console.render_lines(content, options, pad=False)


def content_strips(content: RenderableType, console: Console, width: int, base: Style) -> list[Strip]:
    """The content's lines (as :func:`content_lines`) as strips ``width`` cells wide in ``base``;
    a :class:`Rendered` part's at its own width made once (the story's rows, redrawn on every
    key press)."""
    parts = content.renderables if isinstance(content, Group) else [content]
    if not all(isinstance(r, Text | Grid | Rendered) for r in parts):
        options = console.options.update(width=max(1, width), height=None, highlight=False)
        return _strips(console.render_lines(content, options, pad=False), base, width)
    wrap = max(1, width)
    strips: list[Strip] = []
    for part in parts:
        if isinstance(part, Rendered):
            strips.extend(part.strips(base) if part.width == width
                          else _strips(_text_lines(part.texts, console, wrap), base, width))
        elif isinstance(part, Text | Grid):
            strips.extend(_strips(_text_lines([part], console, wrap), base, width))
    return strips


def _strips(lines: list[list[Segment]], base: Style, width: int) -> list[Strip]:
    """Lines of segments as strips ``width`` cells wide, in ``base`` (a panel's style): what
    ``Strip(...).crop_extend(0, width, base)`` makes, padded here in one strip rather than two
    (a strip is costly to make; a panel's lines are mostly shorter than the panel)."""
    strips = []
    for line in lines:
        segments = list(Segment.apply_style(line, base))
        length = Segment.get_line_length(segments)
        if length < width:
            segments.append(Segment(" " * (width - length), base))
            strips.append(Strip(segments, width))
        else:
            strips.append(Strip(segments, length).crop(0, width))
    return strips


def _text_lines(parts: Sequence[Text | Grid], console: Console, width: int) -> list[list[Segment]]:
    """Texts (wrapped to ``width``) and grids as lines of segments."""
    texts: list[Text] = []
    for part in parts:
        if isinstance(part, Grid):
            texts.extend(part.lines(console, width))
        else:
            texts.extend(part.wrap(console, width) if part.cell_len > width or "\n" in part.plain else [part])
    return [[s for s in text.render(console) if s.text != "\n"] for text in texts]


#: What the last line of a panel too short for its content says instead (``z``: tui/app.py).
MORE = "▼ {count} more lines · z shows every panel in full"


class LinesPanel(Widget):
    """A panel showing a renderable, rendered once per change; only changed lines are repainted.

    Content taller than the panel is never cut silently: its last line says how many lines are
    not shown, and ``z`` shows them (tui/screens/panels.py)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._content: RenderableType = Text()
        self._strips: list[Strip] = []
        #: A row under the content (Textual works ``rich_style`` out from every ancestor at each call).
        self._blank = Strip([])
        self._width = -1
        #: The lines shown, for the content's lines and the panel's height they were made for.
        self._kept_shown: tuple[list[Strip], int, list[Strip]] | None = None

    def set_content(self, content: RenderableType, *, relayout: bool = False) -> None:
        """Show ``content`` (repainting the lines that differ from what is on screen; all of them
        when the panel is about to be laid out again: ``relayout``, drawn once at its new size)."""
        old = self._visible_lines() if self._width == self.content_region.width and not relayout else None
        self._content = content
        self._width = -1
        if old is None:
            self.refresh()
            return
        new = self._visible_lines()
        width = self._width
        changed = [Region(0, y, width, 1) for y in range(max(len(old), len(new)))
                   if y >= len(old) or y >= len(new) or old[y]._segments != new[y]._segments]
        if changed:  # (no region at all would repaint every line)
            # One refresh for all the lines: each call looks the widget up on the screen and
            # asks for an idle pass (~0.1 ms; a board that changes whole has twenty lines).
            self.refresh(*changed)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The content's lines at ``width`` (a panel of ``height: auto`` is as tall as them)."""
        console = self.app.console
        options = console.options.update(width=max(1, width), height=None, highlight=False)
        return len(content_lines(self._content, console, options))

    @property
    def content(self) -> RenderableType:
        """What the panel shows (all of it, however tall)."""
        return self._content

    @property
    def text(self) -> str:
        """The panel's content as plain text, all of it (for tests)."""
        return "\n".join(strip.text.rstrip() for strip in self._render_strips())

    @property
    def shown_text(self) -> str:
        """The lines the panel shows as plain text, the last one saying what is not shown."""
        return "\n".join(strip.text.rstrip() for strip in self._visible_lines())

    @property
    def cut(self) -> int:
        """How many lines of the content the panel does not show (0: it shows them all)."""
        height = self.content_region.height
        lines = len(self._render_strips())
        return lines - height + 1 if height and lines > height else 0

    def _visible_lines(self) -> list[Strip]:
        """The lines on screen: the content's, the last one saying how many more there are
        when the panel is too short for them."""
        strips = self._render_strips()
        height = self.content_region.height
        kept = self._kept_shown
        if kept is not None and kept[0] is strips and kept[1] == height:
            return kept[2]
        cut = self.cut
        if not cut:
            self._kept_shown = (strips, height, strips)
            return strips
        more = Text(MORE.format(count=cut), TAG_STYLES["dim"] + Style(italic=True), no_wrap=True,
                    overflow="ellipsis")
        more.truncate(self._width, overflow="ellipsis")
        segments = list(more.render(self.app.console))
        base = self.rich_style
        strip = Strip(Segment.apply_style(segments, base)).crop_extend(0, self._width, base)
        shown = [*strips[:len(strips) - cut], strip]
        self._kept_shown = (strips, height, shown)
        return shown

    def _render_strips(self) -> list[Strip]:
        width = self.content_region.width
        if width != self._width:
            self._width = width
            base = self.rich_style
            self._strips = content_strips(self._content, self.app.console, width, base)
            self._blank = Strip.blank(width, base)
        return self._strips

    def render_line(self, y: int) -> Strip:
        """One line of the panel."""
        strips = self._visible_lines()
        if y < len(strips):
            return strips[y]
        return self._blank
