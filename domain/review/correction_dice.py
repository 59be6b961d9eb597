"""Dice for corrections: the dice recorded for a battle (entered from the dice server or drawn by
the Minister), in the order a correction needs them; the throw they could not cover is the one
the battle awaits (replay format: one queue per battle)."""

from __future__ import annotations

import re

from domain.battle.dice import VerifiableDice
from domain.battle.model import DiceExhausted, DiceRequest
from domain.review.views import DiceNeed
from domain.rules.forces import Force

_PURPOSE = re.compile(r"R(\d+) (attacker|defender)(?: first strike)? (?:column (\d)|(\w+) shots)")


class CorrectionDice:
    """Dice for corrections: the dice recorded for the battle (entered from the dice server or
    drawn by the Minister), in order. A legacy ``source`` draws more (tests and tools only: the
    review never draws a die that was not recorded)."""

    def __init__(self, supplied: list[int], source: VerifiableDice | None = None) -> None:
        self._supplied = list(supplied)
        self._source = source
        self.from_source: list[tuple[int, str, tuple[int, ...]]] = []
        #: The throw the recorded dice could not cover (the battle awaits it).
        self.shortfall: DiceNeed | None = None

    def provide(self, request: DiceRequest) -> list[int]:
        """A provider for the engine: the request's dice, its units remembered if they lack."""
        return self.draw(request.count, request.purpose, str(Force.from_units(request.units)))

    def draw(self, count: int, purpose: str, units: str = "") -> list[int]:
        """``count`` dice: recorded ones first; DiceExhausted when there are not enough."""
        taken = self._supplied[:count]
        del self._supplied[:count]
        if len(taken) < count:
            if self._source is None:
                self._supplied[:0] = taken  # give them back: the battle awaits dice
                self.shortfall = _need(count, purpose, units, len(taken))
                raise DiceExhausted(purpose, count, len(taken))
            sequence = self._source.next_sequence
            more = self._source.draw(count - len(taken), purpose)
            self.from_source.append((sequence, purpose, tuple(more)))
            taken += more
        return taken

    @property
    def unused(self) -> int:
        """Supplied dice no correction needed."""
        return len(self._supplied)


def _need(count: int, purpose: str, units: str, on_hand: int) -> DiceNeed:
    """The throw a correction waits for, read from its purpose ("R1 attacker column 3")."""
    match = _PURPOSE.match(purpose)
    if match is None:
        return DiceNeed(count - on_hand, purpose, units=units, on_hand=on_hand)
    column = match.group(3) or match.group(4)
    return DiceNeed(count - on_hand, purpose, round=int(match.group(1)), side=match.group(2),
                    column=column, units=units, on_hand=on_hand)
