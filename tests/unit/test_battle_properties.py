"""Property tests of the battle engine over random forces and dice."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.battle.columns import dice_needed
from domain.battle.engine import Resolution, fight
from domain.battle.model import BattleSetup, DiceRequest, RetreatCondition, RoundResult, Side
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import UnitType

U = UnitType

LAND_ATTACK = (U.INF, U.ARM, U.FTR, U.JFTR, U.BMB, U.HBMB)
LAND_DEFENCE = (U.INF, U.ARM, U.FTR, U.JFTR, U.BMB, U.AA)
SEA_ATTACK = (U.TRN, U.SUB, U.SSUB, U.FTR, U.BMB, U.HBMB, U.AC, U.BB)
SEA_DEFENCE = (U.TRN, U.SUB, U.SSUB, U.FTR, U.JFTR, U.AC, U.BB)


def forces(types: Sequence[UnitType], most: int = 4) -> st.SearchStrategy[Force]:
    return st.lists(st.integers(0, most), min_size=len(types), max_size=len(types)).map(
        lambda counts: Force.of(zip(types, counts, strict=True)))


@st.composite
def battles(draw: st.DrawFn) -> BattleSetup:
    kind = draw(st.sampled_from(list(BattleKind)))
    at_sea = kind.at_sea
    attacker = draw(forces(SEA_ATTACK if at_sea else LAND_ATTACK))
    defender = draw(forces(SEA_DEFENCE if at_sea else LAND_DEFENCE))
    retreat = draw(st.one_of(
        st.none(),
        st.builds(RetreatCondition, after_round=st.integers(1, 4)),
        st.builds(RetreatCondition, at_most_units=st.integers(0, 4))))
    support = Force.of({U.BB: draw(st.integers(0, 2))}) if kind is BattleKind.AMPHIBIOUS else Force()
    amphibious = attacker.where(lambda unit: unit.is_land) if support else Force()
    withdrawal = draw(st.one_of(st.none(), st.integers(1, 3))) if at_sea else None
    return BattleSetup(kind, attacker, defender, support=support, amphibious=amphibious,
                       retreat=retreat, sub_withdrawal_after=withdrawal)


class Cycling:
    """Dice from a list, over and over; remembers every request."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values
        self.position = 0
        self.requests: list[DiceRequest] = []

    def __call__(self, request: DiceRequest) -> list[int]:
        self.requests.append(request)
        out = [self.values[(self.position + i) % len(self.values)] for i in range(request.count)]
        self.position += request.count
        return out


DICE = st.lists(st.integers(1, 6), min_size=1, max_size=40)


def run(battle: BattleSetup, dice: Sequence[int]) -> tuple[Resolution, Cycling]:
    provider = Cycling(dice)
    return fight(battle, provider, max_rounds=25), provider


@settings(max_examples=150, deadline=None)
@given(battles(), DICE)
def test_no_unit_is_ever_created(battle: BattleSetup, dice: list[int]) -> None:
    result, _ = run(battle, dice)
    attacker, defender = battle.attacker, battle.defender
    for current in result.rounds:
        assert attacker.contains(current.attacker_units)
        assert defender.contains(current.defender_units)
        assert current.attacker_units.contains(current.attacker_losses)
        assert current.defender_units.contains(current.defender_losses)
        attacker, defender = current.attacker_units, current.defender_units
    outcome = result.outcome
    assert battle.attacker.contains(outcome.attacker_left + outcome.attacker_retreated)
    assert battle.defender.contains(outcome.defender_left + outcome.defender_withdrew)


@settings(max_examples=150, deadline=None)
@given(battles(), DICE)
def test_losses_never_exceed_hits(battle: BattleSetup, dice: list[int]) -> None:
    result, _ = run(battle, dice)
    for current in result.rounds:
        for volley in current.volleys:
            assert len(volley.casualties) <= volley.hits
            if volley.column == "AA":
                assert all(unit.is_air for unit in volley.casualties.types)
            if all(die.unit.is_sub for die in volley.dice):
                assert not any(unit.is_air for unit in volley.casualties.types)
        assert len(current.attacker_losses) <= current.hits(Side.DEFENDER)
        assert len(current.defender_losses) <= current.hits(Side.ATTACKER)
        assert not current.attacker_losses.where(lambda unit: not unit.is_combatant)
        assert not current.defender_losses.where(lambda unit: not unit.is_combatant)


def _check_order(battle: BattleSetup, current: RoundResult, side: Side) -> None:
    """Every casualty ranks no later than every survivor, except where a hit was restricted."""
    start = (current.attacker_units if side is Side.ATTACKER else current.defender_units)
    losses = current.attacker_losses if side is Side.ATTACKER else current.defender_losses
    aa_victims = Force()
    if side is Side.ATTACKER:
        for volley in current.volleys:
            if volley.column == "AA":
                aa_victims = volley.casualties
    ranked = battle.order_of(side).ranked(start.combatants())
    rank = {unit: ranked.index(unit) for unit in set(ranked)}
    survivors = (start - losses).combatants()
    for lost in losses.types:
        for kept in survivors.types:
            if rank[kept] >= rank[lost]:
                continue
            sub_restricted = lost.is_sea and not lost.is_air and kept.is_air
            aa_restricted = lost.is_air and not kept.is_air and aa_victims[lost] > 0
            assert sub_restricted or aa_restricted, (side, str(start), str(losses), lost, kept)


@settings(max_examples=200, deadline=None)
@given(battles(), DICE)
def test_casualties_follow_the_order_of_loss(battle: BattleSetup, dice: list[int]) -> None:
    result, _ = run(battle, dice)
    for current in result.rounds:
        _check_order(battle, current, Side.ATTACKER)
        _check_order(battle, current, Side.DEFENDER)


@settings(max_examples=200, deadline=None)
@given(battles(), DICE)
def test_never_draws_more_dice_than_the_layout_needs(battle: BattleSetup, dice: list[int]) -> None:
    result, provider = run(battle, dice)
    for current in result.rounds:
        drawn = [r for r in provider.requests if r.round == current.number]
        aircraft = len(current.attacker_units.where(lambda unit: unit.is_air))
        aa = aircraft if current.number == 1 and current.defender_units[U.AA] else 0
        support = battle.support[U.BB] if current.number == 1 else 0
        attacking = sum(r.count for r in drawn if r.side is Side.ATTACKER and r.column != "BB")
        defending = sum(r.count for r in drawn if r.side is Side.DEFENDER and r.column != "AA")
        assert sum(r.count for r in drawn if r.column == "AA") <= aa
        assert sum(r.count for r in drawn if r.column == "BB") <= support
        assert attacking <= dice_needed(current.attacker_units, True)
        assert defending <= dice_needed(current.defender_units, False)
        # Every volley rolled is recorded, die for die, in the order drawn.
        assert [(v.side, v.column, len(v.dice)) for v in current.volleys] == [
            (r.side, r.column, r.count) for r in drawn]
    assert sum(r.count for r in provider.requests) == provider.position
