"""The walk's steps: every record that moves the board, in record order, with the walker's
method that walks it (see :func:`domain.record.board.walk.walk_board`)."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.record.board.walker import Walker
    from domain.record.game import Game


def first_round_of(game: Game) -> int | None:
    """The game round the record starts in (1 with a bid; None: no round named)."""
    if any(n.kind == "bid" for n in game.board_log):
        return 1
    # Each round named once (a game's turns name few rounds): its number read once.
    named = {turn.rpartition(" ")[2] for turn in game.turns}
    named.update(n.turn.rpartition(" ")[2] for n in game.board_log if n.turn)
    rounds = [int(number) for number in named if number.isdigit()]
    return min(rounds) if rounds else None


#: One step: (place, the walker's method, the record it walks).
Step = tuple[int, Callable[[Any], None], object]


def walk_steps(game: Game, walker: Walker) -> list[Step]:
    """Every record that moves the board, in record order (declarations before results), with
    the walker's method that walks it: each step's place is one number, its record number times
    4 plus 0 for a board record or non-combat moves, 1 for a declaration, 2 for a result (a sort
    on ints, no key tuples)."""
    note, declare, resolve = walker.note, walker.declare_step, walker.resolve
    steps: list[Step] = [(n.seq << 2, note, n) for n in game.board_log]
    steps += [((record.declared_seq << 2) + 1, declare, record) for record in game.battles]
    steps += [((record.fought_seq << 2) + 2, resolve, record) for record in game.battles]
    noncombat = walker.noncombat
    steps += [(entry.seq << 2, noncombat, entry) for entry in game.noncombat]
    steps.sort(key=_PLACE)
    return steps


#: A step's place in record order (see walk_steps).
_PLACE = itemgetter(0)
