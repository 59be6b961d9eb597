"""Luck at a glance: the hits each side scored in a battle against the hits its dice should score.

A die in column ``c`` hits with probability ``c/6`` (AA shots at 1, support shots at the
battleship's attack 4: :func:`domain.battle.columns.hit_value`), so the expected hits of a battle are
the sum of those probabilities over every die that counts: kept and added dice, AA shots included,
voided dice not. The distribution, the expectation and the mid-rank percentile are the domain's
(:mod:`domain.odds.distributions`), so the panel and the report agree on what "lucky" means.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.battle.columns import hit_value
from domain.odds.distributions import expected_hits, hit_distribution, luck_percentile
from domain.review.views import BattleView, DiceEntry, DiceStatus, SideRound

#: A side's dice as (value hit on, number of dice), one entry per value.
Columns = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class SideLuck:
    """One side's dice in one battle: hits scored against hits expected."""

    dice: int
    hits: int
    expected: float
    columns: Columns = ()

    @property
    def surplus(self) -> float:
        """Hits above expectation (negative: below)."""
        return self.hits - self.expected

    def distribution(self) -> list[float]:
        """P(exactly k hits) for these dice, k = 0..dice."""
        return hit_distribution(self.columns)

    def at_most(self) -> float:
        """The chance of scoring no more hits than this side did (1.0 with no dice)."""
        return sum(self.distribution()[: self.hits + 1])

    def at_least(self) -> float:
        """The chance of scoring at least as many hits as this side did."""
        return sum(self.distribution()[self.hits:])

    def percentile(self) -> float | None:
        """Mid-rank percentile of the hits (50 average, near 0 cold dice, near 100 hot); None
        without dice."""
        return luck_percentile(self.columns, self.hits) if self.dice else None


@dataclass(frozen=True, slots=True)
class BattleLuck:
    """Both sides' luck in one battle."""

    attacker: SideLuck
    defender: SideLuck

    def side(self, name: str) -> SideLuck:
        """``attacker`` or ``defender``."""
        return self.attacker if name == "attacker" else self.defender


def entry_hits(entry: DiceEntry) -> int:
    """Hits of an entry's dice: the recomputed marks, or the column's value when none are given."""
    if len(entry.hits) == len(entry.values):
        return sum(entry.hits)
    threshold = hit_value(entry.column)
    return sum(1 for value in entry.values if value <= threshold)


def side_luck(rounds: Iterable[SideRound]) -> SideLuck:
    """The luck of one side over the given rounds; voided dice do not count."""
    counts: dict[int, int] = {}
    hits = 0
    for side_round in rounds:
        for entry in side_round.dice:
            if entry.status == DiceStatus.VOIDED or not entry.values:
                continue
            value = hit_value(entry.column)
            counts[value] = counts.get(value, 0) + len(entry.values)
            hits += entry_hits(entry)
    columns = tuple(sorted(counts.items()))
    return SideLuck(dice=sum(counts.values()), hits=hits, expected=expected_hits(columns), columns=columns)


def battle_luck(battle: BattleView) -> BattleLuck:
    """Hits against expected hits for each side of a battle (its rounds as the view gives them)."""
    return BattleLuck(attacker=side_luck(r.attacker for r in battle.rounds),
                      defender=side_luck(r.defender for r in battle.rounds))


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
