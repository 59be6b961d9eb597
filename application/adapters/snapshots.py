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

import msgspec

from domain.record.events import GameSnapshot
from domain.record.game import Game

_STATE_DECODER = msgspec.msgpack.Decoder(Game)
_STATE_ENCODER = msgspec.msgpack.Encoder()


def _fingerprint() -> str:
    schema = msgspec.json.encode(msgspec.json.schema(Game))
    return hashlib.sha256(schema).hexdigest()[:16]


#: The snapshot topic: a snapshot taken by another shape of Game is never decoded as this one.
STATE_TOPIC = f"minister/Game@1#{_fingerprint()}"


def snapshot_of(game: Game, timestamp: datetime, chain: str | None = None) -> GameSnapshot:
    """A snapshot of ``game`` at its current version, bound to the chain link ``chain``."""
    return GameSnapshot(originator_id=game.id, originator_version=game.version,
                        timestamp=timestamp, state=_STATE_ENCODER.encode(game), topic=STATE_TOPIC,
                        chain=chain)


def decode_snapshot(snapshot: GameSnapshot) -> Game | None:
    """The Game a snapshot holds, or None when it was taken by another shape of Game."""
    if snapshot.topic != STATE_TOPIC:
        return None
    try:
        return _STATE_DECODER.decode(snapshot.state)
    except msgspec.DecodeError:
        return None
