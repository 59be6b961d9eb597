"""The findings and rulings panel: each finding's kind, status, the rule cited and the ruling.

A game can have thousands of findings, so the list is a Line API view like the timeline: every
finding takes the same few lines and only the lines on screen are drawn.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from domain.review.views import Finding
from tui.widgets.styles import TAG_STYLES

#: Lines each finding takes: what and its status, where, the detail, the rule, the ruling.
LINES_PER_FINDING = 5

#: How each status reads to someone new to the rules (shown in the help).
STATUS_TEXT = {
    "corrected": "a remedy was applied",
    "void": "the battle is null and void",
    "stands": "no remedy changes the record",
    "ignored": "harmless (a typo, a ghost roll that missed)",
    "open": "awaits a ruling or an election",
    "fixed": "reported too late: the record stands",
    "superseded": "moot: a declaration error voids or re-fights the battle",
}


def finding_lines(finding: Finding, width: int) -> list[Text]:
    """A finding as :data:`LINES_PER_FINDING` lines of at most ``width`` cells: what and its status,
    where, the detail, the rule cited, the ruling."""
    head = Text()
    head.append(f"{finding.id} ", "bold")
    head.append(finding.kind.replace("_", " "), TAG_STYLES["finding"])
    head.append(f"  [{finding.status}: {STATUS_TEXT.get(finding.status, '')}]", TAG_STYLES["dim"])
    where = " · ".join(part for part in (
        finding.turn, finding.battle, f"round {finding.round}" if finding.round is not None else None,
        finding.side, f"column {finding.column}" if finding.column is not None else None) if part)
    detail = finding.detail if len(finding.detail) <= width - 2 else finding.detail[: max(0, width - 3)] + "…"
    rule = Text.assemble(("  Rule: ", "bold"), finding.rule)
    ruling = Text.assemble(("  Ruling: ", "bold"),
                           (finding.ruling, "") if finding.ruling else ("none recorded", TAG_STYLES["dim"]))
    return [head, Text("  " + (where or "the whole game"), TAG_STYLES["dim"]), Text("  " + detail), rule,
            ruling]


class FindingsPanel(ScrollView, can_focus=True, inherit_bindings=False):
    """The game's findings; Enter (or a click) on one moves the timeline to it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "move(1)", "next finding", show=False, id="findings.down"),
        Binding("up,k", "move(-1)", "previous finding", show=False, id="findings.up"),
        Binding("enter", "select", "go to it", id="findings.select"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"findings--cursor"}

    DEFAULT_CSS = """
    FindingsPanel {
        border: round $primary;
        border-title-style: bold;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 0;
    }
    FindingsPanel > .findings--cursor {
        background: $accent 30%;
    }
    FindingsPanel:focus > .findings--cursor {
        background: $accent;
    }
    """

    class Selected(Message):
        """A finding was chosen: move the timeline to it."""

        def __init__(self, finding_id: str) -> None:
            self.finding_id = finding_id
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.findings: tuple[Finding, ...] = ()
        self._index: dict[str, int] = {}
        #: The finding highlighted (None when there are none).
        self.highlighted: int | None = None
        self._note = ""

    @property
    def highlighted_id(self) -> str | None:
        """The id of the highlighted finding."""
        return self.findings[self.highlighted].id if self.highlighted is not None else None

    def show(self, findings: tuple[Finding, ...], *, as_rolled: bool) -> None:
        """List these findings (or say there are none)."""
        self.findings = findings
        self._index = {f.id: i for i, f in enumerate(findings)}
        self.highlighted = 0 if findings else None
        self.border_title = f"Findings and rulings ({len(findings)})"
        self.border_subtitle = "Tab here, ↑/↓ and Enter to go to one" if findings else ""
        self._note = ("No findings in the record as rolled." if as_rolled
                      else "No findings: the record stands as rolled.")
        self.virtual_size = Size(self.size.width, max(1, len(findings) * LINES_PER_FINDING))
        self.scroll_to(y=0, animate=False)
        self.refresh()

    def mark(self, finding_id: str | None) -> None:
        """Highlight the finding at the timeline's current point and bring it into view."""
        index = self._index.get(finding_id) if finding_id is not None else None
        if index is not None:
            self._highlight(index)

    def _highlight(self, index: int) -> None:
        if self.highlighted == index:
            return
        self.highlighted = index
        top = index * LINES_PER_FINDING
        height = self.scrollable_content_region.height
        if not round(self.scroll_y) <= top <= round(self.scroll_y) + height - LINES_PER_FINDING:
            self.scroll_to(y=top, animate=False)
        self.refresh()

    def action_move(self, delta: int) -> None:
        """Highlight the next or previous finding."""
        if self.highlighted is not None:
            self._highlight(min(max(0, self.highlighted + delta), len(self.findings) - 1))

    def action_select(self) -> None:
        """Move the timeline to the highlighted finding."""
        if self.highlighted_id is not None:
            self.post_message(self.Selected(self.highlighted_id))

    def on_click(self, event: events.Click) -> None:
        """A click selects the finding under the pointer."""
        index = (round(self.scroll_y) + event.y) // LINES_PER_FINDING
        if 0 <= index < len(self.findings):
            self._highlight(index)
            self.action_select()

    def on_resize(self, event: events.Resize) -> None:
        """Keep the virtual width equal to the widget's (lines are cropped, never scrolled)."""
        self.virtual_size = Size(event.size.width, max(1, len(self.findings) * LINES_PER_FINDING))

    def _strip(self, text: Text, width: int, base: Style) -> Strip:
        segments = [Segment(s.text, base + s.style if s.style else base)
                    for s in text.render(self.app.console) if s.text != "\n"]
        return Strip(segments).crop_extend(0, width, base)

    def render_line(self, y: int) -> Strip:
        """One line of one finding."""
        width = self.scrollable_content_region.width
        base = self.rich_style
        line = round(self.scroll_y) + y
        if not self.findings:
            text = Text(" " + self._note, TAG_STYLES["dim"]) if line == 0 else Text()
            return self._strip(text, width, base)
        index, row = divmod(line, LINES_PER_FINDING)
        if index >= len(self.findings):
            return Strip.blank(width, base)
        strip = self._strip(Text(" ") + finding_lines(self.findings[index], width - 1)[row], width, base)
        if index == self.highlighted:
            style: Style = self.get_component_rich_style("findings--cursor")
            strip = strip.apply_style(style)
        return strip
