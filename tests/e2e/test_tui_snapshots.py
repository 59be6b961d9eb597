"""SVG snapshots of the timeline app (pytest-textual-snapshot), fixed size, no clock, no animation.

Update after a deliberate change of the screen with ``pytest tests/e2e/test_tui_snapshots.py
--snapshot-update`` and look at the new SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from tests.conftest import REPLAYS
from tests.unit.timeline_views import disputed_pair
from tui.app import MinisterApp
from tui.loading import ViewsSource

SIZE = (120, 40)
#: The smallest usual terminal (panels stacked) and a large one.
SMALL = (80, 24)
LARGE = (160, 48)
SnapCompare = Callable[..., bool]


def disputed_app() -> MinisterApp:
    corrected, rolled = disputed_pair()
    return MinisterApp(ViewsSource(corrected, rolled))


async def loaded(pilot: Pilot[Any]) -> None:
    """Wait until both histories are in (the worker has finished)."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_opening_screen(snap_compare: SnapCompare) -> None:
    """Opens on the first finding: the added dice of the attacker's column 3 in round 1."""
    assert snap_compare(disputed_app(), terminal_size=SIZE, run_before=loaded)


def test_voided_roll(snap_compare: SnapCompare) -> None:
    """The next finding: three ARM dice of too many units, voided inside the round."""
    assert snap_compare(disputed_app(), press=["n"], terminal_size=SIZE, run_before=loaded)


def test_rerolled_round(snap_compare: SnapCompare) -> None:
    """Round 2 of East Europe, where the re-roll begins: the original dice struck through."""
    assert snap_compare(disputed_app(), press=["r"], terminal_size=SIZE, run_before=loaded)


def test_switch_to_as_rolled(snap_compare: SnapCompare) -> None:
    """The same point with the record as rolled as the main line (the correction is the variation)."""
    assert snap_compare(disputed_app(), press=["r", "v"], terminal_size=SIZE, run_before=loaded)


def test_diff_boards_one_above_the_other(snap_compare: SnapCompare) -> None:
    """Both histories' boards at round 2, one above the other, the rows that differ marked."""
    assert snap_compare(disputed_app(), press=["r", "d"], terminal_size=SIZE, run_before=loaded)


def test_help_screen(snap_compare: SnapCompare) -> None:
    """F1: the keys with their binding ids, and the legend."""
    assert snap_compare(disputed_app(), press=["f1"], terminal_size=SIZE, run_before=loaded)


def test_small_terminal_stacks_the_panels(snap_compare: SnapCompare) -> None:
    """80x24: the timeline across the width, the board under it, no title bar, a compact footer."""
    assert snap_compare(disputed_app(), terminal_size=SMALL, run_before=loaded)


def test_small_terminal_casualties_under_the_cursor(snap_compare: SnapCompare) -> None:
    """80x24, the cursor on round 1's casualties: the marked row keeps its columns."""
    assert snap_compare(disputed_app(), press=["right", "right", "right"], terminal_size=SMALL,
                        run_before=loaded)


def test_small_terminal_findings_panel(snap_compare: SnapCompare) -> None:
    """80x24, ``p``: the findings in place of the board."""
    assert snap_compare(disputed_app(), press=["p"], terminal_size=SMALL, run_before=loaded)


def test_small_terminal_luck_panel(snap_compare: SnapCompare) -> None:
    """80x24, ``p`` twice: the luck panel under the timeline."""
    assert snap_compare(disputed_app(), press=["p", "p"], terminal_size=SMALL, run_before=loaded)


def test_large_terminal(snap_compare: SnapCompare) -> None:
    """160x48: every panel side by side, as at 120x40 with more of each."""
    assert snap_compare(disputed_app(), terminal_size=LARGE, run_before=loaded)


def test_large_terminal_diff(snap_compare: SnapCompare) -> None:
    """160x48, round 2 with both histories' boards."""
    assert snap_compare(disputed_app(), press=["r", "d"], terminal_size=LARGE, run_before=loaded)


def test_long_row_wraps_in_the_timeline(snap_compare: SnapCompare) -> None:
    """120x40 on the re-rolled attacker column of round 2: the row too long for the timeline
    wraps onto the row under it, indented."""
    assert snap_compare(disputed_app(), press=["r", "right"], terminal_size=SIZE, run_before=loaded)


def full_game_app() -> MinisterApp:
    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    return MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))


def test_small_terminal_map(snap_compare: SnapCompare) -> None:
    """80x24, ``m`` on the first battle of the three-round game: the timeline above, and under it
    a window of the map round the battle, coloured by holder, with the focused place spelled out."""
    assert snap_compare(full_game_app(), press=["m", "b"], terminal_size=SMALL, run_before=loaded)


def test_large_terminal_map(snap_compare: SnapCompare) -> None:
    """160x48, ``m`` then ``]``: the whole map across the width under the panels, the battle's and
    the turn's places marked, the focus moved to the next place the turn touched."""
    assert snap_compare(full_game_app(), press=["m", "b", "right_square_bracket"], terminal_size=LARGE,
                        run_before=loaded)


def test_map_with_units(snap_compare: SnapCompare) -> None:
    """120x40, ``m`` on the first battle of the three-round game: the whole map, each place's
    units under its name in its power's colours, the timeline and the board above it."""
    assert snap_compare(full_game_app(), press=["m", "b"], terminal_size=SIZE, run_before=loaded)


async def story_shown(pilot: Pilot[Any]) -> None:
    """Loaded, ``c`` pressed and every battle's odds worked out, on USSR 1's battle."""
    await loaded(pilot)
    await pilot.press("c")
    await pilot.app.workers.wait_for_complete()
    await pilot.press("b")
    await pilot.pause()


def test_story(snap_compare: SnapCompare) -> None:
    """120x40, ``c``: the odds of the four battles as declared against their results, the
    income of each power turn by turn, the current battle and turn marked."""
    assert snap_compare(full_game_app(), terminal_size=SIZE, run_before=story_shown)


def test_small_terminal_story(snap_compare: SnapCompare) -> None:
    """80x24, ``c``: the story in the place of the panels under the timeline."""
    assert snap_compare(full_game_app(), terminal_size=SMALL, run_before=story_shown)
