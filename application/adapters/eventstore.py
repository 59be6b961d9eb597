"""The one door to eventsourcing: recorders, store set-up, fast reads, snapshots, raw rows.

Nothing else in minister touches eventsourcing's recorders, its snapshot store or SQL. This
module holds:

* the recorders minister plugs into eventsourcing (``PERSISTENCE_MODULE`` names the factories
  below): every store error becomes a :class:`StoreError` saying what to do, and PostgreSQL
  inserts go without psycopg's pipeline mode (see :class:`PostgresEventRecorder`);
* the PostgreSQL set-up: lock and statement timeouts on every connection, and the tables
  created once, under an advisory lock, so commands started together on a fresh database do
  not race (:func:`postgres_tables`);
* fast reads of a game's events (one SELECT of ``topic, state``, decoded by msgspec), the games
  stored (their ``GameStarted`` notifications), the raw rows ``verify --integrity`` hashes, and
  snapshot pruning (only the newest snapshot of a game is kept: see :func:`prune_snapshots`).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError, Notification, PersistenceError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteApplicationRecorder,
    SQLiteFactory,
    SQLiteRecorder,
)

from application.mapper import MsgspecMapper, decode_event, encode_event
from domain.errors import MinisterError
from domain.record.events import TOPICS, GameEvent, GameSnapshot, GameStarted

if TYPE_CHECKING:
    from eventsourcing.application import Application

#: Seconds a PostgreSQL command waits for a lock (another command's insert) before giving up.
LOCK_TIMEOUT_VARIABLE = "MINISTER_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 60
#: Seconds one PostgreSQL statement may run (a 50,000-event insert takes a few).
STATEMENT_TIMEOUT_VARIABLE = "MINISTER_STATEMENT_TIMEOUT"
DEFAULT_STATEMENT_TIMEOUT = 600
#: The tables eventsourcing creates for the application called "minister".
EVENTS_TABLE = "minister_events"
SNAPSHOTS_TABLE = "minister_snapshots"

_P = ParamSpec("_P")
_T = TypeVar("_T")


class StoreError(MinisterError):
    """The store could not do what was asked (busy, locked, unreachable): says what to do."""


def timeout_seconds(variable: str, default: int) -> int:
    """A timeout in whole seconds from the environment (the default when unset or not a number)."""
    text = os.environ.get(variable, "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else default


def explain(error: BaseException) -> str:
    """What a store error means for the person at the terminal."""
    cause = error.__cause__ or error
    name = type(cause).__name__
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else name
    if name == "LockNotAvailable":
        return (f"the store is busy: another command held the events table longer than the lock "
                f"timeout ({timeout_seconds(LOCK_TIMEOUT_VARIABLE, DEFAULT_LOCK_TIMEOUT)} s, "
                f"{LOCK_TIMEOUT_VARIABLE}); try again")
    if name == "QueryCanceled":
        return (f"the store took longer than the statement timeout "
                f"({timeout_seconds(STATEMENT_TIMEOUT_VARIABLE, DEFAULT_STATEMENT_TIMEOUT)} s, "
                f"{STATEMENT_TIMEOUT_VARIABLE}); nothing was stored")
    if "database is locked" in text:
        return ("the SQLite store is locked by another program (waited 5 s); nothing was stored; "
                "try again when it is done")
    return f"the store failed: {text}"


def translated(method: Callable[_P, _T]) -> Callable[_P, _T]:
    """Store errors (except a version clash, which callers handle) raised as :class:`StoreError`."""

    @functools.wraps(method)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(*args, **kwargs)
        except IntegrityError:
            raise
        except (PersistenceError, sqlite3.Error) as error:
            raise StoreError(explain(error)) from error

    return call


class SQLiteEventRecorder(SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, its errors explained."""

    @translated
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Insert, store errors explained."""
        found: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
        return found

    @translated
    def select_events(self, originator_id: UUID | str, *, gt: int | None = None,
                      lte: int | None = None, desc: bool = False, limit: int | None = None,
                      ) -> Sequence[StoredEvent]:
        """Select, store errors explained."""
        found: Sequence[StoredEvent] = super().select_events(originator_id, gt=gt, lte=lte,
                                                             desc=desc, limit=limit)
        return found

    @translated
    def create_table(self) -> None:
        """Create the tables, store errors explained."""
        super().create_table()

    @translated
    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *, inclusive_of_start: bool = True,
                             ) -> Sequence[Notification]:
        """Select notifications, store errors explained."""
        found: Sequence[Notification] = super().select_notifications(
            start, limit, stop, topics, inclusive_of_start=inclusive_of_start)
        return found


    @translated
    def select_states(self, originator_id: UUID, gt: int | None, lte: int | None, desc: bool,
                      limit: int | None) -> list[tuple[str, bytes]]:
        """(topic, state) of a game's events, straight from the table (no StoredEvent per row)."""
        params: list[Any] = [originator_id.hex]
        clauses = []
        for op, value in ((">", gt), ("<=", lte)):
            if value is not None:
                clauses.append(f" AND originator_version{op}?")
                params.append(value)
        order = " ORDER BY originator_version " + ("DESC" if desc else "ASC")
        if limit is not None:
            order += " LIMIT ?"
            params.append(limit)
        statement = (f"SELECT topic, state FROM {self.events_table_name} WHERE originator_id=?"
                     + "".join(clauses) + order)
        with self.datastore.transaction(commit=False) as cursor:
            # Plain tuples rather than the connection's sqlite3.Row: they are only unpacked.
            cursor.sqlite_cursor.row_factory = None
            cursor.execute(statement, params)
            return list(cursor.fetchall())


class SQLiteSnapshotRecorder(SQLiteAggregateRecorder):
    """eventsourcing's SQLite snapshot recorder, its errors explained."""

    @translated
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Insert, store errors explained."""
        found: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
        return found

    @translated
    def select_events(self, originator_id: UUID | str, *, gt: int | None = None,
                      lte: int | None = None, desc: bool = False, limit: int | None = None,
                      ) -> Sequence[StoredEvent]:
        """Select, store errors explained."""
        found: Sequence[StoredEvent] = super().select_events(originator_id, gt=gt, lte=lte,
                                                             desc=desc, limit=limit)
        return found

    @translated
    def create_table(self) -> None:
        """Create the tables, store errors explained."""
        super().create_table()


class SQLiteStoreFactory(SQLiteFactory):
    """``PERSISTENCE_MODULE`` for minister's SQLite stores."""

    aggregate_recorder_class = SQLiteSnapshotRecorder
    application_recorder_class = SQLiteEventRecorder


def connection_options() -> str:
    """libpq options bounding lock waits and statements (milliseconds)."""
    lock = timeout_seconds(LOCK_TIMEOUT_VARIABLE, DEFAULT_LOCK_TIMEOUT) * 1000
    statement = timeout_seconds(STATEMENT_TIMEOUT_VARIABLE, DEFAULT_STATEMENT_TIMEOUT) * 1000
    return f"-c lock_timeout={lock} -c statement_timeout={statement}"


def factory_settings(kind: str) -> dict[str, str]:
    """The eventsourcing settings that plug minister's recorders in for a kind of store."""
    if kind == "postgres":
        # A dead client's transaction (and its table lock) ends after a minute; eventsourcing's
        # 5 s cut a live 50,000-event insert on a busy machine (adapting its rows takes seconds).
        return {"PERSISTENCE_MODULE": "application.adapters.postgres_store:PostgresStoreFactory",
                "POSTGRES_LOCK_TIMEOUT": str(timeout_seconds(LOCK_TIMEOUT_VARIABLE,
                                                             DEFAULT_LOCK_TIMEOUT)),
                "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "60"}
    if kind == "sqlite":
        return {"PERSISTENCE_MODULE": "application.adapters.eventstore:SQLiteStoreFactory"}
    return {"PERSISTENCE_MODULE": "eventsourcing.popo"}


def _postgres() -> Any:
    """The PostgreSQL recorders' module once a PostgreSQL store was opened, else None: it imports
    psycopg, which a command on an SQLite store never needs (a third of the timeline's start)."""
    return sys.modules.get("application.adapters.postgres_store")


def _fast(recorder: object) -> bool:
    """Whether a recorder is one of minister's event recorders (they offer ``select_states``)."""
    postgres = _postgres()
    return isinstance(recorder, SQLiteEventRecorder) or (
        postgres is not None and isinstance(recorder, postgres.PostgresEventRecorder))


# -- reading a game ------------------------------------------------------------------------------
#: A decoder per topic (as the mapper's), called straight from the loop that decodes rows.
_DECODERS: dict[str, msgspec.msgpack.Decoder[Any]] = {
    topic: msgspec.msgpack.Decoder(cls) for topic, cls in TOPICS.items()}


def iter_events(app: Application[UUID], originator_id: UUID, *, gt: int | None = None,
                lte: int | None = None, desc: bool = False, limit: int | None = None,
                ) -> Iterator[GameEvent]:
    """A game's stored events between versions ``gt`` (exclusive) and ``lte`` (inclusive).

    One SELECT of (topic, state) decoded by msgspec where the recorder offers it (SQLite,
    PostgreSQL, minister's mapper without cipher or compression): eventsourcing's own reads build
    a StoredEvent and parse a UUID per row, which costs more than decoding the events. Each event
    is decoded when it is asked for, so a fold keeps only what the Game holds.
    """
    mapper, recorder = app.mapper, app.recorder
    fast = (isinstance(mapper, MsgspecMapper) and not mapper.cipher and not mapper.compressor
            and _fast(recorder))
    if not fast:
        found = app.events.get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        return (event for event in found if isinstance(event, GameEvent))
    reader: Any = recorder  # one of minister's event recorders (_fast)
    rows: list[tuple[str, bytes]] = reader.select_states(originator_id, gt, lte, desc, limit)
    decoders = _DECODERS
    # An unknown topic goes through decode_event, which names it in its error.
    return (decoders[topic].decode(state) if topic in decoders else decode_event(topic, state)
            for topic, state in rows)


def read_states(app: Application[UUID], originator_id: UUID, *, gt: int | None = None,
                lte: int | None = None) -> list[tuple[str, bytes]]:
    """(topic, state bytes as the mapper encoded them) of a game's events, in order."""
    mapper, recorder = app.mapper, app.recorder
    if _fast(recorder) and \
            isinstance(mapper, MsgspecMapper) and not mapper.cipher and not mapper.compressor:
        reader: Any = recorder  # one of minister's event recorders (_fast)
        states: list[tuple[str, bytes]] = reader.select_states(originator_id, gt, lte, False, None)
        return states
    found = app.events.get(originator_id, gt=gt, lte=lte)
    return [(type(event).TOPIC, encode_event(event)) for event in found
            if isinstance(event, GameEvent)]


def decode_states(states: Iterable[tuple[str, bytes]]) -> Iterator[GameEvent]:
    """Events from (topic, state) rows, each decoded when it is asked for."""
    decoders = _DECODERS
    return (decoders[topic].decode(state) if topic in decoders else decode_event(topic, state)
            for topic, state in states)


def read_events(app: Application[UUID], originator_id: UUID, *, gt: int | None = None,
                lte: int | None = None, desc: bool = False, limit: int | None = None,
                ) -> list[GameEvent]:
    """The same events as a list."""
    return list(iter_events(app, originator_id, gt=gt, lte=lte, desc=desc, limit=limit))


def stored_rows(app: Application[UUID], originator_id: UUID) -> Sequence[StoredEvent]:
    """A game's rows as stored (topic, version, state bytes), for hashing the chain."""
    rows: Sequence[StoredEvent] = app.recorder.select_events(originator_id)
    return rows


def started_games(app: Application[UUID]) -> Iterator[GameStarted]:
    """Every GameStarted in the store, in the order the games were stored.

    A row that does not decode is skipped here (``verify --integrity`` reports it): one
    damaged game must not stop the others from being listed.
    """
    start: int | None = None
    while True:
        page: Any = app.recorder.select_notifications(start, 500, topics=[GameStarted.TOPIC],
                                                      inclusive_of_start=False)
        if not page:
            return
        for notification in page:
            try:
                event = app.mapper.to_domain_event(notification)
            except (ValueError, msgspec.DecodeError):
                continue
            if isinstance(event, GameStarted):
                yield event
        start = page[-1].id


# -- snapshots -----------------------------------------------------------------------------------
def snapshots_of(app: Application[UUID], originator_id: UUID, *, lte: int | None = None,
                 desc: bool = False, limit: int | None = None) -> list[GameSnapshot]:
    """A game's stored snapshots (none when snapshotting is off); one that does not decode as a
    snapshot is left out (it is derived data: the events are folded instead)."""
    if app.snapshots is None:
        return []
    found: list[GameSnapshot] = []
    rows = app.snapshots.recorder.select_events(originator_id, lte=lte, desc=desc, limit=limit)
    for row in rows:
        try:
            snapshot = app.mapper.to_domain_event(row)
        except (ValueError, msgspec.DecodeError):
            continue
        if isinstance(snapshot, GameSnapshot):
            found.append(snapshot)
    return found


def put_snapshots(app: Application[UUID], snapshots: Sequence[GameSnapshot]) -> bool:
    """Store snapshots; False when another writer stored the same ones first."""
    if app.snapshots is None or not snapshots:
        return False
    try:
        app.snapshots.put(list(snapshots))
    except IntegrityError:
        return False
    return True


@translated
def prune_snapshots(app: Application[UUID], originator_id: UUID, before: int) -> None:
    """Delete a game's snapshots older than version ``before``.

    Each snapshot holds the whole Game state (its size grows with the game), and only the newest
    is read (time travel derives earlier states from the latest one), so keeping one per interval
    would store the square of the game's length.
    """
    recorder: Any = app.snapshots.recorder if app.snapshots is not None else None
    if isinstance(recorder, SQLiteSnapshotRecorder):
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {recorder.events_table_name} WHERE originator_id=? "
                           "AND originator_version<?", (originator_id.hex, before))
    elif _postgres() is not None and isinstance(recorder, _postgres().PostgresSnapshotRecorder):
        from psycopg import sql

        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(sql.SQL("DELETE FROM {}.{} WHERE originator_id = %s AND "
                                   "originator_version < %s").format(
                sql.Identifier(recorder.datastore.schema),
                sql.Identifier(recorder.events_table_name)), (originator_id, before))


def store_kind(recorder: object) -> str:
    """"eventsourcing.sqlite" or "eventsourcing.postgres" for recorders of those stores (the
    event store's own subclasses included), else the recorder's module."""
    if isinstance(recorder, SQLiteRecorder):
        return "eventsourcing.sqlite"
    if _postgres() is not None:
        from eventsourcing.postgres import PostgresRecorder

        if isinstance(recorder, PostgresRecorder):
            return "eventsourcing.postgres"
    return type(recorder).__module__
