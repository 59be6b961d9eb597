"""The game's story in one picture (``c``): the odds of every battle as declared against its
result as rolled and as corrected, and each power's income turn by turn, across the whole game.

A column is a battle (several, in a long game: the odds averaged, the results marked when they
agree), the current one in reverse video; the income rows have a column a turn. A click on a
column moves the timeline to that battle or turn. The lines are made by :func:`story_lines`
(pure: the projection's :class:`~projections.story.Story` in), so what the chart shows is tested
as text.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from math import ceil
from time import monotonic

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Span, Text
from textual import events
from textual.message import Message

from projections.story import RESULT_MARKS, Result, Story
from projections.timeline import Timeline
from tui.widgets.board_map import POWER_TEXT
from tui.widgets.lines import LinesPanel, Rendered
from tui.widgets.repaint import set_title
from tui.widgets.styles import TAG_STYLES

#: The width of the rows' names.
LABEL = 18
#: The width of the current turn's income after the income rows.
VALUE = 5
#: Sparkline levels, lowest first.
LEVELS = "▁▂▃▄▅▆▇█"
_CURSOR = Style(reverse=True)
_PLAIN = Style()
_DIFFERS = Style(bold=True, color="red")
#: The chart's rows: the current battle, three battle rows, then one per power.
BATTLE_ROWS = 3
#: Seconds between redraws while the odds are worked out.
REDRAW_EVERY = 0.25


def level(value: float) -> str:
    """A value from 0 to 1 as a block of eight heights."""
    return LEVELS[min(len(LEVELS) - 1, max(0, round(value * (len(LEVELS) - 1))))]


def per_column(count: int, width: int) -> int:
    """How many battles (or turns) a column stands for, to fit ``count`` in ``width``."""
    return max(1, ceil(count / max(1, width)))


def _bucket(results: list[Result]) -> str:
    return RESULT_MARKS[results[0]] if len(set(results)) == 1 else "±"


def story_lines(story: Story, width: int, battle: int | None, turn: int | None) -> list[Text]:
    """The chart in ``width`` cells, the current ``battle`` and ``turn`` (indexes) marked."""
    return [_current(story, battle), *battle_rows(story, width, battle_column(story, width, battle)),
            *income_rows(story, width, turn)]


def battle_column(story: Story, width: int, battle: int | None) -> int:
    """The chart's column of ``battle`` in ``width`` cells (-1: none)."""
    room = max(1, width - LABEL - VALUE)
    return battle // per_column(len(story.battles), room) if battle is not None else -1


def battle_rows(story: Story, width: int, at: int) -> list[Text]:
    """The battles' odds as declared and their results, a column for one battle or several,
    column ``at`` marked."""
    per = per_column(len(story.battles), max(1, width - LABEL - VALUE))
    # Each row's cell style without and with the cursor (made once, not once a cell).
    hit = (TAG_STYLES["hit"] + _PLAIN, TAG_STYLES["hit"] + _CURSOR)
    differs = (_DIFFERS + _PLAIN, _DIFFERS + _CURSOR)
    odds: list[tuple[str, Style]] = []
    rolled: list[tuple[str, Style]] = []
    corrected: list[tuple[str, Style]] = []
    # Every battle's odds and results read once, then a column's are slices of them.
    all_odds = story.all_odds()
    all_rolled = [point.as_rolled for point in story.battles]
    all_corrected = [point.as_corrected for point in story.battles]
    for c in range(ceil(len(story.battles) / per)):
        lo, hi = c * per, (c + 1) * per
        known = [v for v in all_odds[lo:hi] if v is not None]
        here = c == at
        cursor = _CURSOR if here else _PLAIN
        odds.append((level(sum(known) / len(known)) if known else " ", hit[here]))
        mark_rolled = _bucket(all_rolled[lo:hi])
        mark_corrected = _bucket(all_corrected[lo:hi])
        rolled.append((mark_rolled, cursor))
        corrected.append((mark_corrected, differs[here] if mark_corrected != mark_rolled else cursor))
    return [_row("Odds as declared", odds), _row("Result as rolled", rolled),
            _row("   as corrected", corrected)]


def income_rows(story: Story, width: int, turn: int | None) -> list[Text]:
    """Each power's income turn by turn, a column for one turn or several, ``turn``'s column
    marked and its income after the row."""
    lines = []
    powers, top = story.powers, story.top_income
    per_turn = per_column(len(story.income), max(1, width - LABEL - VALUE))
    now = turn // per_turn if turn is not None else -1
    for power in powers:
        colour = (POWER_TEXT.get(power, _PLAIN) + _PLAIN, POWER_TEXT.get(power, _PLAIN) + _CURSOR)
        cells = []
        for c in range(ceil(len(story.income) / per_turn)):
            value = story.income[min(len(story.income) - 1, (c + 1) * per_turn - 1)].income.get(power)
            cells.append((level(value / top) if value is not None and top else " ", colour[c == now]))
        line = _row(f"Income {power}", cells)
        current = story.income[turn].income.get(power) if turn is not None else None
        line.append(f" {current:>{VALUE - 1}}" if current is not None else "", TAG_STYLES["title"])
        lines.append(line)
    if not powers:
        lines.append(Text("Income: the record does not know the treasury", TAG_STYLES["dim"]))
    return lines


def _row(label: str, cells: list[tuple[str, Style]]) -> Text:
    """A chart row: its name, then a cell a column (one character each), made at once, a span
    for each run of cells in the same style: what appending the cells one by one shows, in a
    few segments rather than one a cell (each segment is work on every frame that draws it)."""
    head = label.ljust(LABEL)
    start = len(head)
    spans = []
    run = 0
    for c in range(1, len(cells) + 1):
        style = cells[run][1]
        if c == len(cells) or (cells[c][1] is not style and cells[c][1] != style):
            if style:
                spans.append(Span(start + run, start + c, style))
            run = c
    return Text(head + "".join(mark for mark, _ in cells), TAG_STYLES["dim"], no_wrap=True, spans=spans)


def _current(story: Story, battle: int | None) -> Text:
    """The current battle: where, its odds as declared, its results."""
    if battle is None:
        return Text("No battle here: a click on a column goes to one.", TAG_STYLES["dim"])
    point = story.battles[battle]
    odds = story.odds(battle)
    shown = f"{odds:.0%}" if odds is not None else "…" if story.worked_out < len(story.battles) else "—"
    text = Text.assemble((f"{point.turn} · {point.name}", "bold"),
                         (" · odds as declared ", TAG_STYLES["dim"]), (shown, TAG_STYLES["hit"]),
                         (" · as rolled ", TAG_STYLES["dim"]),
                         f"{RESULT_MARKS[point.as_rolled]} {point.as_rolled}",
                         (" · as corrected ", TAG_STYLES["dim"]))
    text.append(f"{RESULT_MARKS[point.as_corrected]} {point.as_corrected}",
                _DIFFERS if point.as_corrected != point.as_rolled else Style())
    return text


class StoryPanel(LinesPanel):
    """The game's story (``c`` shows it), the current point marked; a click goes to a column."""

    DEFAULT_CSS = """
    StoryPanel {
        border: round $primary;
        border-title-style: bold;
        padding: 0 1;
        height: auto;
    }
    """

    class Selected(Message):
        """A column was clicked: the timeline node of its battle or turn."""

        def __init__(self, node: int) -> None:
            self.node = node
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.story: Story | None = None
        self._at: tuple[int | None, int | None] = (None, None)
        #: The chart's rows below the current battle's line, by block, with what they were made from.
        self._blocks: dict[str, tuple[tuple[object, ...], Rendered]] = {}
        #: Whether the user asked for the chart (``c``); hidden until then.
        self.wanted = False
        self.display = False

    def story_for(self, timeline: Timeline) -> Story:
        """The story of ``timeline`` (made again for another timeline)."""
        if self.story is None or self.story.timeline is not timeline:
            self.story = Story(timeline, self.story.known if self.story is not None else None)
        return self.story

    def show(self, timeline: Timeline, index: int) -> None:
        """Mark node ``index`` (when the chart is wanted)."""
        self.display = self.wanted
        if not self.wanted:
            return
        story = self.story_for(timeline)
        self._at = (story.battle_at(index), story.turn_at(index)) if len(timeline) else (None, None)
        self.redraw()

    def redraw(self) -> None:
        """Draw the chart again (the odds worked out so far, at the panel's width)."""
        story = self.story
        if story is None:
            return
        worked_out = story.worked_out
        pending = len(story.battles) - worked_out
        set_title(self, f"Story · {len(story.battles)} battles · odds as declared against the results" +
                  (f" · working out {pending} more" if pending else ""))
        set_title(self, "✓ won  ✗ lost  ↩ retreated  · no result  ± mixed · click a column", subtitle=True)
        # Not laid out yet (just shown): the width it will have, the screen's within its border
        # and padding (it spans the screen), so that the redraw on its resize finds it drawn.
        width = self.content_region.width or max(1, self.screen.size.width - self.styles.gutter.width)
        battle, turn = self._at
        at = battle_column(story, width, battle)
        # The rows below the current battle's line are made again only when what they are made
        # from changes: the story (its battles and income are fixed once made), the odds known
        # (they only ever grow, so their count says which), the width, the column or turn marked.
        # A step within a battle changes none of it; the chart's rows are most of a redraw.
        battles = self._block("battles", (story, worked_out, width, at), width,
                              lambda: battle_rows(story, width, at))
        income = self._block("income", (story, width, turn), width, lambda: income_rows(story, width, turn))
        self.set_content(Group(_current(story, battle), battles, income))

    @property
    def content(self) -> RenderableType:
        """What the panel shows, a Text a line (the kept rows' texts in place of their blocks)."""
        shown = self._content
        parts = shown.renderables if isinstance(shown, Group) else [shown]
        return Group(*(line for part in parts
                       for line in (part.texts if isinstance(part, Rendered) else [part])))

    def _block(self, name: str, key: tuple[object, ...], width: int,
               make: Callable[[], list[Text]]) -> Rendered:
        """The rows kept as ``name``, made again (by ``make``) unless ``key`` is what they were
        made from."""
        kept = self._blocks.get(name)
        if kept is None or kept[0] != key:
            kept = self._blocks[name] = (key, Rendered(make(), self.app.console, width))
        return kept[1]

    def start_odds(self) -> None:
        """Work out the odds not known yet in a thread (when the chart is wanted), started after
        the chart's next frame, which the thread's share of the interpreter would delay."""
        story = self.story
        if self.wanted and story is not None and story.worked_out < len(story.battles):
            self.call_after_refresh(self.run_worker, partial(work_out_odds, self, self.app.call_from_thread),
                                    thread=True, exclusive=True, name="odds", group="odds")

    def on_resize(self) -> None:
        """A new width: the columns again."""
        self.redraw()

    def on_click(self, event: events.Click) -> None:
        """A click on a column: its battle (the battle rows) or its turn (the income rows)."""
        story = self.story
        offset = event.get_content_offset(self)
        if story is None or offset is None or offset.x < LABEL:
            return
        room = max(1, self.content_region.width - LABEL - VALUE)
        column = offset.x - LABEL
        timeline = story.timeline
        if 1 <= offset.y <= BATTLE_ROWS and story.battles:
            b = column * per_column(len(story.battles), room)
            if b < len(story.battles):
                self.post_message(self.Selected(timeline.battle_node(b)))
        elif offset.y > BATTLE_ROWS and story.income:
            k = column * per_column(len(story.income), room)
            node = timeline.turn_node(story.income[k].turn) if k < len(story.income) else None
            if node is not None:
                self.post_message(self.Selected(node))


def work_out_odds(panel: StoryPanel, call: Callable[..., object]) -> None:
    """Worker thread: the odds of every battle of the panel's story, the chart drawn again with
    ``call`` (the app's call_from_thread) every REDRAW_EVERY seconds and at the end; it stops
    when the panel shows another story or is hidden."""
    story = panel.story
    if story is None:
        return
    drawn = monotonic()
    for b in range(len(story.battles)):
        if panel.story is not story or not panel.wanted:
            return
        story.work_out(b)
        if monotonic() - drawn > REDRAW_EVERY:
            call(panel.redraw)
            drawn = monotonic()
    call(panel.redraw)

