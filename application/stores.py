"""Where games are stored: embedded SQLite by default, PostgreSQL for a club, memory for tests.

A store is named by a *spec*: the ``--store`` option, else the ``MINISTER_STORE`` environment
variable, else the SQLite file ``$XDG_DATA_HOME/minister/minister.sqlite3`` (``XDG_DATA_HOME``
defaults to ``~/.local/share``), created on first use. Specs::

    memory:                                      a fresh in-memory store (tests)
    sqlite:PATH   or   PATH.sqlite3 / .sqlite / .db   an SQLite file
    postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?schema=NAME]
    postgres:                                    PostgreSQL from POSTGRES_DBNAME, POSTGRES_HOST,
                                                 POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD

eventsourcing reads its settings from an environment; minister passes its own, with keys
prefixed ``MINISTER_`` so they win over anything in ``os.environ`` (eventsourcing looks up
``<APP NAME>_<KEY>`` before ``<KEY>``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from application.app import MinisterApplication
from application.timetravel import event_time
from domain.errors import MinisterError
from domain.record.events import GameStarted

STORE_VARIABLE = "MINISTER_STORE"
_SQLITE_SUFFIXES = (".sqlite", ".sqlite3", ".db")
_POSTGRES_VARIABLES = ("POSTGRES_DBNAME", "POSTGRES_HOST", "POSTGRES_USER")


class StoreSpecError(MinisterError):
    """A store spec that names no kind of store minister knows."""


@dataclass(frozen=True)
class StoreSpec:
    """A parsed store spec: its kind, eventsourcing settings and a description for messages."""

    kind: str
    settings: dict[str, str]
    description: str
    path: Path | None = None
    schema: str | None = None


def default_store_path() -> Path:
    """The default SQLite file under the user's data directory."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "minister" / "minister.sqlite3"


def parse_store_spec(spec: str | None) -> StoreSpec:
    """Read a store spec (None: ``MINISTER_STORE``, else the default SQLite file)."""
    if spec is None or not spec.strip():
        spec = os.environ.get(STORE_VARIABLE) or ""
    spec = spec.strip()
    if not spec:
        return _sqlite(default_store_path())
    if spec in ("memory", "memory:"):
        return StoreSpec("memory", {"PERSISTENCE_MODULE": "eventsourcing.popo"}, "memory:")
    if spec.startswith("sqlite:"):
        path = spec.removeprefix("sqlite:").removeprefix("//")
        if not path:
            raise StoreSpecError(f"expected sqlite:PATH, found {spec!r}")
        return _sqlite(Path(path).expanduser())
    if spec.startswith(("postgresql://", "postgres://")):
        return _postgres_url(spec)
    if spec in ("postgres:", "postgresql:"):
        return _postgres_env()
    if spec.lower().endswith(_SQLITE_SUFFIXES):
        return _sqlite(Path(spec).expanduser())
    raise StoreSpecError(
        f"expected a store: memory:, sqlite:PATH, a *.sqlite3 path, "
        f"postgresql://USER@HOST:PORT/DBNAME or postgres:, found {spec!r}")


def _sqlite(path: Path) -> StoreSpec:
    return StoreSpec("sqlite", {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                "SQLITE_DBNAME": str(path)}, f"sqlite:{path}", path=path)


def _postgres_url(spec: str) -> StoreSpec:
    url = urlsplit(spec)
    dbname = unquote(url.path.lstrip("/"))
    if not url.hostname or not url.username or not dbname:
        raise StoreSpecError(f"expected postgresql://USER@HOST:PORT/DBNAME, found {spec!r}")
    schema = parse_qs(url.query).get("schema", [""])[0] or None
    settings = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
                "POSTGRES_HOST": url.hostname, "POSTGRES_PORT": str(url.port or 5432),
                "POSTGRES_USER": unquote(url.username),
                "POSTGRES_PASSWORD": unquote(url.password or "")}
    if schema:
        settings["POSTGRES_SCHEMA"] = schema
    shown = f"postgresql://{url.username}@{url.hostname}:{url.port or 5432}/{dbname}"
    return StoreSpec("postgres", settings, shown + (f"?schema={schema}" if schema else ""),
                     schema=schema)


def _postgres_env() -> StoreSpec:
    missing = [name for name in _POSTGRES_VARIABLES if not os.environ.get(name)]
    if missing:
        raise StoreSpecError(f"postgres: needs the environment variables {', '.join(missing)}")
    settings = {"PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", "")}
    for name in (*_POSTGRES_VARIABLES, "POSTGRES_PORT", "POSTGRES_SCHEMA"):
        if os.environ.get(name):
            settings[name] = os.environ[name]
    schema = settings.get("POSTGRES_SCHEMA")
    return StoreSpec("postgres", settings,
                     f"postgresql://{settings['POSTGRES_USER']}@{settings['POSTGRES_HOST']}:"
                     f"{settings.get('POSTGRES_PORT', '5432')}/{settings['POSTGRES_DBNAME']}",
                     schema=schema)


def _ensure_schema(settings: dict[str, str], schema: str) -> None:
    """Create a PostgreSQL schema (eventsourcing creates tables, not schemas)."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(dbname=settings["POSTGRES_DBNAME"], host=settings["POSTGRES_HOST"],
                         port=settings.get("POSTGRES_PORT", "5432"), user=settings["POSTGRES_USER"],
                         password=settings.get("POSTGRES_PASSWORD", ""), autocommit=True,
                         connect_timeout=10) as connection:
        connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))


def open_store(spec: str | None = None) -> MinisterApplication:
    """The application over the store a spec names (see the module docs)."""
    parsed = parse_store_spec(spec)
    env = {f"MINISTER_{key}": value for key, value in parsed.settings.items()}
    try:
        if parsed.path is not None:
            parsed.path.parent.mkdir(parents=True, exist_ok=True)
        if parsed.kind == "postgres":
            # One connection suffices for a command; a club server should not see a pool each.
            env.setdefault("MINISTER_POSTGRES_POOL_SIZE", os.environ.get("POSTGRES_POOL_SIZE", "1"))
            if parsed.schema:
                _ensure_schema(parsed.settings, parsed.schema)
        return MinisterApplication(env=env)
    except MinisterError:
        raise
    except Exception as error:  # OSError, sqlite3 and psycopg errors: say which store failed
        raise MinisterError(f"cannot open the store {parsed.description}: {error}") from error


@dataclass(frozen=True)
class StoredGame:
    """One line of ``minister games``."""

    game_id: str
    edition: str
    title: str | None
    events: int
    last_event_at: datetime | None


def _started(app: MinisterApplication) -> Iterator[GameStarted]:
    """Every GameStarted in the store, in the order the games were stored."""
    start: int | None = None
    while True:
        page: Any = app.recorder.select_notifications(start, 500, topics=[GameStarted.TOPIC],
                                                      inclusive_of_start=False)
        if not page:
            return
        for notification in page:
            event = app.mapper.to_domain_event(notification)
            if isinstance(event, GameStarted):
                yield event
        start = page[-1].id


def list_games(app: MinisterApplication) -> list[StoredGame]:
    """Every stored game with its number of events and the time of its last event."""
    games = []
    for started in _started(app):
        last: list[Any] = list(app.events.get(started.originator_id, desc=True, limit=1))
        games.append(StoredGame(started.game_id, started.edition, started.title,
                                int(last[0].originator_version) if last else 0,
                                event_time(last[0]) if last else None))
    return games
