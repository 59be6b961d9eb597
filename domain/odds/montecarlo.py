"""Monte Carlo battle odds over the mechanical engine, to cross-check the exact solver.

``simulate(setup, runs, seed)`` fights the battle ``runs`` times with seeded random dice through
:func:`domain.battle.engine.fight` (so it applies exactly the engine's rules) and tallies the endings
with 99.9% Wilson score intervals. It is slow and approximate; :mod:`domain.odds.exact` is the tool.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from domain.battle.dice import RandomDice
from domain.battle.engine import fight, provider_from
from domain.battle.model import BattleSetup, Outcome, Winner
from domain.odds.model import Result
from domain.rules.forces import Force
from domain.rules.units import UnitType

#: The two-sided 99.9% normal quantile (Phi^-1(0.9995)).
Z_999 = 3.2905267314919255


@dataclass(frozen=True, slots=True)
class Proportion:
    """An estimated probability with its Wilson score interval."""

    successes: int
    runs: int
    low: float
    high: float

    @property
    def estimate(self) -> float:
        """The observed proportion."""
        return self.successes / self.runs if self.runs else 0.0

    def contains(self, p: float, slack: float = 1e-12) -> bool:
        """Whether ``p`` lies within the interval (``slack`` absorbs floating-point rounding)."""
        return self.low - slack <= p <= self.high + slack


@dataclass(frozen=True, slots=True)
class Mean:
    """A sample mean and its standard error."""

    mean: float
    stderr: float

    def within(self, value: float, z: float = Z_999) -> bool:
        """Whether ``value`` lies within ``z`` standard errors of the mean (a zero-variance
        sample must match to rounding)."""
        return abs(self.mean - value) <= z * self.stderr + 1e-9


@dataclass(frozen=True, slots=True)
class Estimate:
    """Monte Carlo odds of a battle: proportions of each ending and mean survivors."""

    runs: int
    seed: int
    attacker_win: Proportion
    defender_win: Proportion
    draw: Proportion
    retreat: Proportion
    #: Battles the engine stopped at its round limit.
    unfinished: Proportion
    attacker_survivors: dict[UnitType, Mean]
    defender_survivors: dict[UnitType, Mean]
    rounds: Mean

    def proportion(self, result: Result) -> Proportion:
        """The proportion of one kind of ending."""
        return {
            Result.ATTACKER_WIN: self.attacker_win,
            Result.DEFENDER_WIN: self.defender_win,
            Result.DRAW: self.draw,
            Result.RETREAT: self.retreat,
        }[result]


def wilson(successes: int, runs: int, z: float = Z_999) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if runs <= 0:
        return 0.0, 1.0
    p = successes / runs
    denominator = 1.0 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def classify(outcome: Outcome) -> Result | None:
    """The kind of ending of an engine outcome (None: stopped unfinished)."""
    if outcome.winner is None:
        return None
    if outcome.retreated:
        return Result.RETREAT
    return {Winner.ATTACKER: Result.ATTACKER_WIN, Winner.DEFENDER: Result.DEFENDER_WIN,
            Winner.NONE: Result.DRAW}[outcome.winner]


def survivors(outcome: Outcome) -> tuple[Force, Force]:
    """Surviving units per side, retreated attackers and withdrawn defenders included."""
    return (outcome.attacker_left + outcome.attacker_retreated,
            outcome.defender_left + outcome.defender_withdrew)


def simulate(setup: BattleSetup, runs: int, seed: int, *, start_round: int = 1,
             attacker: Force | None = None, defender: Force | None = None,
             max_rounds: int = 200) -> Estimate:
    """Fight ``setup`` ``runs`` times with dice from ``random.Random(seed)`` and tally it."""
    if runs <= 0:
        raise ValueError(f"runs must be positive, not {runs!r}")
    provide = provider_from(RandomDice(random.Random(seed)))
    counts: dict[Result | None, int] = dict.fromkeys([*Result, None], 0)
    a_types = (setup.attacker if attacker is None else attacker).combatants().types
    d_types = (setup.defender if defender is None else defender).combatants().types
    a_sums = _Moments(a_types)
    d_sums = _Moments(d_types)
    rounds = _Moments(())
    for _ in range(runs):
        resolution = fight(setup, provide, start_round=start_round, attacker=attacker,
                           defender=defender, max_rounds=max_rounds)
        counts[classify(resolution.outcome)] += 1
        a_left, d_left = survivors(resolution.outcome)
        a_sums.add(a_left)
        d_sums.add(d_left)
        rounds.add_value(len(resolution.rounds))

    def proportion(key: Result | None) -> Proportion:
        low, high = wilson(counts[key], runs)
        return Proportion(counts[key], runs, low, high)

    return Estimate(
        runs=runs,
        seed=seed,
        attacker_win=proportion(Result.ATTACKER_WIN),
        defender_win=proportion(Result.DEFENDER_WIN),
        draw=proportion(Result.DRAW),
        retreat=proportion(Result.RETREAT),
        unfinished=proportion(None),
        attacker_survivors=a_sums.means(runs),
        defender_survivors=d_sums.means(runs),
        rounds=rounds.value_mean(runs),
    )


class _Moments:
    """Running sums and sums of squares per unit type (and of one plain value)."""

    def __init__(self, types: tuple[UnitType, ...]) -> None:
        self.types = types
        self.sums = dict.fromkeys(types, 0.0)
        self.squares = dict.fromkeys(types, 0.0)
        self.value = 0.0
        self.value_squares = 0.0

    def add(self, force: Force) -> None:
        for unit in self.types:
            count = force[unit]
            self.sums[unit] += count
            self.squares[unit] += count * count

    def add_value(self, value: float) -> None:
        self.value += value
        self.value_squares += value * value

    def means(self, runs: int) -> dict[UnitType, Mean]:
        return {unit: _mean(self.sums[unit], self.squares[unit], runs) for unit in self.types}

    def value_mean(self, runs: int) -> Mean:
        return _mean(self.value, self.value_squares, runs)


def _mean(total: float, squares: float, runs: int) -> Mean:
    mean = total / runs
    variance = max(0.0, squares / runs - mean * mean) * runs / max(1, runs - 1)
    return Mean(mean, math.sqrt(variance / runs))
