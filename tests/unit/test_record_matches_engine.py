"""A battle the engine fights, written out as a dice-server log, reads back to the same battle.

The engine (domain.battle) and the reading of records (domain.analysis) are written separately;
this property ties them: for random land and sea battles, the log printed from the engine's
rounds, parsed and analysed "as rolled", gives the same losses round by round and the same end.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from application.replayfile import parse_replay
from domain.battle import Resolution, fight, provider_from
from domain.combat import BattleSetup, Side, Winner
from domain.dice import RandomDice
from domain.forces import Force, format_units
from domain.orders import BattleKind
from domain.review import review
from domain.units import UnitType as U

LAND_ATTACK = (U.INF, U.ARM, U.FTR, U.BMB)
LAND_DEFENCE = (U.INF, U.ARM, U.FTR, U.BMB)
SEA_ATTACK = (U.SUB, U.FTR, U.BMB, U.TRN, U.AC, U.BB)
SEA_DEFENCE = (U.TRN, U.SUB, U.FTR, U.AC, U.BB)


def forces(types: tuple[U, ...], most: int) -> st.SearchStrategy[Force]:
    return st.lists(st.sampled_from(types), min_size=1, max_size=most).map(Force.from_units)


def _dice(volleys: list[object]) -> str:
    return "/".join("".join(f"{d.value}{'*' if d.hit else ''}" for d in v.dice)  # type: ignore[attr-defined]
                    for v in volleys)


def write_log(setup: BattleSetup, fought: Resolution, territory: str, origin: str,
              inline_subs: bool = False) -> str:
    """The dice-server log of a battle the engine fought.

    ``inline_subs``: the attacking submarines' dice stand in the attacker's line, in their
    column, as a dice server prints them, instead of a separate first-strike line.
    """
    lines = [f"{territory}({format_units(setup.defender.items)})",
             f"{format_units(setup.attacker.items)} from {origin}"]
    for result in fought.rounds:
        aa = [v for v in result.volleys if v.column == "AA"]
        aa_losses = aa[0].casualties if aa else Force()
        if aa:
            lines.append(f"AA rolls {_dice(aa)}")
        lines.append(f"R{result.number}")
        strike = [v for v in result.volleys if v.side is Side.ATTACKER and v.first_strike]
        attack = [v for v in result.volleys if v.side is Side.ATTACKER and not v.first_strike]
        defence = [v for v in result.volleys if v.side is Side.DEFENDER and v.column != "AA"]
        attackers = result.attacker_units - aa_losses
        subs = attackers.where(lambda u: u.is_sub)
        if inline_subs and (strike or attack):
            merged = sorted(strike + attack, key=lambda v: (v.column, not v.first_strike))
            lines.append(f"A({format_units(attackers.items)}) {_dice(merged)}")
        else:
            if strike:
                lines.append(f"A({format_units(subs.items)}) first strike {_dice(strike)}")
            firing = attackers.where(lambda u: not u.is_sub) if strike or subs else attackers
            if attack:
                lines.append(f"A({format_units(firing.items)}) {_dice(attack)}")
        victims = Force()
        for volley in strike:
            victims = victims + volley.casualties
        if defence:
            firing_defence = (result.defender_units - victims).combatants()
            lines.append(f"D({format_units(firing_defence.items)}) {_dice(defence)}")
    return "\n".join(lines)


def replay_text(setup: BattleSetup, log: str, sea: bool) -> str:
    territory, origin = ("Baltic Sea Zone", "North Sea Zone") if sea else ("East Europe", "Karelia")
    attacker_power, defender_power = ("UK", "Germany")
    return f'''format = "minister-replay/1"
[game]
id = "prop"
edition = "iaapa-2008"
[[event]]
type = "position"
at = 2008-01-01T10:00:00Z
units = ["{defender_power} {territory}: {setup.defender}", "{attacker_power} {origin}: {setup.attacker}"]
[[event]]
type = "declaration"
at = 2008-01-01T10:01:00Z
turn = "UK 1"
text = """
Attack #1 - {territory}
{origin} {setup.attacker}
"""
[[event]]
type = "roll"
at = 2008-01-01T10:02:00Z
battle = "{territory}"
log = """
{log}
"""
'''


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
