"""What a key press redraws, and what it keeps: the panels' strips, the story's rows, the
where-am-I line, the luck of each battle. Each kept thing is checked against what making it
afresh gives.
"""

from __future__ import annotations

import asyncio

from rich.console import Console, Group
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Span, Text
from textual.strip import Strip

from projections.story import Story
from projections.timeline import Timeline
from tests.unit.timeline_views import disputed_pair
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.widgets.crumb import Crumb
from tui.widgets.lines import Grid, Rendered, content_lines, content_strips
from tui.widgets.luck import LuckPanel
from tui.widgets.story import LABEL, _row

BASE = Style(color="white", bgcolor="black")


def _made_afresh(content: object, console: Console, width: int) -> list[list[Segment]]:
    """The content's lines as a panel made them before: one strip a line, cropped or padded."""
    options = console.options.update(width=max(1, width), height=None, highlight=False)
    return [list(Strip(Segment.apply_style(line, BASE)).crop_extend(0, width, BASE))
            for line in content_lines(content, console, options)]  # type: ignore[arg-type]


def test_a_panels_strips_are_its_lines_padded_or_cropped_to_its_width() -> None:
    """Texts, a grid, rendered blocks at the panel's width and at another, and a renderable of
    another kind: the same segments as each line made into a strip and cropped or padded."""
    console = Console(width=200)
    grid = Grid(("col", "units"), (1,), label_width=5)
    grid.add_row(Text("1"), Text("4 INF, 2 ARM, 1 FTR, 1 BOM", "bold"))
    long = Text("a line far longer than the panel is wide, wrapped", no_wrap=True)
    for width in (12, 30):
        kept = Rendered([Text("kept row"), Text.assemble(("▆▇", "red"), " wide 一二三")], console, width)
        other = Rendered([Text("made at another width")], console, width + 7)
        table = Table("a", "b")
        table.add_row("x", "y")
        for content in (Group(Text("head", "bold"), grid, kept, other, long), kept, table):
            strips = content_strips(content, console, width, BASE)
            assert [list(strip) for strip in strips] == _made_afresh(content, console, width)
            assert all(strip.cell_length == width for strip in strips)


def test_a_rendered_blocks_strips_are_made_once_for_each_style() -> None:
    console = Console(width=80)
    block = Rendered([Text("Income UK  ▃▅▄")], console, 20)
    first = block.strips(BASE)
    assert block.strips(BASE) is first
    other = Style(color="red")
    want = [list(Strip(Segment.apply_style(line, other)).crop_extend(0, 20, other)) for line in block.lines]
    assert [list(strip) for strip in block.strips(other)] == want


def _per_cell(label: str, cells: list[tuple[str, Style]]) -> Text:
    """A chart row made cell by cell, a span for each styled cell."""
    head = label.ljust(LABEL)
    spans = [Span(len(head) + c, len(head) + c + 1, style) for c, (_, style) in enumerate(cells) if style]
    return Text(head + "".join(mark for mark, _ in cells), "dim", no_wrap=True, spans=spans)


def test_a_chart_row_styles_every_cell_as_a_span_a_cell_would() -> None:
    """A span for each run of cells in one style: every character styled as with a span a cell."""
    red, cursor, plain = Style(color="red"), Style(reverse=True), Style()
    console = Console(width=120)
    for cells in ([], [("▁", red)], [("▁", red), ("▂", red), ("▃", cursor), ("±", plain), ("·", plain),
                                      ("▄", Style(color="red")), ("▅", red), ("✓", red + cursor)]):
        row = _row("Odds as declared", cells)
        want = _per_cell("Odds as declared", cells)
        assert row.plain == want.plain
        for k in range(len(row.plain)):
            assert row.get_style_at_offset(console, k) == want.get_style_at_offset(console, k)
        assert len(row.spans) <= len(want.spans)


def test_the_odds_worked_out_are_counted_again_when_another_story_adds_some() -> None:
    """Two stories of one game share the odds known (a battle's declaration is the same in
    both histories): what one works out, the other counts."""
    corrected, rolled = disputed_pair()
    story = Story(Timeline(corrected, rolled))
    other = Story(Timeline(rolled, corrected), story.known)
    assert story.worked_out == 0
    other.work_out(0)
    assert story.worked_out == other.worked_out == 1
    for b in range(len(story.battles)):
        story.work_out(b)
    assert story.worked_out == other.worked_out == len(story.battles)


def test_the_where_am_i_line_is_repainted_only_when_it_changes() -> None:
    async def main() -> None:
        corrected, rolled = disputed_pair()
        app = MinisterApp(ViewsSource(corrected, rolled))
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            crumb = app.query_one(Crumb)
            shown = str(crumb.render())
            crumb._exchange_repaint_regions()
            await pilot.press("d")  # the diff: the same point, the same line
            assert app.diff and not crumb._exchange_repaint_regions()
            assert str(crumb.render()) == shown
            await pilot.press("j")
            await pilot.pause()
            assert str(crumb.render()) != shown and f"point {app.position + 1} of" in str(crumb.render())
            crumb.show("a [b] line")  # as written, never markup
            await pilot.pause()
            assert str(crumb.render()) == "a [b] line"

    asyncio.run(main())


def test_each_history_shows_its_own_battles_luck() -> None:
    """The luck is kept by the battle: the record's battle is not taken for the corrected one."""
    corrected, rolled = disputed_pair()
    panel = LuckPanel()
    mine, theirs = Timeline(corrected, rolled), Timeline(rolled, corrected)
    for b in range(len(corrected.battles)):
        for timeline in (mine, theirs):
            luck = panel.luck(timeline, b)
            assert panel.luck(timeline, b) is luck
            fresh = LuckPanel().luck(timeline, b)
            assert luck == fresh
    differs = [b for b in range(len(corrected.battles)) if panel.luck(mine, b) != panel.luck(theirs, b)]
    assert differs  # the disputed game's dice differ between its histories


def test_a_narrow_screen_hides_both_boards_of_the_diff_under_another_panel() -> None:
    """The diff's boards share their column (no container of their own); the panel key still
    hides both when the findings or the luck take their place, and shows both again."""
    async def main() -> None:
        corrected, rolled = disputed_pair()
        app = MinisterApp(ViewsSource(corrected, rolled))
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            boards = [app.query_one(selector) for selector in ("#board", "#other-board")]
            await pilot.press("d")
            await pilot.pause()
            assert all(board.display and board.region.height for board in boards)
            for _ in range(2):  # the findings, then the luck
                await pilot.press("p")
                await pilot.pause()
                assert not any(board.display and board.region.height for board in boards)
            await pilot.press("p")
            await pilot.pause()
            assert all(board.display and board.region.height for board in boards)
            await pilot.press("d")
            await pilot.pause()
            assert boards[0].region.height and not boards[1].display

    asyncio.run(main())
