"""What an error cost: the odds from the error round as rolled against as corrected, and how
lucky each round's dice were.

The odds are exact (:mod:`domain.odds.exact`) under the orders of loss and retreat conditions in
force; luck is the mid-rank percentile of the hits a side scored given the dice it threw
(50: an average volley; near 0 cold dice, near 100 hot).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from domain.battle.columns import hit_value
from domain.battle.model import BattleSetup
from domain.odds.distributions import expected_hits, luck_counts
from domain.review.views import BattleStatus, BattleView, Chances, DiceStatus, Impact, RoundView, SideRound
from domain.rules.forces import Force
from domain.rules.units import UnitType


def chances(setup: BattleSetup, round_number: int, attacker: Force, defender: Force) -> Chances:
    """The exact chances of ``setup`` resumed at ``round_number`` with these forces."""
    # Imported here: the solvers need numpy (~0.1-0.25 s), and the stored report's readers
    # (replay GAME, the timeline's first paint) import this module for the luck figures only.
    from domain.odds.exact import odds_from_round

    found = odds_from_round(setup, round_number, attacker, defender)
    return Chances(round(found.attacker_win, 12), round(found.defender_win, 12), round(found.draw, 12),
                   round(found.retreat, 12))


def has_impact(rolled: BattleView, corrected: BattleView) -> bool:
    """Whether :func:`impact` has odds to give (a corrected battle that was rolled)."""
    return corrected.status == BattleStatus.CORRECTED and bool(rolled.rounds)


def impact(setup: BattleSetup, rolled: BattleView, corrected: BattleView) -> Impact | None:
    """Odds from the first round that differs between the two timelines (None if none does)."""
    if not has_impact(rolled, corrected):
        return None
    first = 1
    for before, after in zip(rolled.rounds, corrected.rounds, strict=False):
        if before != after:
            first = before.round
            break
    else:
        first = min(len(rolled.rounds), len(corrected.rounds)) or 1
    return Impact(first, _chances(setup, rolled, first), _chances(setup, corrected, first))


def _chances(setup: BattleSetup, view: BattleView, number: int) -> Chances:
    if len(view.rounds) < number:
        return chances(setup, 1, view.attacker_start, view.defender_start)
    start = view.rounds[number - 1]
    attacker, defender = start.attacker.units, start.defender.units
    if number == 1:
        # Round 1 includes the AA fire: the aircraft it shot down were there before it.
        attacker = attacker + start.aa_losses
        defender = _with_the_gun_that_fired(defender, start)
    return chances(setup, number, attacker, defender)


def _with_the_gun_that_fired(defender: Force, start: RoundView) -> Force:
    """The defender with an AA gun exactly when this timeline's AA dice count.

    Like with like: a record types "D(2 INF, 3 ARM, 2 FTR)" under an "AA rolls" line, so the
    gun that fired is not in its units; as corrected it is. Both timelines get the gun their
    own dice show (a ghost gun's, a forgotten gun's), so they differ only by the error.
    """
    fired = any(entry.column == "AA" and entry.status != DiceStatus.VOIDED for entry in start.defender.dice)
    has_gun = bool(defender[UnitType.AA])
    if fired and not has_gun:
        return defender + Force.of({UnitType.AA: 1})
    if has_gun and not fired:
        return defender.where(lambda unit: unit is not UnitType.AA)
    return defender


def side_luck(side: SideRound) -> float | None:
    """The percentile of the hits a side scored in a round, given the dice that count."""
    columns: dict[int, int] = {}
    hits = 0
    for entry in side.dice:
        column = entry.column
        if column == "AA" or entry.status == _VOIDED:
            continue
        value = column if isinstance(column, int) else hit_value(column)
        columns[value] = columns.get(value, 0) + len(entry.values)
        hits += entry.hits.count(True)
    if not columns:
        return None
    return _percentile(tuple(columns.items()), hits)


#: Read once: a member read through its class costs a descriptor call, every die of a report
#: (compared with ``==``: a view may be made with the status as its plain string).
_VOIDED = DiceStatus.VOIDED


@lru_cache(maxsize=4096)
def _percentile(columns: tuple[tuple[int, int], ...], hits: int) -> float:
    """:func:`luck_percentile` to a tenth, rounded exactly (half to even, as ``round`` rounds
    a float), once per volley shape: a pure function of a few small numbers (a big game
    throws the same few volleys thousands of times)."""
    twice_rank, total = luck_counts(columns, hits)
    return round(Fraction(1000 * twice_rank, 2 * total)) / 10


def side_expected(side: SideRound) -> float:
    """The hits a side's counting dice score on average."""
    columns = [(hit_value(e.column), len(e.values)) for e in side.dice
               if e.status != DiceStatus.VOIDED and e.column != "AA"]
    return expected_hits(columns)


def round_luck(view: RoundView) -> dict[str, float | None]:
    """Per side, the luck of a round's dice."""
    return {"attacker": side_luck(view.attacker), "defender": side_luck(view.defender)}
