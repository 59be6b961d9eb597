"""Declaration errors: each turn's combat orders compared with the map (1999 "Sending Errors";
2008 Section II, Combat Declaration Errors), plus the turn-wide findings: battles begun out of
order, retreats not declared in time, declarations changed after dice, and typos.

Only what a map update stated can be checked: an origin or battle territory no ``position``
record named is taken as it was declared.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from operator import attrgetter

from domain.battle.model import Side
from domain.record.board.walk import BoardWalk
from domain.record.game import BattleRecord, Game, allied
from domain.record.treasury import TreasuryWalk, walk_treasury
from domain.review.board_review import on_board
from domain.review.club_procedures import audit_procedures
from domain.review.noncombat_review import audit_noncombat
from domain.review.rolling_errors import Issue
from domain.review.treasury_review import audit_treasury
from domain.review.views import counted, time_text
from domain.rules.board import Board
from domain.rules.editions import Edition
from domain.rules.findings import FindingKind
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.turns import turn_of
from domain.rules.units import UnitType

#: Read once (on Python 3.11 a member read off its class goes through EnumType's slow hook).
_SEA = BattleKind.SEA
_BATTLE_ORDER = FindingKind.BATTLE_ORDER

#: A map update's record number.
_SEQ = attrgetter("seq")


@dataclass
class TurnAudit:
    """Issues per battle (by key) and issues of the turn as a whole."""

    battles: dict[str, list[Issue]] = field(default_factory=lambda: defaultdict(list))
    turn: list[tuple[str, Issue]] = field(default_factory=list)
    #: Battles whose declaration is in error only through another battle's units (for citations).
    #: battle key -> the battle territory whose intent is clear (the battle stands).
    intent_clear: dict[str, str] = field(default_factory=dict)


def audit_declarations(game: Game, edition: Edition, board: Board | None = None, *,
                       walk: BoardWalk | None = None, rolled_walk: BoardWalk | None = None,
                       treasury: TreasuryWalk | None = None) -> TurnAudit:
    """Every declaration error and turn-wide finding of the game.

    With a ``walk``, declarations are checked against the board as the record moved it on
    (:mod:`domain.record.board.walk`); without one, against the last map update only.
    """
    board = board or Board.classic()
    found = TurnAudit()
    by_turn: dict[str, list[BattleRecord]] = {}
    for record in game.battles:
        by_turn.setdefault(record.turn, []).append(record)
    for turn in game.turns:
        records = by_turn.get(turn)
        if records:  # (a turn without battles has no declaration to check)
            audit_turn(game, records, edition, board, walk, found)
    _tech(game, edition, found)
    flagged = _map_updates(game, edition, found)
    if walk is not None:
        _board_checks(walk, rolled_walk or walk, edition, flagged, found)
        found.turn += [(turn, issue) for turn, issue in audit_procedures(game, walk, board)
                       if edition.defines(issue.kind)]
        money = treasury if treasury is not None else walk_treasury(game, walk)
        found.turn += [(turn, issue) for turn, issue in audit_treasury(game, walk, rolled_walk or walk, money)
                       if edition.defines(issue.kind)]
        found.turn += audit_noncombat(game, walk, rolled_walk or walk, edition, money.turn_starts)
    for entry in game.declarations:
        if not entry.effective and edition.defines(FindingKind.DECLARATION_AFTER_DICE):
            found.turn.append((entry.turn, Issue(
                FindingKind.DECLARATION_AFTER_DICE,
                "combat orders changed after dice were rolled: the change is not "
                "valid and the original declaration stands", at=entry.at, effective=False)))
    return found



def audit_turn(game: Game, records: list[BattleRecord], edition: Edition, board: Board,
               walk: BoardWalk | None, found: TurnAudit) -> None:
    """One turn's declaration errors and order of battles (``records``: its battles, in
    declaration order), added to ``found`` (a battle's key names its turn: no other turn's
    findings are touched). It reads those records, the board before their declarations (the
    walk's), the game's last known holdings (where the walk does not know a place) and the
    edition: nothing of another turn."""
    battles = [on_board(record, walk) for record in records]
    _availability(game, battles, edition, found)
    for record in battles:
        _transports(game, record, battles, edition, board, found, walk)
        _defenders(game, record, edition, found, walk)
        for note in record.typos:
            found.battles[record.key].append(Issue(FindingKind.TYPO,
                                                   note, at=record.declared_at, effective=False))
    _order_of_battles(battles, edition, board, found)


def _map_updates(game: Game, edition: Edition, found: TurnAudit) -> set[tuple[int, str, str]]:
    """2008 Section V: a map update that disagrees with the listed non-combat moves.

    Returns (update record number, territory, power) of each line found in error."""
    flagged: set[tuple[int, str, str]] = set()
    if not edition.defines(FindingKind.MAP_DISCREPANCY):
        return flagged
    updates = game.map_updates  # (in record order, as filed)
    for entry in game.noncombat:
        # The first map update after the moves: one bisection, not a scan of the game's updates.
        index = bisect_right(updates, entry.seq, key=_SEQ)
        if index == len(updates):
            continue
        update = updates[index]
        power = turn_of(entry.turn).power
        stated = {(h.territory, h.power): h.units for h in update.holdings}
        for move in entry.moves:
            key = (move.landing or "", power)
            if key in stated and not stated[key].contains(move.units):
                flagged.add((update.seq, key[0], power))
                found.turn.append((entry.turn, Issue(
                    FindingKind.MAP_DISCREPANCY,
                    f"the map update shows {stated[key] or 'nothing'} of {power}'s in "
                    f"{move.landing}, the non-combat move '{move.raw}' puts {move.units} there: the "
                    "non-combat moves take precedence", at=update.at, where=f"{move.landing}/{power}")))
    return flagged


def _board_checks(walk: BoardWalk, rolled: BoardWalk, edition: Edition,
                  flagged: set[tuple[int, str, str]], found: TurnAudit) -> None:
    """Checkpoints against the board as the record moved it on (2008 Section V; Post Combat
    Orders): a map line that disagrees, a territory/IPC count that disagrees.

    A line written from a battle's result as rolled, before its correction, is not in error:
    only what disagrees with the board both as rolled and as corrected is a finding.
    """
    if edition.defines(FindingKind.MAP_DISCREPANCY):
        as_rolled = {(d.seq, d.territory, d.power) for d in rolled.discrepancies}
        for gap in walk.discrepancies:
            key = (gap.seq, gap.territory, gap.power)
            if key in flagged or key not in as_rolled:
                continue
            what = "map update" if gap.kind == "map_update" else "position"
            found.turn.append((gap.turn, Issue(
                FindingKind.MAP_DISCREPANCY,
                f"the {what} shows {gap.stated or 'nothing'} of {gap.power}'s in "
                f"{gap.territory}, the moves and battles recorded leave {gap.board or 'nothing'} there: "
                "the recorded moves take precedence", at=gap.at, where=f"{gap.territory}/{gap.power}")))
    if edition.defines(FindingKind.MAP_COUNT_WRONG):
        # 2008 Post Combat Orders: the attacker gives "a territory and IPC count. Please use units
        # to distinguish between territory count and IPC count, i.e. UK 30/$32". The $ figure is
        # the IPC count: the IPC value of the territories the power holds (the "IPC Count" Magic
        # 84 adds up for the Axis), not the IPCs in its treasury, which the rules do not ask the
        # map update to state (the treasury is checked where a purchase states it). Section VI:
        # "A number can never be a typographical error": a count with its digits transposed is wrong.
        for check in walk.counts:
            stated = check.stated
            if (stated.territories, stated.ipcs) == (check.territories, check.ipcs):
                continue
            found.turn.append((check.turn, Issue(
                FindingKind.MAP_COUNT_WRONG,
                f"count '{stated.written}', the board gives {stated.power} {check.territories}/${check.ipcs} "
                f"({check.territories} territories held, their IPC value ${check.ipcs})", at=check.at,
                where=stated.power)))


#: MB 2nd edition: each weapons-development die costs 5 IPCs.
TECH_DIE_COST = 5


def _tech(game: Game, edition: Edition, found: TurnAudit) -> None:
    """2008 Section IV: tech dice rolled against dice bought, and their cost."""
    if not edition.defines(FindingKind.TECH_DICE_TOO_MANY):
        return
    for entry in game.tech:
        rolled = len(entry.dice)
        if entry.declared is not None and rolled > entry.declared:
            found.turn.append((entry.turn, Issue(
                FindingKind.TECH_DICE_TOO_MANY,
                f"{counted(rolled, 'tech die', 'tech dice')} rolled, {entry.declared} bought: the first "
                f"{entry.declared} count, the rest are ignored, and the rolls that picked developments are "
                "rolled again", at=entry.at)))
        elif entry.declared is not None and rolled < entry.declared:
            found.turn.append((entry.turn, Issue(
                FindingKind.TECH_DICE_TOO_FEW,
                f"{counted(rolled, 'tech die', 'tech dice')} rolled, {entry.declared} bought: the missing "
                f"{counted(entry.declared - rolled, 'die is', 'dice are')} rolled, and the rolls that picked "
                "developments are rolled again", at=entry.at)))
        # The dice bought: "the desired amount purchased" is the declaration, if any; an
        # edition may cost the dice rolled instead (Edition.tech_cost).
        bought = entry.declared if entry.declared is not None and edition.tech_cost == "declared" else rolled
        if entry.ipcs is not None and bought * TECH_DIE_COST > entry.ipcs:
            found.turn.append((entry.turn, Issue(
                FindingKind.TECH_OVERSPENT, f"{counted(bought, 'tech die', 'tech dice')} cost "
                f"{bought * TECH_DIE_COST} IPCs, "
                f"{entry.ipcs} were available: a declaration error, to be re-declared and re-rolled",
                at=entry.at)))


# -- units at their origins ----------------------------------------------------------------------
def _availability(game: Game, battles: list[BattleRecord], edition: Edition, found: TurnAudit) -> None:
    """Declared units not at their origin; one origin's units sent to several battles."""
    drawn: dict[tuple[str, UnitType], list[tuple[BattleRecord, int]]] = defaultdict(list)
    sent = [(record, _per_origin(record)) for record in battles]
    # Units are sent from one origin to several battles only from an origin two battles name:
    # only those origins' units are counted for overcommitment (most origins serve one battle).
    senders: dict[str, int] = {}
    if len(sent) > 1:
        for _, per_origin in sent:
            for origin in per_origin:
                senders[origin] = senders.get(origin, 0) + 1
    for record, per_origin in sent:
        for origin, units in per_origin.items():
            have = record.available.get(origin)
            if have is None:
                continue  # no map update named this origin
            short = units.minus_available(have) if units != have else EMPTY  # (most send the whole stack)
            if short.items:
                # 2008 Section VI: a real territory's name in the wrong place ("E.US instead of
                # W.US") is an error, not a typo; the intent-clear exemption of Section II is for
                # the battle's location, so a wrong origin is always a declaration error.
                found.battles[record.key].append(Issue(
                    FindingKind.UNITS_NOT_AVAILABLE, f"{short} declared from {origin}, which holds "
                    f"{have or 'nothing'} of {record.attacker_power}'s", at=record.declared_at))
            if senders.get(origin, 1) > 1:
                for unit, count in units.items:
                    drawn[(origin, unit)].append((record, count))
    over: list[tuple[str, UnitType, list[BattleRecord]]] = []
    for (origin, unit), uses in drawn.items():
        if len(uses) < 2:
            continue
        held = uses[0][0].available.get(origin, EMPTY)[unit]
        if sum(count for _, count in uses) > held and all(count <= held for _, count in uses):
            over.append((origin, unit, [record for record, _ in uses]))
    for origin, unit, records in over:
        total = sum(m.units[unit] for r in records for m in r.moves if m.origin == origin)
        held = records[0].available.get(origin, EMPTY)[unit]
        if edition.overcommit_scope == "country":
            # 1999: every battle involving the affected units of that country is void.
            power = records[0].attacker_power
            affected = [r for r in battles if r.attacker_power == power and r.attackers[unit]]
        else:
            # 2008: every battle involving the affected units from that territory is void.
            affected = records
        names = ", ".join(r.territory for r in records)
        for record in affected:
            found.battles[record.key].append(Issue(
                FindingKind.OVERCOMMITTED_UNITS,
                f"{total} {unit.value} sent from {origin} to {names}, which holds "
                f"{held}", at=record.declared_at))


def _per_origin(record: BattleRecord) -> dict[str, Force]:
    """Origin -> the units a battle's declaration sends from it."""
    moves = record.moves
    if len(moves) == 1:  # (most battles)
        return {moves[0].origin: moves[0].units}
    found: dict[str, Force] = {}
    for move in moves:
        have = found.get(move.origin)
        found[move.origin] = have + move.units if have is not None else move.units
    return found


# -- transports ----------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _land_move(units: Force) -> tuple[Force, int]:
    """The ground units of a move that transports carry (AA guns and ICs are not moved so), and
    how far all of them move (their slowest unit's movement; 0 when there are none): a pure
    function of a force that recurs all game long, remembered."""
    land = units.where(lambda u: u.is_land and u.is_combatant)
    return land, min([unit.profile.movement for unit, _ in land.items], default=0)


def _transports(game: Game, record: BattleRecord, battles: list[BattleRecord], edition: Edition,
                board: Board, found: TurnAudit, walk: BoardWalk | None = None) -> None:
    """Capacity, transports at hand, the sea-zone clearing battle and the unloading zone."""
    if record.kind is _SEA:
        return
    issues: list[Issue] = []
    for move in record.moves:
        land, movement = _land_move(move.units)
        if not land.items:  # (Force's truth is a Python call: asked of every move)
            continue
        if move.transports == 0 and move.transport_zone is None:
            origin = board.get(move.origin)
            if origin is not None and not origin.sea and move.origin != record.territory \
                    and not _in_reach(board, move.origin, record.territory, movement):
                issues.append(Issue(FindingKind.NOT_ENOUGH_TRANSPORTS,
                                    f"{land} from {move.origin}, out of reach of {record.territory} "
                                    "over land, with no transports", at=record.declared_at))
            continue
        capacity = move.transports
        others = len(land) - land[UnitType.INF]
        # MB 2nd edition: a transport carries 2 INF, or 1 INF and 1 other land unit.
        if len(land) > 2 * capacity or others > capacity:
            issues.append(Issue(FindingKind.NOT_ENOUGH_TRANSPORTS,
                                f"{land} on {capacity} TRN ({move.raw.strip()})",
                                at=record.declared_at))
        zone = move.transport_zone
        in_zone = _units_at(game, walk, record, zone) if zone is not None else None
        if zone is not None and in_zone is not None:
            here = in_zone.get(record.attacker_power, EMPTY)[UnitType.TRN]
            if here < capacity:
                issues.append(Issue(FindingKind.NOT_ENOUGH_TRANSPORTS,
                                    f"{capacity} TRN declared in {zone}, which holds {here}",
                                    at=record.declared_at))
            enemies = [p for p, units in in_zone.items()
                       if not allied(p, record.attacker_power) and units.combatants()]
            clearing = [b for b in battles if b.territory == zone and b.kind is BattleKind.SEA]
            if enemies and not any(b.attackers[UnitType.TRN] for b in clearing):
                issues.append(Issue(FindingKind.TRANSPORTS_NOT_DECLARED,
                                    f"the transports in {zone} are not declared in its sea-zone "
                                    "clearing battle", at=record.declared_at))
        if zone is not None and edition.defines(FindingKind.UNLOADING_ZONE_UNCLEAR) \
                and move.unload_zone is None \
                and not board.adjacent(zone, record.territory):
            choices = _unloading_zones(board, zone, record.territory)
            if len(choices) > 1:
                issues.append(Issue(FindingKind.UNLOADING_ZONE_UNCLEAR,
                                    f"transports from {zone} could unload into "
                                    f"{record.territory} from {', '.join(choices)}; none named",
                                    at=record.declared_at))
    if issues:  # (most battles have none: no list kept for them)
        found.battles[record.key] += issues


def _units_at(game: Game, walk: BoardWalk | None, record: BattleRecord,
              territory: str) -> dict[str, Force] | None:
    """Every power's units in a territory when the battle was declared (None: not known)."""
    state = walk.at_declaration(record) if walk is not None else None
    if state is not None and state.knows(territory):
        return state.holders(territory)
    return game.holdings.get(territory)


@lru_cache(maxsize=8192)
def _in_reach(board: Board, start: str, target: str, steps: int) -> bool:
    """Whether ``target`` is within ``steps`` land moves of ``start``: a pure function of the
    (immutable) board, two places and a movement, which recur all game long (keyed by the
    movement, not the units: a game moves a few thousand forces between far fewer places)."""
    return _over_land(board, start, target, steps)


def _over_land(board: Board, start: str, target: str, steps: int) -> bool:
    """Whether ``target`` is within ``steps`` land moves of ``start`` (control is not checked)."""
    frontier = {start}
    for _ in range(steps):
        frontier |= {t.name for name in frontier for t in board.neighbours(name) if not t.sea}
        if target in frontier:
            return True
    return target in frontier


def _unloading_zones(board: Board, start: str, target: str) -> list[str]:
    """Sea zones next to ``target`` that transports in ``start`` reach in one move (movement 2)."""
    near = {start}
    for _ in range(2):
        near |= {t.name for zone in near for t in board.neighbours(zone) if t.sea}
    return sorted(z for z in near if board.adjacent(z, target))


# -- defenders -----------------------------------------------------------------------------------
def _defenders(game: Game, record: BattleRecord, edition: Edition, found: TurnAudit,
               walk: BoardWalk | None = None) -> None:
    """Listed defending units must be 100% correct (2008 Section II.3)."""
    if record.declared_defenders is None or not record.defenders_known:
        return
    if record.declared_defenders == record.position_defenders:
        return  # listed exactly as the map has them (most battles)
    air = any(u.is_air for u in record.attackers.types)
    # An AA gun need only be listed when aircraft attack; ICs are never combat units.
    def relevant(force: Force) -> Force:
        return force.where(lambda u: u is not UnitType.IC and (u is not UnitType.AA or air))

    declared = relevant(record.declared_defenders)
    actual = relevant(record.position_defenders)
    if declared == actual:
        return
    if not record.position_defenders.combatants():
        elsewhere = _where_defenders_are(game, record, declared, walk)
        if elsewhere is not None:
            # 2008 Section II: "if it is clear from the combat orders where the battle is to
            # occur, and what units are involved, and the units are 100% correct, then no CDE
            # can be called": no finding at all, the battle is fought where the units are.
            found.intent_clear[record.key] = elsewhere
            return
    found.battles[record.key].append(Issue(
        FindingKind.DEFENDERS_MISDECLARED, f"{declared} declared, the map shows {actual or 'none'}",
        at=record.declared_at))


def _where_defenders_are(game: Game, record: BattleRecord, declared: Force,
                         walk: BoardWalk | None = None) -> str | None:
    """The one place where the enemy holds exactly the declared defenders, if there is one."""
    places = []
    state = walk.at_declaration(record) if walk is not None else None
    holdings = game.holdings if state is None else state.known_units()
    for territory, owners in holdings.items():
        enemy = EMPTY
        for owner, units in owners.items():
            if not allied(owner, record.attacker_power):
                enemy = enemy + units
        if enemy.where(lambda u: u is not UnitType.IC) == declared:
            places.append(territory)
    return places[0] if len(places) == 1 else None


# -- order of battles and retreats -------------------------------------------------------------
def _span(record: BattleRecord) -> tuple[datetime, datetime] | None:
    times = [r.at for r in record.rolls if r.at is not None]
    return (min(times), max(times)) if times else None


def _order_of_battles(battles: list[BattleRecord], edition: Edition, board: Board,
                      found: TurnAudit) -> None:
    """2008: one battle is finished before the next begins; retreats declared before it."""
    if len(battles) < 2 or not edition.defines(_BATTLE_ORDER):
        return  # (one battle: none begun before it was finished, no later one its retreat precedes)
    spans = [(s, r) for r in battles if (s := _span(r)) is not None]
    spans.sort(key=lambda pair: pair[0][0])
    last = len(spans) - 1
    for index, ((_, end), record) in enumerate(spans):
        # (Most battles end before the next begins, and retreat nowhere: no call made for them.)
        if index < last and spans[index + 1][0][0] < end:
            _begun_before_finished(spans, index, found)
        if record.retreats:
            _retreat_before_next(spans, index, board, found)


_Spans = list[tuple[tuple[datetime, datetime], BattleRecord]]


def _begun_before_finished(spans: _Spans, index: int, found: TurnAudit) -> None:
    """2008 order of battles: a battle begun before the index-th was finished (the next one
    begins before it ends; the spans are in order of start)."""
    (_start, end), record = spans[index]
    interleaved = [(start, later) for (start, _), later in spans[index + 1:] if start < end]
    if not interleaved:
        return
    first_start, first = interleaved[0]
    if record.kind is BattleKind.AMPHIBIOUS:
        # Its ground units could not retreat: it is finished, and every battle begun
        # after it is re-rolled.
        for later_start, later in [(s, b) for (s, _), b in spans[index + 1:]]:
            found.battles[later.key].append(Issue(
                FindingKind.BATTLE_ORDER, f"begun at {time_text(later_start)} before {record.territory} "
                f"was finished ({time_text(end)}), whose ground units could not retreat: "
                f"{record.territory} is finished and this battle re-rolled", side=Side.ATTACKER,
                at=later_start))
    else:
        # "Once the next battle begins it is assumed that the previous battle has
        # finished and any surviving attacking units are retreating."
        found.battles[record.key].append(Issue(
            FindingKind.BATTLE_ORDER, f"{first.territory} was begun at {time_text(first_start)} before this "
            f"battle was finished: its attackers are taken to have retreated then, and its "
            "rounds rolled later do not count", side=Side.ATTACKER, at=first_start,
            until=first_start))


def _retreat_before_next(spans: _Spans, index: int, board: Board, found: TurnAudit) -> None:
    """2008 Retreats: the index-th battle's retreat declared late, or to an illegal location."""
    record = spans[index][1]
    if record.retreat is None:
        return
    after, to = record.retreat
    next_start = spans[index + 1][0][0] if index + 1 < len(spans) else None
    retreat_at = _retreat_time(record)
    late = next_start is not None and retreat_at is not None and retreat_at > next_start
    target = record.retreats[-1].territory  # resolved when filed
    # 2008 Retreats: a legal location is adjacent "as long as an attacking unit
    # originates from or passes through the territory or sea zone".
    origins = {m.origin for m in record.moves}
    invalid = target is not None and (not board.adjacent(target, record.territory)
                                      or target not in origins)
    if (late or invalid) and index + 1 < len(spans):
        why = (f"the retreat to {to} was declared after {spans[index + 1][1].territory} was rolled"
               if late else f"{to} is not a legal retreat (it must border {record.territory} and "
               "be where an attacking unit came from)")
        found.battles[spans[index + 1][1].key].append(Issue(
            FindingKind.RETREAT_UNDECLARED, f"{record.territory}: {why}; later battles may be voided at the "
            "Minister of Law's discretion", round=after, side=Side.ATTACKER, at=retreat_at))


def _retreat_time(record: BattleRecord) -> datetime | None:
    return record.retreat_at

