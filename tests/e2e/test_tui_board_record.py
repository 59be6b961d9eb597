"""The battle board states the record: the battle as declared (every origin, the defenders as
listed), the forces it was fought with where they differ, the aircraft the AA guns shot down,
and nothing cut without a way to see it (``z``); on the engine's views of shipped replays."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable

from rich.console import Console
from textual.pilot import Pilot

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from tests.conftest import REPLAYS
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.screens.panels import PanelsScreen
from tui.widgets.board import BattleBoard
from tui.widgets.territories import TerritoryPanel

FULL = "games/full-game-three-rounds-2008.toml"
PART14 = "part14/east-europe-forgotten-armour.toml"
Scenario = Callable[[MinisterApp, Pilot[None]], Awaitable[None]]


def drive(path: str, scenario: Scenario, size: tuple[int, int] = (120, 40)) -> None:
    game = load_replay(REPLAYS / path).game
    app = MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def flat(text: str) -> str:
    """The text with its line breaks and runs of spaces made single spaces (wrapped cells)."""
    return " ".join(text.split())


async def to_battle(app: MinisterApp, pilot: Pilot[None], turn: str) -> BattleBoard:
    timeline = app.current_timeline
    assert timeline is not None
    node = timeline.turn_node(turn)
    assert node is not None
    app.goto(node + 1)
    await pilot.pause()
    return app.query_one("#board", BattleBoard)


def test_a_misdeclared_defence_is_shown_as_declared_and_as_fought() -> None:
    """UK 1 declared "Anglo Egypt (1 INF, 1 ARM)"; the map shows Germany's 1 ARM, which it fought."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        board = await to_battle(app, pilot, "UK 1")
        text = board.text
        assert "Declared: attacker 1 INF, 1 FTR · defender 1 INF, 1 ARM" in text
        assert "from Syria Jordan 1 INF" in text
        assert "from India 1 FTR, landing in India" in text
        assert "Fought with: defender 1 ARM" in text
        await pilot.press("v")  # the record as rolled states the same declaration
        assert "Declared: attacker 1 INF, 1 FTR · defender 1 INF, 1 ARM" in app.query_one("#board",
                                                                                          BattleBoard).text

    drive(FULL, scenario)


def test_every_origin_and_the_aircraft_the_aa_guns_shot_down() -> None:
    """Part 14: 9 INF, 1 ARM, 2 FTR from Karelia and 2 ARM from Caucasus; the AA guns shoot
    down the 2 FTR before round 1 (they are not among round 1's units)."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        board = await to_battle(app, pilot, "USSR 3")
        text = flat(board.text)
        assert "Declared: attacker 9 INF, 3 ARM, 2 FTR · defender 2 INF, 3 ARM, 2 FTR, AA" in text
        assert "from Karelia S.S.R. 9 INF, 1 ARM, 2 FTR, landing in Russia" in text
        assert "from Caucasus 2 ARM" in text
        assert "Fought with" not in text
        lines = board.text.splitlines()
        first = next(k for k, line in enumerate(lines) if line.startswith("1 "))
        assert "9 INF, 3 ARM, 2 FTR" in lines[first] and "2 INF, 3 ARM, 2 FTR, AA" in lines[first]
        assert "✗ AA shot 2 FTR" in lines[first + 1] and "−2 INF, 1 ARM" in lines[first + 1]
        assert "−3 INF" in lines[first + 2]
        await pilot.press("home", "r")  # round 1
        text = flat(board.text)
        assert ("At the start: attacker 9 INF, 3 ARM, 2 FTR (✗ 2 FTR shot down by AA) · defender "
                "2 INF, 3 ARM, 2 FTR, AA") in text

    drive(PART14, scenario)


def test_a_rounds_units_are_never_cut_in_two_at_120x40() -> None:
    """Each units cell of the round board on one line ("2 INF, 3 ARM", not "2 INF, 3 / ARM")."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        lines = app.query_one("#board", BattleBoard).text.splitlines()  # round 1, opened on
        assert any("2 INF, 3 ARM" in line for line in lines)
        assert any("3 INF, 2 FTR" in line for line in lines)  # the losses row

    drive(PART14, scenario)


def test_a_panel_too_short_says_what_it_leaves_out_and_z_shows_it_all() -> None:
    """With the map on at 120x40 the battle board has a few rows: its last row says how many
    lines are not shown, and ``z`` shows every panel whole, the board around the battle (folded
    away under the map) with both origins among them."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("m")
        panel = app.query_one("#board", BattleBoard)
        assert panel.display and panel.cut > 0
        assert f"▼ {panel.cut} more lines · z shows every panel in full" in panel.shown_text
        assert app.query_one(TerritoryPanel).display
        await pilot.press("z")
        assert isinstance(app.screen, PanelsScreen)
        console = Console(width=120, record=True, file=io.StringIO())
        for title, content in app.screen.panels:
            console.print(title, content)
        shown = console.export_text()
        assert "Karelia S.S.R. ──▶ East Europe" in shown and "Caucasus ──▶ East Europe" in shown
        assert "At the start: attacker 9 INF, 3 ARM, 2 FTR" in shown
        await pilot.press("escape")
        assert not isinstance(app.screen, PanelsScreen)

    drive(PART14, scenario)
