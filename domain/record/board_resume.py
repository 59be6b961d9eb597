"""A walk of the board resumed from an earlier walk of the same game's history.

Dice supplied or drawn for a battle end its record later (its last record number is the
dice's), so its result moves in the walk (:func:`domain.record.board_state.walk_board` places a
result at the battle's last record): the walk's token changes and the walk is made again, though
every step before the battle's old place is as it was. So a walk keeps, beside its result:

- what each of its steps read (:class:`WalkInputs`): each battle's place in the history (its
  declaration and last record numbers) and its result, how many board records and non-combat
  moves it walked (the history only grows: the same count is the same records), the bid
  placements it asked whether the Minister ruled off, and the walk as rolled's adopted units it
  read at positions (a walk as corrected);
- every so often, at a record boundary (:data:`EVERY` steps), a :class:`Mark`: what the walker
  holds that its history does not tell (the turn, the flags, the purses, the aircraft put back,
  how long each log was).

A new walk of the same history compares its inputs with an earlier walk's
(:func:`first_change`: the first place whose step reads something else), takes the last mark at
or before it, rebuilds the walker there (:func:`rebuild`: units and control from each
territory's last history entry before it, the logs cut to their lengths then, all copied: the
earlier walk is never changed) and walks on from there. The result is the full walk's, field
for field (``tests/unit/test_board_resume.py`` checks it on random event sequences). Anything it
cannot compare (another start, another board, void turns changed, fewer records) gives no
resume point: the walk is made from the start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from itertools import islice
from typing import TYPE_CHECKING, Any

import msgspec

from domain.record.walk_inputs import BattleResult
from domain.record.walk_marks import Mark, WalkInputs
from domain.rules.forces import Force

if TYPE_CHECKING:
    from domain.record.board_walk import BoardWalk
    from domain.record.board_walker import Walker
    from domain.record.game import Game

#: Steps walked between two marks (a mark is taken at the next record boundary): a resumed walk
#: walks at most this many steps it need not have.
EVERY = 256

#: Battles per digest of their results (WalkInputs.results): a changed result resumes the walk
#: at most this many battles before it.
BLOCK = 32

#: Deterministic bytes for the results' digests (the walk is stored, and read in another process).
_ENCODER = msgspec.msgpack.Encoder(order="deterministic")

#: Battles compared at once for a change of place.
_STRETCH = 256

#: No change found (a place after every record).
_NOWHERE = 1 << 62


def take_mark(walker: Walker) -> Mark:
    """The walker's state at a record boundary (copies: the walk goes on changing its own)."""
    state = walker.state
    return Mark(walker.seq, walker.started, walker.turn, walker.turn_at, walker.updated, walker.listed,
                walker.bid_seq, dict(state.treasury), dict(state.pending),
                _relanded(walker),
                (len(walker.discrepancies), len(walker.counts), len(walker.round_ends),
                 len(walker.control_log), len(walker.known_since), len(walker.adopted)))


def _relanded(walker: Walker) -> dict[tuple[str, str], tuple[tuple[str, Force], ...]]:
    unlanded = walker.unlanded
    changed = {key: unlanded[key] for key in walker.relanded}
    walker.relanded.clear()
    return changed


@dataclass(frozen=True)
class Battles:
    """What a walk reads of the battles: their places and a digest of their results."""

    places: list[tuple[int, int]]
    results: list[bytes]


def battles_of(game: Game, outcomes: Mapping[str, BattleResult]) -> Battles:
    """Each battle's (declaration, last record number), in the game's order, and a digest of
    their results by :data:`BLOCK` (a few bytes kept, not every result: the walk is stored)."""
    battles = game.battles
    results = [outcomes.get(b.key) for b in battles]
    encode = _ENCODER.encode
    return Battles([(b.declared_seq, b.last_seq) for b in battles],
                   [blake2b(encode(results[at:at + BLOCK]), digest_size=8).digest()
                    for at in range(0, len(results), BLOCK)])


def inputs_of(walker: Walker, game: Game, battles: Battles, marks: list[Mark]) -> WalkInputs:
    """What the walk just made read (``battles``: :func:`battles_of`; its marks given)."""
    return WalkInputs(walker.rolled is not None, walker.from_setup, battles.places, battles.results,
                      _count(game.board_log), _count(game.noncombat), walker.asked,
                      walker.rolled.adopted if walker.rolled is not None else None, marks)


def _count(records: Sequence[Any]) -> tuple[int, int]:
    return (len(records), records[-1].seq if records else -1)


def first_change(earlier: WalkInputs, game: Game, battles: Battles,
                 outcomes: Mapping[str, BattleResult], void: frozenset[str], earlier_void: frozenset[str],
                 written: dict[tuple[int, str, str], Force] | None, from_setup: bool) -> int:
    """The first place (record number * 4 + kind) at which a walk of ``game`` (``battles``:
    :func:`battles_of`) reads something other than the earlier walk's steps did (0: from the start;
    :data:`_NOWHERE`: nowhere)."""
    if earlier.from_setup != from_setup or earlier.corrected != (written is not None) or \
            void != earlier_void:
        return 0
    found = _NOWHERE
    for old, records in ((earlier.notes, game.board_log), (earlier.noncombat, game.noncombat)):
        count, last = old
        if len(records) < count or (count and records[count - 1].seq != last):
            return 0  # not the same records (the history only grows)
        if len(records) > count:
            found = min(found, records[count].seq << 2)
    places, old_places = battles.places, earlier.places
    if places != old_places:
        for start in range(0, max(len(places), len(old_places)), _STRETCH):
            end = start + _STRETCH
            if places[start:end] == old_places[start:end]:
                continue  # (compared in C: dice move one battle)
            for index in range(start, end):
                now = places[index] if index < len(places) else None
                was = old_places[index] if index < len(old_places) else None
                if now == was:
                    continue
                if now is None or was is None or now[0] != was[0]:
                    # Another battle here: from the first of their declarations.
                    found = min(found, *((p[0] << 2) + 1 for p in (now, was) if p is not None))
                else:
                    found = min(found, (now[1] << 2) + 2, (was[1] << 2) + 2)
    results, old_results = battles.results, earlier.results
    if results != old_results:
        for block in range(max(len(results), len(old_results))):
            if block < len(results) and block < len(old_results) and results[block] == old_results[block]:
                continue
            # A result in these battles changed: from the first place one was or is put.
            for index in range(block * BLOCK, (block + 1) * BLOCK):
                if index < len(places):
                    found = min(found, (places[index][1] << 2) + 2)
                if index < len(old_places):
                    found = min(found, (old_places[index][1] << 2) + 2)
            break
    for seq, key, dropped in earlier.asked:
        if (key in outcomes) != dropped:
            found = min(found, seq << 2)
            break
    if written is not earlier.written and written is not None and earlier.written is not None:
        found = min(found, _first_adopted(written, earlier.written))
    return found


def _first_adopted(new: dict[tuple[int, str, str], Force], old: dict[tuple[int, str, str], Force]) -> int:
    """The first position whose adopted units differ between two walks as rolled."""
    for (new_key, new_units), (old_key, old_units) in zip(new.items(), old.items(), strict=False):
        if new_key != old_key or new_units != old_units:
            return min(new_key[0], old_key[0]) << 2
    if len(new) == len(old):
        return _NOWHERE
    longer = new if len(new) > len(old) else old
    return next(islice(longer, min(len(new), len(old)), None))[0] << 2


def resume_mark(earlier: BoardWalk, place: int) -> Mark | None:
    """The last mark of an earlier walk at or before ``place`` (None: none)."""
    inputs = earlier.inputs
    if inputs is None:
        return None
    found = None
    for mark in inputs.marks:
        if mark.seq << 2 > place:
            break
        found = mark
    return found


def rebuild(walker: Walker, earlier: BoardWalk, mark: Mark) -> list[Mark]:
    """Set a fresh walker to where the earlier walk stood at ``mark`` (copies of its parts);
    the earlier walk's marks up to it (the resumed walk's first marks)."""
    assert earlier.inputs is not None
    seq = mark.seq
    state = walker.state
    units: dict[str, dict[str, Force]] = {}
    control = state.control
    history: dict[str, list[Any]] = {}
    seqs = earlier.seqs
    from bisect import bisect_left

    for territory, entries in earlier.history.items():
        cut = bisect_left(seqs[territory], seq)
        if not cut:
            continue  # first logged later: logged again (in the same order) when walked on
        kept = history[territory] = entries[:cut]
        last = kept[-1]
        units[territory] = dict(last[1])
        if last[2] is not None:
            control[territory] = last[2]
    discrepancies, counts, round_ends, controls, known, adopted = mark.lengths
    known_since = dict(islice(earlier.known_since.items(), known))
    state.units.clear()
    state.units.update(units)
    state.known.clear()
    state.known.update(known_since)
    state.treasury.clear()
    state.treasury.update(mark.treasury)
    state.pending.clear()
    state.pending.update(mark.pending)
    walker.history, walker.known_since = history, known_since
    walker.discrepancies = earlier.discrepancies[:discrepancies]
    walker.counts = earlier.counts[:counts]
    walker.round_ends = earlier.round_ends[:round_ends]
    walker.control_log = (earlier.control_log or [])[:controls]
    walker.adopted = dict(islice(earlier.adopted.items(), adopted))
    unlanded = walker.unlanded
    for taken in earlier.inputs.marks:
        if taken.seq > seq:
            break
        unlanded.update(taken.unlanded)
    walker.relanded.clear()
    walker.seq, walker.started, walker.turn, walker.turn_at = seq, mark.started, mark.turn, mark.turn_at
    walker.updated, walker.listed, walker.bid_seq = mark.updated, mark.listed, mark.bid_seq
    walker.asked = [asked for asked in earlier.inputs.asked if asked[0] < seq]
    return [taken for taken in earlier.inputs.marks if taken.seq <= seq]


def resume_point(earlier: Sequence[BoardWalk], walker: Walker, game: Game,
                 battles: Battles) -> tuple[BoardWalk, Mark] | None:
    """The earlier walk and mark the walk can resume from, the latest found (None: none)."""
    best: tuple[BoardWalk, Mark] | None = None
    written = walker.rolled.adopted if walker.rolled is not None else None
    void = frozenset(walker.void)
    for walk in earlier:
        inputs = walk.inputs
        if inputs is None or walk.board is not walker.board:
            continue
        place = first_change(inputs, game, battles, walker.outcomes, void, walk.void, written,
                             walker.from_setup)
        mark = resume_mark(walk, place) if place else None
        if mark is not None and (best is None or mark.seq > best[1].seq):
            best = (walk, mark)
    return best
