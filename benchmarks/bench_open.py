"""Benchmark: what a user waits for on a stored game, each figure from process start.

Nothing is prepared in advance: the game is generated, imported into a fresh SQLite store by
``minister import`` (a child process), and then each command is a new child process that starts
Python, imports minister, opens the store and does its work. The times are wall clock from just
before the child is spawned until it exits (or, for the timeline, until the child reports that
the timeline's first rows are painted). The operating system's file cache is warm (the store
was just written), which no benchmark on a shared machine can undo; minister's own caches
(its latest-state cache) start empty in every child. The timeline's CPU figure counts the child
process that checks the stored record while Textual loads (services.check_stored_aside): on
two cores its wall time is less than its CPU time. The stored review is part of the store:
``minister import`` makes it (application/usecases/review_model.py), and the commands read it. With
``MINISTER_TEST_POSTGRES`` set, every figure is measured on PostgreSQL too (a fresh schema).

Goals (issue "Speed where users wait"): on a stored 50,000-event game, ``minister replay GAME
--json`` ≤ 1 s and the timeline's first paint ≤ 0.5 s from process start; peak RSS of the
timeline ≤ 400 MB.

    python -m benchmarks.bench_open              # 10,000 and 50,000 events
    python -m benchmarks.bench_open 5000         # one smaller game
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks.child import ROOT, measured
from benchmarks.gen_game import generate_replay

TARGET_REPLAY_S = 1.0
TARGET_PAINT_S = 0.5
TARGET_RSS_MB = 400.0
POSTGRES_VARIABLE = "MINISTER_TEST_POSTGRES"
MINISTER = [sys.executable, "-m", "tui.cli"]
#: Started in a child: open the timeline headless on a stored game as `minister show GAME` does
#: (tui.commands.show.prepared: the stored record checked whole before it opens) and print, as soon as
#: the timeline shows its first rows, the seconds since the parent spawned this process.
_PAINT_DRIVER = """
import os, sys, time
spawned = float(sys.argv[1])
from tui.cli import build_parser
from tui.commands.show import prepared

# What `minister show GAME` does before its app runs: the stored record checked whole (in a
# child process, services.check_stored_aside), Textual loaded meanwhile.
app = prepared(build_parser().parse_args(["show", sys.argv[2], "--store", sys.argv[3]]))

import asyncio
from textual.app import App
from tui.widgets.timeline_view import TimelineView

def cpu():
    # This process's CPU and its children's (the check's child, waited for by prepared).
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system

painted = []
display = App._display

def _display(app, screen, renderable):
    # The frame that first holds timeline rows, stamped as it goes to the terminal (a poll
    # from the test's side would see it only when the app next lets it run).
    display(app, screen, renderable)
    if not painted and app.query(TimelineView) and app.query_one(TimelineView).rendered_rows:
        painted.append((time.time() - spawned, cpu()))

App._display = _display

async def main():
    async with app.run_test(size=(120, 40)):
        while not painted:
            await asyncio.sleep(0.002)
        # From before the spawn (Python's start included); the CPU so far beside it (the
        # check's child and the loader thread included: it reads the rest of the review meanwhile).
        print(f"{painted[0][0]:.4f} {painted[0][1]:.4f}", flush=True)
        while not app.ready:  # the loader starts after the first paint: waiting at once finds none
            await asyncio.sleep(0.01)
        await app.workers.wait_for_complete()  # both reviews in hand: the timeline's working set
        from benchmarks.child import own_peak_kb  # after the paint: not in its figure
        print(own_peak_kb() / 1024.0, flush=True)

asyncio.run(main())
"""

#: The same stamp on an empty Textual app (a header, a label, a footer): Python's and Textual's own
#: start on this machine, measured in the same run as the timeline's.
_EMPTY_DRIVER = """
import asyncio, sys, time
spawned = float(sys.argv[1])
from textual.app import App
from textual.widgets import Footer, Header, Static

painted = []
display = App._display

def _display(app, screen, renderable):
    display(app, screen, renderable)
    if not painted:
        painted.append((time.time() - spawned, time.process_time()))

App._display = _display

class Empty(App):
    def compose(self):
        yield Header()
        yield Static("minister")
        yield Footer()

async def main():
    async with Empty().run_test(size=(120, 40)):
        while not painted:
            await asyncio.sleep(0.002)
        print(f"{painted[0][0]:.4f} {painted[0][1]:.4f}", flush=True)

asyncio.run(main())
"""
#: Runs of each first paint (the timeline's, the empty app's, in turn): the medians are printed.
PAINT_RUNS = 3


def _verdict(ok: bool) -> str:
    return "ok" if ok else "short"


def _timed(command: list[str]) -> tuple[float, str]:
    """Wall seconds of a child process from spawn to exit, and its standard output."""
    elapsed, _, printed = timed_cpu(command)
    return elapsed, printed


def timed_cpu(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system) of a child process, and its standard output.

    On a shared machine the wall time includes waiting for a core; the CPU time says how much
    of it was minister's own work.
    """
    done = measured(command)
    return done.wall, done.cpu, done.stdout


@contextmanager
def _fresh_store(folder: str, kind: str) -> Iterator[str]:
    """A new empty store: an SQLite file in ``folder``, or a PostgreSQL schema dropped after."""
    if kind == "sqlite":
        yield f"sqlite:{Path(folder) / 'store.sqlite3'}"
        return
    import psycopg
    from psycopg import sql

    url = os.environ[POSTGRES_VARIABLE]
    schema = f"bench_open_{os.getpid()}_{int(time.time())}"
    try:
        yield f"{url}{'&' if '?' in url else '?'}schema={schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def stores() -> tuple[str, ...]:
    """SQLite always; PostgreSQL too when ``MINISTER_TEST_POSTGRES`` names a server."""
    return ("sqlite", "postgres") if os.environ.get(POSTGRES_VARIABLE) else ("sqlite",)


def measure(n_events: int, seed: int = 1, kind: str = "sqlite") -> list[str]:
    """Import a generated game into a fresh store, then open it as a user would."""
    with tempfile.TemporaryDirectory() as folder, _fresh_store(folder, kind) as store:
        replay = Path(folder) / "game.toml"
        replay.write_text(generate_replay(n_events, seed), encoding="utf-8")
        imported, imported_cpu, _ = timed_cpu([*MINISTER, "import", str(replay), "--store", store])
        game_id = _game_id(replay)
        replay_s, replay_cpu, _ = timed_cpu([*MINISTER, "replay", game_id, "--json", "--store", store])
        paints: list[tuple[float, float]] = []
        empties: list[tuple[float, float]] = []
        for _ in range(PAINT_RUNS):
            spawned = time.time()
            _, printed = _timed([sys.executable, "-c", _PAINT_DRIVER, str(spawned), game_id, store])
            paint_line, rss_line = printed.strip().splitlines()[-2:]
            paints.append(_pair(paint_line))
            spawned = time.time()
            _, printed = _timed([sys.executable, "-c", _EMPTY_DRIVER, str(spawned)])
            empties.append(_pair(printed.strip().splitlines()[-1]))
        paint, paint_cpu = (statistics.median(p[k] for p in paints) for k in (0, 1))
        empty, empty_cpu = (statistics.median(p[k] for p in empties) for k in (0, 1))
        rss = float(rss_line)
    rss_note = (f"peak RSS of the timeline process, both histories loaded: {rss:.0f} MB "
                f"(target {TARGET_RSS_MB:.0f} MB: {_verdict(rss <= TARGET_RSS_MB)})")
    return [f"{n_events:,}-event stored game ({'SQLite' if kind == 'sqlite' else 'PostgreSQL'}), "
            "each from process start, caches empty:",
            f"  minister import (events, then the stored review): {imported:.2f} s "
            f"(CPU {imported_cpu:.2f} s)",
            f"  minister replay GAME --json: {replay_s:.2f} s, CPU {replay_cpu:.2f} s (target "
            f"{TARGET_REPLAY_S:.1f} s: {_verdict(replay_s <= TARGET_REPLAY_S)})",
            f"  minister show GAME, first paint of the timeline (median of {PAINT_RUNS}): {paint:.2f} s, "
            f"CPU {paint_cpu:.2f} s (target {TARGET_PAINT_S:.1f} s: {_verdict(paint <= TARGET_PAINT_S)})",
            f"  an empty Textual app's first paint, same run (Python and Textual alone): {empty:.2f} s, "
            f"CPU {empty_cpu:.2f} s; the timeline / the empty app = {paint / empty:.2f} (wall), "
            f"{paint_cpu / empty_cpu:.2f} (CPU)",
            f"  {rss_note}"]


def _pair(line: str) -> tuple[float, float]:
    """A driver's "wall CPU" line."""
    wall, cpu = line.split()[:2]
    return float(wall), float(cpu)


def _game_id(replay: Path) -> str:
    """The id the import gave the game (the replay's [game] id)."""
    import tomllib

    with replay.open("rb") as handle:
        data = tomllib.load(handle)
    return str(data["game"]["id"])


def warm_bytecode() -> str:
    """Compile minister's modules as an installation does (pip writes the bytecode caches of
    what it installs; the dependencies' are written when the venv is made). The children then
    neither compile minister's sources (a first run after a checkout) nor write caches."""
    import compileall

    for package in ("domain", "projections", "application", "tui"):
        compileall.compile_dir(ROOT / package, quiet=1)
    return ("bytecode caches warm, as after installation (compiled before the run; the children "
            "write none); minister's own caches (latest states, stored review) as each line says")


def run(sizes: tuple[int, ...] = (10_000, 50_000)) -> list[str]:
    """One block of figures per game size."""
    lines: list[str] = [warm_bytecode()]
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    for n in sizes:
        for kind in stores():
            lines.extend(measure(n, kind=kind))
    return lines


if __name__ == "__main__":
    print("\n".join(run((int(sys.argv[1]),)) if len(sys.argv) > 1 else run()))
