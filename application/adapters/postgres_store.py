"""minister's PostgreSQL recorders and set-up, imported only when a PostgreSQL store is opened.

Split from :mod:`application.adapters.eventstore` (which names this module in its
``PERSISTENCE_MODULE`` setting): importing psycopg and eventsourcing's PostgreSQL module costs a
third of a command's start-up, which a command on an SQLite store never needs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresFactory

from application.adapters.eventstore import (
    EVENTS_TABLE,
    SNAPSHOTS_TABLE,
    StoreError,
    connection_options,
    explain,
    explained,
    translated,
    versions_where,
)


@explained("select_events", "create_table", "select_notifications")
class PostgresEventRecorder(PostgresApplicationRecorder):
    """eventsourcing's PostgreSQL recorder without psycopg's pipeline mode for inserts.

    eventsourcing 9.5.6 sends ``LOCK TABLE``, ``NOTIFY`` and one ``INSERT ... unnest(array)``
    of all the events in a psycopg pipeline, then waits in ``pipeline.sync()``. With a large
    insert (10,000+ events: megabytes in one message) that wait never ends in most runs, with
    psycopg's pure-Python and its C build alike: the server sits idle in ``ClientRead`` while the
    client waits for results of a message it has not finished sending (psycopg issue 685), and
    the client holds the table's EXCLUSIVE lock the whole time. The same statements sent one by
    one in a transaction cost three round trips and cannot deadlock.
    """

    @translated
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Lock, notify and insert in one transaction, each statement waited for in turn.

        The rows go as four arrays of plain values (uuid, bigint, text, bytea), which psycopg's
        C build adapts in ~2 s for 50,000 events: eventsourcing's array of composite values is
        adapted row by row in Python (~10 s on a busy machine), all of it inside the
        transaction, holding the table lock (and past eventsourcing's 5 s idle-in-transaction
        timeout, which then drops the connection: see :func:`factory_settings`).
        """
        if not stored_events:
            return None
        columns = ([e.originator_id for e in stored_events],
                   [e.originator_version for e in stored_events],
                   [e.topic for e in stored_events], [e.state for e in stored_events])
        statement = self._insert_arrays()
        with self.datastore.get_connection() as conn, conn.cursor() as curs, conn.transaction():
            self._lock_table(curs)
            self._notify_channel(curs)
            curs.execute(statement, columns)
            return [row["notification_id"] for row in curs.fetchall()]

    def _insert_arrays(self) -> Any:
        from psycopg import sql

        return sql.SQL("INSERT INTO {}.{} (originator_id, originator_version, topic, state) "
                       "SELECT * FROM unnest(%s::uuid[], %s::bigint[], %s::text[], %s::bytea[]) "
                       "RETURNING notification_id").format(
            sql.Identifier(self.datastore.schema), sql.Identifier(self.events_table_name))

    @translated
    def select_states(self, originator_id: UUID, gt: int | None, lte: int | None, desc: bool,
                      limit: int | None) -> list[tuple[str, bytes]]:
        """(topic, state) of a game's events, straight from the table (no StoredEvent per row)."""
        from psycopg import sql

        where, params = versions_where("%s", originator_id, gt, lte, desc, limit)
        query = sql.SQL("SELECT topic, state FROM {}.{}" + where).format(
            sql.Identifier(self.datastore.schema), sql.Identifier(self.events_table_name))
        with self.datastore.transaction(commit=False) as cursor:
            # Binary results: the states as stored, not as hex text decoded here (the 50,000-event
            # generated game's 32 MB: ~0.1 s of CPU less, half the bytes on the wire).
            cursor.execute(query, params, prepare=True, binary=True)
            return [(row["topic"], bytes(row["state"])) for row in cursor.fetchall()]


@explained("insert_events", "select_events", "create_table")
class PostgresSnapshotRecorder(PostgresAggregateRecorder):
    """eventsourcing's PostgreSQL snapshot recorder, its errors explained."""



class PostgresStoreFactory(PostgresFactory):
    """``PERSISTENCE_MODULE`` for minister's PostgreSQL stores: timeouts on every connection."""

    aggregate_recorder_class = PostgresSnapshotRecorder
    application_recorder_class = PostgresEventRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        # libpq's "options": every statement of every pooled connection is bounded, so no
        # command waits for ever behind another's lock (the pool has not connected yet).
        kwargs: Any = self.datastore.pool.kwargs
        kwargs["options"] = connection_options()


@contextmanager
def postgres_tables(settings: dict[str, str]) -> Iterator[bool]:
    """Whether the application must create its tables; while it does, others wait.

    Checking costs one query; on a fresh database the first command takes an advisory lock,
    creates the schema, and (after the ``with`` body built the application with table creation
    on) releases it; commands started at the same moment wait for it and then find the tables
    (eventsourcing's own ``CREATE ... IF NOT EXISTS`` races and fails with a duplicate key).
    """
    import psycopg
    from psycopg import sql

    schema = settings.get("POSTGRES_SCHEMA") or "public"
    try:
        connection = psycopg.connect(
            dbname=settings["POSTGRES_DBNAME"], host=settings["POSTGRES_HOST"],
            port=settings.get("POSTGRES_PORT", "5432"), user=settings["POSTGRES_USER"],
            password=settings.get("POSTGRES_PASSWORD", ""), autocommit=True, connect_timeout=10,
            options=connection_options())
    except psycopg.Error as error:
        raise StoreError(f"cannot connect: {str(error).strip().splitlines()[0]}") from None
    with connection:
        try:
            if _tables_exist(connection, schema):
                yield False
                return
            connection.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"minister:{schema}",))
            connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        except psycopg.Error as error:
            raise StoreError(explain(error)) from None
        yield not _tables_exist(connection, schema)
        connection.execute("SELECT pg_advisory_unlock(hashtext(%s))", (f"minister:{schema}",))


def _tables_exist(connection: Any, schema: str) -> bool:
    from psycopg import sql

    names = [sql.Identifier(schema, name).as_string(connection) for name in
             (EVENTS_TABLE, SNAPSHOTS_TABLE, f"{EVENTS_TABLE}_notification_id_idx")]
    row = connection.execute("SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL "
                             "AND to_regclass(%s) IS NOT NULL", names).fetchone()
    return bool(row and row[0])
