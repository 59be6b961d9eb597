"""The timeline read model: a game as one flat, navigable line of points.

A :class:`Timeline` lays a :class:`~domain.review.views.GameView` out as turn → battle → round → column
(AA guns, support shots, first strike, each column, casualties), one :class:`Node` per point, in
the order a battle is played. A turn with records and no battle (a purchase, moves, placements, a
map update) is a turn's line alone, where its first record comes, so the map reaches it too; a turn
whose records go on after its last battle (its non-combat moves, placements and map update: 2008
Post Combat Orders) ends with an "after combat" line, the board after them.
The view shown is the *main line*; where the other view of the game (as rolled against as
corrected) differs, its rounds follow as a *variation*, the way a chess viewer prints a side line
after the move it replaces.

Nodes hold only indexes, so a game of hundreds of thousands of points builds in a fraction of a
second; labels are made on demand for the lines on screen. Next/previous turn, battle, round and
finding are bisections over sorted index lists. Pure Python: no Textual here.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import Literal

import msgspec

from domain.battle.model import Column
from domain.review.views import BattleView, Finding, GameView, RoundView, TurnRecords
from projections.timeline_text import (
    ColumnKey,
    SideName,
    Span,
    Tag,
    battle_spans,
    casualty_spans,
    column_dice_spans,
    column_entries,
    column_name,
    column_order,
    column_spans,
    force_text,
    result_text,
    round_columns,
    round_spans,
    round_voided,
    voided_first_strike,
)

__all__ = ["ColumnKey", "Node", "NodeKey", "NodeKind", "SideName", "Span", "Tag", "Timeline",
           "column_dice_spans", "column_entries", "column_name", "column_order", "column_spans",
           "force_text", "result_text", "round_columns", "round_spans", "round_voided",
           "voided_first_strike"]

NodeKind = Literal["turn", "battle", "round", "column", "casualties", "records"]
Progress = Callable[[int, int], None]

_PROGRESS_EVERY = 500
#: Battles in the opening part of a big game (a few screens' worth, laid out at once).
OPENING_BATTLES = 200


class Node(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """One point of the timeline. Indexes refer to the main view, or the other view for variations."""

    kind: NodeKind
    turn: int
    battle: int = -1
    round: int = -1
    side: SideName | None = None
    column: Column | None = None
    first_strike: bool = False
    variation: bool = False

    @property
    def depth(self) -> int:
        """Indentation level: turn 0, battle and a turn's records after combat 1, round 2, column
        and casualties 3."""
        return _DEPTH[self.kind]


_DEPTH: dict[str, int] = {"turn": 0, "battle": 1, "round": 2, "column": 3, "casualties": 3, "records": 1}


class NodeKey(msgspec.Struct, frozen=True):
    """Where a node is, independent of which view is the main line (to keep the place on a switch)."""

    kind: NodeKind
    turn: str
    battle: int
    as_rolled: bool
    round: int | None = None
    side: SideName | None = None
    column: Column | None = None
    first_strike: bool = False


class Timeline:
    """A game view as a flat list of nodes, with fast jumps and on-demand labels."""

    def __init__(self, main: GameView, other: GameView | None = None, *,
                 progress: Progress | None = None) -> None:
        self.main = main
        self.other = other
        self.nodes: list[Node] = []
        self.turns: list[str] = []
        self._turn_nodes: list[int] = []
        self._turn_battles: list[int] = []
        #: turn index -> its records (every turn the view lists them for).
        self._turn_records: dict[int, TurnRecords] = {}
        self._battle_nodes: list[int] = []
        #: The "after combat" node of each turn that has one (see _add_after_combat).
        self._records_nodes: list[int] = []
        self._round_nodes: list[int] = []
        self._pair: list[int] = _pair_battles(main, other)
        self._labels: dict[int, str] = {}
        self._build(progress)
        self._finding_node: dict[str, int] = {}
        self._finding_at: dict[int, list[Finding]] = {}
        self._anchor_findings()
        self._finding_nodes = sorted(self._finding_at)

    # -- building ------------------------------------------------------------------------------
    def _build(self, progress: Progress | None) -> None:
        nodes = self.nodes
        total = len(self.main.battles)
        current_turn: str | None = None
        records = {entry.turn: entry for entry in self.main.turn_records}
        # Turns with records and no battle, placed where their first record comes.
        fought = {battle.turn for battle in self.main.battles}
        quiet = [entry for entry in self.main.turn_records if entry.turn not in fought]
        waiting = 0
        points = self.main.board_points
        for b, battle in enumerate(self.main.battles):
            if battle.turn != current_turn:
                if current_turn is not None:
                    self._add_after_combat(records.get(current_turn))
                current_turn = battle.turn
                entry = records.get(battle.turn)
                begins = min(points[b][0] if b < len(points) else 1 << 62,
                             entry.first if entry is not None else 1 << 62)
                while waiting < len(quiet) and quiet[waiting].first < begins:
                    self._add_turn(quiet[waiting].turn, quiet[waiting])
                    waiting += 1
                self._add_turn(battle.turn, entry)
            turn_index = len(self.turns) - 1
            self._turn_battles[turn_index] += 1
            self._battle_nodes.append(len(nodes))
            nodes.append(Node("battle", turn_index, b))
            for r, rnd in enumerate(battle.rounds):
                self._round_nodes.append(len(nodes))
                self._add_round(turn_index, b, r, battle, rnd, variation=False)
            other = self.other_battle(b)
            if other is not None:
                start = _first_difference(battle.rounds, other.rounds)
                for r in range(start, len(other.rounds)):
                    self._add_round(turn_index, b, r, other, other.rounds[r], variation=True)
            if progress is not None and b % _PROGRESS_EVERY == 0:
                progress(b, total)
        if current_turn is not None:
            self._add_after_combat(records.get(current_turn))
        for entry in quiet[waiting:]:
            self._add_turn(entry.turn, entry)
        if progress is not None:
            progress(total, total)

    def _add_turn(self, turn: str, records: TurnRecords | None) -> None:
        index = len(self.turns)
        self.turns.append(turn)
        self._turn_nodes.append(len(self.nodes))
        self._turn_battles.append(0)
        if records is not None:
            self._turn_records[index] = records
        self.nodes.append(Node("turn", index))

    def _add_after_combat(self, records: TurnRecords | None) -> None:
        """The current turn's records after its last battle (2008 Post Combat Orders: non-combat
        moves, placements, the map update), a line of their own."""
        if records is None or not records.after:
            return
        self._records_nodes.append(len(self.nodes))
        self.nodes.append(Node("records", len(self.turns) - 1))

    def _add_round(self, turn: int, b: int, r: int, battle: BattleView, rnd: RoundView, *,
                   variation: bool) -> None:
        append = self.nodes.append
        append(Node("round", turn, b, r, None, None, False, variation))
        for side, column, first_strike in round_columns(battle, rnd):
            append(Node("column", turn, b, r, side, column, first_strike, variation))
        append(Node("casualties", turn, b, r, None, None, False, variation))

    def _anchor_findings(self) -> None:
        # The first battle of each (turn, territory) and of each territory: findings name them so.
        self._battles_by_name: dict[tuple[str | None, str], int] = {}
        for b, battle in enumerate(self.main.battles):
            self._battles_by_name.setdefault((battle.turn, battle.battle), b)
            self._battles_by_name.setdefault((None, battle.battle), b)
        for finding in self.main.findings:
            at = self._anchor(finding)
            self._finding_node[finding.id] = at
            self._finding_at.setdefault(at, []).append(finding)

    def _anchor(self, finding: Finding) -> int:
        """The most specific node a finding names: column, else round, battle, turn, else the start."""
        b = self._battle_named(finding.battle, finding.turn)
        if b is None:
            if finding.turn in self.turns:
                return self._turn_nodes[self.turns.index(finding.turn)]
            return 0
        start, end = self.battle_range(b)
        best = start
        if finding.round is None:
            return best
        for prefer_variation in (False, True):
            for i in range(start, end):
                node = self.nodes[i]
                if node.kind != "round" or node.variation != prefer_variation:
                    continue
                rnd = self.round(i)
                if rnd is None or rnd.round != finding.round:
                    continue
                best = i
                if finding.side is not None and finding.column is not None:
                    for j in range(i + 1, end):
                        col = self.nodes[j]
                        if col.kind != "column":
                            break
                        if col.side == finding.side and col.column == finding.column:
                            return j
                return best
        return best

    def _battle_named(self, name: str | None, turn: str | None) -> int | None:
        if name is None:
            return None
        return self._battles_by_name.get((turn, name))

    # -- access --------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    @property
    def as_rolled(self) -> bool:
        """Whether the main line is the record as rolled."""
        return self.main.as_rolled

    def other_battle(self, b: int) -> BattleView | None:
        """The other view's battle paired with main battle ``b``."""
        if self.other is None or b < 0 or self._pair[b] < 0:
            return None
        return self.other.battles[self._pair[b]]

    def paired(self, b: int) -> int:
        """The index in the other view of the battle paired with main battle ``b`` (-1 if none)."""
        if self.other is None or not 0 <= b < len(self._pair):
            return -1
        return self._pair[b]

    def battle(self, i: int) -> BattleView | None:
        """The battle node ``i`` belongs to, from the view its rounds come from."""
        node = self.nodes[i]
        if node.battle < 0:
            return None
        if node.variation:
            return self.other_battle(node.battle)
        return self.main.battles[node.battle]

    def main_battle(self, i: int) -> BattleView | None:
        """The main line's battle of node ``i``."""
        node = self.nodes[i]
        return self.main.battles[node.battle] if node.battle >= 0 else None

    def round(self, i: int) -> RoundView | None:
        """The round of node ``i`` (None for turn and battle nodes)."""
        node = self.nodes[i]
        battle = self.battle(i)
        if battle is None or node.round < 0:
            return None
        return battle.rounds[node.round]

    def view_of(self, i: int) -> GameView:
        """The view node ``i`` shows: the main one, or the other one for a variation."""
        if self.nodes[i].variation and self.other is not None:
            return self.other
        return self.main

    def battle_range(self, b: int) -> tuple[int, int]:
        """Node indexes [start, end) of battle ``b`` (its rounds and variation included)."""
        start = self._battle_nodes[b]
        end = self._battle_nodes[b + 1] if b + 1 < len(self._battle_nodes) else len(self.nodes)
        for stops in (self._turn_nodes, self._records_nodes):
            following = bisect_right(stops, start)
            if following < len(stops):
                end = min(end, stops[following])
        return start, end

    def battle_node(self, b: int) -> int:
        """The node of main battle ``b``."""
        return self._battle_nodes[b]

    def turn_node(self, turn: str) -> int | None:
        """The node of a turn ("Germany 2"), if the game has battles or other records in it."""
        return self._turn_nodes[self.turns.index(turn)] if turn in self.turns else None

    def turn_records(self, i: int) -> TurnRecords | None:
        """The records of node ``i``'s turn (None when the view does not list them)."""
        return self._turn_records.get(self.nodes[i].turn)

    def records_node(self, turn: str) -> int | None:
        """The "after combat" node of a turn (its records after its last battle), if it has one."""
        index = self.turns.index(turn) if turn in self.turns else -1
        for i in self._records_nodes:
            if self.nodes[i].turn == index:
                return i
        return None

    def turn_battles(self, i: int) -> int:
        """How many battles node ``i``'s turn has (0: a turn of other records only)."""
        return self._turn_battles[self.nodes[i].turn]

    def finding_node(self, finding_id: str) -> int | None:
        """The node a finding is anchored to."""
        return self._finding_node.get(finding_id)

    def findings_at(self, i: int) -> list[Finding]:
        """The findings anchored exactly at node ``i``."""
        return self._finding_at.get(i, [])

    def findings_of(self, i: int) -> list[Finding]:
        """The findings of node ``i``'s battle (or turn), most specific first."""
        node = self.nodes[i]
        if node.battle < 0:
            return [f for f in self.main.findings if f.turn == self.turns[node.turn] and f.battle is None]
        start, end = self.battle_range(node.battle)
        return [f for j in range(start, end) for f in self._finding_at.get(j, [])]

    # -- jumps (each returns ``i`` itself when there is nowhere to go) --------------------------
    def first(self) -> int:
        """The first node."""
        return 0

    def last(self) -> int:
        """The last node."""
        return max(0, len(self.nodes) - 1)

    def opening(self) -> int:
        """Where a viewer opens: the first finding (the dispute), else the first round, else the start."""
        if self._finding_nodes:
            return self._finding_nodes[0]
        return self._round_nodes[0] if self._round_nodes else 0

    def step(self, i: int, delta: int) -> int:
        """``delta`` nodes on, within the line."""
        return min(max(0, i + delta), self.last())

    def next_turn(self, i: int) -> int:
        """The next turn's node."""
        return _after(self._turn_nodes, i)

    def prev_turn(self, i: int) -> int:
        """The previous turn's node (or this turn's start when inside it)."""
        return _before(self._turn_nodes, i)

    def next_battle(self, i: int) -> int:
        """The next battle's node."""
        return _after(self._battle_nodes, i)

    def prev_battle(self, i: int) -> int:
        """The previous battle's node (or this battle's when inside it)."""
        return _before(self._battle_nodes, i)

    def next_round(self, i: int) -> int:
        """The next round of the main line."""
        return _after(self._round_nodes, i)

    def prev_round(self, i: int) -> int:
        """The previous round of the main line."""
        return _before(self._round_nodes, i)

    def next_finding(self, i: int) -> int:
        """The next node with a finding."""
        return _after(self._finding_nodes, i)

    def prev_finding(self, i: int) -> int:
        """The previous node with a finding."""
        return _before(self._finding_nodes, i)

    # -- find ----------------------------------------------------------------------------------
    def search(self, query: str, start: int, *, backwards: bool = False) -> int | None:
        """The next node (after ``start``, wrapping around) whose label contains ``query``
        (case-insensitive), or None."""
        needle = query.strip().lower()
        if not needle or not self.nodes:
            return None
        count = len(self.nodes)
        step = -1 if backwards else 1
        for offset in range(1, count + 1):
            i = (start + step * offset) % count
            if needle in self.label(i).lower():
                return i
        return None

    # -- switching views -----------------------------------------------------------------------
    def key(self, i: int) -> NodeKey:
        """Where node ``i`` is, in terms both timelines share."""
        node = self.nodes[i]
        rnd = self.round(i)
        return NodeKey(kind=node.kind, turn=self.turns[node.turn], battle=node.battle,
                       as_rolled=self.view_of(i).as_rolled, round=rnd.round if rnd else None,
                       side=node.side, column=node.column, first_strike=node.first_strike)

    def locate(self, key: NodeKey) -> int:
        """The node matching ``key`` best: the same point, else its round, battle, turn, start."""
        if key.kind == "records":
            found = self.records_node(key.turn)
            if found is not None:
                return found
        if key.battle < 0 or key.battle >= len(self._battle_nodes):
            found = self.turn_node(key.turn)
            return found if found is not None else 0
        start, end = self.battle_range(key.battle)
        if key.round is None:
            return start
        round_match: int | None = None
        for exact_view in (True, False):
            for i in range(start, end):
                node = self.nodes[i]
                rnd = self.round(i)
                if rnd is None or rnd.round != key.round:
                    continue
                if exact_view and self.view_of(i).as_rolled != key.as_rolled:
                    continue
                if not exact_view and node.variation:
                    continue
                if node.kind == "round" and round_match is None:
                    round_match = i
                if (node.kind == key.kind and node.side == key.side and node.column == key.column
                        and node.first_strike == key.first_strike):
                    return i
            if round_match is not None:
                return round_match
        return start

    # -- text ----------------------------------------------------------------------------------
    def label(self, i: int) -> str:
        """Node ``i`` as plain text (cached)."""
        text = self._labels.get(i)
        if text is None:
            text = "".join(part for part, _ in self.spans(i))
            self._labels[i] = text
        return text

    def spans(self, i: int) -> list[Span]:
        """Node ``i`` as tagged text, for the renderers to style."""
        node = self.nodes[i]
        if node.kind == "turn":
            count = self._turn_battles[node.turn]
            if not count:
                records = self._turn_records.get(node.turn)
                kinds = f" · {', '.join(records.kinds)}" if records is not None and records.kinds else ""
                return [(self.turns[node.turn], "title"), (f" · no battle{kinds}", "dim")]
            plural = "s" if count != 1 else ""
            return [(self.turns[node.turn], "title"), (f" · {count} battle{plural}", "dim")]
        if node.kind == "records":
            records = self._turn_records.get(node.turn)
            kinds = ", ".join(records.after) if records is not None else ""
            return [("after combat", "title"), (f" · {kinds}", "dim")]
        battle = self.battle(i)
        assert battle is not None
        if node.kind == "battle":
            return battle_spans(battle)
        rnd = self.round(i)
        assert rnd is not None
        prefix: list[Span] = []
        if node.variation:
            other_name = "as rolled" if self.other is not None and self.other.as_rolled else "as corrected"
            prefix = [(f"({other_name}) " if node.kind == "round" else "┊ ", "variation")]
        if node.kind == "round":
            return prefix + round_spans(battle, rnd)
        if node.kind == "casualties":
            return prefix + casualty_spans(rnd)
        assert node.side is not None and node.column is not None
        return prefix + column_spans(battle, rnd, node.side, node.column, node.first_strike)

    def path(self, i: int) -> str:
        """Where node ``i`` is, as a breadcrumb: "Germany 2 › Caucasus › Round 1 › Att col 3"."""
        node = self.nodes[i]
        parts = [self.turns[node.turn]] if self.turns else []
        battle = self.battle(i)
        if battle is not None:
            parts.append(f"{battle.battle} ({battle.kind})")
        rnd = self.round(i)
        if rnd is not None:
            view = "as rolled" if self.view_of(i).as_rolled else "as corrected"
            parts.append(f"Round {rnd.round}" + (f" ({view})" if node.variation else ""))
        if node.kind == "records":
            parts.append("After combat")
        elif node.kind == "column" and node.side is not None and node.column is not None:
            parts.append(column_name(node.side, node.column, node.first_strike))
        elif node.kind == "casualties":
            parts.append("Casualties")
        return " › ".join(parts)


def opening_part(view: GameView, battles: int = OPENING_BATTLES) -> GameView:
    """The first battles of a big game (through the first one with a finding, where a viewer
    opens) and their findings: a timeline of it lays out in no time. The view itself when small."""
    if len(view.battles) <= battles:
        return view
    first: dict[tuple[str | None, str], int] = {}
    for b, battle in enumerate(view.battles):
        first.setdefault((battle.turn, battle.battle), b)
        first.setdefault((None, battle.battle), b)
    named = [first.get((f.turn, f.battle), first.get((None, f.battle), -1)) for f in view.findings
             if f.battle is not None]
    count = max(battles, min((b for b in named if b >= 0), default=0) + 1)
    if count >= len(view.battles):
        return view
    kept: set[tuple[str | None, str]] = {(b.turn, b.battle) for b in view.battles[:count]}
    kept |= {(None, name) for _, name in kept}
    findings = tuple(f for f in view.findings if f.battle is None or (f.turn, f.battle) in kept)
    points = view.board_points[:count]
    # The map's board up to the last battle kept (the rest is read when the whole view is).
    end = max((last for _, last in points), default=0) + 1
    history = {territory: entries[:bisect_left([e[0] for e in entries], end)]
               for territory, entries in view.board_history.items()}
    # The turns up to there: those of the battles kept, and those without battles before the end.
    fought = {battle.turn for battle in view.battles}
    kept_turns = {battle.turn for battle in view.battles[:count]}
    # A turn's records after its last battle are kept only if the board kept reaches past them.
    turns = tuple(entry if entry.last < end else msgspec.structs.replace(entry, after=())
                  for entry in view.turn_records if entry.first < end
                  and (entry.turn in kept_turns or entry.turn not in fought))
    return msgspec.structs.replace(view, battles=view.battles[:count], findings=findings,
                                   board_points=points, board_history=history,
                                   board_roles=view.board_roles[:count], turn_records=turns)


# -- helpers ----------------------------------------------------------------------------------
def _after(points: list[int], i: int) -> int:
    at = bisect_right(points, i)
    return points[at] if at < len(points) else i


def _before(points: list[int], i: int) -> int:
    at = bisect_left(points, i) - 1
    return points[at] if at >= 0 else i


def _first_difference(main: tuple[RoundView, ...], other: tuple[RoundView, ...]) -> int:
    """The index of the first round where two histories part (len(other) when they do not)."""
    for r, rnd in enumerate(other):
        if r >= len(main) or main[r] != rnd:
            return r
    return len(other)


def _pair_battles(main: GameView, other: GameView | None) -> list[int]:
    """For each main battle, the index of the same battle (turn and territory) in ``other``."""
    if other is None:
        return [-1] * len(main.battles)
    if len(other.battles) == len(main.battles) and all(
            a.turn == b.turn and a.battle == b.battle for a, b in zip(main.battles, other.battles,
                                                                      strict=True)):
        return list(range(len(main.battles)))
    seen: dict[tuple[str, str], list[int]] = {}
    for index, battle in enumerate(other.battles):
        seen.setdefault((battle.turn, battle.battle), []).append(index)
    pairs = []
    for battle in main.battles:
        queue = seen.get((battle.turn, battle.battle))
        pairs.append(queue.pop(0) if queue else -1)
    return pairs
