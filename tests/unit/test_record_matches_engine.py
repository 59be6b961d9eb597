"""A battle the engine fights, written out as a dice-server log, reads back to the same battle.

The engine (domain.battle.engine) and the reading of records (domain.review.as_rolled) are written separately;
this property ties them: for random land and sea battles, the log printed from the engine's
rounds, parsed and analysed "as rolled", gives the same losses round by round and the same end.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from application.intake.replayfile import parse_replay
from domain.battle.dice import RandomDice
from domain.battle.engine import fight, provider_from
from domain.battle.model import BattleSetup, Side, Winner
from domain.review.game_review import review
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import UnitType as U
from tests.support.battle_logs import replay_text, write_log

LAND_ATTACK = (U.INF, U.ARM, U.FTR, U.BMB)
LAND_DEFENCE = (U.INF, U.ARM, U.FTR, U.BMB)
SEA_ATTACK = (U.SUB, U.FTR, U.BMB, U.TRN, U.AC, U.BB)
SEA_DEFENCE = (U.TRN, U.SUB, U.FTR, U.AC, U.BB)


def forces(types: tuple[U, ...], most: int) -> st.SearchStrategy[Force]:
    return st.lists(st.sampled_from(types), min_size=1, max_size=most).map(Force.from_units)


@st.composite
def battles(draw: st.DrawFn) -> tuple[BattleSetup, int, bool]:
    sea = draw(st.booleans())
    if sea:
        attacker = draw(forces(SEA_ATTACK, 5))
        defender = draw(forces(SEA_DEFENCE, 5))
        kind = BattleKind.SEA
    else:
        attacker = draw(forces(LAND_ATTACK, 6))
        defender = draw(forces(LAND_DEFENCE, 6))
        if draw(st.booleans()):
            defender = defender + Force.parse("AA")
        kind = BattleKind.LAND
    if not attacker.combatants() or not any(u.profile.attack for u in attacker.types):
        attacker = attacker + Force.parse("1 ARM" if not sea else "1 BB")
    setup = BattleSetup(kind=kind, attacker=attacker, defender=defender)
    return setup, draw(st.integers(0, 2**32)), draw(st.booleans())


@settings(max_examples=80, deadline=None)
@given(battles())
def test_a_logged_engine_battle_reads_back_the_same(case: tuple[BattleSetup, int, bool]) -> None:
    setup, seed, inline_subs = case
    fought = fight(setup, provider_from(RandomDice(random.Random(seed))), max_rounds=6)
    sea = setup.kind is BattleKind.SEA
    territory, origin = ("Baltic Sea Zone", "North Sea Zone") if sea else ("East Europe", "Karelia")
    replay = parse_replay(replay_text(setup, write_log(setup, fought, territory, origin, inline_subs), sea))
    view = review(replay.game).battles[0]
    assert len(view.rounds) == len(fought.rounds)
    for seen, rolled in zip(view.rounds, fought.rounds, strict=True):
        aa = [v for v in rolled.volleys if v.column == "AA"]
        aa_losses = aa[0].casualties if aa else Force()
        assert seen.aa_losses == aa_losses
        assert seen.attacker_losses == rolled.attacker_losses - aa_losses
        assert seen.defender_losses == rolled.defender_losses
        assert seen.attacker.hits == rolled.hits(Side.ATTACKER)
    outcome = fought.outcome
    assert view.result is not None
    if outcome.winner is None:
        assert view.result.winner is None
    else:
        assert view.result.winner == outcome.winner
        assert view.result.attacker_left == outcome.attacker_left
        assert view.result.defender_left == outcome.defender_left
    if outcome.winner is Winner.ATTACKER:
        assert not view.result.defender_left
