"""A battle's correction in progress: what it needs (the plan, the context), the rounds kept,
the dice voided from a round on, and the battle fought on mechanically from the resume round
("re-roll from round N", rules matrix; 2008 Section III; 1999 Part 14 GM Errors)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from msgspec.structs import replace as with_fields

from domain.battle.engine import fight
from domain.battle.model import (
    BattleSetup,
    DiceExhausted,
    Outcome,
    RetreatCondition,
    RoundResult,
    Side,
    Winner,
)
from domain.record.game import BattleRecord
from domain.record.recorded_battle import RecordedBattle
from domain.review.as_rolled import Orders, order_in_force
from domain.review.correction_dice import CorrectionDice
from domain.review.rolling_errors import BattleAudit, Issue
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
from domain.rules.editions import Edition
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import RIGHT_TO_LEFT_AIRCRAFT, BattleKind, OrderOfLoss


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


def ended_after(ctx: Context, r: int, attacker: Force, defender: Force) -> Outcome | None:
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


def refight(ctx: Context, start: int, kept: list[RoundView], attacker: Force,
             defender: Force) -> BattleView:
    """Fight mechanically from round ``start`` with the corrected forces."""
    setup = setup_of(ctx)
    retreat = ctx.record.retreat
    if retreat is not None and retreat[0] < start and setup.retreat is None:
        # The attacker's retreat declared before the resume round still stands.
        setup = with_retreat(setup, RetreatCondition(after_round=retreat[0], to=retreat[1]))
    voided = voided_from(ctx, start)
    try:
        fought = fight(setup, ctx.dice.provide, start_round=start, attacker=attacker,
                       defender=defender)
    except DiceExhausted:
        return awaiting(ctx, kept, start)
    rounds = (*kept, *(engine_round(result) for result in fought.rounds))
    return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                      status=BattleStatus.CORRECTED, rounds=rounds, result=fought.outcome, resume_round=start,
                      voided=voided, attacker_start=ctx.attackers, defender_start=ctx.defenders,
                      declared=ctx.as_rolled.declared)


def with_retreat(setup: BattleSetup, retreat: RetreatCondition) -> BattleSetup:
    return with_fields(setup, retreat=retreat)


def awaiting(ctx: Context, kept: list[RoundView], start: int | None, *, then: str = "") -> BattleView:
    """Not enough dice for the correction: the battle awaits them. ``start``: the round the
    re-roll starts at, when that is decided (its dice and later ones are void)."""
    need = ctx.dice.shortfall
    if need is not None and then:
        need = with_fields(need, then=then)
    return BattleView(turn=ctx.record.turn, battle=ctx.record.territory, kind=ctx.record.kind,
                      status=BattleStatus.AWAITING, rounds=tuple(kept), result=None, resume_round=start,
                      voided=voided_from(ctx, start) if start is not None else (),
                      attacker_start=ctx.attackers, defender_start=ctx.defenders, needed=need,
                      declared=ctx.as_rolled.declared)


def with_rounds(view: BattleView, *, rounds: tuple[RoundView, ...], status: BattleStatus) -> BattleView:
    return BattleView(turn=view.turn, battle=view.battle, kind=view.kind, status=status,
                      rounds=rounds, result=view.result, resume_round=view.resume_round,
                      voided=view.voided, attacker_start=view.attacker_start,
                      defender_start=view.defender_start, finding_ids=view.finding_ids,
                      declared=view.declared)


def voided_from(ctx: Context, start: int) -> tuple[VoidedDice, ...]:
    """The original dice of every recorded round from ``start`` on (they no longer count)."""
    voided: list[VoidedDice] = []
    for view in ctx.as_rolled.rounds[start - 1:]:
        for side, seen in ((Side.ATTACKER, view.attacker), (Side.DEFENDER, view.defender)):
            for entry in seen.dice:
                voided.append(VoidedDice(view.round, side.value, entry.column, entry.values))
    return tuple(voided)


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
                                            status=DiceStatus.ADDED, first_strike=volley.first_strike,
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
