"""The general exact solver: the state is each side's units by type.

It handles every rule the odds model knows, including those where casualties are not simply the
next units of a fixed order of loss: an attacking submarine's first strike and a defending
submarine's hits never fall on aircraft, AA hits fall only on aircraft, amphibious ground units
stay when the aircraft retreat, defending submarines withdraw. The grid solver
(:mod:`domain.odds.grid`) is faster where casualties do follow the order.

Round-dependent rules (round 1's AA and support shots, "retreat after round N", sub withdrawal)
are fought round by round; after that a round depends only on the units left, so every state is
visited once, in decreasing order of units left, and a round in which nobody is hit is handled
analytically (the state's mass leaves with the other transitions scaled by 1/(1 - P(stay))).

Casualties are always :meth:`OrderOfLoss.choose` of the order in force, as in the engine
(:mod:`domain.battle.engine`): the attacker's volleys take theirs one after the other, the defender's
simultaneous volleys together. Internally a side is a tuple of counts over its unit types
(hashing those is far cheaper than hashing forces).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from domain.battle.model import BattleSetup, Side
from domain.odds.distributions import FloatArray, binomial, capped, columns_distribution, force_columns
from domain.odds.model import Result, Tally
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss
from domain.rules.units import UnitType

Counts = tuple[int, ...]
#: A battle in progress: attacker units in the battle, defender combatants, attacking aircraft
#: that left an amphibious assault, defending submarines that withdrew.
State = tuple[Counts, Counts, Counts, Counts]
#: An ending: how, attacker survivors (in the battle or gone), defender survivors (or withdrawn).
Ended = tuple[Result, Counts, Counts]
Next = tuple[State | None, Ended | None, float]

_STUCK = 1.0 - 1e-15


@dataclass(frozen=True, slots=True)
class Plan:
    """The round-dependent facts of a battle, read once from its set-up."""

    start_round: int
    #: Rounds fought one by one before the state alone decides a round.
    explicit_until: int

    @classmethod
    def of(cls, setup: BattleSetup, start_round: int) -> Plan:
        """The plan for fighting ``setup`` from ``start_round``."""
        last = start_round
        if setup.retreat is not None and setup.retreat.after_round is not None:
            last = max(last, setup.retreat.after_round)
        if setup.sub_withdrawal_after is not None:
            last = max(last, setup.sub_withdrawal_after)
        return cls(start_round, last)


class _Side:
    """One side's unit types, its order of loss, and memoised conversions and casualties."""

    def __init__(self, force: Force, order: OrderOfLoss) -> None:
        self.types = force.types
        self.order = order
        self.air = tuple(unit.is_air for unit in self.types)
        self.sub = tuple(unit.is_sub for unit in self.types)
        self.start: Counts = tuple(n for _, n in force)
        self.empty: Counts = (0,) * len(self.types)
        self._forces: dict[Counts, Force] = {}
        self._picks: dict[tuple[Counts, int, int, int], Counts] = {}

    def force(self, counts: Counts) -> Force:
        """The force these counts stand for."""
        found = self._forces.get(counts)
        if found is None:
            found = Force.of(zip(self.types, counts, strict=True))
            self._forces[counts] = found
        return found

    def where(self, counts: Counts, mask: tuple[bool, ...]) -> Counts:
        """The counts of the types ``mask`` selects (others zero)."""
        return tuple(n if keep else 0 for n, keep in zip(counts, mask, strict=True))

    def count(self, counts: Counts, mask: tuple[bool, ...]) -> int:
        """How many units of the types ``mask`` selects."""
        return sum(n for n, keep in zip(counts, mask, strict=True) if keep)

    def after(self, counts: Counts, hits: int, *, sub: int = 0, air_only: int = 0) -> Counts:
        """What is left after ``hits`` casualties by the order of loss (OrderOfLoss.choose)."""
        key = (counts, hits, sub, air_only)
        found = self._picks.get(key)
        if found is None:
            lost = self.order.choose(self.force(counts), hits, sub_hits=sub, air_only_hits=air_only)
            found = tuple(n - lost[unit] for unit, n in zip(self.types, counts, strict=True))
            self._picks[key] = found
        return found


def _plus(x: Counts, y: Counts) -> Counts:
    return tuple(a + b for a, b in zip(x, y, strict=True))


class GeneralSolver:
    """Exact odds over states of unit counts; see the module docstring."""

    def __init__(self, setup: BattleSetup, start_round: int) -> None:
        self.setup = setup
        self.plan = Plan.of(setup, start_round)
        self.sea = setup.kind.at_sea
        self._att_order = setup.order_of(Side.ATTACKER)
        self._def_order = setup.order_of(Side.DEFENDER)
        self._amphibious = setup.kind is BattleKind.AMPHIBIOUS or bool(setup.amphibious)
        self._att_fire: dict[Counts, FloatArray] = {}
        self._def_fire: dict[Counts, tuple[FloatArray, FloatArray]] = {}
        self._first_strike: dict[Counts, FloatArray] = {}
        self._steady: dict[State, list[Next]] = {}
        self._endings: dict[Ended, float] = defaultdict(float)

    # -- public -------------------------------------------------------------------------
    def solve(self, attacker: Force, defender: Force, tally: Tally, *, mass: float = 1.0,
              rounds: bool = False, tolerance: float = 1e-12, max_rounds: int = 1000) -> None:
        """Add to ``tally`` the endings of the battle from ``start_round`` with these forces."""
        self.att = _Side(attacker.combatants(), self._att_order)
        self.dfn = _Side(defender.combatants(), self._def_order)
        self._aa_guns = defender[UnitType.AA]
        start: State = (self.att.start, self.dfn.start, self.att.empty, self.dfn.empty)
        alive: dict[State, float] = {start: mass}
        r = self.plan.start_round
        last = self.plan.start_round + max_rounds - 1
        while alive and (r <= self.plan.explicit_until or (rounds and r <= last
                                                          and sum(alive.values()) >= tolerance)):
            alive = self._explicit_round(alive, r, tally)
            r += 1
        if rounds:
            tally.rounds_beyond += sum(alive.values())
        self._settle_steady(alive, r, tally)
        for (result, a, d), p in self._endings.items():
            tally.end(result, self.att.force(a), self.dfn.force(d), p)
        self._endings.clear()

    # -- phases -------------------------------------------------------------------------
    def _explicit_round(self, alive: dict[State, float], r: int, tally: Tally) -> dict[State, float]:
        index = r - self.plan.start_round
        out: dict[State, float] = defaultdict(float)
        explicit = r <= self.plan.explicit_until
        for state, m in alive.items():
            tally.expected_rounds += m
            nexts = self._transitions(state, r) if explicit else self._steady_of(state, r)
            for nxt, ended, p in nexts:
                if ended is not None:
                    self._endings[ended] += m * p
                    tally.ended_in_round(index, m * p)
                elif nxt is not None:
                    out[nxt] += m * p
        return dict(out)

    def _settle_steady(self, alive: dict[State, float], r: int, tally: Tally) -> None:
        """Visit the remaining states once each, most units first (every loss is final)."""
        buckets: dict[int, dict[State, float]] = defaultdict(lambda: defaultdict(float))
        for state, m in alive.items():
            buckets[_size(state)][state] += m
        while buckets:
            layer = buckets.pop(max(buckets))
            for state, m in layer.items():
                nexts = self._steady_of(state, r)
                stay = sum(p for nxt, _, p in nexts if nxt == state)
                if stay >= _STUCK:
                    # Neither side can ever score again: a stalemate nobody resolves.
                    tally.unresolved += m
                    continue
                scale = m / (1.0 - stay)
                tally.expected_rounds += scale
                for nxt, ended, p in nexts:
                    if ended is not None:
                        self._endings[ended] += scale * p
                    elif nxt is not None and nxt != state:
                        buckets[_size(nxt)][nxt] += scale * p

    def _steady_of(self, state: State, r: int) -> list[Next]:
        cached = self._steady.get(state)
        if cached is None:
            cached = self._transitions(state, max(r, self.plan.explicit_until + 1))
            self._steady[state] = cached
        return cached

    # -- one round ----------------------------------------------------------------------
    def _transitions(self, state: State, r: int) -> list[Next]:
        """Every way one round can go from ``state``, merged by resulting state."""
        a, d, gone, withdrew = state
        merged: dict[tuple[State | None, Ended | None], float] = defaultdict(float)
        support = self._support(r)
        for a_k, pk in self._after_aa(a, r):
            for d_s, ps in self._after_first_strike(a_k, d):
                d_out = self._defender_losses(a_k, d_s, support)
                a_out = self._attacker_losses(a_k, d_s)
                for a_end, pa in a_out:
                    for d_end, pd in d_out:
                        key = self._settle(a_end, d_end, gone, withdrew, r)
                        merged[key] += pk * ps * pa * pd
        return [(nxt, ended, p) for (nxt, ended), p in merged.items() if p > 0.0]

    def _after_aa(self, a: Counts, r: int) -> Iterator[tuple[Counts, float]]:
        # Part 13 (1999) step 2: AA guns fire first, one die per attacking aircraft, hitting
        # on 1; AA casualties leave the game and do not fire. Only before round 1, on land.
        air = self.att.count(a, self.att.air)
        if r != 1 or self.sea or not self._aa_guns or not air:
            yield a, 1.0
            return
        for k, p in enumerate(binomial(air, 1)):
            if p > 0.0:
                yield self.att.after(a, k, air_only=k), float(p)

    def _support(self, r: int) -> FloatArray:
        # Part 13 (1999) step 2: battleship support shots (amphibious) before round 1; their
        # casualties go to the casualty area and still fire back in round 1.
        ships = self.setup.support[UnitType.BB]
        if r != 1 or not ships:
            return np.ones(1)
        return binomial(ships, UnitType.BB.profile.attack)

    def _after_first_strike(self, a: Counts, d: Counts) -> Iterator[tuple[Counts, float]]:
        # Part 13 (1999) step 3: attacking submarines fire first in a naval battle; their
        # victims leave without firing. Sub hits never fall on aircraft (rules matrix).
        if not self.sea or not self.att.count(a, self.att.sub) or not any(d):
            yield d, 1.0
            return
        dist = self._first_strike.get(a)
        if dist is None:
            subs = self.att.force(self.att.where(a, self.att.sub))
            dist = columns_distribution(force_columns(subs, True))
            self._first_strike[a] = dist
        targets = sum(d) - self.dfn.count(d, self.dfn.air)
        for s, p in enumerate(capped(dist, targets)):
            if p > 0.0:
                yield self.dfn.after(d, s, sub=s), float(p)

    def _defender_losses(self, a: Counts, d: Counts, support: FloatArray) -> list[tuple[Counts, float]]:
        # Part 13 (1999) step 4: the attacker's columns (subs already fired at sea); extra hits
        # are overkill (Miscellaneous 2).
        dist = self._att_fire.get(a)
        if dist is None:
            firing = self.att.where(a, tuple(not s for s in self.att.sub)) if self.sea else a
            dist = columns_distribution(force_columns(self.att.force(firing), True))
            self._att_fire[a] = dist
        if len(support) > 1:
            dist = np.convolve(dist, support)
        return [(self.dfn.after(d, h), float(p))
                for h, p in enumerate(capped(dist, sum(d))) if p > 0.0]

    def _attacker_losses(self, a: Counts, d: Counts) -> list[tuple[Counts, float]]:
        # Part 13 (1999) step 5: every defending column fires, casualty area included; hits by
        # defending submarines never fall on aircraft (Part 13 example 2, rules matrix).
        fire = self._def_fire.get(d)
        if fire is None:
            subs = self.dfn.force(self.dfn.where(d, self.dfn.sub))
            rest = self.dfn.force(self.dfn.where(d, tuple(not s for s in self.dfn.sub)))
            fire = (columns_distribution(force_columns(subs, False)),
                    columns_distribution(force_columns(rest, False)))
            self._def_fire[d] = fire
        sub_dist, other_dist = fire
        out: dict[Counts, float] = defaultdict(float)
        total = sum(a)
        ground = total - self.att.count(a, self.att.air)
        others = capped(other_dist, total)
        for hs, ps in enumerate(capped(sub_dist, ground)):
            if ps <= 0.0:
                continue
            for ho, po in enumerate(others):
                if po > 0.0:
                    out[self.att.after(a, hs + ho, sub=hs)] += float(ps * po)
        return list(out.items())

    # -- after the round ----------------------------------------------------------------
    def _settle(self, a: Counts, d: Counts, gone: Counts, withdrew: Counts,
                r: int) -> tuple[State | None, Ended | None]:
        """Whether the battle ends after round ``r``, and how (the engine's end of round)."""
        attacking, defending = any(a), any(d)
        if not attacking and not defending:
            return None, (Result.DRAW, gone, withdrew)
        if not attacking:
            # Aircraft that left an amphibious assault do not make its loss a retreat (engine).
            return None, (Result.DEFENDER_WIN, gone, _plus(d, withdrew))
        if not defending:
            return None, (Result.ATTACKER_WIN, _plus(a, gone), withdrew)
        retreat = self.setup.retreat
        if retreat is not None and not any(gone) and retreat.met(r, self.att.force(a)):
            staying = self.att.empty
            if self._amphibious:
                # 2008 "Amphibious Assaults": "the attacker may not retreat any ground units";
                # only the aircraft leave and the ground units fight on.
                staying = self.att.where(a, tuple(not air for air in self.att.air))
            if not any(staying):
                return None, (Result.RETREAT, a, _plus(d, withdrew))
            gone = tuple(x - y for x, y in zip(a, staying, strict=True))
            a = staying
        after = self.setup.sub_withdrawal_after
        if self.sea and after is not None and r >= after and self.dfn.count(d, self.dfn.sub):
            # 2008 Rules Clarifications, SUB WITHDRAWAL: defending subs leave after the named
            # round, to the sea zone the defender names.
            subs = self.dfn.where(d, self.dfn.sub)
            withdrew = _plus(withdrew, subs)
            d = tuple(x - y for x, y in zip(d, subs, strict=True))
            if not any(d):
                return None, (Result.ATTACKER_WIN, _plus(a, gone), withdrew)
        return (a, d, gone, withdrew), None


def _size(state: State) -> int:
    return sum(state[0]) + sum(state[1])
