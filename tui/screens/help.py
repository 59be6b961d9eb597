"""The help screen: every key (as currently mapped) and what the marks on the board mean."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from projections.timeline import Tag
from tui.widgets.findings import STATUS_TEXT
from tui.widgets.styles import TAG_STYLES

LEGEND: tuple[tuple[str, Tag, str], ...] = (
    ("4*", "hit", "a die that hits its column (recomputed from the dice, not the record's marks)"),
    ("✗(5 2)", "voided", "voided dice: rolled but no longer counted (struck through)"),
    ("+(2 6)", "added", "added dice: rolled by a correction"),
    ("↻", "reroll", "a re-rolled round; \"re-roll begins\" marks where the correction starts"),
    ("!", "finding", "a finding is anchored on this line of the timeline"),
    ("(as rolled)", "variation", "a variation: the other history of this battle, after the main line"),
)


def keys_table(keys: list[tuple[str, str]]) -> Table:
    """Keys and what they do."""
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, description in keys:
        table.add_row(Text(key), Text(description))  # Text: "[id]" is not markup
    return table


class HelpScreen(ModalScreen[None]):
    """Keys and legend; any of Escape, q, ? or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close help", id="help.close"),
    ]

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > VerticalScroll {
        width: 84;
        height: auto;
        max-height: 90%;
        border: round $accent;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        #: (keys, what they do) as shown.
        self.keys = keys

    def compose(self) -> ComposeResult:
        """The keys, then the legend."""
        intro = Text("The timeline (left) is the game, turn by turn, battle by battle, round by round. "
                     "Move along it and the battle board, findings and luck follow.\n", TAG_STYLES["dim"])
        legend = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
        legend.add_column(no_wrap=True)
        legend.add_column()
        for sample, tag, meaning in LEGEND:
            legend.add_row(Text(sample, TAG_STYLES[tag]), Text(meaning))
        with VerticalScroll() as box:
            box.border_title = "Help · Escape to close"
            yield Static(intro)
            yield Static(Text("Keys", "bold underline"))
            yield Static(keys_table(self.keys))
            yield Static(Text("\nOn the board and the timeline", "bold underline"))
            yield Static(legend)
            yield Static(Text("\nWhat became of a finding", "bold underline"))
            yield Static(keys_table(list(STATUS_TEXT.items())))
            yield Static(Text("\nKeys can be remapped: minister show FILE --keymap keys.toml "
                              "(binding id = \"key\", ids as in the list above).", TAG_STYLES["dim"]))
