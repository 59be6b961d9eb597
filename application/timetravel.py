"""Time travel: a stored game as of any event, by version or by the time an event happened.

Snapshots of the Game state (:class:`domain.events.GameSnapshot`, msgspec MessagePack of
:class:`domain.game.Game`) are taken every :data:`SNAPSHOT_INTERVAL` events when events are
recorded, so the game at version ``N`` is the latest snapshot at or before ``N`` plus at most
``SNAPSHOT_INTERVAL - 1`` events folded on top. Snapshots are derived data: they live in the
snapshot store, outside the hash chain, and one that does not decode (the Game's shape changed
since it was taken: its topic carries a fingerprint of the state's schema) is ignored in favour
of folding the events. ``minister verify --integrity`` checks them against the events.

Folding and decoding create many small objects that all stay alive, so the cyclic garbage
collector only costs time here; it is paused while a Game is built (see :func:`no_gc`).
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError

from application.reading import read_events
from domain.events import GameEvent, GameSnapshot, game_uuid
from domain.game import Game, project_game

if TYPE_CHECKING:
    from application.app import MinisterApplication

#: Events between snapshots, chosen with benchmarks/bench_store.py on a 10,000-event game. Time
#: travel costs fetching and decoding the nearest snapshot (the whole Game state: ~3 MB and
#: ~19 ms at the end of that game) plus folding the events after it (~14 us each with reading).
#: Measured medians were flat from 100 to 1000 events (decoding dominates) while snapshot
#: storage fell from 154 MB to 17 MB; 500 keeps the worst tail under ~7 ms at 32 MB.
SNAPSHOT_INTERVAL = 500

_STATE_DECODER = msgspec.msgpack.Decoder(Game)
_STATE_ENCODER = msgspec.msgpack.Encoder()


def _fingerprint() -> str:
    schema = msgspec.json.encode(msgspec.json.schema(Game))
    return hashlib.sha256(schema).hexdigest()[:16]


#: The snapshot topic: a snapshot taken by another shape of Game is never decoded as this one.
STATE_TOPIC = f"minister/Game@1#{_fingerprint()}"


@contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a Game is built, then promote what was built.

    Building a Game allocates ~10 objects per event and frees almost none; the collector would
    scan them again and again as they pile up (it doubled rebuild times). On the way out the new
    objects are moved straight to the oldest generation (``gc.freeze()`` then ``gc.unfreeze()``,
    both O(1) list splices) rather than scanned once more by the young collection that re-enabling
    would trigger at once; anything among them that is garbage is still found by the next full
    collection. Skipped when someone else keeps objects frozen.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


def snapshot_of(game: Game, timestamp: datetime) -> GameSnapshot:
    """A snapshot of ``game`` at its current version."""
    return GameSnapshot(originator_id=game.id, originator_version=game.version,
                        timestamp=timestamp, state=_STATE_ENCODER.encode(game), topic=STATE_TOPIC)


def decode_snapshot(snapshot: GameSnapshot) -> Game | None:
    """The Game a snapshot holds, or None when it was taken by another shape of Game."""
    if snapshot.topic != STATE_TOPIC:
        return None
    try:
        return _STATE_DECODER.decode(snapshot.state)
    except msgspec.DecodeError:
        return None


def take_snapshots(app: MinisterApplication, events: Sequence[GameEvent],
                   interval: int = SNAPSHOT_INTERVAL) -> int:
    """Snapshot the game at every multiple of ``interval`` among newly recorded ``events``.

    ``events`` are consecutive events of one game, already stored. Returns how many snapshots
    were stored (a concurrent writer may have stored the same ones: that is not an error).
    """
    if app.snapshots is None or not events:
        return 0
    due = {e.originator_version for e in events if e.originator_version % interval == 0}
    if not due:
        return 0
    first = events[0]
    with no_gc():
        game = (None if first.originator_version == 1
                else state_at(app, first.originator_id, first.originator_version - 1))
        snapshots = []
        for event in events:
            game = project_game(game, (event,))
            if event.originator_version in due and game is not None:
                snapshots.append(snapshot_of(game, event.timestamp))
    try:
        app.snapshots.put(snapshots)
    except IntegrityError:
        return 0
    return len(snapshots)


def state_at(app: MinisterApplication, originator_id: UUID, version: int | None) -> Game | None:
    """The Game at ``version`` (the latest when None): nearest snapshot, then the events after it."""
    game: Game | None = None
    after: int | None = None
    with no_gc():
        if app.snapshots is not None:
            found: list[Any] = list(app.snapshots.get(originator_id, desc=True, limit=1, lte=version))
            if found and isinstance(found[0], GameSnapshot):
                game = decode_snapshot(found[0])
                after = found[0].originator_version if game is not None else None
        return project_game(game, stored_events(app, originator_id, gt=after, lte=version))


def stored_events(app: MinisterApplication, originator_id: UUID, *, gt: int | None = None,
                  lte: int | None = None, desc: bool = False, limit: int | None = None,
                  ) -> list[GameEvent]:
    """A game's stored events, read by :func:`application.reading.read_events`."""
    return read_events(app, originator_id, gt=gt, lte=lte, desc=desc, limit=limit)


def event_time(event: GameEvent) -> datetime:
    """When an event happened in the game (its record's time, else when it was stored)."""
    return event.at if event.at is not None else event.timestamp


def last_version(app: MinisterApplication, originator_id: UUID) -> int:
    """The version of a game's last event (0 when it has none)."""
    last = stored_events(app, originator_id, desc=True, limit=1)
    return int(last[0].originator_version) if last else 0


def version_at(app: MinisterApplication, game_id: str, at: datetime) -> int | None:
    """The version of the game's last event that happened at or before ``at`` (None: none did).

    A game's events happen in order (the replay loader and :meth:`append` keep times from going
    backwards), so a binary search over versions needs about log2(events) one-row reads.
    """
    if at.tzinfo is None:
        raise ValueError(f"expected a time with a zone, found {at.isoformat()!r}")
    originator_id = game_uuid(game_id)
    low, high = 0, last_version(app, originator_id)  # invariant: time(low) <= at < time(high+1)
    while low < high:
        middle = (low + high + 1) // 2
        found = stored_events(app, originator_id, gt=middle - 1, lte=middle)
        if not found:
            raise LookupError(f"game {game_id!r} has no event {middle} (run verify --integrity)")
        if event_time(found[0]) <= at:
            low = middle
        else:
            high = middle - 1
    return low or None
