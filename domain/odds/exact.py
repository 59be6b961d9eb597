"""Exact battle odds for Axis & Allies Classic battles fought mechanically (Part 13 (1999)).

``odds(setup)`` gives the full distribution of a battle's endings: who wins, draws (both sides
destroyed) and retreats, the survivors of each side by unit type, and the number of rounds,
for the rules the mechanical engine (:mod:`domain.battle.engine`) applies: AA fire and support shots
before round 1, attacking submarines' first strike, submarine hits that never fall on aircraft,
casualties per the order of loss in force, retreat conditions, amphibious ground units that never
retreat, defending submarines that withdraw. ``odds_from_round`` starts from a battle in progress
(to price an error: the odds as rolled against the odds as corrected).

The probabilities are exact (to floating point): a battle's losses never come back, so every
state is visited once after the round-dependent rounds and a round where nobody is hit is solved
analytically. ``unresolved`` is the mass no ending claims: stalemates where neither side can
ever score. ``tolerance`` and ``max_rounds`` only bound the round-by-round iteration that gives
the distribution of the number of rounds (``rounds=True``); the expected number of rounds is
exact either way.

The luck helpers (``hit_distribution``, ``luck_percentile``, ``expected_hits``) rate one volley.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from domain.battle.model import BattleSetup, Side
from domain.odds.distributions import FloatArray, binomial, expected_hits, hit_distribution, luck_percentile
from domain.odds.general import GeneralSolver
from domain.odds.grid import Grid, GridResult
from domain.odds.model import Ending, Result, Tally
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import UnitType

__all__ = [
    "STANDARD_PERCENTILES",
    "Ending",
    "Measure",
    "Odds",
    "Result",
    "expected_hits",
    "hit_distribution",
    "luck_percentile",
    "odds",
    "odds_from_round",
]

Measure = Literal["units", "ipc"]
Solver = Literal["auto", "grid", "general"]

#: The percentiles reported by default (5th, quartiles, median, 95th).
STANDARD_PERCENTILES: tuple[int, ...] = (5, 25, 50, 75, 95)


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact distribution of a battle's endings."""

    kind: BattleKind
    attacker: Force
    defender: Force
    start_round: int
    attacker_win: float
    defender_win: float
    #: Both sides destroyed.
    draw: float
    #: The attacker retreated (the defender holds).
    retreat: float
    #: Mass no ending claims (stalemates); the probabilities above sum to 1 - unresolved.
    unresolved: float
    expected_rounds: float
    #: Every ending with its survivors, most likely first.
    endings: tuple[Ending, ...]
    #: P(the battle ends in the k-th round fought, k = 0, 1, ...), when asked for.
    rounds: tuple[float, ...] | None = None
    #: P(still fighting after the last round listed in ``rounds``).
    rounds_beyond: float = 0.0

    @property
    def total(self) -> float:
        """The resolved mass: 1 - unresolved up to rounding."""
        return self.attacker_win + self.defender_win + self.draw + self.retreat

    def distribution(self) -> list[tuple[Force, Force, float]]:
        """(attacker survivors, defender survivors, probability), most likely first."""
        return [(e.attacker, e.defender, e.probability) for e in self.endings]

    def expected_survivors(self, side: Side) -> dict[UnitType, float]:
        """The mean number of surviving units of each type (retreated and withdrawn count)."""
        out: dict[UnitType, float] = {}
        for ending in self.endings:
            force = ending.attacker if side is Side.ATTACKER else ending.defender
            for unit, count in force:
                out[unit] = out.get(unit, 0.0) + count * ending.probability
        start = self.attacker if side is Side.ATTACKER else self.defender.combatants()
        return {unit: out.get(unit, 0.0) for unit in start.types}

    def expected_value(self, side: Side, measure: Measure = "ipc") -> float:
        """The mean surviving IPC value (or unit count) of a side."""
        return sum(e.probability * _measure(e.attacker if side is Side.ATTACKER else e.defender, measure)
                   for e in self.endings)

    def percentile(self, side: Side, q: float, measure: Measure = "ipc") -> float:
        """The q-th percentile (0-100) of a side's surviving IPC value or unit count.

        The smallest value v with P(X <= v) >= q/100, over the resolved endings.
        """
        if not 0 <= q <= 100:
            raise ValueError(f"percentile {q} is not within 0-100")
        values: dict[float, float] = {}
        for ending in self.endings:
            v = _measure(ending.attacker if side is Side.ATTACKER else ending.defender, measure)
            values[v] = values.get(v, 0.0) + ending.probability
        total = sum(values.values())
        if not values:
            return 0.0
        running = 0.0
        for v in sorted(values):
            running += values[v]
            if running >= q / 100.0 * total - 1e-12:
                return v
        return max(values)

    def percentiles(self, side: Side, measure: Measure = "ipc",
                    qs: tuple[int, ...] = STANDARD_PERCENTILES) -> dict[int, float]:
        """Several percentiles at once (5th, quartiles, median, 95th by default)."""
        return {q: self.percentile(side, q, measure) for q in qs}

    def to_json(self) -> dict[str, Any]:
        """The ``minister-odds/1`` document: stable key order, floats rounded to 12 digits."""
        doc: dict[str, Any] = {
            "format": "minister-odds/1",
            "kind": self.kind.value,
            "attacker": self.attacker.to_json(),
            "defender": self.defender.to_json(),
            "start_round": self.start_round,
            "attacker_win": _r(self.attacker_win),
            "defender_win": _r(self.defender_win),
            "draw": _r(self.draw),
            "retreat": _r(self.retreat),
            "unresolved": _r(self.unresolved),
            "expected_rounds": _r(self.expected_rounds),
            "expected_survivors": {
                side.value: {u.value: _r(v) for u, v in self.expected_survivors(side).items()}
                for side in Side
            },
            "expected_ipc": {side.value: _r(self.expected_value(side)) for side in Side},
            "percentiles": {
                side.value: {measure: {str(q): _r(v) for q, v in self.percentiles(side, measure).items()}
                             for measure in ("units", "ipc")}
                for side in Side
            },
        }
        if self.rounds is not None:
            doc["rounds"] = [_r(p) for p in self.rounds]
            doc["rounds_beyond"] = _r(self.rounds_beyond)
        return doc


def odds(setup: BattleSetup, *, tolerance: float = 1e-12, max_rounds: int = 1000,
         rounds: bool = False, solver: Solver = "auto") -> Odds:
    """The exact odds of ``setup`` fought from round 1."""
    return odds_from_round(setup, 1, setup.attacker, setup.defender, tolerance=tolerance,
                           max_rounds=max_rounds, rounds=rounds, solver=solver)


def odds_from_round(setup: BattleSetup, round_number: int, attacker: Force, defender: Force, *,
                    tolerance: float = 1e-12, max_rounds: int = 1000, rounds: bool = False,
                    solver: Solver = "auto") -> Odds:
    """The exact odds of the battle ``setup`` resumed at ``round_number`` with these forces left.

    Round 1 includes AA fire and support shots; later rounds do not. The orders of loss and the
    retreat condition are the set-up's. ``solver`` forces the grid or the general solver (both
    exact; "auto" takes the grid where casualties follow the order of loss).
    """
    if round_number < 1:
        raise ValueError(f"round {round_number} is not a battle round (1 or more)")
    tally = Tally(rounds=[] if rounds else None)
    if not _fought(setup, round_number, attacker, defender):
        # No round is fought when a side has no combatants (AA guns still fire at aircraft).
        a, d = attacker.combatants(), defender.combatants()
        result = Result.DRAW if not (a or d) else Result.ATTACKER_WIN if a else Result.DEFENDER_WIN
        tally.end(result, a, d, 1.0)
        return _build(setup, round_number, attacker, defender, tally)
    applies = _grid_applies(setup, attacker, defender)
    if solver == "grid" and not applies:
        raise ValueError("the grid solver needs casualties that follow the order of loss "
                         "(no submarines at sea, no amphibious retreat)")
    use_grid = applies and solver != "general"
    if use_grid:
        _solve_grid(setup, round_number, attacker, defender, tally, rounds=rounds,
                    tolerance=tolerance, max_rounds=max_rounds)
    else:
        GeneralSolver(setup, round_number).solve(attacker, defender, tally, rounds=rounds,
                                                 tolerance=tolerance, max_rounds=max_rounds)
    return _build(setup, round_number, attacker, defender, tally)


def _fought(setup: BattleSetup, start: int, attacker: Force, defender: Force) -> bool:
    """Whether a round is fought at all (the engine's ``fight`` loop condition)."""
    if not attacker.combatants():
        return False
    if defender.combatants():
        return True
    # Part 13 (1999) step 2: an AA gun alone still fires before round 1 at attacking aircraft.
    return (start == 1 and not setup.kind.at_sea and bool(defender[UnitType.AA])
            and any(unit.is_air for unit in attacker.types))


def _grid_applies(setup: BattleSetup, attacker: Force, defender: Force) -> bool:
    """Whether casualties always follow the order of loss, so (losses, losses) is the state."""
    if setup.kind.at_sea and any(u.is_sub for u in (attacker + defender).types):
        return False
    # Amphibious ground units stay when the aircraft retreat: the attacker's state changes shape.
    amphibious = setup.kind is BattleKind.AMPHIBIOUS or bool(setup.amphibious)
    return not (setup.retreat is not None and amphibious)


def _solve_grid(setup: BattleSetup, start: int, attacker: Force, defender: Force, tally: Tally, *,
                rounds: bool, tolerance: float, max_rounds: int) -> None:
    att_order = setup.order_of(Side.ATTACKER)
    def_order = setup.order_of(Side.DEFENDER)
    a = attacker.combatants()
    d = defender.combatants()
    air = sum(n for unit, n in a if unit.is_air)
    # Part 13 (1999) step 2: AA guns (one die per attacking aircraft, hits on 1; casualties leave
    # the game) and battleship support shots (casualties fire back) before round 1.
    aa: FloatArray = np.ones(1)
    if start == 1 and not setup.kind.at_sea and defender[UnitType.AA] and air:
        aa = binomial(air, 1)
    extra: FloatArray | None = None
    if start == 1 and setup.support[UnitType.BB]:
        extra = binomial(setup.support[UnitType.BB], UnitType.BB.profile.attack)
    # Part 13 (1999): the sender's special orders (here a retreat condition) are followed
    # mechanically; it is checked after each round (2008 RETREATS, rules matrix step 6).
    retreat = setup.retreat
    explicit, after, at_most = 1, False, None
    if retreat is not None:
        if retreat.after_round is not None:
            explicit, after = max(1, retreat.after_round - start + 1), True
        at_most = retreat.at_most_units
    chain_d = def_order.ranked(d)
    for k, pk in enumerate(aa):
        if pk <= 0.0:
            continue
        a_k = a - att_order.choose(a, k, air_only_hits=k) if k else a
        chain_a = att_order.ranked(a_k)
        grid = Grid(chain_a, chain_d)
        result = grid.solve(first_extra=extra, explicit_rounds=explicit, retreat_at=at_most,
                            retreat_after_explicit=after, rounds=rounds, tolerance=tolerance,
                            max_rounds=max_rounds)
        _collect(result, chain_a, chain_d, float(pk), tally)


def _collect(result: GridResult, chain_a: list[UnitType], chain_d: list[UnitType], mass: float,
             tally: Tally) -> None:
    A, D = len(chain_a), len(chain_d)
    left_a = _suffixes(chain_a)
    left_d = _suffixes(chain_d)
    for i, j in zip(*np.nonzero(result.ended), strict=True):
        p = mass * float(result.ended[i, j])
        if i == A and j == D:
            tally.end(Result.DRAW, EMPTY, EMPTY, p)
        elif i == A:
            tally.end(Result.DEFENDER_WIN, EMPTY, left_d[j], p)
        else:
            tally.end(Result.ATTACKER_WIN, left_a[i], EMPTY, p)
    for i, j in zip(*np.nonzero(result.retreated), strict=True):
        tally.end(Result.RETREAT, left_a[i], left_d[j], mass * float(result.retreated[i, j]))
    tally.unresolved += mass * result.unresolved
    tally.expected_rounds += mass * result.expected_rounds
    if A == 0 or D == 0:
        tally.expected_rounds += mass  # the round (AA fire) that left one side without units
        tally.ended_in_round(0, mass)
    for index, p in enumerate(result.rounds):
        tally.ended_in_round(index, mass * p)
    tally.rounds_beyond += mass * result.rounds_beyond


def _suffixes(chain: list[UnitType]) -> list[Force]:
    """Force of chain[i:] for i = 0..len(chain)."""
    out = [EMPTY]
    counts: dict[UnitType, int] = {}
    for unit in reversed(chain):
        counts[unit] = counts.get(unit, 0) + 1
        out.append(Force.of(counts))
    out.reverse()
    return out


def _build(setup: BattleSetup, start: int, attacker: Force, defender: Force, tally: Tally) -> Odds:
    totals = dict.fromkeys(Result, 0.0)
    for (result, _, _), p in tally.endings.items():
        totals[result] += p
    endings = sorted((Ending(result, a, d, p) for (result, a, d), p in tally.endings.items()),
                     key=lambda e: (-e.probability, e.result.value, str(e.attacker), str(e.defender)))
    return Odds(
        kind=setup.kind,
        attacker=attacker.combatants(),
        defender=defender,
        start_round=start,
        attacker_win=totals[Result.ATTACKER_WIN],
        defender_win=totals[Result.DEFENDER_WIN],
        draw=totals[Result.DRAW],
        retreat=totals[Result.RETREAT],
        unresolved=tally.unresolved,
        expected_rounds=tally.expected_rounds,
        endings=tuple(endings),
        rounds=None if tally.rounds is None else tuple(tally.rounds),
        rounds_beyond=tally.rounds_beyond,
    )


def _measure(force: Force, measure: Measure) -> float:
    if measure == "units":
        return float(len(force))
    return float(sum(unit.profile.cost * count for unit, count in force))


def _r(value: float) -> float:
    return round(float(value), 12)
