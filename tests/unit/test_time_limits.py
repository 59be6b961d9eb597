"""2008 Section VII's time limit on a game whose later turns had no combat, and rulings the
rules leave no room for (replays/games/full-game-three-rounds-2008.toml: round 2 and 3 have no
battle, so no die).

"If an error occurs on Russia 1, but is not recognized until after G1 has been rolled, it is
not subject to correction": a turn without combat has no first die, so it "has been rolled"
when its first record was posted, once a later turn has begun or the game's finish was posted
(docs/rulings.md, "A turn without combat"); else such a turn would keep every earlier error
open for ever.
"""

from __future__ import annotations

from datetime import timedelta

from application.intake.replayfile import load_replay
from domain.record.events import RulingIssued
from domain.record.game import Game, project_game
from domain.review.decisions import rolled_at
from domain.review.game_review import review
from domain.review.views import Finding
from domain.rules.findings import FindingStatus
from tests.conftest import ROOT

GAME = ROOT / "replays" / "games" / "full-game-three-rounds-2008.toml"


def _game() -> Game:
    game = project_game(None, load_replay(GAME).events)
    assert game is not None
    return game


def _first_record(game: Game, turn: str) -> int:
    return min(note.seq for note in game.board_log if note.turn == turn)


def _treasury_wrong_ussr_2(game: Game) -> Finding:
    return next(f for f in review(game).findings if f.kind == "treasury_wrong" and f.turn == "USSR 2")


def test_a_turn_without_combat_is_rolled_when_posted_once_a_later_turn_began() -> None:
    game = _game()
    germany_2, uk_2 = _first_record(game, "Germany 2"), _first_record(game, "UK 2")
    assert "Germany 2" not in game.first_roll_at and "Germany 2" not in game.turns  # no combat
    during = game.at(game.version - game.seq + uk_2 - 1)  # Germany 2 posted, UK 2 not begun
    assert rolled_at(during, "Germany 2") is None
    finding = _treasury_wrong_ussr_2(during)
    assert finding.status == FindingStatus.OPEN
    assert "correctable until Germany 2 is rolled" in finding.detail
    after = game.at(game.version - game.seq + uk_2)
    posted = next(note.at for note in game.board_log if note.seq == germany_2)
    assert rolled_at(after, "Germany 2") == posted
    finding = _treasury_wrong_ussr_2(after)
    assert finding.status == FindingStatus.FIXED
    assert "not reported before Germany 2 was rolled (2008-09-07 09:00 UTC; 2008 Section VII)" \
        in finding.detail


def test_the_games_finish_ends_its_last_turn() -> None:
    game = _game()
    finish = next(note.seq for note in game.board_log if note.kind == "finish")
    assert rolled_at(game.at(game.version - game.seq + finish - 1), "USA 3") is None
    assert rolled_at(game, "USA 3") is not None
    japan = next(f for f in review(game).findings if f.kind == "purchase_overspent")
    assert japan.status == FindingStatus.FIXED and "before USA 3 was rolled" in japan.detail


def test_a_ruling_the_rules_leave_no_room_for_is_named_with_why() -> None:
    """The Minister rules "apply" on an error nobody reported in time: the finding stays fixed,
    and says so, naming the ruling (not a finding that silently ignores it)."""
    game = _game()
    finding = _treasury_wrong_ussr_2(game)
    when = game.moments[-1] + timedelta(hours=1)
    game.apply(RulingIssued(originator_id=game.id, originator_version=game.version + 1, timestamp=when,
                            at=when, finding=finding.id, decision="apply", text="recompute the treasury"))
    ruled = _treasury_wrong_ussr_2(game)
    assert ruled.status == FindingStatus.FIXED
    assert ruled.ruling is not None and ruled.ruling.startswith("apply: recompute the treasury")
    assert "the ruling on record changes nothing: a fixed error is not subject to correction" in ruled.detail
