"""Snapshots of a Game's state: their encoding, and the topic that says which code made them.

A snapshot (:class:`domain.record.events.GameSnapshot`) is msgspec MessagePack of the whole
:class:`domain.record.game.Game` at a version, bound to the hash-chain link of the event at that
version (its ``chain``): one taken from another history (a rewritten or truncated record) is
never used for this one. Its topic carries the engine version, so one taken by another version of
minister (another shape of Game, perhaps) is never decoded as this one.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING

import msgspec

from domain.record.events import GameSnapshot

if TYPE_CHECKING:  # the Game (the whole fold and what it reads) loads when a snapshot is first used
    from domain.record.game import Game

_STATE_ENCODER = msgspec.msgpack.Encoder()


@cache
def _state_decoder() -> msgspec.msgpack.Decoder[Game]:
    from domain.record.game import Game

    return msgspec.msgpack.Decoder(Game)


@cache
def state_topic() -> str:
    """The snapshot topic: the version of the code that makes the Game state (the engine
    version: a digest of domain/, where every Struct of the state is defined), so a snapshot
    taken by another version of minister is never decoded as this one, whatever changed. A
    command reads it for its stored review anyway; working out the state's JSON schema instead
    cost every import and every first look ~7 ms more."""
    from application.adapters.review_store import engine_version

    return f"minister/Game@1#{engine_version()}"


def snapshot_of(game: Game, timestamp: datetime, chain: str | None = None) -> GameSnapshot:
    """A snapshot of ``game`` at its current version, bound to the chain link ``chain``."""
    return GameSnapshot(originator_id=game.id, originator_version=game.version,
                        timestamp=timestamp, state=_STATE_ENCODER.encode(game), topic=state_topic(),
                        chain=chain)


def decode_snapshot(snapshot: GameSnapshot) -> Game | None:
    """The Game a snapshot holds, or None when it was taken by another shape of Game."""
    if snapshot.topic != state_topic():
        return None
    try:
        return _state_decoder().decode(snapshot.state)
    except msgspec.DecodeError:
        return None
