"""The walker of the board: one pass over a game's records, each step one method.

:func:`domain.record.board.walk.walk_board` builds the steps (domain.record.board.steps) and
drives a :class:`Walker` over them; what each step does to the board is here. The rules each step
follows are stated in domain.record.board.walk's docstring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from domain.battle.model import Outcome, Winner
from domain.record.board.history import BoardWalk, CountCheck, Discrepancy, Entry, Flight
from domain.record.board.outcomes import BattleResult, bid_drop_key, void_turns
from domain.record.board.start import BoardState
from domain.record.entries import BattleRecord, BoardNote, allied
from domain.record.events import Holding, Move
from domain.rules.board import NEUTRAL, Board
from domain.rules.force_parts import (
    air_part,
    battleships,
    capped_part,
    captured_part,
    land_part,
    sea_part,
)
from domain.rules.forces import AIR, EMPTY, Force, capped, only
from domain.rules.turns import Power, turn_of
from domain.rules.units import AXIS, UnitType

if TYPE_CHECKING:
    from domain.record.game import Game


#: Read once (on Python 3.11 a member read off its class goes through EnumType's slow hook):
#: every battle the walk resolves asks.
_ATTACKER_WON = Winner.ATTACKER
_USA = Power.USA  # (asked at every turn's end)


class Walker:
    """One pass over the records (kept small: each step is one method)."""

    def __init__(self, game: Game, board: Board, state: BoardState,
                 outcomes: Mapping[str, BattleResult], *, from_setup: bool) -> None:
        self.game, self.board, self.state, self.outcomes = game, board, state, outcomes
        # The state's parts, read at every step (one attribute look-up, not two).
        self.units, self.control, self.known = state.units, state.control, state.known
        #: The territories the record being walked changed, in the order it changed them (an
        #: ordered set): logged when the walk moves on (see flush).
        self.dirty: dict[str, None] = {}
        #: Turns void under 2008 Section VII: their moves are undone (see VOID_TURN).
        self.void = void_turns(outcomes)
        self.from_setup = from_setup
        self.discrepancies: list[Discrepancy] = []
        self.counts: list[CountCheck] = []
        self.round_ends: list[tuple[str, datetime | None, int]] = []
        self.history: dict[str, list[Entry]] = {}
        # In board order, not the set's (its order changes from process to process, and the
        # stored review's rows are compared by their digests).
        self.known_since: dict[str, int] = dict.fromkeys(
            (place.name for place in board if place.name in state.known), 0)
        for territory, here in state.units.items():
            self.history[territory] = [(0, dict(here), state.control.get(territory))]
        self.seq = 0  # the record being walked (the board before it ends a turn)
        self.started = False  # a turn has begun: later positions are checkpoints
        self.turn: str | None = None
        self.turn_at: datetime | None = None
        #: Whether the current turn's map update was recorded (its turn is over).
        self.updated = False
        #: Whether non-combat moves, placements or a map update were listed since the last
        #: position (then a position is a checkpoint, else the record of what they did).
        self.listed = False
        #: (position record, territory, power) -> the units the board had when a position
        #: replaced them; ``rolled`` is the walk as rolled, when this one is as corrected.
        self.adopted: dict[tuple[int, str, str], Force] = {}
        self.rolled: BoardWalk | None = None
        self.bid_seq: int | None = None
        #: (power, battle territory) -> where aircraft without a stated landing were put back
        self.unlanded: dict[tuple[str, str], list[tuple[str, Force]]] = {}
        #: (record, land territory, new holder) at every change of control, in record order.
        self.control_log: list[tuple[int, str, str]] = []
        #: turn -> territory -> units (not aircraft) that took part in its combat and stand there.
        self.fought: dict[str, dict[str, Force]] = {}
        #: turn -> the aircraft that survived its battles, with their combat moves.
        self.flights: dict[str, list[Flight]] = {}
        #: territory -> whether it is a sea zone (read for every holding: one look-up).
        self.sea = {t.name: t.sea for t in board}
        #: The land territories' names (read for every holding: one look-up).
        self.land = frozenset(t.name for t in board if not t.sea)
        #: territory -> its original owner (read at every capture).
        self.owners = {t.name: t.owner for t in board}
        self.powers = frozenset(board.powers)
        #: power -> its capital's name (read at every liberation).
        self.capitals: dict[str, str] = {}
        for place in board:
            if place.capital:
                self.capitals.setdefault(place.owner, place.name)

    def result(self) -> BoardWalk:
        return BoardWalk(self.board, self.history, self.known_since, self.discrepancies, self.counts,
                         self.round_ends, self.from_setup, self.adopted, self.bid_seq,
                         frozenset(self.void), control_log=self.control_log, fought=self.fought,
                         flights=self.flights)

    # -- turns ------------------------------------------------------------------------------------
    def enter_turn(self, turn: str, at: datetime | None) -> None:
        if turn and turn != self.turn:
            self.end_turn(turn, at)
            self.turn, self.updated = turn, False
        self.turn_at = at

    def end_turn(self, next_turn: str | None, at: datetime | None) -> None:
        del next_turn
        if self.turn is not None and turn_of(self.turn).power is _USA:
            self.round_ends.append((self.turn, self.turn_at or at, self.seq))

    def declare_step(self, record: BattleRecord) -> None:
        """A battle's declaration: its turn begins (if not yet), its attackers leave."""
        turn = record.turn
        if turn and turn != self.turn:  # enter_turn written out (asked of every battle)
            self.end_turn(turn, record.declared_at)
            self.turn, self.updated = turn, False
        self.turn_at = record.declared_at
        self.started = True
        self.declare(record)

    # -- changing a territory ---------------------------------------------------------------------
    def _own(self, seq: int, territory: str) -> dict[str, Force]:
        """The territory's units, to change in place for record ``seq`` (the record being walked):
        the territory is logged when the walk moves on from the record (:meth:`flush`)."""
        del seq  # (the record being walked: flush logs it)
        self.dirty[territory] = None
        here = self.units.get(territory)
        if here is None:
            here = self.units[territory] = {}
        return here

    def flush(self) -> None:
        """Log every territory the record being walked changed, as the record leaves it: one
        history entry per record (its units copied once, however many changes the record made:
        an entry is never changed again), with its holder then."""
        seq, get, holder, history = self.seq, self.units.__getitem__, self.control.get, self.history
        if seq:
            for territory in self.dirty:
                entry = (seq, get(territory).copy(), holder(territory))
                entries = history.get(territory)
                if entries is None:
                    history[territory] = [entry]
                else:
                    entries.append(entry)
        else:  # (a record numbered 0 restates the start: it replaces the start's entry)
            for territory in self.dirty:
                entry = (seq, get(territory).copy(), holder(territory))
                entries = history.get(territory)
                if entries is None:
                    history[territory] = [entry]
                elif entries[-1][0] == seq:
                    entries[-1] = entry
                else:
                    entries.append(entry)
        self.dirty.clear()

    def _set(self, seq: int, territory: str, power: str, units: Force) -> None:
        """Set one power's units in a territory for record ``seq`` and log the territory."""
        here = self._own(seq, territory)
        if units.items:
            here[power] = units
        else:
            here.pop(power, None)

    def _log(self, seq: int, territory: str) -> None:
        """Note the territory as it is after record ``seq`` (one entry per record)."""
        del seq
        self.dirty[territory] = None
        if territory not in self.units:
            self.units[territory] = {}  # (what flush copies: every territory logged has a dict)

    def _know(self, seq: int, territory: str) -> None:
        if territory not in self.known:
            self.known.add(territory)
            self.known_since[territory] = seq

    def _add(self, seq: int, territory: str, power: str, units: Force) -> None:
        # (``.items``: a Force's truth is a Python call, and the walk asks it at every step.)
        if units.items and territory in self.known:
            self.dirty[territory] = None  # _own written out (asked at every move)
            here = self.units.get(territory)
            if here is None:
                self.units[territory] = {power: units}
                return
            have = here.get(power)
            here[power] = have + units if have is not None else units

    def _take(self, seq: int, territory: str, power: str, units: Force) -> None:
        if units.items and territory in self.known:
            self.dirty[territory] = None  # _own written out (asked at every move)
            here = self.units.get(territory)
            if here is None:
                here = self.units[territory] = {}
            have = here.get(power)
            # (Most moves take a whole stack: nothing is left, no subtraction made.)
            left = have.minus_available(units) if have is not None and have != units else EMPTY
            if left.items:
                here[power] = left
            else:
                here.pop(power, None)

    def _control(self, seq: int, territory: str, power: str) -> None:
        sea = self.sea.get(territory)
        if (self._is_sea(territory) if sea is None else sea) or self.control.get(territory) == power:
            return
        self.control[territory] = power
        self.control_log.append((seq, territory, power))
        self._log(seq, territory)

    # -- records ----------------------------------------------------------------------------------
    def note(self, note: BoardNote) -> None:
        if note.turn:
            self.enter_turn(note.turn, note.at)
            if note.turn in self.void and note.kind in ("purchase", "placement", "map_update"):
                return  # 2008 Section VII: the turn is void and must be re-done
        if note.kind == "position":
            self.position(note)
        elif note.kind == "map_update":
            self.map_update(note)
        elif note.kind == "purchase":
            power = turn_of(note.turn).power
            self.state.pending[power] = self.state.pending.get(power, EMPTY) + note.units
        elif note.kind == "placement":
            self.placement(note)
        elif note.kind == "bid":
            self.bid(note)

    def position(self, note: BoardNote) -> None:
        if self.started and self.listed:
            self.checkpoint(note, note.holdings, "position")
            self.listed = False
            return
        seq, adopted, dirty, land = note.seq, self.adopted, self.dirty, self.land
        written = self.rolled.adopted if self.rolled is not None else None
        units_of, known, history, control = self.units, self.known, self.history, self.control
        for entry in note.holdings:
            # Before the first turn a position states the start; after turns whose non-combat
            # moves and placements the record does not list, it is the only record of them: it
            # replaces what it names (on the board as corrected, only what it changed on the
            # board as rolled, which it was written from).
            territory, power, units = entry.territory, entry.power, entry.units
            here = units_of.get(territory)
            have = here.get(power, EMPTY) if here else EMPTY
            adopted[(seq, territory, power)] = have
            if written is not None:
                written_on = written.get((seq, territory, power))
                if written_on is not None and written_on != have and territory in known:
                    units = have.minus_available(written_on.minus_available(units)) + \
                        units.minus_available(written_on)
            if territory not in known:
                self._know(seq, territory)
            if units != have or (territory not in history and territory not in dirty):
                # (A holding that restates the board logs nothing: the territory's last entry
                # already reads so.) The territory is changed for this record (_own written out).
                dirty[territory] = None
                if here is None:
                    here = units_of[territory] = {}
                if units.items:
                    here[power] = units
                else:
                    here.pop(power, None)
            if entry.units.items:
                if territory in land:
                    holder = control.get(territory)
                    if holder != power and (holder is None or holder == NEUTRAL or not here
                                            or (held := here.get(holder)) is None or not held.items):
                        self._control(seq, territory, power)
                else:
                    self._is_sea(territory)  # a sea zone (a name the board does not know raises)

    def _is_sea(self, territory: str) -> bool:
        sea = self.sea.get(territory)
        # A name the board does not know raises as before (Board.territory names it).
        return self.board.territory(territory).sea if sea is None else sea

    def checkpoint(self, note: BoardNote, holdings: Iterable[Holding], kind: str) -> None:
        for entry in holdings:
            territory = entry.territory
            if territory not in self.known:
                # Nothing the record moved is known there: the checkpoint tells us.
                self._know(note.seq, territory)
                self._set(note.seq, territory, entry.power, entry.units)
                continue
            have = self.state.of(territory, entry.power)
            if have != entry.units:
                self.discrepancies.append(Discrepancy(note.seq, note.at, note.turn or self.turn or "",
                                                      territory, entry.power, entry.units, have, kind))

    def map_update(self, note: BoardNote) -> None:
        self.updated = self.listed = True
        self.checkpoint(note, note.holdings, "map_update")
        if note.count is not None and self.from_setup:
            held = [t for t, holder in self.control.items() if holder == note.count.power]
            territories, ipcs = len(held), sum(self.board.territory(t).ipc for t in held)
            self.counts.append(CountCheck(note.seq, note.at, note.turn, note.count, territories, ipcs))

    def placement(self, note: BoardNote) -> None:
        self.listed = True
        power = turn_of(note.turn).power
        for entry in note.placed:
            self._add(note.seq, entry.territory, power, entry.units)
            left = self.state.pending.get(power, EMPTY)
            self.state.pending[power] = left.minus_available(entry.units)

    def bid(self, note: BoardNote) -> None:
        self.bid_seq = note.seq
        for entry in note.holdings:
            key = bid_drop_key(entry.territory, entry.power)
            if key in self.outcomes:
                continue  # ruled off the board (see BID_DROPPED)
            self._add(note.seq, entry.territory, entry.power, entry.units)
        for entry in note.removed:
            self._take(note.seq, entry.territory, entry.power, entry.units)
        for power, extra in note.ipcs:
            self.state.treasury[power] = self.state.treasury.get(power, 0) + extra

    def noncombat(self, entry: object) -> None:
        moves: tuple[Move, ...] = getattr(entry, "moves", ())
        seq: int = getattr(entry, "seq", 0)
        turn: str = getattr(entry, "turn", "")
        self.enter_turn(turn, getattr(entry, "at", None))
        if turn in self.void:
            return  # 2008 Section VII: the turn is void and must be re-done
        self.listed = True
        power = turn_of(turn).power if turn else ""
        for move in moves:
            here = self.state.of(move.origin, power)
            short = move.units.minus_available(here)
            self._take(seq, move.origin, power, move.units)
            if short:
                # Aircraft that fought from here were put back where they came from: land them.
                self._land_late(seq, power, move.origin, short)
            if move.landing:
                self._add(seq, move.landing, power, move.units)

    def _land_late(self, seq: int, power: str, battle: str, short: Force) -> None:
        key = (power, battle)
        put = self.unlanded.get(key, [])
        for index, (where, units) in enumerate(put):
            lift = capped(units, short)
            if lift:
                self._take(seq, where, power, lift)
                short = short.minus_available(lift)
                put[index] = (where, units.minus_available(lift))

    # -- battles ----------------------------------------------------------------------------------
    def declare(self, record: BattleRecord) -> None:
        power, seq = record.attacker_power, record.declared_seq
        for move in record.moves:
            self._take(seq, move.origin, power, move.units)
            if move.transports and move.transport_zone and move.unload_zone:
                lift = Force.of({UnitType.TRN: move.transports})
                self._take(seq, move.transport_zone, power, lift)
                self._add(seq, move.unload_zone, power, lift)

    def resolve(self, record: BattleRecord) -> None:
        key = record.key  # (a property that formats a string: read once)
        outcome = self.outcomes.get(key)
        # Told None: void or not fought ("no portion of the results may stand", 2008 Section
        # II): the attackers stay home even where nobody defends (no walk-in).
        void = outcome is None and key in self.outcomes
        if isinstance(outcome, str):  # PENDING
            if record.rolls:
                self._in_battle(record)
                return
            outcome = None
        territory = record.territory
        here = self.units.get(territory)
        axis = record.attacker_power in AXIS  # allied() written out: asked of every power there
        enemies: dict[str, Force] = {}
        if here:
            for holder, units in here.items():
                if (holder in AXIS) is not axis:
                    enemies[holder] = units
        if outcome is None or outcome.winner is None:
            walk_in = not void and not record.rolls and not any(u.combatants() for u in enemies.values())
            if not walk_in:
                self._back_home(record)  # not fought (or not finished): the units stay home
                return
            outcome = Outcome(_ATTACKER_WON, record.attackers, EMPTY)
        self._support_ships(record)
        self._unloaded(record)
        if outcome.winner is _ATTACKER_WON and not outcome.retreated:
            self._occupy(record, outcome, enemies)
        else:
            self._defended(record, outcome, enemies)
            if outcome.retreated and record.retreat is not None:
                self._retreat(record, outcome)
        if outcome.defender_withdrew.items and enemies:
            self._withdraw(record, outcome, enemies)
        self._land_aircraft(record, outcome.attacker_left)

    def _in_battle(self, record: BattleRecord) -> None:
        """A battle awaiting dice: its attackers stand in the battle, beside the defenders (the
        holder unchanged), until it is resolved; support ships in the zone they fired from."""
        self._support_ships(record)
        self._unloaded(record)
        land = record.kind != "sea"
        for move in record.moves:
            units = move.units.where(_not_battleship) if land else move.units
            self._add(record.fought_seq, record.territory, record.attacker_power, units)
            self._engaged(record, record.territory, units)

    def _engaged(self, record: BattleRecord, territory: str, units: Force) -> None:
        """Note units of the turn's power, other than aircraft, that took part in its combat and
        stand in ``territory``: they may not move in non-combat (2008 Rules Clarifications,
        Combat/Non-Combat Movement: "With the exception of air units (which land during
        non-combat), no units may engage in both combat and non-combat during the same turn")."""
        units = _not_air_part(units)
        if units.items:
            here = self.fought.setdefault(record.turn, {})
            have = here.get(territory)
            here[territory] = have + units if have is not None else units

    def _unloaded(self, record: BattleRecord) -> None:
        """Transports that carried a fought battle's units are done for the turn (2008 Rules
        Clarifications, Transport Unloading: "Once a transport unloads ANY of its cargo its turn
        is completed")."""
        for move in record.moves:
            if move.transports and move.transport_zone:
                # (They unload where they are when no other zone is named: see declare.)
                zone = move.unload_zone or move.transport_zone
                self._engaged(record, zone, Force(((UnitType.TRN, move.transports),)))

    def _back_home(self, record: BattleRecord) -> None:
        for move in record.moves:
            self._add(record.fought_seq, move.origin, record.attacker_power, move.units)

    def _support_ships(self, record: BattleRecord) -> None:
        if record.kind == "sea":
            return
        for move in record.moves:
            ships = battleships(move.units)
            if ships:
                where = move.unload_zone or move.transport_zone or move.origin
                fired = Force(((UnitType.BB, ships),))
                self._add(record.fought_seq, where, record.attacker_power, fired)
                self._engaged(record, where, fired)

    def _occupy(self, record: BattleRecord, outcome: Outcome, enemies: dict[str, Force]) -> None:
        seq, territory, power = record.fought_seq, record.territory, record.attacker_power
        if territory not in self.known:
            self._know(seq, territory)
        sea = record.kind == "sea"
        survivors = (sea_part if sea else land_part)(outcome.attacker_left)
        captured = EMPTY
        for units in enemies.values():
            part = captured_part(units)
            if part.items:
                captured = captured + part
        # 2008 Rules Clarifications, AA Guns: a captured gun is the captor's; liberated, the
        # original owner's. An IC goes with the territory.
        holder = power if sea else self._liberator(territory, power)
        if enemies or survivors.items or (captured.items and not sea):
            # One change of the territory: the enemies go, the survivors and what was captured
            # come (in that order, as one power at a time would).
            here = self._own(seq, territory)
            for enemy in enemies:
                here.pop(enemy, None)
            if survivors.items:
                have = here.get(power)
                here[power] = have + survivors if have is not None else survivors
                self._engaged(record, territory, survivors)
            if captured.items and not sea:
                have = here.get(holder)
                here[holder] = have + captured if have is not None else captured
        if not sea:
            self._control(seq, territory, holder)

    def _liberator(self, territory: str, power: str) -> str:
        """Who controls a territory a power takes: its original owner if liberated (the
        owner is an ally whose capital its side holds, or the territory is that capital),
        else the power. 2008 Rules Clarifications, Placement of New Units: "if you liberate
        their capital ... it has now reverted back to your Ally's control"."""
        owner = self.owners.get(territory) or self.board.territory(territory).owner
        if owner == power or (owner in AXIS) is not (power in AXIS) or owner not in self.powers:
            return power
        capital = self.capitals.get(owner) or self.board.capital_of(owner).name
        if capital == territory:
            return owner
        holder = self.control.get(capital, owner)
        return owner if allied(holder, owner) else power

    def _defended(self, record: BattleRecord, outcome: Outcome, enemies: dict[str, Force]) -> None:
        withdrew = outcome.defender_withdrew
        zone = _withdrawal_zone(record) if withdrew.items else None
        # Withdrawn subs the defender has not sent anywhere yet stay in the zone until he does.
        left = outcome.defender_left + (withdrew if zone is None else EMPTY)
        for enemy, units in enemies.items():
            keep = capped_part(units.combatants(), left)
            left = left.minus_available(keep)
            self._set(record.fought_seq, record.territory, enemy, captured_part(units) + keep)

    def _withdraw(self, record: BattleRecord, outcome: Outcome, enemies: dict[str, Force]) -> None:
        """2008 Rules Clarifications, Sub Withdrawal: withdrawn subs go where the defender said."""
        zone = _withdrawal_zone(record) if outcome.defender_withdrew else None
        withdrew = outcome.defender_withdrew
        for enemy, units in enemies.items():
            if zone is None or not withdrew:
                return
            gone = capped(units.where(lambda u: u.is_sub), withdrew)
            withdrew = withdrew.minus_available(gone)
            self._add(record.fought_seq, zone, enemy, gone)

    def _retreat(self, record: BattleRecord, outcome: Outcome) -> None:
        assert record.retreat is not None
        # The destination was resolved when the retreat was filed (None: it names no territory).
        to = record.retreats[-1].territory
        if to is None:
            return
        units = (outcome.attacker_retreated or outcome.attacker_left).where(lambda u: not u.is_air)
        self._add(record.fought_seq, to, record.attacker_power, units)
        self._engaged(record, to, units)

    def _land_aircraft(self, record: BattleRecord, left: Force) -> None:
        """Surviving aircraft land where the move says, else go back to their origin until a
        non-combat move lands them (2008 Rules Clarifications, Fighters)."""
        air = air_part(left)
        if not air.items:
            return
        power = record.attacker_power
        for move in record.moves:
            lift = capped_part(move.units, air)  # air holds aircraft only
            if not lift.items:
                continue
            air = air.minus_available(lift)
            where = move.landing or move.origin
            self._add(record.fought_seq, where, power, lift)
            flight = Flight(record.territory, move.origin, lift, move.landing, record.fought_seq,
                            record.declared_at)
            self.flights.setdefault(record.turn, []).append(flight)
            if move.landing is None:
                key = (power, record.territory)
                self.unlanded.setdefault(key, []).append((where, lift))


def _withdrawal_zone(record: BattleRecord) -> str | None:
    """Where the defender's special orders withdraw his subs (the last such order), if anywhere."""
    for entry in reversed(record.orders):
        if entry.side == "defender":
            # Resolved when the orders were filed (domain.record.game): the review reads no name.
            return entry.withdraw_territory
    return None


def _not_battleship(unit: UnitType) -> bool:
    return unit is not UnitType.BB


#: Every unit type but aircraft.
_NOT_AIR = frozenset(UnitType) - AIR


@lru_cache(maxsize=4096)
def _not_air_part(units: Force) -> Force:
    """The units of a force other than aircraft (asked at every battle a survivor stands in:
    remembered, as the parts in domain.rules.force_parts are)."""
    return only(units, _NOT_AIR)

