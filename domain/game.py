"""The Game aggregate: the game rebuilt from its events alone.

The fold (:func:`project_game`) only files each record where it belongs (positions, the
declared battles of each turn, the dice-server records of each battle, reports, rulings); it
never judges them. What the records mean — rounds, losses, results, findings, corrections — is
computed from this state by pure functions (:mod:`domain.analysis`, :mod:`domain.corrections`).
So the record "as rolled" is never altered, and any rule can be re-applied to it retroactively.
The state is a msgspec Struct so a snapshot is just its encoding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from uuid import UUID

import msgspec

from domain.board import Board
from domain.errors import InvalidNotationError
from domain.events import (
    BattleFacts,
    CasualtiesChosen,
    DeclarationRecorded,
    DiceDrawn,
    DiceSupplied,
    GameEvent,
    GameStarted,
    Holding,
    Move,
    NonCombatRecorded,
    OrdersRecorded,
    PositionRecorded,
    ReportFiled,
    RetreatDeclared,
    RollRecorded,
    RulingIssued,
    TechRolled,
)
from domain.forces import EMPTY, Force
from domain.recording import battle_territory, declaration_facts, noncombat_move
from domain.units import AXIS, POWERS, UnitType

_TURN = re.compile(r"^\s*(USSR|Germany|UK|Japan|USA)\s+(\d+)\s*$", re.IGNORECASE)


def parse_turn(text: str) -> tuple[str, int]:
    """``"USSR 3"`` -> ``("USSR", 3)``: a power and the game round."""
    match = _TURN.match(text)
    if not match:
        raise InvalidNotationError("expected a turn such as 'USSR 3' (power and game round)", text=text)
    power = next(p for p in POWERS if p.lower() == match.group(1).lower())
    return power, int(match.group(2))


def turn_label(power: str, game_round: int) -> str:
    """Canonical turn label."""
    return f"{power} {game_round}"


def allied(a: str, b: str) -> bool:
    """Whether two powers are on the same side (Axis: Germany, Japan; Allies: the rest)."""
    return (a in AXIS) == (b in AXIS)


class RollEntry(msgspec.Struct, frozen=True):
    """A dice-server record filed under its battle."""

    seq: int
    log: str
    at: datetime | None
    source_line: int | None
    game_number: str | None = None
    turn_number: int | None = None
    round_number: int | None = None
    country: str | None = None


class OrdersEntry(msgspec.Struct, frozen=True):
    """Special orders filed under a battle for one side."""

    seq: int
    side: str
    text: str
    at: datetime | None
    source_line: int | None


class BattleRecord(msgspec.Struct):
    """A declared battle and every record filed under it, in the order recorded."""

    turn: str
    territory: str
    written: str
    kind: str
    attacker_power: str
    number: int | None
    moves: list[Move]
    declared_defenders: Force | None
    #: Enemy units in the territory per the last map update before the declaration.
    position_defenders: Force
    #: The attacking power's units at each origin per that map update.
    available: dict[str, Force]
    declared_at: datetime | None
    declaration_line: int | None
    rolls: list[RollEntry] = msgspec.field(default_factory=list)
    orders: list[OrdersEntry] = msgspec.field(default_factory=list)
    casualties: list[tuple[int, str, Force]] = msgspec.field(default_factory=list)
    #: When each ``casualties`` record was made (its place in the game's sequence of records).
    casualty_seqs: list[int] = msgspec.field(default_factory=list)
    retreat: tuple[int, str] | None = None
    dice: list[int] = msgspec.field(default_factory=list)
    drawn: list[tuple[int, str, tuple[int, ...]]] = msgspec.field(default_factory=list)
    typos: list[str] = msgspec.field(default_factory=list)
    #: Whether a map update named the battle's territory (else its defenders are unknown).
    defenders_known: bool = False
    #: The record number of the declaration, and of the map update that last named the
    #: battle's territory before it (0: none) — to tell which results a position reflects.
    declared_seq: int = 0
    defenders_seq: int = 0
    #: When the retreat was declared.
    retreat_at: datetime | None = None
    #: When each ``dice`` record for the battle was made (a correction's time).
    dice_times: list[datetime | None] = msgspec.field(default_factory=list)

    @property
    def key(self) -> str:
        """"USSR 3 / East Europe": a battle is known by its turn and territory."""
        return f"{self.turn} / {self.territory}"

    def chosen(self, round_number: int, side: str, *, before: int | None = None) -> list[Force]:
        """Casualties the side named for a round, in the order named (only those recorded
        before the record number ``before`` when given)."""
        return [units for (r, s, units), seq in zip(self.casualties, self.casualty_seqs, strict=False)
                if r == round_number and s == side and (before is None or seq < before)]

    @property
    def attackers(self) -> Force:
        """Every declared attacking unit taking part in the battle itself."""
        total = EMPTY
        for move in self.moves:
            total = total + move.units
        return total.where(lambda u: u is not UnitType.BB) if self.kind != "sea" else total

    @property
    def support(self) -> Force:
        """Battleships giving support shots to a land or amphibious battle."""
        if self.kind == "sea":
            return EMPTY
        total = EMPTY
        for move in self.moves:
            total = total + move.units.where(lambda u: u is UnitType.BB)
        return total

    @property
    def amphibious(self) -> Force:
        """Ground units landed from transports (they never retreat)."""
        total = EMPTY
        for move in self.moves:
            if move.transports or move.transport_zone:
                total = total + move.units.where(lambda u: u.is_land)
        return total


class TechEntry(msgspec.Struct, frozen=True):
    """Weapons-development dice of a turn."""

    seq: int
    turn: str
    dice: tuple[int, ...]
    declared: int | None
    ipcs: int | None
    at: datetime | None
    source_line: int | None


class MapUpdate(msgspec.Struct, frozen=True):
    """A map update as recorded (kept to compare with the non-combat moves before it)."""

    seq: int
    at: datetime | None
    holdings: tuple[Holding, ...]


class NonCombatEntry(msgspec.Struct, frozen=True):
    """A power's listed non-combat moves."""

    seq: int
    turn: str
    moves: tuple[Move, ...]
    at: datetime | None


class DeclarationEntry(msgspec.Struct, frozen=True):
    """A declaration as recorded (amendments and late changes are all kept)."""

    seq: int
    turn: str
    text: str
    at: datetime | None
    source_line: int | None
    #: False when the turn had already rolled dice: 2008 "No changes will be allowed once any
    #: combat dice are rolled", so it does not replace the declaration in force.
    effective: bool


class ReportEntry(msgspec.Struct, frozen=True):
    """A correction request."""

    seq: int
    by: str
    text: str
    battle: str | None
    at: datetime | None
    source_line: int | None


class RulingEntry(msgspec.Struct, frozen=True):
    """A ruling or election on a finding."""

    seq: int
    finding: str
    decision: str
    election: str | None
    text: str
    at: datetime | None
    source_line: int | None


class Game(msgspec.Struct):
    """The state of one game record, rebuilt from its events."""

    id: UUID
    game_id: str
    edition: str
    version: int
    created_on: datetime
    modified_on: datetime
    title: str | None = None
    dice_seed: str | None = None
    dice_commitment: str | None = None
    #: The dice server's game number, when the record states it.
    game_number: str | None = None
    #: territory -> power -> units, as the last map updates state.
    holdings: dict[str, dict[str, Force]] = msgspec.field(default_factory=dict)
    battles: list[BattleRecord] = msgspec.field(default_factory=list)
    declarations: list[DeclarationEntry] = msgspec.field(default_factory=list)
    reports: list[ReportEntry] = msgspec.field(default_factory=list)
    rulings: list[RulingEntry] = msgspec.field(default_factory=list)
    tech: list[TechEntry] = msgspec.field(default_factory=list)
    map_updates: list[MapUpdate] = msgspec.field(default_factory=list)
    noncombat: list[NonCombatEntry] = msgspec.field(default_factory=list)
    #: Turns in the order they were first declared.
    turns: list[str] = msgspec.field(default_factory=list)
    #: Times of each turn's first and last die (for the time limits of 2008 §VII).
    first_roll_at: dict[str, datetime] = msgspec.field(default_factory=dict)
    seq: int = 0
    #: territory -> index in ``battles`` of the latest battle declared there.
    latest: dict[str, int] = msgspec.field(default_factory=dict)
    #: territory -> record number of the last map update that named it.
    stated: dict[str, int] = msgspec.field(default_factory=dict)

    # -- queries ----------------------------------------------------------------------------
    def battle(self, name: str, turn: str | None = None, *, territory: str = "") -> BattleRecord:
        """The battle a record names: the latest declared battle in that territory."""
        territory = territory or battle_territory(name)
        index = self.latest.get(territory)
        if index is not None and (turn is None or self.battles[index].turn == turn):
            return self.battles[index]
        for record in reversed(self.battles):
            if record.territory == territory and (turn is None or record.turn == turn):
                return record
        raise KeyError(name)

    def battles_of(self, turn: str) -> list[BattleRecord]:
        """The battles declared for a turn, in declaration order."""
        return [b for b in self.battles if b.turn == turn]

    # -- the fold ---------------------------------------------------------------------------
    def apply(self, event: GameEvent) -> None:
        """File one event. Raises :class:`InvalidNotationError` on a record it cannot read."""
        self.seq += 1
        self.version = event.originator_version
        self.modified_on = event.timestamp
        if isinstance(event, PositionRecorded):
            for holding in event.holdings:
                self.holdings.setdefault(holding.territory, {})[holding.power] = holding.units
                self.stated[holding.territory] = self.seq
            if self.noncombat:
                # Kept only once non-combat moves are listed: they are what map updates answer to.
                self.map_updates.append(MapUpdate(self.seq, event.at, event.holdings))
        elif isinstance(event, DeclarationRecorded):
            self._declare(event)
        elif isinstance(event, RollRecorded):
            record = self._battle_for(event.battle, event.source_line, territory=event.territory)
            if record.turn not in self.first_roll_at and event.at is not None:
                self.first_roll_at[record.turn] = event.at
            record.rolls.append(RollEntry(
                self.seq, event.log, event.at, event.source_line, event.game_number,
                event.turn_number, event.round_number, event.country))
        elif isinstance(event, OrdersRecorded):
            record = self._battle_for(event.battle, event.source_line, event.turn,
                                      territory=event.territory)
            record.orders.append(OrdersEntry(self.seq, event.side, event.text, event.at,
                                             event.source_line))
        elif isinstance(event, CasualtiesChosen):
            record = self._battle_for(event.battle, event.source_line, territory=event.territory)
            record.casualties.append((event.round, event.side, event.units))
            record.casualty_seqs.append(self.seq)
        elif isinstance(event, RetreatDeclared):
            record = self._battle_for(event.battle, event.source_line, territory=event.territory)
            record.retreat = (event.after_round, event.to)
            record.retreat_at = event.at
        elif isinstance(event, DiceSupplied):
            record = self._battle_for(event.battle, event.source_line, territory=event.territory)
            record.dice.extend(event.dice)
            record.dice_times.append(event.at)
        elif isinstance(event, DiceDrawn):
            self._battle_for(event.battle, event.source_line, territory=event.territory).drawn.append(
                (event.sequence, event.purpose, event.dice))
        elif isinstance(event, ReportFiled):
            self.reports.append(ReportEntry(self.seq, event.by, event.text, event.battle,
                                            event.at, event.source_line))
        elif isinstance(event, NonCombatRecorded):
            moves = event.parsed or tuple(noncombat_move(text) for text in event.moves)
            self.noncombat.append(NonCombatEntry(self.seq, event.turn, moves, event.at))
        elif isinstance(event, TechRolled):
            self.tech.append(TechEntry(self.seq, event.turn, event.dice, event.declared, event.ipcs,
                                       event.at, event.source_line))
        elif isinstance(event, RulingIssued):
            self.rulings.append(RulingEntry(self.seq, event.finding, event.decision, event.election,
                                            event.text, event.at, event.source_line))

    def _battle_for(self, name: str, line: int | None, turn: str | None = None, *,
                    territory: str = "") -> BattleRecord:
        try:
            return self.battle(name, turn, territory=territory)
        except KeyError:
            raise InvalidNotationError(
                "the record names a battle that no declaration lists"
                + (f" for {turn}" if turn else ""), line=line, text=name) from None

    def _declare(self, event: DeclarationRecorded) -> None:
        power, game_round = parse_turn(event.turn)
        turn = turn_label(power, game_round)
        rolled = turn in self.first_roll_at
        self.declarations.append(DeclarationEntry(self.seq, turn, event.text, event.at,
                                                  event.source_line, effective=not rolled))
        if rolled:
            return  # kept on record; the declaration in force stands (2008 Amendments)
        # Events recorded by minister carry the facts; read the text only if they do not.
        facts = event.battles or declaration_facts(event.text, event.source_line)
        if turn not in self.turns:
            self.turns.append(turn)
        elif any(b.turn == turn for b in self.battles):
            # An amendment before any die replaces the turn's battles.
            self.battles = [b for b in self.battles if b.turn != turn]
            self.latest = {b.territory: i for i, b in enumerate(self.battles)}
        for battle in facts:
            self.latest[battle.territory] = len(self.battles)
            self.battles.append(self._battle_record(turn, power, battle, event))

    def _battle_record(self, turn: str, power: str, battle: BattleFacts,
                       event: DeclarationRecorded) -> BattleRecord:
        moves = list(battle.moves)
        name = battle.territory
        if Board.classic().territory(name).sea:
            kind = "sea"
        elif any(m.transports or m.transport_zone for m in moves):
            kind = "amphibious"
        else:
            kind = "land"
        enemy = [units for owner, units in sorted(self.holdings.get(name, {}).items())
                 if not allied(owner, power)]
        defenders = enemy[0] if len(enemy) == 1 else Force.of([p for f in enemy for p in f.items])
        # Only origins a map update named are known; elsewhere nothing can be checked.
        available = {m.origin: self.holdings[m.origin].get(power, EMPTY)
                     for m in moves if m.origin in self.holdings}
        return BattleRecord(
            turn=turn, territory=name, written=battle.written, kind=kind, attacker_power=power,
            number=battle.number, moves=moves, declared_defenders=battle.defenders,
            position_defenders=defenders, available=available, declared_at=event.at,
            declaration_line=battle.line, typos=list(battle.typos), defenders_known=name in self.holdings,
            declared_seq=self.seq, defenders_seq=self.stated.get(name, 0))


def start_game(event: GameStarted) -> Game:
    """The initial state from the game's first event."""
    return Game(id=event.originator_id, game_id=event.game_id, edition=event.edition,
                version=event.originator_version, created_on=event.timestamp,
                modified_on=event.timestamp, title=event.title, dice_seed=event.dice_seed,
                dice_commitment=event.dice_commitment, game_number=event.game_number)


def project_game(game: Game | None, events: Iterable[GameEvent]) -> Game | None:
    """The projector eventsourcing's repository calls: fold events into the Game."""
    from domain.events import GameSnapshot

    for event in events:
        if isinstance(event, GameSnapshot):
            game = msgspec.msgpack.decode(event.state, type=Game)
        elif isinstance(event, GameStarted):
            game = start_game(event)
        elif game is None:
            raise ValueError(f"{type(event).__name__} before GameStarted")
        else:
            game.apply(event)
    return game
