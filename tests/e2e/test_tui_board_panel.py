"""The timeline's board panel (``m``): shown for a battle whose territories the review knows, with
the moves drawn and the units before and after; hidden until asked for."""

from __future__ import annotations

import asyncio

import pytest

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from domain.review.views import GameView, PlaceView
from tests.conftest import REPLAYS
from tests.unit.timeline_views import disputed_pair
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.widgets import territories
from tui.widgets.territories import TerritoryPanel


def _panel(app: MinisterApp, *keys: str) -> tuple[bool, str, str]:
    async def run() -> tuple[bool, str, str]:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            panel = app.query_one(TerritoryPanel)
            return bool(panel.display), str(panel.border_title), panel.text
    return asyncio.run(run())


def test_the_board_around_a_battle_with_its_retreat() -> None:
    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    app = MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))
    shown, title, text = _panel(app, "m", "b")
    assert shown and title == "Board · Ukraine S.S.R. · as corrected"
    assert "Ukraine S.S.R. ──▶ Caucasus (retreat)" in text
    assert "Caucasus  $3  USSR\n  before USSR 5 INF\n  after  USSR 6 INF, 1 ARM" in text


def test_no_panel_until_asked_for_and_m_hides_it_again() -> None:
    corrected, rolled = disputed_pair()
    assert not _panel(MinisterApp(ViewsSource(corrected, rolled)))[0]
    assert _panel(MinisterApp(ViewsSource(corrected, rolled)), "m")[0]
    assert not _panel(MinisterApp(ViewsSource(corrected, rolled)), "m", "m")[0]


def test_the_hidden_panel_works_nothing_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until ``m``, a key press does not read the board around the battle (a key press's cost)."""
    calls: list[int] = []
    real = territories.battle_places

    def counted(view: GameView, b: int) -> tuple[PlaceView, ...]:
        calls.append(b)
        return real(view, b)

    monkeypatch.setattr(territories, "battle_places", counted)
    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    app = MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))
    assert not _panel(app, "b", "b", "j")[0]
    assert not calls
    shown, title, _ = _panel(MinisterApp(ViewsSource(review(game), review(game, as_rolled=True))), "b", "m")
    assert shown and title == "Board · Ukraine S.S.R. · as corrected"
