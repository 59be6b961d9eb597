"""The board moving on from turn to turn: who holds each territory and what is in it.

The fold keeps the board records in order (:class:`BoardNote`: positions, purchases,
placements, map updates, the bid, the game's finish) beside the battles and non-combat moves it
already files. :func:`walk_board` replays them, in record order, into a :class:`BoardWalk`:

- the start is the Classic setup (board data) when the record starts in game round 1, else
  nothing is known but what a ``position`` names; a ``position`` before the first turn states
  the start (it replaces the holdings it names);
- a combat declaration takes the attacking units off their origins; when the battle is over its
  result (given by the review: as rolled or as corrected) puts the survivors where they end:
  the winner of a land battle occupies and takes control (2008 Rules Clarifications, AA Guns:
  a captured AA gun and IC change hands; a liberated territory returns to its original owner),
  a retreat goes where it was declared, aircraft land where the record says (else back where
  they came from, until a non-combat move lands them);
- non-combat moves, placements and the bid move and add units;
- a later ``position`` or ``map_update`` is a checkpoint: where it disagrees with the board, a
  :class:`Discrepancy` (2008 Section V: the moves take precedence), never an overwrite; a map
  update's count is compared with the territories and IPCs the board gives the power.

Everything here is a pure function of a Game's records and the battle results, so the walk of
``game.at(v)`` is the board at version ``v`` (time travel needs nothing more).
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from typing import TYPE_CHECKING

from domain.record.board.history import BoardAt, BoardWalk, CountCheck, Discrepancy, Entry
from domain.record.board.outcomes import (
    BID_DROPPED,
    PENDING,
    VOID_TURN,
    BattleResult,
    bid_drop_key,
    void_turn_key,
)
from domain.record.board.start import BoardState, start
from domain.record.board.steps import first_round_of, walk_steps
from domain.record.board.walker import Walker
from domain.rules.board import Board

if TYPE_CHECKING:
    from domain.record.game import Game

# The read side (the walk's history, the board at a record) lives in domain.record.board.history,
# what the walk is told of each battle in domain.record.board.outcomes; their names are kept here
# for the callers that import them with the walk.
__all__ = ["BID_DROPPED", "PENDING", "VOID_TURN", "BattleResult", "BoardAt", "BoardState", "BoardWalk",
           "CountCheck", "Discrepancy", "Entry", "bid_drop_key", "void_turn_key", "walk_board"]

# -- the walk -------------------------------------------------------------------------------------
def walk_board(game: Game, outcomes: Mapping[str, BattleResult], board: Board | None = None, *,
               rolled: BoardWalk | None = None) -> BoardWalk:
    """The board after each record of ``game``; ``outcomes`` gives each battle's result (by key),
    ``rolled`` the walk as rolled when this one is as corrected."""
    board = board or Board.classic()
    first_round = first_round_of(game)
    state = start(board, full=first_round == 1)
    walker = Walker(game, board, state, outcomes, from_setup=first_round == 1)
    walker.rolled = rolled
    steps = walk_steps(game, walker)
    # The walk makes many small objects and no reference cycles: the cycle collector would only
    # walk a big game's millions of live objects again and again meanwhile (4/5 of its time).
    paused = gc.isenabled()
    gc.disable()
    try:
        dirty, flush, current = walker.dirty, walker.flush, walker.seq
        for place, step, item in steps:
            seq = place >> 2
            if seq != current:
                if dirty:
                    flush()  # the record before is over: log what it changed
                walker.seq = current = seq
            step(item)
        flush()
    finally:
        if paused:
            gc.enable()
    if walker.updated:
        walker.seq += 1  # the board after every record
        walker.end_turn(None, None)  # the last turn's map update is in: that turn is over
    return walker.result()
