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

from datetime import datetime

from msgspec.structs import replace as with_fields

from domain.battle.model import (
    DiceExhausted,
    Outcome,
    Side,
    Winner,
)
from domain.review.applied_rolls import apply_onward
from domain.review.as_rolled import order_in_force
from domain.review.dice_fixes import fix_attack, fix_defence, paused_defenders, sub_hits
from domain.review.refight import Context, Plan, awaiting, ended_after, refight, voided_from, with_rounds
from domain.review.rolling_errors import Issue
from domain.review.views import (
    BattleStatus,
    BattleView,
    DiceStatus,
    RoundView,
    SideRound,
)
from domain.rules.editions import CASUALTY_ERRORS


# -- the corrected battle ----------------------------------------------------------------------
def correct(ctx: Context, plan: Plan) -> tuple[BattleView, bool]:
    """The corrected battle, and whether the remedy changed anything."""
    if plan.void or plan.not_fought:
        voided = voided_from(ctx, 1)
        status: BattleStatus = BattleStatus.NOT_FOUGHT if plan.not_fought else BattleStatus.VOID
        view = BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                          status=status, rounds=(), result=None, voided=voided,
                          attacker_start=ctx.attackers, defender_start=ctx.defenders,
                          declared=ctx.as_rolled.declared)
        return view, True
    if plan.refight_from_start:
        return refight(ctx, 1, [], ctx.attackers, ctx.defenders), True
    if plan.truncate_at is not None:
        return _retreated_at(ctx, plan.truncate_at)
    if plan.resume_at is not None:
        kept = list(ctx.as_rolled.rounds[:plan.resume_at - 1])
        if not kept:
            return refight(ctx, 1, [], ctx.attackers, ctx.defenders), True
        last = kept[-1]
        return refight(ctx, plan.resume_at, kept,
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
        named = paused.defender.units.minus_available(paused_defenders(ctx, plan.pause_round))
        kept[plan.pause_round - 1] = with_fields(paused, defender_losses=named)
    try:
        fixed, changed = _fix_round(ctx, r, issues, plan)
    except DiceExhausted:
        # Round r's valid dice stand; whether later rounds are re-rolled depends on the dice
        # still to come, so nothing is voided yet (provisional is never shown as fact).
        return awaiting(ctx, kept, None, then=f"round {r + 1} on is re-rolled (unless round {r} "
                         "ends the battle)"), True
    attacker = fixed.attacker.units.minus_available(fixed.attacker_losses)
    defender = fixed.defender.units.minus_available(fixed.defender_losses)
    recorded_next = ctx.as_rolled.rounds[r] if r < len(ctx.as_rolled.rounds) else None
    # Combat units only: a record types no AA gun or IC in a round's units, and they never fall.
    if recorded_next is not None and (recorded_next.attacker.units.combatants() != attacker.combatants()
                                      or recorded_next.defender.units.combatants() != defender.combatants()):
        changed = True
    ended = ended_after(ctx, r, attacker, defender)
    if recorded_next is None and ended is None:
        # The record stopped at the error's round with both sides still there: the players
        # took the battle for finished. Correcting the round means fighting on: "the rest of
        # the battle would be re-rolled starting with the next round" (1999 Part 14, GM
        # Errors; 2008 Section III), and a battle goes on until a side is destroyed or the
        # attacker withdraws (1999 Part 13, GM requirements 6).
        changed = True
    if not changed:
        rounds_view = (*kept, fixed, *ctx.as_rolled.rounds[r:])
        return with_rounds(ctx.as_rolled, rounds=rounds_view, status=BattleStatus.STANDS), False
    if ended is not None:
        return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                          status=BattleStatus.CORRECTED, rounds=(*kept, fixed), result=ended,
                          voided=voided_from(ctx, r + 1), attacker_start=ctx.attackers,
                          defender_start=ctx.defenders, declared=ctx.as_rolled.declared), True
    if _applies_onward(ctx, issues, plan):
        return apply_onward(ctx, r + 1, [*kept, fixed], attacker, defender), True
    return refight(ctx, r + 1, [*kept, fixed], attacker, defender), True


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
    result = ended_after(ctx, count, attacker, defender) if last else None
    if result is None:
        result = Outcome(Winner.DEFENDER, attacker.combatants(), defender.combatants(), retreated=True,
                         attacker_retreated=attacker.combatants())
    return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                      status=BattleStatus.CORRECTED, rounds=tuple(kept), result=result,
                      voided=voided_from(ctx, count + 1), attacker_start=ctx.attackers,
                      defender_start=ctx.defenders, declared=ctx.as_rolled.declared), True


# -- one round corrected in place --------------------------------------------------------------
def _fix_round(ctx: Context, r: int, issues: list[Issue], plan: Plan) -> tuple[RoundView, bool]:
    """Round r with the remedies of its errors applied; raises DiceExhausted without dice."""
    expected_attacker, expected_defender = ctx.audit.expected_starts[r - 1]
    attacker_order = order_in_force(ctx.record, ctx.orders, Side.ATTACKER, ctx.attackers)
    defender_order = order_in_force(ctx.record, ctx.orders, Side.DEFENDER, ctx.attackers)
    attack = fix_attack(ctx, r, {i.kind for i in issues}, expected_attacker, attacker_order)
    expected_attacker = attack.units
    if plan.pause_round is not None and r == plan.pause_round + 1:
        expected_defender = paused_defenders(ctx, plan.pause_round)
    counted = [e for e in attack.entries if e.status != DiceStatus.VOIDED]
    attack_hits = sum(sum(e.hits) for e in counted)
    strike_hits = sum(sum(e.hits) for e in counted if e.first_strike)
    # Part 13 step 3: first-strike victims leave the game without firing.
    victims = defender_order.choose(expected_defender.combatants(), strike_hits, sub_hits=strike_hits)
    firing = expected_defender.minus_available(victims)
    entries, changed = fix_defence(ctx, r, firing, plan)
    changed |= attack.changed
    defender_entries = [*attack.aa_entries, *entries]
    regular_defence = [e for e in defender_entries if e.status != DiceStatus.VOIDED and e.column != "AA"]
    defence_hits = sum(sum(e.hits) for e in regular_defence)
    defender_losses = victims + defender_order.choose(
        expected_defender.minus_available(victims).combatants(), attack_hits - strike_hits)
    attacker_losses = attacker_order.choose(expected_attacker.combatants(), defence_hits,
                                            sub_hits=sub_hits(regular_defence, firing))
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
