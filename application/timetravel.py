"""Time travel: a stored game as of any event, by version or by the time an event happened.

The Game state only grows and numbers every entry, so the game at any earlier event is a
filter of a later state (:meth:`domain.record.game.Game.at`, exact by construction and by test). The
application keeps the latest state of the games it was asked about (:class:`LatestGames`); a
game at version ``N`` is then that state filtered, after reading only the events stored since
(by this process or another) when ``N`` is past it. No snapshot is decoded once a game is warm.

Cold, the latest state is the latest snapshot plus the events after it. Snapshots of the Game
state (:class:`domain.record.events.GameSnapshot`, msgspec MessagePack of :class:`domain.record.game.Game`)
are taken every :data:`SNAPSHOT_INTERVAL` events when events are recorded. They are derived
data: they live in the snapshot store, outside the hash chain, and one that does not decode (the
Game's shape changed since it was taken: its topic carries a fingerprint of the state's schema)
is ignored in favour of folding the events. ``minister verify --integrity`` checks them against
the events.

Folding and decoding create many small objects that all stay alive, so the cyclic garbage
collector only costs time here; it is paused while a Game is built (see
:func:`domain.memory.no_gc`).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError

from application.reading import iter_events, read_events
from domain.memory import no_gc
from domain.record.events import GameEvent, GameSnapshot, game_uuid
from domain.record.game import Game, project_game

if TYPE_CHECKING:
    from application.app import MinisterApplication

#: Events between snapshots, chosen with benchmarks/bench_store.py on a 10,000-event game.
#: Snapshots only serve a cold start (the first look at a game in a process): decoding the
#: latest one (the whole Game state, ~3.4 MB at the end of that game: most of the ~40 ms) plus
#: folding the events after it (~2 us each). Measured cold times were flat from 100 to 2500
#: events while storage fell from 170 MB to 8 MB; 1000 keeps the tail to fold at ~2 ms and
#: the snapshots at ~18 MB (import 0.8 s).
SNAPSHOT_INTERVAL = 1000

_STATE_DECODER = msgspec.msgpack.Decoder(Game)
_STATE_ENCODER = msgspec.msgpack.Encoder()


def _fingerprint() -> str:
    schema = msgspec.json.encode(msgspec.json.schema(Game))
    return hashlib.sha256(schema).hexdigest()[:16]


#: The snapshot topic: a snapshot taken by another shape of Game is never decoded as this one.
STATE_TOPIC = f"minister/Game@1#{_fingerprint()}"


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
        return project_game(game, iter_events(app, originator_id, gt=after, lte=version))


class LatestGames:
    """The latest state of the games last asked about, to derive any earlier state from.

    Stored events never change, so a state stays right for every version it has seen; events
    stored since are read and folded in when a later version (or the latest) is asked for. At
    most ``size`` games are kept (the least recently used goes). Thread-safe.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._games: OrderedDict[UUID, Game] = OrderedDict()
        self._lock = threading.Lock()

    def game_at(self, app: MinisterApplication, originator_id: UUID, version: int | None) -> Game | None:
        """The Game at ``version`` (the latest when None or past the last event), or None when
        the store has no such game (or none yet at that version)."""
        with self._lock, no_gc():
            game = self._kept(app, originator_id, version)
            if game is None or (version is not None and version < game.version - game.seq):
                return None
            return game.at(game.version if version is None else min(version, game.version))

    def version_at(self, app: MinisterApplication, originator_id: UUID, moment: datetime) -> int | None:
        """The version of the game's last event that happened at or before ``moment`` (None:
        none did, or no such game)."""
        with self._lock, no_gc():
            game = self._kept(app, originator_id, None)
            return None if game is None else game.version_at(moment)

    def _kept(self, app: MinisterApplication, originator_id: UUID, version: int | None) -> Game | None:
        """The kept state, brought up to ``version`` (to the last stored event when None)."""
        game = self._games.pop(originator_id, None)
        if game is None:
            game = state_at(app, originator_id, None)  # cold: the latest snapshot + the rest
            if game is None:
                return None
        elif version is None or version > game.version:
            # Taken out of the cache first: if folding fails, no half-folded state stays.
            project_game(game, iter_events(app, originator_id, gt=game.version, lte=version))
        self._games[originator_id] = game
        while len(self._games) > self.size:
            self._games.popitem(last=False)
        return game

    def kept(self) -> list[UUID]:
        """The games whose latest state is kept, the least recently used first."""
        with self._lock:
            return list(self._games)

    def forget(self, originator_id: UUID | None = None) -> None:
        """Drop one game's state (all when None); the next look rebuilds it from the store."""
        with self._lock:
            if originator_id is None:
                self._games.clear()
            else:
                self._games.pop(originator_id, None)


def stored_events(app: MinisterApplication, originator_id: UUID, *, gt: int | None = None,
                  lte: int | None = None, desc: bool = False, limit: int | None = None,
                  ) -> list[GameEvent]:
    """A game's stored events, read by :func:`application.reading.read_events`."""
    return read_events(app, originator_id, gt=gt, lte=lte, desc=desc, limit=limit)


def event_time(event: GameEvent) -> datetime:
    """When an event happened in the game (its record's time, else when it was stored)."""
    return event.at if event.at is not None else event.timestamp


def version_at(app: MinisterApplication, game_id: str, at: datetime) -> int | None:
    """The version of the game's last event that happened at or before ``at`` (None: none did).

    A binary search over the event times of the game's latest state (kept in memory).
    """
    if at.tzinfo is None:
        raise ValueError(f"expected a time with a zone, found {at.isoformat()!r}")
    return app.latest_games.version_at(app, game_uuid(game_id), at)
