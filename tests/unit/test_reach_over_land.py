"""A move over land without transports is in reach when its slowest unit's movement reaches the
battle (the declaration audit's check, asked by movement: units alike in movement reach alike)."""

from __future__ import annotations

from domain.review.declaration_errors import _in_reach, _land_move, _over_land
from domain.rules.board import Board
from domain.rules.forces import Force


def _two_steps_apart(board: Board) -> tuple[str, str]:
    """A land territory and another exactly two land moves from it."""
    for start in board.land:
        for target in board.land:
            if not _over_land(board, start.name, target.name, 1) and _over_land(board, start.name,
                                                                                   target.name, 2):
                return start.name, target.name
    raise AssertionError("no two land territories two moves apart")


def test_reach_is_the_slowest_unit_s_movement() -> None:
    board = Board.classic()
    start, target = _two_steps_apart(board)
    assert _land_move(Force.parse("1 INF"))[1] == 1 and _land_move(Force.parse("2 ARM"))[1] == 2
    assert _land_move(Force.parse("3 INF, 1 ARM"))[1] == 1
    assert not _in_reach(board, start, target, _land_move(Force.parse("1 INF"))[1])
    assert _in_reach(board, start, target, _land_move(Force.parse("2 ARM"))[1])
    assert not _in_reach(board, start, target, _land_move(Force.parse("3 INF, 1 ARM"))[1])
