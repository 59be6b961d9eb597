"""What an error cost: odds as rolled against as corrected, and per-round luck."""

from __future__ import annotations

import pytest

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from domain.review.impact import side_expected, side_luck
from domain.review.views import DiceEntry, SideRound
from domain.rules.forces import Force
from tests.conftest import REPLAYS


def test_forgetting_two_armour_cost_the_attacker_odds() -> None:
    view = review(load_replay(REPLAYS / "part14" / "east-europe-forgotten-armour.toml").game)
    impact = view.battles[0].impact
    assert impact is not None and impact.from_round == 1
    # As rolled round 1 fought with 9 INF, 1 ARM (+2 FTR lost to AA); corrected with 9 INF, 3 ARM.
    assert impact.as_corrected.attacker_win > impact.as_rolled.attacker_win
    assert impact.swing == pytest.approx(impact.as_corrected.attacker_win - impact.as_rolled.attacker_win)
    for chances in (impact.as_rolled, impact.as_corrected):
        total = chances.attacker_win + chances.defender_win + chances.draw + chances.retreat
        assert total == pytest.approx(1.0, abs=1e-9)


def test_a_clean_battle_has_no_impact() -> None:
    view = review(load_replay(REPLAYS / "battles" / "ussr1-two-battles.toml").game)
    assert all(b.impact is None for b in view.battles)


def test_luck_is_a_mid_rank_percentile_of_the_counting_dice() -> None:
    # One INF attacking (hits on 1): a hit is lucky (5/6 below it plus half of 1/6).
    side = SideRound(units=Force.parse("1 INF"), hits=1,
                     dice=(DiceEntry(column=1, values=(1,), hits=(True,)),))
    assert side_luck(side) == pytest.approx(100 * (5 / 6 + (1 / 6) / 2), abs=0.05)
    assert side_expected(side) == pytest.approx(1 / 6)
    # Voided dice do not count; AA shots are not the side's own fire.
    voided = SideRound(units=Force.parse("1 INF"), hits=0, dice=(
        DiceEntry(column=1, values=(1,), status="voided", hits=(True,)),
        DiceEntry(column="AA", values=(1,), hits=(True,))))
    assert side_luck(voided) is None
