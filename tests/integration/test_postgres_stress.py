"""The club server under load (issue 14 item 1): large imports in a row, commands started at once.

These run against the real PostgreSQL server of ``MINISTER_TEST_POSTGRES`` when ``MINISTER_STRESS=1``
(``.ci/run`` sets both). Every command is a real ``minister`` process with a time limit, so a
freeze fails the test instead of hanging the run. Sizes: ``MINISTER_STRESS_EVENTS`` events per
import (50,000 unless set), ``MINISTER_STRESS_RUNS`` imports in a row (10 unless set).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from benchmarks.gen_game import generate_replay
from tests.conftest import REPLAYS, ROOT
from tests.integration.store_helpers import postgres_url

pytestmark = [pytest.mark.postgres, pytest.mark.stress]

#: A hung import is stopped after this many seconds (a 50,000-event import takes ~25 s on a busy
#: two-core machine).
COMMAND_LIMIT = 600


def _stress() -> None:
    if os.environ.get("MINISTER_STRESS") != "1":
        pytest.skip("MINISTER_STRESS is not 1: the PostgreSQL stress runs are skipped")


def minister(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """A real ``minister`` process, started (not waited for)."""
    return subprocess.Popen([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Wait for a command (failing the test if it hangs); its exit code, stdout and stderr."""
    try:
        out, err = process.communicate(timeout=COMMAND_LIMIT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"minister {process.args} hung for {COMMAND_LIMIT} s")
    return process.returncode, out, err


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new, uniquely named database on the test server (dropped afterwards): its URL."""
    import psycopg
    from psycopg import sql

    url = postgres_url()
    name = f"minister_stress_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    parts = urlsplit(url)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


def test_large_imports_in_a_row_never_freeze(tmp_path: Path) -> None:
    _stress()
    events = int(os.environ.get("MINISTER_STRESS_EVENTS", "50000"))
    runs = int(os.environ.get("MINISTER_STRESS_RUNS", "10"))
    path = tmp_path / "big.toml"
    path.write_text(generate_replay(events, 14), encoding="utf-8")
    with fresh_database() as url:
        took = []
        for run in range(runs):
            started = time.monotonic()
            code, out, err = finish(minister("import", str(path), "--store",
                                             f"{url}?schema=run{run}"))
            took.append(time.monotonic() - started)
            assert code == 0, err
            assert f": {events} events, head " in out
        code, out, err = finish(minister("games", "--store", f"{url}?schema=run{runs - 1}"))
        assert code == 0 and f"  {events}  " in out, err
    print(f"\n{runs} imports of {events} events: " + ", ".join(f"{t:.1f}" for t in took)
          + f" s (total {sum(took):.0f} s)")


def test_eight_commands_at_once_on_a_fresh_database() -> None:
    _stress()
    files = sorted(REPLAYS.rglob("*.toml"))[:6]
    with fresh_database() as url:
        processes = [minister("import", str(path), "--store", url) for path in files]
        processes += [minister("games", "--store", url) for _ in range(2)]
        results = [finish(process) for process in processes]
        for (code, _, err), process in zip(results, processes, strict=True):
            assert code == 0, f"{process.args}: {err}"
        code, out, _ = finish(minister("games", "--store", url))
    assert code == 0
    assert len([line for line in out.splitlines()[1:] if line.strip()]) == len(files)


def test_a_held_lock_times_out_with_a_clear_message() -> None:
    """Another session holds the events table: an import gives up after the lock timeout,
    saying so, and listing the games is not blocked at all."""
    import psycopg

    _stress()
    example = REPLAYS / "part13" / "overkill-6arm-v-2inf.toml"
    with fresh_database() as url:
        assert finish(minister("import", str(sorted(REPLAYS.rglob("*.toml"))[0]), "--store", url))[0] == 0
        with psycopg.connect(url, connect_timeout=10) as holder:
            holder.execute("LOCK TABLE minister_events IN EXCLUSIVE MODE")
            started = time.monotonic()
            code, _, err = finish(minister("import", str(example), "--store", url,
                                           env={"MINISTER_LOCK_TIMEOUT": "2"}))
            waited = time.monotonic() - started
            listed = finish(minister("games", "--store", url, env={"MINISTER_LOCK_TIMEOUT": "2"}))
            holder.rollback()
        assert code == 2 and "the store is busy" in err and "Traceback" not in err, err
        assert waited < 60
        assert listed[0] == 0, listed[2]
