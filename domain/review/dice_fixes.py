"""One round's dice fixed column by column: the dice of units that were there kept, the dice of
units that were not voided, the missing ones added from the correction dice (2008 Section III;
1999 Part 14 GM Errors), the AA and support shots checked against what was present."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from domain.battle.columns import hit_value, layout
from domain.battle.model import (
    Column,
    Side,
)
from domain.record.entries import Election
from domain.review.as_rolled import TypedDie
from domain.review.dice_counts import side_dice
from domain.review.refight import Context, Plan, aa_order_of
from domain.review.views import (
    DiceEntry,
    DiceStatus,
)
from domain.rules.findings import FindingKind
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss
from domain.rules.units import UnitType


@dataclass
class AttackFixed:
    """The attacker's side of a corrected round, and the AA fire before it."""

    units: Force
    entries: list[DiceEntry]
    aa_entries: list[DiceEntry]
    aa_victims: Force
    changed: bool


def fix_attack(ctx: Context, r: int, kinds: set[str], expected: Force,
                attacker_order: OrderOfLoss) -> AttackFixed:
    """AA fire (round 1), support shots and the attacker's columns under the remedies."""
    aa_entries: list[DiceEntry] = []
    aa_victims = ctx.audit.aa_victims if r == 1 else EMPTY
    reroll_columns: set[int] = set()
    changed = False
    if r == 1:
        aa_entries, aa_victims, reroll_columns, changed = fix_aa(
            ctx, kinds, aa_order_of(ctx.edition) or attacker_order)
        expected = ctx.attackers.minus_available(aa_victims)
    entries, support_changed = fix_support(ctx, r, kinds)
    _, rolled = side_dice(ctx.recorded.rounds[r - 1], Side.ATTACKER, expected)
    column_entries, dice_changed = fix_columns(ctx, rolled, expected, True, reroll_columns, r)
    return AttackFixed(expected, [*entries, *column_entries], aa_entries, aa_victims,
                        changed or support_changed or dice_changed)


def fix_defence(ctx: Context, r: int, firing: Force, plan: Plan) -> tuple[list[DiceEntry], bool]:
    """The defender's columns of round r, under the pause election after a skipped pause."""
    _, rolled = side_dice(ctx.recorded.rounds[r - 1], Side.DEFENDER, firing)
    paused_next = plan.pause_round is not None and r == plan.pause_round + 1
    if paused_next and plan.pause_election == Election.REROLL_DEFENCE:
        # "adjust the defending units to suit the correct OOL and re-roll the affected defending
        # rolls" (2008 Orders of Loss, exceptions).
        return fix_columns(ctx, rolled, firing, False, {c for c, _ in layout(firing, False)}, r)
    if paused_next and plan.pause_election == Election.APPLY_TO_CORRECTED_UNITS:
        # "accept the defending rolls, applying the actual rolls to corrected units": the same
        # faces, in the order thrown, go to the corrected units' columns (hits recomputed), or
        # the hits as rolled stand (Edition.applied_rolls).
        if ctx.edition.applied_rolls == "hits_as_rolled":
            return as_thrown(rolled), False
        return fix_columns(ctx, reassigned(rolled, firing), firing, False, set(), r)
    return fix_columns(ctx, rolled, firing, False, set(), r)


def paused_defenders(ctx: Context, pause_round: int) -> Force:
    """The defender's units after the paused round, with the casualties it named (2008 OOL)."""
    paused = ctx.as_rolled.rounds[pause_round - 1]
    for units in reversed(ctx.record.chosen(pause_round, Side.DEFENDER)):
        if paused.defender.units.contains(units):
            return paused.defender.units - units
    return paused.defender.units.minus_available(paused.defender_losses)


def sub_hits(entries: list[DiceEntry], units: Force) -> int:
    """Hits of defending submarines (column 2 at sea holds only subs)."""
    subs = units.where(lambda u: u.is_sub)
    if not subs:
        return 0
    return sum(sum(e.hits) for e in entries if e.column == 2)


def reassigned(rolled: list[TypedDie], units: Force) -> list[TypedDie]:
    """The faces thrown, in order, given to ``units``' defending columns instead."""
    slots = [(column, unit) for column, column_units in layout(units, False) for unit in column_units]
    faces = [(d.value, d.marked) for d in rolled]
    given = [TypedDie(column, unit, value, marked)
             for (column, unit), (value, marked) in zip(slots, faces, strict=False)]
    # Faces beyond the corrected units stay with no unit (they are voided).
    given += [TypedDie(d.column, None, d.value, d.marked) for d in rolled[len(slots):]]
    return given


def fix_columns(ctx: Context, rolled: list[TypedDie], expected: Force, attacking: bool,
                 reroll: set[int], r: int) -> tuple[list[DiceEntry], bool]:
    """Per column and unit type: keep valid dice, void the rest, add the missing ones.

    Too many of a type: 2008 keeps the first N dice of that type, left to right; 1999 re-rolls
    the whole column with the right count (``Edition.too_many_units``). Dice of a type that is
    not there are voided and the correct units rolled (2008 Section III, Wrong Units).
    """
    wanted: dict[int, Counter[UnitType]] = {}
    for column, units in layout(expected, attacking):
        wanted[column] = Counter(units)
    by_column: dict[int, list[TypedDie]] = {}
    for die in rolled:
        by_column.setdefault(die.column, []).append(die)
    side = "attacker" if attacking else "defender"
    # Attacking submarines strike first at sea (Part 13 step 3).
    strikes = attacking and ctx.record.kind is BattleKind.SEA and (
        r == 1 or ctx.edition.sub_first_strike == "every_round")
    entries: list[DiceEntry] = []
    changed = False
    for column in sorted(set(wanted) | set(by_column)):
        need = wanted.get(column, Counter())
        dice = by_column.get(column, [])
        have = Counter(d.unit for d in dice)
        # 1999 Part 14 knows only too few and too many: a type rolled that is not there is too
        # many of it, and "the entire column will be re-rolled".
        too_many = any(have[u] > need.get(u, 0) for u in have if u is not None)
        whole = column in reroll or (too_many and ctx.edition.too_many_units == "reroll_column"
                                     and (ctx.edition.reroll_unchanged_column or _extra_hit(dice, need)))
        statuses, missing = _column_statuses(dice, need, whole)
        entries.extend(_runs(column, statuses, strikes))
        if missing:
            # The owners of the missing dice, weakest first (with the whole column re-rolled,
            # every unit of it; else those short of the dice rolled for their type).
            owners = [u for u, n in sorted(need.items(), key=lambda p: p[0].order)
                      for _ in range(max(0, n - (0 if whole else have[u])))]
            entries.append(_added(ctx, column, owners, missing, f"R{r} {side} column {column}: correction",
                                  strikes))
        changed |= bool(missing) or any(s == DiceStatus.VOIDED for _, s in statuses)
    return entries, changed


def _column_statuses(dice: list[TypedDie], need: Counter[UnitType],
                     whole: bool) -> tuple[list[tuple[TypedDie, DiceStatus]], int]:
    """Each die of a column kept or voided, and how many dice are missing: with the ``whole``
    column re-rolled every die is voided; else the first N of each type (left to right) kept."""
    if whole:
        return [(d, DiceStatus.VOIDED) for d in dice], sum(need.values())
    statuses: list[tuple[TypedDie, DiceStatus]] = []
    used: Counter[UnitType | None] = Counter()
    for die in dice:
        if die.unit is not None and used[die.unit] < need.get(die.unit, 0):
            used[die.unit] += 1
            statuses.append((die, DiceStatus.KEPT))
        else:
            statuses.append((die, DiceStatus.VOIDED))
    return statuses, sum(max(0, n - used[u]) for u, n in need.items())


def _added(ctx: Context, column: int, owners: list[UnitType], missing: int, purpose: str,
           strikes: bool) -> DiceEntry:
    """The ``missing`` dice of a column drawn for a correction."""
    faces = ctx.dice.draw(missing, purpose, str(Force.from_units(owners)))
    return DiceEntry(column=column, values=tuple(faces), status=DiceStatus.ADDED,
                     first_strike=strikes and any(u.is_sub for u in owners),
                     hits=tuple(v <= hit_value(column) for v in faces))


def _extra_hit(dice: list[TypedDie], need: Counter[UnitType]) -> bool:
    """Whether a die beyond the first N of its type (left to right) hit: the extra dice changed
    the column (1999 "entire column re-rolled", read as needed only then: an edition's choice)."""
    used: Counter[UnitType | None] = Counter()
    extra = False
    for die in dice:
        if die.unit is not None and used[die.unit] < need.get(die.unit, 0):
            used[die.unit] += 1
        else:
            extra |= die.hit
    return extra


def as_thrown(rolled: list[TypedDie]) -> list[DiceEntry]:
    """The record's dice as thrown, every one kept with the hit it scored."""
    by_column: dict[int, list[tuple[TypedDie, DiceStatus]]] = {}
    for die in rolled:
        by_column.setdefault(die.column, []).append((die, DiceStatus.KEPT))
    return [entry for column in sorted(by_column) for entry in _runs(column, by_column[column], False)]


def _runs(column: Column, statuses: list[tuple[TypedDie, DiceStatus]], strikes: bool) -> list[DiceEntry]:
    """Consecutive dice of equal status, in the order thrown (replay format, dice[])."""
    entries: list[DiceEntry] = []
    run: list[TypedDie] = []
    key: tuple[DiceStatus, bool] | None = None
    for die, status in statuses:
        this = (status, strikes and die.unit is not None and die.unit.is_sub)
        if key is not None and this != key:
            entries.append(_entry(column, run, *key))
            run = []
        run.append(die)
        key = this
    if run and key is not None:
        entries.append(_entry(column, run, *key))
    return entries


def _entry(column: Column, dice: list[TypedDie], status: DiceStatus, first_strike: bool) -> DiceEntry:
    return DiceEntry(column=column, values=tuple(d.value for d in dice), status=status,
                     first_strike=first_strike, marked=tuple(d.marked for d in dice),
                     hits=tuple(d.hit for d in dice))


def fix_aa(ctx: Context, kinds: set[str],
            order: OrderOfLoss) -> tuple[list[DiceEntry], Force, set[int], bool]:
    """AA fire before round 1 under the edition's remedy; returns entries, victims, columns to
    re-roll (1999 forgotten AA) and whether anything changed."""
    recorded = list(ctx.recorded.aa.dice.values) if ctx.recorded.aa is not None else []
    aircraft = ctx.attackers.where(lambda u: u.is_air)
    gun = bool(ctx.defenders[UnitType.AA]) and ctx.record.kind is not BattleKind.SEA
    shots = len(aircraft) if gun else 0
    statuses: list[tuple[int, DiceStatus]] = [(v, DiceStatus.KEPT) for v in recorded]
    changed = False
    reroll: set[int] = set()
    if FindingKind.AA_GHOST in kinds:
        statuses = [(v, DiceStatus.VOIDED) for v in recorded]
        changed = any(v == 1 for v in recorded)
    elif FindingKind.AA_TOO_MANY in kinds:
        statuses = [(v, DiceStatus.KEPT if i < shots else DiceStatus.VOIDED) for i, v in enumerate(recorded)]
        changed = any(v == 1 or ctx.edition.extra_shot_missed == "reroll_next_round"
                      for v, s in statuses if s == DiceStatus.VOIDED)
    entries = [DiceEntry(column="AA", values=(v,), status=s, hits=(v == 1,)) for v, s in statuses]
    entries = merged(entries)
    kept_hits = sum(1 for v, s in statuses if s == DiceStatus.KEPT and v == 1)
    if FindingKind.AA_FORGOTTEN in kinds and shots > len(recorded):
        faces = ctx.dice.draw(shots - len(recorded), "R1 defender AA shots: correction",
                              str(Force.from_units(aircraft.units()[len(recorded):shots])))
        entries.append(DiceEntry(column="AA", values=tuple(faces), status=DiceStatus.ADDED,
                                 hits=tuple(v == 1 for v in faces)))
        new_hits = sum(1 for v in faces if v == 1)
        before = order.choose(aircraft, kept_hits, air_only_hits=kept_hits)
        if new_hits:
            changed = True
            if ctx.edition.aa_forgotten == "reroll_threes_column":
                # 1999 Part 14 AA guns 2.2: "go to Rnd 1 Column 3, remove the additional ftr/s,
                # re-roll the 3's column with the correct number of units".
                after = order.choose(aircraft, kept_hits + new_hits, air_only_hits=kept_hits + new_hits)
                reroll = {value for value, units in layout(after - before, True)}
                return entries, after, reroll, changed
            # 2008 Section III, AA Guns: "Aircraft are removed from right to left ... it is the
            # last aircraft (and its die roll) that is removed": the rightmost aircraft dice.
            flying = aircraft - before
            # Aircraft in the order their dice stand: by column, then the canonical order.
            in_line = sorted(flying.units(), key=lambda u: (u.profile.attack, u.order))
            shot = Force.from_units(in_line[len(in_line) - min(new_hits, len(in_line)):])
            return entries, before + shot, reroll, changed
    victims = order.choose(aircraft, kept_hits, air_only_hits=kept_hits)
    return entries, victims, reroll, changed


def merged(entries: list[DiceEntry]) -> list[DiceEntry]:
    merged: list[DiceEntry] = []
    for entry in entries:
        if merged and merged[-1].status == entry.status and merged[-1].column == entry.column:
            last = merged[-1]
            merged[-1] = DiceEntry(column=last.column, values=last.values + entry.values, status=last.status,
                                   hits=last.hits + entry.hits)
        else:
            merged.append(entry)
    return merged


def fix_support(ctx: Context, r: int, kinds: set[str]) -> tuple[list[DiceEntry], bool]:
    """Battleship support shots under the edition's remedy."""
    shots = [v for line in ctx.recorded.support_shots(r) for v in line.dice.values]
    expected = len(ctx.record.support) if r == 1 else 0
    statuses: list[tuple[int, DiceStatus]] = [(v, DiceStatus.KEPT) for v in shots]
    changed = False
    if FindingKind.BB_GHOST in kinds:
        statuses = [(v, DiceStatus.VOIDED) for v in shots]
        changed = any(v <= 4 for v in shots)
    elif FindingKind.BB_TOO_MANY in kinds:
        statuses = [(v, DiceStatus.KEPT if i < expected else DiceStatus.VOIDED) for i, v in enumerate(shots)]
        changed = any(v <= 4 or ctx.edition.extra_shot_missed == "reroll_next_round"
                      for v, s in statuses if s == DiceStatus.VOIDED)
    entries = merged([DiceEntry(column="BB", values=(v,), status=s, hits=(v <= 4,)) for v, s in statuses])
    if FindingKind.BB_FORGOTTEN in kinds and expected > len(shots):
        faces = ctx.dice.draw(expected - len(shots), f"R{r} attacker support shots: correction",
                              f"{expected - len(shots)} BB")
        entries.append(DiceEntry(column="BB", values=tuple(faces), status=DiceStatus.ADDED,
                                 hits=tuple(v <= 4 for v in faces)))
        changed |= any(v <= 4 for v in faces)
    return entries, changed
