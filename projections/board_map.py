"""The board at a point of the timeline, for the map: who holds each territory and sea zone,
what stands there, what the turn changed, and where the record as rolled and the game as
corrected leave the board differently.

The review gives each history's board as its walk moved it, record by record
(``GameView.board_history``: battles, non-combat moves, placements, the bid, positions), and the
record numbers of each battle (``board_points``). The map reads the board there
(:class:`HistoryBoard`, one bisection per place), so what a non-combat move, a placement or the
bid changed shows from the point of the timeline after it, and each place says which record it
was last changed by (``Square.seen``; empty while it still shows the Classic setup). The places
a battle touched, before and after it (what the board panel lists), are read there too, for the
battle shown only (:func:`battle_places`): the review does not make them for every battle.

At the line of a turn without battles the map is the board after that turn's last record, and
"changed" is what its records changed (from the board before its first). At a turn's line the
map is the board as that turn's battles were declared, and "changed" is
what the records since the last battle changed (the turns before it: non-combat moves,
placements, turns without battles); at a battle (and its rounds) it is the board once that
battle is over, and "changed" is measured from the turn's line. A battle still awaiting dice
leaves its attackers in it beside the defenders: the place is ``contested``. A record taken up
mid-game (not from the setup) knows only the places its positions and battles name
(``GameView.board_known``): the others are not ``known``, their units and holder not shown.
Pure Python: no Textual here.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field

import msgspec

from domain.record.entries import allied
from domain.review.views import BattleStatus, BattleView, GameView, PlaceView
from domain.rules.board import NEUTRAL, Board
from domain.rules.forces import Force
from domain.rules.units import UnitType
from projections.timeline import Timeline

Units = tuple[tuple[str, Force], ...]


class Square(msgspec.Struct, frozen=True):
    """One territory or sea zone on the board at a point of the timeline."""

    territory: str
    ipc: int
    #: Who controls it: a power, or None for a sea zone or an uncontrolled neutral.
    holder: str | None
    units: Units
    #: Where the square was last seen: "after the battle in Karelia S.S.R. (Germany 1)", "as the
    #: battle in … was declared"; "" while it still shows the Classic setup (no battle touched it).
    seen: str = ""
    #: Whether the record lets us know what stands here. A record that starts after the setup
    #: (a game taken up mid-way) knows only what its positions and battles name: elsewhere
    #: neither units nor holder are shown (never the Classic setup's, as if they were fact).
    known: bool = True

    def same_board(self, other: Square | None) -> bool:
        """Whether the other square has the same holder and units (where it was seen aside)."""
        return other is not None and (self.holder, self.units) == (other.holder, other.units)

    @property
    def contested(self) -> bool:
        """Whether enemies stand here together: a battle begun and not resolved (its attackers
        await the dice of a correction beside the defenders)."""
        powers = [power for power, force in self.units if force]
        return any(not allied(a, b) for i, a in enumerate(powers) for b in powers[i + 1:])


Squares = Mapping[str, Square]


@dataclass(frozen=True)
class MapPoint:
    """What the map shows at one point of the timeline."""

    #: "Germany 1 · after the battle in Karelia S.S.R." or "Germany 1 · as its battles were declared".
    title: str
    turn: str
    #: The main line's board, every territory and sea zone by name.
    squares: Squares
    #: The other history's board at the same point (None when it is not loaded or lacks the battle).
    other: Squares | None
    #: The board as the turn's battles were declared (what "changed" is measured from).
    start: Squares
    #: The current battle's territory (None at a turn's line).
    battle: str | None = None
    #: The current battle's places and what the battle did there ("battle", "origin", "retreat" …).
    roles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Every place a battle of this turn touched.
    touched: frozenset[str] = frozenset()
    #: Places whose holder or units differ from the board as the turn's battles were declared.
    changed: frozenset[str] = frozenset()
    #: Places the two histories leave with a different holder or different units.
    differs: frozenset[str] = frozenset()
    #: Whether the main line is the record as rolled (the other history then the game as corrected).
    as_rolled: bool = False
    #: What ``start`` is: "at the turn's start" (at a battle), "after the last battle" (at a turn).
    since: str = "at the turn's start"
    #: Places where enemies stand together: a battle there is not resolved.
    contested: frozenset[str] = frozenset()


def _setup(board: Board) -> dict[str, Square]:
    squares: dict[str, Square] = {}
    for territory in board:
        holder = None if territory.sea or territory.owner == NEUTRAL else territory.owner
        units = tuple((power, held[territory.name]) for power, held in board.setup.items()
                      if held.get(territory.name))
        squares[territory.name] = Square(territory.name, territory.ipc, holder, units)
    return squares


class _Turns:
    """Where a battle's turn begins and which battles it has (shared by both boards)."""

    view: GameView

    def turn_battles(self, b: int) -> list[BattleView]:
        """The battles of battle ``b``'s turn, in order."""
        battles = self.view.battles
        start = self.turn_first(b)
        end = b
        while end < len(battles) and battles[end].turn == battles[b].turn:
            end += 1
        return list(battles[start:end])

    def turn_first(self, b: int) -> int:
        """The index of the first battle of battle ``b``'s turn."""
        battles = self.view.battles
        while b > 0 and battles[b - 1].turn == battles[b].turn:
            b -= 1
        return b


class HistoryBoard(_Turns):
    """One history's board read from the walk's history the view carries: the board after any
    record, every place as the last record that changed it left it."""

    def __init__(self, view: GameView, board: Board | None = None) -> None:
        self.view = view
        self._setup = _setup(board or Board.classic())
        self._history = view.board_history
        self._seqs = {territory: [entry[0] for entry in entries]
                      for territory, entries in self._history.items()}
        #: The places the record does not know from its start (none when it starts from the
        #: setup), each with the record from which it knows them (None: never), and what they
        #: show until then.
        known = view.board_known
        self._unknown = {name: (known.get(name), Square(name, square.ipc, None, (), known=False))
                         for name, square in self._setup.items() if known.get(name) != 0}
        names = dict(view.board_records)
        for battle, (declared, last) in zip(view.battles, view.board_points, strict=False):
            names.setdefault(declared, f"{battle.turn}'s combat moves")
            begun = battle.status == BattleStatus.AWAITING and battle.result is None
            waits = " (begun, awaiting dice)" if begun else ""
            names[last] = f"the battle in {battle.battle} ({battle.turn}){waits}"
        self._names = names

    def before(self, seq: int) -> dict[str, Square]:
        """The board just before record ``seq`` (a fresh dict: the caller's to change)."""
        state = dict(self._setup)
        for territory, seqs in self._seqs.items():
            index = bisect_left(seqs, seq) - 1
            if index < 0:
                continue
            at, units, holder = self._history[territory][index]
            seen = f"after {self._names[at]}" if at in self._names else ""
            setup = self._setup.get(territory)
            ipc = setup.ipc if setup is not None else 0
            state[territory] = Square(territory, ipc, holder, tuple(units.items()), seen)
        for territory, (since, unknown) in self._unknown.items():
            if since is None or since >= seq:  # (as the walk reads it: board_review._units_at)
                state[territory] = unknown
        return state

    def after(self, count: int) -> dict[str, Square]:
        """The board once the first ``count`` battles are over (and every record before the last
        one's last record)."""
        if count <= 0:
            return self.before(1)
        return self.before(self.view.board_points[count - 1][1] + 1)

    def turn_start(self, first: int) -> dict[str, Square]:
        """The board as the battles of the turn beginning at battle ``first`` were declared."""
        count = len(self.turn_battles(first))
        points = self.view.board_points[first:first + count]
        return self.before(min(declared for declared, _ in points))


def battle_places(view: GameView, b: int, board: Board | None = None) -> tuple[PlaceView, ...]:
    """The territories battle ``b`` of the view touched, before its declaration and after its
    last record, read from the walk's history the view carries (only the battle shown asks)."""
    if b >= len(view.board_roles) or b >= len(view.board_points):
        return ()
    board = board or Board.classic()
    declared, after = view.board_points[b][0], view.board_points[b][1] + 1
    history, known = view.board_history, view.board_known
    found = []
    for name, kinds in view.board_roles[b]:
        since = known.get(name)
        if since is None or since >= after:
            continue
        place = board.territory(name)
        owner = None if place.owner == NEUTRAL or place.sea else place.owner
        held_before: str | None = owner
        held_after: str | None = owner
        units_before: Units = ()
        units_after: Units = ()
        entries = history.get(name, [])
        seqs = [entry[0] for entry in entries]
        first = bisect_left(seqs, declared) - 1
        if first >= 0:
            _, units, held_before = entries[first]
            units_before = tuple(units.items())
        last = bisect_left(seqs, after) - 1
        if last >= 0:
            _, units, held_after = entries[last]
            units_after = tuple(units.items())
        found.append(PlaceView(name, place.ipc, held_before, held_after, units_before, units_after, kinds))
    return tuple(found)


class BoardMaps:
    """The map's read model for one timeline: the board at any of its points, in both histories."""

    def __init__(self, timeline: Timeline, board: Board | None = None) -> None:
        self.timeline = timeline
        self.board = board or Board.classic()
        self._main = HistoryBoard(timeline.main, board)
        self._other = HistoryBoard(timeline.other, board) if timeline.other is not None else None

    def at(self, index: int) -> MapPoint | None:
        """The board at node ``index`` (None for a timeline without points: no battle, no turn's
        records)."""
        timeline = self.timeline
        if not len(timeline):
            return None
        node = timeline.nodes[index]
        if node.kind == "records":
            return self._after_combat(index)
        at_turn = node.battle < 0
        if at_turn and not timeline.turn_battles(index):
            return self._quiet_turn(index)
        # A turn's line comes just before its first battle's.
        b = timeline.nodes[index + 1].battle if at_turn else node.battle
        battle = timeline.main.battles[b]
        first = self._main.turn_first(b)
        start = self._main.turn_start(first)
        if at_turn:
            # What changed since the last battle: the records between (non-combat moves,
            # placements, the bid, turns without battles).
            squares, start = start, self._main.after(first)
        else:
            squares = self._main.after(b + 1)
        other = self._other_board(b, at_turn=at_turn)
        in_turn = range(first, first + len(self._main.turn_battles(b)))
        touched = frozenset(p.territory for k in in_turn for p in battle_places(timeline.main, k, self.board))
        changed = frozenset(name for name, square in squares.items()
                            if not square.same_board(start.get(name)))
        differs = frozenset() if other is None else frozenset(
            name for name, square in squares.items() if not square.same_board(other.get(name)))
        contested = frozenset(name for name, square in squares.items() if square.contested)
        if at_turn:
            since = "after the last battle" if first else "at the start of the record"
            return MapPoint(f"{battle.turn} · as its battles were declared", battle.turn, squares, other,
                            start, touched=touched, changed=changed, differs=differs,
                            as_rolled=timeline.as_rolled, since=since, contested=contested)
        roles = {p.territory: p.roles for p in battle_places(timeline.main, b, self.board)}
        return MapPoint(f"{battle.turn} · after the battle in {battle.battle}", battle.turn, squares, other,
                        start, battle=battle.battle, roles=roles, touched=touched, changed=changed,
                        differs=differs, as_rolled=timeline.as_rolled, contested=contested)

    def _after_combat(self, index: int) -> MapPoint | None:
        """A turn's records after its last battle (2008 Post Combat Orders: non-combat moves,
        placements, the map update): the board after them, and what they changed from the board
        its last battle left."""
        return self._quiet_turn(index, after_combat=True)

    def _quiet_turn(self, index: int, *, after_combat: bool = False) -> MapPoint | None:
        """A turn without battles: the board after its last record (its purchase, non-combat
        moves, placements, map update), and what they changed from the board before its first."""
        timeline = self.timeline
        turn = timeline.turns[timeline.nodes[index].turn]
        records = timeline.turn_records(index)
        if records is None:
            return None
        squares = self._main.before(records.last + 1)
        start = self._main.before(records.combat_end + 1 if after_combat else records.first)
        # Record numbers are the game's: the other history's board after the same records.
        other = self._other.before(records.last + 1) if self._other is not None else None
        changed = frozenset(name for name, square in squares.items()
                            if not square.same_board(start.get(name)))
        differs = frozenset() if other is None else frozenset(
            name for name, square in squares.items() if not square.same_board(other.get(name)))
        contested = frozenset(name for name, square in squares.items() if square.contested)
        since = "at the turn's start"
        if after_combat:
            title = f"{turn} · after combat · after its {', '.join(records.after)}"
            since = "after its last battle"
        else:
            title = f"{turn} · no battle · after its {', '.join(records.kinds) or 'records'}"
        return MapPoint(title, turn, squares, other, start, since=since,
                        changed=changed, differs=differs, as_rolled=timeline.as_rolled,
                        contested=contested)

    def _other_board(self, b: int, *, at_turn: bool) -> dict[str, Square] | None:
        if self._other is None:
            return None
        paired = self.timeline.paired(b)
        if paired < 0:
            return None
        if at_turn:
            return self._other.turn_start(self._other.turn_first(paired))
        return self._other.after(paired + 1)


def units_text(units: Units) -> str:
    """A square's units as notation, power by power ("USSR 3 INF; Germany 1 ARM"), or "empty"."""
    return "; ".join(f"{power} {force}" for power, force in units if force) or "empty"


def square_text(square: Square) -> str:
    """What stands on a square (:func:`units_text`), or "not known" where the record does not
    say (:attr:`Square.known`)."""
    return units_text(square.units) if square.known else "not known"


#: The letter each unit type has on the map ("3ia": 3 INF, 1 ARM); the legend is LETTER_LEGEND.
LETTERS: dict[UnitType, str] = {
    UnitType.INF: "i", UnitType.ARM: "a", UnitType.FTR: "f", UnitType.JFTR: "j", UnitType.BMB: "b",
    UnitType.HBMB: "h", UnitType.TRN: "t", UnitType.SUB: "s", UnitType.SSUB: "s", UnitType.AC: "c",
    UnitType.BB: "B", UnitType.AA: "A", UnitType.IC: "I",
}
LETTER_LEGEND = "i INF · a ARM · f FTR · b BMB · t TRN · s SUB · c AC · B BB · A AA · I IC"


def unit_letters(units: Units) -> list[tuple[str, str]]:
    """Each power's units on a square as counts by type in letters, one unit's count left out
    ("USSR 3 INF, 1 ARM, AA" -> ("USSR", "3iaA")): what the map's cell shows under the name."""
    return [(power, "".join(f"{count if count > 1 else ''}{LETTERS[unit]}" for unit, count in force))
            for power, force in units if force]

