"""A corrected result that flows into later battles in the same territory.

Rules matrix, Consequences: "a corrected battle's result flows into later positions". When a
correction changes who holds a battle's territory, a later battle there declared against the
result as rolled is checked against the corrected one (:meth:`Flow.defenders_for`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.battle.model import Winner
from domain.record.entries import allied
from domain.record.game import BattleRecord
from domain.review.views import BattleStatus, BattleView
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind

#: Read once (on Python 3.11 a member read off its class goes through EnumType's slow hook):
#: every battle of a review asks.
_CORRECTED = BattleStatus.CORRECTED


@dataclass(frozen=True)
class Flow:
    """A corrected battle whose result differs from the record's: who holds its territory
    after it, as rolled and as corrected (rules matrix, Consequences)."""

    last_roll: int
    attacker_power: str
    rolled: tuple[bool, Force]
    corrected: tuple[bool, Force]

    @classmethod
    def of(cls, record: BattleRecord, rolled: BattleView, corrected: BattleView) -> Flow | None:
        """The flow of a corrected battle, or None when its outcome did not change."""
        if corrected.status != _CORRECTED:
            return None
        before, after = _holder(record, rolled), _holder(record, corrected)
        if before is None or after is None or before == after:
            return None
        last = max((roll.seq for roll in record.rolls), default=0)
        return cls(last, record.attacker_power, before, after)

    def defenders_for(self, later: BattleRecord, defenders: Force) -> Force:
        """A later battle's defenders with the corrected result in place of the rolled one."""
        if later.declared_seq <= self.last_roll:
            return defenders
        if later.defenders_seq > self.last_roll:
            # The map was restated after the battle, from the result as rolled: swap it.
            return defenders.minus_available(self._enemy(self.rolled, later)) + self._enemy(
                self.corrected, later)
        # The map predates the battle: the corrected result is what stands there now.
        return self._enemy(self.corrected, later)

    def _enemy(self, holder: tuple[bool, Force], later: BattleRecord) -> Force:
        attacker_held, units = holder
        same_side = allied(self.attacker_power, later.attacker_power)
        return units if attacker_held != same_side else EMPTY


def _holder(record: BattleRecord, view: BattleView) -> tuple[bool, Force] | None:
    """(whether the attacker holds the territory, the units there) after a battle."""
    result = view.result
    if result is None or result.winner is None:
        return None
    if result.winner is Winner.ATTACKER and not result.retreated:
        stay = (lambda u: u.is_sea) if record.kind is BattleKind.SEA else (lambda u: u.is_land)
        return True, result.attacker_left.where(stay)
    return False, result.defender_left
