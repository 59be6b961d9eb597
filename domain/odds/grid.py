"""The fast exact solver for battles whose casualties follow a fixed order of loss.

When every hit may fall on any unit (land battles after round 1's AA fire, sea battles without
submarines), the order of loss is fixed, so a battle's state is just (attacker losses i,
defender losses j) on a grid of (A+1) x (D+1) cells (Part 13 (1999) step 4: casualties are taken
"as per default or special orders of losses"). In state (i, j) the attacker's hits follow
``Pa[i]``, the distribution of the units after the first i of its order, the defender's
``Pd[j]``; both sides fire from the state at the start of the round (casualties fire back, Part
13 step 5), so P((i, j) -> (i + x, j + y)) = Pd[j](x) · Pa[i](y), with extra hits lumped into the
side's destruction (overkill, Part 13 Miscellaneous 2).

Losses never come back, so after the rounds that must be fought one by one (round 1, "retreat
after round N") each cell is visited once, row by row; a round where nobody is hit leaves the cell
unchanged, and that self-loop is solved analytically by dividing the cell's outflow by
1 - P(stay). A row's cells feed one another when only the defender loses units, which is a
unit-triangular linear system solved per row. Everything is NumPy over whole rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from domain.odds.distributions import FloatArray, unit_distribution
from domain.rules.units import UnitType

_STUCK = 1.0 - 1e-15
#: Rows up to this wide are solved by LU; wider ones by forward substitution.
_DIRECT = 48
#: Multiply-adds per BLAS call below OpenBLAS's threading threshold (65536 x 4).
_CHUNK = 200_000


def _suffix_distributions(chain: Sequence[UnitType], attacking: bool) -> FloatArray:
    """Row i: the hit distribution of ``chain[i:]`` (padded with zeros), i = 0..len(chain)."""
    n = len(chain)
    dists: list[FloatArray] = [np.ones(1)]
    for unit in reversed(chain):
        dists.append(np.convolve(dists[-1], unit_distribution(unit, attacking)))
    dists.reverse()
    width = max(len(dist) for dist in dists)
    out = np.zeros((n + 1, width))
    for i, dist in enumerate(dists):
        out[i, : len(dist)] = dist
    return out


def _tails(dists: FloatArray, width: int) -> FloatArray:
    """tails[i, t] = P(at least t hits) for row i, t = 0..width-1 (zero beyond the dice)."""
    rev = np.cumsum(dists[:, ::-1], axis=1)[:, ::-1]
    out = np.zeros((dists.shape[0], width))
    cols = min(width, dists.shape[1])
    out[:, :cols] = rev[:, :cols]
    return out


def _product(left: FloatArray, right: FloatArray) -> FloatArray:
    """left @ right in row chunks small enough for a single-threaded BLAS call.

    A threaded OpenBLAS product of this size is several times slower on a busy machine than
    the same work in single-threaded pieces.
    """
    inner = left.shape[1] * right.shape[1]
    step = max(1, _CHUNK // max(1, inner))
    if left.shape[0] <= step:
        return np.asarray(left @ right, dtype=np.float64)
    return np.concatenate([left[k: k + step] @ right for k in range(0, left.shape[0], step)])


@dataclass(slots=True)
class GridResult:
    """Where the mass ended on the grid, and round statistics."""

    #: ended[i, j]: mass ending with i attacker and j defender losses (i = A or j = D: destroyed).
    ended: FloatArray
    #: retreated[i, j]: mass of the attacker retreating with i losses, the defender j.
    retreated: FloatArray
    unresolved: float
    expected_rounds: float
    #: P(ends in the k-th round fought), when asked for.
    rounds: list[float]
    rounds_beyond: float


class Grid:
    """The transition structure of one pair of casualty chains (first loss first)."""

    def __init__(self, attacker: Sequence[UnitType], defender: Sequence[UnitType]) -> None:
        self.A = len(attacker)
        self.D = len(defender)
        pa = _suffix_distributions(attacker, True)
        pd = _suffix_distributions(defender, False)
        self.pa = pa
        self.pd = pd
        self.pa_tail = _tails(pa, self.D + 2)
        self.pd_tail = _tails(pd, self.A + 2)
        # pd_pad[j, x]: P(x hits) for x <= A, zero beyond (extra hits are folded in by caps).
        self.pd_pad = np.zeros((self.D + 1, self.A + 1))
        cols = min(self.A + 1, pd.shape[1])
        self.pd_pad[:, :cols] = pd[:, :cols]
        self._rows_t: dict[int, FloatArray] = {}
        self._rows_d: dict[int, FloatArray] = {}

    # -- transition blocks ---------------------------------------------------------------
    def attacker_block(self, i: int, extra: FloatArray | None = None) -> FloatArray:
        """T[j, j']: P(defender goes from j to j' losses) when the attacker has lost i (D x D+1)."""
        if extra is None and i in self._rows_t:
            return self._rows_t[i]
        dist = self.pa[i]
        tail = self.pa_tail[i]
        if extra is not None:
            dist = np.convolve(dist, extra)
            tail = np.cumsum(dist[::-1])[::-1]
            tail = np.concatenate([tail, np.zeros(max(0, self.D + 2 - len(tail)))])
        # Row j of the Toeplitz block is the distribution shifted right by j: a window onto
        # D zeros followed by the distribution.
        padded = np.zeros(2 * self.D + 1)
        cols = min(self.D + 1, len(dist))
        padded[self.D: self.D + cols] = dist[:cols]
        windows = np.lib.stride_tricks.sliding_window_view(padded, self.D + 1)
        block = windows[self.D:0:-1].copy()
        block[:, self.D] = tail[self.D - np.arange(self.D)]
        if extra is None:
            self._rows_t[i] = block
        return block

    def defender_block(self, i: int) -> FloatArray:
        """P[j, x]: P(attacker loses x more, capped at A - i) when the defender has lost j (D x A-i+1)."""
        found = self._rows_d.get(i)
        if found is not None:
            return found
        left = self.A - i
        block = self.pd_pad[: self.D, : left + 1].copy()
        block[:, left] = self.pd_tail[: self.D, left]
        self._rows_d[i] = block
        return block

    # -- solving --------------------------------------------------------------------------
    def solve(self, *, first_extra: FloatArray | None = None, explicit_rounds: int = 1,
              retreat_at: int | None = None, retreat_after_explicit: bool = False,
              rounds: bool = False, tolerance: float = 1e-12, max_rounds: int = 1000) -> GridResult:
        """Fight from (0, 0): ``explicit_rounds`` rounds one by one (the first with ``first_extra``
        attacker hits, e.g. support shots), then the rest cell by cell.

        ``retreat_at``: the attacker retreats after a round leaving it at most that many units;
        ``retreat_after_explicit``: it retreats after the explicit rounds ("after round N").
        """
        A, D = self.A, self.D
        ended = np.zeros((A + 1, D + 1))
        retreated = np.zeros((A + 1, D + 1))
        result = GridResult(ended, retreated, 0.0, 0.0, [], 0.0)
        # Rows whose attacker has at most ``retreat_at`` units left retreat (once a round is fought).
        first_retreat_row = A if retreat_at is None else max(0, A - retreat_at)
        alive = np.zeros((A + 1, D + 1))
        if A == 0 or D == 0:
            ended[0, 0] = 1.0
            return result
        alive[0, 0] = 1.0
        fought = 0
        while alive.any() and (fought < explicit_rounds
                               or (rounds and fought < max_rounds and alive.sum() >= tolerance)):
            result.expected_rounds += float(alive.sum())
            alive = self._step(alive, first_extra if fought == 0 else None)
            fought += 1
            finished = self._harvest(alive, ended, retreated, first_retreat_row)
            if retreat_after_explicit and fought >= explicit_rounds:
                retreated += alive
                finished += float(alive.sum())
                alive[:] = 0.0
            if rounds or fought <= explicit_rounds:
                result.rounds.append(finished)
        if rounds:
            result.rounds_beyond = float(alive.sum())
        if alive.any():
            self._sweep(alive, ended, retreated, first_retreat_row, result)
        return result

    def _step(self, alive: FloatArray, extra: FloatArray | None) -> FloatArray:
        """One round from every live cell."""
        A, D = self.A, self.D
        out = np.zeros((A + 1, D + 1))
        for i in np.flatnonzero(alive[:, :D].any(axis=1)):
            row = alive[i, :D]
            weighted = (self.defender_block(int(i)) * row[:, None]).T
            contrib = _product(weighted, self.attacker_block(int(i), extra))
            out[i:, :] += contrib
        return out

    def _harvest(self, alive: FloatArray, ended: FloatArray, retreated: FloatArray,
                 first_retreat_row: int) -> float:
        """Move finished mass out of ``alive``; return how much finished."""
        A, D = self.A, self.D
        before = float(ended.sum() + retreated.sum())
        ended[A, :] += alive[A, :]
        ended[:A, D] += alive[:A, D]
        alive[A, :] = 0.0
        alive[:, D] = 0.0
        if first_retreat_row < A:
            retreated[first_retreat_row:A, :D] += alive[first_retreat_row:A, :D]
            alive[first_retreat_row:A, :D] = 0.0
        return float(ended.sum() + retreated.sum()) - before

    def _sweep(self, alive: FloatArray, ended: FloatArray, retreated: FloatArray,
               first_retreat_row: int, result: GridResult) -> None:
        """Visit every live cell once, row by row, self-loops solved analytically."""
        A, D = self.A, self.D
        mass = alive.copy()
        eye = np.eye(D)
        diag = np.arange(D)
        pd0 = self.pd[:D, 0]
        for i in range(min(A, first_retreat_row)):
            row = mass[i, :D]
            if not row.any():
                continue
            stay = pd0 * self.pa[i, 0]
            stuck = stay >= _STUCK
            w = np.where(stuck, 0.0, 1.0 / np.where(stuck, 1.0, 1.0 - stay))
            block = self.attacker_block(i)
            # Within a row (the attacker unhurt) cell j feeds j' > j: m = row + m @ G.
            m = self._row_masses(row, w * pd0, block, eye, diag)
            result.unresolved += float(m[stuck].sum())
            u = m * w
            result.expected_rounds += float(u.sum())
            contrib = _product((self.defender_block(i) * u[:, None]).T, block)
            mass[i, :D] = 0.0
            mass[i, D] += contrib[0, D]
            mass[i + 1:, :] += contrib[1:, :]
        ended[A, :] += mass[A, :]
        ended[:A, D] += mass[:A, D]
        if first_retreat_row < A:
            retreated[first_retreat_row:A, :D] += mass[first_retreat_row:A, :D]

    def _row_masses(self, inflow: FloatArray, feed: FloatArray, block: FloatArray, eye: FloatArray,
                    diag: npt.NDArray[np.intp]) -> FloatArray:
        """Solve m = inflow + (m * feed) @ strict_upper(block) for a row's final cell masses."""
        D = self.D
        if D <= _DIRECT:
            g = feed[:, None] * block[:, :D]
            g[diag, diag] = 0.0
            return np.asarray(np.linalg.solve((eye - g).T, inflow), dtype=np.float64)
        # Wide rows: forward substitution (block[j, j'] = P(j' - j hits) below the last column),
        # cheaper than a dense LU at this size.
        dist = block[0, :D]
        rev = dist[::-1].copy()  # rev[D - 1 - y] = P(y hits)
        m = np.empty(D)
        v = np.empty(D)
        for k in range(D):
            total = float(inflow[k])
            if k:
                total += float(np.dot(v[:k], rev[D - 1 - k: D - 1]))
            m[k] = total
            v[k] = total * feed[k]
        return m
