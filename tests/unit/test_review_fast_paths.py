"""The review's fast paths give what the die-by-die reading gives (issue 13, goal 1).

The as-rolled analysis reads a typed line column by column without an object per die (and a
line whose written columns fit its units' columns, none holding submarines, as written), and
the rolling audit skips the column-by-column comparison of a side whose lines rolled exactly the
dice its units throw, and the pause rule's survivors where no defender could call for a pause.
A round reads each line's typed units once, and a battle's attackers skip the battleship filter
where there is none. Each is checked here against the plain reading it stands for: the report
entries against the runs made die by die (the algorithm they replaced), and the skip against the
full comparison finding nothing.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.battle.columns import dice_needed, layout
from domain.battle.model import Side
from domain.notation.battle_log import DiceText, FirstStrikeLine, MarkedDie, SideLine
from domain.record.entries import BattleRecord
from domain.record.events import Move
from domain.record.recorded_battle import RecordedBattle, RecordedRound
from domain.review.as_rolled import TypedDie, _attack_line, _attack_lines, assign_dice, typed_dice
from domain.review.dice_counts import count_side, dice_as_expected, dice_differences, side_dice
from domain.review.rolling_errors import _BOMBERS, _audit_support, _may_pause, _support_due
from domain.review.views import DiceEntry
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import UnitType

forces = st.lists(st.tuples(st.sampled_from(list(UnitType)), st.integers(0, 4)), max_size=4).map(
    lambda pairs: Force.of(tuple(pairs)))
faces = st.lists(st.builds(MarkedDie, st.integers(1, 6), st.booleans()), max_size=14)


@st.composite
def dice_for(draw: st.DrawFn, units: Force, attacking: bool) -> DiceText:
    """Dice for a line: often exactly what the units throw, split at the columns or not;
    otherwise any number of dice, split anywhere."""
    columns = layout(units, attacking)
    if columns and draw(st.booleans()):
        die = st.builds(MarkedDie, st.integers(1, 6), st.booleans())
        dice = [draw(die) for _, cols in columns for _ in cols]
        if draw(st.booleans()):
            groups, start = [], 0
            for _, cols in columns:
                groups.append(tuple(dice[start:start + len(cols)]))
                start += len(cols)
            return DiceText(tuple(groups))
        return DiceText((tuple(dice),))
    dice = draw(faces.filter(bool))
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(dice) - 1)), max_size=3))))
    groups = [tuple(dice[a:b]) for a, b in zip([0, *cuts], [*cuts, len(dice)], strict=True) if dice[a:b]]
    return DiceText(tuple(groups))


def typed_by_die(units: Force, dice: DiceText, attacking: bool) -> list[TypedDie]:
    """The die-by-die typing the column reading replaced (separators that fit are the columns;
    otherwise the dice are split by the columns' sizes, surplus to the last column)."""
    columns = layout(units, attacking)
    sizes = [len(cols) for _, cols in columns]
    flat = [(die.value, die.marked) for die in dice.dice]
    if dice.has_separators and [len(c) for c in dice.columns] == sizes:
        groups = [[(d.value, d.marked) for d in column] for column in dice.columns]
    else:
        groups, start = [], 0
        for size in sizes:
            groups.append(flat[start:start + size])
            start += size
        if start < len(flat):
            if groups:
                groups[-1].extend(flat[start:])
            else:
                groups.append(flat[start:])
                columns.append((1, ()))
    found = []
    for (value, unit_list), group in zip(columns, groups, strict=False):
        for index, (face, marked) in enumerate(group):
            unit = unit_list[index] if index < len(unit_list) else (unit_list[-1] if unit_list else None)
            found.append(TypedDie(value, unit, face, marked))
    return found


def entries_by_die(units: Force, dice: DiceText, attacking: bool, at_sea: bool,
                   strike_line: bool) -> tuple[list[DiceEntry], int, int]:
    """The report's runs made die by die (one run per column and first-strike flag)."""
    entries: list[DiceEntry] = []
    run: tuple[int, bool] | None = None
    values: list[int] = []
    marks: list[bool] = []
    hits: list[bool] = []
    total = subs = 0
    for column, unit, value, marked in typed_by_die(units, dice, attacking):
        key = (column, strike_line or (attacking and at_sea and unit is not None and unit.is_sub))
        if key != run:
            if run is not None:
                entries.append(DiceEntry(column=run[0], values=tuple(values), first_strike=run[1],
                                         marked=tuple(marks), hits=tuple(hits)))
            run, values, marks, hits = key, [], [], []
        hit = value <= column
        values.append(value)
        marks.append(marked)
        hits.append(hit)
        total += hit
        subs += hit and unit is not None and unit.is_sub
    if run is not None:
        entries.append(DiceEntry(column=run[0], values=tuple(values), first_strike=run[1],
                                 marked=tuple(marks), hits=tuple(hits)))
    return entries, total, subs


@settings(max_examples=400, deadline=None)
@given(st.data(), forces, st.booleans(), st.booleans(), st.booleans())
def test_column_reading_is_the_die_by_die_reading(data: st.DataObject, units: Force, attacking: bool,
                                                   at_sea: bool, strike_line: bool) -> None:
    dice = data.draw(dice_for(units, attacking))
    assert typed_dice(units, dice, attacking=attacking) == typed_by_die(units, dice, attacking)
    assert assign_dice(units, dice, attacking=attacking, at_sea=at_sea, first_strike_line=strike_line) == \
        entries_by_die(units, dice, attacking, at_sea, strike_line)


@settings(max_examples=400, deadline=None)
@given(st.data(), forces, forces, st.booleans(), st.booleans(), st.booleans())
def test_skipped_comparison_finds_nothing(data: st.DataObject, expected: Force, typed: Force,
                                          defending: bool, typed_line: bool, strike: bool) -> None:
    """Whenever the audit skips a side, the full comparison would have found nothing; and a
    side that rolled exactly its expected units' dice is skipped."""
    side = Side.DEFENDER if defending else Side.ATTACKER
    attacking = not defending
    units = typed if typed_line else expected
    line = SideLine("D" if defending else "A", None, units.items if typed_line else None,
                    data.draw(dice_for(units, attacking)))
    first = None
    if strike and attacking:
        subs = expected.where(lambda u: u.is_sub)
        first = FirstStrikeLine(None, None, data.draw(dice_for(subs, True)))
    rnd = RecordedRound(index=1, first_strike=first)
    rnd.place(line)
    _, dice = side_dice(rnd, side, expected)
    nothing = dice_differences(count_side(expected, dice, attacking)) == ({}, {})
    if dice_as_expected(rnd, side, expected):
        assert nothing
    if first is None and not typed_line and len(line.dice) == dice_needed(expected, attacking):
        assert dice_as_expected(rnd, side, expected)


@settings(max_examples=400, deadline=None)
@given(st.data(), forces, forces, st.booleans(), st.booleans(), st.booleans())
def test_lone_attack_line_is_the_general_reading(data: st.DataObject, attacker: Force, typed: Force,
                                                  typed_line: bool, has_line: bool, at_sea: bool) -> None:
    """A round whose attacker rolled one line (no support shot, no first strike) is read by
    _attack_line exactly as the general reading of support shots, strike and line reads it."""
    units = typed if typed_line else attacker
    line = SideLine("A", None, units.items if typed_line else None, data.draw(dice_for(units, True)),
                    data.draw(st.none() | st.integers(0, 9))) if has_line else None
    rnd = RecordedRound(index=data.draw(st.integers(1, 3)))
    if line is not None:
        rnd.place(line)
    known = typed if typed_line and has_line else None
    assert _attack_line(line, attacker, at_sea, known) == \
        _attack_lines(RecordedBattle(), rnd, attacker, at_sea, known)


@settings(max_examples=200, deadline=None)
@given(st.lists(forces, max_size=3), st.sampled_from(list(BattleKind)), st.integers(1, 4))
def test_support_audit_skipped_only_where_it_finds_nothing(moved: list[Force], kind: BattleKind,
                                                           k: int) -> None:
    """audit_rolls skips _audit_support in a battle with no support shot rolled and no
    battleship due to give one (_support_due reads record.support without adding it up):
    there it finds nothing in any round."""
    moves = tuple(Move(origin=f"Sea Zone {n}", units=units) for n, units in enumerate(moved))
    record = BattleRecord(turn="UK 1", territory="France", written="France", kind=kind,
                          attacker_power="UK", number=None, moves=moves, declared_defenders=None,
                          position={}, available={}, declared_at=None, declaration_line=None)
    assert _support_due(record) == bool(record.support)
    if not _support_due(record):
        assert _audit_support(record, RecordedBattle(), k, None) == []


@settings(max_examples=300, deadline=None)
@given(forces, forces, st.booleans())
def test_pause_looked_at_only_where_one_can_be_due(defenders: Force, hits: Force, at_sea: bool) -> None:
    """_pause skips a round whose defenders hold no submarine or carrier (at sea) or no bomber
    (on land): there the general rule finds no pause due, whatever the losses."""
    losses = Force.of({u: min(n, defenders[u]) for u, n in hits.items})
    survivors = defenders.minus_available(losses)
    if at_sea:
        must = bool(survivors[UnitType.SUB] or survivors[UnitType.SSUB]
                    or (survivors[UnitType.AC] and any(u.is_air for u in defenders.types)))
    else:
        must = not _BOMBERS.isdisjoint([unit for unit, _ in survivors.items])
    if must and survivors.combatants():
        assert _may_pause(defenders, at_sea)


@settings(max_examples=200, deadline=None)
@given(st.lists(forces, max_size=3), st.sampled_from(list(BattleKind)))
def test_attackers_without_battleships_need_no_filter(moved: list[Force], kind: BattleKind) -> None:
    """BattleRecord.attackers filters battleships out of a land battle only where there are
    some: the same force as the filter always applied."""
    moves = tuple(Move(origin=f"Zone {n}", units=units) for n, units in enumerate(moved))
    record = BattleRecord(turn="UK 1", territory="France", written="France", kind=kind,
                          attacker_power="UK", number=None, moves=moves, declared_defenders=None,
                          position={}, available={}, declared_at=None, declaration_line=None)
    total = Force()
    for units in moved:
        total = total + units
    assert record.attackers == (total.where(lambda u: u is not UnitType.BB) if kind is not BattleKind.SEA
                                else total)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.none() | forces), max_size=4))
def test_round_reads_typed_units_once(lines: list[tuple[bool, Force | None]]) -> None:
    """A round's typed units (read once, kept with its lines) are its lines' units as typed,
    line after line."""
    made = [SideLine("A" if attacking else "D", None, units.items if units is not None else None,
                     DiceText(((MarkedDie(1, False),),))) for attacking, units in lines]
    rnd = RecordedRound(index=1)
    for line in made:
        rnd.place(line)
        for typed, placed in ((rnd.attacker_typed, rnd.attacker), (rnd.defender_typed, rnd.defender)):
            assert typed == (Force.of(placed.units) if placed is not None and placed.units is not None
                             else None)
