"""Benchmark: a new report, ruling or dice event reviewed incrementally vs. a full review.

A generated game is reviewed once with a :class:`domain.review.memo.ReviewMemo` (both
histories); then each kind of desk event is appended in turn and the game reviewed again,
incrementally (the memo carried over) and in full (no memo), in the same run. The ratio is the
issue's goal 3 (≥ 20×). Both reviews are checked equal here too.

    python -m benchmarks.bench_incremental          # the 10,000-event game
    python -m benchmarks.bench_incremental 50000
"""

from __future__ import annotations

import gc
import sys
import time
from datetime import timedelta
from typing import Any

import msgspec

from application.intake.replayfile import parse_replay
from benchmarks.gen_game import generate_replay
from domain.record.events import DiceDrawn, DiceSupplied, GameEvent, ReportFiled, RulingIssued
from domain.record.game import Game, project_game
from domain.review.game_review import review
from domain.review.memo import ReviewMemo

TARGET_RATIO = 20.0


def _both(game: Game, memo: ReviewMemo | None) -> tuple[float, bytes]:
    start = time.perf_counter()
    views = (review(game, memo=memo), review(game, as_rolled=True, memo=memo))
    return time.perf_counter() - start, msgspec.msgpack.encode(views)


def _desk_events(game: Game) -> list[tuple[str, Any]]:
    """One event of each kind, about the game's last battle."""
    last = game.battles[-1]
    where = {"battle": last.written or last.territory, "territory": last.territory}
    findings = review(game).findings
    sequence = 1 + max((s for b in game.battles for s, _, _ in b.drawn), default=-1)
    return [
        ("a report on the last battle", lambda **base: ReportFiled(**base, by="UK", text="wrong dice",
                                                                   battle=last.territory)),
        ("a ruling", lambda **base: RulingIssued(
            **base, finding=findings[-1].id if findings else "F1", decision="apply", text="apply")),
        ("dice supplied", lambda **base: DiceSupplied(**base, **where, dice=(3, 5))),
        ("dice drawn", lambda **base: DiceDrawn(**base, **where, sequence=sequence, purpose="correction",
                                                dice=(2, 6))),
    ]


def measure(n_events: int) -> list[str]:
    """Full and incremental review times after each kind of desk event."""
    game: Game | None = parse_replay(generate_replay(n_events, 1), "generated.toml").game
    assert game is not None
    memo = ReviewMemo()
    enabled = gc.isenabled()
    gc.disable()  # the review makes objects that stay: keep the collector's pauses out of both figures
    try:
        _both(game, memo)
        lines = [f"{n_events:,}-event generated game, both histories, in one process:"]
        for name, make in _desk_events(game):
            when = game.moments[-1] + timedelta(minutes=5)
            event: GameEvent = make(originator_id=game.id, originator_version=game.version + 1,
                                    timestamp=when, at=when)
            game = project_game(game, [event])
            assert game is not None
            incremental, made = _both(game, memo)
            memo.prune()
            full, fresh = _both(game, None)
            if made != fresh:
                raise AssertionError(f"after {name}, the incremental review differs from the full one")
            ratio = full / incremental
            verdict = "ok" if ratio >= TARGET_RATIO else "short"
            lines.append(f"  {name}: full review {full:.2f} s, incremental {incremental * 1000:.0f} ms: "
                         f"{ratio:.1f}x (target {TARGET_RATIO:.0f}x: {verdict})")
    finally:
        if enabled:
            gc.enable()
    return lines


def run(sizes: tuple[int, ...] = (10_000,)) -> list[str]:
    """One block per game size."""
    lines: list[str] = []
    for n in sizes:
        lines.extend(measure(n))
    return lines


if __name__ == "__main__":
    print("\n".join(run((int(sys.argv[1]),)) if len(sys.argv) > 1 else run()))
