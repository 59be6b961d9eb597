"""The list of stored games in one query: what ``minister games`` shows of a big club archive.

:func:`application.adapters.stores.list_games` asks the store for each game's last event in turn (one
round trip per game: ~1 s for 500 games on PostgreSQL). For the SQLite and PostgreSQL recorders
(minister's own mapper, no compression or encryption), :func:`list_games_at_once` selects every
game's first event with its last one in a single statement over the recorder's own table; any
other set-up returns None and the caller lists games the usual way. Same rows, same order (the
order the games were stored). On PostgreSQL the games are found by a walk of the primary key,
one index probe per game, so the time grows with the number of games, not of events.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any
from uuid import UUID

from application.adapters.eventstore import store_kind
from application.adapters.mapper import MsgspecMapper, decode_event
from application.adapters.stores import StoredGame, cell_bytes, listed_game
from domain.record.events import GameStarted

if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication

_LAST = "SELECT {col} FROM {table} e WHERE e.originator_id = s.originator_id " \
        "ORDER BY e.originator_version DESC LIMIT 1"


def _rows(app: MinisterApplication) -> list[tuple[str, str, bytes, str, bytes, int]] | None:
    """(originator id, first topic, first state, last topic, last state, last version) per game,
    or None where not possible."""
    mapper = app.mapper
    if not isinstance(mapper, MsgspecMapper) or mapper.cipher or mapper.compressor:
        return None
    recorder: Any = app.recorder
    # minister's own recorders (application.adapters.eventstore) subclass eventsourcing's.
    module = store_kind(recorder)
    if module == "eventsourcing.sqlite":
        table = recorder.events_table_name
        statement = (f"SELECT s.originator_id, s.topic, s.state, "
                     f"({_LAST.format(col='topic', table=table)}), "
                     f"({_LAST.format(col='state', table=table)}), "
                     f"({_LAST.format(col='originator_version', table=table)}) FROM {table} s "
                     "WHERE s.topic = ? ORDER BY s.rowid")
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.sqlite_cursor.row_factory = None
            cursor.execute(statement, (GameStarted.TOPIC,))
            # A cell edited in the file may hold text where bytes belong: kept as its bytes.
            return [(str(i), str(a), cell_bytes(b), str(c), cell_bytes(d), int(v))
                    for i, a, b, c, d, v in cursor.fetchall()]
    if module == "eventsourcing.postgres":
        from psycopg import sql

        # The games' ids by a walk of the primary key (one index probe per game) rather than a
        # scan of every event for the GameStarted topic (0.6 s at 768,000 events, growing with
        # the archive); each game's first event is its GameStarted (version 1).
        query = sql.SQL(
            "WITH RECURSIVE ids(id) AS ((SELECT originator_id FROM {0} ORDER BY originator_id LIMIT 1) "
            "UNION ALL SELECT (SELECT e.originator_id FROM {0} e WHERE e.originator_id > ids.id "
            "ORDER BY e.originator_id LIMIT 1) FROM ids WHERE ids.id IS NOT NULL) "
            "SELECT ids.id AS id, s.topic AS first_topic, s.state AS first_state, l.topic AS last_topic, "
            "l.state AS last_state, l.originator_version AS last_version FROM ids JOIN {0} s "
            "ON s.originator_id = ids.id AND s.originator_version = 1 CROSS JOIN LATERAL "
            "(SELECT topic, state, originator_version FROM {0} e "
            "WHERE e.originator_id = ids.id ORDER BY e.originator_version DESC LIMIT 1) l "
            "WHERE s.topic = %s ORDER BY s.notification_id").format(
            sql.Identifier(recorder.datastore.schema, recorder.events_table_name))
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(query, (GameStarted.TOPIC,))
            return [(str(row["id"]), row["first_topic"], bytes(row["first_state"]), row["last_topic"],
                     bytes(row["last_state"]), int(row["last_version"])) for row in cursor.fetchall()]
    return None


def list_games_at_once(app: MinisterApplication) -> list[StoredGame] | None:
    """Every stored game as :func:`application.adapters.stores.list_games` lists it, in one query
    (None when the store cannot be read that way); a game whose first or last row does not
    decode is listed as damaged."""
    rows = _rows(app)
    if rows is None:
        return None
    games = []
    for key, first_topic, first_state, last_topic, last_state, last_version in rows:
        games.append(listed_game(UUID(key), partial(decode_event, first_topic, first_state), first_state,
                                 partial(decode_event, last_topic, last_state), last_version))
    return games
