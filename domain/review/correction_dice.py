"""Dice for corrections: a battle's supplied ``dice`` records first, then the game's verifiable
dice source (replay format: one queue per battle, taken in the order a correction needs them)."""

from __future__ import annotations

from domain.battle.dice import VerifiableDice
from domain.battle.model import DiceExhausted


class CorrectionDice:
    """Dice for corrections: the battle's supplied dice first, then the verifiable source."""

    def __init__(self, supplied: list[int], source: VerifiableDice | None) -> None:
        self._supplied = list(supplied)
        self._source = source
        self.from_source: list[tuple[int, str, tuple[int, ...]]] = []

    def draw(self, count: int, purpose: str) -> list[int]:
        """``count`` dice: supplied ones first; DiceExhausted when neither source has them."""
        taken = self._supplied[:count]
        del self._supplied[:count]
        if len(taken) < count:
            if self._source is None:
                self._supplied[:0] = taken  # give them back: the battle awaits dice
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
