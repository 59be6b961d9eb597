"""The throw a battle's correction awaits, as the program derives it: what a ``minister-dice/3``
roll is bound to (:class:`domain.battle.dice.Throw`).

Nobody types any part of it. ``roll`` draws for the throw derived from the game as it stands;
the check derives it again from the game as it stood just before the roll was recorded and
refuses a roll that names another (another purpose, another count): so whoever holds the dice
secret has nothing left to try offline. The derivation is the review's (the rules in force):
the battle's latest record in that territory (where a drawn roll is filed), the throw its
correction waits for, its round, side and column.
"""

from __future__ import annotations

from domain.battle.dice import Throw
from domain.errors import MinisterError
from domain.record.game import Game
from domain.review.game_review import review
from domain.review.views import DiceNeed

#: The purpose texts of a correction's added dice end so (domain.review.dice_fixes).
_CORRECTION = ": correction"


def throw_of(turn: str, need: DiceNeed) -> Throw:
    """The throw of a need the review gave (its purpose text read into the closed set)."""
    if need.round is None or need.side is None or need.column is None:
        raise MinisterError(f"the throw awaited ({need.purpose!r}) names no round, side and column: "
                            "minister cannot derive what dice to draw for it")
    if need.purpose.endswith(_CORRECTION):
        purpose = "correction"
    elif " first strike " in need.purpose:
        purpose = "first strike"
    else:
        purpose = "volley"
    return Throw(turn, need.round, need.side, need.column, purpose, need.count)


def awaited_throw(game: Game, territory: str, turn: str | None = None) -> tuple[DiceNeed, Throw] | None:
    """The throw the battle in ``territory`` awaits (of ``turn`` when given, else the latest
    battle there; None: it awaits no dice)."""
    try:
        record = game.battle(territory, territory=territory) if turn is None else next(
            b for b in game.battles if b.territory == territory and b.turn == turn)
    except (KeyError, StopIteration):
        return None
    for view in review(game).battles:
        if view.battle == record.territory and view.turn == record.turn and view.needed is not None:
            return view.needed, throw_of(record.turn, view.needed)
    return None
