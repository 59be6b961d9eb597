"""How far two walks of the board (and their treasuries) read the same: the proof that a part of
the review made on one walk holds on another.

A dice event on the game's last battle moves that battle's last record, so the walk's token
changes (domain/review/memo.py) although the board before that record is what it was. Two walks
are compared (:func:`walk_agrees`, :func:`treasury_agrees`): the answer is a record number ``s``
such that every look at the board (or the treasury) just before a record ``<= s`` gives the same
in both. A :data:`Lineage` carries that from walk to walk: it names, for every record number, the
first walk whose board before it this walk still has (:func:`descend`, :func:`name_before`), so
a part that reads the board only before record ``d`` is keyed by ``name_before(lineage, d)``: the
same key on every later walk that agrees with it there, a new one as soon as one look differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.record.board_walk import BoardWalk
    from domain.record.treasury import TreasuryWalk

#: Beyond every record number.
EVERY = 1 << 62

#: (limit, name), limits increasing, the last one :data:`EVERY`: the board before any record
#: ``s <= limit`` (and above the previous limit) is the board of the walk ``name`` names.
Lineage = tuple[tuple[int, str], ...]


def walk_agrees(old: BoardWalk, new: BoardWalk) -> int:
    """The largest ``s`` such that the two walks read the same before every record ``<= s``.

    Every look at the board before a record reads the walk's board, ``known_since`` (known when
    ``since < s``) and the history's entries numbered below ``s`` (BoardAt, board_review's
    ``on_board``/``board_knows``): where ``known_since`` differs, only looks at or below the
    smaller number agree (neither knows the place yet); where a history differs first at its
    ``i``-th entry, only looks at or below the smaller of the two entries' numbers agree (both
    read entries before ``i``)."""
    if old.board is not new.board and old.board != new.board:
        return 0
    limit = EVERY
    olds, news = old.known_since, new.known_since
    if olds != news:
        for name in olds.keys() | news.keys():
            a, b = olds.get(name), news.get(name)
            if a != b:
                limit = min(limit, *(x for x in (a, b) if x is not None))
    for name in old.history.keys() | new.history.keys():
        was, now = old.history.get(name), new.history.get(name)
        if was is not None and now is not None:
            limit = min(limit, _first_change(was, now))
            continue
        # In one history only: a look reads no units there before its first entry, but the
        # known places (BoardAt.known_units) list it from when it is known.
        walk, entries = (old, was) if was is not None else (new, now)
        assert entries is not None
        since = walk.known_since.get(name)
        limit = min(limit, entries[0][0] if entries else EVERY, EVERY if since is None else since)
    return limit


def treasury_agrees(old: TreasuryWalk, new: TreasuryWalk) -> int:
    """The largest ``s`` such that the two treasuries give the same purses before every record
    ``<= s`` (review.treasury_review.purses reads ``known``, the IPCs' and the incomes' entries
    numbered below ``s``)."""
    if old.known != new.known:
        return 0
    limit = _first_change(old.income_steps, new.income_steps)
    for power in old.history.keys() | new.history.keys():
        limit = min(limit, _first_change(old.history.get(power, ()), new.history.get(power, ())))
    return limit


def _first_change(old: Sequence[tuple[Any, ...]], new: Sequence[tuple[Any, ...]]) -> int:
    """The number of the first entry (each ``(record number, ...)``) where two histories differ
    (:data:`EVERY`: they are the same)."""
    if old is new or old == new or not (old or new):
        return EVERY
    for a, b in zip(old, new, strict=False):
        if a != b:
            return min(int(a[0]), int(b[0]))
    shorter = min(len(old), len(new))  # they differ: one goes on past the other
    return int((old if len(old) > shorter else new)[shorter][0])


def descend(parent: Lineage | None, agrees: int, name: str) -> Lineage:
    """The lineage of a walk named ``name`` that reads as the walk of ``parent`` before every
    record ``<= agrees`` (None: no earlier walk, all of it is its own)."""
    found: list[tuple[int, str]] = []
    for limit, earlier in parent or ():
        kept = min(limit, agrees)
        if kept > (found[-1][0] if found else 0):
            found.append((kept, earlier))
    if not found or found[-1][0] < EVERY:
        found.append((EVERY, name))
    return tuple(found)


def name_before(lineage: Lineage, seq: int) -> str:
    """The name of the first walk whose board, before every record ``<= seq``, this one has."""
    for limit, name in lineage:
        if seq <= limit:
            return name
    raise ValueError(f"a lineage ends at {EVERY}: no record {seq}")
