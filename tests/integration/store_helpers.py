"""Helpers for the store tests: PostgreSQL test schemas, SQLite rows, generated games, writers.

PostgreSQL tests run against ``MINISTER_TEST_POSTGRES`` (e.g.
``postgresql://postgres@127.0.0.1:5432/test``); each test gets its own schema, dropped after,
so runs never collide. Without the variable they are skipped, saying so.
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from application.replayfile import Replay, parse_replay
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


def sqlite_rows(path: Path, game_id: str) -> list[tuple[int, str, bytes]]:
    """(version, topic, state) of a game's rows, read straight from the SQLite file."""
    with sqlite3.connect(path) as connection:
        try:
            rows = connection.execute(
                "SELECT originator_version, topic, state FROM stored_events WHERE originator_id=? "
                "ORDER BY originator_version", (game_uuid(game_id).hex,)).fetchall()
        except sqlite3.OperationalError as error:
            if "no such table" not in str(error):
                raise
            rows = []  # the store was never written to
    return [(int(v), str(t), bytes(s)) for v, t, s in rows]


def edit_sqlite_event(path: Path, game_id: str, version: int, **changes: Any) -> None:
    """Change fields of one stored event in place, as someone editing the file by hand would."""
    oid = game_uuid(game_id).hex
    with sqlite3.connect(path) as connection:
        (state,) = connection.execute(
            "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=?",
            (oid, version)).fetchone()
        tree = msgspec.msgpack.decode(state)
        tree.update(changes)
        connection.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND "
                           "originator_version=?", (msgspec.msgpack.encode(tree), oid, version))


def write_events(spec: str, game_id: str, writer: str, count: int, start: Any) -> None:
    """A writer process: ``count`` appends alternating verifiable rolls and reports.

    Each event names its writer and index in its purpose or text, so the test can check that
    every one is stored exactly once. ``start`` (a multiprocessing Barrier) lines the writers up.
    """
    from application.dicecmd import draw, file_report
    from application.stores import open_store

    app = open_store(spec)
    try:
        battle = app.game(game_id).battles[-1].territory
        start.wait(180)  # spawning and importing can be slow on a busy shared machine
        for index in range(count):
            tag = f"{writer}-{index}"
            if index % 2:
                file_report(app, game_id, writer, tag)
            else:
                draw(app, game_id, battle, 2, tag)
            time.sleep(0.002)  # a breath between appends, so a busy machine still interleaves
    finally:
        app.close()


def slow_import(spec: str, path: str, pause: float) -> None:
    """Import a replay with a pause after each inserted row, saying ``saving`` when the save starts.

    Run as a subprocess by the SIGKILL test: the pauses stretch the one transaction of the save
    so the kill lands inside it.
    """
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    from application.replayfile import load_replay
    from application.stores import open_store
    from application.transfer import import_replay

    original = SQLiteApplicationRecorder._insert_events

    def paused(self: Any, cursor: Any, stored_events: Any, **kwargs: Any) -> Any:
        print("saving", flush=True)
        found: list[Any] = []
        for stored in stored_events:
            found.extend(original(self, cursor, [stored], **kwargs) or [])
            time.sleep(pause)
        return found

    SQLiteApplicationRecorder._insert_events = paused  # type: ignore[method-assign]
    replay = load_replay(path)
    app = open_store(spec)
    import_replay(app, replay)
    app.close()


class RawRows:
    """A store's rows read and changed directly, as someone holding the database would.

    For the tamper-evidence tests of every store: the memory store's lists, or SQL on the
    SQLite file or the PostgreSQL schema (the tables eventsourcing made for the application).
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    def _recorder(self, snapshots: bool) -> Any:
        return self.app.snapshots.recorder if snapshots else self.app.recorder

    def rows(self, game_id: str, *, snapshots: bool = False) -> list[tuple[int, str, bytes]]:
        """(version, topic, state) of a game's stored events (or snapshots), in order."""
        stored = self._recorder(snapshots).select_events(game_uuid(game_id))
        return [(int(s.originator_version), str(s.topic), bytes(s.state)) for s in stored]

    def set_state(self, game_id: str, version: int, state: bytes, *, snapshots: bool = False) -> None:
        """Overwrite one row's stored bytes."""
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.popo import POPOAggregateRecorder

        recorder = self._recorder(snapshots)
        oid = game_uuid(game_id)
        if isinstance(recorder, POPOAggregateRecorder):
            with recorder._database_lock:
                position = recorder._stored_events_index[str(oid)][version]
                old = recorder._stored_events[position]
                recorder._stored_events[position] = StoredEvent(old.originator_id, old.originator_version,
                                                                old.topic, state)
            return
        self._sql(recorder, "UPDATE {table} SET state={p} WHERE originator_id={p} AND originator_version={p}",
                  state, oid, version)

    def edit(self, game_id: str, version: int, *, snapshots: bool = False, **changes: Any) -> None:
        """Change fields of one stored row in place (its msgpack tree)."""
        [state] = [s for v, _, s in self.rows(game_id, snapshots=snapshots) if v == version]
        tree = msgspec.msgpack.decode(state)
        tree.update(changes)
        self.set_state(game_id, version, msgspec.msgpack.encode(tree), snapshots=snapshots)

    def delete(self, game_id: str, version: int | None = None, *, snapshots: bool = False) -> None:
        """Delete one row (every row of the game when ``version`` is None)."""
        from eventsourcing.popo import POPOAggregateRecorder

        recorder = self._recorder(snapshots)
        oid = game_uuid(game_id)
        if isinstance(recorder, POPOAggregateRecorder):
            with recorder._database_lock:
                index = recorder._stored_events_index[str(oid)]
                for key in [version] if version is not None else list(index):
                    del index[key]
            return
        if version is None:
            self._sql(recorder, "DELETE FROM {table} WHERE originator_id={p}", oid)
        else:
            self._sql(recorder, "DELETE FROM {table} WHERE originator_id={p} AND originator_version={p}",
                      oid, version)

    @staticmethod
    def _sql(recorder: Any, statement: str, *params: Any) -> None:
        from eventsourcing.sqlite import SQLiteAggregateRecorder

        if isinstance(recorder, SQLiteAggregateRecorder):
            text = statement.format(table=recorder.events_table_name, p="?")
            values = tuple(p.hex if isinstance(p, uuid.UUID) else p for p in params)
            with recorder.datastore.transaction(commit=True) as cursor:
                cursor.execute(text, values)
            return
        from psycopg import sql

        query = sql.SQL(statement.format(table="{schema}.{table}", p="%s")).format(
            schema=sql.Identifier(recorder.datastore.schema),
            table=sql.Identifier(recorder.events_table_name))
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(query, params)
