"""The board at a point of the timeline, for the map: who holds each territory and sea zone,
what stands there, what the turn changed, and where the record as rolled and the game as
corrected leave the board differently.

The review tells, for every battle, the territories it touched as the board stood when it was
declared and after it (:class:`~domain.review.views.PlaceView`, what the board panel lists). This
projection folds those over the battles in order, starting from the Classic setup, so a place
shows what the last battle that touched it left there; a place no battle has touched yet shows the
setup, and says so (``Square.seen`` is empty). Folding is incremental, with a checkpoint every
:data:`CHECKPOINT_EVERY` battles, so any point of a game of thousands of battles is a short walk.

At a turn's line the map is the board as that turn's battles were declared; at a battle (and its
rounds) it is the board once that battle is over. Pure Python: no Textual here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import msgspec

from domain.review.views import BattleView, GameView, PlaceView
from domain.rules.board import NEUTRAL, Board
from domain.rules.forces import Force
from projections.timeline import Timeline

#: Battles between two stored boards of a fold.
CHECKPOINT_EVERY = 32

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

    def same_board(self, other: Square | None) -> bool:
        """Whether the other square has the same holder and units (where it was seen aside)."""
        return other is not None and (self.holder, self.units) == (other.holder, other.units)


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


def _setup(board: Board) -> dict[str, Square]:
    squares: dict[str, Square] = {}
    for territory in board:
        holder = None if territory.sea or territory.owner == NEUTRAL else territory.owner
        units = tuple((power, held[territory.name]) for power, held in board.setup.items()
                      if held.get(territory.name))
        squares[territory.name] = Square(territory.name, territory.ipc, holder, units)
    return squares


def _square(place: PlaceView, battle: BattleView, *, after: bool) -> Square:
    holder, units = (place.holder_after, place.after) if after else (place.holder_before, place.before)
    when = "after the battle" if after else "as the battle"
    declared = "" if after else " was declared"
    return Square(place.territory, place.ipc, holder, units,
                  f"{when} in {battle.battle} ({battle.turn}){declared}")


class BoardFold:
    """One history's board, battle by battle."""

    def __init__(self, view: GameView, board: Board | None = None) -> None:
        self.view = view
        self._checkpoints: list[dict[str, Square]] = [_setup(board or Board.classic())]

    def after(self, count: int) -> dict[str, Square]:
        """The board once the first ``count`` battles are over (a fresh dict: the caller's to change)."""
        count = min(max(0, count), len(self.view.battles))
        c = count // CHECKPOINT_EVERY
        while len(self._checkpoints) <= c:
            last = len(self._checkpoints) - 1
            state = dict(self._checkpoints[last])
            for b in range(last * CHECKPOINT_EVERY, (last + 1) * CHECKPOINT_EVERY):
                self._apply(state, b)
            self._checkpoints.append(state)
        state = dict(self._checkpoints[c])
        for b in range(c * CHECKPOINT_EVERY, count):
            self._apply(state, b)
        return state

    def _apply(self, state: dict[str, Square], b: int) -> None:
        battle = self.view.battles[b]
        for place in battle.board:
            state[place.territory] = _square(place, battle, after=True)

    def turn_start(self, first: int) -> dict[str, Square]:
        """The board as the battles of the turn beginning at battle ``first`` were declared: the
        board after the battles before it, each place as the turn's first battle there found it."""
        state = self.after(first)
        seen: set[str] = set()
        for battle in self.turn_battles(first):
            for place in battle.board:
                if place.territory not in seen:
                    seen.add(place.territory)
                    state[place.territory] = _square(place, battle, after=False)
        return state

    def turn_battles(self, b: int) -> list[BattleView]:
        """The battles of battle ``b``'s turn, in order."""
        battles = self.view.battles
        turn = battles[b].turn
        start = b
        while start > 0 and battles[start - 1].turn == turn:
            start -= 1
        end = b
        while end < len(battles) and battles[end].turn == turn:
            end += 1
        return list(battles[start:end])

    def turn_first(self, b: int) -> int:
        """The index of the first battle of battle ``b``'s turn."""
        battles = self.view.battles
        while b > 0 and battles[b - 1].turn == battles[b].turn:
            b -= 1
        return b


class BoardMaps:
    """The map's read model for one timeline: the board at any of its points, in both histories."""

    def __init__(self, timeline: Timeline, board: Board | None = None) -> None:
        self.timeline = timeline
        self._main = BoardFold(timeline.main, board)
        self._other = BoardFold(timeline.other, board) if timeline.other is not None else None

    def at(self, index: int) -> MapPoint | None:
        """The board at node ``index`` (None for a game without battles)."""
        timeline = self.timeline
        if not len(timeline):
            return None
        node = timeline.nodes[index]
        at_turn = node.battle < 0
        # A turn's line comes just before its first battle's.
        b = timeline.nodes[index + 1].battle if at_turn else node.battle
        battle = timeline.main.battles[b]
        first = self._main.turn_first(b)
        start = self._main.turn_start(first)
        squares = start if at_turn else self._main.after(b + 1)
        other = self._other_board(b, at_turn=at_turn)
        touched = frozenset(p.territory for done in self._main.turn_battles(b) for p in done.board)
        changed = frozenset(name for name, square in squares.items()
                            if not square.same_board(start.get(name)))
        differs = frozenset() if other is None else frozenset(
            name for name, square in squares.items() if not square.same_board(other.get(name)))
        if at_turn:
            return MapPoint(f"{battle.turn} · as its battles were declared", battle.turn, squares, other,
                            start, touched=touched, changed=changed, differs=differs,
                            as_rolled=timeline.as_rolled)
        roles = {p.territory: p.roles for p in battle.board}
        return MapPoint(f"{battle.turn} · after the battle in {battle.battle}", battle.turn, squares, other,
                        start, battle=battle.battle, roles=roles, touched=touched, changed=changed,
                        differs=differs, as_rolled=timeline.as_rolled)

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
