"""A treasury walk resumed from an earlier treasury of the same game's history.

Dice supplied or drawn for a battle move its result in the board walk (its last record number
is the dice's): the walk's token changes and the treasury (:func:`domain.record.treasury.walk_treasury`)
is made again, though each of its steps before the battle reads what it read on the earlier walk.
So a treasury keeps, beside its result, what its steps read (:class:`TreasuryInputs`): the board
(a digest of its starting IPCs, capitals and land), the void turns, how many records of each kind
it walked (the history only grows: the same count is the same records), the capitals' battles (a
capital's battle is a step, at its last record), and a digest of every :data:`BLOCK` entries of
the walk's control log (every change of a land territory's holder, in record order: the income
steps are made from it, and a step reads a capital's holder before its record, a capture after
it too). And where each turn began and was collected (:attr:`TreasuryInputs.turns`): what the
walker holds that its ledgers do not tell.

A new treasury compares these with an earlier one's (:func:`first_change`: the first record
number whose step may read something else), keeps the earlier one's entries and income steps
before that record (:func:`cut`: copies, the earlier treasury is never changed) and walks on from
there. The result is the full walk's, field for field (``tests/unit/test_treasury_resume.py``
checks it on random event sequences). Anything it cannot compare (another board, start or void
turns, fewer records, a control log not kept) gives no resume point: the treasury is walked from
the start.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Container, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import msgspec

if TYPE_CHECKING:
    from domain.record.board_walk import BoardWalk
    from domain.record.game import Game


class EarlierTreasury(Protocol):
    """What a resume reads of an earlier treasury (domain.record.treasury.TreasuryWalk; named
    by its parts, not imported: the treasury imports this module)."""

    @property
    def known(self) -> bool: ...
    @property
    def inputs(self) -> TreasuryInputs | None: ...
    @property
    def history(self) -> dict[str, list[tuple[int, int]]]: ...
    @property
    def spends(self) -> list[Any]: ...
    @property
    def incomes(self) -> list[Any]: ...
    @property
    def captures(self) -> list[Any]: ...


_T = TypeVar("_T", bound=EarlierTreasury)

#: No change found (a record number after every record).
NOWHERE = 1 << 62

#: Control log entries per digest (TreasuryInputs.log): a change resumes the income steps at
#: most this many entries before it.
BLOCK = 64

#: Deterministic bytes for the digests (a treasury is stored, and read in another process).
_ENCODER = msgspec.msgpack.Encoder(order="deterministic")

_SEQ = attrgetter("seq")
#: A capital's battle is a step at its last record (a change of its declaration changes the
#: battles' digest).
_LAST = itemgetter(1)


@dataclass(frozen=True)
class TreasuryInputs:
    """What a treasury walk's steps read (see the module docstring), and where its turns began."""

    #: A digest of the board's starting IPCs, capitals and land (their IPCs and first holders).
    board: bytes
    void: frozenset[str]
    #: (how many, the last one's record number) of the board records, non-combat moves and tech.
    counts: tuple[tuple[int, int], ...]
    #: How many battles, and a digest of their declarations' record numbers.
    battles: tuple[int, bytes]
    #: (declaration, last record number) of each battle in a capital, in the game's order.
    capital_battles: list[tuple[int, int]]
    #: (the first entry's record number, a digest of the entries) of every BLOCK entries of the
    #: walk's control log, in order.
    log: list[tuple[int, bytes]]
    #: (record number, the turn under way, whether its income was collected) after every step
    #: that changed them, in record order.
    turns: list[tuple[int, str | None, bool]]


def _counts(game: Game) -> tuple[tuple[int, int], ...]:
    return tuple((len(records), records[-1].seq if records else -1)
                 for records in (game.board_log, game.noncombat, game.tech))


def _declared(game: Game, count: int | None = None) -> bytes:
    battles = game.battles if count is None else game.battles[:count]
    return blake2b(array("q", [b.declared_seq for b in battles]).tobytes(), digest_size=16).digest()


def inputs_of(game: Game, walk: BoardWalk, capitals: dict[str, str],
              turns: list[tuple[int, str | None, bool]]) -> TreasuryInputs | None:
    """What a treasury walked on ``walk`` read (None: the walk logged no control changes)."""
    log = walk.control_log
    if log is None:
        return None
    board = walk.board
    owners = set(capitals.values())
    encode = _ENCODER.encode
    digest = blake2b(encode([sorted(board.starting_ipcs.items()), sorted(capitals.items()),
                             [(t.name, t.ipc, t.owner) for t in board.land]]), digest_size=16).digest()
    return TreasuryInputs(digest, walk.void, _counts(game), (len(game.battles), _declared(game)),
                          [(b.declared_seq, b.last_seq) for b in game.battles if b.territory in owners],
                          [(log[at][0], blake2b(encode(log[at:at + BLOCK]), digest_size=8).digest())
                           for at in range(0, len(log), BLOCK)], turns)


def first_change(earlier: TreasuryInputs, now: TreasuryInputs, game: Game) -> int:
    """The first record number whose treasury step (or income step) may read something other
    than the earlier treasury's did (0: from the start; :data:`NOWHERE`: nowhere)."""
    if earlier.board != now.board or earlier.void != now.void:
        return 0
    found = NOWHERE
    records: tuple[Sequence[Any], ...] = (game.board_log, game.noncombat, game.tech)
    for (count, last), (new_count, _), kind in zip(earlier.counts, now.counts, records, strict=True):
        if new_count < count or (count and kind[count - 1].seq != last):
            return 0  # not the same records (the history only grows)
        if new_count > count:
            found = min(found, kind[count].seq)
    count, digest = earlier.battles
    if now.battles != earlier.battles:
        if now.battles[0] < count or _declared(game, count) != digest:
            return 0
        found = min(found, *(b.declared_seq for b in game.battles[count:]))
    # A control log's block changed: the entries before it are the same, so are the entries of
    # every record before its first entry's (in either log).
    return min(found, _first_change(earlier.capital_battles, now.capital_battles, _LAST),
               _first_change(earlier.log, now.log))


def _first_change(old: Sequence[tuple[Any, ...]], new: Sequence[tuple[Any, ...]],
                  first: Any = None) -> int:
    """The first record number where two logs (each entry ``(record number, ...)``, or with
    ``first`` given, the record number it picks of an entry) differ."""
    if old == new:
        return NOWHERE
    pick = first if first is not None else (lambda entry: entry[0])
    for a, b in zip(old, new, strict=False):
        if a != b:
            return int(min(pick(a), pick(b)))
    shorter = min(len(old), len(new))
    return int(pick((old if len(old) > shorter else new)[shorter]))


def resume_point(since: Sequence[_T], now: TreasuryInputs, game: Game) -> tuple[_T, int] | None:
    """The earlier treasury to resume from and the record number to walk again from, the
    latest found (None: none)."""
    best: tuple[_T, int] | None = None
    for earlier in since:
        inputs = earlier.inputs
        if inputs is None or not earlier.known:
            continue
        seq = first_change(inputs, now, game)
        if seq > 0 and (best is None or seq > best[1]):
            best = (earlier, seq)
    return best


def cut(earlier: EarlierTreasury, seq: int, starting: Container[str]) -> tuple[
        dict[str, list[tuple[int, int]]], list[Any], list[Any], list[Any],
        list[tuple[int, str | None, bool]]]:
    """The earlier treasury's ledger, spends, incomes, captures and turns before record ``seq``
    (copies); ``starting``: the powers the ledger starts with (any other is there from its first
    entry on)."""
    assert earlier.inputs is not None
    ledger: dict[str, list[tuple[int, int]]] = {}
    at = (seq,)  # sorts before every entry of record seq
    for power, entries in earlier.history.items():
        kept = entries[:bisect_left(entries, at)]
        if power in starting or len(kept) > 1:
            ledger[power] = kept
    turns = earlier.inputs.turns
    return (ledger, earlier.spends[:bisect_left(earlier.spends, seq, key=_SEQ)],
            earlier.incomes[:bisect_left(earlier.incomes, seq, key=_SEQ)],
            earlier.captures[:bisect_left(earlier.captures, seq, key=_SEQ)],
            turns[:bisect_left(turns, at)])
