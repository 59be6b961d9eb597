"""The where-am-I line under the title: the current point's path and the notes on it."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class Crumb(Static):
    """A line of plain text, repainted only when the text changes.

    Every key press sets it; a toggle (``d``, the map, the story) leaves it as it was, and a
    repaint of this line widens what a frame draws to the whole screen (a frame draws every
    panel that the box around its changed lines overlaps)."""

    def __init__(self, text: str, *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        #: The text set by :meth:`show` (None: the one given at first, not set yet).
        self._shown: str | None = None

    def show(self, text: str) -> None:
        """Show ``text`` as written: plain text, not markup (a "[" in a name is shown as written)."""
        if text != self._shown:
            self._shown = text
            self.update(Text(text), layout=False)
