"""The timeline as one scrolling line of points, drawn with Textual's Line API.

Only the rows on screen are rendered (``render_line``), so a game of hundreds of thousands of
points costs no more to show than a short one. A point's label too long for the column wraps
onto the rows under it (projections.wrap), indented under its first row: no row is cut. The view
scrolls by points (``scroll_y`` is the point at the top), so where a point is on screen is worked
out from the few points above it on screen, never from every point of the game.
"""

from __future__ import annotations

import weakref
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from projections.plain import visible
from projections.timeline import Timeline
from projections.wrap import breaks, cut
from tui.widgets.repaint import refresh_changed, set_virtual_size, visible_rows
from tui.widgets.styles import TAG_STYLES

#: Rows kept visible above and below the cursor when scrolling.
SCROLL_MARGIN = 3
#: Rendered rows kept (a screenful many times over).
STRIP_CACHE = 4096
#: Timelines whose rendered rows are kept besides the one shown (the other history's).
KEPT_TIMELINES = 2
_INDENT = 2
#: A timeline's rendered rows and its nodes' heights (TimelineView._strips, _heights).
_Drawn = tuple[dict[tuple[int, int, int, int], Strip], dict[tuple[int, int], int]]


class TimelineView(ScrollView, can_focus=True, inherit_bindings=False):
    """A virtual list of timeline nodes with a cursor; keys are the app's (so they can be remapped)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"timeline--cursor", "timeline--finding"}

    DEFAULT_CSS = """
    TimelineView {
        overflow-x: hidden;
        overflow-y: auto;
        /* No scrollbar: repainting one costs more than the rows (the header says where you are). */
        scrollbar-size-vertical: 0;
    }
    TimelineView > .timeline--cursor {
        background: $accent 40%;
        text-style: bold;
    }
    TimelineView:focus > .timeline--cursor {
        background: $accent;
        color: $text;
    }
    TimelineView > .timeline--finding {
        color: $error;
        text-style: bold;
    }
    """

    class Moved(Message):
        """The cursor moved to another node."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timeline: Timeline | None = None
        self.cursor = 0
        #: Rows rendered: (node, its row, 0 / 1 / 2: not the cursor / the cursor / the cursor
        #: focused, width) -> strip.
        self._strips: dict[tuple[int, int, int, int], Strip] = {}
        #: How many rows each node's label takes: (node, width) -> rows.
        self._heights: dict[tuple[int, int], int] = {}
        #: The rows rendered of the timelines shown before (``v`` shows the other history's
        #: timeline and back), while the app holds them (a timeline replaced by a fuller one goes).
        self._kept: dict[int, tuple[weakref.ref[Timeline], _Drawn]] = {}
        #: What each row of the screen shows, (node, its row), for the top node, width and height
        #: it was laid out for.
        self._window: tuple[tuple[int, int, int, int], list[tuple[int, int]]] | None = None
        #: Rows rendered since the timeline was set (the benchmark's "first paint" signal).
        self.rendered_rows = 0
        #: Whether the cursor has moved since the timeline was set (see on_resize).
        self._moved = False
        #: The rows' style (``rich_style``), kept until the styles change (see _base_style).
        self._base: Style | None = None

    def show(self, timeline: Timeline, cursor: int = 0) -> None:
        """Show a timeline with the cursor at ``cursor`` (repainting the rows that differ from
        those shown: ``v`` shows the other history, mostly the same rows)."""
        width = self._area.width
        before = visible_rows(self, self.render_line) if self.timeline is not None else None
        top = round(self.scroll_y)
        kept = self._kept
        for key in [key for key, (ref, _) in kept.items() if ref() is None]:
            del kept[key]
        if self.timeline is not None:
            kept.pop(id(self.timeline), None)
            while len(kept) >= KEPT_TIMELINES:
                del kept[next(iter(kept))]  # the one shown longest ago
            kept[id(self.timeline)] = (weakref.ref(self.timeline), (self._strips, self._heights))
        found = kept.pop(id(timeline), None)
        self._strips, self._heights = found[1] if found is not None and found[0]() is timeline else ({}, {})
        self.timeline = timeline
        self._window = None
        self.rendered_rows = 0
        set_virtual_size(self, Size(self.size.width, self._virtual_height()))
        self.cursor = min(max(0, cursor), max(0, len(timeline) - 1))
        self._moved = False
        self._keep_visible()
        if before is None or round(self.scroll_y) != top or width != self._area.width:
            self.refresh()
        else:
            refresh_changed(self, before, visible_rows(self, self.render_line))

    def move_to(self, index: int) -> None:
        """Put the cursor on node ``index`` and bring it into view."""
        if self.timeline is None:
            return
        index = min(max(0, index), max(0, len(self.timeline) - 1))
        old, self.cursor = self.cursor, index
        self._moved = True
        if old != index:
            width = self._area.width
            rows = [Region(0, y, width, 1) for y, (node, _) in enumerate(self._layout())
                    if node in (old, index)]
            if rows:  # (no region at all would repaint every row)
                self.refresh(*rows)
        self._keep_visible()

    # -- rows ------------------------------------------------------------------------------------
    @property
    def _area(self) -> Size:
        """The rows' width and height: ``scrollable_content_region``'s size without its look-up of
        the widget on the screen (~20 µs, asked two or three times for each row drawn). Textual
        sets ``container_size`` (the size inside the border) on every resize; the view has no
        scrollbar (see DEFAULT_CSS), so nothing else takes room from the rows."""
        return self.container_size

    def _room(self, i: int, width: int) -> tuple[int, int]:
        """Characters a node's label has on its first row and on the rows it wraps onto (after
        the cursor gutter, the finding mark, its indentation and, wrapped, two more)."""
        assert self.timeline is not None
        first = width - 2 - self.timeline.nodes[i].depth * _INDENT
        return first, first - _INDENT

    def rows_of(self, i: int) -> int:
        """How many rows node ``i`` takes at the view's width."""
        width = self._area.width
        found = self._heights.get((i, width))
        if found is None:
            assert self.timeline is not None
            found = self._heights[(i, width)] = len(breaks(visible(self.timeline.label(i)),
                                                          *self._room(i, width)))
        return found

    def _layout(self) -> list[tuple[int, int]]:
        """What each row of the screen shows: (node, its row), from the node at the top."""
        timeline = self.timeline
        region = self._area
        top = round(self.scroll_y)
        key = (id(timeline), top, region.width, region.height)
        if self._window is not None and self._window[0] == key:
            return self._window[1]
        rows: list[tuple[int, int]] = []
        i = top
        while timeline is not None and len(rows) < region.height and i < len(timeline):
            rows.extend((i, k) for k in range(min(self.rows_of(i), region.height - len(rows))))
            i += 1
        self._window = (key, rows)
        return rows

    def _top_for(self, i: int, above: int) -> int:
        """The top node that puts node ``i`` ``above`` rows down (or as near as the start allows)."""
        top, rows = i, 0
        while top > 0 and rows + self.rows_of(top - 1) <= above:
            top -= 1
            rows += self.rows_of(top)
        return top

    def _virtual_height(self) -> int:
        """The view's height in scroll units: the last top node that leaves no row empty (the
        last page's nodes may wrap), plus the view's height."""
        timeline = self.timeline
        height = max(1, self._area.height)
        if timeline is None or not len(timeline) or not self._area.width:
            return len(timeline) if timeline is not None else 0
        last = len(timeline) - 1
        top = self._top_for(last, height - self.rows_of(last))
        return top + height

    def _keep_visible(self) -> None:
        """Scroll when the cursor nears an edge: by a third of a page at a time, not a line, so
        that most steps repaint two rows rather than the whole view."""
        if self.timeline is None or not len(self.timeline):
            return
        height = max(1, self._area.height)
        top = round(self.scroll_y)
        margin = min(SCROLL_MARGIN, (height - 1) // 2)
        above = sum(self.rows_of(i) for i in range(top, self.cursor)) if top <= self.cursor < top + height \
            else -1
        if self.cursor < top or (0 <= above < margin and top > 0):
            self.scroll_to(y=self._top_for(self.cursor, (2 * height) // 3), animate=False)
        elif above < 0 or above + self.rows_of(self.cursor) > height - margin:
            self.scroll_to(y=self._top_for(self.cursor, height // 3), animate=False)

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        """A new size: Textual repaints every row; of a new height alone, only the rows from the
        lower border of the shorter view down differ (the rows above it are the same rows).

        The detail under the timeline (a row too long for it, read in full) comes and goes as
        the cursor moves, and the timeline is then one to three rows shorter or taller: about
        a third of the key presses, and every row redrawn was most of such a press.
        """
        old = self._size
        if not old or size.width != old.width or size.height == old.height:
            return super()._size_updated(size, virtual_size, container_size, layout)
        # ScrollView._size_updated (Textual 8.2) without its "every row is dirty".
        self._scrollbar_changes.clear()
        self._size = size
        self._container_size = size - self.styles.gutter.totals
        self._scroll_update(self.virtual_size)
        top = min(old.height, size.height) - 1
        offset = self.content_offset
        self.refresh(Region(-offset.x, top - offset.y, size.width, size.height - top))
        return True

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Repaint the rows when the top point changes. ScrollView's watcher also moves its
        scrollbar, which this view never shows: that marked a widget the screen does not lay
        out as changed, and Textual then laid out the whole screen again (~1 ms a scroll)."""
        if round(old_value) != round(new_value):
            self.refresh(self.size.region)

    def on_resize(self, event: events.Resize) -> None:
        """Keep the virtual width equal to the widget (labels are cropped, never scrolled).

        Until the cursor is first moved, a resize puts it a third of the way down, so where it
        stands depends on the final size only, not on the sizes the layout went through while
        the app started; afterwards the view scrolls as little as it can.
        """
        if self.timeline is not None:
            self.virtual_size = Size(event.size.width, self._virtual_height())
            if self._moved:
                self._keep_visible()
            else:
                height = max(1, self._area.height)
                self.scroll_to(y=self._top_for(self.cursor, height // 3), animate=False)

    def on_click(self, event: events.Click) -> None:
        """A click moves the cursor to the clicked row."""
        if self.timeline is None:
            return
        rows = self._layout()
        if 0 <= event.y < len(rows):
            self.post_message(self.Moved(rows[event.y][0]))

    def _base_style(self) -> Style:
        """The rows' style: Textual works it out from every ancestor's styles at each call
        (~0.1 ms, for each of the twenty rows a scroll brings)."""
        if self._base is None:
            self._base = self.rich_style
        return self._base

    def notify_style_update(self) -> None:
        """The styles changed (a theme, the focus): the rows' style is worked out again."""
        self._base = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        """One row: cursor gutter, finding mark, indentation and (a row's worth of) the node's label."""
        width = self._area.width
        timeline = self.timeline
        rows = self._layout() if timeline is not None else []
        if y >= len(rows):
            return Strip.blank(width, self._base_style())
        assert timeline is not None
        index, row = rows[y]
        self.rendered_rows += 1
        key = (index, row, (index == self.cursor) + (index == self.cursor and self.has_focus), width)
        cached = self._strips.get(key)
        if cached is not None:
            return cached
        base = self._base_style()
        if len(self._strips) > STRIP_CACHE:
            self._strips.clear()
        node = timeline.nodes[index]
        finding = bool(timeline.findings_at(index))
        gutter = "▶" if index == self.cursor and not row else " "
        segments = [Segment(gutter, base)]
        if finding and not row:
            segments.append(Segment("!", self.get_component_rich_style("timeline--finding")))
        else:
            segments.append(Segment(" ", base))
        segments.append(Segment(" " * (node.depth * _INDENT + (_INDENT if row else 0)), base))
        # Record text (names, report words) is shown, never obeyed by the terminal.
        spans = [(visible(part), tag) for part, tag in timeline.spans(index)]
        start, end = breaks("".join(part for part, _ in spans), *self._room(index, width))[row]
        for part, tag in cut(spans, start, end):
            segments.append(Segment(part, base + TAG_STYLES[tag]))
        strip = Strip(segments).crop_extend(0, width, base)
        if index == self.cursor:
            strip = strip.apply_style(self.get_component_rich_style("timeline--cursor"))
        self._strips[key] = strip
        return strip
