"""The battle board: which column each unit fires in, and the dice each column throws.

IAAPA Part 13 (1999) step 1: "The GM will organize the attacking/defending pieces as per the
Battle Board layout"; step 4: columns are "generic" (3 ARM and 2 FTR at 3 are five dice thrown
together). Within a column the dice belong to unit types in the canonical order INF, ARM, FTR,
BMB, TRN, SUB, AC, BB (replay format, "Supplied dice form one queue per battle").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from domain.battle.model import Column, DiceRequest, Die
from domain.rules.forces import Force
from domain.rules.units import UnitType, combat_value, dice_per_unit

#: One battle-board column: its value and one unit type per die, in canonical order.
BoardColumn = tuple[int, tuple[UnitType, ...]]


def layout(force: Force, attacking: bool) -> list[BoardColumn]:
    """The columns ``force`` fires in (a fresh list: callers may extend it); see :func:`_layout`."""
    return list(_layout(force, attacking))


@lru_cache(maxsize=8192)
def _layout(force: Force, attacking: bool) -> tuple[BoardColumn, ...]:
    """The columns ``force`` fires in, ascending, each with one entry per die.

    Heavy Bombers throw three dice each when attacking (rules matrix, Heavy Bombers); units
    with value 0 (an attacking TRN), AA guns and ICs throw nothing in a regular round.
    """
    columns: dict[int, list[UnitType]] = {}
    # Force.items are in canonical order, so each column lists its dice in canonical order.
    for unit, count in force.items:
        value = combat_value(unit, attacking)
        per_unit = dice_per_unit(unit, attacking)
        if value <= 0 or per_unit <= 0:
            continue
        columns.setdefault(value, []).extend([unit] * (count * per_unit))
    return tuple((value, tuple(columns[value])) for value in sorted(columns))


#: The columns a force fires in, as the remembered tuple (no copy; see :func:`_layout`).
columns_of = _layout


@lru_cache(maxsize=8192)
def dice_needed(force: Force, attacking: bool) -> int:
    """How many dice ``force`` throws in a regular round (remembered: forces recur)."""
    return sum(len(units) for _, units in _layout(force, attacking))


@lru_cache(maxsize=8192)
def dice_by_unit(force: Force, attacking: bool) -> Force:
    """The dice ``force`` throws in a regular round as a multiset of unit types (each type
    counted once per die its units throw in their column)."""
    return Force.from_units(unit for _, units in _layout(force, attacking) for unit in units)


def hit_value(column: Column) -> int:
    """The highest face that hits in ``column``.

    AA guns hit on 1 (MB 2nd edition, rules matrix "AA"); a battleship's support shot hits at
    its attack value 4 (IAAPA Part 13 (1999) step 2); a numbered column hits at its number.
    """
    if column == "AA":
        return 1
    if column == "BB":
        return combat_value(UnitType.BB, True)
    return column


def make_dice(request: DiceRequest, values: Sequence[int]) -> tuple[Die, ...]:
    """The dice of ``request`` with the faces ``values``; ValueError quoting a bad face or count."""
    faces = list(values)
    if len(faces) != request.count:
        raise ValueError(f"{request.purpose}: needs {request.count} dice, got {faces!r}")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"{request.purpose}: not a die face (1-6): {face!r}")
    threshold = hit_value(request.column)
    return tuple(Die(face, unit, face <= threshold)
                 for face, unit in zip(faces, request.units, strict=True))


def sub_hits(dice: Sequence[Die]) -> int:
    """Hits thrown by submarines: they never fall on aircraft (rules matrix; 2008 OOL)."""
    return sum(1 for die in dice if die.hit and die.unit.is_sub)
