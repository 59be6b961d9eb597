"""The find prompt: text to look for in the timeline's lines."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class FindScreen(ModalScreen[str | None]):
    """Asks for a text; Enter finds it (the next line containing it), Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="find.cancel")]

    DEFAULT_CSS = """
    FindScreen {
        align: center top;
    }
    FindScreen > Vertical {
        margin-top: 3;
        width: 64;
        height: auto;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(self, last: str = "") -> None:
        super().__init__()
        self._last = last

    def compose(self) -> ComposeResult:
        """A label and the input."""
        with Vertical():
            yield Label("Find in the timeline (a territory, a unit, a round, a die…)")
            # No blinking cursor: the screen must look the same on every run.
            field = Input(value=self._last, placeholder="e.g. Caucasus, ARM, Round 2, re-rolled")
            field.cursor_blink = False
            yield field

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: find this text."""
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Escape: find nothing."""
        self.dismiss(None)
