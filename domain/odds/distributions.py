"""Exact hit distributions of battle-board volleys, and how lucky a volley was.

A die hits when it shows the column's value or less (MB 2nd edition battle board, restated in
the rules matrix), so one column of ``n`` dice at value ``v`` scores Binomial(n, v/6) hits and a
side's volley is the convolution of its columns ("generic" columns, Part 13 (1999) step 4: the
dice of a column are rolled together, so only the count per value matters).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from domain.rules.forces import Force
from domain.rules.units import UnitType, combat_value, dice_per_unit

# numpy is imported by the functions that use it: the timeline's first screen imports this module
# (expected hits) and should not wait ~0.1 s for numpy (tui/widgets/luck.py draws the odds after).
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]


def __getattr__(name: str) -> object:
    """``FloatArray`` for the modules that import it at run time (numpy imported then)."""
    if name == "FloatArray":
        import numpy as np
        import numpy.typing as npt

        return npt.NDArray[np.float64]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: A column as (value hit on, number of dice): ``(3, 5)`` is five dice hitting on 1-3.
ColumnDice = tuple[int, int]


def binomial(n: int, value: int) -> FloatArray:
    """P(k hits) for ``n`` dice that hit on ``value`` or less, k = 0..n."""
    import numpy as np

    if n < 0:
        raise ValueError(f"negative dice count {n}")
    if not 0 <= value <= 6:
        raise ValueError(f"column value {value} is not 0-6")
    if value == 0 or n == 0:
        out = np.zeros(n + 1)
        out[0] = 1.0
        return out
    if value == 6:
        out = np.zeros(n + 1)
        out[n] = 1.0
        return out
    p = value / 6.0
    q = 1.0 - p
    return np.array([math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)])


def columns_distribution(columns: Iterable[ColumnDice]) -> FloatArray:
    """The distribution of the total hits of several columns (a convolution of binomials)."""
    import numpy as np

    out = np.ones(1)
    for value, count in columns:
        if count and value:
            out = np.convolve(out, binomial(count, value))
        elif count < 0:
            raise ValueError(f"negative dice count {count}")
    return out


def hit_distribution(columns: Iterable[ColumnDice]) -> list[float]:
    """P(exactly k hits), k = 0..(number of dice), for a volley of ``(value, dice)`` columns.

    >>> hit_distribution([(2, 1)])  # one defending infantry
    [0.6666666666666667, 0.3333333333333333]
    """
    return [float(p) for p in columns_distribution(columns)]


def expected_hits(columns: Iterable[ColumnDice]) -> float:
    """The mean number of hits of a volley: the sum of n·v/6 over its columns."""
    total = 0.0
    for value, count in columns:
        if not 0 <= value <= 6 or count < 0:
            raise ValueError(f"bad column ({value}, {count})")
        total += count * value / 6.0
    return total


def luck_percentile(columns: Iterable[ColumnDice], hits: int) -> float:
    """Mid-rank percentile (0-100) of scoring ``hits``: 100·(P(X < hits) + P(X = hits)/2).

    50 is an average volley; near 0 the dice were cold, near 100 hot. ``hits`` must be
    possible for the dice thrown. Exact (the nearest float to the true value): see
    :func:`luck_counts`.
    """
    twice_rank, total = luck_counts(columns, hits)
    return 100 * twice_rank / (2 * total)


def luck_counts(columns: Iterable[ColumnDice], hits: int) -> tuple[int, int]:
    """The mid-rank of ``hits`` as whole numbers: ``(2·W(X < hits) + W(X = hits), total)``,
    where ``W`` counts the ways the dice fall (each die six ways), so the percentile is
    ``100 · first / (2 · total)`` exactly. Integer arithmetic on a volley's few dozen dice
    needs no numpy (whose import costs a command ~0.1 s) and no rounding."""
    columns = list(columns)
    dice = 0
    for value, count in columns:
        if not 0 <= value <= 6 or count < 0:
            raise ValueError(f"bad column ({value}, {count})")
        dice += count
    if not 0 <= hits <= dice:
        raise ValueError(f"{hits} hits are impossible with {dice} dice")
    # The ways to score k hits are the coefficients of the product over the dice of
    # (value·x + 6 - value). Evaluated at x = 2^width, wide enough that no coefficient
    # (< 6^dice < 2^(3·dice)) spills into the next, the product is one whole number whose
    # width-bit fields are the coefficients: a few multiplications instead of a convolution.
    width = 3 * dice + 1
    packed = 1
    for value, count in columns:
        packed *= ((value << width) + 6 - value) ** count
    field = (1 << width) - 1
    below = sum((packed >> (width * k)) & field for k in range(hits))
    return 2 * below + ((packed >> (width * hits)) & field), 6 ** dice


def force_columns(force: Force, attacking: bool, *,
                  keep: Iterable[UnitType] | None = None) -> list[ColumnDice]:
    """The battle-board columns of ``force``: (value, dice) per unit type that fires.

    Heavy Bombers throw three dice each when attacking (units.dice_per_unit); ``keep``
    restricts the volley to some unit types (e.g. only the submarines).
    """
    wanted = None if keep is None else set(keep)
    columns: list[ColumnDice] = []
    for unit, count in force:
        if wanted is not None and unit not in wanted:
            continue
        dice = dice_per_unit(unit, attacking) * count
        if dice:
            columns.append((combat_value(unit, attacking), dice))
    return columns


def unit_distribution(unit: UnitType, attacking: bool) -> FloatArray:
    """Hits of one unit's dice in a regular round."""
    import numpy as np

    dice = dice_per_unit(unit, attacking)
    return binomial(dice, combat_value(unit, attacking)) if dice else np.ones(1)


def capped(dist: FloatArray, limit: int) -> FloatArray:
    """``dist`` with every outcome above ``limit`` lumped into ``limit`` (extra hits are overkill)."""
    if limit < 0:
        raise ValueError("negative cap")
    if len(dist) <= limit + 1:
        return dist
    out = dist[: limit + 1].copy()
    out[limit] = float(dist[limit:].sum())
    return out
