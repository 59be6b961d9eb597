"""The board panel's lines: the territories a battle touched, as rolled and as corrected."""

from __future__ import annotations

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from projections.board_map import battle_places
from projections.timeline import Span
from tests.conftest import REPLAYS
from tui.widgets.territories import move_map, territory_lines


def _plain(rows: list[list[Span]]) -> list[str]:
    return ["".join(text for text, _ in row) for row in rows]


def test_the_corrected_holder_with_the_record_as_rolled_beside_it() -> None:
    game = load_replay(REPLAYS / "consequences" / "corrected-result-flows-2008.toml").game
    corrected, rolled = battle_places(review(game), 0), battle_places(review(game, as_rolled=True), 0)
    lines = _plain(territory_lines(corrected, rolled, "as rolled"))
    assert lines[:4] == ["Ukraine S.S.R.  $3  Germany → USSR", "  before Germany 2 INF",
                         "  after  USSR 1 ARM", "  as rolled: Germany 2 INF (Germany)"]
    assert _plain(move_map(corrected)) == ["Caucasus ──▶ Ukraine S.S.R."]


def test_the_moves_of_a_retreat_and_a_landing_are_drawn() -> None:
    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    ukraine = battle_places(review(game), 0)
    assert _plain(move_map(ukraine)) == [
        "Karelia S.S.R. ──▶ Ukraine S.S.R.", "Caucasus ──▶ Ukraine S.S.R.",
        "Ukraine S.S.R. ──▶ Karelia S.S.R. (landing)", "Ukraine S.S.R. ──▶ Caucasus (retreat)"]
    lines = _plain(territory_lines(ukraine, (), "as rolled"))
    assert "  after  USSR 6 INF, 1 ARM" in lines  # Caucasus: 2 INF stayed, 4 INF, 1 ARM retreated
