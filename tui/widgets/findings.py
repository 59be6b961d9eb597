"""The findings and rulings panel: each finding in full (its kind, status, where, the detail, the
rule cited, the ruling), then the desk's reports, rulings and dice commitments in full — who,
when, their words, whether they are in force — all wrapped to the panel and scrollable.

Dice a battle still awaits and dice drawn but not yet revealed (provisional) are marked. A game
can have thousands of findings, so the panel is a Line API view: the lines are laid out once
per width and only those on screen are drawn.
"""

from __future__ import annotations

import sys
import textwrap
import time
from typing import ClassVar, NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from domain.review.views import Finding, GameView, Paper, awaiting_note
from domain.rules.findings import FindingStatus
from projections.plain import visible
from tui.widgets.repaint import refresh_changed, set_title, set_virtual_size, visible_rows
from tui.widgets.styles import TAG_STYLES

#: Dice still needed, and dice drawn but not yet checkable: never to be read as fact.
PENDING = Style(bold=True, color="yellow")

#: The rest of the panel is laid out in slices of this many seconds, one every FILL_EVERY_S, so
#: a key pressed meanwhile waits at most a slice.
FILL_SLICE_S = 0.004
FILL_EVERY_S = 0.012
#: Lines guessed per finding or paper not yet laid out (the scrollable height until all are).
GUESS_LINES = 5
#: Layouts kept besides the one shown: each history's list at the widths ``d`` switches between.
KEPT_LAYOUTS = 6

#: How each status reads to someone new to the rules (shown in the help).
STATUS_TEXT = {
    FindingStatus.CORRECTED: "a remedy was applied",
    FindingStatus.VOID: "the battle is null and void",
    FindingStatus.STANDS: "no remedy changes the record",
    FindingStatus.IGNORED: "harmless (a typo, a ghost roll that missed)",
    FindingStatus.OPEN: "awaits a ruling, an election or dice",
    FindingStatus.FIXED: "too late to correct: record stands",
    FindingStatus.SUPERSEDED: "moot: a declaration error voids or re-fights the battle",
}


def _wrapped(label: str, text: str, width: int, style: Style | str = "") -> list[Text]:
    """``label`` then ``text`` wrapped to ``width`` cells, continuation lines indented."""
    text = visible(text)  # record text: shown, never obeyed by the terminal
    lines = textwrap.wrap(text, max(10, width - 4), initial_indent=" " * len(label),
                          subsequent_indent="    ") or [" " * len(label)]
    first = Text.assemble((label, "bold"), (lines[0][len(label):], style))
    return [first, *(Text(line, style) for line in lines[1:])]


def pending_notes(view: GameView) -> dict[str, str]:
    """Each finding's note of the dice its battle still awaits (the finding id -> the note the
    review wrote, from the battle's ``needed`` dice, not from the wording of the detail)."""
    return {fid: awaiting_note(battle) for battle in view.battles if battle.needed is not None
            for fid in battle.finding_ids}


def _detail_parts(text: str) -> list[str]:
    return [part for part in text.split("; ") if part]


def finding_lines(finding: Finding, width: int, pending: str = "") -> list[Text]:
    """A finding in full, wrapped to ``width`` cells: what and its status, where, the detail,
    the rule cited, the ruling (``pending``: the dice still awaited, marked)."""
    head = Text()
    head.append(f"{finding.id} ", "bold")
    head.append(finding.kind.replace("_", " "), TAG_STYLES["finding"])
    status = f"[{finding.status}: {STATUS_TEXT.get(finding.status, '')}]"
    if head.cell_len + 2 + len(status) <= width:
        head.append(f"  {status}", TAG_STYLES["dim"])
        lines = [head]
    else:  # too long for one line: the status on its own, never cut off at the panel's edge
        lines = [head, *_wrapped("  ", status, width, TAG_STYLES["dim"])]
    where = " · ".join(part for part in (
        finding.turn, finding.battle, f"round {finding.round}" if finding.round is not None else None,
        finding.side, f"column {finding.column}" if finding.column is not None else None) if part)
    lines.append(Text("  " + (where or "the whole game"), TAG_STYLES["dim"]))
    before, awaited, after = finding.detail.partition(pending) if pending else (finding.detail, "", "")
    for part in _detail_parts(before):
        lines += _wrapped("  ", part, width)
    if awaited:
        lines += _wrapped("  ⏳ ", awaited, width, PENDING)
    for part in _detail_parts(after):
        lines += _wrapped("  ", part, width)
    lines += _wrapped("  Rule: ", finding.rule, width)
    lines += _wrapped("  Ruling: ", finding.ruling or "none recorded", width,
                      "" if finding.ruling else TAG_STYLES["dim"])
    return lines


def paper_lines(paper: Paper, width: int) -> list[Text]:
    """A report, ruling or commitment in full: who, when, about what, its words, its status."""
    when = paper.at.strftime("%Y-%m-%d %H:%M:%SZ") if paper.at else "(no time)"
    head = Text()
    head.append(f"{paper.kind.replace('_', ' ').capitalize()} ", "bold")
    if paper.entered is not None:
        when += f" (entered {paper.entered.strftime('%Y-%m-%d %H:%M:%SZ')})"
    head.append(f"[event {paper.event}] {when}", TAG_STYLES["dim"])
    if paper.by:
        head.append(f" by {visible(paper.by)}")
    lines = [head, *_wrapped("  On: ", paper.about, width)]
    if paper.text:
        lines += _wrapped("  ", paper.text, width)
    provisional = paper.status.startswith("open:")
    lines += _wrapped("  ⏳ " if provisional else "  ", paper.status, width,
                      PENDING if provisional else TAG_STYLES["dim"])
    return lines


class _Layout(NamedTuple):
    """A list's layout at one width (:class:`FindingsPanel`)."""

    findings: tuple[Finding, ...]
    papers: tuple[Paper, ...]
    lines: list[tuple[int | None, Text]]
    starts: list[int]
    laid: int
    drawn: dict[tuple[int, bool, bool], Strip]


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
        self.papers: tuple[Paper, ...] = ()
        self._index: dict[str, int] = {}
        #: The finding highlighted (None when there are none).
        self.highlighted: int | None = None
        self._note = ""
        self._pending: dict[str, str] = {}
        #: The laid-out lines: (the finding they belong to, or None; the text).
        self._lines: list[tuple[int | None, Text]] = []
        #: The first line of each finding laid out so far.
        self._starts: list[int] = []
        self._width = 0
        #: Items (findings, the papers' heading, papers) to lay out, and how many are.
        self._items = 0
        self._laid = 0
        #: The timer laying out the rest after the first paint (None when all is laid out).
        self._filling: Timer | None = None
        #: Lines drawn: (line, highlighted, focused) -> strip (a key press redraws a screenful).
        self._drawn: dict[tuple[int, bool, bool], Strip] = {}
        #: The list shown (ids of its findings and papers, which history), and the layouts of
        #: those shown before, by list and width: their lines, first lines, how many items laid
        #: out and the lines drawn (each kept with the findings and papers it lays out: an id is
        #: only theirs while they live). ``v`` shows the other history's list and back, ``d``
        #: narrows the timeline and widens this panel and back: neither wraps a list again.
        self._shown: tuple[int, int, bool] | None = None
        self._kept: dict[tuple[int, int, bool, int], _Layout] = {}

    @property
    def highlighted_id(self) -> str | None:
        """The id of the highlighted finding."""
        return self.findings[self.highlighted].id if self.highlighted is not None else None

    def show(self, findings: tuple[Finding, ...], *, as_rolled: bool,
             papers: tuple[Paper, ...] = (), pending: dict[str, str] | None = None) -> None:
        """List these findings (or say there are none), then the reports and rulings in full
        (``pending``: the dice each finding's battle still awaits, :func:`pending_notes`)."""
        width = self.scrollable_content_region.width or self.size.width
        # The rows on screen: only those the new list draws otherwise are repainted.
        shown = self._shown is not None and width == self._width
        before = visible_rows(self, self.render_line) if shown else None
        self._pending = pending or {}
        self._index = {f.id: i for i, f in enumerate(findings)}
        self._items = (len(findings) or 1) + (len(papers) + 1 if papers else 0)
        self.highlighted = 0 if findings else None
        set_title(self, f"Findings and rulings ({len(findings)})")
        set_title(self, "Tab here, ↑/↓ and Enter to go to one" if findings else "", subtitle=True)
        self._note = ("No findings in the record as rolled." if as_rolled
                      else "No findings: the record stands as rolled.")
        self._keep()
        self.findings, self.papers = findings, papers
        self._shown = (id(findings), id(papers), as_rolled)
        self._layout(width)
        scrolled = round(self.scroll_y) != 0
        self.scroll_to(y=0, animate=False)
        if before is None or scrolled:
            self.refresh()
        else:
            refresh_changed(self, before, visible_rows(self, self.render_line))

    def _keep(self) -> None:
        """Keep the layout shown, to be shown again without wrapping anything again."""
        if self._shown is None:
            return
        self._kept.pop((*self._shown, self._width), None)
        while len(self._kept) >= KEPT_LAYOUTS:
            del self._kept[next(iter(self._kept))]  # the one shown longest ago
        self._kept[(*self._shown, self._width)] = _Layout(
            self.findings, self.papers, self._lines, self._starts, self._laid, self._drawn)

    def _layout(self, width: int) -> None:
        """The list's layout at ``width``: as kept, or started: only what is asked for now (the
        lines on screen, the finding highlighted), the rest a slice at a time between key presses
        (a big game has thousands, and wrapping them all held up the first paint by ~0.3 s)."""
        assert self._shown is not None
        self._width = width
        kept = self._kept.pop((*self._shown, width), None)
        if kept is not None and kept.findings is self.findings and kept.papers is self.papers:
            _, _, self._lines, self._starts, self._laid, self._drawn = kept
        else:
            self._lines, self._starts, self._laid, self._drawn = [], [], 0, {}
        self._size_lines()
        self._fill_later()

    def _fill_later(self) -> None:
        """Lay out the rest on a timer, unless all is laid out."""
        if self._laid < self._items and self._filling is None:
            self._filling = self.set_interval(FILL_EVERY_S, self._fill_slice, name="findings-layout")

    def _lay_item(self) -> None:
        """Wrap the next finding, heading or paper, in the order they are shown."""
        item, width, lines = self._laid, self._width - 1, self._lines
        count = len(self.findings) or 1  # the findings, or the note that there are none
        if not self.findings and item == 0:
            lines.append((None, Text(self._note, TAG_STYLES["dim"])))
        elif item < count:
            finding = self.findings[item]
            self._starts.append(len(lines))
            pending = self._pending.get(finding.id, "")
            lines += [(item, text) for text in finding_lines(finding, width, pending)]
        elif item == count:
            lines.append((None, Text("")))
            lines.append((None, Text(f"Reports, rulings and dice ({len(self.papers)})", "bold underline")))
        else:
            lines += [(None, text) for text in paper_lines(self.papers[item - count - 1], width)]
        self._laid += 1

    def _size_lines(self) -> None:
        """The scrollable height: exact once all is laid out, else the lines so far and a guess
        of ``GUESS_LINES`` per item still to wrap (the scroll bar is hidden: only the end moves)."""
        rest = (self._items - self._laid) * GUESS_LINES
        set_virtual_size(self, Size(self._width, max(1, len(self._lines) + rest)))

    def _ensure(self, *, line: int = -1, finding: int = -1) -> None:
        """Lay out at least up to line ``line`` and past finding ``finding`` (its end known)."""
        laid = self._laid
        # A finding's end is known once the next item is laid out (the last: once it is).
        through = min(finding + 1, len(self.findings) - 1) if finding >= 0 else -1
        while self._laid < self._items and (len(self._lines) <= line or self._laid <= through):
            self._lay_item()
        if self._laid != laid:
            self._size_lines()

    def _fill_slice(self) -> None:
        """Lay out a few milliseconds' worth of the rest (a timer between key presses)."""
        deadline = time.perf_counter() + FILL_SLICE_S
        while self._laid < self._items and time.perf_counter() < deadline:
            self._lay_item()
        if self._laid < self._items:
            # Sized when done (or when a line beyond is drawn: _ensure): a new virtual size is a
            # layout of the screen and a frame, and a key pressed meanwhile waits for both.
            return
        self._size_lines()
        if self._filling is not None:
            self._filling.stop()
            self._filling = None

    def laid_out(self) -> list[tuple[int | None, Text]]:
        """Every line of the panel at its width, each with the finding it belongs to (or None)."""
        self._ensure(line=sys.maxsize)
        return self._lines

    def mark(self, finding_id: str | None) -> None:
        """Highlight the finding at the timeline's current point and bring it into view."""
        index = self._index.get(finding_id) if finding_id is not None else None
        if index is not None:
            self._highlight(index)

    def _highlight(self, index: int) -> None:
        if self.highlighted == index:
            return
        self.highlighted = index
        self._ensure(finding=index)
        top = self._starts[index]
        size = (self._starts[index + 1] if index + 1 < len(self._starts) else len(self._lines)) - top
        height = self.scrollable_content_region.height
        if not round(self.scroll_y) <= top <= round(self.scroll_y) + height - size:
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
        line = round(self.scroll_y) + event.y
        self._ensure(line=line)
        index = self._lines[line][0] if 0 <= line < len(self._lines) else None
        if index is not None:
            self._highlight(index)
            self.action_select()

    def on_resize(self, event: events.Resize) -> None:
        """Wrap again to the new width (lines are wrapped, never scrolled sideways)."""
        width = self.scrollable_content_region.width or event.size.width
        if width != self._width and self._shown is not None:
            self._keep()
            self._layout(width)
            self.refresh()

    def _strip(self, text: Text, width: int, base: Style) -> Strip:
        segments = [Segment(s.text, base + s.style if s.style else base)
                    for s in text.render(self.app.console) if s.text != "\n"]
        return Strip(segments).crop_extend(0, width, base)

    def render_line(self, y: int) -> Strip:
        """One line of one finding."""
        width = self.scrollable_content_region.width
        line = round(self.scroll_y) + y
        self._ensure(line=line)
        if line >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        index, text = self._lines[line]
        highlighted = index is not None and index == self.highlighted
        key = (line, highlighted, self.has_focus)
        strip = self._drawn.get(key)
        if strip is None or strip.cell_length != width:
            # Textual works a widget's style out from every ancestor's at each call: only for a new line.
            strip = self._strip(Text(" ") + text, width, self.rich_style)
            if highlighted:
                style: Style = self.get_component_rich_style("findings--cursor")
                strip = strip.apply_style(style)
            self._drawn[key] = strip
        return strip
