"""The map (``m``): the board laid out at the current point, on views the engine made from the
shipped replays; ``[`` ``]`` ``{`` ``}`` move its focus, and it fits a small terminal."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from tests.conftest import REPLAYS
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.widgets.board_map import MapPanel
from tui.widgets.timeline_view import TimelineView


@dataclass
class Seen:
    shown: bool
    title: str
    focus: str | None
    text: str
    timeline_rows: int
    offered: bool


def _app(path: str) -> MinisterApp:
    game = load_replay(REPLAYS / path).game
    return MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))


def _run(path: str, *keys: str, size: tuple[int, int] = (120, 40)) -> Seen:
    app = _app(path)

    async def run() -> Seen:
        async with app.run_test(size=size) as pilot:
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            panel = app.query_one(MapPanel)
            offered = any(b.binding.action == "map_focus(1)" for b in app.active_bindings.values()
                          if app.check_action("map_focus", ()))
            return Seen(bool(panel.display), str(panel.border_title), panel.focus_name, panel.text,
                        app.query_one(TimelineView).size.height, offered)
    return asyncio.run(run())


FULL = "games/full-game-three-rounds-2008.toml"
TWO_TURNS = "games/two-turns-board-moves-on-2008.toml"


def test_no_map_until_asked_for_and_m_hides_it_again() -> None:
    hidden = _run(FULL)
    assert not hidden.shown and not hidden.offered
    assert _run(FULL, "m").shown
    assert not _run(FULL, "m", "m").shown


def test_the_map_at_a_battle_marks_it_and_spells_out_its_territory() -> None:
    seen = _run(FULL, "m", "b")
    assert seen.shown and seen.offered
    assert seen.title == "Map · USSR 1 · after the battle in Ukraine S.S.R. · as corrected"
    assert seen.focus == "Ukraine S.S.R."
    assert "▶Ukr  *▶Cauc *" in seen.text
    assert "Ukraine S.S.R.  $3  Germany  · this battle: battle" in seen.text
    assert "units Germany 2 INF, 2 ARM, 1 FTR  (after the battle in Ukraine S.S.R. (USSR 1))" in seen.text


def test_brackets_step_through_the_turns_places_and_braces_through_every_place() -> None:
    # The turn touched Karelia, Ukraine and Caucasus: in reading order Kar, Ukr, Cauc.
    assert _run(FULL, "m", "b", "right_square_bracket").focus == "Caucasus"
    assert _run(FULL, "m", "b", "right_square_bracket", "right_square_bracket").focus == "Karelia S.S.R."
    assert _run(FULL, "m", "b", "left_square_bracket").focus == "Karelia S.S.R."
    assert _run(FULL, "m", "b", "right_curly_bracket").focus == "Caucasus"  # the next cell of its row
    assert _run(FULL, "m", "b", "left_curly_bracket").focus == "East Europe"


def test_the_map_follows_the_timeline_and_the_switch_of_history() -> None:
    seen = _run(TWO_TURNS, "m", "t")
    assert seen.title == "Map · Germany 1 · as its battles were declared · as corrected"
    assert seen.focus == "Finland Norway"  # the first of the turn's places, row by row
    assert "Finland Norway  $2  Germany  · a battle of this turn" in seen.text
    rolled = _run(TWO_TURNS, "m", "v")  # it opens on USSR 1's battle
    assert rolled.title == "Map · USSR 1 · after the battle in East Europe · as rolled"


def test_where_the_histories_part_the_map_marks_it() -> None:
    seen = _run("part14/east-europe-forgotten-armour.toml", "m", "b")
    assert "▶E Eur≠" in seen.text
    assert "≠ as rolled: Germany 2 INF, 3 ARM, 2 FTR, AA (Germany)" in seen.text


def test_a_small_terminal_keeps_the_timeline_and_shows_a_window_of_the_map() -> None:
    seen = _run(FULL, "m", "b", size=(80, 24))
    assert seen.shown and seen.timeline_rows >= 8
    assert "▶Ukr" in seen.text and "Midwy" not in seen.text
    assert "Ukraine S.S.R.  $3  Germany" in seen.text


def test_a_large_terminal_shows_the_whole_map() -> None:
    seen = _run(FULL, "m", "b", size=(160, 48))
    assert "Midwy" in seen.text and "Wake" in seen.text and seen.timeline_rows >= 5


def test_the_help_lists_the_map_keys() -> None:
    rows = {text.split("  [")[-1].rstrip("]"): keys for keys, text in _app(FULL).help_keys()}
    assert rows["view.map"] == "m"
    assert rows["map.next"] == "]" and rows["map.previous"] == "["
    assert rows["map.next_any"] == "}" and rows["map.previous_any"] == "{"


def test_a_place_a_mid_game_record_does_not_name_is_shown_as_not_known() -> None:
    """Part 14's example starts in USSR 3: Ukraine's units are not in the record, so the map marks
    it ``?`` and says so, instead of the Classic setup's Germany 3 INF, 2 ARM, 1 FTR."""
    seen = _run("part14/east-europe-forgotten-armour.toml", "m", "b", "right_curly_bracket")
    assert seen.focus == "Ukraine S.S.R."
    assert "Ukraine S.S.R.  $3  not known" in seen.text
    assert "units not known  (the record starts after the setup and names nothing here yet)" in seen.text
    assert "Ukr  ?" in seen.text and "? not in the record" in seen.text
    assert "3 INF, 2 ARM, 1 FTR" not in seen.text
    assert "not in the record" not in _run(FULL, "m", "b").text  # from the setup: every place known


def _units_under(app_text: str, label: str) -> str:
    """What the map shows under a place's label: its units (the line under the label's)."""
    lines = app_text.splitlines()
    for k, line in enumerate(lines[:-1]):
        at = line.find(label)
        if at >= 0:
            return lines[k + 1][at:at + 6].strip()
    raise AssertionError(f"{label} not on the map")


def test_at_120x40_the_whole_map_shows_every_places_units_and_the_timeline_keeps_its_rows() -> None:
    """USSR 1's battle in Ukraine: after it Germany keeps 2 INF, 2 ARM, 1 FTR there and the USSR
    retreats to Caucasus with 6 INF, 1 ARM; every row of the map from Alaska to the Antarctic."""
    seen = _run(FULL, "m", "b")
    assert seen.timeline_rows >= 5
    assert "Alas" in seen.text and "Antc~" in seen.text and "Novo" in seen.text
    assert _units_under(seen.text, "Ukr ") == "2i2af"
    assert _units_under(seen.text, "Cauc ") == "6ia"


def test_the_map_shows_the_units_of_the_history_shown() -> None:
    """Part 14: as corrected the USSR takes East Europe (6 INF, 3 ARM and the captured AA gun);
    as rolled Germany keeps it with 2 INF, 3 ARM, 2 FTR, AA."""
    corrected = _run("part14/east-europe-forgotten-armour.toml", "m", "b")
    rolled = _run("part14/east-europe-forgotten-armour.toml", "m", "b", "v")
    assert _units_under(corrected.text, "E Eur") == "6i3aA"
    assert _units_under(rolled.text, "E Eur") == "2i3a2…"
    assert "as rolled" in rolled.title
