"""SVG snapshots of the timeline app (pytest-textual-snapshot), fixed size, no clock, no animation.

Update after a deliberate change of the screen with ``pytest tests/e2e/test_tui_snapshots.py
--snapshot-update`` and look at the new SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from tests.unit.timeline_views import disputed_pair
from tui.app import MinisterApp
from tui.loading import ViewsSource

SIZE = (120, 40)
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


def test_side_by_side_diff(snap_compare: SnapCompare) -> None:
    """Both histories' boards at round 2, the rows that differ marked."""
    assert snap_compare(disputed_app(), press=["r", "d"], terminal_size=SIZE, run_before=loaded)


def test_help_screen(snap_compare: SnapCompare) -> None:
    """F1: the keys with their binding ids, and the legend."""
    assert snap_compare(disputed_app(), press=["f1"], terminal_size=SIZE, run_before=loaded)
