"""Orders of loss: the defaults of the 2008 rules and casualty choice under hit restrictions.

2008 "Default Orders of Loss (OOL)": land attack INF, ARM, FTR, BMB; land defence INF, ARM, BMB,
FTR; sea attack TRN, SUB, FTR, BMB, AC, BB; sea defence TRN, SUB, FTR, AC, BB. "In a no retreat
situation involving only attacking air units, defending subs are lost before other defending
units." Part 13 (1999) defers to "the IAAPA default orders of losses", the same lists.
"""

from __future__ import annotations

import enum
from functools import lru_cache

import msgspec

from domain.rules.forces import EMPTY, Force
from domain.rules.units import UnitType

U = UnitType


class BattleKind(enum.StrEnum):
    """Where a battle is fought; amphibious assaults are land battles with units from transports."""

    LAND = "land"
    SEA = "sea"
    AMPHIBIOUS = "amphibious"

    @property
    def at_sea(self) -> bool:
        """Sea-zone battles use the sea orders of loss and submarine rules."""
        return self is _SEA_BATTLE


#: Read once: on Python 3.11 a member read off its class goes through EnumType's slow hook, and
#: every casualty choice of a review asks whether its battle is at sea.
_SEA_BATTLE = BattleKind.SEA


class OrderOfLoss(msgspec.Struct, frozen=True, cache_hash=True):
    """Unit types in the order they are lost; a base type covers its developed type (its hash
    worked out once: every casualty choice the review remembers is keyed by it)."""

    units: tuple[UnitType, ...]
    #: Where the order came from: "default" or the special order's text.
    source: str = "default"

    def ranked(self, present: Force) -> list[UnitType]:
        """Every combatant unit of ``present`` one by one, first loss first."""
        order: list[UnitType] = []
        seen: set[UnitType] = set()
        for wanted in self.units:
            for unit in present.types:
                if unit not in seen and unit.is_combatant and (unit is wanted or unit.base is wanted):
                    order.extend([unit] * present[unit])
                    seen.add(unit)
        # Types the order does not name are lost last, in canonical order.
        for unit, count in present.items:
            if unit not in seen and unit.is_combatant:
                order.extend([unit] * count)
        return order

    def choose(self, present: Force, hits: int, *, sub_hits: int = 0,
               air_only_hits: int = 0) -> Force:
        """Casualties for ``hits`` hits on ``present``; see :func:`_choose`."""
        if hits <= 0:
            return EMPTY
        return _choose(self, present, hits, sub_hits, air_only_hits)

    def _choose(self, present: Force, hits: int, sub_hits: int, air_only_hits: int) -> Force:
        """Casualties for ``hits`` hits on ``present``.

        ``sub_hits`` of the hits were scored by submarines and never fall on aircraft;
        ``air_only_hits`` (AA fire) fall only on aircraft. Extra hits are overkill (Part 13).
        """
        if sub_hits > hits or air_only_hits > hits - sub_hits:
            raise ValueError("restricted hits exceed the total")
        ranked = self.ranked(present)
        taken: list[UnitType] = []
        any_hits = hits - sub_hits - air_only_hits
        air_left = air_only_hits
        sub_left = sub_hits
        # AA hits take aircraft first, in the order of loss.
        for unit in ranked:
            if air_left and unit.is_air:
                taken.append(unit)
                air_left -= 1
        remaining = list(ranked)
        for unit in taken:
            remaining.remove(unit)
        # Then the other hits follow the order; aircraft can only be taken by non-sub hits.
        for unit in remaining:
            if unit.is_air:
                if any_hits:
                    taken.append(unit)
                    any_hits -= 1
            elif sub_left:
                taken.append(unit)
                sub_left -= 1
            elif any_hits:
                taken.append(unit)
                any_hits -= 1
            if not (any_hits or sub_left):
                break
        return Force.from_units(taken)


@lru_cache(maxsize=16384)
def _choose(order: OrderOfLoss, present: Force, hits: int, sub_hits: int, air_only_hits: int) -> Force:
    """Casualties are a pure function of the order, the units and the hits: reviews of long
    games meet the same few thousand cases again and again, so they are remembered."""
    return order._choose(present, hits, sub_hits, air_only_hits)


_LAND_ATTACK = (U.INF, U.ARM, U.FTR, U.BMB)
_LAND_DEFENCE = (U.INF, U.ARM, U.BMB, U.FTR)
_SEA_ATTACK = (U.TRN, U.SUB, U.FTR, U.BMB, U.AC, U.BB)
_SEA_DEFENCE = (U.TRN, U.SUB, U.FTR, U.AC, U.BB)


def default_order(kind: BattleKind, attacking: bool, *, air_only_attack: bool = False) -> OrderOfLoss:
    """The club default order of loss (2008 "Default Orders of Loss (OOL)")."""
    if kind is not _SEA_BATTLE:  # kind.at_sea, without the property
        return _DEFAULTS[0] if attacking else _DEFAULTS[1]
    if attacking:
        return _DEFAULTS[2]
    if air_only_attack:
        # 2008 OOL note: in a no-retreat battle of attacking aircraft only, subs go first.
        return _DEFAULTS[4]
    return _DEFAULTS[3]


#: The default orders, made once (they are immutable): land attack and defence, sea attack and
#: defence, sea defence against aircraft only.
_DEFAULTS = (OrderOfLoss(_LAND_ATTACK), OrderOfLoss(_LAND_DEFENCE), OrderOfLoss(_SEA_ATTACK),
             OrderOfLoss(_SEA_DEFENCE),
             OrderOfLoss((U.SUB, U.TRN, U.FTR, U.AC, U.BB), source="default (air-only attack)"))


#: AA hits removing aircraft "from right to left": the bombers' column (4) before the fighters'
#: (3) (2008 Section III, AA Guns, read for every AA hit: an edition's choice).
RIGHT_TO_LEFT_AIRCRAFT = OrderOfLoss((U.BMB, U.FTR), source="right to left")
