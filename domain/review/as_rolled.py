"""A battle "as rolled": the record read literally, with hits and losses recomputed from the dice.

Every typed line is taken as what was rolled: its units throw its dice, column by column (the
dice of a column belong to its unit types in the order of the unit list, replay format), hits
are recomputed (a die hits at or under its column), and each side's losses follow the order of
loss in force (special orders, else the 2008 club defaults) or the casualties it chose. Units a
line does not type are carried over from the previous round. The stated hits, hit marks and the
units typed are kept beside as the record's claims; the findings compare them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from domain.battle.columns import columns_of, hit_value
from domain.battle.model import Column, Outcome, RetreatCondition, Side, Winner
from domain.notation.battle_log import DiceText, FirstStrikeLine, MarkedDie, SideLine
from domain.record.game import BattleRecord
from domain.record.recorded_battle import RecordedBattle, RecordedRound, read_record
from domain.review.views import (
    BattleStatus,
    BattleView,
    Declaration,
    DeclaredMove,
    DiceEntry,
    DiceStatus,
    RoundView,
    SideRound,
)
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss, default_order
from domain.rules.units import UnitType

#: Enum members read once, here: on Python 3.11 reading a member off its class (``Side.ATTACKER``)
#: goes through ``EnumType.__getattr__``'s slow attribute hook, and the review reads these in
#: every round of every battle.
_ATTACKER, _DEFENDER = Side.ATTACKER, Side.DEFENDER
_SEA = BattleKind.SEA
_KEPT = DiceStatus.KEPT
_STANDS = BattleStatus.STANDS
_ATTACKER_WON, _DEFENDER_WON, _NOBODY_WON = Winner.ATTACKER, Winner.DEFENDER, Winner.NONE


@dataclass(frozen=True)
class Orders:
    """The special orders in force for a battle (2008 "Amendments and Special Orders")."""

    attacker: OrderOfLoss | None = None
    defender: OrderOfLoss | None = None
    retreat: RetreatCondition | None = None
    sub_withdrawal_after: int | None = None


def orders_of(record: BattleRecord) -> Orders:
    """Special orders filed for the battle, later ones amending earlier ones."""
    if not record.orders:
        return _NO_ORDERS  # none filed (most battles)
    attacker = defender = None
    retreat = None
    withdrawal = None
    for entry in record.orders:
        parsed = entry.parsed
        if parsed.order_of_loss is not None:
            order = OrderOfLoss(tuple(parsed.order_of_loss), source=entry.text.strip())
            if entry.side is _ATTACKER:
                attacker = order
            else:
                defender = order
        if parsed.retreat is not None:
            retreat = parsed.retreat
        if parsed.sub_withdrawal_after is not None:
            withdrawal = parsed.sub_withdrawal_after
    return Orders(attacker, defender, retreat, withdrawal)


_NO_ORDERS = Orders()


def order_in_force(record: BattleRecord, orders: Orders, side: Side, attackers: Force) -> OrderOfLoss:
    """The order of loss a side's casualties follow: its special order, else the default."""
    kind = record.kind
    if side is _ATTACKER:
        return orders.attacker or default_order(kind, True)
    if orders.defender is not None:
        return orders.defender
    if kind is not _SEA:
        return default_order(kind, False)  # the air-only reading is for sea battles only
    fighting = attackers.combatants()
    air_only = bool(fighting) and all(u.is_air for u in fighting.types)
    return default_order(kind, False, air_only_attack=air_only and orders.retreat is None)


#: A typed line's dice assigned to columns and unit types: the report's entries, the hits and
#: the hits by submarines (they never fall on aircraft).
_Assigned = tuple[list[DiceEntry], int, int]


class TypedDie(NamedTuple):
    """One recorded die with the column and unit type the typed units give it."""

    column: int
    unit: UnitType | None
    value: int
    marked: bool

    @property
    def hit(self) -> bool:
        """Whether the die hits its column (at or under the column's value)."""
        return self.value <= self.column


class TypedColumn(NamedTuple):
    """A typed line's dice in one battle-board column: per die its unit type, face and mark."""

    column: int
    units: tuple[UnitType | None, ...]
    faces: tuple[int, ...]
    marks: tuple[bool, ...]


def typed_dice(units: Force, dice: DiceText, *, attacking: bool) -> list[TypedDie]:
    """Give each recorded die its column and unit type, in the order the replay format fixes.

    Columns are in ascending order of the columns the units occupy; within a column the dice
    belong to unit types in the order of the unit list (replay format, "IAAPA notation").
    """
    return [TypedDie(column, unit, face, mark)
            for column, units_of, faces, marks in _typed_dice(units, dice, attacking)
            for unit, face, mark in zip(units_of, faces, marks, strict=True)]


def _typed_dice(units: Force, dice: DiceText, attacking: bool) -> tuple[TypedColumn, ...]:
    """The dice in order, split by the columns' sizes; surplus dice go to the last column.

    Separators that fit the units split the dice exactly as the sizes do; separators that do
    not fit them (or none, the short form) are read the same way. Cheap enough to do again
    where needed (the rolling audit types only the lines whose dice do not fit their units).
    """
    faces, marks = dice.values, dice.marks
    count = len(faces)
    columns = columns_of(units, attacking)
    if not columns:
        columns = ((1, ()),) if count else ()
    found: list[TypedColumn] = []
    start, last = 0, len(columns) - 1
    for index, (value, unit_list) in enumerate(columns):
        if start >= count:
            break
        end = count if index == last else min(start + len(unit_list), count)
        found.append(TypedColumn(value, _owners(unit_list, end - start), faces[start:end], marks[start:end]))
        start = end
    return tuple(found)


_SUBS = frozenset(unit for unit in UnitType if unit.is_sub)


def assign_dice(units: Force, dice: DiceText, attacking: bool, at_sea: bool,
                first_strike_line: bool = False) -> _Assigned:
    """The report's dice entries for a typed line (runs per column and first strike).

    The dice are typed as :func:`typed_dice` types them, column by column, without making an
    object per die: a column's unit types are looked at only when it holds submarines. Every
    line of every round is read here: the review passes ``attacking`` and ``at_sea`` by
    position (keywords cost each call their matching).
    """
    columns, fit = _plan(units, attacking)
    written = dice.columns
    entries: list[DiceEntry] = []
    hits = sub_hits = 0
    if fit is not None and len(written) == len(fit):
        # Where the writer's separators fit the columns, none holding submarines (most lines):
        # a run per column as written, what the general reading below makes of them. (zip's
        # strict keyword would cost more than the line's reading: they are as many.)
        for (column, size), run in zip(fit, written):  # noqa: B905
            if len(run) != size:
                entries, hits = [], 0  # a column of another size: read below
                break
            entry, scored = _run(column, run, first_strike_line)
            entries.append(entry)
            hits += scored
        else:
            return entries, hits, 0
    flat = dice.dice
    count = len(flat)
    # Subs strike first at sea: within a column, a run is dice all first strike or none.
    sub_strikes = attacking and at_sea and not first_strike_line
    if not columns:
        # Dice with no column to fill (units that do not fire): all in column 1, unassigned.
        columns = _UNASSIGNED if count else ()
    start, last = 0, len(columns) - 1
    for index, (column, size, unit_list, subs) in enumerate(columns):
        if start >= count:
            break
        # Surplus dice go to the last column, and belong to its last unit type.
        end = count if index == last else min(start + size, count)
        if not subs:
            entry, scored = _run(column, flat[start:end], first_strike_line)
            entries.append(entry)
            hits += scored
            start = end
            continue
        strikes = [unit in _SUBS for unit in _owners(unit_list, end - start)]
        if not sub_strikes:
            entry, scored = _run(column, flat[start:end], first_strike_line)
            entries.append(entry)
            hits += scored
            sub_hits += sum(1 for strike, hit in zip(strikes, entry.hits, strict=True) if strike and hit)
            start = end
            continue
        begin = 0
        for at in range(1, end - start + 1):
            if at == end - start or strikes[at] != strikes[begin]:
                entry, scored = _run(column, flat[start + begin:start + at], strikes[begin])
                entries.append(entry)
                hits += scored
                if strikes[begin]:
                    sub_hits += scored
                begin = at
        start = end
    return entries, hits, sub_hits


#: A force's battle-board columns as assign_dice reads them: (value, dice, unit types per die,
#: whether any of them is a submarine).
_PlannedColumn = tuple[int, int, tuple[UnitType, ...], bool]
_UNASSIGNED: tuple[_PlannedColumn, ...] = ((1, 0, (), False),)


#: Columns none of which holds a submarine: each one's value and size.
_Fit = tuple[tuple[int, int], ...]


@lru_cache(maxsize=8192)
def _plan(units: Force, attacking: bool) -> tuple[tuple[_PlannedColumn, ...], _Fit | None]:
    """The columns ``units`` fire in, each with its size and whether it holds submarines, and
    each one's value and size (None where one holds a submarine or there is none): a pure
    function of the units (they recur all game long)."""
    columns = tuple((value, len(unit_list), unit_list, not _SUBS.isdisjoint(unit_list))
                    for value, unit_list in columns_of(units, attacking))
    if not columns or any(subs for _, _, _, subs in columns):
        return columns, None
    return columns, tuple([(value, size) for value, size, _, _ in columns])


@lru_cache(maxsize=16384)
def _run(column: int, dice: tuple[MarkedDie, ...], first_strike: bool) -> tuple[DiceEntry, int]:
    """A run of dice in a column as the report shows it, and how many of them hit (at or under
    the column's value): a pure function of a few dice that recur all game long (a game holds
    a third as many different runs as runs), remembered. The entries are immutable, so runs
    alike share one."""
    values = tuple([die.value for die in dice])
    scored = tuple([face <= column for face in values])
    return (DiceEntry(column, values, _KEPT, first_strike, tuple([die.marked for die in dice]), scored),
            scored.count(True))


def _owners(unit_list: tuple[UnitType, ...], taken: int) -> tuple[UnitType | None, ...]:
    """The unit type of each of ``taken`` dice in a column: in the column's order, surplus dice
    to its last unit type ("7 dice for 4 ARM"); none in a column no unit fills."""
    size = len(unit_list)
    if not size:
        return (None,) * taken
    if taken <= size:
        return unit_list[:taken]
    return unit_list + (unit_list[-1],) * (taken - size)


def shot_entry(column: Column, dice: DiceText) -> DiceEntry:
    """AA or support shots: every die at the shot's value."""
    threshold = hit_value(column)
    return DiceEntry(column=column, values=dice.values, marked=dice.marks,
                     hits=tuple(v <= threshold for v in dice.values))


@dataclass(frozen=True)
class Readings:
    """An edition's readings the as-rolled analysis follows (Edition.aa_victims and
    Edition.sub_first_strike; docs/rulings.md)."""

    aa_order: OrderOfLoss | None = None
    subs_every_round: bool = True


def analyse_as_rolled(record: BattleRecord, readings: Readings = Readings(),
                      recorded: RecordedBattle | None = None) -> BattleView:
    """The battle exactly as the record rolled it (``recorded``: its records already joined)."""
    if recorded is None:
        recorded = read_record(record)
    orders = orders_of(record)
    attackers = recorded.typed_attackers or record.attackers
    defenders = recorded.typed_defenders
    if defenders is None:
        defenders = (record.declared_defenders if record.declared_defenders is not None
                     else record.position_defenders)
    rounds: list[RoundView] = []
    attacker, defender = attackers, defenders
    finished: Outcome | None = None
    # The orders of loss in force are the battle's, the same in every round.
    in_force = (order_in_force(record, orders, _ATTACKER, attackers),
                order_in_force(record, orders, _DEFENDER, attackers))
    # Every recorded round is shown, even one rolled after the battle should have ended: the
    # record is what it is, and the findings say what is wrong with it.
    for recorded_round in recorded.rounds:
        view = _round(record, recorded, recorded_round, attacker, defender, in_force, readings)
        rounds.append(view)
        attacker = view.attacker.units.minus_available(view.attacker_losses)
        defender = view.defender.units.minus_available(view.defender_losses)
    if rounds:
        # The result is the last round's end (whether an earlier round ended it is the
        # findings' business, not the record's).
        finished = _ended(record, rounds[-1].round, attacker, defender)
    result = finished or Outcome(winner=None, attacker_left=attacker.combatants(),
                                 defender_left=defender.combatants())
    if not recorded.rounds:
        result = Outcome(winner=None, attacker_left=attackers.combatants(),
                         defender_left=defenders.combatants())
    # By position (every battle's view is made here, and a keyword costs a search of the
    # fields): turn, battle, kind, status, rounds, result, no resume round, nothing voided,
    # and the forces each side started with.
    return BattleView(record.turn, record.territory, record.kind, _STANDS, tuple(rounds), result, None, (),
                      attackers, defenders, declared=declaration_of(record))


def declaration_of(record: BattleRecord) -> Declaration:
    """The battle as its declaration stated it: the defenders listed and every move (the views
    of the battle, as rolled and as corrected, carry it for the board panel)."""
    moves = tuple([DeclaredMove(m.origin, m.units, m.landing, m.transport_zone) for m in record.moves])
    return Declaration(record.declared_defenders, moves)


#: The attacker's fire in a round as the record typed it: its units at the round's start (after
#: AA fire), the units whose line fired, the report's dice entries, the hits, the first-strike
#: hits, and the hits the record stated for the side, every line of it counted once. A plain
#: tuple: one is made per round (the defender's one line is read in :func:`_round` itself).
_Fire = tuple[Force, Force, list[DiceEntry], int, int, int | None]


def _is_air(unit: UnitType) -> bool:
    return unit.is_air


def _is_sub(unit: UnitType) -> bool:
    return unit.is_sub


def _round(record: BattleRecord, recorded: RecordedBattle, rnd: RecordedRound, attacker: Force,
           defender: Force, in_force: tuple[OrderOfLoss, OrderOfLoss], readings: Readings) -> RoundView:
    """One recorded round: both sides' fire, then the casualties each side takes (``in_force``:
    the attacker's and the defender's orders of loss)."""
    attacker_order, defender_order = in_force
    a_line, d_line = rnd.attacker, rnd.defender
    # The units each line typed (a claim), read once: the report shows them and they fire.
    a_typed, d_typed = rnd.attacker_typed, rnd.defender_typed
    aa_entries: tuple[DiceEntry, ...] = ()
    aa_losses = EMPTY
    if rnd.index == 1 and recorded.aa is not None:
        entry = shot_entry("AA", recorded.aa.dice)
        aa_entries = (entry,)
        aa_hits = sum(entry.hits)
        aa_losses = (readings.aa_order or attacker_order).choose(
            attacker.where(_is_air), aa_hits, air_only_hits=aa_hits)
        # Aircraft the AA gun shot down leave the game before round 1 (Part 13 step 2).
        if a_typed is None:
            attacker = attacker.minus_available(aa_losses)
    sea = record.kind is _SEA
    # Attacking subs fire first at sea (Part 13 step 3), in every round or round 1 only.
    at_sea = sea and (readings.subs_every_round or rnd.index == 1)
    if rnd.first_strike is None and not recorded.bb:
        a_units, _, a_entries, a_hits, strike_hits, a_stated = _attack_line(a_line, attacker, at_sea, a_typed)
    else:
        a_units, _, a_entries, a_hits, strike_hits, a_stated = _attack_lines(recorded, rnd, attacker, at_sea,
                                                                           a_typed)
    # Part 13 step 3: first-strike victims leave the game without firing; hits by
    # submarines never fall on aircraft (2008 OOL; rules matrix).
    if strike_hits > 0:
        victims = defender_order.choose(defender.combatants(), strike_hits, sub_hits=strike_hits)
        d_firing = d_typed if d_typed is not None else defender.minus_available(victims)
        d_units = d_firing + victims
    else:  # no first strike (most rounds): nobody leaves before the defender fires
        victims = EMPTY
        d_firing = d_units = d_typed if d_typed is not None else defender
    if d_line is None:
        d_entries: list[DiceEntry] = []
        d_hits = d_sub_hits = 0
        d_stated = None
    else:
        d_entries, d_hits, d_sub_hits = assign_dice(d_firing, d_line.dice, False, sea)  # (defending)
        d_stated = d_line.stated_hits  # one line: what it stated, if anything
    # Casualties named by a side (few battles have any) stand when they fit the hits.
    named = bool(record.casualties)
    defender_losses = _chosen(record, recorded, rnd.index, _DEFENDER, d_units, a_hits) if named else None
    if defender_losses is None:
        if a_hits > strike_hits:
            defender_losses = _losses(defender_order, d_firing, a_hits - strike_hits, 0)
            if victims.items:
                defender_losses = victims + defender_losses
        else:
            defender_losses = victims
    attacker_losses = _chosen(record, recorded, rnd.index, _ATTACKER, a_units, d_hits) if named else None
    if attacker_losses is None:
        attacker_losses = _losses(attacker_order, a_units, d_hits, d_sub_hits) if d_hits > 0 else EMPTY
    # Made positionally (a keyword costs a search of the fields, in every round of every
    # battle): the round, its origin, each side's units, hits, dice, stated hits and typed
    # units, their losses, no pause required, the number typed and the AA losses.
    return RoundView(
        rnd.index, "as_rolled",
        SideRound(a_units, a_hits, tuple(a_entries), a_stated,
                  a_typed if a_line is not None and a_line.units else None),
        SideRound(d_units, d_hits, (*aa_entries, *d_entries) if aa_entries else tuple(d_entries), d_stated,
                  d_typed if d_line is not None and d_line.units else None),
        attacker_losses, defender_losses, False, rnd.typed_number, aa_losses)


@lru_cache(maxsize=16384)
def _losses(order: OrderOfLoss, present: Force, hits: int, sub_hits: int) -> Force:
    """The casualties ``hits`` (``sub_hits`` of them by submarines) cause among the combatants
    of ``present`` in this order of loss: a pure function of values that recur all game long
    (each side of each round asks), remembered."""
    return order.choose(present.combatants(), hits, sub_hits=sub_hits)


def _attack_line(a_line: SideLine | None, attacker: Force, at_sea: bool, typed: Force | None) -> _Fire:
    """The attacker's fire when its line is all it rolled (no support shot, no first-strike
    line: most rounds): what :func:`_attack_lines` makes of one line, without its bookkeeping
    (tests/unit/test_review_fast_paths.py compares the two)."""
    a_fire = typed if typed is not None else attacker
    if a_line is None:
        return (a_fire, a_fire, [], 0, 0, None)
    entries, hits, sub_hits = assign_dice(a_fire, a_line.dice, True, at_sea)  # (attacking)
    return (a_fire, a_fire, entries, hits, sub_hits if at_sea else 0, a_line.stated_hits)


def _attack_lines(recorded: RecordedBattle, rnd: RecordedRound, attacker: Force, at_sea: bool,
                  typed: Force | None) -> _Fire:
    """The attacker's support shots, first strike and line, each line's hits and statement."""
    a_line: SideLine | None = rnd.attacker
    entries: list[DiceEntry] = []
    # Each line's (stated hits, hits on its dice): support shots, first strike, the line.
    parts: list[tuple[int | None, int]] = []
    # Support shots: before round 1, or (a ghost) left on in a later round.
    if recorded.bb:
        for line in recorded.support_shots(rnd.index):
            entry = shot_entry("BB", line.dice)
            entries.append(entry)
            parts.append((line.stated_hits, sum(entry.hits)))
    strike: FirstStrikeLine | None = rnd.first_strike
    # The units a line types are the units that fired it: after AA losses for the attacker
    # (Part 14's example types "A(9 INF,1 ARM)" after two fighters were shot down), and
    # without the submarines when their first strike has its own line.
    strike_units = EMPTY
    if strike is not None:
        strike_units = (Force.of(strike.units) if strike.units is not None
                        else attacker.where(_is_sub))
    a_fire = typed if typed is not None else attacker.minus_available(strike_units)
    strike_hits = 0
    if strike is not None:
        entries_, hits, sub_hits = assign_dice(strike_units, strike.dice, attacking=True, at_sea=at_sea,
                                               first_strike_line=True)
        entries.extend(entries_)
        parts.append((strike.stated_hits, hits))
        strike_hits += sub_hits
    if a_line is not None:
        entries_, hits, sub_hits = assign_dice(a_fire, a_line.dice, attacking=True, at_sea=at_sea)
        entries.extend(entries_)
        parts.append((a_line.stated_hits, hits))
        if at_sea:
            strike_hits += sub_hits  # attacking subs fire first at sea (Part 13 step 3)
    return (a_fire + strike_units, a_fire, entries, sum([h for _, h in parts]), strike_hits,
            stated_total(parts))


def stated_total(parts: list[tuple[int | None, int]]) -> int | None:
    """The hits the record stated for a side over its lines, each counted once.

    ``parts`` are each line's (stated total, hits on its dice), the side's main line last. A
    support shot or first strike stated on its own line ("BB rolls 3* = 1 hit") adds to the
    main line's statement; a main line whose statement already includes them (it equals its
    own hits plus theirs, not its own hits alone) is not added to again. A line that states
    nothing counts its dice. None when no line stated anything.
    """
    if len(parts) == 1:
        return parts[0][0]  # one line: what it stated, if anything
    if all(stated is None for stated, _ in parts):
        return None
    *others, (main_stated, main_hits) = parts
    other_hits = sum(hits for _, hits in others)
    if main_stated is not None and other_hits and main_stated == main_hits + other_hits != main_hits:
        return main_stated
    total = main_stated if main_stated is not None else main_hits
    return total + sum(stated if stated is not None else hits for stated, hits in others)


def _chosen(record: BattleRecord, recorded: RecordedBattle, round_number: int, side: Side,
            present: Force, hits: int) -> Force | None:
    """Casualties the side chose for the round, when named before the next round was rolled
    and possible for the hits (a choice named later answers a skipped pause, 2008 OOL)."""
    if not record.casualties:
        return None  # none named (most battles)
    combatants = present.combatants()
    following = recorded.rounds[round_number] if round_number < len(recorded.rounds) else None
    before = following.rolls[0].seq if following is not None and following.rolls else None
    for units in reversed(record.chosen(round_number, side, before=before)):
        # Extra hits are overkill (Part 13, Miscellaneous 2): at most every unit is lost.
        if combatants.contains(units) and len(units) == min(hits, len(combatants)):
            return units
    return None


def _ended(record: BattleRecord, round_number: int, attacker: Force, defender: Force) -> Outcome | None:
    attacking, defending = attacker.combatants(), defender.combatants()
    # (``.items``: a Force's truth is a Python call, and every battle ends here.)
    if not attacking.items or not defending.items:
        winner = _ATTACKER_WON if attacking.items else _DEFENDER_WON if defending.items else _NOBODY_WON
        return Outcome(winner, attacking, defending)  # (the winner, what is left of each side)
    if record.retreats and record.retreats[-1].after_round == round_number:
        # 2008 AMPHIBIOUS ASSAULTS: ground units landed from transports never retreat.
        staying = record.amphibious if record.kind is BattleKind.AMPHIBIOUS else EMPTY
        if staying:
            return None
        return Outcome(winner=Winner.DEFENDER, attacker_left=attacker.combatants(),
                       defender_left=defender.combatants(), retreated=True,
                       attacker_retreated=attacker.combatants())
    return None
