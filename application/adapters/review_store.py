"""The reviewed game kept in the store beside its events: a read model, rebuilt when stale.

Reviewing a big game takes seconds; opening it should not. What a review produces (the two
histories, the reports the commands print) is stored as *products*: opaque bytes, one row per
game and kind, in a table beside the events (``minister_reviews``: SQLite and PostgreSQL;
a dict on the recorder for the in-memory store). Each row is stamped with

- the game's version and hash-chain head when it was made (the events it covers: an event
  appended or edited afterwards makes the row stale), and
- :func:`engine_stamp`: :data:`REVIEW_VERSION` and a digest of the code that makes the
  products (``domain/`` and ``projections/``), so a new engine or report never serves an old
  review.

A stale row is never served: the reader gets ``None`` and reviews afresh (and may store the
result). Rows are written with their version, and a row never replaces one of a later version,
so concurrent writers cannot roll the read model back. Products are compressed (zlib level 1:
fast, and a 50,000-event game's JSON report shrinks ~20×).

This is minister's own projection rather than eventsourcing's ``ProjectionRunner``: a review is
per game and per engine, rebuilt on demand, not a position in the application's notification
log (a ``TrackingRecorder`` tracks one position for all games). It shares the application's
recorder datastore (same file or server, same schema).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

from application.adapters.eventstore import read_events, store_kind
from application.adapters.review_tables import (
    PARTS,
    BattleRow,
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

#: Bump when the review's or the reports' results change without a change to the code digested
#: by :func:`engine_stamp` (data files, a dependency's behaviour): every stored review is then
#: rebuilt on its next use. Changes to ``domain/`` or ``projections/`` code need no bump.
#: 2: the reviewed battles stored one row each (``minister_review_battles``): a review stored
#: whole by an earlier minister is rebuilt on its next use.
REVIEW_VERSION = 2
#: The packages whose code makes the products (their sources are digested into the stamp).
_PRODUCERS = ("domain", "projections")


#: The producers' files digested (the compiled board data too: the engine reads it).
_SOURCES = (".py", ".toml", ".json")
#: Where the stamp is kept beside the code, with the files' sizes and times it was read from.
_STAMP_CACHE = Path("domain") / "__pycache__" / "minister-engine-stamp"


def _sources(root: Path) -> list[tuple[str, str]]:
    """Every producing file: (its path from the root, its path on disk), in path order."""
    found = []
    for package in _PRODUCERS:
        for folder, folders, files in os.walk(root / package):
            folders[:] = [name for name in folders if name != "__pycache__"]
            found += [(Path(folder, name).relative_to(root).as_posix(), os.path.join(folder, name))
                      for name in files if name.endswith(_SOURCES)]
    return sorted(found)


@cache
def engine_stamp() -> str:
    """``REVIEW_VERSION`` and a digest of the producing code: what a stored product was made by.

    Reading every file is ~10 ms, paid by every desk command's refresh: the stamp is kept in
    ``domain/__pycache__`` with the files' sizes and modification times, and read again only when
    one of them changed (the rule Python's own bytecode cache goes by)."""
    return stamp_of(Path(__file__).resolve().parents[2])


def stamp_of(root: Path) -> str:
    """:func:`engine_stamp` of the code under ``root`` (not kept in this process)."""
    sources = _sources(root)
    signature = hashlib.sha256()
    for name, path in sources:
        status = os.stat(path)
        signature.update(f"{name}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    kept = root / _STAMP_CACHE
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
    stamp = f"{REVIEW_VERSION}:{digest.hexdigest()[:16]}"
    try:  # a read-only installation reads the files each time instead
        kept.parent.mkdir(exist_ok=True)
        temporary = kept.with_name(f"{kept.name}.{os.getpid()}")
        temporary.write_text(f"{signature.hexdigest()} {stamp}\n", encoding="ascii")
        os.replace(temporary, kept)
    except OSError:
        pass
    return stamp


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
    if version != head.version or chain != head.chain or engine != engine_stamp():
        return None
    return zlib.decompress(data)


def load_latest(app: Application[UUID], game_id: str, kind: str) -> bytes | None:
    """The stored product ``kind`` of a game made by this engine, whatever events it covers
    (None: none): never shown as it is, only read for what a refresh can reuse of it."""
    row = _table(app).get(game_id, kind)
    if row is None or row[2] != engine_stamp():
        return None
    return zlib.decompress(row[3])


#: The most chunks a product kept in chunks has (the first written whole, then appended ones).
MAX_CHUNKS = 16
#: A chunk row's header: its own id and the id of the chunk it follows (zeros for the first).
_ID_SIZE = 16


def chunk_kinds(kind: str) -> tuple[str, ...]:
    """The rows a product kept in chunks is stored in: ``kind``, then ``kind.1`` ...
    (see :func:`load_chunks`)."""
    return (kind, *(f"{kind}.{index}" for index in range(1, MAX_CHUNKS)))


@dataclass(frozen=True)
class Chunks:
    """A product kept in chunks as stored: the head the last chunk covers, the chunks' data in
    order, and the last chunk's id (what a chunk appended next names as the one it follows)."""

    head: Head
    data: list[bytes]
    last_id: bytes


@dataclass(frozen=True)
class ChunkWrite:
    """What a refresh writes of a product kept in chunks: ``data`` as chunk number ``index``
    (0: the product written whole, its other chunks dropped), following ``after`` (the id of
    chunk ``index - 1`` as read: :attr:`Chunks.last_id`)."""

    index: int
    data: bytes
    after: bytes = bytes(_ID_SIZE)


def load_chunks(app: Application[UUID], game_id: str, kind: str, head: Head) -> Chunks | None:
    """A product kept in chunks (the review memo: a desk command appends what its refresh added
    instead of writing megabytes again): made by this engine from the game's events up to ``head``
    or an earlier version of the same history (what stays valid as events are added, never a
    product shown as it is).

    Each chunk row names the chunk it follows: the chunks read are the first row and those that
    follow it unbroken (a row left by an interleaved or stale writer ends them), and the last
    one's version and hash-chain link must be the history's. None when nothing can be used."""
    rows = _table(app).get_many(game_id, chunk_kinds(kind))
    chain: list[tuple[int, str, bytes]] = []
    last_id = bytes(_ID_SIZE)
    for name in chunk_kinds(kind):
        row = rows.get(name)
        if row is None:
            break
        version, link, engine, data = row
        if engine != engine_stamp() or version > head.version or data[_ID_SIZE:2 * _ID_SIZE] != last_id \
                or (chain and version < chain[-1][0]):
            break
        last_id = data[:_ID_SIZE]
        chain.append((version, link, data))
    if not chain:
        return None
    version, link, _ = chain[-1]
    if not _same_history(app, game_id, Head(version, link), head):
        return None
    return Chunks(Head(version, link), [data[2 * _ID_SIZE:] for _, _, data in chain], last_id)


def _same_history(app: Application[UUID], game_id: str, covered: Head, head: Head) -> bool:
    """Whether what covers the events up to ``covered`` covers a part of the history ``head``
    ends (its hash-chain link at that version unchanged)."""
    if covered.version != head.version:
        at = read_events(app, game_uuid(game_id), gt=covered.version - 1, lte=covered.version)
        return len(at) == 1 and (at[0].chain or "") == covered.chain
    return covered.chain == head.chain


def save(app: Application[UUID], game_id: str, head: Head, products: Mapping[str, bytes],
         battles: Mapping[str, HistoryRows] | None = None, packed: frozenset[str] = frozenset(),
         chunks: Mapping[str, ChunkWrite] | None = None, drop: Sequence[str] = ()) -> None:
    """Store a game's products, and the battle rows of each history that changed (``battles``:
    history -> its battle count and the rows to write, parts not yet compressed), as made from
    its events up to ``head`` (one transaction). ``packed``: products stored as they are given
    (the memo, whose parts are compressed one by one: a zlib wrapper around its megabytes would
    cost more to make and undo than the rest of a desk command's refresh). ``chunks``: products
    kept in chunks, one chunk each, stored as they are (see :func:`load_chunks`). ``drop``:
    products deleted in the same transaction (rows no longer named)."""
    rows = {kind: data if kind in packed else zlib.compress(data, 1) for kind, data in products.items()}
    drop = list(drop)
    for kind, write in (chunks or {}).items():
        if not 0 <= write.index < MAX_CHUNKS:
            raise ValueError(f"a product kept in chunks has {MAX_CHUNKS} at most, not chunk {write.index}")
        names = chunk_kinds(kind)
        # Its own id (fresh: never one an earlier chunk had), the one it follows, its data.
        rows[names[write.index]] = os.urandom(_ID_SIZE) + write.after + write.data
        drop += names[write.index + 1:]
    compressed = {history: HistoryRows(written.count, {
        position: BattleRow(row.digest, (zlib.compress(row.parts[0], 1), zlib.compress(row.parts[1], 1),
                                         zlib.compress(row.parts[2], 1)))
        for position, row in written.rows.items()}) for history, written in (battles or {}).items()}
    _table(app).put(game_id, head, engine_stamp(), rows, compressed, drop)


def load_named(app: Application[UUID], game_id: str, kinds: Sequence[str]) -> dict[str, bytes] | None:
    """Products named by their content (``kinds``), made by this engine, whatever the events
    they were first stored with: a row named by the digest of its bytes is the same row at any
    version. None when one of them is not stored."""
    rows = _table(app).get_many(game_id, kinds)
    stamp = engine_stamp()
    if len(rows) != len(set(kinds)) or any(row[2] != stamp for row in rows.values()):
        return None
    return {kind: zlib.decompress(row[3]) for kind, row in rows.items()}


def stored_kinds(app: Application[UUID], game_id: str, prefix: str) -> set[str]:
    """The products of a game whose kind starts with ``prefix``, made by this engine."""
    return _table(app).kinds(game_id, prefix, engine_stamp())


def battle_digests(app: Application[UUID], game_id: str, history: str) -> dict[int, bytes]:
    """Position -> digest of each stored battle row of a history made by this engine (what a
    refresh compares its battles with, to write only those that changed)."""
    return _table(app).digests(game_id, history, engine_stamp())


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
    decompress = zlib.decompress
    return [decompress(data) for _, data in found]


def copy_of(app: Application[UUID], game_id: str, packed: frozenset[str] = frozenset()
            ) -> tuple[dict[str, bytes], dict[str, HistoryRows]]:
    """Every stored row of a game's review, uncompressed, as :func:`save` takes them (what a
    benchmark stores again under another game's id; ``packed`` as :func:`save` was given)."""
    products, battles = _table(app).everything(game_id)
    return ({kind: data if kind in packed else zlib.decompress(data) for kind, data in products.items()},
            {history: HistoryRows(len(rows), {position: BattleRow(row.digest, (
                zlib.decompress(row.parts[0]), zlib.decompress(row.parts[1]), zlib.decompress(row.parts[2])))
                for position, row in rows.items()}) for history, rows in battles.items()})


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
