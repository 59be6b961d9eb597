"""The board the review checks declarations against: walked with the battles' results.

The board depends on how battles ended, and how a battle ended depends on the review (as rolled
or as corrected). :func:`outcomes_of` turns reviewed battles into the results the walk
(:func:`domain.record.board.walk.walk_board`) applies; :func:`on_board` gives a battle the
board its declaration was made on, so every check of declared units and defenders reads the
board as moved on by the record, not only the last ``position``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from msgspec.structs import replace

from domain.record.board.walk import PENDING, VOID_TURN, BattleResult, BoardWalk, void_turn_key
from domain.record.entries import BattleRecord
from domain.record.game import Game
from domain.review.views import BattleStatus, BattleView, TurnRecords
from domain.rules.forces import EMPTY, Force


def outcomes_of(views: Iterable[BattleView], void_turns: Iterable[str] = ()) -> dict[str, BattleResult]:
    """Battle key -> the result that stands: None when void or not fought (2008 Section II: "no
    portion of the results may stand"; a battle of a turn void under Section VII has no result
    either, the turn "must be re-done"), PENDING while a correction awaits its dice (its
    attackers are in the battle, which is not resolved). Each of ``void_turns`` (2008 Section
    VII) is marked VOID_TURN: the walk undoes its non-combat moves and placements too."""
    unfought, awaiting = (BattleStatus.VOID, BattleStatus.NOT_FOUGHT), BattleStatus.AWAITING
    found: dict[str, BattleResult] = {f"{view.turn} / {view.battle}": (
        None if view.status in unfought
        else PENDING if view.status == awaiting and view.result is None
        else view.result) for view in views}
    for turn in void_turns:
        found[void_turn_key(turn)] = VOID_TURN
    return found


def on_board(record: BattleRecord, walk: BoardWalk | None) -> BattleRecord:
    """The battle with the board its declaration was made on, where the walk knows it."""
    if walk is None:
        return record
    # The audit and the review both ask, battle by battle: answer each once per walk.
    known = walk.boarded.get(id(record))
    if known is not None and known[0] is record:
        return known[1]
    moved = _on_board(record, walk)
    walk.boarded[id(record)] = (record, moved)
    return moved


def _on_board(record: BattleRecord, walk: BoardWalk) -> BattleRecord:
    # The board before the declaration, read straight from the walk's history (BoardAt's
    # look-ups written out: asked of every battle of a long game).
    seq, power = record.declared_seq, record.attacker_power
    available = {}
    for move in record.moves:
        here = _units_at(walk, move.origin, seq)
        if here is not None:
            available[move.origin] = here.get(power, EMPTY)
    position = _units_at(walk, record.territory, seq)
    if position is None:
        return replace(record, available=available) if available != record.available else record
    if position == record.position and available == record.available and record.defenders_known:
        return record
    return replace(record, position=dict(position), available=available, defenders_known=True)


def _units_at(walk: BoardWalk, name: str, seq: int) -> dict[str, Force] | None:
    """Every power's units in a place before record ``seq`` (None: the record does not let us
    know them): one bisection."""
    since = walk.known_since.get(name)
    if since is None or since >= seq:
        return None
    seqs = walk.seqs.get(name)
    index = bisect_left(seqs, seq) - 1 if seqs else -1
    return walk.history[name][index][1] if index >= 0 else {}


def board_knows(record: BattleRecord, walk: BoardWalk | None) -> bool:
    """Whether the walk knows what stood in the battle's territory when it was declared."""
    if walk is None:
        return False
    # BoardAt.knows written out (asked of every battle): no board object made for one look-up.
    since = walk.known_since.get(record.territory)
    return since is not None and since < record.declared_seq


def roles(record: BattleRecord) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The places a battle touched and what it did there: where it was fought ("battle"), where
    its units came from ("origin"), the transports' sea zones ("zone"), where aircraft land
    ("landing"), where it retreated ("retreat")."""
    # (Asked of every battle: each place's roles are a tuple from the start, most of them one
    # of the constants below, shared.)
    found: dict[str, tuple[str, ...]] = {record.territory: _BATTLE}
    for move in record.moves:
        # (Most moves name an origin and nothing else: each name asked for, no pairs built.)
        if move.origin:
            _add_role(found, move.origin, _ORIGIN)
        if move.transport_zone:
            _add_role(found, move.transport_zone, _ZONE)
        if move.unload_zone:
            _add_role(found, move.unload_zone, _ZONE)
        if move.landing:
            _add_role(found, move.landing, _LANDING)
    if record.retreats and record.retreats[-1].territory is not None:  # resolved when filed
        name = record.retreats[-1].territory
        found[name] = found.get(name, ()) + _RETREAT
    return tuple(found.items())


_BATTLE, _ORIGIN, _ZONE, _LANDING, _RETREAT = ("battle",), ("origin",), ("zone",), ("landing",), ("retreat",)


def _add_role(found: dict[str, tuple[str, ...]], name: str, role: tuple[str]) -> None:
    """Note that a battle did ``role`` in ``name`` (each role of a place once, in order)."""
    kinds = found.get(name, ())
    if role[0] not in kinds:
        found[name] = kinds + role  # (() + role is role itself)


#: What each record that moves the board (other than a battle's) is called on the map.
_RECORD_NAMES = {"placement": "{turn}'s placements", "map_update": "{turn}'s map update",
                 "bid": "the bid", "position": "a position"}


def board_records(game: Game) -> tuple[tuple[int, str], ...]:
    """(record number, its name) of every record other than a battle's that may move the board:
    positions, the bid, placements, map updates, non-combat moves (the map says where a place
    was last seen)."""
    found = [(note.seq, _RECORD_NAMES[note.kind].format(turn=note.turn)) for note in game.board_log
             if note.kind in _RECORD_NAMES]
    found += [(entry.seq, f"{entry.turn}'s non-combat moves") for entry in game.noncombat]
    found.sort()
    return tuple(found)


#: What a turn's records other than battles are called on its timeline line.
_TURN_KINDS = {"purchase": "purchase", "placement": "placements", "map_update": "map update",
               "bombing": "bombing raid", "rocket": "rocket", "neutral": "neutral entered"}


def turn_records(game: Game) -> tuple[TurnRecords, ...]:
    """Every turn that has records (battles, purchases, moves, placements, map updates, weapons
    development), in the order of its first record, with what its records other than battles are."""
    marks: list[tuple[int, str, str]] = [(n.seq, n.turn, _TURN_KINDS[n.kind]) for n in game.board_log
                                         if n.turn and n.kind in _TURN_KINDS]
    marks += [(entry.seq, entry.turn, "non-combat moves") for entry in game.noncombat]
    marks += [(entry.seq, entry.turn, "weapons development") for entry in game.tech]
    marks += [(record.declared_seq, record.turn, "") for record in game.battles]
    marks += [(record.fought_seq, record.turn, "") for record in game.battles]
    marks.sort(key=itemgetter(0))  # (record order; a turn's marks of one record as listed)
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    kinds: dict[str, list[str]] = {}
    combat_end: dict[str, int] = {}
    after: dict[str, list[str]] = {}
    for seq, turn, kind in marks:
        if turn not in last:
            first[turn], kinds[turn] = seq, []
        last[turn] = seq
        if not kind:  # a battle's record (most marks): what came after it in the turn starts again
            combat_end[turn] = seq
            after.pop(turn, None)
            continue
        if kind not in kinds[turn]:
            kinds[turn].append(kind)
        if turn in combat_end:
            later = after.setdefault(turn, [])
            if kind not in later:
                later.append(kind)
    return tuple([TurnRecords(turn, start, last[turn], tuple(kinds[turn]), combat_end.get(turn, 0),
                              tuple(after.get(turn, ()))) for turn, start in first.items()])


@dataclass(frozen=True)
class GameParts:
    """The game view's parts made from the records alone (the same in both histories)."""

    board_points: tuple[tuple[int, int], ...]
    board_records: tuple[tuple[int, str], ...]
    board_roles: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]
    turn_records: tuple[TurnRecords, ...]


def game_parts(game: Game) -> GameParts:
    """The game view's parts made from the records alone."""
    return GameParts(tuple([(b.declared_seq, b.fought_seq) for b in game.battles]), board_records(game),
                     tuple([roles(b) for b in game.battles]), turn_records(game))
