"""A side's dice per battle-board column and unit type: what its units should throw, and what
its line(s) rolled, typed as the replay format types them (the rolling audit's counting).

Round by round the audit compares the two (:func:`dice_differences`) only where a side did not
roll exactly the dice its units throw (:func:`dice_as_expected`, most sides of most rounds).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from domain.battle.columns import dice_by_unit, dice_needed, layout
from domain.battle.model import Side
from domain.notation.battle_log import FirstStrikeLine, SideLine
from domain.record.recorded_battle import RecordedRound
from domain.review.as_rolled import TypedDie, typed_dice
from domain.rules.forces import EMPTY, Force
from domain.rules.units import UnitType

#: Read once (on Python 3.11 a member read off its class goes through a slow hook): this
#: module's functions run for every side of every round.
_DEFENDER = Side.DEFENDER


@dataclass
class SideCount:
    """Dice per (column, unit type): expected from the units, and as rolled."""

    expected: Counter[tuple[int, UnitType]] = field(default_factory=Counter)
    rolled: Counter[tuple[int, UnitType | None]] = field(default_factory=Counter)
    dice: list[TypedDie] = field(default_factory=list)


def count_side(expected: Force, rolled: list[TypedDie], attacking: bool) -> SideCount:
    """Compare the dice a side's units should throw with the dice recorded."""
    return SideCount(
        expected=Counter((column, unit) for column, units in layout(expected, attacking) for unit in units),
        rolled=Counter((die.column, die.unit) for die in rolled), dice=rolled)


def side_dice(rnd: RecordedRound, side: Side, fallback: Force) -> tuple[Force, list[TypedDie]]:
    """The units a side's line(s) typed in a round (``fallback`` when untyped) and their dice."""
    if side is _DEFENDER:
        line = rnd.defender
        units = _typed(line, fallback)
        return units, typed_dice(units, line.dice, attacking=False) if line is not None else []
    dice: list[TypedDie] = []
    units = EMPTY
    if rnd.first_strike is not None:
        strike = rnd.first_strike
        strike_units = Force.of(strike.units) if strike.units is not None else fallback.where(
            lambda u: u.is_sub)
        units = units + strike_units
        dice.extend(typed_dice(strike_units, strike.dice, attacking=True))
        fallback = fallback.minus_available(strike_units)
    if rnd.attacker is not None:
        line_units = _typed(rnd.attacker, fallback)
        units = units + line_units
        dice.extend(typed_dice(line_units, rnd.attacker.dice, attacking=True))
    elif rnd.first_strike is None:
        units = fallback
    return units, dice


def dice_as_expected(rnd: RecordedRound, side: Side, expected: Force) -> bool:
    """Whether a side's line(s) rolled exactly the dice ``expected`` throws, per unit type.

    Each line whose dice fill its units' columns exactly gives one die per column slot (see
    as_rolled.typed_dice), so its dice per unit type are its units' (dice_by_unit); when those
    add up to the expected units' own, :func:`dice_differences` finds nothing extra or
    missing, and neither round check has anything to report. Anything else (a line with more
    or fewer dice than its units throw) is left to the full comparison.
    """
    if side is _DEFENDER:
        line = rnd.defender
        if line is None:
            return False
        # The line's typed units and its dice counted, read once (RecordedRound): this runs
        # for every side of every round.
        typed = rnd.defender_typed
        units = typed if typed is not None else expected
        return rnd.defender_dice == dice_needed(units, False) and (
            units == expected or dice_by_unit(units, False) == dice_by_unit(expected, False))
    strike = rnd.first_strike
    line = rnd.attacker
    if strike is None and line is not None:  # one line (most rounds)
        typed = rnd.attacker_typed
        units = typed if typed is not None else expected
        return rnd.attacker_dice == dice_needed(units, True) and (
            units == expected or dice_by_unit(units, True) == dice_by_unit(expected, True))
    fallback = expected
    total = EMPTY
    if strike is not None:
        strike_units = Force.of(strike.units) if strike.units is not None else expected.where(_is_sub)
        if len(strike.dice) != dice_needed(strike_units, True):
            return False
        total = dice_by_unit(strike_units, True)
        fallback = fallback.minus_available(strike_units)
    if line is not None:
        units = line_units(line, fallback)
        if rnd.attacker_dice != dice_needed(units, True):
            return False
        total = total + dice_by_unit(units, True)
    elif strike is None:
        return False
    return total == dice_by_unit(expected, True)


def _is_sub(unit: UnitType) -> bool:
    return unit.is_sub


def line_units(line: SideLine | FirstStrikeLine, fallback: Force) -> Force:
    """The units a line typed, else ``fallback``."""
    return Force.of(line.units) if line.units is not None else fallback


def _typed(line: SideLine | None, fallback: Force) -> Force:
    return Force.of(line.units) if line is not None and line.units is not None else fallback


def dice_differences(counts: SideCount) -> tuple[dict[UnitType | None, int], dict[UnitType, int]]:
    """Per unit type: dice rolled beyond what the units throw, and dice missing."""
    extra: dict[UnitType | None, int] = {}
    missing: dict[UnitType, int] = {}
    # Dice per unit type over the columns, each count read once.
    rolled_by: dict[UnitType | None, int] = {}
    for (_, unit), n in counts.rolled.items():
        rolled_by[unit] = rolled_by.get(unit, 0) + n
    wanted_by: dict[UnitType | None, int] = {}
    for (_, unit), n in counts.expected.items():
        wanted_by[unit] = wanted_by.get(unit, 0) + n
    # In the canonical order, so findings come out in the same order on every run.
    types = sorted(rolled_by.keys() | wanted_by.keys(), key=lambda u: u.order if u is not None else 99)
    for unit in types:
        rolled = rolled_by.get(unit, 0)
        wanted = wanted_by.get(unit, 0) if unit is not None else 0
        if rolled > wanted:
            extra[unit] = rolled - wanted
        elif wanted > rolled and unit is not None:
            missing[unit] = wanted - rolled
    return extra, missing
