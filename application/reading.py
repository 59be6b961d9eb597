"""Reading a game's stored events fast: one SELECT of (topic, state) and msgspec decoding.

eventsourcing's ``EventStore.get`` builds a ``StoredEvent`` and parses the originator UUID for
every row before the mapper sees it; for a 10,000-event rebuild that costs more than decoding
the events themselves. For the SQLite and PostgreSQL recorders (and minister's own mapper,
without compression or encryption) this module selects the two columns it needs from the
recorder's own table through the recorder's own datastore and decodes them directly.
Any other set-up (the in-memory store, a cipher) goes through eventsourcing as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from application.mapper import MsgspecMapper, decode_event
from domain.events import GameEvent

if TYPE_CHECKING:
    from eventsourcing.application import Application


def _rows(app: Application[UUID], originator_id: UUID, gt: int | None, lte: int | None, desc: bool,
          limit: int | None) -> list[Any] | None:
    """(topic, state) rows straight from the store, or None where that is not possible."""
    mapper = app.mapper
    if not isinstance(mapper, MsgspecMapper) or mapper.cipher or mapper.compressor:
        return None
    recorder: Any = app.recorder
    module = type(recorder).__module__
    clauses = []
    if module == "eventsourcing.sqlite":
        params: list[Any] = [originator_id.hex]
        for op, value in ((">", gt), ("<=", lte)):
            if value is not None:
                clauses.append(f" AND originator_version{op}?")
                params.append(value)
        order = " ORDER BY originator_version " + ("DESC" if desc else "ASC")
        if limit is not None:
            order += " LIMIT ?"
            params.append(limit)
        statement = (f"SELECT topic, state FROM {recorder.events_table_name} WHERE originator_id=?"
                     + "".join(clauses) + order)
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            return list(cursor.fetchall())
    if module == "eventsourcing.postgres":
        from psycopg import sql

        params = [originator_id]
        for op, value in ((">", gt), ("<=", lte)):
            if value is not None:
                clauses.append(f" AND originator_version{op}%s")
                params.append(value)
        tail = " ORDER BY originator_version " + ("DESC" if desc else "ASC")
        if limit is not None:
            tail += " LIMIT %s"
            params.append(limit)
        query = sql.SQL("SELECT topic, state FROM {}.{} WHERE originator_id = %s"
                        + "".join(clauses) + tail).format(
            sql.Identifier(recorder.datastore.schema), sql.Identifier(recorder.events_table_name))
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(query, params, prepare=True)
            return [(row["topic"], row["state"]) for row in cursor.fetchall()]
    return None


def read_events(app: Application[UUID], originator_id: UUID, *, gt: int | None = None,
                lte: int | None = None, desc: bool = False, limit: int | None = None) -> list[GameEvent]:
    """A game's stored events between versions ``gt`` (exclusive) and ``lte`` (inclusive)."""
    rows = _rows(app, originator_id, gt, lte, desc, limit)
    if rows is None:
        found = app.events.get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        return [event for event in found if isinstance(event, GameEvent)]
    return [decode_event(topic, bytes(state)) for topic, state in rows]
