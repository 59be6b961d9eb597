"""Legacy verifiable dice (``minister-dice/1``) for games whose record states a clear ``dice_seed``.

A clear seed is a test and demo convenience only: anyone holding the file can compute every die
it gives. The Minister's desk draws by commit–reveal instead (:mod:`application.usecases.desk.dice`,
``minister commit`` / ``roll`` / ``reveal``); ``check_dice`` checks both schemes. Every roll takes
the game's next sequence number and is a :class:`~domain.record.events.DiceDrawn` event; two
processes rolling at once clash on the event version and the loser rolls the next number.
"""

from __future__ import annotations

from datetime import datetime

from application.adapters.app import MinisterApplication
from application.usecases.desk.common import battle_of, record_time
from application.usecases.desk.dice import next_sequence
from application.usecases.desk.dice_check import DiceCheck, check_dice
from domain.battle.dice import roll_dice
from domain.errors import MinisterError
from domain.record.events import DiceDrawn, GameEvent, ReportFiled
from domain.record.game import Game

__all__ = ["DiceCheck", "check_dice", "draw", "file_report", "record_time"]


def draw(app: MinisterApplication, game_id: str, battle: str, count: int, purpose: str = "roll",
         *, now: datetime | None = None, turn: str | None = None) -> DiceDrawn:
    """Roll ``count`` dice for ``battle`` (of ``turn``, where its territory names two battles)
    from the game's clear legacy seed and record them (tests and demos; never the desk's flow)."""
    if count < 1:
        raise MinisterError(f"expected --count of at least 1 die, found {count!r}")

    def build(game: Game) -> list[GameEvent]:
        if game.dice_seed is None:
            raise MinisterError(f"game {game_id!r} has no dice_seed: its record sets no legacy "
                                "dice source")
        named = battle_of(game, battle, turn)
        sequence = next_sequence(game)
        at = record_time(game, now)
        return [DiceDrawn(originator_id=game.id, originator_version=game.version + 1, timestamp=at,
                          at=at, battle=battle, territory=named.territory,
                          sequence=sequence, purpose=purpose, turn=named.turn,
                          dice=tuple(roll_dice(game_id, game.dice_seed, sequence, count)))]

    [event] = app.append(game_id, build)
    assert isinstance(event, DiceDrawn)
    return event


def file_report(app: MinisterApplication, game_id: str, by: str, text: str,
                battle: str | None = None, *, now: datetime | None = None) -> ReportFiled:
    """Record a correction request at the end of a stored game (no checks: see the desk's
    :func:`application.usecases.desk.papers.report`)."""

    def build(game: Game) -> list[GameEvent]:
        at = record_time(game, now)
        return [ReportFiled(originator_id=game.id, originator_version=game.version + 1,
                            timestamp=at, at=at, by=by, text=text, battle=battle)]

    [event] = app.append(game_id, build)
    assert isinstance(event, ReportFiled)
    return event
