"""Every benchmark runs to its end on a small game (a benchmark that crashes goes unnoticed
otherwise: its figures are read by people, never asserted by the suite). The figures themselves
are not checked here: targets live in the benchmarks, never in timed tests."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

import pytest

from benchmarks import (
    bench_desk,
    bench_mail,
    bench_odds,
    bench_open,
    bench_roll_log,
    bench_store,
    bench_tui,
)
from benchmarks.child import measured, own_peak_kb

SMALL: dict[str, Callable[[], Iterable[str]]] = {
    "store": bench_store.run,
    "desk": lambda: bench_desk.run((300,)),
    "open": lambda: bench_open.run((300,)),
    "roll_log": lambda: bench_roll_log.run((200, 400)),
    "tui": lambda: bench_tui.run(300, rounds=2),
    "odds": lambda: bench_odds.run(mc_runs=200),
    "mail": lambda: bench_mail.run(120),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_benchmark_runs_to_its_end(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Small and few: every step runs once, on a small game (the figures are not looked at).
    monkeypatch.setattr(bench_store, "N_EVENTS", 300)
    monkeypatch.setattr(bench_store, "INTERVALS", (100,))
    monkeypatch.setattr(bench_store, "SNAPSHOT_INTERVAL", 100)
    monkeypatch.setattr(bench_store, "ROUNDS", 1)
    monkeypatch.setattr(bench_store, "POINTS", 5)
    monkeypatch.setattr(bench_store, "TABLE_POINTS", 3)
    lines = list(SMALL[name]())
    assert lines, f"bench_{name} printed nothing"
    assert all(isinstance(line, str) for line in lines)


def test_a_child_reports_its_own_peak_memory_not_the_benchmarks() -> None:
    # Linux carries the peak resident set across exec: a child spawned from a big process
    # reported that process's peak as its own (every desk command "498 MB" in one run).
    ballast = bytearray(160 * 1024 * 1024)
    ballast[::4096] = b"\x01" * len(range(0, len(ballast), 4096))  # touched: resident
    assert own_peak_kb() > 160 * 1024
    done = measured([sys.executable, "-c", "from benchmarks.child import own_peak_kb; print(own_peak_kb())"])
    assert done.peak_mb < 100, done
    assert int(done.stdout) < 100 * 1024, done
    assert done.wall > 0 and done.cpu > 0
    del ballast


def test_a_failing_child_is_an_error_with_what_it_said() -> None:
    with pytest.raises(RuntimeError, match="boom"):
        measured([sys.executable, "-c", "import sys; sys.exit('boom')"])
