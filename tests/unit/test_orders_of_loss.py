"""The four default orders of loss, pinned to the 2008 text (seed 002, "Default Orders of Loss").

"Land Territories - Attacking: INF, ARM, FTR, BMB - Defending: INF, ARM, BMB, FTR
 Sea Zones - Attacking-- TRN, SUB, FTR, BMB, AC, BB - Defending -- TRN, SUB, FTR, AC, BB"
"""

from __future__ import annotations

import pytest

from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind, default_order
from domain.rules.units import UnitType as U

#: (where, attacking, the order as the text lists it).
TABLE = [
    (BattleKind.LAND, True, (U.INF, U.ARM, U.FTR, U.BMB)),
    (BattleKind.LAND, False, (U.INF, U.ARM, U.BMB, U.FTR)),
    (BattleKind.SEA, True, (U.TRN, U.SUB, U.FTR, U.BMB, U.AC, U.BB)),
    (BattleKind.SEA, False, (U.TRN, U.SUB, U.FTR, U.AC, U.BB)),
]


@pytest.mark.parametrize(("kind", "attacking", "listed"), TABLE,
                         ids=["land attack", "land defence", "sea attack", "sea defence"])
def test_default_order_loses_one_of_each_in_the_listed_order(kind: BattleKind, attacking: bool,
                                                               listed: tuple[U, ...]) -> None:
    # One of each listed type, given in reverse so the canonical order cannot pass for it.
    present = Force.of(dict.fromkeys(reversed(listed), 1))
    order = default_order(kind, attacking)
    assert order.ranked(present) == list(listed)
    for hits in range(1, len(listed) + 1):
        assert order.choose(present, hits) == Force.of(dict.fromkeys(listed[:hits], 1))


def test_amphibious_assaults_use_the_land_orders() -> None:
    # "A land battle is considered 'amphibious' ONLY if a transport delivers infantry or arm".
    present = Force.of({U.FTR: 1, U.BMB: 1})
    assert default_order(BattleKind.AMPHIBIOUS, False).ranked(present) == [U.BMB, U.FTR]
    assert default_order(BattleKind.AMPHIBIOUS, True).ranked(present) == [U.FTR, U.BMB]


def test_air_only_attack_at_sea_loses_defending_subs_first() -> None:
    # "In a no retreat situation involving only attacking air units, defending subs are lost
    # before other defending units."
    present = Force.of({U.TRN: 1, U.SUB: 1})
    assert default_order(BattleKind.SEA, False, air_only_attack=True).ranked(present) == [U.SUB, U.TRN]
