"""The reviewed game kept in the store beside its events: a read model, rebuilt when stale.

Reviewing a big game takes seconds; opening it should not. What a review produces (the two
histories, the reports the commands print) is stored as *products*: opaque bytes, one row per
game and kind, in a table beside the events (``minister_reviews``: SQLite and PostgreSQL;
a dict on the recorder for the in-memory store). Each row is stamped with

- the game's version and hash-chain head when it was made (the events it covers: an event
  appended or edited afterwards makes the row stale), and
- :func:`engine_stamp`: :data:`REVIEW_VERSION` and a digest of the code that makes the
  products (``domain/`` and ``projections/``), so a new engine or report never serves an old
  review.

A stale row is never served: the reader gets ``None`` and reviews afresh (and may store the
result). Rows are written with their version, and a row never replaces one of a later version,
so concurrent writers cannot roll the read model back. Products are compressed (zlib level 1:
fast, and a 50,000-event game's JSON report shrinks ~20×).

This is minister's own projection rather than eventsourcing's ``ProjectionRunner``: a review is
per game and per engine, rebuilt on demand, not a position in the application's notification
log (a ``TrackingRecorder`` tracks one position for all games). It shares the application's
recorder datastore (same file or server, same schema).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

from application.adapters.eventstore import read_events, store_kind
from domain.record.events import game_uuid

if TYPE_CHECKING:
    from eventsourcing.application import Application

#: Bump when the review's or the reports' results change without a change to the code digested
#: by :func:`engine_stamp` (data files, a dependency's behaviour): every stored review is then
#: rebuilt on its next use. Changes to ``domain/`` or ``projections/`` code need no bump.
REVIEW_VERSION = 1
TABLE = "minister_reviews"
#: The packages whose code makes the products (their sources are digested into the stamp).
_PRODUCERS = ("domain", "projections")


@cache
def engine_stamp() -> str:
    """``REVIEW_VERSION`` and a digest of the producing code: what a stored product was made by."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[2]
    for package in _PRODUCERS:
        for path in sorted((root / package).rglob("*")):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return f"{REVIEW_VERSION}:{digest.hexdigest()[:16]}"


@dataclass(frozen=True)
class Head:
    """The last stored event of a game: what a stored review must have covered to be fresh."""

    version: int
    chain: str


def head_of(app: Application[UUID], game_id: str) -> Head | None:
    """The version and hash-chain link of a game's last stored event (None: no such game)."""
    last = read_events(app, game_uuid(game_id), desc=True, limit=1)
    if not last:
        return None
    return Head(last[0].originator_version, last[0].chain or "")


def load(app: Application[UUID], game_id: str, kind: str, head: Head | None = None) -> bytes | None:
    """The stored product ``kind`` of a game if it covers the game's current events and was made
    by this engine; None otherwise (never stored, stale, or the store cannot say)."""
    if head is None:
        head = head_of(app, game_id)
        if head is None:
            return None
    row = _table(app).get(game_id, kind)
    if row is None:
        return None
    version, chain, engine, data = row
    if version != head.version or chain != head.chain or engine != engine_stamp():
        return None
    return zlib.decompress(data)


def load_earlier(app: Application[UUID], game_id: str, kind: str, head: Head) -> tuple[Head, bytes] | None:
    """The stored product ``kind`` of a game made by this engine from its events up to ``head``
    or an earlier version of the same history (its hash-chain link at that version unchanged),
    and the head it covers; None otherwise. For what stays valid as events are added: the
    review memo (:mod:`application.adapters.memo_codec`), never a product shown as it is."""
    row = _table(app).get(game_id, kind)
    if row is None:
        return None
    version, chain, engine, data = row
    if engine != engine_stamp() or version > head.version:
        return None
    if version != head.version:
        at = read_events(app, game_uuid(game_id), gt=version - 1, lte=version)
        if len(at) != 1 or (at[0].chain or "") != chain:
            return None
    elif chain != head.chain:
        return None
    return Head(version, chain), zlib.decompress(data)


def save(app: Application[UUID], game_id: str, head: Head, products: Mapping[str, bytes]) -> None:
    """Store a game's products as made from its events up to ``head`` (one transaction)."""
    rows = {kind: zlib.compress(data, 1) for kind, data in products.items()}
    _table(app).put(game_id, head, engine_stamp(), rows)


def forget(app: Application[UUID], game_id: str) -> None:
    """Drop every stored product of a game (it is rebuilt on its next use)."""
    _table(app).delete(game_id)


# -- the table, per store ----------------------------------------------------------------------
Row = tuple[int, str, str, bytes]


class _Table:
    """Rows of (game, kind) -> (version, chain head, engine stamp, data)."""

    def get(self, game_id: str, kind: str) -> Row | None:
        raise NotImplementedError

    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes]) -> None:
        raise NotImplementedError

    def delete(self, game_id: str) -> None:
        raise NotImplementedError


class _MemoryTable(_Table):
    """The in-memory store's table: a dict that lives as long as its recorder."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], Row] = {}

    def get(self, game_id: str, kind: str) -> Row | None:
        return self.rows.get((game_id, kind))

    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes]) -> None:
        for kind, data in rows.items():
            old = self.rows.get((game_id, kind))
            if old is None or old[0] <= head.version:
                self.rows[(game_id, kind)] = (head.version, head.chain, engine, data)

    def delete(self, game_id: str) -> None:
        for key in [key for key in self.rows if key[0] == game_id]:
            del self.rows[key]


class _SQLiteTable(_Table):
    """The table in the SQLite file, through the recorder's own datastore."""

    def __init__(self, recorder: Any) -> None:
        self.datastore = recorder.datastore
        self.created = False

    def get(self, game_id: str, kind: str) -> Row | None:
        import sqlite3

        with self.datastore.transaction(commit=False) as cursor:
            try:
                cursor.execute(f"SELECT version, head, engine, data FROM {TABLE} "
                               "WHERE game_id=? AND kind=?", (game_id, kind))
            except sqlite3.OperationalError as error:
                if "no such table" in str(error):
                    return None
                raise
            row = cursor.fetchone()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]), bytes(row[3]))

    def _create(self, cursor: Any) -> None:
        if not self.created:
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id TEXT NOT NULL, kind TEXT NOT "
                           "NULL, version INTEGER NOT NULL, head TEXT NOT NULL, engine TEXT NOT NULL, "
                           "data BLOB NOT NULL, PRIMARY KEY (game_id, kind))")
            self.created = True

    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes]) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            for kind, data in rows.items():
                cursor.execute(
                    f"INSERT INTO {TABLE} (game_id, kind, version, head, engine, data) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                    "version=excluded.version, head=excluded.head, engine=excluded.engine, "
                    f"data=excluded.data WHERE excluded.version >= {TABLE}.version",
                    (game_id, kind, head.version, head.chain, engine, data))

    def delete(self, game_id: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            cursor.execute(f"DELETE FROM {TABLE} WHERE game_id=?", (game_id,))


class _PostgresTable(_Table):
    """The table in the recorder's PostgreSQL schema, through its own connection pool."""

    def __init__(self, recorder: Any) -> None:
        from psycopg import sql

        self.datastore = recorder.datastore
        self.name = sql.Identifier(recorder.datastore.schema, TABLE)
        self.created = False

    def get(self, game_id: str, kind: str) -> Row | None:
        import psycopg
        from eventsourcing.persistence import ProgrammingError
        from psycopg import sql

        query = sql.SQL("SELECT version, head, engine, data FROM {} WHERE game_id = %s AND kind = %s")
        try:
            with self.datastore.transaction(commit=False) as cursor:
                cursor.execute(query.format(self.name), (game_id, kind), prepare=True)
                row = cursor.fetchone()
        except ProgrammingError as error:  # eventsourcing wraps psycopg's errors
            if isinstance(error.__cause__, psycopg.errors.UndefinedTable):
                return None
            raise
        if row is None:
            return None
        return int(row["version"]), str(row["head"]), str(row["engine"]), bytes(row["data"])

    def _create(self, cursor: Any) -> None:
        from psycopg import sql

        if not self.created:
            cursor.execute(sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} (game_id TEXT NOT NULL, kind TEXT NOT NULL, version "
                "BIGINT NOT NULL, head TEXT NOT NULL, engine TEXT NOT NULL, data BYTEA NOT NULL, "
                "PRIMARY KEY (game_id, kind))").format(self.name))
            self.created = True

    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes]) -> None:
        from psycopg import sql

        statement = sql.SQL(
            "INSERT INTO {0} (game_id, kind, version, head, engine, data) VALUES (%s, %s, %s, %s, "
            "%s, %s) ON CONFLICT (game_id, kind) DO UPDATE SET version = EXCLUDED.version, head = "
            "EXCLUDED.head, engine = EXCLUDED.engine, data = EXCLUDED.data WHERE EXCLUDED.version "
            ">= {0}.version").format(self.name)
        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            for kind, data in rows.items():
                cursor.execute(statement, (game_id, kind, head.version, head.chain, engine, data))

    def delete(self, game_id: str) -> None:
        from psycopg import sql

        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            cursor.execute(sql.SQL("DELETE FROM {} WHERE game_id = %s").format(self.name), (game_id,))


def _table(app: Application[UUID]) -> _Table:
    """The products table of the application's store (one object per recorder)."""
    recorder: Any = app.recorder
    table: _Table | None = getattr(recorder, "_minister_reviews", None)
    if table is None:
        # minister's own recorders (application.adapters.eventstore) subclass eventsourcing's.
        module = store_kind(recorder)
        if module == "eventsourcing.sqlite":
            table = _SQLiteTable(recorder)
        elif module == "eventsourcing.postgres":
            table = _PostgresTable(recorder)
        else:
            table = _MemoryTable()
        recorder._minister_reviews = table
    return table
