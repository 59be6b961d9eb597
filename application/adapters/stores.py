"""Where games are stored: embedded SQLite by default, PostgreSQL for a club, memory for tests.

A store is named by a *spec*: the ``--store`` option, else the ``MINISTER_STORE`` environment
variable, else the SQLite file ``minister.sqlite3`` in the user's data directory (platformdirs:
``$XDG_DATA_HOME/minister`` on Linux, ``~/.local/share/minister`` without it), created on first
use. Specs::

    memory:                                      a fresh in-memory store (tests)
    sqlite:PATH   or   PATH.sqlite3 / .sqlite / .db   an SQLite file
    postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?schema=NAME]
    postgres:                                    PostgreSQL from POSTGRES_DBNAME, POSTGRES_HOST,
                                                 POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD

eventsourcing reads its settings from an environment; minister passes its own, with keys
prefixed ``MINISTER_`` so they win over anything in ``os.environ`` (eventsourcing looks up
``<APP NAME>_<KEY>`` before ``<KEY>``). The recorders and the PostgreSQL set-up (timeouts, tables
created once) are in :mod:`application.adapters.eventstore`. A password is never shown: messages
describe a store without it, also when its URL is malformed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

import msgspec

from application.adapters.app import MinisterApplication
from application.adapters.eventstore import StoreError, factory_settings, started_rows
from application.adapters.timetravel import event_time
from domain.errors import MinisterError
from domain.record.events import GameEvent, GameStarted

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
    """The default SQLite file under the user's data directory (platformdirs)."""
    import platformdirs  # only here: a command given its store (--store, $MINISTER_STORE) never loads it

    return Path(platformdirs.user_data_dir("minister", appauthor=False)) / "minister.sqlite3"


def hide_password(spec: str) -> str:
    """A store spec safe to print: any ``:password@`` of a URL replaced by ``:***@``."""
    return re.sub(r"(://[^/@:\s]*:)[^@\s]*@", r"\1***@", spec)


def parse_store_spec(spec: str | None) -> StoreSpec:
    """Read a store spec (None: ``MINISTER_STORE``, else the default SQLite file)."""
    if spec is None or not spec.strip():
        spec = os.environ.get(STORE_VARIABLE) or ""
    spec = spec.strip()
    if not spec:
        return _sqlite(default_store_path())
    if spec in ("memory", "memory:"):
        return StoreSpec("memory", factory_settings("memory"), "memory:")
    if spec.startswith("sqlite:"):
        path = spec.removeprefix("sqlite:").removeprefix("//")
        if not path:
            raise StoreSpecError(f"expected sqlite:PATH, found {spec!r}")
        return _sqlite(Path(path).expanduser())
    if spec.startswith(("postgresql://", "postgres://")):
        try:
            return _postgres_url(spec)
        except ValueError as error:  # urllib: a port that is no number or out of range
            raise StoreSpecError(f"expected postgresql://USER@HOST:PORT/DBNAME, found "
                                 f"{hide_password(spec)!r} ({error})") from None
    if spec in ("postgres:", "postgresql:"):
        return _postgres_env()
    if spec.lower().endswith(_SQLITE_SUFFIXES):
        return _sqlite(Path(spec).expanduser())
    raise StoreSpecError(
        f"expected a store: memory:, sqlite:PATH, a *.sqlite3 path, "
        f"postgresql://USER@HOST:PORT/DBNAME or postgres:, found {hide_password(spec)!r}")


def _sqlite(path: Path) -> StoreSpec:
    return StoreSpec("sqlite", {**factory_settings("sqlite"), "SQLITE_DBNAME": str(path)},
                     f"sqlite:{path}", path=path)


def _postgres_url(spec: str) -> StoreSpec:
    url = urlsplit(spec)
    dbname = unquote(url.path.lstrip("/"))
    if not url.hostname or not url.username or not dbname:
        raise StoreSpecError(f"expected postgresql://USER@HOST:PORT/DBNAME, found "
                             f"{hide_password(spec)!r}")
    schema = parse_qs(url.query).get("schema", [""])[0] or None
    settings = {**factory_settings("postgres"), "POSTGRES_DBNAME": dbname,
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
    settings = {**factory_settings("postgres"),
                "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", "")}
    for name in (*_POSTGRES_VARIABLES, "POSTGRES_PORT", "POSTGRES_SCHEMA"):
        if os.environ.get(name):
            settings[name] = os.environ[name]
    schema = settings.get("POSTGRES_SCHEMA")
    return StoreSpec("postgres", settings,
                     f"postgresql://{settings['POSTGRES_USER']}@{settings['POSTGRES_HOST']}:"
                     f"{settings.get('POSTGRES_PORT', '5432')}/{settings['POSTGRES_DBNAME']}",
                     schema=schema)


def open_store(spec: str | None = None) -> MinisterApplication:
    """The application over the store a spec names (see the module docs)."""
    parsed = parse_store_spec(spec)
    env = {f"MINISTER_{key}": value for key, value in parsed.settings.items()}
    try:
        if parsed.path is not None:
            parsed.path.parent.mkdir(parents=True, exist_ok=True)
        if parsed.kind != "postgres":
            return MinisterApplication(env=env)
        # One connection suffices for a command; a club server should not see a pool each.
        env.setdefault("MINISTER_POSTGRES_POOL_SIZE", os.environ.get("POSTGRES_POOL_SIZE", "1"))
        from application.adapters.postgres_store import postgres_tables

        with postgres_tables(parsed.settings) as create:
            env["MINISTER_CREATE_TABLE"] = "yes" if create else "no"
            return MinisterApplication(env=env)
    except StoreError as error:
        raise StoreError(f"the store {parsed.description}: {error}") from error
    except MinisterError:
        raise
    except Exception as error:  # OSError, sqlite3 and psycopg errors: say which store failed
        raise MinisterError(f"cannot open the store {parsed.description}: "
                            f"{hide_password(str(error))}") from error


@dataclass(frozen=True)
class StoredGame:
    """One line of ``minister games``."""

    game_id: str
    edition: str
    title: str | None
    events: int
    last_event_at: datetime | None
    #: Why the game cannot be opened, when a row read for the list does not decode (None: none).
    damaged: str | None = None


def listed_game(originator_id: UUID, first: Callable[[], object], raw_first: bytes,
                last: Callable[[], object], last_version: int) -> StoredGame:
    """A game's line from its first and last rows (each decoded by the callable given): a row
    that does not decode makes the line say the game is damaged, never stops the list."""
    try:
        started = first()
        if not isinstance(started, GameStarted):
            raise ValueError(f"a {type(started).__name__}, not GameStarted")
    except Exception as error:  # a row edited in the database may be any kind of garbage
        return StoredGame(_stated_id(raw_first) or str(originator_id), "?", None, last_version, None,
                          damaged=f"stored event 1 cannot be decoded ({_reason(error)})")
    try:
        ended = last()
        if not isinstance(ended, GameEvent):
            raise ValueError(f"a {type(ended).__name__}, not a game event")
    except Exception as error:
        return StoredGame(started.game_id, started.edition, started.title, last_version, None,
                          damaged=f"stored event {last_version} cannot be decoded ({_reason(error)})")
    return StoredGame(started.game_id, started.edition, started.title, last_version, event_time(ended))


def _reason(error: Exception) -> str:
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"[:200]


def _stated_id(state: bytes) -> str | None:
    """The game id a damaged first row still states, read leniently (None: it states none)."""
    try:
        tree = msgspec.msgpack.decode(state)
    except Exception:  # garbage, text: no id to show
        return None
    found = tree.get("game_id") if isinstance(tree, dict) else None
    return found if isinstance(found, str) else None


def list_games(app: MinisterApplication) -> list[StoredGame]:
    """Every stored game with its number of events and the time of its last event.

    A game whose first or last row cannot be decoded is still listed, marked damaged (``verify
    --integrity`` says what is wrong with it); the others are unaffected.
    """
    games = []
    for row in started_rows(app):
        last_rows: list[Any] = list(app.recorder.select_events(row.originator_id, desc=True, limit=1))
        ending: Any = last_rows[0] if last_rows else row
        games.append(listed_game(row.originator_id, partial(app.mapper.to_domain_event, row),
                                 cell_bytes(row.state), partial(app.mapper.to_domain_event, ending),
                                 int(ending.originator_version)))
    return games


def cell_bytes(cell: object) -> bytes:
    """A stored state cell as bytes (text, as a damaged SQLite file may hold, as its UTF-8)."""
    if isinstance(cell, str):
        return cell.encode("utf-8", "replace")
    return bytes(cell) if isinstance(cell, bytes | bytearray | memoryview) else b""
