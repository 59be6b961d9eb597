"""Every panel in full (``z``): what a panel too short for its content does not show, scrolled
through here (the panels' last line says how many lines they leave out)."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class PanelsScreen(ModalScreen[None]):
    """The panels shown, each under its title, whole; ↑/↓, PgUp/PgDn scroll, Escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,z", "dismiss", "Close", id="panels.close"),
    ]

    DEFAULT_CSS = """
    PanelsScreen {
        align: center middle;
    }
    PanelsScreen > VerticalScroll {
        width: 100%;
        height: 100%;
        border: round $accent;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }
    PanelsScreen .title {
        margin-top: 1;
    }
    """

    def __init__(self, panels: list[tuple[str, RenderableType]]) -> None:
        super().__init__()
        #: (title, content) of each panel, in screen order.
        self.panels = panels

    def compose(self) -> ComposeResult:
        """Each panel's title and its whole content."""
        with VerticalScroll() as box:
            box.border_title = "Every panel in full · Escape to close"
            for title, content in self.panels:
                yield Static(Text(title, "bold underline"), classes="title")
                yield Static(content)
