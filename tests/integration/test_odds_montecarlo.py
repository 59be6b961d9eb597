"""The exact solver against a Monte Carlo over the mechanical engine (domain.battle.engine.fight).

Every battle is fought a few thousand times with seeded random dice, so the test is
deterministic; each exact probability must lie in the 99.9% Wilson interval of its simulated
proportion, and each exact mean (survivors per type, rounds) within 3.29 exact standard errors
of the simulated mean.
"""

from __future__ import annotations

import math

import pytest

from domain.battle.model import BattleSetup, RetreatCondition, Side
from domain.odds.exact import Odds, Result, odds, odds_from_round
from domain.odds.montecarlo import Z_999, Estimate, simulate, wilson
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss
from domain.rules.units import UnitType

F = Force.parse
U = UnitType
LAND, SEA, AMPHIBIOUS = BattleKind.LAND, BattleKind.SEA, BattleKind.AMPHIBIOUS


def _after(n: int) -> RetreatCondition:
    return RetreatCondition(after_round=n)


def _at_most(n: int) -> RetreatCondition:
    return RetreatCondition(at_most_units=n)


BATTLES: dict[str, BattleSetup] = {
    "land plain": BattleSetup(LAND, F("3 INF, 2 ARM"), F("4 INF")),
    "land infantry": BattleSetup(LAND, F("5 INF"), F("3 INF")),
    "land AA": BattleSetup(LAND, F("6 INF, 3 ARM, 2 FTR"), F("AA, 5 INF, 1 ARM, 1 FTR")),
    "land heavy bombers and AA": BattleSetup(LAND, F("2 INF, 1 ARM, 2 HBMB"), F("AA, 4 INF")),
    "land jets defending": BattleSetup(LAND, F("4 ARM, 1 BMB"), F("3 INF, 2 JFTR")),
    "land developed both": BattleSetup(LAND, F("2 INF, 2 ARM, 1 HBMB, 2 JFTR"),
                                       F("AA, 3 INF, 1 ARM, 1 JFTR")),
    "land larger": BattleSetup(LAND, F("8 INF, 4 ARM, 2 FTR, 1 BMB"), F("AA, 10 INF, 2 ARM, 1 FTR")),
    "land retreat after 2": BattleSetup(LAND, F("5 INF, 2 ARM"), F("4 INF, 1 ARM"), retreat=_after(2)),
    "land retreat at 3": BattleSetup(LAND, F("5 INF, 3 ARM, 1 FTR"), F("6 INF"), retreat=_at_most(3)),
    "land special OOL": BattleSetup(LAND, F("4 INF, 2 ARM, 1 FTR"), F("3 INF, 1 ARM, 1 BMB"),
                                    attacker_order=OrderOfLoss((U.ARM, U.FTR, U.INF)),
                                    defender_order=OrderOfLoss((U.BMB, U.ARM, U.INF))),
    "amphibious support": BattleSetup(AMPHIBIOUS, F("3 INF, 1 ARM"), F("3 INF"), support=F("2 BB"),
                                      amphibious=F("3 INF, 1 ARM")),
    "amphibious AA, aircraft retreat": BattleSetup(AMPHIBIOUS, F("2 INF, 1 ARM, 2 FTR"),
                                                   F("AA, 3 INF, 1 FTR"),
                                                   support=F("1 BB"), amphibious=F("2 INF, 1 ARM"),
                                                   retreat=_after(1)),
    "amphibious retreat at 2": BattleSetup(AMPHIBIOUS, F("3 INF, 1 ARM, 1 BMB"), F("4 INF"),
                                           amphibious=F("3 INF, 1 ARM"), retreat=_at_most(2)),
    "sea no subs": BattleSetup(SEA, F("2 FTR, 1 BB"), F("1 AC, 2 FTR, 1 TRN")),
    "sea subs both sides": BattleSetup(SEA, F("2 SUB, 1 FTR, 1 BB"), F("1 AC, 2 FTR, 1 TRN, 1 SUB")),
    "sea super subs, withdrawal": BattleSetup(SEA, F("3 SSUB, 2 JFTR"), F("2 SUB, 1 BB, 1 AC, 1 FTR"),
                                              sub_withdrawal_after=1),
    "sea subs only attack": BattleSetup(SEA, F("2 SUB"), F("2 TRN, 1 SUB")),
    "sea air only against subs": BattleSetup(SEA, F("2 FTR, 1 BMB"), F("2 SUB, 1 TRN")),
    "sea retreat after 2": BattleSetup(SEA, F("1 BB, 2 SUB, 1 TRN"), F("1 BB, 1 SUB"), retreat=_after(2)),
    "sea retreat at 2": BattleSetup(SEA, F("3 SUB, 1 AC, 2 FTR"), F("1 BB, 1 AC, 2 FTR"),
                                    retreat=_at_most(2)),
    "sea heavy bomber": BattleSetup(SEA, F("1 SUB, 1 HBMB"), F("1 AC, 2 FTR")),
    "sea withdrawal after 2": BattleSetup(SEA, F("4 SUB, 1 FTR"), F("2 SUB, 1 AC, 1 JFTR"),
                                                sub_withdrawal_after=2),
    "sea carrier last": BattleSetup(SEA, F("1 AC, 2 FTR, 2 TRN"), F("2 SUB, 1 FTR"),
                                    attacker_order=OrderOfLoss((U.TRN, U.FTR, U.AC))),
}

RUNS = 2000


def _survivor_moments(result: Odds, side: Side, unit: UnitType) -> tuple[float, float]:
    """Exact mean and variance of the number of surviving ``unit`` of ``side``."""
    mean = square = 0.0
    for ending in result.endings:
        n = (ending.attacker if side is Side.ATTACKER else ending.defender)[unit]
        mean += n * ending.probability
        square += n * n * ending.probability
    return mean, max(0.0, square - mean * mean)


def _agree(result: Odds, estimate: Estimate) -> list[str]:
    """Every disagreement beyond the 99.9% intervals, described."""
    problems: list[str] = []
    for kind in Result:
        exact = getattr(result, kind.value)
        share = estimate.proportion(kind)
        if not share.contains(exact):
            problems.append(f"{kind.value}: exact {exact:.5f}, simulated {share.estimate:.5f} "
                            f"[{share.low:.5f}, {share.high:.5f}]")
    if estimate.unfinished.successes:
        problems.append(f"{estimate.unfinished.successes} battles unfinished")
    for side, means in ((Side.ATTACKER, estimate.attacker_survivors),
                        (Side.DEFENDER, estimate.defender_survivors)):
        for unit, simulated in means.items():
            mean, variance = _survivor_moments(result, side, unit)
            bound = Z_999 * math.sqrt(variance / estimate.runs) + 1e-9
            if abs(simulated.mean - mean) > bound:
                problems.append(f"{side.value} {unit.value}: exact {mean:.4f}, "
                                f"simulated {simulated.mean:.4f}")
    return problems


def _check(name: str, setup: BattleSetup, seed: int, runs: int = RUNS) -> None:
    result = odds(setup)
    assert result.unresolved == pytest.approx(0.0, abs=1e-12)
    assert result.total == pytest.approx(1.0, abs=1e-12)
    estimate = simulate(setup, runs, seed)
    problems = _agree(result, estimate)
    assert not problems, f"{name}: " + "; ".join(problems)


def test_a_few_battles_agree_quickly() -> None:
    for seed, name in enumerate(["land AA", "sea subs both sides", "amphibious AA, aircraft retreat"]):
        _check(name, BATTLES[name], 1000 + seed, runs=800)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BATTLES))
def test_exact_odds_agree_with_the_engine(name: str) -> None:
    _check(name, BATTLES[name], seed=sorted(BATTLES).index(name) + 1)


@pytest.mark.slow
def test_rounds_agree_with_the_engine() -> None:
    setup = BATTLES["land AA"]
    result = odds(setup, rounds=True)
    estimate = simulate(setup, RUNS, seed=99)
    assert result.rounds is not None
    variance = sum((k + 1) ** 2 * p for k, p in enumerate(result.rounds)) - result.expected_rounds ** 2
    assert abs(estimate.rounds.mean - result.expected_rounds) <= Z_999 * math.sqrt(variance / RUNS)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "attacker", "defender"), [
    ("land AA", "4 INF, 3 ARM, 1 FTR", "AA, 3 INF, 1 ARM, 1 FTR"),
    ("sea subs both sides", "1 SUB, 1 FTR, 1 BB", "1 AC, 2 FTR, 1 SUB"),
])
def test_odds_from_a_later_round_agree_with_the_engine(name: str, attacker: str, defender: str) -> None:
    setup = BATTLES[name]
    result = odds_from_round(setup, 3, F(attacker), F(defender))
    estimate = simulate(setup, RUNS, seed=7, start_round=3, attacker=F(attacker), defender=F(defender))
    problems = _agree(result, estimate)
    assert not problems, "; ".join(problems)


def test_wilson_interval_brackets_the_proportion() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high
    assert wilson(0, 100)[0] == 0.0
    assert 0.0 < wilson(0, 100)[1] < 0.1
    # A wrong probability is rejected: the interval is not vacuous.
    assert not (low <= 0.7 <= high)
