"""The game's story in one picture: each battle's odds as declared against its result (as rolled
and as corrected), and each power's IPC income turn by turn.

:class:`Story` reads a :class:`~projections.timeline.Timeline` (both histories): the battles in
the order of the game, each with its turn, its result in each history and the attacker's
chance of winning it as declared (the exact odds of :mod:`domain.odds.exact` for the declared
forces fought mechanically, each side's default order of loss, no retreat), and for every turn
the income each power would collect on the board after it (the treasury the review walked
beside the board: ``BattleView.treasury``; income changes only when a battle changes a holder).
The odds cost milliseconds a battle, so they are worked out one battle at a time
(:meth:`Story.work_out`) and read as they come (:meth:`Story.odds`). Pure Python: no Textual
here; the terminal's chart is tui/widgets/story.py, the SVG projections/story_svg.py.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.battle.model import BattleSetup, Winner
from domain.review.views import BattleStatus, BattleView, Purse
from domain.rules.forces import EMPTY
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import POWERS, UnitType
from projections.timeline import Timeline

Result = Literal["won", "lost", "retreated", "none"]
_NO_RESULT = (BattleStatus.VOID, BattleStatus.NOT_FOUGHT)
#: A result's mark in the terminal and the SVG.
RESULT_MARKS: dict[Result, str] = {"won": "✓", "lost": "✗", "retreated": "↩", "none": "·"}


class BattlePoint(msgspec.Struct, frozen=True, gc=False):
    """One battle of the story: where it is, and how it ended in each history (a frozen Struct:
    a long game's story makes one per battle, ~14,000, and a frozen dataclass is slow to make)."""

    battle: int
    turn: str
    name: str
    as_rolled: Result
    as_corrected: Result


class IncomePoint(msgspec.Struct, frozen=True, gc=False):
    """Each power's income on the board after a turn (empty: the record does not know it).
    Turns whose income did not change share one dict: it is read, never changed."""

    turn: str
    income: dict[str, int]


def result_of(battle: BattleView | None) -> Result:
    """How a battle ended for the attacker: won, lost (the defender won or both sides died),
    retreated, or none (void, not fought, awaiting dice, or the record stopped with both sides
    standing)."""
    if battle is None or battle.result is None or battle.status in _NO_RESULT:
        return "none"
    outcome = battle.result
    if outcome.retreated:
        return "retreated"
    if outcome.winner is Winner.ATTACKER:
        return "won"
    return "lost" if outcome.winner is not None else "none"


def declared_setup(battle: BattleView) -> BattleSetup | None:
    """The battle as declared, to be fought mechanically: the declared attackers (battleships
    support a land battle: they do not fight in it; the units landed from transports are the
    amphibious ones) against the defenders the declaration listed, else those it was fought
    with. None when a side is empty or the declaration is not known."""
    declared = battle.declared
    if declared is None:
        return None
    attackers = declared.attackers
    support = EMPTY
    amphibious = EMPTY
    if battle.kind is not BattleKind.SEA:
        support = attackers.where(lambda u: u is UnitType.BB)
        attackers = attackers.where(lambda u: u is not UnitType.BB)
        for move in declared.moves:
            if move.transport_zone:
                amphibious = amphibious + move.units.where(lambda u: u is not UnitType.BB)
    defenders = declared.defenders if declared.defenders is not None else battle.defender_start
    if not attackers.combatants() or not defenders:
        return None
    return BattleSetup(kind=battle.kind, attacker=attackers, defender=defenders, support=support,
                       amphibious=amphibious)


def declared_odds(battle: BattleView) -> float | None:
    """The attacker's chance of winning the battle as declared (None: nothing to fight)."""
    setup = declared_setup(battle)
    if setup is None:
        return None
    from domain.odds.exact import odds  # numpy: loaded only when odds are asked for

    return round(odds(setup).attacker_win, 6)


class _OddsKey:
    """What a battle's odds are worked out from (its kind, declaration and defenders), with its
    hash kept: the chart reads every battle's odds on each redraw, and hashing the declarations
    again each time was most of that. The parts are immutable, so the hash stays right."""

    __slots__ = ("_hash", "value")

    def __init__(self, value: tuple[object, ...]) -> None:
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _OddsKey) and self._hash == other._hash and self.value == other.value


class Story:
    """A game's story: its battles' results in both histories, their odds as declared (worked out
    one by one), and each power's income turn by turn."""

    def __init__(self, timeline: Timeline, odds: dict[object, float | None] | None = None) -> None:
        """``odds``: the odds another story of the same game worked out (the other history's:
        a battle's declaration is the same in both), by what they are worked out from."""
        self.timeline = timeline
        main = timeline.main
        points = []
        for b, battle in enumerate(main.battles):
            other = timeline.other_battle(b)
            mine, theirs = result_of(battle), result_of(other) if other is not None else result_of(battle)
            rolled, corrected = (mine, theirs) if main.as_rolled else (theirs, mine)
            points.append(BattlePoint(b, battle.turn, battle.battle, rolled, corrected))
        self.battles: list[BattlePoint] = points
        self.income: list[IncomePoint] = _income(timeline)
        #: Each battle's odds by what they are worked out from (shared with ``odds``' story); entries
        #: are only ever added (by :meth:`work_out`).
        self.known: dict[object, float | None] = odds if odds is not None else {}
        self._keys = [_OddsKey((battle.kind, battle.declared, battle.defender_start))
                      for battle in main.battles]
        #: The powers the income knows, in the order of play, and the highest income of any
        #: power in any turn (the income rows' scale): the income is fixed once made.
        self.powers: list[str] = powers_in(self)
        self.top_income = max((v for point in self.income for v in point.income.values()), default=0)
        self._turns = {point.turn: k for k, point in reversed(list(enumerate(self.income)))}
        #: :attr:`worked_out` as counted, with the length of :attr:`known` it was counted at.
        self._counted = (-1, 0)

    @property
    def worked_out(self) -> int:
        """How many battles' odds are known (counted again only when :attr:`known` has grown:
        entries are only ever added to it, so its length says whether the count can differ)."""
        size = len(self.known)
        if self._counted[0] != size:
            self._counted = (size, sum(map(self.known.__contains__, self._keys)))
        return self._counted[1]

    def odds(self, b: int) -> float | None:
        """Battle ``b``'s odds as declared, if worked out (None also: nothing to fight)."""
        return self.known.get(self._keys[b])

    def all_odds(self) -> list[float | None]:
        """Every battle's odds as declared, in order, as :meth:`odds` gives them."""
        known = self.known.get
        return [known(key) for key in self._keys]

    def work_out(self, b: int) -> float | None:
        """Work out battle ``b``'s odds as declared (once for the game)."""
        key = self._keys[b]
        if key not in self.known:
            self.known[key] = declared_odds(self.timeline.main.battles[b])
        return self.known[key]

    def battle_at(self, node: int) -> int | None:
        """The battle of timeline node ``node`` (the next one at a turn's line), if any."""
        timeline = self.timeline
        if not len(timeline) or not self.battles:
            return None
        found = timeline.nodes[node].battle
        if found >= 0:
            return found
        following = timeline.next_battle(node)
        return timeline.nodes[following].battle if timeline.nodes[following].battle >= 0 else None

    def turn_at(self, node: int) -> int | None:
        """The index in :attr:`income` of node ``node``'s turn."""
        timeline = self.timeline
        if not len(timeline):
            return None
        return self._turns.get(timeline.turns[timeline.nodes[node].turn])


def _income(timeline: Timeline) -> list[IncomePoint]:
    """Each turn's income per power: after the turn's last battle, else as the turn before left
    it (income changes only when a battle changes a holder); unknown before the first battle
    that knows the treasury."""
    view = timeline.main
    last: dict[str, int] = {}
    # Each turn's last battle that knows the treasury: the battles read from the last (a turn's
    # income read once, not once per battle: a long game has thousands of battles).
    treasuries: dict[str, tuple[Purse, ...]] = {}
    for battle in reversed(view.battles):
        if battle.treasury and battle.turn not in treasuries:
            treasuries[battle.turn] = battle.treasury
    by_turn = {turn: {purse.power: purse.income for purse in treasury}
               for turn, treasury in treasuries.items()}
    found = []
    for turn in timeline.turns:
        last = by_turn.get(turn, last)
        found.append(IncomePoint(turn, last))
    return found


def powers_in(story: Story) -> list[str]:
    """The powers the income knows, in the order of play."""
    known = {power for point in story.income for power in point.income}
    return [power for power in POWERS if power in known]
