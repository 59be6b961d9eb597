"""Exact odds: hand-computed battles, agreement of the two solvers, mass, luck helpers.

The closed forms are derived here from first principles: in a one-unit-each battle where the
attacker hits with probability a and the defender with d each round, a round changes nothing
with probability (1-a)(1-d), so P(attacker wins) = a(1-d) / (1 - (1-a)(1-d)) and the number of
rounds is geometric with mean 1 / (1 - (1-a)(1-d)).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.battle.model import BattleSetup, RetreatCondition, Side
from domain.odds.exact import (
    Result,
    expected_hits,
    hit_distribution,
    luck_percentile,
    odds,
    odds_from_round,
)
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss
from domain.rules.units import UnitType

F = Force.parse
LAND, SEA, AMPHIBIOUS = BattleKind.LAND, BattleKind.SEA, BattleKind.AMPHIBIOUS
TOL = 1e-12


def duel(a: float, d: float) -> tuple[float, float, float, float]:
    """(attacker wins, defender wins, draw, expected rounds) of a one-on-one fight."""
    go = 1.0 - (1.0 - a) * (1.0 - d)
    return a * (1 - d) / go, (1 - a) * d / go, a * d / go, 1.0 / go


def check_duel(setup: BattleSetup, a: float, d: float) -> None:
    win, loss, draw, rounds = duel(a, d)
    result = odds(setup)
    assert result.attacker_win == pytest.approx(win, abs=TOL)
    assert result.defender_win == pytest.approx(loss, abs=TOL)
    assert result.draw == pytest.approx(draw, abs=TOL)
    assert result.retreat == 0.0
    assert result.expected_rounds == pytest.approx(rounds, abs=TOL)


# -- hand cases -----------------------------------------------------------------------------------
def test_one_infantry_against_one_infantry() -> None:
    # INF attacks at 1, defends at 2: a = 1/6, d = 2/6; P(win) = (1/9) / (4/9) = 1/4.
    check_duel(BattleSetup(LAND, F("1 INF"), F("1 INF")), 1 / 6, 2 / 6)
    assert odds(BattleSetup(LAND, F("1 INF"), F("1 INF"))).attacker_win == pytest.approx(0.25, abs=TOL)


def test_one_armour_against_one_infantry() -> None:
    check_duel(BattleSetup(LAND, F("1 ARM"), F("1 INF")), 3 / 6, 2 / 6)


def test_one_fighter_against_one_transport_at_sea() -> None:
    check_duel(BattleSetup(SEA, F("1 FTR"), F("1 TRN")), 3 / 6, 1 / 6)


def test_heavy_bomber_throws_three_dice() -> None:
    # Three dice at 4: P(at least one hit) = 1 - (2/6)^3; one unit to kill, so extra hits are overkill.
    check_duel(BattleSetup(LAND, F("1 HBMB"), F("1 INF")), 1 - (2 / 6) ** 3, 2 / 6)


def test_jet_fighter_defends_at_five() -> None:
    check_duel(BattleSetup(LAND, F("1 ARM"), F("1 JFTR")), 3 / 6, 5 / 6)


def test_aa_gun_can_kill_the_only_attacker() -> None:
    # The AA die hits on 1 before round 1: the fighter is lost without firing (defender wins
    # with its infantry intact); otherwise FTR (3) against INF (2).
    result = odds(BattleSetup(LAND, F("1 FTR"), F("AA, 1 INF")))
    win, loss, draw, rounds = duel(3 / 6, 2 / 6)
    assert result.attacker_win == pytest.approx(5 / 6 * win, abs=TOL)
    assert result.defender_win == pytest.approx(1 / 6 + 5 / 6 * loss, abs=TOL)
    assert result.draw == pytest.approx(5 / 6 * draw, abs=TOL)
    # The round in which the AA gun fires is round 1 whichever way it goes.
    assert result.expected_rounds == pytest.approx(1 / 6 + 5 / 6 * rounds, abs=TOL)
    untouched = [e for e in result.endings if e.result is Result.DEFENDER_WIN and e.defender == F("1 INF")]
    assert untouched[0].probability == pytest.approx(1 / 6 + 5 / 6 * loss, abs=TOL)


def test_aa_gun_alone_against_aircraft() -> None:
    # Engine convention: an AA gun alone fires; if it downs every aircraft both sides are empty.
    result = odds(BattleSetup(LAND, F("2 FTR"), F("AA")))
    assert result.draw == pytest.approx((1 / 6) ** 2, abs=TOL)
    assert result.attacker_win == pytest.approx(1 - (1 / 6) ** 2, abs=TOL)


def test_aa_hits_only_aircraft() -> None:
    # 1 INF, 1 FTR against an AA gun and 1 INF: the AA die (one, for the fighter) can only
    # remove the fighter, never the infantry that comes first in the order of loss.
    result = odds(BattleSetup(LAND, F("1 INF, 1 FTR"), F("AA, 1 INF")))
    reference = odds(BattleSetup(LAND, F("1 INF, 1 FTR"), F("1 INF")))
    alone = odds(BattleSetup(LAND, F("1 INF"), F("1 INF")))
    assert result.attacker_win == pytest.approx(5 / 6 * reference.attacker_win + 1 / 6 * alone.attacker_win,
                                                abs=TOL)


def test_support_shot_casualties_fire_back() -> None:
    # 1 INF + one BB support shot against 1 INF. Round 1: the defender is hit unless both the
    # BB (4) and the INF (1) miss; the defending INF fires back at 2 even if it was hit.
    setup = BattleSetup(AMPHIBIOUS, F("1 INF"), F("1 INF"), support=F("1 BB"), amphibious=F("1 INF"))
    killed = 1 - (2 / 6) * (5 / 6)
    back = 2 / 6
    later, _, _, _ = duel(1 / 6, 2 / 6)
    result = odds(setup)
    assert result.attacker_win == pytest.approx(killed * (1 - back) + (1 - killed) * (1 - back) * later,
                                                abs=TOL)
    assert result.draw == pytest.approx(killed * back + (1 - killed) * (1 - back) * duel(1 / 6, 2 / 6)[2],
                                        abs=TOL)


def test_submarine_first_strike_victims_do_not_fire() -> None:
    # SUB (2) against TRN (1): a sunk transport never fires, so there is no draw.
    result = odds(BattleSetup(SEA, F("1 SUB"), F("1 TRN")))
    go = 2 / 6 + (4 / 6) * (1 / 6)
    assert result.attacker_win == pytest.approx((2 / 6) / go, abs=TOL)
    assert result.defender_win == pytest.approx((4 / 6) * (1 / 6) / go, abs=TOL)
    assert result.draw == 0.0


def test_submarine_hits_never_fall_on_aircraft() -> None:
    defending_sub = odds(BattleSetup(SEA, F("1 FTR"), F("1 SUB")))
    assert defending_sub.attacker_win == pytest.approx(1.0, abs=TOL)
    assert defending_sub.expected_rounds == pytest.approx(2.0, abs=TOL)
    attacking_sub = odds(BattleSetup(SEA, F("1 SUB"), F("1 FTR")))
    assert attacking_sub.defender_win == pytest.approx(1.0, abs=TOL)
    assert attacking_sub.expected_rounds == pytest.approx(1.5, abs=TOL)


def test_defending_sub_hits_skip_aircraft_and_take_the_ship() -> None:
    # Part 13 example 2 in miniature: a defending SUB's hit takes the BB, never the FTR first
    # in the order of loss. Round 1 only (retreat after round 1).
    setup = BattleSetup(SEA, F("1 FTR, 1 BB"), F("1 SUB"), retreat=RetreatCondition(after_round=1),
                        attacker_order=OrderOfLoss((UnitType.FTR, UnitType.BB)))
    result = odds(setup)
    survivors: dict[Force, float] = {}
    for ending in result.endings:
        survivors[ending.attacker] = survivors.get(ending.attacker, 0.0) + ending.probability
    sub_misses = 1 - 2 / 6
    assert survivors.get(F("1 FTR"), 0.0) == pytest.approx(2 / 6, abs=TOL)
    assert survivors.get(F("1 FTR, 1 BB"), 0.0) == pytest.approx(sub_misses, abs=TOL)


def test_retreat_after_round_one() -> None:
    a, d = 1 / 6, 2 / 6
    result = odds(BattleSetup(LAND, F("1 INF"), F("1 INF"), retreat=RetreatCondition(after_round=1)))
    assert result.attacker_win == pytest.approx(a * (1 - d), abs=TOL)
    assert result.defender_win == pytest.approx((1 - a) * d, abs=TOL)
    assert result.draw == pytest.approx(a * d, abs=TOL)
    assert result.retreat == pytest.approx((1 - a) * (1 - d), abs=TOL)
    assert result.expected_rounds == pytest.approx(1.0, abs=TOL)


def test_retreat_when_few_units_remain() -> None:
    # 2 INF against 1 INF, retreating at 1 unit or fewer: the first attacking loss ends it.
    result = odds(BattleSetup(LAND, F("2 INF"), F("1 INF"), retreat=RetreatCondition(at_most_units=1)))
    hit_any = 1 - (5 / 6) ** 2  # the attackers' two dice at 1
    d = 2 / 6
    go = 1 - (1 - hit_any) * (1 - d)
    assert result.attacker_win == pytest.approx(hit_any / go, abs=TOL)  # the defender fires back on one
    assert result.retreat == pytest.approx((1 - hit_any) * d / go, abs=TOL)
    assert result.defender_win == 0.0


def test_amphibious_ground_units_never_retreat() -> None:
    # Retreat after round 1: the fighter leaves, the infantry landed from transports fights on.
    setup = BattleSetup(AMPHIBIOUS, F("1 INF, 1 FTR"), F("2 INF"), amphibious=F("1 INF"),
                        retreat=RetreatCondition(after_round=1))
    result = odds(setup)
    # A retreat (the whole attack gone) happens only when the infantry is already dead.
    assert result.retreat > 0.0
    assert all(e.attacker[UnitType.INF] == 0 for e in result.endings if e.result is Result.RETREAT)
    # The fighter that left survives a later defeat of the infantry (engine: winner defender,
    # not a retreat).
    left_then_lost = [e for e in result.endings
                      if e.result is Result.DEFENDER_WIN and e.attacker == F("1 FTR")]
    assert left_then_lost
    assert left_then_lost[0].probability > 0.0
    # The general solver and a hand rule agree: once only ground units are left nobody leaves.
    ground_only = odds(BattleSetup(AMPHIBIOUS, F("1 INF"), F("1 INF"), amphibious=F("1 INF"),
                                   retreat=RetreatCondition(after_round=1)))
    check = duel(1 / 6, 2 / 6)
    assert ground_only.attacker_win == pytest.approx(check[0], abs=TOL)


def test_sub_withdrawal_after_round_one() -> None:
    # 1 FTR against 1 SUB that withdraws after round 1: the FTR wins in round 1 (1/2) or the
    # sub leaves and the attacker holds the zone; the sub can never hit the fighter.
    result = odds(BattleSetup(SEA, F("1 FTR"), F("1 SUB"), sub_withdrawal_after=1))
    assert result.attacker_win == pytest.approx(1.0, abs=TOL)
    withdrew = [e for e in result.endings if e.defender == F("1 SUB")]
    assert withdrew[0].probability == pytest.approx(0.5, abs=TOL)
    assert result.expected_rounds == pytest.approx(1.0, abs=TOL)


def test_no_round_when_defender_has_no_combatants() -> None:
    result = odds(BattleSetup(LAND, F("2 INF"), F("IC")))
    assert result.attacker_win == 1.0
    assert result.expected_rounds == 0.0


# -- a reference solver in exact fractions (infantry only, land) ---------------------------------
def _binomial(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


@cache
def _infantry(att: int, dfn: int) -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, defender wins, draw) for att INF attacking dfn INF, by recursion."""
    if att == 0 and dfn == 0:
        return Fraction(0), Fraction(0), Fraction(1)
    if att == 0:
        return Fraction(0), Fraction(1), Fraction(0)
    if dfn == 0:
        return Fraction(1), Fraction(0), Fraction(0)
    hits_a = _binomial(att, Fraction(1, 6))
    hits_d = _binomial(dfn, Fraction(2, 6))
    stay = hits_a[0] * hits_d[0]
    total = [Fraction(0)] * 3
    for x, px in enumerate(hits_d):
        for y, py in enumerate(hits_a):
            if x == 0 and y == 0:
                continue
            sub = _infantry(max(0, att - x), max(0, dfn - y))
            for k in range(3):
                total[k] += px * py * sub[k]
    win, loss, draw = (t / (1 - stay) for t in total)
    return win, loss, draw


@pytest.mark.parametrize(("att", "dfn"), [(2, 1), (3, 2), (4, 4), (6, 3)])
def test_infantry_battles_match_exact_fractions(att: int, dfn: int) -> None:
    win, loss, draw = _infantry(att, dfn)
    for solver in ("grid", "general"):
        result = odds(BattleSetup(LAND, Force.of({UnitType.INF: att}), Force.of({UnitType.INF: dfn})),
                      solver=solver)
        assert result.attacker_win == pytest.approx(float(win), abs=TOL)
        assert result.defender_win == pytest.approx(float(loss), abs=TOL)
        assert result.draw == pytest.approx(float(draw), abs=TOL)


# -- both solvers, mass, rounds -----------------------------------------------------------------
LAND_UNITS = st.sampled_from(["INF", "ARM", "FTR", "BMB", "JFTR", "HBMB"])
SEA_UNITS = st.sampled_from(["FTR", "BMB", "TRN", "AC", "BB", "JFTR"])


def _force(units: list[tuple[str, int]]) -> Force:
    return Force.of({UnitType(name): n for name, n in units})


def _forces(names: st.SearchStrategy[str]) -> st.SearchStrategy[Force]:
    return st.lists(st.tuples(names, st.integers(1, 3)), min_size=1, max_size=3).map(_force)


@settings(max_examples=40, deadline=None)
@given(att=_forces(LAND_UNITS), dfn=_forces(LAND_UNITS), aa=st.booleans(), sea=st.booleans(),
       retreat=st.sampled_from([None, RetreatCondition(after_round=2), RetreatCondition(at_most_units=2)]))
def test_grid_and_general_solvers_agree(att: Force, dfn: Force, aa: bool, sea: bool,
                                        retreat: RetreatCondition | None) -> None:
    if sea:
        att = att.where(lambda u: u.is_air)
        dfn = dfn.where(lambda u: u.is_air) + F("1 AC")
        setup = BattleSetup(SEA, att or F("1 FTR"), dfn, retreat=retreat)
    else:
        setup = BattleSetup(LAND, att, dfn + (F("AA") if aa else Force()), retreat=retreat)
    grid = odds(setup, solver="grid")
    general = odds(setup, solver="general")
    for field in ("attacker_win", "defender_win", "draw", "retreat", "expected_rounds"):
        assert getattr(grid, field) == pytest.approx(getattr(general, field), abs=1e-11)
    assert grid.total == pytest.approx(1.0 - grid.unresolved, abs=1e-12)
    gd = {(e.result, e.attacker, e.defender): e.probability for e in grid.endings}
    for e in general.endings:
        assert gd.get((e.result, e.attacker, e.defender), 0.0) == pytest.approx(e.probability, abs=1e-11)


@settings(max_examples=25, deadline=None)
@given(att=st.lists(st.tuples(st.sampled_from(["SUB", "SSUB", "FTR", "BB", "TRN"]), st.integers(1, 2)),
                    min_size=1, max_size=3).map(_force),
       dfn=st.lists(st.tuples(st.sampled_from(["SUB", "FTR", "AC", "TRN", "BB"]), st.integers(1, 2)),
                    min_size=1, max_size=3).map(_force))
def test_sea_battles_with_subs_conserve_mass(att: Force, dfn: Force) -> None:
    result = odds(BattleSetup(SEA, att, dfn), rounds=True)
    assert result.total == pytest.approx(1.0 - result.unresolved, abs=1e-12)
    assert result.unresolved == pytest.approx(0.0, abs=1e-12)
    assert result.rounds is not None
    assert sum(result.rounds) + result.rounds_beyond == pytest.approx(result.total, abs=1e-12)
    assert all(e.probability > 0 for e in result.endings)


def test_rounds_distribution_matches_expected_rounds() -> None:
    for solver in ("grid", "general"):
        result = odds(BattleSetup(LAND, F("4 INF, 2 ARM"), F("4 INF")), rounds=True, solver=solver)
        assert result.rounds is not None
        assert result.rounds_beyond < 1e-12
        mean = sum((k + 1) * p for k, p in enumerate(result.rounds))
        assert mean == pytest.approx(result.expected_rounds, abs=1e-9)
    one = odds(BattleSetup(LAND, F("1 INF"), F("1 INF")), rounds=True)
    assert one.rounds is not None
    go = 1 - (5 / 6) * (4 / 6)
    for k, p in enumerate(one.rounds[:10]):
        assert p == pytest.approx((1 - go) ** k * go, abs=TOL)


def test_odds_from_round_skips_round_one_fire() -> None:
    setup = BattleSetup(AMPHIBIOUS, F("2 INF, 1 FTR"), F("AA, 2 INF"), support=F("1 BB"),
                        amphibious=F("2 INF"))
    plain = BattleSetup(AMPHIBIOUS, F("2 INF, 1 FTR"), F("2 INF"), amphibious=F("2 INF"))
    later = odds_from_round(setup, 2, F("2 INF, 1 FTR"), F("AA, 2 INF"))
    assert later.attacker_win == pytest.approx(odds(plain).attacker_win, abs=TOL)
    assert later.start_round == 2
    first = odds_from_round(setup, 1, setup.attacker, setup.defender)
    assert first.attacker_win == pytest.approx(odds(setup).attacker_win, abs=TOL)
    assert first.attacker_win != pytest.approx(later.attacker_win, abs=1e-6)


def test_survivors_and_percentiles() -> None:
    result = odds(BattleSetup(LAND, F("1 INF"), F("1 INF")))
    assert result.expected_survivors(Side.ATTACKER) == {UnitType.INF: pytest.approx(0.25, abs=TOL)}
    assert result.expected_survivors(Side.DEFENDER) == {UnitType.INF: pytest.approx(0.625, abs=TOL)}
    assert result.percentile(Side.ATTACKER, 50, "units") == 0.0
    assert result.percentile(Side.ATTACKER, 80, "units") == 1.0
    assert result.percentile(Side.DEFENDER, 30, "ipc") == 0.0
    assert result.percentile(Side.DEFENDER, 40, "ipc") == 3.0
    assert result.expected_value(Side.DEFENDER) == pytest.approx(0.625 * 3, abs=TOL)
    total = sum(p for _, _, p in result.distribution())
    assert total == pytest.approx(1.0, abs=TOL)


def test_json_document_is_stable() -> None:
    doc = odds(BattleSetup(LAND, F("2 INF, 1 ARM"), F("2 INF"))).to_json()
    assert list(doc)[:9] == ["format", "kind", "attacker", "defender", "start_round", "attacker_win",
                             "defender_win", "draw", "retreat"]
    assert doc["format"] == "minister-odds/1"
    assert doc["attacker_win"] == round(doc["attacker_win"], 12)
    assert set(doc["percentiles"]["attacker"]) == {"units", "ipc"}


# -- luck ----------------------------------------------------------------------------------------
def test_hit_distribution_of_mixed_columns() -> None:
    # One die at 2 and one at 3: P(0) = 4/6 * 3/6, P(2) = 2/6 * 3/6.
    dist = hit_distribution([(2, 1), (3, 1)])
    assert dist == pytest.approx([4 / 6 * 3 / 6, 2 / 6 * 3 / 6 + 4 / 6 * 3 / 6, 2 / 6 * 3 / 6], abs=TOL)
    assert expected_hits([(2, 1), (3, 1)]) == pytest.approx(5 / 6, abs=TOL)
    assert hit_distribution([]) == [1.0]


def test_luck_percentile_is_mid_rank() -> None:
    # Two dice at 3: P(0) = 1/4, P(1) = 1/2, P(2) = 1/4.
    assert luck_percentile([(3, 2)], 0) == pytest.approx(12.5, abs=TOL)
    assert luck_percentile([(3, 2)], 1) == pytest.approx(50.0, abs=TOL)
    assert luck_percentile([(3, 2)], 2) == pytest.approx(87.5, abs=TOL)
    with pytest.raises(ValueError, match="impossible"):
        luck_percentile([(3, 2)], 3)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 8)), min_size=1, max_size=4))
def test_mid_rank_percentile_averages_fifty(columns: list[tuple[int, int]]) -> None:
    dist = hit_distribution(columns)
    mean = sum(p * luck_percentile(columns, h) for h, p in enumerate(dist))
    assert mean == pytest.approx(50.0, abs=1e-9)
    assert sum(h * p for h, p in enumerate(dist)) == pytest.approx(expected_hits(columns), abs=1e-9)


def test_luck_is_exact_and_rounded_half_to_even_at_a_tie() -> None:
    """Three dice hitting on 3 or less score none one time in eight: the mid-rank is exactly
    6.25, which a tenth rounds to 6.2 (half to even, as ``round`` rounds), never a float's
    6.2500000001; every shape agrees with the convolution of binomials to rounding error."""
    from domain.odds.distributions import columns_distribution, luck_counts
    from domain.review.impact import _percentile

    assert luck_percentile([(3, 3)], 0) == 6.25
    assert luck_counts([(3, 3)], 0) == (27, 216)
    assert _percentile(((3, 3),), 0) == 6.2
    for columns in ([(1, 4), (2, 3)], [(3, 5), (4, 2)], [(2, 7)], [(1, 2), (2, 2), (3, 2), (4, 2)]):
        dist = columns_distribution(columns)
        for hits in range(len(dist)):
            floats = 100.0 * (float(dist[:hits].sum()) + float(dist[hits]) / 2.0)
            assert abs(luck_percentile(columns, hits) - floats) < 1e-9
    with pytest.raises(ValueError, match="impossible"):
        luck_percentile([(3, 2)], 3)


def _ways_by_convolution(columns: list[tuple[int, int]]) -> list[int]:
    """The ways to score each number of hits, one die at a time (the oracle for the packed
    product :func:`luck_counts` multiplies)."""
    ways = [1]
    for value, count in columns:
        for _ in range(count):
            ways = [(ways[k] * (6 - value) if k < len(ways) else 0)
                    + (ways[k - 1] * value if k else 0) for k in range(len(ways) + 1)]
    return ways


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 14)), min_size=1, max_size=5), st.data())
def test_luck_counts_are_the_ways_the_dice_fall(columns: list[tuple[int, int]], data: st.DataObject) -> None:
    """Every field of the packed product is the count of ways a die-by-die convolution gives,
    for any volley (zero-value columns and empty columns included)."""
    from domain.odds.distributions import luck_counts

    ways = _ways_by_convolution(columns)
    hits = data.draw(st.integers(0, len(ways) - 1))
    assert luck_counts(columns, hits) == (2 * sum(ways[:hits]) + ways[hits], sum(ways))
    with pytest.raises(ValueError, match="impossible"):
        luck_counts(columns, len(ways))
