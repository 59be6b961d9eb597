"""The key footer: Textual's, recomposed once per change of the bindings, not once per signal.

Textual's ``Footer`` recomposes all its keys (~25 here, 40-70 ms on this machine) every time the
screen signals that its bindings changed, and at start-up the screen signals three times in one
frame (its stack, its focus, the app's resize): three recompositions before the timeline could
paint. This footer coalesces the signals of a frame into one recomposition, and while it is
``held`` (the app is loading) it waits: the keys it shows from its first composition stand until
:meth:`release`, after the timeline's first paint.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """A footer that recomposes at most once per frame, and not while held."""

    def __init__(self, *, held: bool = False) -> None:
        super().__init__()
        #: While True, changes are noted and the recomposition waits for :meth:`release`.
        self.held = held
        self._changed = False

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's bindings changed: recompose on the next refresh (once, whatever the count)."""
        # What Textual's Footer.bindings_changed does, but through refresh(recompose=True), which
        # recomposes once however many times it is asked before the next refresh.
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if self.held:
            self._changed = True
        else:
            self.refresh(recompose=True)

    def release(self) -> None:
        """Stop holding: recompose now if the bindings changed meanwhile."""
        self.held = False
        if self._changed:
            self._changed = False
            self.refresh(recompose=True)
