"""What a Game is made of: each battle declared and the records filed under it, and the
game-wide entries (declarations, reports, rulings, weapons development, map updates).

Every entry carries its record number (``seq``: its place in the game's sequence of records), so
the state at any earlier record is a filter (:meth:`BattleRecord.at`, :func:`upto`); the fold
that builds them is :mod:`domain.record.game`.
"""

from __future__ import annotations

import enum
from bisect import bisect_right
from datetime import datetime
from functools import lru_cache
from operator import attrgetter
from typing import Any, Protocol, TypeVar, overload

import msgspec

from domain.battle.model import Side
from domain.notation.battle_log import BattleLog
from domain.notation.special_orders import SpecialOrders
from domain.record.events import Holding, MapCount, Move, Placed
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.turns import Turn, turn_of
from domain.rules.units import AXIS, UnitType

#: Read once (on Python 3.11 a member read off its class goes through EnumType's slow hook):
#: the review asks every battle for its attackers.
_SEA, _BB = BattleKind.SEA, UnitType.BB


def allied(a: str, b: str) -> bool:
    """Whether two powers are on the same side (Axis: Germany, Japan; Allies: the rest)."""
    return (a in AXIS) == (b in AXIS)


class RollEntry(msgspec.Struct, frozen=True):
    """A dice-server record filed under its battle, its log as read (:meth:`BattleLog.as_read`:
    the text as written stays in the record, where nothing but the fold reads it)."""

    seq: int
    at: datetime | None
    source_line: int | None
    game_number: str | None = None
    turn_number: int | None = None
    round_number: int | None = None
    country: str | None = None
    parsed: BattleLog = BattleLog(())


class OrdersEntry(msgspec.Struct, frozen=True):
    """Special orders filed under a battle for one side, as written and as read."""

    seq: int
    side: Side
    text: str
    at: datetime | None
    source_line: int | None
    parsed: SpecialOrders = SpecialOrders()
    #: ``parsed.withdraw_to`` resolved when filed (canonical name; None: no zone, or none named).
    withdraw_territory: str | None = None


class CasualtyEntry(msgspec.Struct, frozen=True):
    """Casualties a side named for a round."""

    seq: int
    round: int
    side: Side
    units: Force


class RetreatEntry(msgspec.Struct, frozen=True):
    """A retreat the attacker declared (a later one replaces it)."""

    seq: int
    after_round: int
    to: str
    at: datetime | None
    #: ``to`` resolved when filed (canonical name; None: it names no territory).
    territory: str | None = None


class SuppliedEntry(msgspec.Struct, frozen=True):
    """Dice supplied for a correction or re-roll."""

    seq: int
    dice: tuple[int, ...]
    at: datetime | None


class DrawnEntry(msgspec.Struct, frozen=True):
    """Dice the verifiable source drew (its sequence number, purpose and faces)."""

    seq: int
    sequence: int
    purpose: str
    dice: tuple[int, ...]


class BattleRecord(msgspec.Struct, frozen=True):
    """A declared battle and every record filed under it, in the order recorded.

    Frozen: filing a record replaces the battle with one more entry (a few per battle), so
    states at different versions share the battles nothing was filed under since.
    ``position`` and ``available`` are read-only.
    """

    #: The turn's label ("USSR 3"): the battle's key in stored states and reports; the rules
    #: read :attr:`turn_value`.
    turn: str
    territory: str
    written: str
    kind: BattleKind
    attacker_power: str
    number: int | None
    moves: tuple[Move, ...]
    declared_defenders: Force | None
    #: Every power's units in the territory per the last map update before the declaration.
    position: dict[str, Force]
    #: The attacking power's units at each origin per that map update (read-only).
    available: dict[str, Force]
    declared_at: datetime | None
    declaration_line: int | None
    rolls: tuple[RollEntry, ...] = ()
    orders: tuple[OrdersEntry, ...] = ()
    casualties: tuple[CasualtyEntry, ...] = ()
    retreats: tuple[RetreatEntry, ...] = ()
    supplied: tuple[SuppliedEntry, ...] = ()
    draws: tuple[DrawnEntry, ...] = ()
    typos: tuple[str, ...] = ()
    #: Whether a map update named the battle's territory (else its defenders are unknown).
    defenders_known: bool = False
    #: The record number of the declaration, and of the map update that last named the
    #: battle's territory before it (0: none) — to tell which results a position reflects.
    declared_seq: int = 0
    defenders_seq: int = 0
    #: The record number of the last record filed under the battle (its declaration at first).
    last_seq: int = 0
    #: The record number of the last record of the battle as fought (its declaration, rolls,
    #: orders, casualties, retreats; not the dice of a correction entered later): where the
    #: battle is over in the order of play, and where the board walk puts its result, as rolled
    #: or as corrected (a correction is of the battle where it was fought; rules matrix,
    #: Consequences: the corrected result flows into the positions after it).
    fought_seq: int = 0
    #: The record number of the amendment that replaced the battle (0: in force).
    withdrawn_seq: int = 0

    @property
    def key(self) -> str:
        """"USSR 3 / East Europe": a battle is known by its turn and territory."""
        return f"{self.turn} / {self.territory}"

    @property
    def turn_value(self) -> Turn:
        """The turn as a value (its power and game round), read from the label made at intake."""
        return turn_of(self.turn)

    def chosen(self, round_number: int, side: Side, *, before: int | None = None) -> list[Force]:
        """Casualties the side named for a round, in the order named (only those recorded
        before the record number ``before`` when given)."""
        return [c.units for c in self.casualties
                if c.round == round_number and c.side == side and (before is None or c.seq < before)]

    @property
    def position_defenders(self) -> Force:
        """Enemy units in the territory per the last map update before the declaration."""
        axis = self.attacker_power in AXIS  # allied() written out: asked of every power there
        enemy = tuple([units for owner, units in self.position.items() if (owner in AXIS) is not axis])
        if len(enemy) == 1:
            return enemy[0]
        return _combined(enemy) if enemy else EMPTY

    @property
    def defender_power(self) -> str:
        """The power holding the territory against the attacker (the first enemy on the map;
        without a map, the other side's first power)."""
        enemy = [owner for owner in self.position if not allied(owner, self.attacker_power)]
        if enemy:
            return enemy[0]
        return "Germany" if self.attacker_power not in AXIS else "USSR"

    @property
    def retreat(self) -> tuple[int, str] | None:
        """(after round, to) of the retreat in force: the last one declared."""
        return (self.retreats[-1].after_round, self.retreats[-1].to) if self.retreats else None

    @property
    def retreat_at(self) -> datetime | None:
        """When the retreat in force was declared."""
        return self.retreats[-1].at if self.retreats else None

    @property
    def dice(self) -> list[int]:
        """Every die supplied for corrections, in the order supplied."""
        return [die for entry in self.supplied for die in entry.dice]

    @property
    def dice_times(self) -> list[datetime | None]:
        """When each supply of dice was recorded (a correction's time)."""
        return [entry.at for entry in self.supplied]

    @property
    def drawn(self) -> list[tuple[int, str, tuple[int, ...]]]:
        """(sequence number, purpose, faces) of each draw from the verifiable source."""
        return [(entry.sequence, entry.purpose, entry.dice) for entry in self.draws]

    @property
    def attackers(self) -> Force:
        """Every declared attacking unit taking part in the battle itself."""
        moves = self.moves
        if len(moves) == 1:  # one move (most battles): its units, nothing to add up
            total = moves[0].units
        else:
            total = EMPTY
            for move in moves:
                total = total + move.units
        # Battleships bombard a land battle, they do not fight in it (most battles have none).
        return total.where(lambda u: u is not _BB) if self.kind is not _SEA and total[_BB] else total

    @property
    def support(self) -> Force:
        """Battleships giving support shots to a land or amphibious battle."""
        if self.kind is BattleKind.SEA:
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

    def at(self, seq: int) -> BattleRecord:
        """The battle as it stood after record ``seq`` (declared by then)."""
        changed: dict[str, Any] = {}
        if self.last_seq > seq:
            filed = {name: upto(getattr(self, name), seq) for name in _FILED}
            changed.update(filed, last_seq=max((entries[-1].seq for entries in filed.values() if entries),
                                               default=self.declared_seq),
                           fought_seq=max((filed[name][-1].seq for name in _FOUGHT if filed[name]),
                                          default=self.declared_seq))
        if self.withdrawn_seq > seq:
            changed["withdrawn_seq"] = 0
        if not changed:
            return self
        record: BattleRecord = msgspec.structs.replace(self, **changed)
        return record


#: The fields of a BattleRecord that grow as records are filed under it.
_FILED = ("rolls", "orders", "casualties", "retreats", "supplied", "draws")
#: The records of the battle as fought (:attr:`BattleRecord.fought_seq`).
_FOUGHT = ("rolls", "orders", "casualties", "retreats")


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
    #: Each move's stated route (the spaces between origin and destination, in order); empty
    #: when the record states none (format-extensions.md, ``via``).
    routes: tuple[tuple[str, ...], ...] = ()

    def route(self, index: int) -> tuple[str, ...]:
        """The route the record states for its ``index``-th move (empty: none stated)."""
        return self.routes[index] if index < len(self.routes) else ()


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
    #: ``battle`` resolved when filed (canonical name; None: none named, or no territory).
    territory: str | None = None
    #: The record number of the report this one restates (0: none).
    amends: int = 0
    #: The battle's turn, when the report names it (a territory alone may name two battles).
    turn: str | None = None


class Ruling(enum.StrEnum):
    """What a ruling decides: apply the remedy, dismiss the finding, or record a mutual
    agreement (2008 Section I: mutual agreements stand)."""

    APPLY = "apply"
    DISMISS = "dismiss"
    MUTUAL = "mutual"


class Election(enum.StrEnum):
    """The elections the rules give a side (see :data:`domain.review.decisions.ELECTIONS`)."""

    #: A void battle: re-roll it with the correct units, or do not fight it (2008 Section II).
    REROLL = "reroll"
    NOT_FIGHT = "not_fight"
    #: A skipped pause: accept the rolls, apply the defence to the corrected units, or re-roll
    #: the defence (2008 Order of Loss).
    ACCEPT = "accept"
    APPLY_TO_CORRECTED_UNITS = "apply_to_corrected_units"
    REROLL_DEFENCE = "reroll_defence"


class RulingEntry(msgspec.Struct, frozen=True):
    """A ruling or election on a finding (the election as written: one the rules do not give
    leaves the finding awaiting a valid one)."""

    seq: int
    finding: str
    decision: Ruling
    election: str | None
    text: str
    at: datetime | None
    source_line: int | None
    #: Who gave it (the Minister of Law, a player electing), when recorded.
    by: str = ""
    #: The record number of the ruling this one replaces (0: none).
    amends: int = 0
    #: The finding's turn and battle territory (canonical), when the ruling names them: only a
    #: finding of that turn and battle is ruled on.
    turn: str | None = None
    territory: str | None = None
    #: The identity of the finding it was made on (views.finding_key; None: an older record).
    key: str | None = None


class WithdrawalEntry(msgspec.Struct, frozen=True):
    """A report or ruling withdrawn (``target``: its record number)."""

    seq: int
    target: int
    by: str
    text: str
    at: datetime | None


class CommitmentEntry(msgspec.Struct, frozen=True):
    """The Minister's dice commitment (the hash only)."""

    seq: int
    commitment: str
    scheme: str
    by: str
    at: datetime | None


class RevealEntry(msgspec.Struct, frozen=True):
    """The secret behind a commitment, revealed."""

    seq: int
    commitment: str
    secret: str
    at: datetime | None


# -- helpers ---------------------------------------------------------------------------------
class _Numbered(Protocol):
    @property
    def seq(self) -> int: ...


_N = TypeVar("_N", bound=_Numbered)


@overload
def upto(entries: list[_N], seq: int) -> list[_N]: ...
@overload
def upto(entries: tuple[_N, ...], seq: int) -> tuple[_N, ...]: ...
def upto(entries: list[_N] | tuple[_N, ...], seq: int) -> list[_N] | tuple[_N, ...]:
    """A copy of the entries recorded up to record ``seq`` (entries are in record order)."""
    if not entries or entries[-1].seq <= seq:
        return entries[:]
    return entries[:bisect_right(entries, seq, key=_SEQ)]


_SEQ = attrgetter("seq")


@lru_cache(maxsize=4096)
def _combined(forces: tuple[Force, ...]) -> Force:
    """Several powers' units as one force (the same few sums recur all game long)."""
    return Force.of([pair for force in forces for pair in force.items])


class BoardNote(msgspec.Struct, frozen=True, gc=False):
    """A record that moves or states the board, as filed by the fold (``kind`` says which)."""

    seq: int
    #: position, purchase, placement, map_update, bid, finish; bombing, rocket, neutral,
    #: forfeit_request, forfeit_decision, concession
    kind: str
    turn: str = ""
    at: datetime | None = None
    line: int | None = None
    holdings: tuple[Holding, ...] = ()
    placed: tuple[Placed, ...] = ()
    count: MapCount | None = None
    removed: tuple[Holding, ...] = ()
    ipcs: tuple[tuple[str, int], ...] = ()
    total: int | None = None
    units: Force = EMPTY
    #: A finish: "Axis", "Allies" or "annulled", and who posted it (a forfeit decision:
    #: "approved" or "not_approved", and the Minister; a forfeit request or a concession: who).
    result: str = ""
    by: str = ""
    #: A bombing raid's or a rocket's target, a neutral entered (canonical names); a rocket's
    #: launcher; the dice thrown; the words of a forfeit request, decision or concession.
    territory: str = ""
    origin: str = ""
    dice: tuple[int, ...] = ()
    text: str = ""
