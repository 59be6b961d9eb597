"""The layout at the sizes users have: no timeline row cut at 120x40 (a long one wraps), the diff's
boards one above the other and each as wide as one board, and at 80x24 the map and the diff
leaving the timeline its rows; on the engine's views of shipped replays."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from projections.plain import visible
from tests.conftest import REPLAYS
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.widgets.board import BattleBoard
from tui.widgets.board_map import MapPanel
from tui.widgets.timeline_view import TimelineView

Scenario = Callable[[MinisterApp, Pilot[None]], Awaitable[None]]


def drive(path: str, size: tuple[int, int], scenario: Scenario) -> None:
    game = load_replay(REPLAYS / path).game
    app = MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("path", ["games/full-game-three-rounds-2008.toml",
                                  "battles/disputed-game-2008.toml"])
def test_no_row_of_the_timeline_is_cut_at_120x40(path: str) -> None:
    """Every point's label is on screen whole: on its row, and the rows under it it wraps onto."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        view = app.query_one(TimelineView)
        timeline = app.current_timeline
        assert timeline is not None
        width = view.scrollable_content_region.width
        wrapped = 0
        for i in range(len(timeline)):
            app.goto(i)
            await pilot.pause()
            rows = [view.render_line(y).text for y in range(view.scrollable_content_region.height)]
            assert all(len(row.rstrip()) <= width for row in rows)
            # The cursor's row, and the rows under it up to the next point's (deeper indented).
            at = next(y for y, row in enumerate(rows) if row.startswith("▶"))
            indent = len(rows[at]) - len(rows[at][2:].lstrip()) - 2
            mine = [rows[at]]
            for row in rows[at + 1:]:
                if len(row[2:]) - len(row[2:].lstrip()) <= indent or not row.strip():
                    break
                mine.append(row)
            shown = " ".join(row[2:] for row in mine)  # after the cursor gutter and finding mark
            label = words(visible(timeline.label(i)))
            assert words(shown)[:len(label)] == label, timeline.label(i)
            wrapped += any(len(row[2:]) - len(row[2:].lstrip()) == indent + 2 for row in mine[1:])
        assert wrapped, "no label is too long for the column here: no test"

    drive(path, (120, 40), scenario)


def test_the_diff_boards_stand_one_above_the_other_with_every_row() -> None:
    """Round 2 of East Europe with ``d``: both boards as wide as one, the sides named over their
    columns, and every row of each shown."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        board = app.query_one("#board", BattleBoard)
        width = board.region.width
        await pilot.press("r", "d")
        await pilot.pause()
        other = app.query_one("#other-board", BattleBoard)
        assert other.display and other.region.y >= board.region.bottom
        assert board.region.width == other.region.width == width
        for panel in (board, other):
            assert not panel.cut, panel.shown_text
            header = next(line for line in panel.text.splitlines() if "column" in line)
            assert words(header) == ["column", "attacker", "its", "dice", "defender", "its", "dice"]

    drive("battles/disputed-game-2008.toml", (120, 40), scenario)


def test_at_80x24_the_map_leaves_the_timeline_five_rows_whatever_the_panel() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        view = app.query_one(TimelineView)
        for _ in range(3):  # the board, the findings, the luck under the timeline
            await pilot.press("m")
            await pilot.pause()
            assert app.query_one(MapPanel).region.height > 0
            assert view.scrollable_content_region.height >= 5, app.panel
            await pilot.press("m", "p")
            await pilot.pause()

    drive("games/full-game-three-rounds-2008.toml", (80, 24), scenario)


@pytest.mark.parametrize("keys", [["p"], ["p", "p"], ["m"]])
def test_at_80x24_the_diff_shows_whatever_was_under_the_timeline(keys: list[str]) -> None:
    """``d`` with the findings, the luck or the map under the timeline shows both boards."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press(*keys, "b", "d")
        await pilot.pause()
        for selector in ("#board", "#other-board"):
            panel = app.query_one(selector, BattleBoard)
            assert panel.display and panel.region.height > 2, selector
        assert app.query_one(TimelineView).scrollable_content_region.height >= 5

    drive("games/full-game-three-rounds-2008.toml", (80, 24), scenario)
