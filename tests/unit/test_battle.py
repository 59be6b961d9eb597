"""The mechanical battle engine: Part 13's and Part 14's worked examples and the special rules."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from domain.battle.dice import SuppliedDice
from domain.battle.engine import Resolution, fight, layout, play_round, provider_from
from domain.battle.model import (
    BattleSetup,
    ChosenCasualties,
    DiceExhausted,
    DiceRequest,
    RetreatCondition,
    RoundResult,
    Side,
    Winner,
)
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss
from domain.rules.units import UnitType

U = UnitType
LAND, SEA, AMPHIBIOUS = BattleKind.LAND, BattleKind.SEA, BattleKind.AMPHIBIOUS
F = Force.parse


class Recorder:
    """A provider that hands out supplied dice and remembers every request."""

    def __init__(self, values: Sequence[int]) -> None:
        self.dice = SuppliedDice(values)
        self.requests: list[DiceRequest] = []

    def __call__(self, request: DiceRequest) -> Sequence[int]:
        self.requests.append(request)
        return self.dice.draw(request.count, request.purpose)

    def columns(self) -> list[tuple[str, object, int, bool]]:
        return [(r.side.value, r.column, r.count, r.first_strike) for r in self.requests]


def setup(kind: BattleKind, attacker: str, defender: str, **kwargs: object) -> BattleSetup:
    return BattleSetup(kind, F(attacker), F(defender), **kwargs)  # type: ignore[arg-type]


def first_round(battle: BattleSetup, dice: Sequence[int]) -> tuple[Recorder, RoundResult]:
    provider = Recorder(dice)
    return provider, play_round(battle, 1, battle.attacker, battle.defender, provider)


class TestLayout:
    def test_generic_columns_in_canonical_order(self) -> None:
        columns = layout(F("2 FTR, 3 ARM, 4 INF, 1 BMB"), attacking=True)
        assert columns == [(1, (U.INF,) * 4), (3, (U.ARM,) * 3 + (U.FTR,) * 2), (4, (U.BMB,))]

    def test_heavy_bombers_roll_three_dice_attacking_only(self) -> None:
        assert layout(F("2 HBMB"), attacking=True) == [(4, (U.HBMB,) * 6)]
        assert layout(F("2 HBMB"), attacking=False) == [(1, (U.HBMB,) * 2)]

    def test_zero_value_units_aa_and_ic_roll_nothing(self) -> None:
        assert layout(F("2 TRN, AA, IC"), attacking=True) == []
        assert layout(F("2 TRN, AA, IC"), attacking=False) == [(1, (U.TRN, U.TRN))]

    def test_jet_fighters_defend_in_column_five(self) -> None:
        assert layout(F("1 JFTR, 1 FTR, 1 INF"), attacking=False) == [
            (2, (U.INF,)), (4, (U.FTR,)), (5, (U.JFTR,))]

    def test_super_subs_attack_in_column_three(self) -> None:
        assert layout(F("1 SSUB, 1 SUB, 1 FTR"), attacking=True) == [
            (2, (U.SUB,)), (3, (U.FTR, U.SSUB))]


class TestPart13Examples:
    def test_six_armour_against_two_infantry(self) -> None:
        # IAAPA Part 13 (1999): "6 ARM vs 2 INF / A1 1*2*3*1*2*5 5 Hits / D1 1*2* 2 Hits".
        battle = setup(LAND, "6 ARM", "2 INF")
        provider = Recorder([1, 2, 3, 1, 2, 5, 1, 2])
        result = fight(battle, provider)
        (round1,) = result.rounds
        attack, defence = round1.volleys
        assert attack.values == [1, 2, 3, 1, 2, 5]
        assert attack.hits == 5
        assert attack.casualties == F("2 INF")  # three extra hits are overkill
        assert defence.column == 2 and defence.hits == 2
        assert round1.attacker_losses == F("2 ARM")
        assert round1.defender_losses == F("2 INF")
        assert result.outcome.winner is Winner.ATTACKER
        assert result.outcome.attacker_left == F("4 ARM")
        assert result.outcome.defender_left == F("")
        assert provider.dice.remaining == 0

    @pytest.mark.parametrize("order", [None, OrderOfLoss((U.FTR, U.TRN), source="FTR first")])
    def test_transports_and_fighters_against_five_subs(self, order: OrderOfLoss | None) -> None:
        # Part 13 Ex 2: "2 TRN, 4 FTR vs 5 SUBs / A1 6666 / D1 1*1*1*1*1*": the 2 TRN are lost,
        # the 3 extra hits are ignored: submarine hits never fall on fighters.
        battle = setup(SEA, "2 TRN, 4 FTR", "5 SUB", attacker_order=order)
        provider, round1 = first_round(battle, [6, 6, 6, 6, 1, 1, 1, 1, 1])
        assert provider.columns() == [("attacker", 3, 4, False), ("defender", 2, 5, False)]
        assert round1.hits(Side.ATTACKER) == 0
        assert round1.hits(Side.DEFENDER) == 5
        assert round1.attacker_losses == F("2 TRN")
        assert round1.defender_losses == F("")
        assert round1.pause_required  # defending subs survived and the battle goes on


class TestPart14EastEurope:
    BATTLE = setup(LAND, "9 INF, 3 ARM, 2 FTR", "AA, 2 INF, 2 FTR, 3 ARM")
    # AA 1*1*; A 52461*5654 / 3* plus the two forgotten ARM (2*6); D 63431* / 2*1*.
    DICE = (1, 1, 5, 2, 4, 6, 1, 5, 6, 5, 4, 3, 2, 6, 6, 3, 4, 3, 1, 2, 1)

    def test_round_one_with_the_correct_forces(self) -> None:
        provider, round1 = first_round(self.BATTLE, self.DICE)
        assert provider.columns() == [("defender", "AA", 2, False), ("attacker", 1, 9, False),
                                      ("attacker", 3, 3, False), ("defender", 2, 5, False),
                                      ("defender", 4, 2, False)]
        aa, ones, threes, twos, fours = round1.volleys
        assert aa.casualties == F("2 FTR")  # AA victims leave before round 1
        assert ones.casualties == F("1 INF")
        assert threes.casualties == F("1 INF, 1 ARM")
        assert [die.unit for die in threes.dice] == [U.ARM] * 3
        assert twos.hits + fours.hits == 3
        assert round1.defender_losses == F("2 INF, 1 ARM")  # land defence: INF, ARM, BMB, FTR
        assert round1.attacker_losses == F("3 INF, 2 FTR")  # land attack: INF, ARM, FTR, BMB

    def test_round_one_as_rolled_matches_the_original_round_two(self) -> None:
        # As the GM rolled it (2 ARM forgotten): Part 14's "(Original Rnd 2) A(6 INF,1 ARM)
        # ... D(3 ARM,2 FTRs)".
        battle = setup(LAND, "9 INF, 1 ARM, 2 FTR", "AA, 2 INF, 2 FTR, 3 ARM")
        dice = (1, 1, 5, 2, 4, 6, 1, 5, 6, 5, 4, 3, 6, 3, 4, 3, 1, 2, 1)
        provider, round1 = first_round(battle, dice)
        assert round1.hits(Side.ATTACKER) == 2 and round1.hits(Side.DEFENDER) == 5  # AA + 3
        assert (battle.attacker - round1.attacker_losses) == F("6 INF, 1 ARM")
        assert (battle.defender - round1.defender_losses).combatants() == F("3 ARM, 2 FTR")
        assert provider.dice.remaining == 0

    def test_round_two_has_no_aa_fire_and_the_original_forces(self) -> None:
        # Part 14: "(Corrected Rnd 2) A(6 INF, 3 ARM) ... D(2 ARM, 2 FTRs)" (one additional hit).
        _, round1 = first_round(self.BATTLE, self.DICE)
        attacker = self.BATTLE.attacker - round1.attacker_losses
        defender = self.BATTLE.defender - round1.defender_losses
        assert attacker == F("6 INF, 3 ARM")
        assert defender.combatants() == F("2 ARM, 2 FTR")
        dice = Recorder([6] * 6 + [6] * 3 + [6] * 2 + [6] * 2)
        round2 = play_round(self.BATTLE, 2, attacker, defender, dice)
        assert [v.column for v in round2.volleys] == [1, 3, 2, 4]
        assert dice.dice.remaining == 0


class TestSubmarines:
    def test_first_strike_victims_do_not_fire(self) -> None:
        # Part 13 step 3: attacking subs fire first; their victims leave without firing.
        battle = setup(SEA, "1 SUB, 1 FTR", "1 AC, 1 BB")
        provider, round1 = first_round(battle, [2, 6, 6])
        assert provider.columns() == [("attacker", 2, 1, True), ("attacker", 3, 1, False),
                                      ("defender", 4, 1, False)]
        strike = round1.volleys[0]
        assert strike.first_strike and strike.casualties == F("1 AC")
        assert provider.dice.remaining == 0

    def test_sub_hits_never_fall_on_aircraft(self) -> None:
        order = OrderOfLoss((U.FTR, U.AC))
        battle = setup(SEA, "1 SUB", "1 AC, 2 FTR", defender_order=order)
        _, round1 = first_round(battle, [1, 6, 6, 6])
        assert round1.defender_losses == F("1 AC")

    def test_super_subs_strike_first_in_column_three(self) -> None:
        order = OrderOfLoss((U.FTR, U.AC))
        battle = setup(SEA, "1 SSUB, 1 BB", "1 AC, 1 FTR", defender_order=order)
        provider, round1 = first_round(battle, [3, 6, 6, 6])
        assert provider.columns()[0] == ("attacker", 3, 1, True)
        assert round1.defender_losses == F("1 AC")
        # The FTR left on the AC fires; the sunk AC does not.
        assert provider.columns()[2:] == [("defender", 4, 1, False)]

    def test_defending_sub_hits_skip_attacking_aircraft(self) -> None:
        battle = setup(SEA, "1 FTR, 1 SUB", "2 SUB", attacker_order=OrderOfLoss((U.FTR, U.SUB)))
        _, round1 = first_round(battle, [6, 6, 1, 1])
        assert round1.attacker_losses == F("1 SUB")

    def test_air_only_attack_without_retreat_takes_defending_subs_first(self) -> None:
        # 2008 OOL note: "In a no retreat situation involving only attacking air units,
        # defending subs are lost before other defending units."
        battle = setup(SEA, "2 FTR", "1 TRN, 1 SUB")
        _, round1 = first_round(battle, [1, 6, 6, 6])
        assert round1.defender_losses == F("1 SUB")
        retreating = setup(SEA, "2 FTR", "1 TRN, 1 SUB", retreat=RetreatCondition(after_round=3))
        _, round1 = first_round(retreating, [1, 6, 6, 6])
        assert round1.defender_losses == F("1 TRN")

    def test_defending_subs_withdraw(self) -> None:
        battle = setup(SEA, "1 BB", "1 SUB, 1 TRN", sub_withdrawal_after=1)
        result = fight(battle, Recorder([1, 6, 6]))
        assert result.outcome.winner is Winner.ATTACKER
        assert result.outcome.defender_withdrew == F("1 SUB")
        assert result.outcome.defender_left == F("")
        assert len(result.rounds) == 1


class TestColumns:
    def test_later_columns_are_not_rolled_once_the_defenders_are_gone(self) -> None:
        battle = setup(LAND, "2 INF, 2 ARM, 1 BMB", "1 INF")
        provider = Recorder([1, 1, 6])
        result = fight(battle, provider)
        # Only the 1s column rolled; the casualty-area INF still fires back (one die).
        assert provider.columns() == [("attacker", 1, 2, False), ("defender", 2, 1, False)]
        assert result.rounds[0].volleys[0].casualties == F("1 INF")
        assert result.outcome.winner is Winner.ATTACKER
        assert provider.dice.remaining == 0

    def test_heavy_bombers_roll_three_dice_each(self) -> None:
        battle = setup(LAND, "1 HBMB", "3 INF")
        provider, round1 = first_round(battle, [4, 4, 4, 6, 6, 6])
        attack = round1.volleys[0]
        assert [die.unit for die in attack.dice] == [U.HBMB] * 3
        assert attack.casualties == F("3 INF")
        assert provider.columns()[1] == ("defender", 2, 3, False)

    def test_jet_fighters_defend_at_five(self) -> None:
        battle = setup(LAND, "1 ARM", "1 JFTR")
        _, round1 = first_round(battle, [6, 5])
        defence = round1.volleys[1]
        assert defence.column == 5 and defence.hits == 1
        assert round1.attacker_losses == F("1 ARM")

    def test_out_of_range_faces_are_refused(self) -> None:
        battle = setup(LAND, "1 ARM", "1 INF")
        with pytest.raises(ValueError, match="7"):
            play_round(battle, 1, battle.attacker, battle.defender, lambda request: [7])
        with pytest.raises(ValueError, match=r"needs 1 dice"):
            play_round(battle, 1, battle.attacker, battle.defender, lambda request: [1, 2])

    def test_short_supplied_dice_stop_the_battle(self) -> None:
        battle = setup(LAND, "3 INF", "3 INF")
        with pytest.raises(DiceExhausted) as caught:
            fight(battle, provider_from(SuppliedDice([6, 6, 6, 6])))
        assert caught.value.purpose == "R1 defender column 2"


class TestAAAndSupport:
    def test_several_aa_guns_fire_once_per_aircraft(self) -> None:
        battle = setup(LAND, "3 FTR, 1 HBMB, 2 INF", "2 AA, 1 INF")
        provider, round1 = first_round(battle, [1, 6, 6, 1] + [6] * 6 + [6])
        assert provider.columns()[0] == ("defender", "AA", 4, False)
        # Land attack order INF, ARM, FTR, BMB: among aircraft the FTRs go first.
        assert round1.volleys[0].casualties == F("2 FTR")

    def test_no_aa_fire_at_sea_or_after_round_one(self) -> None:
        battle = setup(LAND, "1 FTR", "AA, 1 INF")
        provider = Recorder([6, 6])
        play_round(battle, 2, battle.attacker, battle.defender, provider)
        assert [c[1] for c in provider.columns()] == [3, 2]

    def test_aa_victims_leave_and_the_defender_has_no_target(self) -> None:
        battle = setup(LAND, "1 BMB", "AA, 1 INF")
        provider = Recorder([1])
        result = fight(battle, provider)
        assert provider.columns() == [("defender", "AA", 1, False)]
        assert result.outcome.winner is Winner.DEFENDER

    def test_aa_alone_fires_before_an_undefended_territory_falls(self) -> None:
        battle = setup(LAND, "1 FTR, 1 INF", "AA")
        result = fight(battle, Recorder([1]))
        assert result.rounds[0].attacker_losses == F("1 FTR")
        assert result.outcome.winner is Winner.ATTACKER
        assert result.outcome.attacker_left == F("1 INF")

    def test_support_shot_casualties_fire_back(self) -> None:
        # Part 13 step 2: "moving BB support casualties to the casualty area"; they fire in step 5.
        battle = setup(AMPHIBIOUS, "1 INF", "1 INF", support=F("1 BB"), amphibious=F("1 INF"))
        provider = Recorder([4, 2])
        result = fight(battle, provider)
        assert provider.columns() == [("attacker", "BB", 1, False), ("defender", 2, 1, False)]
        support = result.rounds[0].volleys[0]
        assert support.casualties == F("1 INF") and not support.first_strike
        assert result.outcome.winner is Winner.NONE

    def test_support_shots_only_in_round_one(self) -> None:
        battle = setup(AMPHIBIOUS, "2 INF", "2 INF", support=F("1 BB"), amphibious=F("2 INF"))
        provider = Recorder([6] * 9)
        fight(battle, provider, max_rounds=2)
        assert [c[1] for c in provider.columns()] == ["BB", 1, 2, 1, 2]


class TestRetreat:
    def test_retreat_after_a_round(self) -> None:
        battle = setup(LAND, "3 ARM", "3 INF", retreat=RetreatCondition(after_round=1))
        result = fight(battle, Recorder([6, 6, 1, 6, 6, 1]))
        assert len(result.rounds) == 1
        assert result.outcome.winner is Winner.DEFENDER
        assert result.outcome.retreated
        assert result.outcome.attacker_retreated == F("2 ARM")
        assert result.outcome.attacker_left == F("")
        assert result.outcome.defender_left == F("2 INF")

    def test_retreat_when_few_units_remain(self) -> None:
        battle = setup(LAND, "4 INF", "4 INF", retreat=RetreatCondition(at_most_units=2))
        # R1: attacker misses; defender hits once (3 INF left). R2: defender hits once (2 left).
        result = fight(battle, Recorder([6] * 4 + [1, 6, 6, 6] + [6] * 3 + [1, 6, 6, 6]))
        assert [len(r.attacker_units) for r in result.rounds] == [4, 3]
        assert result.outcome.retreated
        assert result.outcome.attacker_retreated == F("2 INF")

    def test_amphibious_ground_units_never_retreat(self) -> None:
        # 2008 AMPHIBIOUS ASSAULTS: "the attacker may not retreat any ground units".
        battle = setup(AMPHIBIOUS, "2 INF, 1 FTR", "2 INF", amphibious=F("2 INF"),
                       retreat=RetreatCondition(after_round=1))
        # R1: everything misses; the FTR retreats. R2: the INF kill both defenders.
        provider = Recorder([6, 6, 6, 6, 6, 1, 1, 6, 6])
        result = fight(battle, provider)
        assert len(result.rounds) == 2
        assert result.rounds[1].attacker_units == F("2 INF")
        assert result.outcome.winner is Winner.ATTACKER
        assert not result.outcome.retreated
        assert result.outcome.attacker_retreated == F("1 FTR")
        assert result.outcome.attacker_left == F("2 INF")

    def test_amphibious_air_only_survivors_retreat(self) -> None:
        battle = setup(AMPHIBIOUS, "1 INF, 1 FTR", "2 INF", amphibious=F("1 INF"),
                       retreat=RetreatCondition(after_round=1))
        result = fight(battle, Recorder([6, 6, 1, 6]))
        assert result.outcome.winner is Winner.DEFENDER
        assert result.outcome.retreated
        assert result.outcome.attacker_retreated == F("1 FTR")


class TestPause:
    def test_land_defending_bomber_survives(self) -> None:
        battle = setup(LAND, "2 INF", "1 INF, 1 BMB")
        _, round1 = first_round(battle, [1, 6, 6, 6])
        assert round1.defender_losses == F("1 INF")
        assert round1.pause_required

    def test_no_pause_when_the_bomber_dies_or_the_battle_ends(self) -> None:
        _, round1 = first_round(setup(LAND, "2 INF", "1 INF, 1 BMB"), [1, 1, 6, 6])
        assert not round1.pause_required
        _, round1 = first_round(setup(LAND, "1 INF", "1 INF, 1 BMB"), [6, 1, 1])
        assert not round1.pause_required  # attacker destroyed

    def test_no_pause_without_special_units(self) -> None:
        _, round1 = first_round(setup(LAND, "2 INF", "2 INF"), [1, 6, 6, 6])
        assert not round1.pause_required

    def test_sea_loaded_carrier_survives(self) -> None:
        _, round1 = first_round(setup(SEA, "1 BB", "1 AC, 1 FTR"), [4, 6, 6])
        assert round1.defender_losses == F("1 FTR")
        assert round1.pause_required
        _, round1 = first_round(setup(SEA, "1 BB", "2 AC"), [4, 6, 6])
        assert not round1.pause_required

    def test_sea_loaded_transport_survives(self) -> None:
        _, round1 = first_round(setup(SEA, "2 BB", "2 TRN"), [4, 6, 6, 6])
        assert not round1.pause_required
        loaded = setup(SEA, "2 BB", "2 TRN", loaded_transports=1)
        _, round1 = first_round(loaded, [4, 6, 6, 6])
        assert round1.pause_required


class TestChosenCasualties:
    def test_defender_choice_replaces_the_order(self) -> None:
        chosen = (ChosenCasualties(1, Side.DEFENDER, F("1 ARM")),)
        battle = setup(LAND, "3 ARM", "1 INF, 1 ARM", chosen=chosen)
        provider, round1 = first_round(battle, [3, 6, 6, 6, 6])
        assert round1.defender_losses == F("1 ARM")
        assert provider.dice.remaining == 0

    def test_invalid_choice_falls_back_to_the_order(self) -> None:
        chosen = (ChosenCasualties(1, Side.DEFENDER, F("1 INF, 1 ARM")),)  # two for one hit
        battle = setup(LAND, "3 ARM", "1 INF, 1 ARM", chosen=chosen)
        _, round1 = first_round(battle, [3, 6, 6, 6, 6])
        assert round1.defender_losses == F("1 INF")

    def test_choice_cannot_put_a_sub_hit_on_aircraft(self) -> None:
        chosen = (ChosenCasualties(1, Side.DEFENDER, F("1 FTR")),)
        battle = setup(SEA, "1 SUB", "1 AC, 1 FTR", chosen=chosen)
        _, round1 = first_round(battle, [1, 6, 6])
        assert round1.defender_losses == F("1 AC")

    def test_attacker_choice_may_list_aa_victims(self) -> None:
        chosen = (ChosenCasualties(1, Side.ATTACKER, F("1 FTR, 1 ARM")),)
        battle = setup(LAND, "2 INF, 1 ARM, 2 FTR", "AA, 1 INF", chosen=chosen)
        # AA 1* 6: one FTR; A 6 6 / 6 6; D 1*: the attacker names its ARM, not an INF.
        _, round1 = first_round(battle, [1, 6, 6, 6, 6, 6, 1])
        assert round1.attacker_losses == F("1 ARM, 1 FTR")

    def test_choice_applies_only_to_its_round(self) -> None:
        chosen = (ChosenCasualties(2, Side.DEFENDER, F("1 ARM")),)
        battle = setup(LAND, "3 ARM", "1 INF, 1 ARM", chosen=chosen)
        _, round1 = first_round(battle, [3, 6, 6, 6, 6])
        assert round1.defender_losses == F("1 INF")


class TestFight:
    def test_restart_from_a_later_round(self) -> None:
        battle = setup(LAND, "2 FTR, 2 INF", "AA, 2 INF")
        provider = Recorder([1, 1, 6, 6, 6, 6])
        result = fight(battle, provider, start_round=3, attacker=F("1 INF, 1 FTR"),
                       defender=F("AA, 1 INF"))
        assert result.rounds[0].number == 3
        assert "AA" not in [c[1] for c in provider.columns()]
        assert result.outcome.winner is Winner.ATTACKER

    def test_no_rounds_when_a_side_is_empty(self) -> None:
        result = fight(setup(LAND, "2 INF", ""), Recorder([]))
        assert result == Resolution((), result.outcome)
        assert result.outcome.winner is Winner.ATTACKER

    def test_max_rounds_leaves_the_battle_unfinished(self) -> None:
        result = fight(setup(LAND, "1 INF", "1 INF"), Recorder([6] * 10), max_rounds=5)
        assert len(result.rounds) == 5
        assert result.outcome.winner is None

    def test_same_dice_same_battle(self) -> None:
        battle = setup(LAND, "5 INF, 2 ARM, 1 FTR", "AA, 4 INF, 1 ARM")
        dice = [(i * 7 + 3) % 6 + 1 for i in range(300)]
        assert fight(battle, Recorder(dice)) == fight(battle, Recorder(dice))
