"""tui/widgets/repaint.py: what a panel hands Textual to repaint when its title or rows change.

A frame writes only the regions repainted: a region short of a changed row leaves the old cells
on the terminal (a headless screenshot renders everything afresh and would not show it).
"""

from __future__ import annotations

import asyncio

from textual.geometry import Region, Size

from tests.unit.timeline_views import disputed_pair
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.widgets.board import BattleBoard
from tui.widgets.findings import FindingsPanel
from tui.widgets.repaint import set_title
from tui.widgets.timeline_view import TimelineView

SIZE = (120, 40)


def _app() -> MinisterApp:
    corrected, rolled = disputed_pair()
    return MinisterApp(ViewsSource(corrected, rolled))


def test_a_new_title_repaints_its_whole_border_row_and_nothing_else() -> None:
    async def main() -> None:
        app = _app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            for panel in (app.query_one("#board", BattleBoard), app.query_one(FindingsPanel)):
                outer = panel.outer_size
                panel._exchange_repaint_regions()
                set_title(panel, "A title · shorter")
                assert set(panel._exchange_repaint_regions()) == {Region(0, 0, outer.width, 1)}
                set_title(panel, "A title · shorter")  # the same: nothing to repaint
                assert not panel._exchange_repaint_regions()
                set_title(panel, "below", subtitle=True)
                assert set(panel._exchange_repaint_regions()) == {Region(0, outer.height - 1, outer.width, 1)}
                assert panel.border_title == "A title · shorter" and panel.border_subtitle == "below"

    asyncio.run(main())


def test_switching_histories_repaints_the_timeline_rows_that_differ() -> None:
    """``v`` on a point both histories show alike: only the rows that differ are repainted, and
    the rows then drawn are those of the other history's timeline."""

    async def main() -> None:
        app = _app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            view = app.query_one(TimelineView)
            before = [view.render_line(y).text for y in range(view.scrollable_content_region.height)]
            view._exchange_repaint_regions()
            app.action_toggle_view()
            regions = view._exchange_repaint_regions()
            after = [view.render_line(y).text for y in range(view.scrollable_content_region.height)]
            timeline = app.current_timeline
            assert timeline is not None and view.timeline is timeline and timeline.as_rolled
            view._strips.clear()  # the rows drawn are the new timeline's, not kept ones
            assert after == [view.render_line(y).text for y in range(view.scrollable_content_region.height)]
            changed = {y for y, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
            assert changed, "the two histories look alike here: no test"
            offset = view.content_offset.y
            repainted = {y - offset for region in regions for y in range(region.y, region.bottom)}
            assert changed <= repainted
            assert len(repainted) < len(before)

    asyncio.run(main())


def test_the_diff_changes_the_size_of_the_boards_only() -> None:
    """``d`` puts the other board under this one in the room of the boards and the findings, and
    leaves every other panel where it was: a panel laid out again is drawn again in full (the
    timeline, the luck: most of a press)."""

    async def main() -> None:
        app = _app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            panels = [app.query_one(TimelineView), app.query_one("#luck")]
            before = [panel.region for panel in panels]
            board = app.query_one("#board", BattleBoard)
            width = board.region.width
            await pilot.press("d")
            await pilot.pause()
            assert app.diff and not app.query_one(FindingsPanel).display
            assert [panel.region for panel in panels] == before
            assert board.region.width == width
            other = app.query_one("#other-board", BattleBoard)
            assert other.display and board.region.bottom <= other.region.y
            await pilot.press("d")
            await pilot.pause()
            assert [panel.region for panel in panels] == before and board.region.width == width
            assert app.query_one(FindingsPanel).display

    asyncio.run(main())


def test_a_shorter_or_taller_timeline_redraws_its_bottom_rows_only() -> None:
    """A new height of the timeline alone (the map opened or closed, the terminal resized): the
    rows both heights show are kept, only those from the lower border down are redrawn."""

    async def main() -> None:
        app = _app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            view = app.query_one(TimelineView)
            size = view.outer_size
            for new in (Size(size.width, size.height - 2), size, Size(size.width, size.height + 1)):
                old = view.outer_size
                view._styles_cache._dirty_lines.clear()
                assert view._size_updated(new, view.virtual_size, view.container_size)
                top = min(old.height, new.height) - 1
                assert view._styles_cache._dirty_lines == set(range(top, new.height))

    asyncio.run(main())
