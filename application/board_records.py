"""The replay file's board records (extensions of ``minister-replay/1``, docs/format-extensions.md):
``purchase``, ``placement``, ``map_update``, ``bid`` and ``finish``.

Kept apart from the reader of the spec's own record types: each handler reads one [[event]]
table into one event, its text read once (:mod:`domain.record.board_intake`). Errors name the
file, the line and what was expected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from application.replayfile import _Builder

#: The results a ``finish`` may post (2008 Game Completion; Forfeits and Annulments).
RESULTS = ("Axis", "Allies", "annulled")


def _strings(builder: _Builder, index: int, record: Mapping[str, Any], key: str, expected: str,
             *, required: bool = True) -> tuple[str, ...]:
    value = record.get(key)
    if value is None and not required:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ReplayError(f"expected {key} = [{expected}, ...]", source=builder.source,
                          line=builder.lines.key_line(index, key) if key in record
                          else builder.lines.event_line(index))
    return tuple(value)


def purchase(builder: _Builder, index: int, record: Mapping[str, Any], at: datetime,
             line: int | None) -> None:
    """``type = "purchase"``: ``turn``, ``units`` ("3 INF, 1 ARM"), optional ``ipcs``."""
    units = builder._field(index, record, "units")
    builder.add(PurchaseRecorded, at, line, turn=builder._turn(index, record), units=units,
                ipcs=builder._int(index, record, "ipcs", required=False), parsed=Force.parse(units))


def placement(builder: _Builder, index: int, record: Mapping[str, Any], at: datetime,
              line: int | None) -> None:
    """``type = "placement"``: ``turn``, ``place`` (["Germany 3 INF", "Baltic SZ 1 TRN"])."""
    where = _strings(builder, index, record, "place", '"Territory units"')
    builder.add(PlacementRecorded, at, line, turn=builder._turn(index, record), place=where,
                parsed=tuple(placed(entry) for entry in where))


def map_update(builder: _Builder, index: int, record: Mapping[str, Any], at: datetime,
               line: int | None) -> None:
    """``type = "map_update"``: ``turn``, ``units`` (as a position), ``count`` ("UK 30/$32")."""
    units = _strings(builder, index, record, "units", '"Power Territory: force"', required=False)
    count = record.get("count", "")
    if not isinstance(count, str):
        raise ReplayError('expected count = "Power territories/$IPCs" such as "UK 30/$32"',
                          source=builder.source, line=builder.lines.key_line(index, "count"))
    builder.add(MapUpdateRecorded, at, line, turn=builder._turn(index, record), units=units,
                count=count, parsed=map_facts(units, count))


def bid(builder: _Builder, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
    """``type = "bid"``: optional ``total``, ``units`` / ``remove`` ("Germany Ukraine: 3 INF"),
    ``ipcs`` (["Japan 1"])."""
    units = _strings(builder, index, record, "units", '"Power Territory: force"', required=False)
    remove = _strings(builder, index, record, "remove", '"Power Territory: force"', required=False)
    ipcs = _strings(builder, index, record, "ipcs", '"Power IPCs"', required=False)
    builder.add(BidRecorded, at, line, total=builder._int(index, record, "total", required=False),
                units=units, remove=remove, ipcs=ipcs, parsed=bid_facts(units, remove, ipcs))


def finish(builder: _Builder, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
    """``type = "finish"``: ``result`` ("Axis", "Allies", "annulled"), ``by``, optional ``text``."""
    result = builder._field(index, record, "result")
    if result not in RESULTS:
        raise ReplayError(f"expected result = one of {', '.join(RESULTS)}, found {result!r}",
                          source=builder.source, line=builder.lines.key_line(index, "result"))
    builder.add(GameFinished, at, line, result=result, by=builder._field(index, record, "by"),
                text=str(record.get("text", "")))


HANDLERS: dict[str, Callable[[_Builder, int, Mapping[str, Any], datetime, int | None], None]] = {
    "purchase": purchase, "placement": placement, "map_update": map_update, "bid": bid, "finish": finish,
}

#: The record type each board event is written as (for ``minister export``).
RECORD_TYPES: dict[type[GameEvent], str] = {
    PurchaseRecorded: "purchase", PlacementRecorded: "placement", MapUpdateRecorded: "map_update",
    BidRecorded: "bid", GameFinished: "finish",
}
