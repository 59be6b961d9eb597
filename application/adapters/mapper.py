"""Maps minister's msgspec events to eventsourcing's stored events and back.

eventsourcing 9.5.6 ships no msgspec mapper; this follows its aggregate9 example (a Mapper
subclass plus a null transcoder) but with explicit topics from :data:`domain.record.events.TOPICS`
instead of module paths, so stored events survive renames.
"""

from __future__ import annotations

import calendar
import struct
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder

from domain.record.events import TOPICS, GameEvent


def _timestamp(obj: Any) -> Any:
    """Encode a ``datetime`` subclass (a test clock's, say) exactly as msgspec encodes a datetime:
    the MessagePack timestamp extension, in its smallest form."""
    if not isinstance(obj, datetime):
        raise NotImplementedError(f"cannot encode {type(obj).__name__}")
    aware = obj if obj.tzinfo is not None else obj.replace(tzinfo=UTC)
    seconds = calendar.timegm(aware.utctimetuple())
    nanos = aware.microsecond * 1000
    if nanos == 0 and 0 <= seconds < 2**32:
        return msgspec.msgpack.Ext(-1, struct.pack(">I", seconds))
    if 0 <= seconds < 2**34:
        return msgspec.msgpack.Ext(-1, struct.pack(">Q", (nanos << 34) | seconds))
    return msgspec.msgpack.Ext(-1, struct.pack(">Iq", nanos, seconds))


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_timestamp)


class _Decoders(dict[str, msgspec.msgpack.Decoder[Any]]):
    """Topic -> the decoder of its event class, each made when its topic is first looked up
    (``DECODERS[topic]``; KeyError for a topic of no event class). Making all ~30 up front cost
    every command ~40 M instructions (cachegrind), and most read a few kinds (an import reads
    back one event). Lookups that do not make one (``in``, ``get``) find only those made: their
    callers fall back to :func:`decode_event`, which makes it."""

    def __missing__(self, topic: str) -> msgspec.msgpack.Decoder[Any]:
        decoder = self[topic] = msgspec.msgpack.Decoder(TOPICS[topic])
        return decoder


#: Topic -> the decoder of its event class (a reader decoding many rows looks each up itself).
DECODERS: dict[str, msgspec.msgpack.Decoder[Any]] = _Decoders()


def encode_event(event: GameEvent) -> bytes:
    """The canonical encoding of an event (also what the hash chain covers)."""
    return _ENCODER.encode(event)


def decode_event(topic: str, data: bytes) -> GameEvent:
    """Decode a stored event's state by its topic."""
    try:
        decoder = DECODERS[topic]
    except KeyError:
        raise ValueError(f"unknown event topic {topic!r}") from None
    event: GameEvent = decoder.decode(data)
    return event


class MsgspecMapper(Mapper[UUID]):
    """Encodes events with msgspec (MessagePack) under their explicit topics."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        """Event -> stored event (compressed and encrypted if configured)."""
        state = encode_event(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(originator_id=domain_event.originator_id,
                           originator_version=domain_event.originator_version,
                           topic=type(domain_event).TOPIC, state=state)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        """Stored event -> event."""
        state = stored_event.state
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        return decode_event(stored_event.topic, state)


class NullTranscoder(Transcoder):
    """The mapper encodes whole events itself; eventsourcing still wants a transcoder."""

    def encode(self, obj: Any) -> bytes:
        """Unused."""
        return b""

    def decode(self, data: bytes) -> Any:
        """Unused."""
        return None
