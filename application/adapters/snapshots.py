"""Snapshots of a Game's state: their encoding, the topic that fingerprints the state's shape.

A snapshot (:class:`domain.record.events.GameSnapshot`) is msgspec MessagePack of the whole
:class:`domain.record.game.Game` at a version, bound to the hash-chain link of the event at that
version (its ``chain``): one taken from another history (a rewritten or truncated record) is
never used for this one. Its topic carries a fingerprint of the state's schema, so one taken by
another shape of Game is never decoded as this one.
"""

from __future__ import annotations

import hashlib
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
    """The snapshot topic: a fingerprint of the Game state's schema, so a snapshot taken by
    another shape of Game is never decoded as this one (worked out when a snapshot is first
    taken or read: the schema costs ~20 ms, which a command that reads none does not pay)."""
    from domain.record.game import Game

    schema = msgspec.json.encode(msgspec.json.schema(Game))
    return f"minister/Game@1#{hashlib.sha256(schema).hexdigest()[:16]}"


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
