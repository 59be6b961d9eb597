"""Unit types of Axis & Allies Classic (Milton Bradley 2nd edition) and their combat profiles.

The profiles are the MB 2nd edition values as the rules matrix restates them. Weapons
developments that change combat are separate unit types (``JFTR``, ``HBMB``, ``SSUB``) with a
``base`` type, because IAAPA records write them as such ("JFTR, HBMB for developed units") and a
battle board puts them in their own column (a jet fighter defends in the 5s column).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class UnitType(enum.Enum):
    """A unit type as IAAPA notation writes it; the enum order is the canonical order."""

    INF = "INF"
    ARM = "ARM"
    FTR = "FTR"
    JFTR = "JFTR"
    BMB = "BMB"
    HBMB = "HBMB"
    TRN = "TRN"
    SUB = "SUB"
    SSUB = "SSUB"
    AC = "AC"
    BB = "BB"
    AA = "AA"
    IC = "IC"

    # Members are singletons compared by identity: hash them by identity too, in C (Enum's
    # own __hash__ is Python code hashing the name, and units are dict keys everywhere).
    __hash__ = object.__hash__

    # The facts below are looked up millions of times while a game is reviewed; each member
    # caches them as plain attributes (set once, after PROFILES exists) so no lookup hashes it.
    _profile: UnitProfile
    _base: UnitType
    _order: int
    _air: bool
    _sea: bool
    _sub: bool
    _combatant: bool

    @property
    def profile(self) -> UnitProfile:
        """The unit's combat profile."""
        return self._profile

    @property
    def base(self) -> UnitType:
        """The undeveloped type (``JFTR`` -> ``FTR``); the type itself otherwise."""
        return self._base

    @property
    def order(self) -> int:
        """Position in the canonical order INF, ARM, FTR, BMB, TRN, SUB, AC, BB."""
        return self._order

    @property
    def is_air(self) -> bool:
        """Aircraft: hit by AA guns, never by submarines."""
        return self._air

    @property
    def is_sea(self) -> bool:
        """Naval units."""
        return self._sea

    @property
    def is_land(self) -> bool:
        """Ground units (including AA guns and industrial complexes)."""
        return not (self._air or self._sea)

    @property
    def is_sub(self) -> bool:
        """Submarines (developed or not)."""
        return self._sub

    @property
    def is_combatant(self) -> bool:
        """Units that can be taken as casualties (AA guns and ICs are captured, never hit)."""
        return self._combatant


@dataclass(frozen=True, slots=True)
class UnitProfile:
    """Combat facts of one unit type (MB 2nd edition; developments per the rules matrix)."""

    attack: int
    defence: int
    movement: int
    cost: int
    air: bool = False
    sea: bool = False
    #: Dice rolled per unit when attacking (Heavy Bombers roll 3, every die can hit).
    attack_dice: int = 1
    base: UnitType | None = None


PROFILES: dict[UnitType, UnitProfile] = {
    UnitType.INF: UnitProfile(1, 2, 1, 3),
    UnitType.ARM: UnitProfile(3, 2, 2, 5),
    UnitType.FTR: UnitProfile(3, 4, 4, 12, air=True),
    # Jet Power: fighters defend at 5.
    UnitType.JFTR: UnitProfile(3, 5, 4, 12, air=True, base=UnitType.FTR),
    UnitType.BMB: UnitProfile(4, 1, 6, 15, air=True),
    # Heavy Bombers: three dice each when attacking.
    UnitType.HBMB: UnitProfile(4, 1, 6, 15, air=True, attack_dice=3, base=UnitType.BMB),
    UnitType.TRN: UnitProfile(0, 1, 2, 8, sea=True),
    UnitType.SUB: UnitProfile(2, 2, 2, 8, sea=True),
    # Super Subs: attack at 3.
    UnitType.SSUB: UnitProfile(3, 2, 2, 8, sea=True, base=UnitType.SUB),
    UnitType.AC: UnitProfile(1, 3, 2, 18, sea=True),
    UnitType.BB: UnitProfile(4, 4, 2, 24, sea=True),
    UnitType.AA: UnitProfile(0, 0, 1, 5),
    UnitType.IC: UnitProfile(0, 0, 0, 15),
}

for _index, _unit in enumerate(UnitType):
    _unit._profile = PROFILES[_unit]
    _unit._base = PROFILES[_unit].base or _unit
    _unit._order = _index
    _unit._air = PROFILES[_unit].air
    _unit._sea = PROFILES[_unit].sea
    _unit._combatant = _unit not in (UnitType.AA, UnitType.IC)
for _unit in UnitType:
    _unit._sub = _unit._base is UnitType.SUB

#: Names accepted for each unit type (upper case, singular); plurals are handled by the parser.
ALIASES: dict[str, UnitType] = {
    "INF": UnitType.INF,
    "INFANTRY": UnitType.INF,
    "ARM": UnitType.ARM,
    "ARMOR": UnitType.ARM,
    "ARMOUR": UnitType.ARM,
    "TNK": UnitType.ARM,
    "TANK": UnitType.ARM,
    "FTR": UnitType.FTR,
    "FIG": UnitType.FTR,
    "FIGHTER": UnitType.FTR,
    "JFTR": UnitType.JFTR,
    "JET": UnitType.JFTR,
    "BMB": UnitType.BMB,
    "BOMBER": UnitType.BMB,
    "HBMB": UnitType.HBMB,
    "TRN": UnitType.TRN,
    "TRANS": UnitType.TRN,
    "TRANSPORT": UnitType.TRN,
    "SUB": UnitType.SUB,
    "SS": UnitType.SUB,
    "SUBMARINE": UnitType.SUB,
    "SSUB": UnitType.SSUB,
    "AC": UnitType.AC,
    "CV": UnitType.AC,
    "CARRIER": UnitType.AC,
    "BB": UnitType.BB,
    "BATTLESHIP": UnitType.BB,
    "AA": UnitType.AA,
    "AAGUN": UnitType.AA,
    "IC": UnitType.IC,
    "FACTORY": UnitType.IC,
}


def unit_from_name(name: str) -> UnitType | None:
    """Resolve a unit name or alias ("FTRs", "tnk", "SS"); ``None`` when unknown."""
    key = name.strip().upper().replace(" ", "").replace(".", "")
    if key in ALIASES:
        return ALIASES[key]
    if key.endswith("S") and key[:-1] in ALIASES:
        return ALIASES[key[:-1]]
    if key.endswith("ES") and key[:-2] in ALIASES:
        return ALIASES[key[:-2]]
    return None


def combat_value(unit: UnitType, attacking: bool) -> int:
    """The battle-board column a unit fires in (0: does not fire)."""
    profile = unit.profile
    return profile.attack if attacking else profile.defence


def dice_per_unit(unit: UnitType, attacking: bool) -> int:
    """Dice one unit rolls in a regular round (Heavy Bombers roll three when attacking)."""
    if combat_value(unit, attacking) == 0:
        return 0
    return unit.profile.attack_dice if attacking else 1


#: Powers in turn order (MB 2nd edition).
POWERS: tuple[str, ...] = ("USSR", "Germany", "UK", "Japan", "USA")
AXIS: frozenset[str] = frozenset({"Germany", "Japan"})
