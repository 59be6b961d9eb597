"""Reading a game's stored events fast: one SELECT of (topic, state) and msgspec decoding.

eventsourcing's ``EventStore.get`` builds a ``StoredEvent`` and parses the originator UUID for
every row before the mapper sees it; for a 10,000-event rebuild that costs more than decoding
the events themselves. For the SQLite and PostgreSQL recorders (and minister's own mapper,
without compression or encryption) this module selects the two columns it needs from the
recorder's own table through the recorder's own datastore and decodes them directly.
Any other set-up (the in-memory store, a cipher) goes through eventsourcing as usual.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec

from application.mapper import MsgspecMapper, decode_event
from domain.record.events import TOPICS, GameEvent

if TYPE_CHECKING:
    from eventsourcing.application import Application

#: A decoder per topic (as the mapper's), called straight from the loop that decodes rows.
_DECODERS: dict[str, msgspec.msgpack.Decoder[Any]] = {
    topic: msgspec.msgpack.Decoder(cls) for topic, cls in TOPICS.items()}


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
            # Plain tuples rather than the connection's sqlite3.Row: they are only unpacked.
            cursor.sqlite_cursor.row_factory = None
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
    return list(iter_events(app, originator_id, gt=gt, lte=lte, desc=desc, limit=limit))


def iter_events(app: Application[UUID], originator_id: UUID, *, gt: int | None = None,
                lte: int | None = None, desc: bool = False, limit: int | None = None,
                ) -> Iterator[GameEvent]:
    """The same events, each decoded when it is asked for.

    Folding them as they come lets each event go as soon as it is filed (a rebuild keeps
    only what the Game holds), instead of holding all of them until the fold ends.
    """
    rows = _rows(app, originator_id, gt, lte, desc, limit)
    if rows is None:
        found = app.events.get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        return (event for event in found if isinstance(event, GameEvent))
    decoders = _DECODERS
    # An unknown topic goes through decode_event, which names it in its error.
    return (decoders[topic].decode(state) if topic in decoders else decode_event(topic, state)
            for topic, state in rows)
