"""Find (``/``) over everything a player names, ``n`` / ``N`` through the matches, and the map's
"go to place" (``f``): driven by keys on the engine's views of the shipped three-round game."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import lru_cache

from textual.pilot import Pilot
from textual.widgets import Input, Label, Static

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from domain.review.views import GameView
from projections.timeline import Timeline
from tests.conftest import REPLAYS
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.screens.find import FindScreen, PlaceScreen
from tui.widgets.board_map import MapPanel

FULL = REPLAYS / "games" / "full-game-three-rounds-2008.toml"
Scenario = Callable[[MinisterApp, Pilot[None]], Awaitable[None]]


@lru_cache(maxsize=1)
def views() -> tuple[GameView, GameView]:
    game = load_replay(FULL).game
    return review(game), review(game, as_rolled=True)


def timeline() -> Timeline:
    corrected, rolled = views()
    return Timeline(corrected, rolled)


def drive(scenario: Scenario, size: tuple[int, int] = (120, 40)) -> None:
    app = MinisterApp(ViewsSource(*views()))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


async def find(pilot: Pilot[None], text: str) -> None:
    await pilot.press("slash")
    assert isinstance(pilot.app.screen, FindScreen)
    await pilot.press("ctrl+u", *text, "enter")
    await pilot.pause()


def crumb(app: MinisterApp) -> str:
    return str(app.query_one("#crumb", Static).render())


def labels(tl: Timeline, *prefixes: str) -> list[int]:
    """The nodes whose label begins with one of ``prefixes``, in order."""
    return [i for i in range(len(tl)) if tl.label(i).startswith(prefixes)]


def test_a_territory_by_name_or_abbreviation_finds_its_battles_moves_and_findings() -> None:
    """Karelia is an origin of USSR 1's battle in Ukraine, where USSR 1's non-combat moves go,
    and the place USSR 2's map update is wrong about (its map finding): three points, n/N
    through them."""
    tl = timeline()
    ukraine = labels(tl, "Ukraine S.S.R.")[0]
    after_ussr1 = tl.records_node("USSR 1")
    ussr2 = tl.turn_node("USSR 2")
    [wrong_map] = [f.id for f in views()[0].findings if f.kind == "map_discrepancy"]
    assert ussr2 == tl.finding_node(wrong_map)

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        for query in ("Karelia", "Kar", "karelia ssr"):
            await pilot.press("home")
            await find(pilot, query)
            assert app.position == ukraine, query
            assert "find Karelia S.S.R.: 1 of 3" in crumb(app)
        await pilot.press("n")
        assert app.position == after_ussr1
        await pilot.press("n")
        assert app.position == ussr2 and "3 of 3" in crumb(app)
        await pilot.press("n")  # round the end
        assert app.position == ukraine
        await pilot.press("N")
        assert app.position == ussr2

    drive(scenario)


def test_a_sea_zone_abbreviation_finds_the_bid_placed_there() -> None:
    """"Caroline Islands SZ": the bid's illegal FTR (F2), at the start of the record."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("end")
        await find(pilot, "Caroline Is SZ")
        assert app.position == 0 and "Caroline Islands Sea Zone" in crumb(app)

    drive(scenario)


def test_powers_turns_units_and_finding_kinds() -> None:
    tl = timeline()
    germany = [tl.turn_node(t) for t in ("Germany 1", "Germany 2", "Germany 3")]
    arm = [i for i in range(len(tl)) if " ARM" in tl.label(i)]
    misdeclared = tl.finding_node(next(f.id for f in tl.main.findings if f.kind == "defenders_misdeclared"))

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("home")
        await find(pilot, "ger 2")  # a turn, the power abbreviated
        assert app.position == germany[1]
        await pilot.press("home")
        await find(pilot, "misdeclared")  # a finding kind
        assert app.position == misdeclared
        assert "defenders misdeclared" in crumb(app)
        await pilot.press("home")
        await find(pilot, "tank")  # ARM, as the notation writes it
        seen = [app.position]
        for _ in arm[1:]:
            await pilot.press("n")
            seen.append(app.position)
        assert seen == arm
        await pilot.press("home")
        await find(pilot, "Jap")  # the power's turns, and the territory (placements there)
        assert "Japan / Japan's turns" in crumb(app)
        visited = {app.position}
        for _ in range(8):
            await pilot.press("n")
            visited.add(app.position)
        japan = {tl.turn_node(t) for t in ("Japan 1", "Japan 2", "Japan 3")}
        assert japan < visited and tl.records_node("Japan 1") in visited

    drive(scenario)


def test_escape_ends_the_find_and_n_goes_to_findings_again() -> None:
    tl = timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("home")
        await find(pilot, "Kar")
        assert app.check_action("find_next", (1,))
        await pilot.press("escape")
        assert not app.check_action("find_next", (1,))
        assert "find" not in crumb(app)
        start = app.position
        await pilot.press("n")
        assert app.position == tl.next_finding(start)
        await find(pilot, "Atlantis")
        assert "“Atlantis” not found" in crumb(app) and not app.finding.on

    drive(scenario)


def test_the_find_prompt_completes_a_name() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("slash", "ctrl+u", *"Anglo")
        await pilot.pause(0.1)
        await pilot.press("tab")
        assert app.screen.query_one(Input).value == "Anglo Sudan Egypt"

    drive(scenario)


def test_the_map_goes_to_a_place_typed_with_completion() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        board_map = app.query_one(MapPanel)
        await pilot.press("m", "f")
        assert isinstance(app.screen, PlaceScreen)
        await pilot.press(*"Unit")
        await pilot.pause(0.1)
        await pilot.press("tab")
        assert app.screen.query_one(Input).value == "United Kingdom"
        await pilot.press("enter")
        await pilot.pause()
        assert board_map.focus_name == "United Kingdom"
        assert "United Kingdom  $8  UK" in board_map.text
        for typed, place in (("E Eur", "East Europe"), ("Cauc", "Caucasus"), ("Kar SZ", "Karelia Sea Zone")):
            await pilot.press("f", *typed, "enter")
            await pilot.pause()
            assert board_map.focus_name == place, typed
        await pilot.press("f", *"Atlantis", "enter")
        await pilot.pause()
        assert isinstance(app.screen, PlaceScreen)  # refused, still asking
        assert "unknown territory or sea zone" in str(app.screen.query_one("#problem", Label).render())
        await pilot.press("escape")
        assert board_map.focus_name == "Karelia Sea Zone"

    drive(scenario)


def test_a_find_naming_a_place_focuses_it_on_the_map() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("m")
        await find(pilot, "India")
        assert app.query_one(MapPanel).focus_name == "India"

    drive(scenario)
