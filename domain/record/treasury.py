"""The treasury: each power's IPCs, walked from the records beside the board.

Classic (Milton Bradley 2nd edition) turn sequence: purchase, combat, non-combat, place, collect
income. So, in record order:

- the start is each power's starting IPCs (board data, ``starting_ipcs``) plus the bid's extra
  IPCs (2008 Bidding: "Japan will start with 26 IPCs to spend");
- a purchase spends the units' cost, a weapons-development roll 5 IPCs a die (2008 Section IV);
- a turn is over at its map update (Post Combat Orders), else when the next turn begins: the
  power then collects the IPC value of the territories it controls, if it holds its capital
  (2008 Rules Clarifications, Income Collection and Spending: "Any country that ends its turn
  with possession of its capital collects income");
- a purchase or weapons-development dice of a turn void under 2008 Section VII ("the subsequent
  turn is void and must be re-done": the walk as corrected lists such turns) are not paid, as
  the turn's moves and placements are undone on the board; the turn's income is still collected
  (its end, on the corrected board), as the turn made again would;
- a battle that captures a capital gives the captor the owner's unspent IPCs: see
  :data:`CAPITAL_RULE` (the seeds hold no text of this rule, only the 2008 reference to it).

Only a record that starts from the setup (round 1, or a bid) knows every power's IPCs; for a
record that starts mid-game the treasury is unknown (``known`` is False) and nothing is checked.
Like the board, the walk is a pure function of a Game's records and the board walked with the
battles' results, so the treasury of ``game.at(v)`` is the treasury at version ``v``.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import msgspec

from domain.record.board.walk import BoardAt, BoardWalk
from domain.record.entries import allied
from domain.record.ipc_changes import IPC_KINDS, pay
from domain.rules.forces import EMPTY, Force

if TYPE_CHECKING:
    from domain.record.game import Game

#: Where the captured-capital rule comes from. It is not in the club's texts (seeds 000-002):
#: Parts 13 and 14 (1999) say nothing of capitals, and the 2008 Unabridged Rules only refer to it,
#: in Rules Clarifications, Income Collection and Spending: "if you have received income from the
#: capture of an enemy's capital you may spend said income on Weapons Development or the violation
#: of neutrality". The rule itself is the Milton Bradley 2nd edition rules booklet's (which 2008
#: Getting Started, Requirements, makes every player keep): an enemy capital captured, the captor
#: takes the IPCs its owner has on hand. The booklet is not among the seeds, so its wording is not
#: quoted and its section is named as the club's 2008 text names the event ("the capture of an
#: enemy's capital"), not from a copy of the booklet.
CAPITAL_RULE = ("Milton Bradley 2nd edition rules booklet, capturing an enemy capital (the captor takes its "
                "IPCs; referred to by 2008 Rules Clarifications, Income Collection and Spending: \"income "
                "from the capture of an enemy's capital\")")

#: 2008 Section IV (Tech Rolls) and MB 2nd edition: each weapons-development die costs 5 IPCs.
TECH_DIE_COST = 5


def cost_of(units: Force) -> int:
    """What the units cost to buy (MB 2nd edition unit costs)."""
    return sum(n * unit.profile.cost for unit, n in units.items)


# (Frozen Structs, not frozen dataclasses: the walk makes one at every turn's end, and a frozen
# dataclass sets each field through a slow call.)
class Spend(msgspec.Struct, frozen=True):
    """A purchase (or weapons development) beside the treasury it was paid from."""

    seq: int
    at: datetime | None
    turn: str
    power: str
    what: str  # purchase or tech
    units: Force
    cost: int
    #: The IPCs the power had before it (the treasury as computed).
    available: int
    #: The IPCs the record says the power had (None: not stated).
    stated: int | None
    #: Who held the power's capital then (the power itself, an ally, or the enemy).
    capital_holder: str | None
    #: A purchase or tech dice of a turn void under 2008 Section VII ("the subsequent turn is void
    #: and must be re-done"): kept to be checked as it was made, not paid from the treasury as
    #: corrected.
    void: bool = False


class Income(msgspec.Struct, frozen=True):
    """Income collected at the end of a power's turn (0 while its capital is held)."""

    seq: int
    turn: str
    power: str
    amount: int
    capital_held_by: str | None = None


class Capture(msgspec.Struct, frozen=True):
    """A capital captured: the captor takes the owner's unspent IPCs (:data:`CAPITAL_RULE`)."""

    seq: int
    turn: str
    capital: str
    owner: str
    captor: str
    amount: int


#: power -> (record number, the power's IPCs after that record); record 0 is the start.
Ledger = dict[str, list[tuple[int, int]]]


@dataclass
class TreasuryWalk:
    """Each power's IPCs after every record that changed them, and what changed them."""

    known: bool
    history: Ledger
    spends: list[Spend] = field(default_factory=list)
    incomes: list[Income] = field(default_factory=list)
    captures: list[Capture] = field(default_factory=list)
    #: turn -> the record number of its first record (the start of the turn).
    turn_starts: dict[str, int] = field(default_factory=dict)
    #: (record number, every power's income after it), after each record that changed one.
    income_steps: list[tuple[int, dict[str, int]]] = field(default_factory=list)
    #: The purses the review shows for each stretch of records (see :meth:`marks`), made once
    #: (review.treasury_review.purses).
    purses: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    _marks: list[int] | None = field(default=None, compare=False, repr=False)

    def marks(self) -> list[int]:
        """The record numbers at which some power's IPCs or income change, in order: the
        treasury and the incomes are the same before any record of one stretch between two."""
        if self._marks is None:
            found = {seq for entries in self.history.values() for seq, _ in entries}
            found.update(seq for seq, _ in self.income_steps)
            self._marks = sorted(found)
        return self._marks

    def income_before(self, seq: int) -> dict[str, int]:
        """Every power's income on the board just before record ``seq`` (see :func:`income_of`)."""
        # (seq,) sorts before every entry of record seq: a bisection on the tuples, no key calls.
        index = bisect_left(self.income_steps, (seq,)) - 1
        return self.income_steps[index][1] if index >= 0 else {}

    def before(self, seq: int) -> dict[str, int]:
        """Every power's IPCs just before record ``seq``."""
        found: dict[str, int] = {}
        at = (seq,)  # sorts before every entry of record seq (read once per battle: no key calls)
        for power, entries in self.history.items():
            index = bisect_left(entries, at) - 1
            if index >= 0:
                found[power] = entries[index][1]
        return found

    @property
    def final(self) -> dict[str, int]:
        """Every power's IPCs after the last record."""
        return {power: entries[-1][1] for power, entries in self.history.items() if entries}


_SEQ = itemgetter(0)
_SEQ_ORDER = itemgetter(0, 1)


def income_of(board: BoardAt, power: str) -> int:
    """The income a power would collect on this board: the IPC value of what it controls, or 0
    while an enemy holds its capital (2008 Income Collection and Spending)."""
    capital = board.walk.board.capital_of(power).name
    holder = board.control_of(capital)
    if holder is not None and not allied(holder, power):
        return 0
    return board.count(power)[1]


def turn_marks(game: Game) -> list[tuple[int, str]]:
    """(record number, turn) of every record that belongs to a turn, in record order."""
    marks = [(n.seq, n.turn) for n in game.board_log if n.turn]
    marks += [(b.declared_seq, b.turn) for b in game.battles]
    marks += [(e.seq, e.turn) for e in game.noncombat]
    marks += [(t.seq, t.turn) for t in game.tech]
    marks.sort(key=_SEQ)
    return marks


def turn_starts(marks: list[tuple[int, str]]) -> dict[str, int]:
    """Turn -> the record number of its first record, turns in the order they began (``marks``:
    :func:`turn_marks`)."""
    starts: dict[str, int] = {}
    for seq, turn in marks:
        starts.setdefault(turn, seq)
    return starts


def walk_treasury(game: Game, walk: BoardWalk) -> TreasuryWalk:
    """Each power's IPCs through the game's records, on the board ``walk`` moved on."""
    board = walk.board
    marks = turn_marks(game)
    starts = turn_starts(marks)
    if not walk.from_setup:
        return TreasuryWalk(False, {}, turn_starts=starts)
    capitals = {power: board.capital_of(power).name for power in board.powers}
    owners = set(capitals.values())
    income_steps = _income_steps(walk)
    # A turn begins where the marks' turn changes (a mark of the turn under way changes
    # nothing); only a capital's battle can move IPCs (see _captures).
    steps: list[tuple[int, int, object]] = [(seq, 0, turn) for index, (seq, turn) in enumerate(marks)
                                            if index == 0 or marks[index - 1][1] != turn]
    steps += [(n.seq, 1, n) for n in game.board_log
              if n.kind in ("purchase", "bid", "map_update") or n.kind in IPC_KINDS]
    steps += [(t.seq, 1, t) for t in game.tech]
    steps += [(b.fought_seq, 2, b) for b in game.battles if b.territory in owners]
    steps.sort(key=_SEQ_ORDER)
    current: str | None = None
    collected = True
    purse = _Purse({power: [(0, ipcs)] for power, ipcs in board.starting_ipcs.items()})
    treasury = TreasuryWalk(True, purse.ledger, turn_starts=starts, income_steps=income_steps)
    for seq, order, item in steps:
        if order == 0:
            assert isinstance(item, str)
            if item != current:
                if current is not None and not collected:
                    _collect(treasury, purse, walk.before(seq), current, seq, capitals)
                current, collected = item, False
        elif order == 2:  # a capital's battle
            _captures(treasury, purse, walk, item, capitals)
        else:
            kind = getattr(item, "kind", "tech")
            if kind == "map_update" and current is not None and not collected:
                _collect(treasury, purse, walk.before(seq), current, seq, capitals)
                collected = True
            elif kind == "bid":
                for power, extra in getattr(item, "ipcs", ()):
                    purse.add(seq, power, extra)
            elif kind in IPC_KINDS:
                pay(item, walk.before(seq), purse)  # a raid, a rocket, a neutral entered
            elif kind in ("purchase", "tech"):
                _spend(treasury, purse, walk.before(seq), item, capitals, walk.void)
    return treasury


def _income_steps(walk: BoardWalk) -> list[tuple[int, dict[str, int]]]:
    """Every power's income after each record that changed who holds a territory, from the
    walk's log of control changes once (so reading it at a battle is a bisection, not a count of
    the board). A record that changes a holder and changes it back makes no step."""
    board = walk.board
    holder = {t.name: (t.owner if t.owner in board.powers else None) for t in board.land}
    ipc = {t.name: t.ipc for t in board.land}
    capitals = {board.capital_of(power).name: power for power in board.powers}
    log = walk.control_log
    totals = dict.fromkeys(board.powers, 0)
    for name, power in holder.items():
        if power in totals:
            totals[power] += ipc[name]
    #: Powers whose capital an enemy holds (their income is 0): changed only by a capital's change.
    lost = {power for capital, power in capitals.items()
            if (held := holder[capital]) is not None and not allied(held, power)}
    steps = [(0, _incomes(totals, lost))]
    seq = -2  # (no record yet; -1 marks the end of the log)
    before: dict[str, str | None] = {}  # the record being read: territory -> its holder before it
    for at, territory, now in [*log, (-1, "", None)]:
        if at != seq:
            for name, held in before.items():  # (a loop, not any(): asked at every record)
                if holder[name] != held:
                    entry = (seq, _incomes(totals, lost))
                    if steps[-1][0] == seq:
                        steps[-1] = entry
                    else:
                        steps.append(entry)
                    break
            before.clear()
            seq = at
            if at < 0:
                break
        was = holder[territory]
        if territory not in before:
            before[territory] = was
        if was in totals:
            totals[was] -= ipc[territory]
        if now in totals:
            totals[now] += ipc[territory]
        holder[territory] = now
        owner = capitals.get(territory)
        if owner is not None:
            if now is not None and not allied(now, owner):
                lost.add(owner)
            else:
                lost.discard(owner)
    return steps


def _incomes(totals: dict[str, int], lost: set[str]) -> dict[str, int]:
    """The powers' incomes: 0 while an enemy holds the capital."""
    found = dict(totals)
    for power in lost:
        found[power] = 0
    return found


class _Purse:
    """The ledger being written (one entry per power per record)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def of(self, power: str) -> int:
        entries = self.ledger.get(power)
        return entries[-1][1] if entries else 0

    def add(self, seq: int, power: str, amount: int) -> None:
        entries = self.ledger.setdefault(power, [(0, 0)])
        entry = (seq, entries[-1][1] + amount)
        if entries[-1][0] == seq:
            entries[-1] = entry
        else:
            entries.append(entry)


def _collect(treasury: TreasuryWalk, purse: _Purse, board: BoardAt, turn: str, seq: int,
             capitals: dict[str, str]) -> None:
    power = turn.rsplit(" ", 1)[0]
    if power not in purse.ledger:
        return
    holder = board.control_of(capitals[power])
    held_by = holder if holder is not None and not allied(holder, power) else None
    amount = treasury.income_before(seq).get(power, 0)  # income_of(board, power), kept step by step
    treasury.incomes.append(Income(seq, turn, power, amount, held_by))
    purse.add(seq, power, amount)


def _spend(treasury: TreasuryWalk, purse: _Purse, board: BoardAt, item: object,
           capitals: dict[str, str], void: frozenset[str]) -> None:
    seq: int = getattr(item, "seq", 0)
    turn: str = getattr(item, "turn", "")
    power = turn.rsplit(" ", 1)[0]
    if power not in purse.ledger:
        return
    if getattr(item, "kind", "tech") == "purchase":
        units: Force = getattr(item, "units", EMPTY)
        what, cost, stated = "purchase", cost_of(units), getattr(item, "total", None)
    else:
        bought = getattr(item, "declared", None)
        dice = bought if bought is not None else len(getattr(item, "dice", ()))
        units, what, cost, stated = EMPTY, "tech", dice * TECH_DIE_COST, getattr(item, "ipcs", None)
    # 2008 Section VII: "the subsequent turn is void and must be re-done": a void turn's
    # purchase and its weapons-development dice are undone with its moves and placements (the
    # turn made again buys and researches anew).
    undone = turn in void
    treasury.spends.append(Spend(seq, getattr(item, "at", None), turn, power, what, units, cost,
                                 purse.of(power), stated, board.control_of(capitals[power]), undone))
    if undone:
        return
    # What was bought is spent, even beyond the treasury: the finding says so, the ledger
    # keeps counting from what the record did.
    purse.add(seq, power, -cost)


def _captures(treasury: TreasuryWalk, purse: _Purse, walk: BoardWalk, record: object,
              capitals: dict[str, str]) -> None:
    """:data:`CAPITAL_RULE`: the captor of an enemy capital takes the owner's IPCs on hand."""
    seq: int = getattr(record, "fought_seq", 0)
    territory: str = getattr(record, "territory", "")
    for owner, capital in capitals.items():
        if capital != territory:
            continue
        before, after = walk.before(seq).control_of(capital), walk.before(seq + 1).control_of(capital)
        if after is None or after == before or allied(after, owner):
            continue
        if before is not None and not allied(before, owner):
            continue  # taken from another enemy: the owner's IPCs were gone already
        amount = purse.of(owner)
        treasury.captures.append(Capture(seq, getattr(record, "turn", ""), capital, owner, after, amount))
        purse.add(seq, owner, -amount)
        purse.add(seq, after, amount)
