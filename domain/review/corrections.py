"""Retroactive correction of one battle: keep the valid dice, void the rest, take the dice the
remedy needs, correct the casualties, and fight the battle again from the resume round.

Nothing of the record is changed: the corrected battle is a new view beside the as-rolled one,
with every die marked ``kept``, ``voided`` or ``added`` and the voided rounds listed. Where a
correction needs dice, they come from the battle's ``dice`` records in the order the replay
format fixes, then from the game's verifiable dice source; without either the battle awaits
dice. "Re-roll from round N" (rules matrix): rounds before N stand as corrected, every original
die from round N on is voided, and the battle is fought again mechanically from there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from msgspec.structs import replace as with_fields

from domain.battle.columns import hit_value, layout
from domain.battle.engine import fight
from domain.battle.model import (
    BattleSetup,
    Column,
    DiceExhausted,
    Outcome,
    RetreatCondition,
    RoundResult,
    Side,
    Winner,
)
from domain.record.entries import Election
from domain.record.game import BattleRecord
from domain.record.recorded_battle import RecordedBattle
from domain.review.as_rolled import Orders, TypedDie, order_in_force
from domain.review.correction_dice import CorrectionDice
from domain.review.rolling_errors import BattleAudit, Issue, side_dice
from domain.review.views import (
    BattleStatus,
    BattleView,
    DiceEntry,
    DiceStatus,
    RoundOrigin,
    RoundView,
    SideRound,
    VoidedDice,
)
from domain.rules.editions import CASUALTY_ERRORS, Edition
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import RIGHT_TO_LEFT_AIRCRAFT, BattleKind, OrderOfLoss
from domain.rules.units import UnitType


@dataclass
class Plan:
    """What the applied issues ask of the battle."""

    rolling: list[Issue] = field(default_factory=list)
    refight_from_start: bool = False
    void: bool = False
    not_fought: bool = False
    resume_at: int | None = None
    pause_election: str | None = None
    pause_round: int | None = None
    #: Rounds first rolled at or after this time do not count; the attacker retreated then.
    truncate_at: datetime | None = None
    #: The declaration error (finding id) that voids or re-fights the battle, if any.
    declaration_void: str | None = None


@dataclass
class Context:
    """Everything a correction needs about one battle."""

    record: BattleRecord
    recorded: RecordedBattle
    as_rolled: BattleView
    audit: BattleAudit
    edition: Edition
    attackers: Force
    defenders: Force
    orders: Orders
    dice: CorrectionDice


def setup_of(ctx: Context) -> BattleSetup:
    """The battle as the engine fights it, under the orders in force."""
    kind = ctx.record.kind
    return BattleSetup(
        kind=kind, attacker=ctx.attackers, defender=ctx.defenders, support=ctx.record.support,
        amphibious=ctx.record.amphibious,
        attacker_order=order_in_force(ctx.record, ctx.orders, Side.ATTACKER, ctx.attackers),
        defender_order=order_in_force(ctx.record, ctx.orders, Side.DEFENDER, ctx.attackers),
        retreat=ctx.orders.retreat, sub_withdrawal_after=ctx.orders.sub_withdrawal_after,
        aa_order=aa_order_of(ctx.edition),
        subs_strike_every_round=ctx.edition.sub_first_strike == "every_round")


def aa_order_of(edition: Edition) -> OrderOfLoss | None:
    """The order AA hits remove aircraft in under the edition, if not the attacker's order of loss."""
    return RIGHT_TO_LEFT_AIRCRAFT if edition.aa_victims == "right_to_left" else None


# -- the corrected battle ----------------------------------------------------------------------
def correct(ctx: Context, plan: Plan) -> tuple[BattleView, bool]:
    """The corrected battle, and whether the remedy changed anything."""
    if plan.void or plan.not_fought:
        voided = _voided_from(ctx, 1)
        status: BattleStatus = "not_fought" if plan.not_fought else "void"
        view = BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                          status=status, rounds=(), result=None, voided=voided,
                          attacker_start=ctx.attackers, defender_start=ctx.defenders)
        return view, True
    if plan.refight_from_start:
        return _refight(ctx, 1, [], ctx.attackers, ctx.defenders), True
    if plan.truncate_at is not None:
        return _retreated_at(ctx, plan.truncate_at)
    if plan.resume_at is not None:
        kept = list(ctx.as_rolled.rounds[:plan.resume_at - 1])
        if not kept:
            return _refight(ctx, 1, [], ctx.attackers, ctx.defenders), True
        last = kept[-1]
        return _refight(ctx, plan.resume_at, kept,
                        last.attacker.units.minus_available(last.attacker_losses),
                        last.defender.units.minus_available(last.defender_losses)), True
    if not plan.rolling and plan.pause_round is None:
        return ctx.as_rolled, False
    return _fix_in_place(ctx, plan)


def _fix_in_place(ctx: Context, plan: Plan) -> tuple[BattleView, bool]:
    """Correct the round of the earliest error, then re-roll from the next round if needed."""
    rounds = [i.round for i in plan.rolling if i.round is not None]
    if plan.pause_round is not None:
        rounds.append(plan.pause_round + 1)
    r = min(rounds) if rounds else 1
    r = max(1, min(r, len(ctx.recorded.rounds)))
    issues = [i for i in plan.rolling if i.round == r]
    kept = list(ctx.as_rolled.rounds[:r - 1])
    if plan.pause_round is not None and plan.pause_round <= len(kept):
        # The paused round's casualties become the ones the defender names (2008 OOL).
        paused = kept[plan.pause_round - 1]
        named = paused.defender.units.minus_available(_paused_defenders(ctx, plan.pause_round))
        kept[plan.pause_round - 1] = with_fields(paused, defender_losses=named)
    try:
        fixed, changed = _fix_round(ctx, r, issues, plan)
    except DiceExhausted:
        # Round r's valid dice stand; whether later rounds are re-rolled depends on the dice
        # still to come, so nothing is voided yet (provisional is never shown as fact).
        return _awaiting(ctx, kept, None, then=f"round {r + 1} on is re-rolled (unless round {r} "
                         "ends the battle)"), True
    attacker = fixed.attacker.units.minus_available(fixed.attacker_losses)
    defender = fixed.defender.units.minus_available(fixed.defender_losses)
    recorded_next = ctx.as_rolled.rounds[r] if r < len(ctx.as_rolled.rounds) else None
    # Combat units only: a record types no AA gun or IC in a round's units, and they never fall.
    if recorded_next is not None and (recorded_next.attacker.units.combatants() != attacker.combatants()
                                      or recorded_next.defender.units.combatants() != defender.combatants()):
        changed = True
    ended = _ended_after(ctx, r, attacker, defender)
    if recorded_next is None and ended is None:
        # The record stopped at the error's round with both sides still there: the players
        # took the battle for finished. Correcting the round means fighting on: "the rest of
        # the battle would be re-rolled starting with the next round" (1999 Part 14, GM
        # Errors; 2008 Section III), and a battle goes on until a side is destroyed or the
        # attacker withdraws (1999 Part 13, GM requirements 6).
        changed = True
    if not changed:
        rounds_view = (*kept, fixed, *ctx.as_rolled.rounds[r:])
        return _replace(ctx.as_rolled, rounds=rounds_view, status="stands"), False
    if ended is not None:
        return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                          status="corrected", rounds=(*kept, fixed), result=ended,
                          voided=_voided_from(ctx, r + 1), attacker_start=ctx.attackers,
                          defender_start=ctx.defenders), True
    if _applies_onward(ctx, issues, plan):
        from domain.review.applied_rolls import apply_onward  # builds on this module
        return apply_onward(ctx, r + 1, [*kept, fixed], attacker, defender), True
    return _refight(ctx, r + 1, [*kept, fixed], attacker, defender), True


def _applies_onward(ctx: Context, issues: list[Issue], plan: Plan) -> bool:
    """Whether the rounds after a casualty error keep their dice, applied to the corrected units
    (an edition's reading, ``Edition.casualty_error``; else they are re-rolled)."""
    return (ctx.edition.casualty_error == "apply_to_corrected_units" and plan.pause_round is None
            and bool(issues) and all(i.kind in CASUALTY_ERRORS for i in issues))


def _retreated_at(ctx: Context, when: datetime) -> tuple[BattleView, bool]:
    """2008 Order of Battles: the attacker retreated when the next battle began."""
    keep = [rnd.index for rnd in ctx.recorded.rounds if not rnd.rolls or rnd.rolls[0].at is None
            or rnd.rolls[0].at < when]
    count = len(keep)
    kept = ctx.as_rolled.rounds[:count]
    if count == len(ctx.as_rolled.rounds):
        return ctx.as_rolled, False
    last = kept[-1] if kept else None
    attacker = last.attacker.units.minus_available(last.attacker_losses) if last else ctx.attackers
    defender = last.defender.units.minus_available(last.defender_losses) if last else ctx.defenders
    result = _ended_after(ctx, count, attacker, defender) if last else None
    if result is None:
        result = Outcome(Winner.DEFENDER, attacker.combatants(), defender.combatants(), retreated=True,
                         attacker_retreated=attacker.combatants())
    return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                      status="corrected", rounds=tuple(kept), result=result,
                      voided=_voided_from(ctx, count + 1), attacker_start=ctx.attackers,
                      defender_start=ctx.defenders), True


def _ended_after(ctx: Context, r: int, attacker: Force, defender: Force) -> Outcome | None:
    """The corrected battle ends after round r: a side destroyed, or the record's retreat."""
    attacking, defending = bool(attacker.combatants()), bool(defender.combatants())
    if not (attacking and defending):
        winner = Winner.ATTACKER if attacking else Winner.DEFENDER if defending else Winner.NONE
        return Outcome(winner, attacker.combatants(), defender.combatants())
    retreat = ctx.record.retreat
    if retreat is not None and retreat[0] == r:
        staying = attacker.where(lambda u: u.is_land) if ctx.record.kind is BattleKind.AMPHIBIOUS else EMPTY
        if not staying.combatants():
            return Outcome(Winner.DEFENDER, attacker.combatants(), defender.combatants(), retreated=True,
                           attacker_retreated=attacker.combatants())
    return None


def _refight(ctx: Context, start: int, kept: list[RoundView], attacker: Force,
             defender: Force) -> BattleView:
    """Fight mechanically from round ``start`` with the corrected forces."""
    setup = setup_of(ctx)
    retreat = ctx.record.retreat
    if retreat is not None and retreat[0] < start and setup.retreat is None:
        # The attacker's retreat declared before the resume round still stands.
        setup = _with_retreat(setup, RetreatCondition(after_round=retreat[0], to=retreat[1]))
    voided = _voided_from(ctx, start)
    try:
        fought = fight(setup, ctx.dice.provide, start_round=start, attacker=attacker,
                       defender=defender)
    except DiceExhausted:
        return _awaiting(ctx, kept, start)
    rounds = (*kept, *(engine_round(result) for result in fought.rounds))
    return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                      status="corrected", rounds=rounds, result=fought.outcome, resume_round=start,
                      voided=voided, attacker_start=ctx.attackers, defender_start=ctx.defenders)


def _with_retreat(setup: BattleSetup, retreat: RetreatCondition) -> BattleSetup:
    return with_fields(setup, retreat=retreat)


def _awaiting(ctx: Context, kept: list[RoundView], start: int | None, *, then: str = "") -> BattleView:
    """Not enough dice for the correction: the battle awaits them. ``start``: the round the
    re-roll starts at, when that is decided (its dice and later ones are void)."""
    need = ctx.dice.shortfall
    if need is not None and then:
        need = with_fields(need, then=then)
    return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                      status="awaiting", rounds=tuple(kept), result=None, resume_round=start,
                      voided=_voided_from(ctx, start) if start is not None else (),
                      attacker_start=ctx.attackers, defender_start=ctx.defenders, needed=need)


def _replace(view: BattleView, *, rounds: tuple[RoundView, ...], status: BattleStatus) -> BattleView:
    return BattleView(turn=view.turn, battle=view.battle, kind=view.kind, status=status,
                      rounds=rounds, result=view.result, resume_round=view.resume_round,
                      voided=view.voided, attacker_start=view.attacker_start,
                      defender_start=view.defender_start, finding_ids=view.finding_ids)


def _voided_from(ctx: Context, start: int) -> tuple[VoidedDice, ...]:
    """The original dice of every recorded round from ``start`` on (they no longer count)."""
    voided: list[VoidedDice] = []
    for view in ctx.as_rolled.rounds[start - 1:]:
        for side, seen in ((Side.ATTACKER, view.attacker), (Side.DEFENDER, view.defender)):
            for entry in seen.dice:
                voided.append(VoidedDice(view.round, side.value, entry.column, entry.values))
    return tuple(voided)


# -- one round corrected in place --------------------------------------------------------------
def _fix_round(ctx: Context, r: int, issues: list[Issue], plan: Plan) -> tuple[RoundView, bool]:
    """Round r with the remedies of its errors applied; raises DiceExhausted without dice."""
    expected_attacker, expected_defender = ctx.audit.expected_starts[r - 1]
    attacker_order = order_in_force(ctx.record, ctx.orders, Side.ATTACKER, ctx.attackers)
    defender_order = order_in_force(ctx.record, ctx.orders, Side.DEFENDER, ctx.attackers)
    attack = _fix_attack(ctx, r, {i.kind for i in issues}, expected_attacker, attacker_order)
    expected_attacker = attack.units
    if plan.pause_round is not None and r == plan.pause_round + 1:
        expected_defender = _paused_defenders(ctx, plan.pause_round)
    counted = [e for e in attack.entries if e.status != "voided"]
    attack_hits = sum(sum(e.hits) for e in counted)
    strike_hits = sum(sum(e.hits) for e in counted if e.first_strike)
    # Part 13 step 3: first-strike victims leave the game without firing.
    victims = defender_order.choose(expected_defender.combatants(), strike_hits, sub_hits=strike_hits)
    firing = expected_defender.minus_available(victims)
    entries, changed = _fix_defence(ctx, r, firing, plan)
    changed |= attack.changed
    defender_entries = [*attack.aa_entries, *entries]
    regular_defence = [e for e in defender_entries if e.status != "voided" and e.column != "AA"]
    defence_hits = sum(sum(e.hits) for e in regular_defence)
    defender_losses = victims + defender_order.choose(
        expected_defender.minus_available(victims).combatants(), attack_hits - strike_hits)
    attacker_losses = attacker_order.choose(expected_attacker.combatants(), defence_hits,
                                            sub_hits=_sub_hits(regular_defence, firing))
    original = ctx.as_rolled.rounds[r - 1]
    if (defender_losses, attacker_losses) != (original.defender_losses, original.attacker_losses):
        changed = True
    view = RoundView(
        round=r, origin="as_rolled",
        attacker=SideRound(expected_attacker, attack_hits, tuple(attack.entries),
                           original.attacker.stated_hits, original.attacker.typed_units),
        defender=SideRound(expected_defender, defence_hits, tuple(defender_entries),
                           original.defender.stated_hits, original.defender.typed_units),
        attacker_losses=attacker_losses, defender_losses=defender_losses,
        typed_number=original.typed_number, aa_losses=attack.aa_victims)
    return view, changed


@dataclass
class _AttackFixed:
    """The attacker's side of a corrected round, and the AA fire before it."""

    units: Force
    entries: list[DiceEntry]
    aa_entries: list[DiceEntry]
    aa_victims: Force
    changed: bool


def _fix_attack(ctx: Context, r: int, kinds: set[str], expected: Force,
                attacker_order: OrderOfLoss) -> _AttackFixed:
    """AA fire (round 1), support shots and the attacker's columns under the remedies."""
    aa_entries: list[DiceEntry] = []
    aa_victims = ctx.audit.aa_victims if r == 1 else EMPTY
    reroll_columns: set[int] = set()
    changed = False
    if r == 1:
        aa_entries, aa_victims, reroll_columns, changed = _fix_aa(
            ctx, kinds, aa_order_of(ctx.edition) or attacker_order)
        expected = ctx.attackers.minus_available(aa_victims)
    entries, support_changed = _fix_support(ctx, r, kinds)
    _, rolled = side_dice(ctx.recorded.rounds[r - 1], Side.ATTACKER, expected)
    column_entries, dice_changed = _fix_columns(ctx, rolled, expected, True, reroll_columns, r)
    return _AttackFixed(expected, [*entries, *column_entries], aa_entries, aa_victims,
                        changed or support_changed or dice_changed)


def _fix_defence(ctx: Context, r: int, firing: Force, plan: Plan) -> tuple[list[DiceEntry], bool]:
    """The defender's columns of round r, under the pause election after a skipped pause."""
    _, rolled = side_dice(ctx.recorded.rounds[r - 1], Side.DEFENDER, firing)
    paused_next = plan.pause_round is not None and r == plan.pause_round + 1
    if paused_next and plan.pause_election == Election.REROLL_DEFENCE:
        # "adjust the defending units to suit the correct OOL and re-roll the affected defending
        # rolls" (2008 Orders of Loss, exceptions).
        return _fix_columns(ctx, rolled, firing, False, {c for c, _ in layout(firing, False)}, r)
    if paused_next and plan.pause_election == Election.APPLY_TO_CORRECTED_UNITS:
        # "accept the defending rolls, applying the actual rolls to corrected units": the same
        # faces, in the order thrown, go to the corrected units' columns (hits recomputed), or
        # the hits as rolled stand (Edition.applied_rolls).
        if ctx.edition.applied_rolls == "hits_as_rolled":
            return _as_thrown(rolled), False
        return _fix_columns(ctx, _reassigned(rolled, firing), firing, False, set(), r)
    return _fix_columns(ctx, rolled, firing, False, set(), r)


def _paused_defenders(ctx: Context, pause_round: int) -> Force:
    """The defender's units after the paused round, with the casualties it named (2008 OOL)."""
    paused = ctx.as_rolled.rounds[pause_round - 1]
    for units in reversed(ctx.record.chosen(pause_round, Side.DEFENDER)):
        if paused.defender.units.contains(units):
            return paused.defender.units - units
    return paused.defender.units.minus_available(paused.defender_losses)


def _sub_hits(entries: list[DiceEntry], units: Force) -> int:
    """Hits of defending submarines (column 2 at sea holds only subs)."""
    subs = units.where(lambda u: u.is_sub)
    if not subs:
        return 0
    return sum(sum(e.hits) for e in entries if e.column == 2)


def _reassigned(rolled: list[TypedDie], units: Force) -> list[TypedDie]:
    """The faces thrown, in order, given to ``units``' defending columns instead."""
    slots = [(column, unit) for column, column_units in layout(units, False) for unit in column_units]
    faces = [(d.value, d.marked) for d in rolled]
    given = [TypedDie(column, unit, value, marked)
             for (column, unit), (value, marked) in zip(slots, faces, strict=False)]
    # Faces beyond the corrected units stay with no unit (they are voided).
    given += [TypedDie(d.column, None, d.value, d.marked) for d in rolled[len(slots):]]
    return given


def _fix_columns(ctx: Context, rolled: list[TypedDie], expected: Force, attacking: bool,
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
        changed |= bool(missing) or any(s == "voided" for _, s in statuses)
    return entries, changed


def _column_statuses(dice: list[TypedDie], need: Counter[UnitType],
                     whole: bool) -> tuple[list[tuple[TypedDie, DiceStatus]], int]:
    """Each die of a column kept or voided, and how many dice are missing: with the ``whole``
    column re-rolled every die is voided; else the first N of each type (left to right) kept."""
    if whole:
        return [(d, "voided") for d in dice], sum(need.values())
    statuses: list[tuple[TypedDie, DiceStatus]] = []
    used: Counter[UnitType | None] = Counter()
    for die in dice:
        if die.unit is not None and used[die.unit] < need.get(die.unit, 0):
            used[die.unit] += 1
            statuses.append((die, "kept"))
        else:
            statuses.append((die, "voided"))
    return statuses, sum(max(0, n - used[u]) for u, n in need.items())


def _added(ctx: Context, column: int, owners: list[UnitType], missing: int, purpose: str,
           strikes: bool) -> DiceEntry:
    """The ``missing`` dice of a column drawn for a correction."""
    faces = ctx.dice.draw(missing, purpose, str(Force.from_units(owners)))
    return DiceEntry(column=column, values=tuple(faces), status="added",
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


def _as_thrown(rolled: list[TypedDie]) -> list[DiceEntry]:
    """The record's dice as thrown, every one kept with the hit it scored."""
    by_column: dict[int, list[tuple[TypedDie, DiceStatus]]] = {}
    for die in rolled:
        by_column.setdefault(die.column, []).append((die, "kept"))
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


def _fix_aa(ctx: Context, kinds: set[str],
            order: OrderOfLoss) -> tuple[list[DiceEntry], Force, set[int], bool]:
    """AA fire before round 1 under the edition's remedy; returns entries, victims, columns to
    re-roll (1999 forgotten AA) and whether anything changed."""
    recorded = list(ctx.recorded.aa.dice.values) if ctx.recorded.aa is not None else []
    aircraft = ctx.attackers.where(lambda u: u.is_air)
    gun = bool(ctx.defenders[UnitType.AA]) and ctx.record.kind is not BattleKind.SEA
    shots = len(aircraft) if gun else 0
    statuses: list[tuple[int, DiceStatus]] = [(v, "kept") for v in recorded]
    changed = False
    reroll: set[int] = set()
    if "aa_ghost" in kinds:
        statuses = [(v, "voided") for v in recorded]
        changed = any(v == 1 for v in recorded)
    elif "aa_too_many" in kinds:
        statuses = [(v, "kept" if i < shots else "voided") for i, v in enumerate(recorded)]
        changed = any(v == 1 or ctx.edition.extra_shot_missed == "reroll_next_round"
                      for v, s in statuses if s == "voided")
    entries = [DiceEntry(column="AA", values=(v,), status=s, hits=(v == 1,)) for v, s in statuses]
    entries = _merge(entries)
    kept_hits = sum(1 for v, s in statuses if s == "kept" and v == 1)
    if "aa_forgotten" in kinds and shots > len(recorded):
        faces = ctx.dice.draw(shots - len(recorded), "R1 defender AA shots: correction",
                              str(Force.from_units(aircraft.units()[len(recorded):shots])))
        entries.append(DiceEntry(column="AA", values=tuple(faces), status="added",
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


def _merge(entries: list[DiceEntry]) -> list[DiceEntry]:
    merged: list[DiceEntry] = []
    for entry in entries:
        if merged and merged[-1].status == entry.status and merged[-1].column == entry.column:
            last = merged[-1]
            merged[-1] = DiceEntry(column=last.column, values=last.values + entry.values, status=last.status,
                                   hits=last.hits + entry.hits)
        else:
            merged.append(entry)
    return merged


def _fix_support(ctx: Context, r: int, kinds: set[str]) -> tuple[list[DiceEntry], bool]:
    """Battleship support shots under the edition's remedy."""
    shots = [v for line in ctx.recorded.support_shots(r) for v in line.dice.values]
    expected = len(ctx.record.support) if r == 1 else 0
    statuses: list[tuple[int, DiceStatus]] = [(v, "kept") for v in shots]
    changed = False
    if "bb_ghost" in kinds:
        statuses = [(v, "voided") for v in shots]
        changed = any(v <= 4 for v in shots)
    elif "bb_too_many" in kinds:
        statuses = [(v, "kept" if i < expected else "voided") for i, v in enumerate(shots)]
        changed = any(v <= 4 or ctx.edition.extra_shot_missed == "reroll_next_round"
                      for v, s in statuses if s == "voided")
    entries = _merge([DiceEntry(column="BB", values=(v,), status=s, hits=(v <= 4,)) for v, s in statuses])
    if "bb_forgotten" in kinds and expected > len(shots):
        faces = ctx.dice.draw(expected - len(shots), f"R{r} attacker support shots: correction",
                              f"{expected - len(shots)} BB")
        entries.append(DiceEntry(column="BB", values=tuple(faces), status="added",
                                 hits=tuple(v <= 4 for v in faces)))
        changed |= any(v <= 4 for v in faces)
    return entries, changed


# -- engine rounds as report rounds ------------------------------------------------------------
def engine_round(result: RoundResult, origin: RoundOrigin = "rerolled") -> RoundView:
    """A round the engine fought, as the report shows it (every die ``added``)."""
    aa = [v for v in result.volleys if v.column == "AA"]
    aa_losses = EMPTY
    for volley in aa:
        aa_losses = aa_losses + volley.casualties
    sides: dict[Side, list[DiceEntry]] = {Side.ATTACKER: [], Side.DEFENDER: []}
    hits = {Side.ATTACKER: 0, Side.DEFENDER: 0}
    for volley in result.volleys:
        sides[volley.side].append(DiceEntry(column=volley.column, values=tuple(volley.values),
                                            status="added", first_strike=volley.first_strike,
                                            hits=tuple(d.hit for d in volley.dice)))
        if volley.column != "AA":
            hits[volley.side] += volley.hits
    return RoundView(
        round=result.number, origin=origin,
        attacker=SideRound(result.attacker_units.minus_available(aa_losses), hits[Side.ATTACKER],
                           tuple(sides[Side.ATTACKER])),
        defender=SideRound(result.defender_units, hits[Side.DEFENDER], tuple(sides[Side.DEFENDER])),
        attacker_losses=result.attacker_losses.minus_available(aa_losses),
        defender_losses=result.defender_losses, pause_required=result.pause_required, aa_losses=aa_losses)
