"""Repaint only what changed: a key press that redraws every panel costs most of its time in
Textual's rendering of each line (border, padding, styles), so the panels hand it the few lines
that differ instead of the whole widget.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget


def set_title(widget: Widget, title: str, *, subtitle: bool = False) -> None:
    """Set a panel's border title (or subtitle), repainting only the border row it is on.

    Textual's setter repaints the whole widget, even for the same title; a title that changes
    on every ``v`` (the history's name) would redraw every line of the panel.
    """
    if (widget.border_subtitle if subtitle else widget.border_title) == title:
        return
    if not widget.is_mounted or not widget.outer_size:
        if subtitle:
            widget.border_subtitle = title
        else:
            widget.border_title = title
        return
    # What Textual's setter stores (widget._BorderTitle), without its repaint of every line.
    content = widget.render_str(title).expand_tabs(4).split()[0]
    setattr(widget, "_border_subtitle" if subtitle else "_border_title", content)
    # The border row, in the content's coordinates (``refresh`` moves regions by the offset).
    offset, outer = widget.content_offset, widget.outer_size
    row = outer.height - 1 if subtitle else 0
    widget.refresh(Region(-offset.x, row - offset.y, outer.width, 1))


def visible_rows(widget: Widget, render_line: Callable[[int], Strip]) -> list[Strip]:
    """The rows the widget shows now, as its ``render_line`` draws them."""
    return [render_line(y) for y in range(widget.scrollable_content_region.height)]


def refresh_changed(widget: Widget, before: list[Strip], after: list[Strip]) -> None:
    """Repaint the rows of ``after`` that differ from ``before`` (rows of the viewport)."""
    width = widget.scrollable_content_region.width
    changed = [Region(0, y, width, 1) for y in range(max(len(before), len(after)))
               if y >= len(before) or y >= len(after) or before[y]._segments != after[y]._segments]
    if changed:  # (no region at all would repaint every row)
        # One refresh for all the rows (each call looks the widget up and asks for an idle pass).
        widget.refresh(*changed)


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Set a scrolling view's virtual size (its rows), leaving its repaint to the caller.

    Textual repaints every row of a view whose virtual size changes; the other history's
    timeline or findings list has another length, and most of its rows on screen are the same.
    """
    if size != view.virtual_size:
        view.set_reactive(ScrollView.virtual_size, size)
        view.refresh(repaint=False, layout=True)
