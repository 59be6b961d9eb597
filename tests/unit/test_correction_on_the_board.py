"""A corrected battle reaches the board where it was fought (issue 28.1): dice for a correction
entered a day later put the corrected result at the battle's own place in the order of play,
not at the day the dice were entered, so the turns after it read the corrected board and the
map updates of the same turn are not contradicted (rules matrix, Consequences: "a corrected
battle's result flows into later positions")."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from application.intake.replayfile import load_replay
from domain.battle.model import Winner
from domain.record.board.walk import walk_board
from domain.record.events import DiceSupplied, GameEvent, ReportFiled, RulingIssued
from domain.record.game import Game, project_game
from domain.review.board_review import outcomes_of
from domain.review.game_review import review
from domain.rules.findings import FindingKind
from domain.rules.units import UnitType
from tests.support.desk_events import ROOT

FULL_GAME = ROOT / "replays" / "games" / "full-game-three-rounds-2008.toml"
EGYPT = "Anglo Sudan Egypt"


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _then(game: Game, kind: type[GameEvent], at: str, **fields: Any) -> Game:
    when = _at(at)
    event = kind(originator_id=game.id, originator_version=game.version + 1, timestamp=when, at=when,
                 **fields)
    found = project_game(game, [event])
    assert found is not None
    return found


def _corrected_game() -> Game:
    """UK 1's battle in Anglo Egypt: the defenders misdeclared, reported before Japan 1 rolled,
    the UK elects to re-roll, and the dice server's throw for it is entered afterwards."""
    game = load_replay(FULL_GAME).game
    game = _then(game, ReportFiled, "2008-09-03T12:00:00", by="UK", text="defenders misdeclared",
                 battle="Anglo Egypt")
    game = _then(game, RulingIssued, "2008-09-03T12:30:00", finding="defenders_misdeclared",
                 decision="apply", election="reroll", text="UK re-rolls")
    return _then(game, DiceSupplied, "2008-09-03T14:00:00", battle="Anglo Egypt", territory=EGYPT,
                 dice=(3, 2, 5))


def test_a_corrected_battle_reaches_the_board_of_the_turns_after_it() -> None:
    game = _corrected_game()
    view = review(game)
    [uk1] = [b for b in view.battles if b.turn == "UK 1" and b.battle == EGYPT]
    assert uk1.status == "corrected" and uk1.result is not None and uk1.result.winner is Winner.ATTACKER
    walk = walk_board(game, outcomes_of(view.battles, view.void_turns))
    japan_1 = next(b for b in game.battles if b.turn.startswith("Japan 1"))
    board = walk.before(japan_1.declared_seq)
    assert board.control_of(EGYPT) == "UK"
    # The land units that won stay (the fighter lands where the record says, as rolled too).
    assert board.of(EGYPT, "UK")[UnitType.INF] == uk1.result.attacker_left[UnitType.INF] == 1
    assert not board.of(EGYPT, "Germany")


def test_dice_entered_later_raise_no_map_finding_the_record_as_rolled_has_not() -> None:
    game = _corrected_game()
    before = {(f.kind, f.turn) for f in review(load_replay(FULL_GAME).game).findings}
    after = {(f.kind, f.turn) for f in review(game).findings}
    board_kinds = {FindingKind.MAP_DISCREPANCY, FindingKind.MAP_COUNT_WRONG,
                   FindingKind.MAP_UPDATE_INCOMPLETE}
    assert {found for found in after - before if found[0] in board_kinds} == set()
    uk1 = next(b for b in review(game).battles if b.turn == "UK 1" and b.battle == EGYPT)
    assert uk1.result is not None and uk1.result.attacker_left[UnitType.FTR] == 1
