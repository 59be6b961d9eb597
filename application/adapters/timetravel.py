"""Time travel: a stored game as of any event, by version or by the time an event happened.

The Game state only grows and numbers every entry, so the game at any earlier event is a
filter of a later state (:meth:`domain.record.game.Game.at`, exact by construction and by test). The
application keeps the latest state of the games it was asked about (:class:`LatestGames`); a
game at version ``N`` is then that state filtered, after reading only the events stored since
(by this process or another) when ``N`` is past it. No snapshot is decoded once a game is warm.

Opening a game checks what it loads: cold, the whole hash chain is recomputed from the stored
bytes (:func:`application.adapters.integrity.follow_chain`) and a broken one is refused
(:class:`application.adapters.integrity.TamperedError`), never shown; warm, each event read since is
checked to continue the chain from the head kept. The latest snapshot (:mod:`application.adapters.snapshots`)
is used only when it is bound to the chain link of the event at its version; otherwise the events
are folded (and a warning says why).

Snapshots are taken when events are recorded: one per recording that crosses a multiple of
:data:`SNAPSHOT_INTERVAL`, and older ones are deleted, so a game keeps one snapshot (storage grows
with the game, not with its square). A cold open that finds no snapshot it can read at the last
multiple (one taken by another shape of Game, before an upgrade) takes it from the state it folded.
Folding and decoding create many small objects that all stay alive, so the cyclic garbage
collector is paused while a Game is built (see :func:`domain.memory.no_gc`).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from cachetools import LRUCache

from application.adapters.damage import unreadable
from application.adapters.eventstore import (
    decode_state,
    iter_events,
    prune_snapshots,
    put_snapshots,
    read_events,
    read_states,
    snapshots_of,
    snapshotting,
)
from application.adapters.integrity import GENESIS, follow_chain
from application.adapters.snapshots import decode_snapshot, snapshot_of, state_topic
from domain.memory import no_gc
from domain.record.events import GameEvent, game_uuid

if TYPE_CHECKING:  # the fold loads when a game is first folded (a stored report needs none)
    from eventsourcing.application import Application

    from domain.record.game import Game

__all__ = ["SNAPSHOT_INTERVAL", "LatestGames", "decode_snapshot", "event_time", "no_gc",
           "snapshot_of", "state_at", "state_topic", "stored_events", "take_snapshots", "version_at"]

#: Events between snapshots, chosen with benchmarks/bench_store.py on a 10,000-event game.
#: Snapshots only serve a cold start (the first look at a game in a process) at or past them:
#: decoding the latest one (the whole Game state, ~5.8 MB at the end of that game: ~40-60 ms)
#: plus folding the events after it.
SNAPSHOT_INTERVAL = 1000


def take_snapshots(app: Application[UUID], events: Sequence[GameEvent],
                   interval: int = SNAPSHOT_INTERVAL, folded: Game | None = None) -> int:
    """Snapshot the game at the last multiple of ``interval`` among newly recorded ``events``.

    ``events`` are consecutive events of one game, already stored. Only the newest snapshot is
    kept (older ones are deleted: each holds the whole state). Returns how many snapshots were
    stored (a concurrent writer may have stored the same one: that is not an error).
    ``folded``: the Game the events fold to, when they are the whole game (from its first event)
    and the caller folded them already; the snapshot is that state as of the due event
    (:meth:`Game.at` gives exactly what folding up to it does).
    """
    from domain.record.game import project_game

    if not snapshotting(app) or not events:
        return 0
    due = max((e.originator_version for e in events if e.originator_version % interval == 0),
              default=None)
    if due is None:
        return 0
    first = events[0]
    with no_gc():
        if folded is not None:
            game: Game | None = folded.at(due)
        else:
            game = (None if first.originator_version == 1
                    else state_at(app, first.originator_id, first.originator_version - 1))
            game = project_game(game, [e for e in events if e.originator_version <= due])
        if game is None:
            return 0
        at_due = next(e for e in events if e.originator_version == due)
        snapshot = snapshot_of(game, at_due.timestamp, at_due.chain)
    stored = put_snapshots(app, [snapshot])
    prune_snapshots(app, first.originator_id, due)
    return 1 if stored else 0


def state_at(app: Application[UUID], originator_id: UUID, version: int | None) -> Game | None:
    """The Game at ``version`` (the latest when None): nearest snapshot, then the events after it.

    The snapshot is trusted here (its binding is checked when a game is opened, by
    :class:`LatestGames`); used by :func:`take_snapshots` just after recording.
    """
    from domain.record.game import project_game

    game: Game | None = None
    after: int | None = None
    with no_gc():
        found = snapshots_of(app, originator_id, desc=True, limit=1, lte=version)
        if found:
            game = decode_snapshot(found[0])
            after = found[0].originator_version if game is not None else None
        return project_game(game, iter_events(app, originator_id, gt=after, lte=version))


def _opened(app: Application[UUID], originator_id: UUID) -> tuple[Game, str] | None:
    """The latest Game and its chain head, the chain checked from the genesis link (cold)."""
    game_id = str(originator_id)
    snapshot = next(iter(snapshots_of(app, originator_id, desc=True, limit=1)), None)
    links: dict[int, str] = {snapshot.originator_version: ""} if snapshot is not None else {}
    states = read_states(app, originator_id)
    if not states:
        return None
    game_id = _game_id(states, game_id)
    interval: int = getattr(app, "snapshot_interval", SNAPSHOT_INTERVAL)
    due = len(states) // interval * interval  # where the latest snapshot should be
    if due:
        links.setdefault(due, "")
    head = follow_chain(game_id, states, GENESIS, 1, links)
    game: Game | None = None
    after: int | None = None
    if snapshot is not None:
        if snapshot.chain is not None and snapshot.chain == links.get(snapshot.originator_version):
            game = decode_snapshot(snapshot)
            after = snapshot.originator_version if game is not None else None
        else:
            warnings.warn(f"game {game_id!r}: the snapshot at event {snapshot.originator_version} "
                          "is not bound to the stored events' chain; it is ignored and the events "
                          "are folded instead", stacklevel=2)
    with no_gc():
        folded = fold_checked(game_id, game, states[after or 0:], (after or 0) + 1)
    if folded is not None and due > (after or 0) and snapshotting(app):
        # No snapshot this shape of Game can read at the due event (one taken by an earlier
        # version of minister, or none): cut it from the state just folded, so the next cold
        # open reads it instead of folding every event again (derived data: best effort).
        try:
            with no_gc():
                snapshot = snapshot_of(folded.at(due), decode_state(*states[due - 1]).timestamp, links[due])
            prune_snapshots(app, originator_id, len(states) + 1)  # the unreadable one at ``due`` too
            put_snapshots(app, [snapshot])
        except Exception as error:  # a read-only store, say: the game is shown all the same
            warnings.warn(f"game {game_id!r}: no snapshot taken at event {due}: {error}", stacklevel=2)
    return (folded, head) if folded is not None else None


def fold_checked(game_id: str, game: Game | None, states: Sequence[tuple[str, bytes]],
                 first_version: int) -> Game | None:
    """Fold stored (topic, state) rows, the first being event ``first_version``, into ``game``.

    A row whose chain holds but which does not decode as its event, or which the game cannot
    take (a roll filed under a battle no declaration lists, a field of the wrong type: rows
    edited and the chain recomputed, or one saying it is another event) is refused as
    :class:`TamperedError` naming the event; nothing half-folded is kept (the callers fold into
    a state taken out of the cache).
    """
    from domain.record.game import project_game

    at = 0  # the index of the row being decoded or filed

    def events() -> Iterator[GameEvent]:
        nonlocal at
        for at, (topic, state) in enumerate(states):  # (``at`` is read by the handler below too)
            event = decode_state(topic, state)
            if event.originator_version != first_version + at:
                # The version given twice in the row (a decoder takes the last): the chain
                # check read the first (integrity.chain_links), so the event is not what it checked.
                raise ValueError(f"it says it is event {event.originator_version}")
            yield event

    try:
        return project_game(game, events())
    except Exception as error:  # a row edited in the database may be any kind of garbage
        raise unreadable(game_id, first_version + at, states[at][0],
                         f"{type(error).__name__}: {error}") from None


def _game_id(states: list[tuple[str, bytes]], fallback: str) -> str:
    """The game's id as its first event states it (for messages), else ``fallback``."""
    import msgspec

    try:
        first = msgspec.msgpack.decode(states[0][1], type=dict[str, Any])
    except Exception:  # garbage or a text cell: the fallback names it
        return fallback
    found = first.get("game_id")
    return found if isinstance(found, str) else fallback


class LatestGames:
    """The latest state of the games last asked about, to derive any earlier state from.

    Stored events never change, so a state stays right for every version it has seen; events
    stored since are read, checked against the chain head kept, and folded in when a later
    version (or the latest) is asked for. At most ``size`` games are kept, in a
    :class:`cachetools.LRUCache` (the least recently used goes). Thread-safe.
    """

    def __init__(self, size: int = 4) -> None:
        self._games: LRUCache[UUID, tuple[Game, str]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def game_at(self, app: Application[UUID], originator_id: UUID, version: int | None) -> Game | None:
        """The Game at ``version`` (the latest when None or past the last event), or None when
        the store has no such game (or none yet at that version)."""
        with self._lock, no_gc():
            game = self._kept(app, originator_id, version)
            if game is None or (version is not None and version < game.version - game.seq):
                return None
            return game.at(game.version if version is None else min(version, game.version))

    def version_at(self, app: Application[UUID], originator_id: UUID, moment: datetime) -> int | None:
        """The version of the game's last event that happened at or before ``moment`` (None:
        none did, or no such game)."""
        with self._lock, no_gc():
            game = self._kept(app, originator_id, None)
            return None if game is None else game.version_at(moment)

    def _kept(self, app: Application[UUID], originator_id: UUID, version: int | None) -> Game | None:
        """The kept state, brought up to ``version`` (to the last stored event when None)."""
        kept = self._games.pop(originator_id, None)
        if kept is None:
            kept = _opened(app, originator_id)  # cold: chain checked, latest snapshot + the rest
            if kept is None:
                return None
        elif version is None or version > kept[0].version:
            # Taken out of the cache first: if folding fails, no half-folded state stays.
            game, head = kept
            states = read_states(app, originator_id, gt=game.version, lte=version)
            head = follow_chain(game.game_id, states, head, game.version + 1)
            fold_checked(game.game_id, game, states, game.version + 1)
            kept = (game, head)
        self._games[originator_id] = kept  # the least recently used game goes when full
        return kept[0]

    def keep(self, game: Game, head: str) -> None:
        """Keep ``game`` as its latest state, ``head`` the chain link of its last event: what
        recording a whole game just folded and linked (its next look folds only later events)."""
        with self._lock:
            self._games[game.id] = (game, head)

    def kept(self) -> list[UUID]:
        """The games whose latest state is kept, the least recently used first (each look takes
        a game out and puts it back, so the cache's order is the order of use)."""
        with self._lock:
            return list(self._games)

    def forget(self, originator_id: UUID | None = None) -> None:
        """Drop one game's state (all when None); the next look rebuilds it from the store."""
        with self._lock:
            if originator_id is None:
                self._games.clear()
            else:
                self._games.pop(originator_id, None)


def stored_events(app: Application[UUID], originator_id: UUID, *, gt: int | None = None,
                  lte: int | None = None, desc: bool = False, limit: int | None = None,
                  ) -> list[GameEvent]:
    """A game's stored events, read by :func:`application.adapters.eventstore.read_events`."""
    return read_events(app, originator_id, gt=gt, lte=lte, desc=desc, limit=limit)


def event_time(event: GameEvent) -> datetime:
    """When an event happened in the game (its record's time, else when it was stored)."""
    return event.at if event.at is not None else event.timestamp


def version_at(app: Any, game_id: str, at: datetime) -> int | None:
    """The version of the game's last event that happened at or before ``at`` (None: none did).

    A binary search over the event times of the game's latest state (kept in memory).
    """
    if at.tzinfo is None:
        raise ValueError(f"expected a time with a zone, found {at.isoformat()!r}")
    latest: LatestGames = app.latest_games
    return latest.version_at(app, game_uuid(game_id), at)
