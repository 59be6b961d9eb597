"""The reviewed game kept in the store beside its events: a read model, rebuilt when stale.

Reviewing a big game takes seconds; opening it should not. What a review produces (the two
histories, the reports the commands print) is stored as *products*: opaque bytes, one row per
game and kind, in a table beside the events (``minister_reviews``: SQLite and PostgreSQL;
a dict on the recorder for the in-memory store). Each row is written with

- the game's version and hash-chain head when it was made (the events it covers: an event
  appended or edited afterwards makes the row stale), and
- :func:`engine_version`: a digest of the code that makes the rows (``domain/``,
  ``projections/`` and the modules that cut and store them), so a new engine, report or row
  layout never serves an old review.

A stale row is never served: the reader gets ``None`` and reviews afresh (and may store the
result); so is a row that does not inflate (edited in the database), never a traceback.
Rows are written with their version, and a row never replaces one of a later version, so
concurrent writers cannot roll the read model back. Products are compressed (zlib level 1:
fast, and a 50,000-event game's JSON report shrinks ~20×), and so are the battle rows' parts but
their JSON (:data:`~application.adapters.review_tables.COMPRESSED` says why).

This is minister's own projection rather than eventsourcing's ``ProjectionRunner``: a review is
per game and per engine, rebuilt on demand, not a position in the application's notification
log (a ``TrackingRecorder`` tracks one position for all games). It shares the application's
recorder datastore (same file or server, same schema).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

from application.adapters.eventstore import read_events, store_kind
from application.adapters.review_tables import (
    COMPRESSED,
    PARTS,
    Head,
    HistoryRows,
    MemoryTable,
    PostgresTable,
    SQLiteTable,
    Table,
)
from domain.record.events import game_uuid

if TYPE_CHECKING:
    from eventsourcing.application import Application

#: What makes the stored rows, digested into :func:`engine_version`: the packages whose code makes
#: the reviewed views and the reports, and the modules that cut them into rows and store them.
_PRODUCERS = ("domain", "projections")
_ROW_MODULES = ("application/usecases/review_model.py", "application/adapters/review_store.py",
                "application/adapters/review_tables.py")
#: The producers' files digested (the compiled board data too: the engine reads it).
_SOURCES = (".py", ".toml", ".json")
#: Where the engine version is kept beside the code, with the files' sizes and times it was read from.
_VERSION_CACHE = Path("domain") / "__pycache__" / "minister-engine-version"


def _sources(root: Path) -> list[tuple[str, str]]:
    """Every producing file: (its path from the root, its path on disk), in path order."""
    found = []
    for package in _PRODUCERS:
        for folder, folders, files in os.walk(root / package):
            folders[:] = [name for name in folders if name != "__pycache__"]
            found += [(Path(folder, name).relative_to(root).as_posix(), os.path.join(folder, name))
                      for name in files if name.endswith(_SOURCES)]
    found += [(name, str(root / name)) for name in _ROW_MODULES]
    return sorted(found)


@cache
def engine_version() -> str:
    """A digest of the code that makes the stored rows: what a stored row was made by. Any
    change to it (the engine, the reports, the rows' layout) makes every stored review stale;
    nothing is bumped by hand.

    Reading every file is ~10 ms, paid by every desk command's refresh: the version is kept in
    ``domain/__pycache__`` with the files' sizes and modification times, and read again only when
    one of them changed (the rule Python's own bytecode cache goes by)."""
    return version_of(Path(__file__).resolve().parents[2])


def version_of(root: Path) -> str:
    """:func:`engine_version` of the code under ``root`` (not kept in this process)."""
    sources = _sources(root)
    signature = hashlib.sha256()
    for name, path in sources:
        status = os.stat(path)
        signature.update(f"{name}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    kept = root / _VERSION_CACHE
    try:
        cached = kept.read_text(encoding="ascii").split()
        if len(cached) == 2 and cached[0] == signature.hexdigest():
            return cached[1]
    except (OSError, ValueError):
        pass
    digest = hashlib.sha256()
    for name, path in sources:
        digest.update(name.encode())
        digest.update(Path(path).read_bytes())
    version = digest.hexdigest()[:24]
    try:  # a read-only installation reads the files each time instead
        kept.parent.mkdir(exist_ok=True)
        temporary = kept.with_name(f"{kept.name}.{os.getpid()}")
        temporary.write_text(f"{signature.hexdigest()} {version}\n", encoding="ascii")
        os.replace(temporary, kept)
    except OSError:
        pass
    return version


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
    if version != head.version or chain != head.chain or engine != engine_version():
        return None
    return _inflate(data)


def load_latest(app: Application[UUID], game_id: str, kind: str) -> bytes | None:
    """The stored product ``kind`` of a game made by this engine, whatever events it covers
    (None: none): never shown as it is, only read for what a refresh can reuse of it."""
    row = _table(app).get(game_id, kind)
    if row is None or row[2] != engine_version():
        return None
    return _inflate(row[3])


#: The most a stored row inflates to (a 50,000-event game's biggest row is tens of MB): a row
#: edited into a decompression bomb is refused as stale, not inflated into memory.
MAX_ROW_BYTES = 1 << 30


def _inflate(data: bytes) -> bytes | None:
    """A stored row uncompressed; None when it is not zlib data or inflates past the cap."""
    try:
        inflater = zlib.decompressobj()
        found = inflater.decompress(data, MAX_ROW_BYTES)
        if inflater.unconsumed_tail or not inflater.eof:
            return None
        return found
    except zlib.error:
        return None


def save(app: Application[UUID], game_id: str, head: Head, products: Mapping[str, bytes],
         battles: Mapping[str, HistoryRows] | None = None) -> None:
    """Store a game's game-level rows (``products``: kind -> bytes, compressed here) and the
    battle rows of each history that changed (``battles``: history -> its battle count and the
    rows to write, their :data:`~application.adapters.review_tables.COMPRESSED` parts compressed
    by the caller as it makes them: zlib level 1), as made
    from its events up to ``head``, in one transaction."""
    rows = {kind: zlib.compress(data, 1) for kind, data in products.items()}
    _table(app).put(game_id, head, engine_version(), rows, dict(battles or {}))


def battle_digests(app: Application[UUID], game_id: str, history: str) -> dict[int, bytes]:
    """Position -> digest of each stored battle row of a history made by this engine (what a
    refresh compares its battles with, to write only those that changed)."""
    return _table(app).digests(game_id, history, engine_version())


def load_parts(app: Application[UUID], game_id: str, history: str, part: str,
               digests: list[bytes]) -> list[bytes] | None:
    """One part (``view``, ``json`` or ``text``) of the first ``len(digests)`` battle rows of a
    history, in order, if each row has the digest listed (the stored history's own list: a row
    of an interleaved writer makes the whole stale); None otherwise."""
    if part not in PARTS:
        raise ValueError(f"a battle row has no part {part!r} (one of {', '.join(PARTS)})")
    found = _table(app).parts(game_id, history, part, len(digests))
    if len(found) != len(digests):
        return None
    if any(digest != want for (digest, _), want in zip(found, digests, strict=True)):
        return None
    parts = [_inflate(data) for _, data in found] if part in COMPRESSED else [data for _, data in found]
    return None if any(part is None for part in parts) else [part for part in parts if part is not None]


def copy_of(app: Application[UUID], game_id: str) -> tuple[dict[str, bytes], dict[str, HistoryRows]]:
    """Every stored row of a game's review as :func:`save` takes them (the game-level rows
    uncompressed, the battle rows as stored): what a benchmark stores again under another id."""
    products, battles = _table(app).everything(game_id)
    return ({kind: zlib.decompress(data) for kind, data in products.items()},
            {history: HistoryRows(len(rows), rows) for history, rows in battles.items()})


def forget(app: Application[UUID], game_id: str) -> None:
    """Drop every stored product of a game (it is rebuilt on its next use)."""
    _table(app).delete(game_id)


def _table(app: Application[UUID]) -> Table:
    """The products table of the application's store (one object per recorder)."""
    recorder: Any = app.recorder
    table: Table | None = getattr(recorder, "_minister_reviews", None)
    if table is None:
        # minister's own recorders (application.adapters.eventstore) subclass eventsourcing's.
        module = store_kind(recorder)
        if module == "eventsourcing.sqlite":
            table = SQLiteTable(recorder)
        elif module == "eventsourcing.postgres":
            table = PostgresTable(recorder)
        else:
            table = MemoryTable()
        recorder._minister_reviews = table
    return table
