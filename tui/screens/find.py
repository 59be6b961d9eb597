"""The prompts: what to find in the timeline (``/``), and which place the map goes to (``f``).

Both complete what is typed from the names the game knows (→ or Tab takes the completion shown).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label

_CSS = """
{name} {{
    align: center top;
}}
{name} > Vertical {{
    margin-top: 3;
    width: 64;
    height: auto;
    border: round $accent;
    background: $surface;
    padding: 0 1;
}}
{name} Label {{
    width: 1fr;
}}
{name} #problem {{
    color: $error;
    display: none;
}}
"""


class _Prompt(ModalScreen[str | None]):
    """A label, an input completing from ``names``; Enter answers, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="find.cancel"),
        Binding("tab", "complete", "Complete", id="find.complete", show=False),
    ]
    QUESTION = ""
    PLACEHOLDER = ""

    def __init__(self, last: str = "", names: list[str] | None = None) -> None:
        super().__init__()
        self._last = last
        self._names = names or []

    def compose(self) -> ComposeResult:
        """The question, the input, and a line for what was wrong with the answer."""
        with Vertical():
            yield Label(self.QUESTION)
            # No blinking cursor: the screen must look the same on every run.
            field = Input(value=self._last, placeholder=self.PLACEHOLDER,
                          suggester=SuggestFromList(self._names, case_sensitive=False))
            field.cursor_blink = False
            yield field
            yield Label(id="problem")

    def action_complete(self) -> None:
        """Tab: take the completion shown."""
        field = self.query_one(Input)
        field.action_end()
        field.action_cursor_right()  # at the end, → takes the completion

    def action_cancel(self) -> None:
        """Escape: nothing."""
        self.dismiss(None)

    def problem(self, text: str) -> None:
        """Say what is wrong with the answer, and keep asking."""
        label = self.query_one("#problem", Label)
        label.update(text)
        label.display = bool(text)


class FindScreen(_Prompt):
    """Asks what to find: a place, a power, a unit, a finding kind, a turn, or any text."""

    DEFAULT_CSS = _CSS.format(name="FindScreen")
    QUESTION = "Find a place, a power, a unit, a finding kind, a turn or any text"
    PLACEHOLDER = "e.g. Kar, Caucasus SZ, Germany 2, tank, misdeclared, re-rolled"

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: find this."""
        self.dismiss(event.value)


class PlaceScreen(_Prompt):
    """Asks which place the map goes to; an answer that names none is refused with the
    nearest names, and the prompt stays."""

    DEFAULT_CSS = _CSS.format(name="PlaceScreen")
    QUESTION = "Go to a territory or sea zone (any name or abbreviation)"
    PLACEHOLDER = "e.g. United Kingdom, E Eur, Kar SZ, Cauc"

    def __init__(self, names: list[str], read: Callable[[str], str | None],
                 unknown: Callable[[str], str]) -> None:
        super().__init__("", names)
        self._read = read
        self._unknown = unknown

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: the place named, or why it names none."""
        found = self._read(event.value) if event.value.strip() else None
        if found is None:
            self.problem(self._unknown(event.value))
            return
        self.dismiss(found)
