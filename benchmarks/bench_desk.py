"""Benchmark: the Minister's desk commands on a stored game, each from process start.

Nothing is prepared in advance: a generated game is imported into a fresh SQLite store by
``minister import`` (a child process; the figure is its wall time and events per second: the
median of three imports, each into a fresh store, up to 10,000 events), then
each desk command is run as the Minister runs it, a new child process: ``report``, ``rule``,
``dice``, ``letter`` and ``bundle``. Each figure is wall clock from just before the child is
spawned until it exits (Python's start, minister's imports, opening the store, reading the game,
the command's one review of the game, and writing the refreshed stored review or the letter or
bundle), with the child's own peak RSS (benchmarks.child: not the benchmark's own). The
operating system's file cache is warm (the store was just written); minister's caches start
empty in every child.

Goals (issue "One read model"): each desk command ≤ 0.5 s on a 2,000-event game, ≤ 1.5 s on a
10,000-event game, ≤ 6 s on a 50,000-event game; peak RSS ≤ 400 MB; import ≥ 5,000 events/s.

    python -m benchmarks.bench_desk                  # 2,000, 10,000 and 50,000 events
    python -m benchmarks.bench_desk 10000            # one size
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_open import MINISTER, _game_id, warm_bytecode
from benchmarks.child import measured
from benchmarks.gen_game import generate_replay

#: Seconds a desk command may take, by game size (events).
TARGETS = {2_000: 0.5, 10_000: 1.5, 50_000: 6.0}
TARGET_RSS_MB = 400.0
TARGET_IMPORT_RATE = 5_000.0


#: Imports of a game of up to 10,000 events, each into a fresh store: the median is the figure
#: (one start on a shared machine is noise); a 50,000-event game is imported once.
IMPORT_RUNS = 3


def _verdict(ok: bool) -> str:
    return "ok" if ok else "short"


def _target(n_events: int) -> float:
    """The target of the nearest size at or above ``n_events`` (the smallest for small games)."""
    return next((t for size, t in sorted(TARGETS.items()) if n_events <= size), max(TARGETS.values()))


def _run(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds from spawn to exit, the child's own peak RSS in MB, and its standard output."""
    done = measured(command)
    return done.wall, done.peak_mb, done.stdout


def measure(n_events: int, seed: int = 1) -> list[str]:
    """Import a generated game, then run each desk command on it as the Minister would."""
    target = _target(n_events)
    with tempfile.TemporaryDirectory() as folder:
        replay = Path(folder) / "game.toml"
        replay.write_text(generate_replay(n_events, seed), encoding="utf-8")
        # The earlier blocks' stores written out first: their pages are not this import's to wait for.
        os.sync()
        runs = [_run([*MINISTER, "import", str(replay), "--store", store])
                for store in (f"sqlite:{Path(folder) / f'store-{i}.sqlite3'}"
                              for i in range(IMPORT_RUNS if n_events <= 10_000 else 1))]
        imported, import_rss = statistics.median(r[0] for r in runs), max(r[1] for r in runs)
        store = f"sqlite:{Path(folder) / f'store-{len(runs) - 1}.sqlite3'}"  # the desk's, as imported
        game_id = _game_id(replay)
        _, _, printed = _run([*MINISTER, "replay", game_id, "--json", "--store", store])
        report = json.loads(printed)
        last = report["battles"][-1]
        finding = report["findings"][-1]["id"] if report["findings"] else None
        commands: dict[str, list[str]] = {
            "report": ["report", game_id, "--by", "UK", "--battle", last["battle"], "--turn", last["turn"],
                       "--text", "wrong dice"],
            "dice": ["dice", game_id, "--battle", last["battle"], "--turn", last["turn"], "3 5"],
            "letter": ["letter", game_id],
            "bundle": ["bundle", game_id, "-o", str(Path(folder) / "job.bundle")],
        }
        if finding is not None:
            commands["rule"] = ["rule", game_id, "--finding", finding, "--decision", "dismiss",
                                "--by", "Minister of Law", "--text", "benchmark"]
        rate = n_events / imported
        median = f" (median of {len(runs)})" if len(runs) > 1 else ""
        lines = [f"{n_events:,}-event stored game (SQLite), each command from process start:",
                 f"  minister import{median}: {imported:.2f} s, {rate:,.0f} events/s (target >= "
                 f"{TARGET_IMPORT_RATE:,.0f}: {_verdict(rate >= TARGET_IMPORT_RATE)}), peak RSS "
                 f"{import_rss:.0f} MB (target {TARGET_RSS_MB:.0f} MB: "
                 f"{_verdict(import_rss <= TARGET_RSS_MB)})"]
        for name, args in commands.items():
            try:
                elapsed, rss, _ = _run([*MINISTER, *args, "--store", store])
            except RuntimeError as error:
                lines.append(f"  minister {name}: failed: {error}")
                continue
            lines.append(f"  minister {name}: {elapsed:.2f} s (target {target:.1f} s: "
                         f"{_verdict(elapsed <= target)}), peak RSS {rss:.0f} MB (target "
                         f"{TARGET_RSS_MB:.0f} MB: {_verdict(rss <= TARGET_RSS_MB)})")
    return lines


def run(sizes: tuple[int, ...] = (2_000, 10_000, 50_000)) -> list[str]:
    """One block of figures per game size."""
    lines = [warm_bytecode()]
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    for n in sizes:
        lines.extend(measure(n))
    return lines


if __name__ == "__main__":
    print("\n".join(run((int(sys.argv[1]),)) if len(sys.argv) > 1 else run()))
