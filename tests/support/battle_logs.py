"""Engine battles written out as dice-server logs and replay files (shared by property tests)."""

from __future__ import annotations

from domain.battle.columns import layout
from domain.battle.engine import Resolution
from domain.battle.model import BattleSetup, Side
from domain.rules.forces import Force, format_units
from tests.support.replay_docs import one_battle


def dice_text(volleys: list[object]) -> str:
    """Volleys' dice as notation, columns separated by '/'."""
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
            lines.append(f"AA rolls {dice_text(aa)}")
        lines.append(f"R{result.number}")
        strike = [v for v in result.volleys if v.side is Side.ATTACKER and v.first_strike]
        attack = [v for v in result.volleys if v.side is Side.ATTACKER and not v.first_strike]
        defence = [v for v in result.volleys if v.side is Side.DEFENDER and v.column != "AA"]
        attackers = result.attacker_units - aa_losses
        subs = attackers.where(lambda u: u.is_sub)
        rolled_columns = {v.column for v in strike + attack}
        every_column = {column for column, _ in layout(attackers, True)}
        # A dice server rolls every column; when the engine skipped one (no defender left) the
        # inline form cannot say which dice are missing, so the strike gets its own line.
        if inline_subs and (strike or attack) and rolled_columns == every_column:
            merged = sorted(strike + attack, key=lambda v: (v.column, not v.first_strike))
            lines.append(f"A({format_units(attackers.items)}) {dice_text(merged)}")
        else:
            if strike:
                lines.append(f"A({format_units(subs.items)}) first strike {dice_text(strike)}")
            firing = attackers.where(lambda u: not u.is_sub) if strike or subs else attackers
            if attack:
                lines.append(f"A({format_units(firing.items)}) {dice_text(attack)}")
        victims = Force()
        for volley in strike:
            victims = victims + volley.casualties
        if defence:
            firing_defence = (result.defender_units - victims).combatants()
            lines.append(f"D({format_units(firing_defence.items)}) {dice_text(defence)}")
    return "\n".join(lines)


def replay_text(setup: BattleSetup, log: str, sea: bool, extra: str = "",
                edition: str = "iaapa-2008") -> str:
    """A one-battle replay document around ``log`` (UK 1 against Germany)."""
    territory, origin = ("Baltic Sea Zone", "North Sea Zone") if sea else ("East Europe", "Karelia")
    attacker_power, defender_power = ("UK", "Germany")
    return one_battle("prop", edition=edition, turn="UK 1", battle=territory, log=log, extra=extra,
                      units=[f"{defender_power} {territory}: {setup.defender}",
                             f"{attacker_power} {origin}: {setup.attacker}"],
                      declaration=f"Attack #1 - {territory}\n{origin} {setup.attacker}")
