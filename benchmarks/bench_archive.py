"""Benchmark: a club archive in PostgreSQL — many stored games, each command from process start.

Generated games (distinct seeds) are recorded into a fresh PostgreSQL schema with their stored
reviews, as ``minister import`` leaves them (filled in this process to save time). When the
archive holds 10, 100 and all the games, three commands are timed as a user runs them, each a
new process: ``minister import`` of one more game (the slope: is import time per game affected
by the archive's size?), ``minister games`` and ``minister replay GAME --json`` on an earlier
game ("opening any game"). The operating system's caches are warm; minister's start empty.

Goal (issue "Speed where users wait", 5): 500 games, ≥ 2M events: ``minister games`` ≤ 1 s,
opening any game ≤ 1 s, import of one more game unaffected by the archive's size. The default
here is scaled down to what a shared 2-core machine fills in minutes (500 games of 400 events:
200,000 events); ``python -m benchmarks.bench_archive 500 4000`` is the full size.

Needs ``MINISTER_TEST_POSTGRES`` (a server URL); the schema is dropped afterwards.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_open import MINISTER, POSTGRES_VARIABLE, _fresh_store, timed_cpu
from benchmarks.gen_game import generate_replay

TARGET_GAMES_S = 1.0
TARGET_OPEN_S = 1.0
MILESTONES = (10, 100, 500)


def _verdict(ok: bool) -> str:
    return "ok" if ok else "short"


def _fill(store: str, seeds: range, n_events: int) -> int:
    """Record generated games and their stored reviews; the number of events recorded."""
    from application.adapters.stores import open_store
    from application.intake.replayfile import parse_replay
    from tui.reviewed import keep

    app = open_store(store)
    recorded = 0
    try:
        for seed in seeds:
            replay = parse_replay(generate_replay(n_events, seed), f"archive-{seed}.toml")
            app.record(replay.events)
            keep(app, replay.game_id)
            recorded += len(replay.events)
    finally:
        app.close()
    return recorded


def _milestone(store: str, folder: Path, games: int, n_events: int, extra_seed: int) -> str:
    """Time one import, ``games`` and one opening, each from process start."""
    replay = folder / f"extra-{extra_seed}.toml"
    replay.write_text(generate_replay(n_events, extra_seed), encoding="utf-8")
    imported, imported_cpu, _ = timed_cpu([*MINISTER, "import", str(replay), "--store", store])
    listed, listed_cpu, printed = timed_cpu([*MINISTER, "games", "--store", store])
    shown = len(printed.strip().splitlines()) - 1
    some = f"generated-{n_events}-{random.Random(games).randrange(1, games + 1)}"
    opened, opened_cpu, _ = timed_cpu([*MINISTER, "replay", some, "--json", "--store", store])
    return (f"  {shown} games: import of one more {imported:.2f} s (CPU {imported_cpu:.2f} s); "
            f"minister games {listed:.2f} s, CPU {listed_cpu:.2f} s (target {TARGET_GAMES_S:.0f} s: "
            f"{_verdict(listed <= TARGET_GAMES_S)}); replay {some} --json {opened:.2f} s, CPU "
            f"{opened_cpu:.2f} s (target {TARGET_OPEN_S:.0f} s: {_verdict(opened <= TARGET_OPEN_S)})")


def run(games: int = 500, n_events: int = 400) -> list[str]:
    """Fill the archive step by step, measuring at each milestone."""
    if not os.environ.get(POSTGRES_VARIABLE):
        return [f"skipped: {POSTGRES_VARIABLE} names no PostgreSQL server"]
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    lines = [f"club archive in PostgreSQL: up to {games} generated games of {n_events:,} events"
             + ("" if games * n_events >= 2_000_000 else
                f" ({games * n_events:,} events: scaled down from the goal's 2M, see the module doc)")]
    with tempfile.TemporaryDirectory() as folder, _fresh_store(folder, "postgres") as store:
        stored, events = 0, 0
        start = time.perf_counter()
        for step, milestone in enumerate(sorted({m for m in MILESTONES if m < games} | {games})):
            events += _fill(store, range(stored + 1, milestone + 1), n_events)
            stored = milestone
            # The imported extra games (seeds from 1,000,000) stay: the archive grows by them too.
            lines.append(_milestone(store, Path(folder), stored, n_events, 1_000_000 + step))
            lines[-1] += f" [{events + (step + 1) * n_events:,} events stored]"
        lines.append(f"  (filled in {time.perf_counter() - start:.0f} s)")
    return lines


if __name__ == "__main__":
    arguments = [int(a) for a in sys.argv[1:3]]
    print("\n".join(run(*arguments)))
