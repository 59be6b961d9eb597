"""The one door to eventsourcing: recorders, store set-up, fast reads, snapshots, raw rows.

Nothing else in minister touches eventsourcing's recorders, its snapshot store or SQL. This
module holds:

* the recorders minister plugs into eventsourcing (``PERSISTENCE_MODULE`` names the factories
  below): every store error becomes a :class:`StoreError` saying what to do, and PostgreSQL
  inserts go without psycopg's pipeline mode (see :class:`PostgresEventRecorder`);
* a new SQLite file's pages, larger than SQLite's default (:data:`SQLITE_PAGE_SIZE`);
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
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError, PersistenceError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteApplicationRecorder,
    SQLiteFactory,
    SQLiteRecorder,
)

from application.adapters.damage import unreadable
from application.adapters.mapper import DECODERS, MsgspecMapper, decode_event
from domain.errors import MinisterError
from domain.record.events import GameEvent, GameSnapshot, GameStarted

__all__ = ["StoredEvent", "VersionClash"]  # eventsourcing's row and clash, for the callers

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

#: Another writer stored the same version of the game first (eventsourcing's IntegrityError,
#: under the name the callers handle it by).
VersionClash = IntegrityError

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


_C = TypeVar("_C", bound=type)


def explained(*names: str) -> Callable[[_C], _C]:
    """A recorder class whose inherited methods ``names`` raise :class:`StoreError` (see
    :func:`translated`): written once for the four recorders rather than a pass-through per
    method per class."""

    def decorate(cls: _C) -> _C:
        for name in names:
            setattr(cls, name, translated(getattr(cls, name)))
        return cls

    return decorate


def versions_where(mark: str, originator_id: object, gt: int | None, lte: int | None, desc: bool,
                    limit: int | None) -> tuple[str, list[Any]]:
    """The WHERE/ORDER/LIMIT of a select of one aggregate's rows, with its parameters (``mark``:
    the driver's placeholder)."""
    params: list[Any] = [originator_id]
    text = f" WHERE originator_id={mark}"
    for op, value in ((">", gt), ("<=", lte)):
        if value is not None:
            text += f" AND originator_version{op}{mark}"
            params.append(value)
    text += " ORDER BY originator_version " + ("DESC" if desc else "ASC")
    if limit is not None:
        text += f" LIMIT {mark}"
        params.append(limit)
    return text, params


@explained("insert_events", "select_events", "create_table", "select_notifications")
class SQLiteEventRecorder(SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, its errors explained."""

    #: The rows in one ``executemany`` (eventsourcing's aggregate recorder's insert), in the
    #: caller's transaction: its application recorder runs an INSERT per row to return each row's
    #: notification id, which nothing in minister reads.
    _insert_events = SQLiteAggregateRecorder._insert_events

    @translated
    def select_states(self, originator_id: UUID, gt: int | None, lte: int | None, desc: bool,
                      limit: int | None) -> list[tuple[str, bytes]]:
        """(topic, state) of a game's events, straight from the table (no StoredEvent per row)."""
        where, params = versions_where("?", originator_id.hex, gt, lte, desc, limit)
        statement = f"SELECT topic, state FROM {self.events_table_name}{where}"
        with self.datastore.transaction(commit=False) as cursor:
            # Plain tuples rather than the connection's sqlite3.Row: they are only unpacked.
            cursor.sqlite_cursor.row_factory = None
            cursor.execute(statement, params)
            return list(cursor.fetchall())


@explained("insert_events", "select_events", "create_table")
class SQLiteSnapshotRecorder(SQLiteAggregateRecorder):
    """eventsourcing's SQLite snapshot recorder, its errors explained."""



#: The page size of a new SQLite store (SQLite's default is 4 KiB): an import writes each page
#: to the write-ahead log, then again to the file, a few system calls per page; 32 KiB pages
#: halve the system time of a 10,000-event import. A store made with other pages keeps them.
SQLITE_PAGE_SIZE = 32768


class SQLiteStoreFactory(SQLiteFactory):
    """``PERSISTENCE_MODULE`` for minister's SQLite stores."""

    aggregate_recorder_class = SQLiteSnapshotRecorder
    application_recorder_class = SQLiteEventRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        path = self.datastore.pool.db_name
        if not self.datastore.pool.is_sqlite_memory_mode and (
                not os.path.exists(path) or os.path.getsize(path) == 0):
            _new_file(path)


@translated
def _new_file(path: str) -> None:
    """Give a new SQLite file :data:`SQLITE_PAGE_SIZE` pages and the write-ahead log
    eventsourcing asks for (in that order: the size of a WAL database's pages is fixed). On a
    file that has pages already (another command made it meanwhile) both are no-ops."""
    connection = sqlite3.connect(path, uri=True, isolation_level=None)
    try:
        connection.execute(f"PRAGMA page_size={SQLITE_PAGE_SIZE}")
        connection.execute("PRAGMA journal_mode=WAL")
    finally:
        connection.close()


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
    return _decoded(app, originator_id, rows, gt, lte, desc, limit)


def _decoded(app: Application[UUID], originator_id: UUID, rows: list[tuple[str, bytes]],
             gt: int | None, lte: int | None, desc: bool, limit: int | None) -> Iterator[GameEvent]:
    """The rows' events, each decoded when asked for; a row that does not decode (edited in the
    database) is refused as a damaged record naming its event, never a traceback."""
    decoders = DECODERS
    for topic, state in rows:
        try:
            # An unknown topic goes through decode_event, which names it in its error.
            yield decoders[topic].decode(state) if topic in decoders else decode_event(topic, state)
        except Exception as error:  # a row edited in the database may be any kind of garbage
            raise _undecodable(app, originator_id, (gt, lte, desc, limit), error) from None


def _undecodable(app: Application[UUID], originator_id: UUID,
                 where: tuple[int | None, int | None, bool, int | None], error: Exception) -> MinisterError:
    """The damaged-record error for a row of a read that did not decode (the read made again,
    row by row, to name the event: only on this path)."""
    gt, lte, desc, limit = where
    for row in app.recorder.select_events(originator_id, gt=gt, lte=lte, desc=desc, limit=limit):
        try:
            decode_state(row.topic, row.state)
        except Exception as found:  # the first row that does not decode
            return unreadable(_label(app, originator_id), row.originator_version, row.topic,
                              f"{type(found).__name__}: {found}")
    return unreadable(_label(app, originator_id), 0, "?", f"{type(error).__name__}: {error}")


def _label(app: Application[UUID], originator_id: UUID) -> str:
    """A game's id as its first row states it (read leniently), else its originator id."""
    try:
        [first] = app.recorder.select_events(originator_id, lte=1)
        found = msgspec.msgpack.decode(first.state).get("game_id")
    except Exception:  # no such row, garbage or text: the originator id names it
        return str(originator_id)
    return found if isinstance(found, str) else str(originator_id)


def read_states(app: Application[UUID], originator_id: UUID, *, gt: int | None = None,
                lte: int | None = None) -> list[tuple[str, bytes]]:
    """(topic, state bytes as the mapper encoded them) of a game's events, in order."""
    mapper, recorder = app.mapper, app.recorder
    if _fast(recorder) and \
            isinstance(mapper, MsgspecMapper) and not mapper.cipher and not mapper.compressor:
        reader: Any = recorder  # one of minister's event recorders (_fast)
        states: list[tuple[str, bytes]] = reader.select_states(originator_id, gt, lte, False, None)
        return states
    # The rows as stored (compression and encryption undone), not decoded events encoded again:
    # the chain and the decoding are checked on these bytes, so a damaged row is named, never
    # a decoding error half-way through a read.
    rows = app.recorder.select_events(originator_id, gt=gt, lte=lte)
    return [(row.topic, plain_state(app, row.state)) for row in rows]


def put_events(app: Application[UUID], events: Sequence[GameEvent]) -> None:
    """Store events in one insert (all or nothing; ``VersionClash`` when another writer stored
    one of these versions first). What eventsourcing's ``Application.save`` does for events
    without aggregates or followers, less what it adds per event: a runtime protocol
    ``isinstance`` and a notification record, which cost an import more than its inserts."""
    to_stored = app.mapper.to_stored_event
    app.recorder.insert_events([to_stored(event) for event in events])


def plain_state(app: Application[UUID], state: object) -> bytes:
    """A stored state as the mapper encoded it (compression and encryption undone; a text cell
    as its UTF-8, which then fails its checks)."""
    data = state.encode("utf-8", "replace") if isinstance(state, str) else bytes(state)  # type: ignore[call-overload]
    if app.mapper.cipher:
        data = app.mapper.cipher.decrypt(data)
    if app.mapper.compressor:
        data = app.mapper.compressor.decompress(data)
    return data


def decode_state(topic: str, state: bytes) -> GameEvent:
    """One event from its stored (topic, state)."""
    decoder = DECODERS.get(topic)
    if decoder is None:
        return decode_event(topic, state)  # names the unknown topic in its error
    event: GameEvent = decoder.decode(state)
    return event


def decode_states(states: Iterable[tuple[str, bytes]]) -> Iterator[GameEvent]:
    """Events from (topic, state) rows, each decoded when it is asked for."""
    decoders = DECODERS
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


def started_rows(app: Application[UUID]) -> Iterator[Any]:
    """The stored row of every game's GameStarted (a notification: originator, version, topic,
    state as stored), in the order the games were stored; decoding them is the caller's (a
    damaged one is listed as such, never stops the list)."""
    start: int | None = None
    while True:
        page: Any = app.recorder.select_notifications(start, 500, topics=[GameStarted.TOPIC],
                                                      inclusive_of_start=False)
        if not page:
            return
        yield from page
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


def store_kind_of(app: Application[UUID]) -> str:
    """:func:`store_kind` of an application's event recorder ("eventsourcing.popo" in memory)."""
    return store_kind(app.recorder)


def snapshotting(app: Application[UUID]) -> bool:
    """Whether the application keeps snapshots at all."""
    return app.snapshots is not None


def has_events(app: Application[UUID], originator_id: UUID) -> bool:
    """Whether the store holds any event of the aggregate (one row read, not decoded)."""
    return bool(app.recorder.select_events(originator_id, limit=1))


# -- raw rows: the stored bytes, as someone holding the database sees them -----------------------
# For audits and the tamper-evidence tests of every store: rows read, inserted, overwritten and
# deleted below eventsourcing's checks (the memory store's lists, or SQL on the SQLite file or the
# PostgreSQL schema), so that nothing outside this module needs a recorder, a datastore or SQL.

def _raw_recorder(app: Application[UUID], snapshots: bool) -> Any:
    if not snapshots:
        return app.recorder
    if app.snapshots is None:
        raise ValueError("this store keeps no snapshots")
    return app.snapshots.recorder


def raw_rows(app: Application[UUID], originator_id: UUID, *,
             snapshots: bool = False) -> list[tuple[int, str, bytes]]:
    """(version, topic, state) of an aggregate's stored events (or snapshots), in order."""
    stored = _raw_recorder(app, snapshots).select_events(originator_id)
    return [(int(s.originator_version), str(s.topic), bytes(s.state)) for s in stored]


def insert_raw_rows(app: Application[UUID], rows: Iterable[tuple[UUID, int, str, bytes]]) -> None:
    """Store rows of (originator, version, topic, state) as they are, past the mapper (for events
    written by an older minister, or by another program)."""
    app.recorder.insert_events([StoredEvent(originator_id=oid, originator_version=version,
                                            topic=topic, state=state)
                                for oid, version, topic, state in rows])


def set_raw_state(app: Application[UUID], originator_id: UUID, version: int, state: bytes | str, *,
                  snapshots: bool = False) -> None:
    """Overwrite one row's stored state (a ``str`` stores a text cell, as a damaged SQLite file
    may hold one)."""
    from eventsourcing.popo import POPOAggregateRecorder

    recorder = _raw_recorder(app, snapshots)
    if isinstance(recorder, POPOAggregateRecorder):
        with recorder._database_lock:
            position = recorder._stored_events_index[str(originator_id)][version]
            old = recorder._stored_events[position]
            recorder._stored_events[position] = StoredEvent(old.originator_id, old.originator_version,
                                                            old.topic, state)  # type: ignore[arg-type]
        return
    _raw_sql(recorder, "UPDATE {table} SET state={p} WHERE originator_id={p} AND originator_version={p}",
             state, originator_id, version)


def delete_raw_rows(app: Application[UUID], originator_id: UUID, version: int | None = None, *,
                    snapshots: bool = False) -> None:
    """Delete one row (every row of the aggregate when ``version`` is None)."""
    from eventsourcing.popo import POPOAggregateRecorder

    recorder = _raw_recorder(app, snapshots)
    if isinstance(recorder, POPOAggregateRecorder):
        with recorder._database_lock:
            index = recorder._stored_events_index[str(originator_id)]
            for key in [version] if version is not None else list(index):
                del index[key]
        return
    if version is None:
        _raw_sql(recorder, "DELETE FROM {table} WHERE originator_id={p}", originator_id)
    else:
        _raw_sql(recorder, "DELETE FROM {table} WHERE originator_id={p} AND originator_version={p}",
                 originator_id, version)


def raw_state_bytes(app: Application[UUID], *, snapshots: bool = False) -> int:
    """The bytes of every stored state (events, or snapshots) in the store, summed."""
    from eventsourcing.popo import POPOAggregateRecorder

    recorder = _raw_recorder(app, snapshots)
    if isinstance(recorder, POPOAggregateRecorder):
        return sum(len(row.state) for row in getattr(recorder, "_stored_events", ()))
    found = _raw_sql(recorder, "SELECT COALESCE(SUM(LENGTH(state)), 0) FROM {table}")
    return int(found[0][0])


def _raw_sql(recorder: Any, statement: str, *params: Any) -> list[Any]:
    """Run ``statement`` on the recorder's table ({table}, parameters {p}); the rows it returns."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        text = statement.format(table=recorder.events_table_name, p="?")
        values = tuple(p.hex if isinstance(p, UUID) else p for p in params)
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.sqlite_cursor.row_factory = None
            cursor.execute(text, values)
            return list(cursor.fetchall()) if text.startswith("SELECT") else []
    from psycopg import sql

    query = sql.SQL(statement.format(table="{schema}.{table}", p="%s")).format(
        schema=sql.Identifier(recorder.datastore.schema),
        table=sql.Identifier(recorder.events_table_name))
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(query, params)
        return [tuple(row.values()) for row in cursor.fetchall()] if statement.startswith("SELECT") else []


@contextmanager
def paced_sqlite_inserts(pause: float, started: Callable[[], None]) -> Iterator[None]:
    """SQLite inserts made one row at a time, ``pause`` seconds after each (``started`` called as
    a save begins): the one transaction of a save stretched, for the test that kills a command
    inside it."""
    original = SQLiteEventRecorder._insert_events

    def paced(self: Any, cursor: Any, stored_events: Any, **kwargs: Any) -> None:
        started()
        for stored in stored_events:
            original(self, cursor, [stored], **kwargs)
            time.sleep(pause)

    setattr(SQLiteEventRecorder, "_insert_events", paced)  # noqa: B010 (a method swapped)
    try:
        yield
    finally:
        setattr(SQLiteEventRecorder, "_insert_events", original)  # noqa: B010
