"""Parts of a force the board walk asks for at every battle, remembered.

Each is a pure function of one or two small values that recur all game long (a battle's
survivors, a territory's defenders): one hash and a look-up, not a loop over the units (see
:mod:`domain.record.board.walk`).
"""

from __future__ import annotations

from functools import lru_cache

from domain.rules.forces import AIR, LAND, NOT_COMBATANT, SEA, Force, capped, only
from domain.rules.units import UnitType


@lru_cache(maxsize=4096)
def land_part(units: Force) -> Force:
    """The land units of a force."""
    return only(units, LAND)


@lru_cache(maxsize=4096)
def sea_part(units: Force) -> Force:
    """The naval units of a force."""
    return only(units, SEA)


@lru_cache(maxsize=4096)
def air_part(units: Force) -> Force:
    """The aircraft of a force."""
    return only(units, AIR)


@lru_cache(maxsize=4096)
def captured_part(units: Force) -> Force:
    """What of a defender's units is captured, not hit (AA guns, industrial complexes)."""
    return only(units, NOT_COMBATANT)


@lru_cache(maxsize=4096)
def battleships(units: Force) -> int:
    """How many battleships a force holds."""
    return units[UnitType.BB]


#: :func:`domain.rules.forces.capped`, remembered.
capped_part = lru_cache(maxsize=4096)(capped)
