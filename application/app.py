"""The eventsourcing Application: records games' events and rebuilds Games from a store.

The store is chosen by eventsourcing's environment (``PERSISTENCE_MODULE`` etc.); minister's
own defaults live in :mod:`application.stores`. Saving a game's events is one atomic call, so
a malformed record never leaves a partial game behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.utils import get_topic

from application.mapper import MsgspecMapper, NullTranscoder
from domain.events import GameEvent, game_uuid
from domain.game import Game, project_game


class UnknownGameError(LookupError):
    """No game with that id is in the store."""


class MinisterApplication(Application[UUID]):
    """Records game events; answers with Games rebuilt by :func:`domain.game.project_game`."""

    name = "minister"
    env: ClassVar[dict[str, str]] = {
        "MAPPER_TOPIC": get_topic(MsgspecMapper),
        "TRANSCODER_TOPIC": get_topic(NullTranscoder),
    }

    def record(self, events: Sequence[GameEvent]) -> None:
        """Store events atomically (all or nothing)."""
        if events:
            self.save(*events)

    def game(self, game_id: str, *, version: int | None = None) -> Game:
        """The Game called ``game_id`` (at ``version`` when given)."""
        try:
            game: Any = self.repository.get(game_uuid(game_id), version=version,
                                            projector_func=project_game)
        except Exception as error:  # eventsourcing raises AggregateNotFoundError
            if type(error).__name__ == "AggregateNotFoundError":
                raise UnknownGameError(game_id) from None
            raise
        assert isinstance(game, Game)
        return game

    def game_events(self, game_id: str, *, after: int | None = None) -> list[GameEvent]:
        """Every stored event of a game (after version ``after``), in order."""
        found = self.repository.event_store.get(game_uuid(game_id), gt=after)
        return [event for event in found if isinstance(event, GameEvent)]
