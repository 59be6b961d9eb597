"""Luck at a glance: the hits each side scored in a battle against the hits its dice should score.

A die in column ``c`` hits with probability ``c/6`` (AA shots at 1, support shots at the
battleship's attack 4: :func:`domain.board_layout.hit_value`), so the expected hits of a battle are
the sum of those probabilities over every die that counts (voided dice do not). The chance of
scoring at most / at least the actual hits comes from the exact distribution of a sum of
independent dice with different hit chances (a Poisson binomial distribution).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.board_layout import hit_value
from domain.views import BattleView, DiceEntry, SideRound

SIDES = ("attacker", "defender")


@dataclass(frozen=True, slots=True)
class SideLuck:
    """One side's dice in one battle: hits scored against hits expected."""

    dice: int
    hits: int
    expected: float
    #: Hit chance of each die that counts, in the order thrown (for the distribution).
    chances: tuple[float, ...] = ()

    @property
    def surplus(self) -> float:
        """Hits above expectation (negative: below)."""
        return self.hits - self.expected

    def at_most(self) -> float:
        """The chance of scoring no more hits than this side did (1.0 with no dice)."""
        return sum(hit_distribution(self.chances)[: self.hits + 1])

    def at_least(self) -> float:
        """The chance of scoring at least as many hits as this side did."""
        return sum(hit_distribution(self.chances)[self.hits:])


@dataclass(frozen=True, slots=True)
class BattleLuck:
    """Both sides' luck in one battle."""

    attacker: SideLuck
    defender: SideLuck

    def side(self, name: str) -> SideLuck:
        """``attacker`` or ``defender``."""
        return self.attacker if name == "attacker" else self.defender


def die_chance(entry: DiceEntry) -> float:
    """The chance that one die of this entry's column hits."""
    return hit_value(entry.column) / 6


def entry_hits(entry: DiceEntry) -> int:
    """Hits of an entry's dice: the recomputed marks, or the column's value when none are given."""
    if len(entry.hits) == len(entry.values):
        return sum(entry.hits)
    threshold = hit_value(entry.column)
    return sum(1 for value in entry.values if value <= threshold)


def side_luck(rounds: Iterable[SideRound]) -> SideLuck:
    """The luck of one side over the given rounds; voided dice do not count."""
    chances: list[float] = []
    hits = 0
    for side_round in rounds:
        for entry in side_round.dice:
            if entry.status == "voided":
                continue
            chances.extend([die_chance(entry)] * len(entry.values))
            hits += entry_hits(entry)
    return SideLuck(dice=len(chances), hits=hits, expected=sum(chances), chances=tuple(chances))


def battle_luck(battle: BattleView) -> BattleLuck:
    """Hits against expected hits for each side of a battle (its rounds as the view gives them)."""
    return BattleLuck(attacker=side_luck(r.attacker for r in battle.rounds),
                      defender=side_luck(r.defender for r in battle.rounds))


def hit_distribution(chances: Sequence[float]) -> list[float]:
    """P(exactly k hits) for k = 0..len(chances), dice independent with the given hit chances."""
    dist = [1.0]
    for p in chances:
        q = 1.0 - p
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * q
            nxt[k + 1] += mass * p
        dist = nxt
    return dist


def signed_bars(values: Sequence[float], *, scale: float | None = None) -> tuple[str, str]:
    """A two-row plot of signed values around a zero axis: (row above, row below).

    Positive values rise from the axis in eighths (``▁`` .. ``█``) on the upper row; negative ones
    hang from it on the lower row (``▔``, ``▀``, ``█``: the only upper blocks a terminal has).
    A value of zero shows as ``·`` on the upper row.
    """
    if not values:
        return "", ""
    top = scale if scale is not None else max(abs(v) for v in values) or 1.0
    rising = "▁▂▃▄▅▆▇█"
    hanging = "▔▀█"
    upper: list[str] = []
    lower: list[str] = []
    for value in values:
        size = min(1.0, abs(value) / top)
        if size < 1e-9:
            upper.append("·")
            lower.append(" ")
        elif value > 0:
            upper.append(rising[max(0, round(size * len(rising)) - 1)])
            lower.append(" ")
        else:
            upper.append(" ")
            lower.append(hanging[max(0, round(size * len(hanging)) - 1)])
    return "".join(upper), "".join(lower)
