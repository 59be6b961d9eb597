"""Turns: a power's turn in a game round ("USSR 3"), in the order of play.

Classic (MB 2nd edition) order of play: USSR, Germany, UK, Japan, USA; then the next round.
A turn travels as its canonical label ("USSR 3") in records and reports; the rules that count
turns (2008 Section VII time limits) work on :class:`Turn` values.
"""

from __future__ import annotations

import enum
from functools import lru_cache
from typing import NamedTuple

from domain.rules.units import POWERS


class Power(enum.StrEnum):
    """The five powers, in the order of play (values as the records write them)."""

    USSR = "USSR"
    GERMANY = "Germany"
    UK = "UK"
    JAPAN = "Japan"
    USA = "USA"


class Turn(NamedTuple):
    """A power's turn in a game round."""

    power: Power
    round: int

    @property
    def label(self) -> str:
        """The canonical label: ``"USSR 3"``."""
        return f"{self.power} {self.round}"

    def next(self) -> Turn:
        """The turn after this one in the order of play."""
        order = list(Power)
        index = order.index(self.power)
        if index + 1 < len(order):
            return Turn(order[index + 1], self.round)
        return Turn(order[0], self.round + 1)

    def following(self) -> Turn:
        """The turn whose first die ends this turn's correction window: the next one, except
        that the USA and the following USSR turn count as one (2008 Section VII)."""
        after = self.next()
        return after.next() if self.power is Power.USA else after


_BY_NAME = {power.lower(): Power(power) for power in POWERS}


#: Labels remembered: a long game has more turns than a small cache holds (a 10,000-event
#: generated game has ~1,300, read in cycles), and one that misses parses every label again.
@lru_cache(maxsize=1 << 15)
def turn_of(label: str) -> Turn:
    """The turn a label names: ``"USSR 3"`` (the fold files turns so; any case is accepted)."""
    power, _, number = label.strip().rpartition(" ")
    found = _BY_NAME.get(power.strip().lower())
    if found is None or not number.isascii() or not number.isdigit():
        raise ValueError(f"expected a turn such as 'USSR 3', found {label!r}")
    return Turn(found, int(number))
