"""The eventsourcing Application: records games' events and rebuilds Games from a store.

The store is chosen by eventsourcing's environment (``PERSISTENCE_MODULE`` etc.); minister's
own defaults live in :mod:`application.adapters.stores`. Saving a game's events is one atomic call, so
a malformed record never leaves a partial game behind. Recording links the events into the game's
hash chain (:mod:`application.adapters.integrity`) and snapshots the state every few events
(:mod:`application.adapters.timetravel`); :meth:`MinisterApplication.append` retries on a version clash so
concurrent writers never lose an event. The latest state of the games last read is kept in
memory, so the game at any of its events is derived from it (:meth:`domain.record.game.Game.at`).
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.utils import get_topic

from application.adapters.eventstore import VersionClash, put_events
from application.adapters.integrity import GENESIS, LinkedEvents, chain_events
from application.adapters.mapper import MsgspecMapper, NullTranscoder
from application.adapters.timetravel import SNAPSHOT_INTERVAL, LatestGames, take_snapshots, version_at
from domain.errors import MinisterError
from domain.record.events import GameEvent, game_uuid

if TYPE_CHECKING:  # the fold loads when a game is first folded (a stored report needs none)
    from domain.record.game import Game


class UnknownGameError(MinisterError, LookupError):
    """No game with that id is in the store (or it had not started at the time asked for)."""


class ConflictError(MinisterError):
    """Other writers kept appending first: the events could not be appended."""


class MinisterApplication(Application[UUID]):
    """Records game events; answers with Games rebuilt by :func:`domain.record.game.project_game`."""

    name = "minister"
    is_snapshotting_enabled = True
    #: Events between snapshots of a game's state (see application/adapters/timetravel.py).
    snapshot_interval: int = SNAPSHOT_INTERVAL
    env: ClassVar[dict[str, str]] = {
        "MAPPER_TOPIC": get_topic(MsgspecMapper),
        "TRANSCODER_TOPIC": get_topic(NullTranscoder),
    }

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        #: The latest state of the games last read (time travel derives earlier ones from it).
        self.latest_games = LatestGames()

    def record(self, events: Sequence[GameEvent], *, folded: Game | None = None) -> list[GameEvent]:
        """Store events atomically (all or nothing), linked into their game's hash chain.

        Returns the events as stored. Raises ``VersionClash`` when another writer already
        stored one of these versions (nothing is stored then). ``folded``: the Game that
        ``events``, one whole game from its first event, fold to, when the caller has folded
        them already (an import: the replay file's state); the snapshot is cut from it instead
        of folding them again, and a copy is kept as the game's latest state, so the first look
        at the game just stored reads nothing back.
        """
        if not events:
            return []
        first = events[0]
        if isinstance(events, LinkedEvents) and first.originator_version == 1 and all(
                event.originator_id == first.originator_id for event in events):
            # One game from its first event, linked from the genesis link when the LinkedEvents
            # were made: the links this loop would compute (an import: 0.4 s of 50,000 events).
            chained = list(events)
            links = {first.originator_id: chained[-1].chain or GENESIS}
        else:
            links = {}
            chained = []
            for event in events:
                previous = links.get(event.originator_id)
                if previous is None:
                    previous = self._link_before(event)
                chained.extend(chain_events((event,), previous))
                links[event.originator_id] = chained[-1].chain or GENESIS
        put_events(self, chained)
        last = chained[-1]
        whole = len(links) == 1 and first.originator_version == 1
        if folded is not None and not (whole and (folded.id, folded.version) ==
                                       (first.originator_id, last.originator_version)):
            folded = None  # not the state of these events: they are folded again below
        for originator_id in links:
            try:
                take_snapshots(self, [e for e in chained if e.originator_id == originator_id],
                               self.snapshot_interval, folded)
            except Exception as error:  # derived data: the events are stored, say so and go on
                warnings.warn(f"no snapshot taken for {originator_id}: {error}", stacklevel=2)
        if folded is not None:  # a copy: later folds into the kept state leave the caller's alone
            self.latest_games.keep(folded.at(folded.version), links[first.originator_id])
        return chained

    def _link_before(self, event: GameEvent) -> str:
        """The chain link of the stored event just before ``event`` (which must exist)."""
        version = event.originator_version
        if version <= 1:
            return GENESIS
        before: list[Any] = list(self.events.get(event.originator_id, gt=version - 2, lte=version - 1))
        if not before:
            raise ValueError(f"event {version} of {event.originator_id} would follow no stored event")
        previous: str | None = before[0].chain
        return previous or GENESIS

    def game(self, game_id: str, *, version: int | None = None) -> Game:
        """The Game called ``game_id`` (at ``version`` when given; the latest stored otherwise).

        A fresh object each time: changing it changes nothing the application keeps.
        """
        game = self.latest_games.game_at(self, game_uuid(game_id), version)
        if game is None:
            raise UnknownGameError(f"no game with id {game_id!r} in the store")
        return game

    def game_at(self, game_id: str, *, version: int | None = None, at: datetime | None = None) -> Game:
        """Time travel: the game as of event ``version``, or of its last event at or before ``at``."""
        if at is not None:
            if version is not None:
                raise ValueError("expected a version or a time, not both")
            found = version_at(self, game_id, at)
            if found is None:
                self.game(game_id)  # an unknown game is reported as such
                raise UnknownGameError(f"game {game_id!r} had no event at or before {at.isoformat()}")
            version = found
        return self.game(game_id, version=version)

    def append(self, game_id: str, build: Callable[[Game], Sequence[GameEvent]], *,
               attempts: int = 200) -> list[GameEvent]:
        """Append the events ``build`` makes from the game's current state.

        Optimistic concurrency: when another writer stored the same version first (the store's
        ``VersionClash``), the state is read afresh and ``build`` runs again.
        """
        for attempt in range(attempts):
            events = build(self.game(game_id))
            try:
                return self.record(events)
            except VersionClash:
                # Random back-off so two writers that clashed do not clash again in step.
                time.sleep(random.uniform(0, 0.001 * min(attempt + 1, 20)))
        raise ConflictError(f"could not append to game {game_id!r}: {attempts} attempts clashed "
                            "with other writers")

    def game_events(self, game_id: str, *, after: int | None = None) -> list[GameEvent]:
        """Every stored event of a game (after version ``after``), in order."""
        found = self.repository.event_store.get(game_uuid(game_id), gt=after)
        return [event for event in found if isinstance(event, GameEvent)]
