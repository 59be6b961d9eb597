"""IPCs a turn's records take out of a treasury besides purchases: strategic bombing raids and
rockets (the victim's IPCs), and the charge for entering a neutral territory (the mover's).

The rules are the Milton Bradley 2nd edition rules booklet's, which the club plays by (2008
Getting Started, Requirements: every player keeps "a complete copy of the Milton Bradley 2nd
Edition rules booklet"; Declaration and Battle Resolution Procedures: "Resolve the combat
according to the Milton Bradley 2nd Edition and, where applicable, Association rules") and which
the club's texts (seeds 000-002) do not reproduce: its wording is not quoted here, only what it
rules, as :data:`domain.record.treasury.CAPITAL_RULE` does. The club's texts only refer to it:

- a bombing raid: each bomber that reaches the industrial complex rolls one die (a Heavy Bomber
  three: board data ``heavy_bomber_dice``), and the power holding it surrenders that many IPCs,
  never more than it has (:data:`BOMBING_RULE`);
- a rocket: an AA gun within three spaces of an enemy industrial complex fires one die, the same
  loss (:data:`ROCKET_RULE`); 2008 Rules Clarifications, Rocket Technology adds that "a country can
  only have one rocket shot per turn, never two or more" (1999 Parts 13 and 14 say nothing of
  rockets);
- a neutral territory entered: the mover pays the board's ``neutral_entry_charge`` (3 IPCs) a
  territory (:data:`NEUTRAL_RULE`); 2008 Rules Clarifications, Neutral Territories: the neutrals an
  air unit flies over "will only be limited by the number of movement points and IPCs available";
  Income Collection and Spending: income from a captured capital may be spent "on Weapons
  Development or the violation of neutrality".

A raid or rocket on a territory no enemy of the raider holds, or with no industrial complex
there, takes nothing (the record names no victim). A record of a turn made void under 2008
Section VII ("the subsequent turn is void and must be re-done") takes nothing either, as that
turn's purchases are not paid (domain.record.treasury).

The treasury (:func:`domain.record.treasury.walk_treasury`) applies each change in record order,
through :func:`pay`, beside purchases and income.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from domain.record.board.history import BoardAt
from domain.record.entries import BoardNote, allied
from domain.rules.units import UnitType

#: The board records that move IPCs besides purchases (BoardNote kinds).
IPC_KINDS = frozenset({"bombing", "rocket", "neutral"})

_BOOKLET = "Milton Bradley 2nd edition rules booklet"
BOMBING_RULE = (f"{_BOOKLET}, strategic bombing raids (a die for each bomber that reaches the industrial "
                "complex; its holder surrenders that many IPCs, no more than it has)")
ROCKET_RULE = (f"{_BOOKLET}, rockets (an AA gun's one die at an industrial complex within three spaces; "
               "the same loss), with 2008 Rules Clarifications, Rocket Technology (one rocket shot per "
               "turn)")
NEUTRAL_RULE = (f"{_BOOKLET}, neutral territories (the charge to enter one), referred to by 2008 Rules "
                "Clarifications, Neutral Territories (\"limited by the number of movement points and "
                "IPCs available\")")


@dataclass(frozen=True)
class IpcChange:
    """IPCs a record takes out of one power's treasury (``amount`` below 0), and why."""

    seq: int
    turn: str
    kind: str
    power: str
    amount: int
    #: What the dice said (a raid's, a rocket's) or the charge, before the treasury's limit.
    due: int
    rule: str


class Purse(Protocol):
    """The treasury being walked: a power's IPCs now, and a change to them at a record."""

    def of(self, power: str) -> int:
        """The power's IPCs now."""

    def add(self, seq: int, power: str, amount: int) -> None:
        """Change the power's IPCs at record ``seq``."""


def ipc_change(note: BoardNote, board: BoardAt, purse: Purse) -> IpcChange | None:
    """What a bombing, rocket or neutral record takes, and from whom, on the board just before
    it and with the IPCs the powers have then (None: it takes nothing)."""
    if note.kind not in IPC_KINDS or note.turn in board.walk.void:
        return None
    mover = note.turn.rsplit(" ", 1)[0]
    if note.kind == "neutral":
        charge = board.walk.board.neutral_entry_charge
        return IpcChange(note.seq, note.turn, note.kind, mover, -charge, charge, NEUTRAL_RULE)
    victim = board.control_of(note.territory)
    if victim is None or allied(victim, mover):
        return None
    if not any(units[UnitType.IC] for units in board.holders(note.territory).values()):
        return None
    due = sum(note.dice)
    lost = min(due, max(purse.of(victim), 0))
    return IpcChange(note.seq, note.turn, note.kind, victim, -lost, due,
                     BOMBING_RULE if note.kind == "bombing" else ROCKET_RULE)


def pay(note: object, board: BoardAt, purse: Purse) -> IpcChange | None:
    """Apply a bombing, rocket or neutral record (a :class:`BoardNote` of :data:`IPC_KINDS`) to
    the treasury being walked: the hook :func:`domain.record.treasury.walk_treasury` calls with
    each such step. What it took, if anything (None for any other step)."""
    if not isinstance(note, BoardNote):
        return None
    change = ipc_change(note, board, purse)
    if change is not None and change.amount:
        purse.add(note.seq, change.power, change.amount)
    return change
