"""Rolling errors: each recorded round compared with what should have been rolled.

Round 1 is compared with the battle's correct forces (the declared attackers, the defenders on
the map), later rounds with the record's own previous round less the casualties its dice
should have caused, so one mistake is found once, in the round it was made. The comparison is
per battle-board column and unit type, in dice (Heavy Bombers throw three).

Kinds found here (rules matrix "Rolling errors"): too_few_units, too_many_units, wrong_units,
miscounted_hits, wrong_casualties, aa_too_many, aa_ghost, aa_forgotten, bb_too_many, bb_ghost,
bb_forgotten, pause_skipped, and the dice-server header slips (wrong game, round, turn number,
wrong country).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

import msgspec

from domain.battle.model import Column, Side
from domain.record.game import BattleRecord, RollEntry
from domain.record.recorded_battle import RecordedBattle, RecordedRound
from domain.review.as_rolled import order_in_force, orders_of
from domain.review.dice_counts import SideCount, count_side, dice_as_expected, dice_differences, side_dice
from domain.review.views import BattleView, SideRound, counted
from domain.rules.editions import Edition
from domain.rules.findings import FindingKind
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import UnitType

#: Enum members read once, here: on Python 3.11 reading a member off its class (``Side.ATTACKER``)
#: goes through ``EnumType.__getattr__``'s slow attribute hook, and the review reads these in
#: every round of every battle.
_ATTACKER, _DEFENDER = Side.ATTACKER, Side.DEFENDER
_SEA = BattleKind.SEA
_AA, _BB = UnitType.AA, UnitType.BB
_PAUSE_SKIPPED, _AA_GHOST = FindingKind.PAUSE_SKIPPED, FindingKind.AA_GHOST


@dataclass(frozen=True)
class Issue:
    """A mistake found in the record, before the edition and time limits decide its fate."""

    kind: FindingKind
    detail: str
    round: int | None = None
    side: Side | None = None
    column: Column | None = None
    #: When the mistaken record was made (its roll's or declaration's time).
    at: datetime | None = None
    #: False when applying the remedy cannot change the battle (stated hits wrong, casualties right).
    effective: bool = True
    #: AA or support-shot hits involved (a ghost that missed is ignored).
    hits: int = 0
    #: Battle order: the rounds rolled from this time on do not count (the attacker retreated).
    until: datetime | None = None
    #: (territory, power) of the board record's entry the issue names (an illegal bid
    #: placement): what a ruling applying the remedy takes off the board as corrected.
    place: tuple[str, str] | None = None
    #: What in its turn a turn-wide issue is about (a territory, a power): part of the
    #: finding's identity (views.finding_key), so that a ruling stays on it.
    where: str = ""


def _is_air(unit: UnitType) -> bool:
    return unit.is_air


def _units_of(counts: Counter[tuple[int, UnitType]] | Counter[tuple[int, UnitType | None]],
              unit: UnitType | None, attacking: bool) -> int:
    dice = sum(n for (_, u), n in counts.items() if u is unit)
    per = unit.profile.attack_dice if (unit is not None and attacking) else 1
    return -(-dice // per)


def _column_of(unit: UnitType | None, counts: SideCount) -> Column | None:
    for (column, u) in list(counts.expected) + list(counts.rolled):
        if u is unit:
            return column
    return None


def _names(amounts: dict[UnitType, int] | dict[UnitType | None, int]) -> str:
    return ", ".join(f"{n} {u.value if u is not None else 'unassigned'}" for u, n in amounts.items())


def first_roll(rnd: RecordedRound) -> RollEntry | None:
    """The roll record a round's first line came from."""
    return rnd.rolls[0] if rnd.rolls else None


def _when(rnd: RecordedRound) -> datetime | None:
    roll = first_roll(rnd)
    return roll.at if roll is not None else None


class BattleAudit(msgspec.Struct, frozen=True):
    """A battle's rolling errors, and the forces each recorded round should have started with
    (a Struct: every battle of a review makes one)."""

    issues: list[Issue]
    #: Per recorded round: (attacker firing units, defender units) it should have started with.
    expected_starts: list[tuple[Force, Force]]
    #: The attacker's aircraft the valid AA dice of the record shot down.
    aa_victims: Force = EMPTY


def audit_rolls(record: BattleRecord, recorded: RecordedBattle, as_rolled: BattleView,
                edition: Edition, attackers: Force, defenders: Force) -> BattleAudit:
    """Compare every recorded round with what should have been rolled; see the module doc."""
    issues: list[Issue] = []
    starts: list[tuple[Force, Force]] = []
    aa_victims = EMPTY
    # Support shots are audited only where some were rolled or are due (_audit_support finds
    # nothing in a battle with neither); the pause only under an edition that defines it.
    support = bool(recorded.bb) or _support_due(record)
    pause = edition.defines(_PAUSE_SKIPPED)
    as_wrong_units = edition.casualty_error == "wrong_units"
    at_sea = record.kind is _SEA
    views = as_rolled.rounds
    last = len(views) - 1
    for position, rnd in enumerate(recorded.rounds):
        view = views[position]
        ghost_aa_hits = 0
        if rnd.index == 1:
            aa_issues, aa_victims = _audit_aa(record, recorded, as_rolled, attackers, defenders, rnd)
            if aa_issues:
                issues.extend(aa_issues)
                ghost_aa_hits = sum(i.hits for i in aa_issues if i.kind == _AA_GHOST)
            start = (attackers.minus_available(aa_victims), defenders)
        else:
            start = _carry(rnd, as_rolled, position, starts[-1])
        starts.append(start)
        if support:
            issues.extend(_audit_support(record, recorded, rnd.index, _when(rnd)))
        issues.extend(_audit_units(record, attackers, rnd, as_rolled, position, start, ghost_aa_hits,
                                   as_wrong_units, at_sea))
        attacker, defender = view.attacker, view.defender
        if attacker.stated_hits != attacker.hits or defender.stated_hits != defender.hits:
            issues.extend(_stated_hits(rnd, as_rolled, position, _when(rnd)))
        # A pause follows losses, where a defender could call for one (most rounds have none).
        if pause and position < last and view.defender_losses.items and _may_pause(view.defender.units,
                                                                                    at_sea):
            issues.extend(_pause(record, recorded, as_rolled, position, _when(rnd)))
    issues.extend(_headers(record, recorded))
    return BattleAudit(issues, starts, aa_victims)


def _audit_units(record: BattleRecord, attackers: Force, rnd: RecordedRound, as_rolled: BattleView,
                 position: int, start: tuple[Force, Force], ghost_aa_hits: int, as_wrong_units: bool,
                 at_sea: bool) -> list[Issue]:
    """One round's dice per side against the units that should have rolled them (``at_sea``: a
    battle at sea, where submarines strike first; ``record`` and ``attackers`` give the
    defender's order of loss, asked only where a die struck first)."""
    k = rnd.index
    expected_attacker, expected_defender = start
    # Part 13 step 3: first-strike victims leave without firing, so the defender's line
    # types only the units that fire.
    strike_hits = 0
    if rnd.first_strike is not None or at_sea:  # (only then can a die strike first)
        for entry in as_rolled.rounds[position].attacker.dice:
            if entry.first_strike:
                strike_hits += sum(entry.hits)
    firing_defender = expected_defender
    if strike_hits:
        defender_order = order_in_force(record, orders_of(record), _DEFENDER, attackers)
        victims = defender_order.choose(expected_defender.combatants(), strike_hits, sub_hits=strike_hits)
        firing_defender = expected_defender.minus_available(victims)
    if rnd.attacker is not None and rnd.defender is not None and dice_as_expected(
            rnd, _ATTACKER, expected_attacker) and dice_as_expected(rnd, _DEFENDER, firing_defender):
        return []  # both sides rolled every die their units should (most rounds): nothing to find
    found: list[Issue] = []
    when = _when(rnd)
    for side, expected in ((_ATTACKER, expected_attacker), (_DEFENDER, firing_defender)):
        line = rnd.attacker if side is _ATTACKER else rnd.defender
        if line is None and not (side is _ATTACKER and rnd.first_strike is not None):
            # 2008 Section III, Too few units: "If the defender forces are rolled first by
            # mistake they will stand as valid; simply roll for the missing attacking units."
            if side is _ATTACKER and rnd.defender is not None and expected.combatants():
                counts = count_side(expected, [], True)
                found.extend(_first_round(counts, side, when, 0) if k == 1 else
                             _later_round(counts, side, k, when, as_rolled, position, None, as_wrong_units))
            continue
        if dice_as_expected(rnd, side, expected):
            continue  # every die rolled for a unit that should roll it: nothing to find
        _, dice = side_dice(rnd, side, expected)
        counts = count_side(expected, dice, side is _ATTACKER)
        if k == 1:
            found.extend(_first_round(counts, side, when, ghost_aa_hits))
        else:
            found.extend(_later_round(counts, side, k, when, as_rolled, position, _typed_units(rnd, side),
                                      as_wrong_units))
    return found


def _typed_units(rnd: RecordedRound, side: Side) -> Force | None:
    """The combat units a round's line(s) typed for a side; None when no line typed any."""
    lines = [rnd.attacker, rnd.first_strike] if side is _ATTACKER else [rnd.defender]
    typed = [Force.of(line.units) for line in lines if line is not None and line.units is not None]
    if not typed:
        return None
    total = EMPTY
    for units in typed:
        total = total + units
    return total.combatants()


def _carry(rnd: RecordedRound, as_rolled: BattleView, position: int,
           previous_start: tuple[Force, Force]) -> tuple[Force, Force]:
    """The units round ``rnd`` should start with: the previous round's units less the
    casualties its dice should have caused.

    A unit the record rolled in error in the previous round (too many, wrong type) is not
    carried: when this round types the correct units, they are right and raise no finding.
    Otherwise the record's own previous units are carried, so one mistake is found once, in
    the round it was made.
    """
    previous = as_rolled.rounds[position - 1]
    attacker, defender = previous.attacker, previous.defender
    if previous_start[0] == attacker.units and previous_start[1] == defender.units:
        # The record's units were right on both sides (most rounds): both ways agree.
        return (attacker.units.minus_available(previous.attacker_losses),
                defender.units.minus_available(previous.defender_losses))
    carried: list[Force] = []
    for side, seen, losses, correct in (
            (_ATTACKER, previous.attacker, previous.attacker_losses, previous_start[0]),
            (_DEFENDER, previous.defender, previous.defender_losses, previous_start[1])):
        on_record = seen.units.minus_available(losses)
        if correct == seen.units:
            carried.append(on_record)  # the record's units were right: both ways agree
            continue
        as_corrected = correct.minus_available(losses)
        typed = _typed_units(rnd, side)
        carried.append(as_corrected if typed is not None and typed == as_corrected.combatants()
                       and typed != on_record.combatants() else on_record)
    return carried[0], carried[1]


def _first_round(counts: SideCount, side: Side, when: datetime | None, ghost_aa_hits: int) -> list[Issue]:
    """Round 1 against the correct forces: too few, too many or wrong units per column."""
    found: list[Issue] = []
    extra, missing = dice_differences(counts)
    if ghost_aa_hits and side is _ATTACKER:
        # Aircraft a ghost AA gun "shot down" are missing from round 1: the aa_ghost remedy
        # rolls for them (2008 Section III, AA Guns; 1999 Part 14 AA guns 1a).
        for plane in [u for u in missing if u.is_air]:
            taken = min(missing[plane], ghost_aa_hits)
            missing[plane] -= taken
            ghost_aa_hits -= taken
        missing = {u: n for u, n in missing.items() if n}
    wrong = {u: n for u, n in extra.items() if u is None or not any(
        key[1] is u for key in counts.expected)}
    for unit, n in extra.items():
        column = _column_of(unit, counts)
        if unit in wrong and missing:
            name = unit.value if unit else "?"
            found.append(Issue(FindingKind.WRONG_UNITS,
                               f"{counted(n, name + ' die', name + ' dice')} rolled for units that "
                               f"are not there; missing: {_names(missing)}", 1, side, column, when))
        else:
            found.append(Issue(FindingKind.TOO_MANY_UNITS, f"{_dice_units(unit, n, side)} rolled too many "
                               f"(should be {_units_of(counts.expected, unit, side is _ATTACKER)})",
                               1, side, column, when))
    if missing and not (wrong and any(i.kind == FindingKind.WRONG_UNITS for i in found)):
        for unit, n in missing.items():
            found.append(Issue(FindingKind.TOO_FEW_UNITS, f"{_dice_units(unit, n, side)} not rolled", 1, side,
                               _column_of(unit, counts), when))
    return found


def _later_round(counts: SideCount, side: Side, k: int, when: datetime | None, as_rolled: BattleView,
                 position: int, typed: Force | None, as_wrong_units: bool = False) -> list[Issue]:
    """Round k>1 against the record's round k-1 less its correct casualties.

    A round that lists a side with more or fewer units than round k-1 left is round k-1's
    casualties gone wrong, in both directions: "the correct number of casualties will be taken
    and the rest of the battle would be re-rolled starting with the next round" (1999 Part 14,
    GM Errors). Only dice missing for units the round does list are too few units in round k.
    """
    found: list[Issue] = []
    extra, missing = dice_differences(counts)
    if not extra and not missing:
        return found  # every die rolled for a unit that should roll it (most rounds)
    previous = as_rolled.rounds[position - 1]
    previous_side = previous.attacker if side is _ATTACKER else previous.defender
    other = previous.defender if side is _ATTACKER else previous.attacker
    attacking = side is _ATTACKER
    should_have_died: dict[UnitType, int] = {}
    for unit, n in extra.items():
        units_now = _units_of(counts.rolled, unit, attacking)
        if unit is None or units_now > previous_side.units[unit]:
            # More units than the side had: they were entered, not left alive.
            found.append(Issue(FindingKind.TOO_MANY_UNITS,
                               f"{_dice_units(unit, n, side)} rolled too many", k, side,
                               _column_of(unit, counts), when))
        else:
            should_have_died[unit] = -(-n // (unit.profile.attack_dice if attacking else 1))
    # Units the round does not list at all were removed in round k-1; dice missing for units
    # it lists are dice not rolled in round k.
    expected_units = _expected_units(counts, attacking)
    removed = {u: min(n, expected_units.get(u, 0) - (typed[u] if typed is not None else 0))
               for u, n in missing.items()} if typed is not None else {}
    removed = {u: n for u, n in removed.items() if n > 0}
    per = {u: (u.profile.attack_dice if attacking else 1) for u in missing}
    not_rolled = {u: n - removed.get(u, 0) * per[u] for u, n in missing.items()
                  if n > removed.get(u, 0) * per[u]}
    claimed = _claimed(other)
    if (removed or should_have_died) and claimed is not None and claimed != other.hits:
        return found  # the miscount is reported on the line that stated it (_stated_hits)
    if (should_have_died or removed) and as_wrong_units:
        # An edition's reading (Edition.casualty_error): round k is corrected in place as wrong
        # units, "its roll will be ignored and the correct unit will be rolled for" (2008
        # Section III, Wrong Units), and the battle re-rolled from round k+1.
        parts = ([f"{_names(should_have_died)} listed though lost in round {k - 1}"] if should_have_died
                 else []) + ([f"{_names(removed)} left out though alive"] if removed else [])
        found.append(Issue(FindingKind.WRONG_UNITS,
                           f"round {k} lists {typed if typed is not None else 'other units'}: "
                           + " and ".join(parts) + "; their dice are corrected in this round",
                           k, side, None, when))
    elif should_have_died or removed:
        parts = []
        if should_have_died:
            parts.append(f"{_names(should_have_died)} should have been lost")
        if removed:
            parts.append(f"{_names(removed)} removed that should have survived")
        found.append(Issue(FindingKind.WRONG_CASUALTIES, f"round {k - 1}: " + " and ".join(parts)
                           + f" (round {k} lists {typed if typed is not None else 'other units'})",
                           k - 1, side, None, when))
    for unit, n in not_rolled.items():
        found.append(Issue(FindingKind.TOO_FEW_UNITS, f"{_dice_units(unit, n, side)} not rolled",
                           k, side, _column_of(unit, counts), when))
    return found


def _expected_units(counts: SideCount, attacking: bool) -> dict[UnitType, int]:
    """The units behind the expected dice (Heavy Bombers throw three dice attacking)."""
    units: dict[UnitType, int] = {}
    for unit in {u for _, u in counts.expected}:
        units[unit] = _units_of(counts.expected, unit, attacking)
    return units


def _dice_units(unit: UnitType | None, dice: int, side: Side) -> str:
    if unit is None:
        return f"{dice} unassigned dice"
    per = unit.profile.attack_dice if side is _ATTACKER else 1
    count = -(-dice // per)
    return f"{count} {unit.value}" + (f" ({dice} dice)" if per > 1 else "")


def _claimed(side: SideRound, *, strike_line: bool = False) -> int | None:
    """The hits the record claimed for a side: its stated total (every line of the side,
    support shots and a first strike on their own lines included, each counted once), else
    its main line's hit marks, if it marked any, plus the hits of its other lines."""
    if side.stated_hits is not None:
        return side.stated_hits
    own = [e for e in side.dice if e.column not in ("AA", "BB") and not (strike_line and e.first_strike)]
    marks = [m for entry in own for m in (entry.marked or ())]
    if not any(marks):
        return None
    others = sum(sum(e.hits) for e in side.dice if e.column != "AA" and e not in own)
    return sum(marks) + others


def _stated_hits(rnd: RecordedRound, as_rolled: BattleView, position: int,
                 when: datetime | None) -> list[Issue]:
    """Hits stated (or marked) that differ from what the dice say (audit_rolls skips a round
    whose every side stated what its dice show: most rounds)."""
    view = as_rolled.rounds[position]
    attacker, defender = view.attacker, view.defender
    found: list[Issue] = []
    following = as_rolled.rounds[position + 1] if position + 1 < len(as_rolled.rounds) else None
    for side, seen in ((_ATTACKER, attacker), (_DEFENDER, defender)):
        # The claim covers the side's every line, as the hits do (AA fire is not the
        # defender's round hits).
        claimed = seen.stated_hits
        if claimed is None:
            claimed = _claimed(seen, strike_line=rnd.first_strike is not None)
        if claimed is None or claimed == seen.hits:
            continue
        regular = seen.hits
        # It matters only if the next round's units follow the miscount.
        effective = True
        if following is not None:
            target = following.defender if side is _ATTACKER else following.attacker
            start = view.defender if side is _ATTACKER else view.attacker
            losses = view.defender_losses if side is _ATTACKER else view.attacker_losses
            effective = target.typed_units is not None and target.units != start.units.minus_available(losses)
        found.append(Issue(FindingKind.MISCOUNTED_HITS,
                           f"{counted(claimed, 'hit')} stated, the dice show {regular}",
                           rnd.index, side, None, when, effective=effective))
    return found


def _audit_aa(record: BattleRecord, recorded: RecordedBattle, as_rolled: BattleView, attackers: Force,
              defenders: Force, rnd: RecordedRound) -> tuple[list[Issue], Force]:
    """AA fire before round 1 (``rnd``) against the AA guns and aircraft really there."""
    gun = record.kind is not _SEA and bool(defenders[_AA])
    first = as_rolled.rounds[0] if as_rolled.rounds else None
    victims = first.aa_losses if first is not None else EMPTY
    if not gun and recorded.aa is None:
        return [], victims  # no gun and no AA dice (most battles): nothing to compare
    when = _when(rnd)
    # The aircraft count only where a gun fires (the messages that name it need one).
    aircraft = len(attackers.where(_is_air)) if gun else 0
    expected = aircraft
    dice = recorded.aa.dice.values if recorded.aa is not None else ()
    hits = sum(1 for v in dice if v == 1)
    found: list[Issue] = []
    if dice and not gun:
        found.append(Issue(FindingKind.AA_GHOST,
                           f"AA rolled {counted(len(dice), 'die', 'dice')} ({counted(hits, 'hit')}) where no "
                           "AA gun is present",
                           1, _DEFENDER, "AA", when, hits=hits))
        victims = EMPTY
    elif len(dice) > expected:
        found.append(Issue(FindingKind.AA_TOO_MANY,
                           f"{counted(len(dice), 'AA die', 'AA dice')} for {aircraft} attacking aircraft",
                           1, _DEFENDER, "AA", when, hits=hits))
    elif len(dice) < expected:
        found.append(Issue(FindingKind.AA_FORGOTTEN, f"{counted(expected - len(dice), 'AA shot')} not rolled "
                           f"({aircraft} attacking aircraft)", 1, _DEFENDER, "AA", when))
    return found, victims


def _support_due(record: BattleRecord) -> bool:
    """Whether a battleship is due to give support shots (``record.support`` is not empty),
    read without adding up the support force."""
    if record.kind is _SEA:
        return False
    for move in record.moves:
        for unit, _ in move.units.items:
            if unit is _BB:
                return True
    return False


def _audit_support(record: BattleRecord, recorded: RecordedBattle, k: int,
                   when: datetime | None) -> list[Issue]:
    """Battleship support shots: one per supporting BB, before round 1 only."""
    if k > 1 and not recorded.bb:
        return []  # no support shot recorded, none due after round 1
    shots = [v for line in recorded.support_shots(k) for v in line.dice.values]
    hits = sum(1 for v in shots if v <= 4)
    expected = len(record.support) if k == 1 else 0
    if k > 1 and shots:
        return [Issue(FindingKind.BB_GHOST,
                      f"support shot left on in round {k} ({counted(hits, 'hit')})", k, _ATTACKER,
                      "BB", when, hits=hits)]
    if shots and not expected:
        return [Issue(FindingKind.BB_GHOST, f"{counted(len(shots), 'support shot')} with no battleship "
                      f"({counted(hits, 'hit')})", k, _ATTACKER, "BB", when, hits=hits)]
    if len(shots) > expected:
        return [Issue(FindingKind.BB_TOO_MANY, f"{counted(len(shots), 'support shot')} for "
                      f"{counted(expected, 'battleship')}", k, _ATTACKER, "BB", when, hits=hits)]
    if len(shots) < expected:
        return [Issue(FindingKind.BB_FORGOTTEN,
                      f"{counted(expected - len(shots), 'support shot')} not rolled", k, _ATTACKER,
                      "BB", when)]
    return []


def _pause(record: BattleRecord, recorded: RecordedBattle, as_rolled: BattleView, position: int,
           when: datetime | None) -> list[Issue]:
    """2008 OOL exceptions: the attacker rolled on where the defender had to be asked
    (audit_rolls asks only after a round that is not the last and took defenders, where
    :func:`_may_pause` finds one could be due)."""
    view = as_rolled.rounds[position]
    survivors = view.defender.units.minus_available(view.defender_losses)
    if not survivors.combatants():
        return []
    if record.kind is _SEA:
        must = bool(survivors[UnitType.SUB] or survivors[UnitType.SSUB]
                    or (survivors[UnitType.AC] and any(u.is_air for u in view.defender.units.types)))
    else:
        must = not _BOMBERS.isdisjoint([unit for unit, _ in survivors.items])
    if not must:
        return []
    following = recorded.rounds[position + 1]
    before = following.rolls[0].seq if following.rolls else None
    if record.chosen(view.round, _DEFENDER, before=before):
        return []  # the defender was asked
    return [Issue(FindingKind.PAUSE_SKIPPED, f"round {view.round + 1} rolled without asking the defender for "
                  f"casualties ({survivors} could survive)", view.round, _DEFENDER, None, when)]


#: Bombers, developed or not (a surviving bomber is a choice the defender must be asked for).
_BOMBERS = frozenset(unit for unit in UnitType if unit.base is UnitType.BMB)
#: The defenders a pause can be due for, by whether the battle is at sea (see _pause).
_PAUSERS = {True: frozenset({UnitType.SUB, UnitType.SSUB, UnitType.AC}), False: _BOMBERS}


@lru_cache(maxsize=8192)
def _may_pause(defenders: Force, at_sea: bool) -> bool:
    """Whether a pause can be due after a round these defenders started: only if a survivor
    is a submarine or a carrier (at sea) or a bomber (on land), and survivors are some of
    them. Most rounds have none, and audit_rolls does not call :func:`_pause` for them (a pure
    function of forces that recur all game long)."""
    return not _PAUSERS[at_sea].isdisjoint([unit for unit, _ in defenders.items])


def _headers(record: BattleRecord, recorded: RecordedBattle) -> list[Issue]:
    """Dice-server header fields typed wrong: round numbers, turn number, country."""
    found: list[Issue] = []
    game_round = record.turn_value.round
    for rnd in recorded.rounds:
        if rnd.typed_number is not None and rnd.typed_number != rnd.index:
            found.append(Issue(FindingKind.WRONG_ROUND_NUMBER,
                               f"round typed as {rnd.typed_number}, rolled as round "
                               f"{rnd.index} (the time stamp orders the rounds)", rnd.index, None, None,
                               _when(rnd), effective=False))
    seen: set[int] = set()
    attacker = record.attacker_power
    for roll in record.rolls:
        number, country = roll.turn_number, roll.country
        if (number is None or number == game_round) and (country is None or _power(country) == attacker):
            continue  # a header typed right (most rolls; a roll filed twice is the same record)
        if roll.seq in seen:
            continue
        seen.add(roll.seq)
        if number is not None and number != game_round:
            found.append(Issue(FindingKind.WRONG_TURN_NUMBER,
                               f"turn number typed as {number}, the turn is "
                               f"{record.turn}", None, None, None, roll.at, effective=False))
        if country is not None and _power(country) != attacker:
            found.append(Issue(FindingKind.WRONG_COUNTRY,
                               f"country typed as {country!r}, the attacker is "
                               f"{attacker}", None, None, None, roll.at, effective=False))
    return found


_POWERS = {"ussr": "USSR", "russia": "USSR", "germany": "Germany", "uk": "UK", "britain": "UK",
           "united kingdom": "UK", "japan": "Japan", "usa": "USA", "us": "USA"}


def _power(text: str) -> str:
    return _POWERS.get(text.strip().lower(), text.strip())
