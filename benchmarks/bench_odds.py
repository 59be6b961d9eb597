"""Benchmark: exact odds of large land battles, and against a Monte Carlo of the engine.

Targets (the issue "Exact odds and what an error cost"): a 30 v 30 land battle in 20 ms or less,
and at least 50 times faster than a 10,000-run Monte Carlo of the same battle. Every figure is
measured in the same run.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from domain.battle.model import BattleSetup
from domain.odds.exact import odds
from domain.odds.montecarlo import simulate
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind

THIRTY = BattleSetup(BattleKind.LAND, Force.parse("20 INF, 10 ARM"), Force.parse("25 INF, 5 ARM"))
HUNDRED = BattleSetup(BattleKind.LAND, Force.parse("60 INF, 30 ARM, 10 FTR"),
                      Force.parse("70 INF, 20 ARM, 10 FTR"))
TARGET_MS = 20.0
TARGET_RATIO = 50.0


def _median_ms(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times)


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def run(mc_runs: int = 10_000) -> list[str]:
    """Measure and describe: one line per figure."""
    odds(THIRTY)  # warm caches and imports, not measured
    thirty_ms = _median_ms(lambda: odds(THIRTY), 9)
    hundred_ms = _median_ms(lambda: odds(HUNDRED), 5)
    exact = odds(THIRTY)
    start = time.perf_counter()
    estimate = simulate(THIRTY, mc_runs, seed=1)
    mc_ms = (time.perf_counter() - start) * 1000.0
    ratio = mc_ms / thirty_ms
    share = estimate.attacker_win
    return [
        f"odds: exact 30 v 30 land ({THIRTY.attacker} v {THIRTY.defender}): {thirty_ms:.1f} ms "
        f"(median of 9; target <= {TARGET_MS:.0f} ms) {_verdict(thirty_ms <= TARGET_MS)}",
        f"odds: exact 100 v 100 land ({HUNDRED.attacker} v {HUNDRED.defender}): {hundred_ms:.1f} ms "
        f"(median of 5)",
        f"odds: Monte Carlo of the 30 v 30 battle, {mc_runs:,} runs over the engine: {mc_ms:.0f} ms; "
        f"exact is {ratio:.0f}x faster (target >= {TARGET_RATIO:.0f}x) {_verdict(ratio >= TARGET_RATIO)}",
        f"odds: 30 v 30 attacker wins: exact {exact.attacker_win:.6f}, Monte Carlo {share.estimate:.4f} "
        f"(99.9% interval {share.low:.4f}-{share.high:.4f}) {_verdict(share.contains(exact.attacker_win))}",
    ]


if __name__ == "__main__":
    print("\n".join(run()))
