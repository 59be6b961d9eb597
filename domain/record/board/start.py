"""The live board a walk of the records changes (:class:`BoardState`), and where it starts.

See :func:`domain.record.board.walk.walk_board`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.rules.board import NEUTRAL, Board
from domain.rules.forces import EMPTY, Force

#: Power -> territory -> units: the board's contents per territory.
Units = dict[str, dict[str, Force]]


@dataclass
class BoardState:
    """The live board while walking: units, control, and which territories the record lets us know."""

    units: Units
    control: dict[str, str]
    known: set[str]
    #: IPCs each power has to spend (start, bid).
    treasury: dict[str, int] = field(default_factory=dict)
    #: Units bought and not yet placed, per power.
    pending: dict[str, Force] = field(default_factory=dict)

    def holders(self, territory: str) -> dict[str, Force]:
        """Every power's units in a territory (a copy)."""
        return dict(self.units.get(territory, {}))

    def of(self, territory: str, power: str) -> Force:
        """One power's units in a territory."""
        return self.units.get(territory, {}).get(power, EMPTY)


def start(board: Board, *, full: bool) -> BoardState:
    """The board a walk starts from: the Classic setup (``full``: the record starts in game round
    1), else nothing known but who holds each territory at the start."""
    control = {t.name: t.owner for t in board.land if t.owner != NEUTRAL}
    if not full:
        return BoardState({}, control, set(), dict(board.starting_ipcs))
    units: Units = {}
    for power, held in board.setup.items():
        for territory, force in held.items():
            units.setdefault(territory, {})[power] = force
    return BoardState(units, control, {t.name for t in board}, dict(board.starting_ipcs))
