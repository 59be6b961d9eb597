"""A casualty error corrected by applying the dice as rolled to the corrected units.

An edition's reading of a casualty error (``Edition.casualty_error = "apply_to_corrected_units"``,
docs/rulings.md), borrowed from the 2008 pause rule's second option, "to accept the defending
rolls, applying the actual rolls to corrected units" (Orders of Loss, exceptions), and from
"Valid dice rolls will be preserved as much as possible" (Section I):

- the round of the error stands with its casualties corrected (its dice under the order of loss
  or the owner's named choice: ``corrections._fix_round``);
- every later recorded round keeps its dice as thrown: each side's faces, in the order thrown,
  go to the corrected units' columns (a face hits or misses on its new column, or keeps the hit
  it scored: ``Edition.applied_rolls``); faces beyond the corrected units are voided, and dice
  for corrected units the record did not roll are rolled ("the correct unit will be rolled for",
  Section III, Wrong Units); each round's casualties follow from its hits and the order of loss;
- the battle ends where the corrected units end it (the record's later rounds are voided), and
  a record that stopped with both sides still there is fought on from its next round (1999
  Part 13, GM requirements 6).
"""

from __future__ import annotations

from domain.battle.columns import hit_value, layout
from domain.battle.model import DiceExhausted, Side
from domain.review.as_rolled import TypedDie, order_in_force
from domain.review.dice_counts import side_dice
from domain.review.dice_fixes import fix_columns, sub_hits
from domain.review.refight import Context, awaiting, ended_after, refight, voided_from
from domain.review.views import BattleStatus, BattleView, DiceEntry, DiceStatus, RoundView, SideRound
from domain.rules.forces import Force


def apply_onward(ctx: Context, start: int, kept: list[RoundView], attacker: Force,
                 defender: Force) -> BattleView:
    """The battle from round ``start`` on: the recorded rounds' dice applied to the corrected
    units ``attacker`` and ``defender``, then fought on if the record stopped too early."""
    rounds = list(kept)
    for r in range(start, len(ctx.recorded.rounds) + 1):
        try:
            played = applied_round(ctx, r, attacker, defender)
        except DiceExhausted:
            return awaiting(ctx, rounds, None, then=f"round {r}'s other dice are applied to the corrected "
                             "units")
        rounds.append(played)
        attacker = attacker.minus_available(played.attacker_losses)
        defender = defender.minus_available(played.defender_losses)
        ended = ended_after(ctx, r, attacker, defender)
        if ended is not None:
            return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                              status=BattleStatus.CORRECTED, rounds=tuple(rounds), result=ended,
                              voided=voided_from(ctx, r + 1), attacker_start=ctx.attackers,
                              defender_start=ctx.defenders, declared=ctx.as_rolled.declared)
    # The record stopped with both corrected sides still there: fight on (Part 13, 6).
    return refight(ctx, len(ctx.recorded.rounds) + 1, rounds, attacker, defender)


def applied_round(ctx: Context, r: int, attacker: Force, defender: Force) -> RoundView:
    """Recorded round ``r`` with each side's faces applied to the corrected units; raises
    DiceExhausted when a corrected unit's missing die is not recorded yet."""
    rnd = ctx.recorded.rounds[r - 1]
    original = ctx.as_rolled.rounds[r - 1]
    attacker_order = order_in_force(ctx.record, ctx.orders, Side.ATTACKER, ctx.attackers)
    defender_order = order_in_force(ctx.record, ctx.orders, Side.DEFENDER, ctx.attackers)
    _, thrown = side_dice(rnd, Side.ATTACKER, attacker)
    attack = applied_dice(ctx, thrown, attacker, True, r)
    counted = [e for e in attack if e.status != DiceStatus.VOIDED]
    attack_hits = sum(sum(e.hits) for e in counted)
    strike_hits = sum(sum(e.hits) for e in counted if e.first_strike)
    # Part 13 step 3: first-strike victims leave the game without firing.
    victims = defender_order.choose(defender.combatants(), strike_hits, sub_hits=strike_hits)
    firing = defender.minus_available(victims)
    _, thrown = side_dice(rnd, Side.DEFENDER, firing)
    defence = applied_dice(ctx, thrown, firing, False, r)
    regular = [e for e in defence if e.status != DiceStatus.VOIDED]
    defence_hits = sum(sum(e.hits) for e in regular)
    defender_losses = victims + defender_order.choose(firing.combatants(), attack_hits - strike_hits)
    attacker_losses = attacker_order.choose(attacker.combatants(), defence_hits,
                                            sub_hits=sub_hits(regular, firing))
    return RoundView(
        round=r, origin="as_rolled",
        attacker=SideRound(attacker, attack_hits, tuple(attack), original.attacker.stated_hits,
                           original.attacker.typed_units),
        defender=SideRound(defender, defence_hits, tuple(defence), original.defender.stated_hits,
                           original.defender.typed_units),
        attacker_losses=attacker_losses, defender_losses=defender_losses,
        typed_number=original.typed_number)


def applied_dice(ctx: Context, thrown: list[TypedDie], units: Force, attacking: bool,
                 r: int) -> list[DiceEntry]:
    """One side's faces, in the order thrown, given to ``units``' columns: kept, voided (no
    unit left for them) or added (a unit with no face)."""
    given = reassigned(thrown, units, attacking)
    entries, _ = fix_columns(ctx, given, units, attacking, set(), r)
    if ctx.edition.applied_rolls == "hits_as_rolled":
        entries = _hits_as_rolled(entries, thrown, given)
    return entries


def reassigned(thrown: list[TypedDie], units: Force, attacking: bool) -> list[TypedDie]:
    """The faces thrown, in order, given to ``units``' columns instead (ascending, each column's
    dice in the canonical order); faces beyond the units stay with no unit (they are voided)."""
    slots = [(column, unit) for column, column_units in layout(units, attacking) for unit in column_units]
    given = [TypedDie(column, unit, die.value, die.marked)
             for (column, unit), die in zip(slots, thrown, strict=False)]
    return given + [TypedDie(d.column, None, d.value, d.marked) for d in thrown[len(slots):]]


def _hits_as_rolled(entries: list[DiceEntry], thrown: list[TypedDie],
                    given: list[TypedDie]) -> list[DiceEntry]:
    """Each reassigned face keeps the hit it scored where it was thrown (added dice hit on
    their own column)."""
    scored: dict[object, list[bool]] = {}
    for before, after in zip(thrown, given, strict=True):
        scored.setdefault(after.column, []).append(before.value <= before.column)
    out = []
    for entry in entries:
        if entry.status == DiceStatus.ADDED:
            out.append(entry)
            continue
        queue = scored.get(entry.column, [])
        hits = tuple(queue.pop(0) if queue else v <= hit_value(entry.column) for v in entry.values)
        out.append(DiceEntry(column=entry.column, values=entry.values, status=entry.status,
                             first_strike=entry.first_strike, marked=entry.marked, hits=hits))
    return out
