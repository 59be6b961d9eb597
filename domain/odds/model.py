"""Values shared by the exact odds solvers: how a battle ends, and the tally the solvers fill."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from domain.rules.forces import Force


class Result(enum.Enum):
    """How a battle ends, from the attacker's point of view."""

    ATTACKER_WIN = "attacker_win"
    DEFENDER_WIN = "defender_win"
    #: Both sides destroyed (``Winner.NONE``).
    DRAW = "draw"
    #: The attacker retreated under its retreat condition (the defender holds).
    RETREAT = "retreat"


@dataclass(frozen=True, slots=True)
class Ending:
    """One way the battle can end and its probability.

    ``attacker`` holds every attacking unit that survives, in the battle or retreated;
    ``defender`` every defending combatant that survives, including submarines that withdrew.
    """

    result: Result
    attacker: Force
    defender: Force
    probability: float


@dataclass(slots=True)
class Tally:
    """What a solver accumulates: endings, unresolved mass, round statistics."""

    endings: dict[tuple[Result, Force, Force], float] = field(default_factory=dict)
    #: Mass never resolved: stalemates (neither side can ever score) and battles cut at max_rounds.
    unresolved: float = 0.0
    #: Sum over rounds of the probability that the round is fought (the expected number of rounds).
    expected_rounds: float = 0.0
    #: P(the battle ends in round r), r = start round, start round + 1, ... (when asked for).
    rounds: list[float] | None = None
    #: Mass still fighting after the last round listed in ``rounds``.
    rounds_beyond: float = 0.0

    def end(self, result: Result, attacker: Force, defender: Force, mass: float) -> None:
        """Record ``mass`` ending as ``result`` with these survivors."""
        if mass <= 0.0:
            return
        key = (result, attacker, defender)
        self.endings[key] = self.endings.get(key, 0.0) + mass

    def ended_in_round(self, index: int, mass: float) -> None:
        """Add ``mass`` to the probability that the battle ends in the ``index``-th round fought."""
        if self.rounds is None:
            return
        while len(self.rounds) <= index:
            self.rounds.append(0.0)
        self.rounds[index] += mass
