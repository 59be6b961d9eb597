"""The board as walked: each territory's history through a game's records, read at any record.

:func:`domain.record.board.walk.walk_board` makes a :class:`BoardWalk`; a :class:`BoardAt` reads
it as it stood before a record (one bisection per look), and the checkpoints' findings
(:class:`Discrepancy`, :class:`CountCheck`) ride with it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from types import MappingProxyType

import msgspec

from domain.record.entries import BattleRecord
from domain.record.events import MapCount
from domain.rules.board import NEUTRAL, Board
from domain.rules.forces import EMPTY, Force


@dataclass(frozen=True)
class Discrepancy:
    """A checkpoint (position or map update) that disagrees with the board as moved on."""

    seq: int
    at: datetime | None
    turn: str
    territory: str
    power: str
    stated: Force
    board: Force
    kind: str  # position or map_update


@dataclass(frozen=True)
class CountCheck:
    """A map update's territory/IPC count beside the board's."""

    seq: int
    at: datetime | None
    turn: str
    stated: MapCount
    territories: int
    ipcs: int



class Flight(msgspec.Struct, frozen=True):
    """Aircraft that survived a battle of their turn: where they flew from into it, and where
    the declaration lands them (None: a non-combat move lands them, or nothing does). The
    non-combat review counts their combat move against their range. (A Struct: one is made at
    most battles of the walk, and a frozen dataclass's fields are set one slow call each.)"""

    battle: str
    origin: str
    units: Force
    landing: str | None
    #: The battle's record number (where it is over) and when it was declared.
    seq: int
    at: datetime | None


#: One entry of a territory's history: (record number, every power's units, holder).
Entry = tuple[int, dict[str, Force], str | None]


class BoardAt:
    """The board as it stood before record ``seq`` (read-only; read from the walk's history)."""

    def __init__(self, walk: BoardWalk, seq: int) -> None:
        self.walk, self.seq = walk, seq

    def _entry(self, territory: str) -> Entry | None:
        seqs = self.walk.seqs.get(territory)
        if not seqs:
            return None
        index = bisect_left(seqs, self.seq) - 1
        return self.walk.history[territory][index] if index >= 0 else None

    def knows(self, territory: str) -> bool:
        """Whether the record lets us know what stood in the territory then."""
        since = self.walk.known_since.get(territory)
        return since is not None and since < self.seq

    def holders(self, territory: str) -> dict[str, Force]:
        """Every power's units in a territory (a copy)."""
        entry = self._entry(territory)
        return dict(entry[1]) if entry is not None else {}

    def of(self, territory: str, power: str) -> Force:
        """One power's units in a territory."""
        entry = self._entry(territory)
        return entry[1].get(power, EMPTY) if entry is not None else EMPTY

    def control_of(self, territory: str) -> str | None:
        """Who held a land territory (its original owner until the record says otherwise)."""
        entry = self._entry(territory)
        if entry is not None:
            return entry[2]
        return self._owner(territory)

    def look(self, territory: str) -> tuple[str | None, Mapping[str, Force]]:
        """(who held the territory, every power's units there): one look-up for both; the
        units are the walk's own (read-only, not a copy)."""
        entry = self._entry(territory)
        if entry is not None:
            return entry[2], entry[1]
        return self._owner(territory), _NOTHING

    def _owner(self, territory: str) -> str | None:
        place = self.walk.board.territory(territory)
        return None if place.owner == NEUTRAL or place.sea else place.owner

    def known_units(self) -> dict[str, dict[str, Force]]:
        """Every known territory's units."""
        return {t: self.holders(t) for t in self.walk.history if self.knows(t)}

    def count(self, power: str) -> tuple[int, int]:
        """(territories, IPCs) the power controls: Post Combat Orders' count."""
        held = [t for t in self.walk.board.land if self.control_of(t.name) == power]
        return len(held), sum(t.ipc for t in held)

    def side_ipcs(self, powers: Collection[str]) -> int:
        """The IPC value of every territory the powers control (Magic 84's Axis count): one
        look at each territory for all of them."""
        return sum(t.ipc for t in self.walk.board.land if self.control_of(t.name) in powers)


@dataclass
class BoardWalk:
    """The board walked through a game's records: each territory's history, and the checks."""

    board: Board
    #: territory -> (record number, units, holder) after each record that changed it (0: start).
    history: dict[str, list[Entry]]
    #: territory -> the record number from which the record lets us know it (0: the start).
    known_since: dict[str, int]
    discrepancies: list[Discrepancy]
    counts: list[CountCheck]
    #: (turn ended, when, the record number the board is read before) after each USA turn:
    #: Magic 84 is counted there.
    round_ends: list[tuple[str, datetime | None, int]]
    #: Whether the start is the full Classic setup (round 1) or only what positions named.
    from_setup: bool
    #: (position record, territory, power) -> the units a position replaced.
    adopted: dict[tuple[int, str, str], Force] = field(default_factory=dict)
    #: The record number of the bid (None: no bid recorded).
    bid_seq: int | None = None
    #: Turns void under 2008 Section VII ("the subsequent turn is void and must be re-done"):
    #: their moves are undone on this board, their purchases in the treasury walked beside it.
    void: frozenset[str] = frozenset()
    #: (record number, land territory, new holder) at every change of control, in record order
    #: (the treasury's income steps read it).
    control_log: list[tuple[int, str, str]] = field(default_factory=list, compare=False)
    #: turn -> territory -> the turn's power's units, other than aircraft, that took part in its
    #: combat and stand there after it (survivors, a retreat, support ships, transports that
    #: unloaded): they may not move in non-combat (2008 Rules Clarifications, Combat/Non-Combat
    #: Movement).
    fought: dict[str, dict[str, Force]] = field(default_factory=dict, compare=False)
    #: turn -> the aircraft that survived its battles, each with its combat move (Flight).
    flights: dict[str, list[Flight]] = field(default_factory=dict, compare=False)
    #: id of a battle record -> (it, the record with this board): see review.board_review.on_board.
    boarded: dict[int, tuple[BattleRecord, BattleRecord]] = field(default_factory=dict, compare=False)
    #: territory -> the record numbers of its history's entries (bisected without a key function:
    #: every look at the board before a record is one bisection).
    seqs: dict[str, list[int]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.seqs = {territory: list(map(_SEQ, entries)) for territory, entries in self.history.items()}

    def before(self, seq: int) -> BoardAt:
        """The board just before record ``seq``."""
        return BoardAt(self, seq)

    @property
    def final(self) -> BoardAt:
        """The board after every record."""
        return BoardAt(self, 1 << 62)

    def at_declaration(self, record: BattleRecord) -> BoardAt:
        """The board a battle's declaration was made on."""
        return BoardAt(self, record.declared_seq)

    def changed_by(self, seq: int) -> list[str]:
        """The territories record ``seq`` changed."""
        found = []
        for territory, seqs in self.seqs.items():
            index = bisect_left(seqs, seq)
            if index < len(seqs) and seqs[index] == seq:
                found.append(territory)
        return found

    def same_board(self, other: BoardWalk) -> bool:
        """Whether two walks give the same board at every record."""
        return (self.history == other.history and self.known_since == other.known_since
                and self.void == other.void)


#: An entry's record number.
_SEQ = itemgetter(0)

#: No units (a territory the walk has no entry for).
_NOTHING: Mapping[str, Force] = MappingProxyType({})
