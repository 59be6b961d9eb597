"""Helpers for the store tests: PostgreSQL test schemas, SQLite rows, generated games, writers.

PostgreSQL tests run against ``MINISTER_TEST_POSTGRES`` (e.g.
``postgresql://postgres@127.0.0.1:5432/test``); each test gets its own schema, dropped after,
so runs never collide. Without the variable they are skipped, saying so.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from application.adapters.eventstore import (
    delete_raw_rows,
    paced_sqlite_inserts,
    raw_rows,
    set_raw_state,
)
from application.adapters.integrity import GENESIS, link_bytes, stored_link
from application.intake.replayfile import Replay, parse_replay
from benchmarks.gen_game import generate_replay
from domain.record.events import game_uuid

POSTGRES_VARIABLE = "MINISTER_TEST_POSTGRES"
NO_POSTGRES = f"{POSTGRES_VARIABLE} is not set: no PostgreSQL server configured for the store tests"


def postgres_url() -> str:
    """The test server's URL, or skip the test naming the variable."""
    url = os.environ.get(POSTGRES_VARIABLE)
    if not url:
        pytest.skip(NO_POSTGRES)
    return url


def _connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=10)


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A store spec for a fresh schema of the test server; the schema is dropped afterwards."""
    from psycopg import sql

    url = postgres_url()
    schema = f"minister_test_{uuid.uuid4().hex[:12]}"
    try:
        yield f"{url}{'&' if '?' in url else '?'}schema={schema}"
    finally:
        with _connect(url) as connection:
            connection.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@cache
def generated_text(n_events: int, seed: int) -> str:
    """A generated replay (cached: tests share them)."""
    return generate_replay(n_events, seed)


def generated(n_events: int, seed: int, source: str = "generated.toml") -> Replay:
    """A generated game read as a replay."""
    return parse_replay(generated_text(n_events, seed), source)


@contextmanager
def sqlite_store(path: Path) -> Iterator[Any]:
    """The store in an SQLite file, open for the ``with`` block."""
    from application.adapters.stores import open_store

    app = open_store(f"sqlite:{path}")
    try:
        yield app
    finally:
        app.close()


def sqlite_rows(path: Path, game_id: str) -> list[tuple[int, str, bytes]]:
    """(version, topic, state) of a game's rows in an SQLite file, as stored."""
    with sqlite_store(path) as app:
        return raw_rows(app, game_uuid(game_id))


def edit_sqlite_event(path: Path, game_id: str, version: int, **changes: Any) -> None:
    """Change fields of one stored event in place, as someone editing the file by hand would."""
    with sqlite_store(path) as app:
        RawRows(app).edit(game_id, version, **changes)


def forge_sqlite_event(path: Path, game_id: str, version: int, **changes: Any) -> None:
    """Change fields of one stored event and recompute the chain after it (a forger's edit)."""
    with sqlite_store(path) as app:
        RawRows(app).edit(game_id, version, **changes)
        RawRows(app).rechain(game_id)


def set_sqlite_state(path: Path, game_id: str, version: int, state: bytes | str, *,
                     snapshots: bool = False) -> None:
    """Overwrite one stored row's state in an SQLite file (a ``str``: a text cell)."""
    with sqlite_store(path) as app:
        set_raw_state(app, game_uuid(game_id), version, state, snapshots=snapshots)


def write_events(spec: str, game_id: str, writer: str, count: int, start: Any) -> None:
    """A writer process: ``count`` appends alternating verifiable rolls and reports.

    Each event names its writer and index in its purpose or text, so the test can check that
    every one is stored exactly once. ``start`` (a multiprocessing Barrier) lines the writers up.
    """
    from application.adapters.stores import open_store
    from application.usecases.dicecmd import draw, file_report

    app = open_store(spec)
    try:
        last = app.game(game_id).battles[-1]
        start.wait(180)  # spawning and importing can be slow on a busy shared machine
        for index in range(count):
            tag = f"{writer}-{index}"
            if index % 2:
                file_report(app, game_id, writer, tag)
            else:
                draw(app, game_id, last.territory, 2, tag, turn=last.turn)
            time.sleep(0.002)  # a breath between appends, so a busy machine still interleaves
    finally:
        app.close()


def slow_import(spec: str, path: str, pause: float) -> None:
    """Import a replay with a pause after each inserted row, saying ``saving`` when the save starts.

    Run as a subprocess by the SIGKILL test: the pauses stretch the one transaction of the save
    so the kill lands inside it.
    """
    from application.adapters.stores import open_store
    from application.intake.replayfile import load_replay
    from application.usecases.transfer import import_replay

    with paced_sqlite_inserts(pause, lambda: print("saving", flush=True)):
        replay = load_replay(path)
        app = open_store(spec)
        import_replay(app, replay)
    app.close()


class RawRows:
    """A store's rows read and changed directly, as someone holding the database would (through
    the event store adapter's raw-row functions: the memory store's lists, or SQL)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def rows(self, game_id: str, *, snapshots: bool = False) -> list[tuple[int, str, bytes]]:
        """(version, topic, state) of a game's stored events (or snapshots), in order."""
        return raw_rows(self.app, game_uuid(game_id), snapshots=snapshots)

    def set_state(self, game_id: str, version: int, state: bytes, *, snapshots: bool = False) -> None:
        """Overwrite one row's stored bytes."""
        set_raw_state(self.app, game_uuid(game_id), version, state, snapshots=snapshots)

    def edit(self, game_id: str, version: int, *, snapshots: bool = False, **changes: Any) -> None:
        """Change fields of one stored row in place (its msgpack tree)."""
        [state] = [s for v, _, s in self.rows(game_id, snapshots=snapshots) if v == version]
        tree = msgspec.msgpack.decode(state)
        tree.update(changes)
        self.set_state(game_id, version, msgspec.msgpack.encode(tree), snapshots=snapshots)

    def rechain(self, game_id: str) -> None:
        """Recompute every chain link of a game's rows, as a forger who edited a row would (the
        chain has no secret: only a head kept from before shows the rewrite)."""
        previous = GENESIS
        for version, _, state in self.rows(game_id):
            canonical, held = stored_link(state)
            previous = link_bytes(previous, canonical)
            if held != previous:
                self.edit(game_id, version, chain=previous)

    def delete(self, game_id: str, version: int | None = None, *, snapshots: bool = False) -> None:
        """Delete one row (every row of the game when ``version`` is None)."""
        delete_raw_rows(self.app, game_uuid(game_id), version, snapshots=snapshots)


# -- the three stores every store test runs on -------------------------------------------------
# Mixed into each contract's per-store test class (``class TestSQLiteX(SQLiteSpec, XContract)``):
# one ``spec`` fixture per store, written once.

class MemorySpec:
    """The in-memory store."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        """The store spec the contract's tests open."""
        yield "memory:"


class SQLiteSpec:
    """The embedded SQLite store (the default), in a folder it creates."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        """The store spec the contract's tests open."""
        yield f"sqlite:{tmp_path / 'store' / 'minister.sqlite3'}"


@pytest.mark.postgres
class PostgresSpec:
    """PostgreSQL, in a schema of its own per test (skipped, saying why, without a server)."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        """The store spec the contract's tests open."""
        with postgres_schema() as spec:
            yield spec
