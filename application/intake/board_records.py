"""The replay file's board records (extensions of ``minister-replay/1``, docs/format-extensions.md):
``purchase``, ``placement``, ``map_update``, ``bid`` and ``finish``.

Kept apart from the reader of the spec's own record types: each handler reads one [[event]]
table into one event, its text read once (:mod:`domain.record.board_intake`). Errors name the
file, the line and what was expected.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Protocol

import msgspec

from application.intake.replayschema import MAX_ITEMS, Count, Record, Signed, Text
from domain.errors import ReplayError
from domain.record.board_intake import bid_facts, map_facts, placed
from domain.record.events import (
    BidRecorded,
    GameEvent,
    GameFinished,
    MapUpdateRecorded,
    PlacementRecorded,
    PurchaseRecorded,
)
from domain.rules.forces import Force


class _Builder(Protocol):
    """What a handler needs of the replay reader's builder (:mod:`application.intake.record_events`)."""

    def add(self, cls: type[GameEvent], at: datetime, line: int | None, **fields: Any) -> None:
        """Append the next event."""

    def error(self, message: str, index: int, key: str | None = None) -> ReplayError:
        """An error at the line of ``key`` in the index-th [[event]] table."""

    def _turn(self, index: int, text: str) -> str:
        """A turn label read from the index-th table."""

#: The results a ``finish`` may post (2008 Game Completion; Forfeits and Annulments).
RESULTS = ("Axis", "Allies", "annulled")

Lines = Annotated[list[str], msgspec.Meta(max_length=MAX_ITEMS)]


class PurchaseRecord(Record, kw_only=True):
    """``type = "purchase"``: ``turn``, ``units`` ("3 INF, 1 ARM"), optional ``ipcs``."""

    turn: Text
    units: Text
    ipcs: Count | None = None


class PlacementRecord(Record, kw_only=True):
    """``type = "placement"``: ``turn``, ``place`` (["Germany 3 INF", "Baltic SZ 1 TRN"])."""

    turn: Text
    place: Lines


class MapUpdateRecord(Record, kw_only=True):
    """``type = "map_update"``: ``turn``, ``units`` (as a position), ``count`` ("UK 30/$32")."""

    turn: Text
    units: Lines = msgspec.field(default_factory=list)
    count: str = ""


class BidRecord(Record, kw_only=True):
    """``type = "bid"``: ``total``, ``units`` / ``remove`` ("Germany Ukraine: 3 INF"), ``ipcs``."""

    #: The bid's IPC value as entered ("Your Bid (IPC Total Value)"): below 0 for a negative
    #: bid (2008 Bidding: "Negative value bids are allowed").
    total: Signed | None = None
    units: Lines = msgspec.field(default_factory=list)
    remove: Lines = msgspec.field(default_factory=list)
    ipcs: Lines = msgspec.field(default_factory=list)


class FinishRecord(Record, kw_only=True):
    """``type = "finish"``: ``result`` ("Axis", "Allies", "annulled"), ``by``, optional ``text``."""

    result: Text
    by: Text
    text: str = ""


def purchase(builder: _Builder, index: int, record: PurchaseRecord, line: int | None) -> None:
    """The units bought in a turn (placed later)."""
    builder.add(PurchaseRecorded, record.at, line, turn=builder._turn(index, record.turn),
                units=record.units, ipcs=record.ipcs, parsed=Force.parse(record.units))


def placement(builder: _Builder, index: int, record: PlacementRecord, line: int | None) -> None:
    """Where new units were placed."""
    builder.add(PlacementRecorded, record.at, line, turn=builder._turn(index, record.turn),
                place=tuple(record.place), parsed=tuple(placed(entry) for entry in record.place))


def map_update(builder: _Builder, index: int, record: MapUpdateRecord, line: int | None) -> None:
    """A map update and its territory/IPC count (a checkpoint)."""
    units = tuple(record.units)
    builder.add(MapUpdateRecorded, record.at, line, turn=builder._turn(index, record.turn), units=units,
                count=record.count, parsed=map_facts(units, record.count))


def bid(builder: _Builder, index: int, record: BidRecord, line: int | None) -> None:
    """The winning bid, placed before the first USSR turn."""
    units, remove, ipcs = tuple(record.units), tuple(record.remove), tuple(record.ipcs)
    builder.add(BidRecorded, record.at, line, total=record.total, units=units, remove=remove, ipcs=ipcs,
                parsed=bid_facts(units, remove, ipcs))


def finish(builder: _Builder, index: int, record: FinishRecord, line: int | None) -> None:
    """A finish or an annulment as posted."""
    if record.result not in RESULTS:
        raise builder.error(f"expected result = one of {', '.join(RESULTS)}, found {record.result!r}",
                            index, "result")
    builder.add(GameFinished, record.at, line, result=record.result, by=record.by, text=record.text)


#: ``type = "..."`` -> (its Struct, its builder), for :data:`application.intake.record_events.RECORD_KINDS`.
KINDS: dict[str, tuple[type[Record], Callable[[_Builder, int, Any, int | None], None]]] = {
    "purchase": (PurchaseRecord, purchase), "placement": (PlacementRecord, placement),
    "map_update": (MapUpdateRecord, map_update), "bid": (BidRecord, bid), "finish": (FinishRecord, finish),
}

#: The record type each board event is written as (for ``minister export``).
RECORD_TYPES: dict[type[GameEvent], str] = {
    PurchaseRecorded: "purchase", PlacementRecorded: "placement", MapUpdateRecorded: "map_update",
    BidRecorded: "bid", GameFinished: "finish",
}
