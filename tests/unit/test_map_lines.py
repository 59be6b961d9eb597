"""The map's lines (tui/widgets/board_map.py): the grid or a window of it round the focus, the
marks, the holders' colours, and the focused place spelled out."""

from __future__ import annotations

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from domain.rules.map_layout import MapLayout
from projections.board_map import BoardMaps, MapPoint
from projections.timeline import Timeline
from tests.conftest import REPLAYS
from tui.widgets.board_map import (
    CELL,
    FOOT_LINES,
    POWER_STYLES,
    POWER_TEXT,
    focus_lines,
    map_lines,
    units_cell,
    window,
)

LAYOUT = MapLayout.classic()


def _point(path: str, battle: int) -> MapPoint:
    game = load_replay(REPLAYS / path).game
    timeline = Timeline(review(game), review(game, as_rolled=True))
    point = BoardMaps(timeline).at(timeline.battle_node(battle))
    assert point is not None
    return point


def test_a_window_fits_or_centres_going_round_only_where_the_grid_wraps() -> None:
    assert window(30, 22, 5, wrap=True) == list(range(22))
    assert window(5, 22, 10, wrap=True) == [8, 9, 10, 11, 12]
    assert window(5, 22, 1, wrap=True) == [21, 0, 1, 2, 3]
    assert window(5, 11, 1, wrap=False) == [0, 1, 2, 3, 4]
    assert window(5, 11, 10, wrap=False) == [6, 7, 8, 9, 10]


def test_a_large_panel_shows_the_whole_board_with_the_battle_marked() -> None:
    point = _point("games/two-turns-board-moves-on-2008.toml", 0)  # USSR 1: East Europe taken
    height = LAYOUT.rows + FOOT_LINES  # no room for the units under the names
    lines = [line.plain for line in map_lines(point, LAYOUT, "East Europe", LAYOUT.columns * CELL, height)]
    assert len(lines) == LAYOUT.rows + 1 + 3  # the grid, the legend, the focused place
    assert lines[0].startswith(" Midwy  Ala~   Alas")  # the whole width, from the Pacific's east half
    assert "▶E Eur*" in lines[2] and "▶Kar  *" in lines[1]
    assert lines[LAYOUT.rows].startswith(
        "▶ this battle  • this turn  * changed  ≠ rolled ≠ corrected  × unresolved")
    assert lines[LAYOUT.rows + 1] == "East Europe  $3  USSR  · this battle: battle"
    assert lines[LAYOUT.rows + 2] == "  units USSR 2 INF, 2 ARM  (after the battle in East Europe (USSR 1))"
    assert lines[LAYOUT.rows + 3] == "  * at the turn's start Germany 2 INF (Germany)"


def test_the_holder_colours_the_label_and_the_focus_is_reversed() -> None:
    point = _point("games/two-turns-board-moves-on-2008.toml", 0)
    line = map_lines(point, LAYOUT, "Karelia S.S.R.", LAYOUT.columns * CELL, LAYOUT.rows + FOOT_LINES)[2]
    start = line.plain.index("E Eur")
    styles = [span.style for span in line.spans if span.start == start]
    assert styles and styles[0].bgcolor == POWER_STYLES["USSR"].bgcolor  # type: ignore[union-attr]
    focus = line.plain.index("Ukr")  # not the focus: not reversed
    assert all(not span.style.reverse for span in line.spans if span.start == focus)  # type: ignore[union-attr]


def test_a_small_panel_shows_a_window_round_the_focus() -> None:
    point = _point("games/two-turns-board-moves-on-2008.toml", 0)
    lines = [line.plain for line in map_lines(point, LAYOUT, "East Europe", 78, 10)]
    grid = lines[: 10 - FOOT_LINES]
    assert len(grid) == 6 and all(len(line) <= 78 for line in grid)
    assert any("▶E Eur" in line for line in grid)
    assert not any("Midwy" in line or "Japan" in line for line in grid)


def test_the_window_goes_round_the_pacific() -> None:
    point = _point("games/two-turns-board-moves-on-2008.toml", 0)
    lines = "\n".join(line.plain for line in map_lines(point, LAYOUT, "Hawaii Sea Zone", 5 * CELL, 12))
    assert "NPac~" in lines and "Mid~" in lines and "WUS~" in lines


def test_the_focused_place_shows_the_other_history_where_they_part() -> None:
    point = _point("part14/east-europe-forgotten-armour.toml", 0)
    lines = [line.plain for line in focus_lines(point, "East Europe")]
    assert lines == [
        "East Europe  $3  USSR  · this battle: battle",
        "  units USSR 6 INF, 3 ARM, AA  (after the battle in East Europe (USSR 3))",
        "  * at the turn's start Germany 2 INF, 3 ARM, 2 FTR, AA (Germany)",
        "  ≠ as rolled: Germany 2 INF, 3 ARM, 2 FTR, AA (Germany)",
    ]
    assert focus_lines(point, None) == []


def test_a_battle_begun_and_awaiting_dice_is_marked_and_spelled_out() -> None:
    """USSR 3's Ukraine awaits a correction die: its attackers stand there beside the defenders."""
    point = _point("fidelity/void-turn-findings-superseded-2008.toml", 0)
    assert point.contested == {"Ukraine S.S.R."}
    head, units = (line.plain for line in focus_lines(point, "Ukraine S.S.R.")[:2])
    assert "× a battle here is not resolved (awaiting dice)" in head
    assert units.startswith("  units Germany 2 INF; USSR 3 INF, 1 ARM  (after the battle in Ukraine S.S.R.")
    karelia = focus_lines(point, "Karelia S.S.R.")[1].plain
    assert karelia.startswith("  units empty")


def test_with_room_each_place_shows_its_units_under_its_name_in_its_powers_colour() -> None:
    """USSR 1 took East Europe with 2 INF, 2 ARM: "2i2a" under "E Eur", in the USSR's colour;
    Germany's 4 INF, 2 ARM, 1 FTR, 1 BMB, AA (and IC, left out first) under "Ger", cut."""
    point = _point("games/two-turns-board-moves-on-2008.toml", 0)
    lines = map_lines(point, LAYOUT, "East Europe", LAYOUT.columns * CELL, 2 * LAYOUT.rows + FOOT_LINES)
    assert len(lines) == 2 * LAYOUT.rows + 1 + 3
    names, units = lines[4], lines[5]  # the grid's third row and what stands there
    at = names.plain.index("E Eur")
    assert units.plain[at:at + CELL - 1] == "2i2a  "
    assert [span.style for span in units.spans if span.start == at] == [POWER_TEXT["USSR"]]
    germany = names.plain.index("Ger ")
    assert units.plain[germany:germany + CELL - 1] == "4i2af…"
    # The Classic setup's carrier, battleship and the fighter on the carrier, in the notation's order.
    assert units_cell(point.squares["Caroline Islands Sea Zone"]).plain == "fcB"

