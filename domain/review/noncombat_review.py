"""Non-combat moves checked: 2008 Section VII's "non-combat errors" (its time limit "will apply to
CDEs, rolling errors, and non-combat errors only"). Parts 13 and 14 (1999) have no rule for
non-combat moves, so the kinds are defined under 2008 only (domain.rules.editions).

Each check reads only what the record states: a ``noncombat`` record's moves (origin, units,
destination, and the spaces passed through when the move gives them, ``via``), the declarations'
moves and their ``land`` landings, and the board as the record moved it on (domain.record.board:
what stood where, who held each territory at the start of the turn and when the move was made,
which units took part in the turn's combat). A move is in error only where it is wrong on the
board both as rolled and as corrected (a move written before a correction changed a battle's
result is not in error):

- ``moved_after_combat``: units other than aircraft that took part in the turn's combat (the
  survivors where they stand, a retreat, support ships, transports that unloaded) move again;
- ``noncombat_into_enemy``: land units moved into, or routed through, a land territory an enemy
  holds or a neutral one (entering those is a combat move: 2008 Abbreviations, WI);
- ``aircraft_landing``: an aircraft flies more than its range, its combat move counted (fighters
  4 spaces, 2008 Rules Clarifications, Fighters; bombers 6, Classic rulebook), or lands where it
  may not: a land territory not friendly at the start of the turn (one captured this turn too), a
  sea zone with no friendly carrier, a bomber at sea (Classic rulebook, Non-Combat Move). Without
  a route the flight is the shortest one the board allows, so only a move no route could make is
  flagged; a power whose tech dice showed a 6 may have Long Range Aircraft (the record does not
  say which development a 6 gave): its range is not checked;
- ``aa_gun_moved``: an AA gun moved out of a territory captured this turn (2008 Rules
  Clarifications, AA Guns), or declared into a combat attack (Rocket Technology);
- ``capacity_exceeded``: land units routed through a sea zone beyond what the power's transports
  there carry (those that took part in combat excepted), fighters landed in a sea zone beyond two
  a friendly carrier.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

from domain.record.board.history import BoardAt, BoardWalk, Flight
from domain.record.entries import NonCombatEntry, allied
from domain.record.events import Move
from domain.record.game import Game
from domain.record.treasury import turn_marks, turn_starts
from domain.review.rolling_errors import Issue
from domain.rules.board import NEUTRAL
from domain.rules.editions import NONCOMBAT_ERRORS, Edition
from domain.rules.findings import FindingKind as K
from domain.rules.force_parts import air_part, capped_part
from domain.rules.forces import AIR, EMPTY, Force
from domain.rules.turns import turn_of
from domain.rules.units import UnitType

# A finding's detail names the rule it breaks; where the kind's citation (domain/rules/editions.py)
# quotes that rule and no other, the detail does not quote it again (a report line, a letter and
# the findings panel would carry it twice).
_COMBAT_MOVES = "2008 Rules Clarifications, Combat/Non-Combat Movement"
_UNLOADED = ("2008 Rules Clarifications, Transport Unloading: \"Once a transport unloads ANY of its "
             "cargo its turn is completed\"")
_WALK_IN = "2008 Abbreviations, WI"
_FIGHTERS = "2008 Rules Clarifications, Fighters"
_BOMBERS = "Classic rulebook (MB 2nd edition): a bomber moves 6 spaces a turn"
_LANDING = ("Classic rulebook (MB 2nd edition), Non-Combat Move: aircraft land in a territory friendly at "
            "the start of the turn, a fighter on a friendly carrier")
# (An AA gun's citation quotes two rules: the detail quotes the one it breaks.)
_AA_CAPTURED = ("2008 Rules Clarifications, AA Guns: \"You may move an AA Gun into but not out of a newly "
                "captured territory\"")
_AA_COMBAT = ("2008 Rules Clarifications, Rocket Technology: \"A rocket may not accompany any units in a "
              "combat attack\"")
_TRANSPORT = "Classic rulebook (MB 2nd edition): a transport carries 2 INF, or 1 INF and 1 other land unit"
_CARRIER = "Classic rulebook (MB 2nd edition): a carrier carries 2 fighters"

#: Read once (on Python 3.11 a member read off its class goes through EnumType's slow hook):
#: every battle's every move is asked.
_AA = UnitType.AA

#: What names a finding alike on the board as rolled and as corrected: (record number, move
#: index, kind, place).
_Key = tuple[int, int, str, str]
_Found = list[tuple[_Key, str, Issue]]


def audit_noncombat(game: Game, walk: BoardWalk, rolled: BoardWalk, edition: Edition,
                    starts: Mapping[str, int] | None = None) -> list[tuple[str, Issue]]:
    """Every non-combat error of the game under ``edition`` (none where it defines none), each
    with its turn: wrong on the board as corrected (``walk``) and as rolled (``rolled``).
    ``starts`` gives each turn's first record number (the treasury's ``turn_starts``), if
    the caller has it."""
    if not NONCOMBAT_ERRORS & edition.kinds:
        return []
    if starts is None:
        starts = turn_starts(turn_marks(game))
    corrected = _checked(game, walk, starts)
    if not corrected:
        return []
    keys = None if rolled is walk else {key for key, _, _ in _checked(game, rolled, starts)}
    return [(turn, issue) for key, turn, issue in corrected
            if edition.defines(issue.kind) and (keys is None or key in keys)]


def _checked(game: Game, walk: BoardWalk, starts: Mapping[str, int]) -> _Found:
    found: _Found = []
    for entry in game.noncombat:
        if entry.turn and entry.turn not in walk.void:
            found += _Moves(game, walk, entry, starts.get(entry.turn, entry.seq)).check()
    for record in game.battles:
        if record.turn in walk.void:
            continue
        for move in record.moves:
            if move.units[_AA]:
                detail = (f"an AA gun declared from {move.origin} into the attack on {record.territory}: "
                          f"an AA gun never attacks ({_AA_COMBAT})")
                found.append(((record.declared_seq, 0, K.AA_GUN_MOVED, move.origin), record.turn,
                              Issue(K.AA_GUN_MOVED, detail, at=record.declared_at)))
    for turn, flights in walk.flights.items():
        if turn not in walk.void:
            found += _declared_landings(game, walk, turn, flights, starts.get(turn, 0))
    return found


class _Moves:
    """One non-combat record's moves, checked on the board before it (and after it, for what
    the moves put in a sea zone)."""

    def __init__(self, game: Game, walk: BoardWalk, entry: NonCombatEntry, start: int) -> None:
        self.entry, self.walk, self.turn = entry, walk, entry.turn
        self.power: str = turn_of(entry.turn).power
        self.before, self.after = walk.before(entry.seq), walk.before(entry.seq + 1)
        self.start = walk.before(start)
        self.fought = walk.fought.get(entry.turn, {})
        self.flights = walk.flights.get(entry.turn, [])
        self.long_range = _long_range(game, self.power, entry.seq)
        self.found: _Found = []
        #: origin -> what the record's earlier moves took out of it.
        self.taken: dict[str, Force] = {}
        #: sea zone -> (the first move loading there, the land units loading there).
        self.loading: dict[str, tuple[int, Force]] = {}
        #: sea zone -> the first move landing fighters there.
        self.decks: dict[str, int] = {}

    def check(self) -> _Found:
        """Every move's findings, then the capacities the moves together use."""
        for index, move in enumerate(self.entry.moves):
            taken, route = self.taken.get(move.origin, EMPTY), self.entry.route(index)
            self._after_combat(index, move, taken)
            self._into_enemy(index, move, route)
            self._aircraft(index, move, taken, route)
            self._aa_gun(index, move)
            ground = move.units.where(_ground)
            zone = next((place for place in route if self.walk.board.territory(place).sea), None)
            if ground.items and zone is not None:
                first, cargo = self.loading.get(zone, (index, EMPTY))
                self.loading[zone] = (first, cargo + ground)
            self.taken[move.origin] = taken + move.units
        self._transports()
        self._carriers()
        return self.found

    def _add(self, index: int, kind: K, place: str, detail: str) -> None:
        issue = Issue(kind, detail, at=self.entry.at)
        self.found.append(((self.entry.seq, index, kind, place), self.turn, issue))

    def _after_combat(self, index: int, move: Move, taken: Force) -> None:
        moved = move.units.where(_not_air)
        fought = self.fought.get(move.origin)
        if not moved.items or fought is None or not self.before.knows(move.origin):
            return
        # The units that did not fight move first; only what they cannot cover fought.
        free = self.before.of(move.origin, self.power).minus_available(fought)
        earlier = taken.where(_not_air)
        flagged = capped_part((earlier + moved).minus_available(free), fought).minus_available(
            capped_part(earlier.minus_available(free), fought))
        if not flagged.items:
            return
        why = _COMBAT_MOVES + (f"; {_UNLOADED}" if flagged[UnitType.TRN] else "")
        self._add(index, K.MOVED_AFTER_COMBAT, move.origin,
                  f"'{move.raw}': {flagged} of it took part in {self.turn}'s combat ({fought} of "
                  f"{self.power}'s stand in {move.origin} after it) and moved again in non-combat ({why})")

    def _into_enemy(self, index: int, move: Move, route: tuple[str, ...]) -> None:
        ground = move.units.where(_ground)
        if not ground.items:
            return
        for place in (*route, move.landing):
            if place is None or self.walk.board.territory(place).sea or not self.before.knows(place):
                continue
            holder = self.before.control_of(place)
            if _friendly(holder, self.power):
                continue
            where = "to" if place == move.landing else "through"
            self._add(index, K.NONCOMBAT_INTO_ENEMY, place, f"'{move.raw}': {ground} moved in non-combat "
                      f"{where} {place}, {_held(holder)} ({_WALK_IN})")

    def _aircraft(self, index: int, move: Move, taken: Force, route: tuple[str, ...]) -> None:
        air = air_part(move.units)
        if not air.items or move.landing is None:
            return
        # Aircraft not at the origin fought in its battle this turn: the walk put them back
        # where they came from until this move lands them (domain.record.board.walker).
        here = air_part(self.before.of(move.origin, self.power)).minus_available(air_part(taken))
        late = air.minus_available(here)
        flight = _closest(self.walk, self.flights, move.origin, late) if late.items else None
        spaces = _path(self.walk, (move.origin, *route, move.landing))
        if not self.long_range:
            for unit, _ in air.items:
                combat = self.walk.board.spaces(flight.origin, flight.battle) if flight and late[unit] else 0
                fault = _range_fault(unit, combat, spaces, flight if combat else None)
                if fault:
                    self._add(index, K.AIRCRAFT_LANDING, f"{move.landing} {unit.value}",
                              f"'{move.raw}': {fault}")
        fault = _landing_fault(air, move.landing, self.power, self.turn, self.start, self.after)
        if fault:
            self._add(index, K.AIRCRAFT_LANDING, move.landing, f"'{move.raw}': {fault}")
        elif self.walk.board.territory(move.landing).sea and air.where(_fighter).items:
            self.decks.setdefault(move.landing, index)

    def _aa_gun(self, index: int, move: Move) -> None:
        if not move.units[UnitType.AA] or not self.start.knows(move.origin):
            return
        holder = self.start.control_of(move.origin)
        if _friendly(holder, self.power):
            return
        self._add(index, K.AA_GUN_MOVED, move.origin,
                  f"'{move.raw}': an AA gun moved out of {move.origin}, captured in {self.turn} "
                  f"({_held(holder)} at the start of the turn; {_AA_CAPTURED})")

    def _transports(self) -> None:
        for zone, (index, cargo) in self.loading.items():
            if not self.before.knows(zone):
                continue
            # A transport may move into the zone in these same moves and load there: the most
            # the zone holds before or after them counts; those that fought this turn do not.
            ships = max(self.before.of(zone, self.power)[UnitType.TRN],
                        self.after.of(zone, self.power)[UnitType.TRN])
            ships -= min(ships, self.fought.get(zone, EMPTY)[UnitType.TRN])
            others = len(cargo) - cargo[UnitType.INF]
            if len(cargo) > 2 * ships or others > ships:
                self._add(index, K.CAPACITY_EXCEEDED, zone,
                          f"{cargo} routed through {zone} in {self.turn}'s non-combat moves, where "
                          f"{self.power} has {ships} transport(s) free to carry them ({_TRANSPORT})")

    def _carriers(self) -> None:
        for zone, index in self.decks.items():
            friendly = [units for power, units in self.after.holders(zone).items()
                        if allied(power, self.power)]
            fighters = sum(len(units.where(_fighter)) for units in friendly)
            carriers = sum(units[UnitType.AC] for units in friendly)
            if fighters > 2 * carriers:
                self._add(index, K.CAPACITY_EXCEEDED, zone,
                          f"{fighters} friendly fighters in {zone} after {self.turn}'s non-combat moves, on "
                          f"{carriers} carrier(s) ({_CARRIER})")


def _declared_landings(game: Game, walk: BoardWalk, turn: str, flights: Sequence[Flight],
                       start: int) -> _Found:
    """The landings a declaration states (``land X``) for aircraft that survived their battle."""
    found: _Found = []
    power: str = turn_of(turn).power
    for flight in flights:
        if flight.landing is None:
            continue
        key = f"{flight.origin} > {flight.landing}"
        detail = f"{flight.units} from {flight.origin} to {flight.battle}, landing in {flight.landing}"
        faults = []
        if not _long_range(game, power, flight.seq):
            combat = walk.board.spaces(flight.origin, flight.battle)
            back = walk.board.spaces(flight.battle, flight.landing)
            faults = [_range_fault(unit, combat, back, flight) for unit, _ in flight.units.items]
        faults.append(_landing_fault(flight.units, flight.landing, power, turn, walk.before(start),
                                     walk.before(flight.seq + 1)))
        found += [((flight.seq, 0, K.AIRCRAFT_LANDING, f"{key} {number}"), turn,
                   Issue(K.AIRCRAFT_LANDING, f"{detail}: {fault}", at=flight.at))
                  for number, fault in enumerate(faults) if fault]
    return found


def _range_fault(unit: UnitType, combat: int, spaces: int, flight: Flight | None) -> str:
    """Why a flight of ``combat`` + ``spaces`` spaces is beyond the unit's range ("" if it is not)."""
    reach = unit.profile.movement
    if combat + spaces <= reach:
        return ""
    flown = (f"{combat} space(s) from {flight.origin} to its battle in {flight.battle}, then {spaces}"
             if flight is not None and combat else f"{spaces} space(s)")
    rule = _FIGHTERS if unit.base is UnitType.FTR else _BOMBERS
    return f"a {unit.value} flies {flown} at the least: more than its {reach} ({rule})"


def _landing_fault(air: Force, place: str, power: str, turn: str, start: BoardAt, now: BoardAt) -> str:
    """Why aircraft may not land in ``place`` ("" when they may): ``start`` is the board at the
    start of the turn, ``now`` after the landing."""
    board = now.walk.board
    if board.territory(place).sea:
        if air.where(_bomber).items:
            return f"a bomber cannot land at sea ({_LANDING})"
        carriers = sum(units[UnitType.AC] for holder, units in now.holders(place).items()
                       if allied(holder, power))
        return "" if carriers else f"no friendly carrier in {place} to land on ({_LANDING})"
    if not start.knows(place):
        return ""
    holder = start.control_of(place)
    if _friendly(holder, power):
        return ""
    taken = now.control_of(place)
    why = "captured this turn" if _friendly(taken, power) else _held(taken)
    return f"{place} was not friendly at the start of {turn} ({_held(holder)}; {why}): {_LANDING}"


def _closest(walk: BoardWalk, flights: Iterable[Flight], battle: str, late: Force) -> Flight | None:
    """Of the aircraft that fought in ``battle`` with no landing declared, the flight with the
    shortest combat move (the least the record lets us count)."""
    found = [f for f in flights if f.battle == battle and f.landing is None
             and any(f.units[unit] for unit, _ in late.items)]
    return min(found, key=lambda f: walk.board.spaces(f.origin, f.battle), default=None)


def _path(walk: BoardWalk, points: Sequence[str]) -> int:
    """The fewest spaces a flight through ``points`` in order takes."""
    return sum(walk.board.spaces(a, b) for a, b in pairwise(points))


def _long_range(game: Game, power: str, seq: int) -> bool:
    """Whether the power may have Long Range Aircraft by record ``seq``: a 6 on its tech dice
    gives a development, and the record does not say which."""
    return any(6 in entry.dice for entry in game.tech
               if entry.seq < seq and turn_of(entry.turn).power == power)


def _friendly(holder: str | None, power: str) -> bool:
    return holder is not None and holder != NEUTRAL and allied(holder, power)


def _held(holder: str | None) -> str:
    return "a neutral territory" if holder is None or holder == NEUTRAL else f"held by {holder}"


def _not_air(unit: UnitType) -> bool:
    return unit not in AIR


def _ground(unit: UnitType) -> bool:
    return unit.is_land and unit is not UnitType.IC


def _fighter(unit: UnitType) -> bool:
    return unit.base is UnitType.FTR


def _bomber(unit: UnitType) -> bool:
    return unit.base is UnitType.BMB
