"""Value types of a battle: dice, volleys, rounds, the set-up and the outcome.

These are shared by the mechanical battle engine (:mod:`domain.battle.engine`), the analysis of a
recorded battle, the correction engine and the odds solver. All are frozen msgspec Structs.
"""

from __future__ import annotations

import enum
from typing import Literal, Protocol

import msgspec

from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss, default_order
from domain.rules.units import UnitType

#: A battle-board column: 1-5, or "AA" (AA gun shots) / "BB" (battleship support shots).
Column = int | Literal["AA", "BB"]


class Side(enum.StrEnum):
    """The two sides of a battle."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


class Die(msgspec.Struct, frozen=True, array_like=True):
    """One die: its face, the unit type that threw it, and whether it hits its column."""

    value: int
    unit: UnitType
    hit: bool


class Volley(msgspec.Struct, frozen=True):
    """The dice of one column (or of AA guns, support shots, a first strike) in one round.

    ``casualties`` are the units of the other side these hits took; for the attacker's volleys
    they go to the casualty area (or leave the game for AA, first strike).
    """

    side: Side
    column: Column
    dice: tuple[Die, ...]
    first_strike: bool = False
    casualties: Force = EMPTY

    @property
    def hits(self) -> int:
        """Hits scored by this volley's dice."""
        return sum(1 for die in self.dice if die.hit)

    @property
    def values(self) -> list[int]:
        """The faces, in the order thrown."""
        return [die.value for die in self.dice]


class RoundResult(msgspec.Struct, frozen=True):
    """One round: both sides at its start, every volley, and the losses it caused."""

    number: int
    attacker_units: Force
    defender_units: Force
    volleys: tuple[Volley, ...]
    attacker_losses: Force
    defender_losses: Force
    #: 2008 OOL exceptions: the defender had to be asked for casualties after this round.
    pause_required: bool = False

    def hits(self, side: Side) -> int:
        """Hits scored by ``side`` this round (AA shots count for the defender)."""
        return sum(v.hits for v in self.volleys if v.side is side)

    def volleys_of(self, side: Side) -> list[Volley]:
        """The volleys a side rolled this round, in the order rolled."""
        return [v for v in self.volleys if v.side is side]


class Winner(enum.StrEnum):
    """Who won: ``none`` when both sides are destroyed."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    NONE = "none"


class Outcome(msgspec.Struct, frozen=True):
    """How a battle ended (``winner`` None while unfinished)."""

    winner: Winner | None
    attacker_left: Force
    defender_left: Force
    retreated: bool = False
    #: Units that withdrew or retreated (they survive but left the battle).
    attacker_retreated: Force = EMPTY
    defender_withdrew: Force = EMPTY


class RetreatCondition(msgspec.Struct, frozen=True):
    """An attacker's standing retreat order ("retreat after round 2", "… 3 or fewer … remain")."""

    after_round: int | None = None
    at_most_units: int | None = None
    to: str | None = None

    def met(self, round_number: int, attackers_left: Force) -> bool:
        """Whether the attacker retreats after this round."""
        if self.after_round is not None and round_number >= self.after_round:
            return True
        return self.at_most_units is not None and len(attackers_left.combatants()) <= self.at_most_units


class ChosenCasualties(msgspec.Struct, frozen=True):
    """Casualties a side named for a round (when the rules let it choose)."""

    round: int
    side: Side
    units: Force


class BattleSetup(msgspec.Struct, frozen=True):
    """Everything the engine needs to fight a battle mechanically.

    ``attacker`` holds every attacking unit (including ground units landed from transports,
    which are also listed in ``amphibious``); ``support`` holds battleships giving support shots
    in an amphibious assault (they fire once before round 1 and take no part otherwise).
    ``defender`` may include AA guns and ICs, which never are casualties.
    """

    kind: BattleKind
    attacker: Force
    defender: Force
    support: Force = EMPTY
    amphibious: Force = EMPTY
    attacker_order: OrderOfLoss | None = None
    defender_order: OrderOfLoss | None = None
    retreat: RetreatCondition | None = None
    #: Defending submarines withdraw after this round (2008: the defender names the sea zone).
    sub_withdrawal_after: int | None = None
    #: Casualties a side chose itself (``casualties`` records), overriding its order of loss.
    chosen: tuple[ChosenCasualties, ...] = ()
    #: Defending transports that carry land units (2008 OOL exceptions: a loaded TRN that can
    #: survive a sea round requires a pause); 0 when none are loaded or it is not known.
    loaded_transports: int = 0
    #: The order AA hits remove aircraft in, when not the attacker's order of loss (an edition's
    #: reading: right to left, the bombers' column first).
    aa_order: OrderOfLoss | None = None
    #: Attacking submarines strike first in every round at sea (False: in round 1 only).
    subs_strike_every_round: bool = True

    def order_of(self, side: Side) -> OrderOfLoss:
        """The order of loss in force for a side: its special order, else the club default."""
        if side is Side.ATTACKER:
            return self.attacker_order or default_order(self.kind, True)
        if self.defender_order is not None:
            return self.defender_order
        air_only = all(unit.is_air for unit in self.attacker.combatants().types)
        return default_order(self.kind, False, air_only_attack=air_only and self.retreat is None)


class DiceRequest(msgspec.Struct, frozen=True):
    """The dice one volley needs: one entry of ``units`` per die, in canonical order."""

    round: int
    side: Side
    column: Column
    units: tuple[UnitType, ...]
    first_strike: bool = False

    @property
    def count(self) -> int:
        """How many dice."""
        return len(self.units)

    @property
    def purpose(self) -> str:
        """Human-readable: "R2 attacker column 3"."""
        what = f"column {self.column}" if isinstance(self.column, int) else f"{self.column} shots"
        strike = " first strike" if self.first_strike else ""
        return f"R{self.round} {self.side.value}{strike} {what}"


class DiceSource(Protocol):
    """Where the engine takes dice from, in the order the replay format fixes."""

    def draw(self, count: int, purpose: str) -> list[int]:
        """``count`` dice (1-6); ``purpose`` says what for ("R2 attacker column 3")."""
        ...


class DiceExhausted(Exception):
    """A supplied-dice source ran out: the battle awaits dice."""

    def __init__(self, purpose: str, needed: int, available: int) -> None:
        self.purpose = purpose
        self.needed = needed
        self.available = available
        super().__init__(f"{purpose}: needs {needed} dice, {available} supplied")
