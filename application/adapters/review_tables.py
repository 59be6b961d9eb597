"""The stored review's tables, per store: game-level products and one row per reviewed battle.

Two tables beside the events (SQLite and PostgreSQL; dicts on the recorder for the in-memory
store), written together in one transaction:

- ``minister_reviews``: (game, kind) -> (version, chain head, engine version, data): the game-level
  rows (each history's part and findings, the opening part).
- ``minister_review_battles``: (game, history, position) -> (version, engine version, digest,
  view, json, text): one reviewed battle of one history, its msgpack view and its JSON and text
  report fragments. ``digest`` names what the row was made from (a hash of the battle's
  reviewed view, every input of its fragments), so a refresh rewrites only the rows whose
  battle changed (:mod:`application.usecases.review_model`).

A row never replaces one of a later version (concurrent writers cannot roll the read model
back); storing a game's review drops its products made by another engine (a review stored by an
earlier minister, whole, is rebuilt and its rows removed; battle rows of another engine are
rewritten, their digests being ignored); the game-level row of a history lists the digests of
its battle rows, so a reader that finds a row of another digest (an interleaved writer) treats
the review as stale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TABLE = "minister_reviews"
BATTLES = "minister_review_battles"
#: The columns of a battle row that hold a part (what readers ask for).
PARTS = ("view", "json", "text")
#: The parts stored compressed (zlib level 1); the JSON report's is stored as it is: ``replay
#: --json`` reads it for every battle, and on a 50,000-event game inflating it (~20 MB from ~7 MB)
#: took ~3x as long as reading it whole.
COMPRESSED = ("view", "text")


@dataclass(frozen=True)
class Head:
    """The last stored event of a game: what a stored review must have covered to be fresh."""

    version: int
    chain: str


@dataclass(frozen=True)
class BattleRow:
    """One reviewed battle as stored: its digest and its parts (in :data:`PARTS` order, those
    :data:`COMPRESSED` compressed)."""

    digest: bytes
    parts: tuple[bytes, bytes, bytes]


@dataclass(frozen=True)
class HistoryRows:
    """What a refresh writes of one history: how many battles it has and the rows that changed."""

    count: int
    rows: Mapping[int, BattleRow]


Row = tuple[int, str, str, bytes]


class Table:
    """Both tables of one store."""

    def get(self, game_id: str, kind: str) -> Row | None:
        """The product ``kind`` of a game: (version, chain head, engine version, data)."""
        raise NotImplementedError



    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes],
            battles: Mapping[str, HistoryRows]) -> None:
        """Products and battle rows, in one transaction."""
        raise NotImplementedError

    def digests(self, game_id: str, history: str, engine: str) -> dict[int, bytes]:
        """Position -> digest of the battle rows of a history made by ``engine``."""
        raise NotImplementedError

    def parts(self, game_id: str, history: str, part: str, limit: int | None) -> list[tuple[bytes, bytes]]:
        """(digest, part) of the first ``limit`` battle rows of a history (all: None), in order."""
        raise NotImplementedError

    def delete(self, game_id: str) -> None:
        """Every row of a game, in both tables."""
        raise NotImplementedError

    def everything(self, game_id: str) -> tuple[dict[str, bytes], dict[str, dict[int, BattleRow]]]:
        """Every product (kind -> data) and battle row (history -> position -> row) of a game."""
        raise NotImplementedError


class MemoryTable(Table):
    """The in-memory store's tables: dicts that live as long as their recorder."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], Row] = {}
        #: (game, history) -> position -> (version, engine, row)
        self.battles: dict[tuple[str, str], dict[int, tuple[int, str, BattleRow]]] = {}

    def get(self, game_id: str, kind: str) -> Row | None:
        return self.rows.get((game_id, kind))



    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes],
            battles: Mapping[str, HistoryRows]) -> None:
        for key in [key for key, row in self.rows.items() if key[0] == game_id and row[2] != engine]:
            del self.rows[key]  # made by another engine: never served again
        for kind, data in rows.items():
            old = self.rows.get((game_id, kind))
            if old is None or old[0] <= head.version:
                self.rows[(game_id, kind)] = (head.version, head.chain, engine, data)
        for history, written in battles.items():
            stored = self.battles.setdefault((game_id, history), {})
            for position, row in written.rows.items():
                was = stored.get(position)
                if was is None or was[0] <= head.version:
                    stored[position] = (head.version, engine, row)
            for position in [p for p, was in stored.items() if p >= written.count and was[0] <= head.version]:
                del stored[position]

    def digests(self, game_id: str, history: str, engine: str) -> dict[int, bytes]:
        stored = self.battles.get((game_id, history), {})
        return {position: row.digest for position, (_, made_by, row) in stored.items() if made_by == engine}

    def parts(self, game_id: str, history: str, part: str, limit: int | None) -> list[tuple[bytes, bytes]]:
        stored = self.battles.get((game_id, history), {})
        column = PARTS.index(part)
        positions = sorted(stored)[:limit]
        return [(stored[p][2].digest, stored[p][2].parts[column]) for p in positions]

    def everything(self, game_id: str) -> tuple[dict[str, bytes], dict[str, dict[int, BattleRow]]]:
        products = {kind: row[3] for (game, kind), row in self.rows.items() if game == game_id}
        battles = {history: {position: row for position, (_, _, row) in stored.items()}
                   for (game, history), stored in self.battles.items() if game == game_id}
        return products, battles

    def delete(self, game_id: str) -> None:
        for key in [key for key in self.rows if key[0] == game_id]:
            del self.rows[key]
        for key in [key for key in self.battles if key[0] == game_id]:
            del self.battles[key]


class SQLiteTable(Table):
    """The tables in the SQLite file, through the recorder's own datastore."""

    def __init__(self, recorder: Any) -> None:
        self.datastore = recorder.datastore
        self.created = False

    def _read(self, query: str, args: Sequence[Any]) -> list[Any]:
        import sqlite3

        with self.datastore.transaction(commit=False) as cursor:
            try:
                cursor.execute(query, args)
            except sqlite3.OperationalError as error:
                if "no such table" in str(error):
                    return []
                raise
            return list(cursor.fetchall())

    def get(self, game_id: str, kind: str) -> Row | None:
        found = self._read(f"SELECT version, head, engine, data FROM {TABLE} WHERE game_id=? AND kind=?",
                           (game_id, kind))
        if not found:
            return None
        row = found[0]
        return int(row[0]), str(row[1]), str(row[2]), bytes(row[3])



    def _create(self, cursor: Any) -> None:
        if not self.created:
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id TEXT NOT NULL, kind TEXT NOT "
                           "NULL, version INTEGER NOT NULL, head TEXT NOT NULL, engine TEXT NOT NULL, "
                           "data BLOB NOT NULL, PRIMARY KEY (game_id, kind))")
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {BATTLES} (game_id TEXT NOT NULL, history TEXT "
                           "NOT NULL, position INTEGER NOT NULL, version INTEGER NOT NULL, engine TEXT NOT "
                           "NULL, digest BLOB NOT NULL, view BLOB NOT NULL, json BLOB NOT NULL, text BLOB "
                           "NOT NULL, PRIMARY KEY (game_id, history, position))")
            self.created = True

    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes],
            battles: Mapping[str, HistoryRows]) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            # Rows made by another engine (an earlier minister's layout) are never served again.
            cursor.execute(f"DELETE FROM {TABLE} WHERE game_id=? AND engine<>?", (game_id, engine))
            for kind, data in rows.items():
                cursor.execute(
                    f"INSERT INTO {TABLE} (game_id, kind, version, head, engine, data) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                    "version=excluded.version, head=excluded.head, engine=excluded.engine, "
                    f"data=excluded.data WHERE excluded.version >= {TABLE}.version",
                    (game_id, kind, head.version, head.chain, engine, data))
            for history, written in battles.items():
                cursor.executemany(
                    f"INSERT INTO {BATTLES} (game_id, history, position, version, engine, digest, view, "
                    "json, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, history, "
                    "position) DO UPDATE SET version=excluded.version, engine=excluded.engine, "
                    "digest=excluded.digest, view=excluded.view, json=excluded.json, text=excluded.text "
                    f"WHERE excluded.version >= {BATTLES}.version",
                    [(game_id, history, position, head.version, engine, row.digest, *row.parts)
                     for position, row in written.rows.items()])
                cursor.execute(f"DELETE FROM {BATTLES} WHERE game_id=? AND history=? AND position>=? "
                               "AND version<=?", (game_id, history, written.count, head.version))

    def digests(self, game_id: str, history: str, engine: str) -> dict[int, bytes]:
        found = self._read(f"SELECT position, digest FROM {BATTLES} WHERE game_id=? AND history=? "
                           "AND engine=?", (game_id, history, engine))
        return {int(position): bytes(digest) for position, digest in found}

    def parts(self, game_id: str, history: str, part: str, limit: int | None) -> list[tuple[bytes, bytes]]:
        column = PARTS[PARTS.index(part)]  # one of the known columns, never the caller's text
        found = self._read(f"SELECT digest, {column} FROM {BATTLES} WHERE game_id=? AND history=? "
                           "ORDER BY position LIMIT ?", (game_id, history, -1 if limit is None else limit))
        return [(bytes(digest), bytes(data)) for digest, data in found]

    def everything(self, game_id: str) -> tuple[dict[str, bytes], dict[str, dict[int, BattleRow]]]:
        products = {str(kind): bytes(data) for kind, data in self._read(
            f"SELECT kind, data FROM {TABLE} WHERE game_id=?", (game_id,))}
        battles: dict[str, dict[int, BattleRow]] = {}
        query = f"SELECT history, position, digest, view, json, text FROM {BATTLES} WHERE game_id=?"
        for history, position, digest, view, json, text in self._read(query, (game_id,)):
            battles.setdefault(str(history), {})[int(position)] = BattleRow(
                bytes(digest), (bytes(view), bytes(json), bytes(text)))
        return products, battles

    def delete(self, game_id: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            cursor.execute(f"DELETE FROM {TABLE} WHERE game_id=?", (game_id,))
            cursor.execute(f"DELETE FROM {BATTLES} WHERE game_id=?", (game_id,))


class PostgresTable(Table):
    """The tables in the recorder's PostgreSQL schema, through its own connection pool."""

    def __init__(self, recorder: Any) -> None:
        from psycopg import sql

        self.datastore = recorder.datastore
        self.name = sql.Identifier(recorder.datastore.schema, TABLE)
        self.battles = sql.Identifier(recorder.datastore.schema, BATTLES)
        self.created = False

    def _read(self, query: Any, args: Sequence[Any]) -> list[Any]:
        import psycopg
        from eventsourcing.persistence import ProgrammingError

        try:
            with self.datastore.transaction(commit=False) as cursor:
                # Binary results: the rows' bytes as stored, not hex text decoded here (replay
                # --json of the 50,000-event generated game reads 20 MB: half its CPU).
                cursor.execute(query, args, prepare=True, binary=True)
                return list(cursor.fetchall())
        except ProgrammingError as error:  # eventsourcing wraps psycopg's errors
            if isinstance(error.__cause__, psycopg.errors.UndefinedTable):
                return []
            raise

    def get(self, game_id: str, kind: str) -> Row | None:
        from psycopg import sql

        found = self._read(sql.SQL("SELECT version, head, engine, data FROM {} WHERE game_id = %s AND "
                                   "kind = %s").format(self.name), (game_id, kind))
        if not found:
            return None
        row = found[0]
        return int(row["version"]), str(row["head"]), str(row["engine"]), bytes(row["data"])



    def _create(self, cursor: Any) -> None:
        from psycopg import sql

        if not self.created:
            cursor.execute(sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} (game_id TEXT NOT NULL, kind TEXT NOT NULL, version "
                "BIGINT NOT NULL, head TEXT NOT NULL, engine TEXT NOT NULL, data BYTEA NOT NULL, "
                "PRIMARY KEY (game_id, kind))").format(self.name))
            cursor.execute(sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} (game_id TEXT NOT NULL, history TEXT NOT NULL, position "
                "INTEGER NOT NULL, version BIGINT NOT NULL, engine TEXT NOT NULL, digest BYTEA NOT NULL, "
                "view BYTEA NOT NULL, json BYTEA NOT NULL, text BYTEA NOT NULL, "
                "PRIMARY KEY (game_id, history, position))").format(self.battles))
            self.created = True

    def put(self, game_id: str, head: Head, engine: str, rows: Mapping[str, bytes],
            battles: Mapping[str, HistoryRows]) -> None:
        from psycopg import sql

        product = sql.SQL(
            "INSERT INTO {0} (game_id, kind, version, head, engine, data) VALUES (%s, %s, %s, %s, "
            "%s, %s) ON CONFLICT (game_id, kind) DO UPDATE SET version = EXCLUDED.version, head = "
            "EXCLUDED.head, engine = EXCLUDED.engine, data = EXCLUDED.data WHERE EXCLUDED.version "
            ">= {0}.version").format(self.name)
        battle = sql.SQL(
            "INSERT INTO {0} (game_id, history, position, version, engine, digest, view, json, text) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (game_id, history, position) DO "
            "UPDATE SET version = EXCLUDED.version, engine = EXCLUDED.engine, digest = EXCLUDED.digest, "
            "view = EXCLUDED.view, json = EXCLUDED.json, text = EXCLUDED.text "
            "WHERE EXCLUDED.version >= {0}.version").format(self.battles)
        cut = sql.SQL("DELETE FROM {} WHERE game_id = %s AND history = %s AND position >= %s AND "
                      "version <= %s").format(self.battles)
        stale = sql.SQL("DELETE FROM {} WHERE game_id = %s AND engine <> %s").format(self.name)
        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            # Rows made by another engine (an earlier minister's layout) are never served again.
            cursor.execute(stale, (game_id, engine))
            for kind, data in rows.items():
                cursor.execute(product, (game_id, kind, head.version, head.chain, engine, data))
            for history, written in battles.items():
                if written.rows:
                    cursor.executemany(battle, [(game_id, history, position, head.version, engine,
                                                 row.digest, *row.parts)
                                                for position, row in written.rows.items()])
                cursor.execute(cut, (game_id, history, written.count, head.version))

    def digests(self, game_id: str, history: str, engine: str) -> dict[int, bytes]:
        from psycopg import sql

        found = self._read(sql.SQL("SELECT position, digest FROM {} WHERE game_id = %s AND history = %s "
                                   "AND engine = %s").format(self.battles), (game_id, history, engine))
        return {int(row["position"]): bytes(row["digest"]) for row in found}

    def parts(self, game_id: str, history: str, part: str, limit: int | None) -> list[tuple[bytes, bytes]]:
        from psycopg import sql

        column = sql.Identifier(PARTS[PARTS.index(part)])
        found = self._read(sql.SQL("SELECT digest, {} AS part FROM {} WHERE game_id = %s AND history = %s "
                                   "ORDER BY position LIMIT %s").format(column, self.battles),
                           (game_id, history, limit))
        return [(bytes(row["digest"]), bytes(row["part"])) for row in found]

    def everything(self, game_id: str) -> tuple[dict[str, bytes], dict[str, dict[int, BattleRow]]]:
        from psycopg import sql

        products = {str(row["kind"]): bytes(row["data"]) for row in self._read(
            sql.SQL("SELECT kind, data FROM {} WHERE game_id = %s").format(self.name), (game_id,))}
        battles: dict[str, dict[int, BattleRow]] = {}
        for row in self._read(sql.SQL("SELECT history, position, digest, view, json, text FROM {} WHERE "
                                      "game_id = %s").format(self.battles), (game_id,)):
            battles.setdefault(str(row["history"]), {})[int(row["position"])] = BattleRow(
                bytes(row["digest"]), (bytes(row["view"]), bytes(row["json"]), bytes(row["text"])))
        return products, battles

    def delete(self, game_id: str) -> None:
        from psycopg import sql

        with self.datastore.transaction(commit=True) as cursor:
            self._create(cursor)
            cursor.execute(sql.SQL("DELETE FROM {} WHERE game_id = %s").format(self.name), (game_id,))
            cursor.execute(sql.SQL("DELETE FROM {} WHERE game_id = %s").format(self.battles), (game_id,))
