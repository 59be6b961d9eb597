"""The replay file's records of what else a real game holds (extensions of ``minister-replay/1``,
docs/format-extensions.md): ``bombing``, ``rocket``, ``neutral``, ``forfeit_request``,
``forfeit_decision`` and ``concession``.

Each handler reads one [[event]] table into one event; names are resolved and the dice read once,
here. What can be checked without the board is checked here (bad input, exit 2, at the key's
line): a raid's target and a rocket's launcher are land territories, a rocket fires one die, a
neutral entered is one of the board's neutral territories, a forfeit decision approves or not,
who requests, decides or concedes is named. What needs the board (who holds the target) is read
by the treasury (domain.record.ipc_changes).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from application.intake.replayschema import Dice, Record, Text
from domain.errors import InvalidNotationError, ReplayError
from domain.record.events import (
    BombingRecorded,
    ForfeitDecided,
    ForfeitRequested,
    GameConceded,
    GameEvent,
    NeutralEntered,
    RocketFired,
)
from domain.rules.names import resolve
from domain.rules.units import POWERS


class _Builder(Protocol):
    """What a handler needs of the replay reader's builder (:mod:`application.intake.record_events`)."""

    def add(self, cls: type[GameEvent], at: datetime, line: int | None, **fields: Any) -> None:
        """Append the next event."""

    def error(self, message: str, index: int, key: str | None = None) -> ReplayError:
        """An error at the line of ``key`` in the index-th [[event]] table."""

    def _turn(self, index: int, text: str) -> str:
        """A turn label read from the index-th table."""

    def _dice_values(self, index: int, raw: list[int] | str | int) -> tuple[tuple[int, ...], str]:
        """The faces of a ``dice`` key, and the dice as written."""


#: The decisions the Minister of Law gives on a forfeit request (2008 Forfeits: "If the forfeit
#: request is approved ... If the forfeit is not approved ...").
FORFEIT_DECISIONS = ("approved", "not_approved")
#: Who may request a forfeit or concede: a side, or one of its powers.
SIDES = ("Axis", "Allies")


class BombingRecord(Record, kw_only=True):
    """``type = "bombing"``: ``turn``, ``target`` (the territory of the IC bombed), ``dice``."""

    turn: Text
    target: Text
    dice: Dice
    text: str = ""


class RocketRecord(Record, kw_only=True):
    """``type = "rocket"``: ``turn``, ``launcher`` (the AA gun's territory), ``target``, ``dice``."""

    turn: Text
    launcher: Text
    target: Text
    dice: Dice
    text: str = ""


class NeutralRecord(Record, kw_only=True):
    """``type = "neutral"``: ``turn``, ``neutral`` (the neutral territory entered)."""

    turn: Text
    neutral: Text
    text: str = ""


class ForfeitRequestRecord(Record, kw_only=True):
    """``type = "forfeit_request"``: ``by`` (a side or power), ``text`` (the reason)."""

    by: Text
    text: Text


class ForfeitDecisionRecord(Record, kw_only=True):
    """``type = "forfeit_decision"``: ``decision`` ("approved", "not_approved"), ``by``, ``text``."""

    decision: Text
    by: Text = "Minister of Law"
    text: str = ""


class ConcessionRecord(Record, kw_only=True):
    """``type = "concession"``: ``by`` (the side or power that concedes), ``text``."""

    by: Text
    text: str = ""


def _land(builder: _Builder, index: int, key: str, name: str) -> str:
    """The canonical name of a land territory a key names."""
    try:
        place = resolve(name).territory
    except InvalidNotationError as error:
        raise builder.error(f"{key} {name!r}: {error.message}", index, key) from None
    if place.sea:
        raise builder.error(f"expected {key} = a land territory (an industrial complex or an AA gun "
                            f"stands on land), found the sea zone {place.name!r}", index, key)
    return place.name


def _party(builder: _Builder, index: int, name: str) -> str:
    """``by``: a side or a power (canonical), as a forfeit request or a concession names it."""
    for known in (*SIDES, *POWERS):
        if name.strip().lower() == known.lower():
            return known
    raise builder.error(f"expected by = a side ({', '.join(SIDES)}) or a power ({', '.join(POWERS)}), "
                        f"found {name!r}", index, "by")


def bombing(builder: _Builder, index: int, record: BombingRecord, line: int | None) -> None:
    """A strategic bombing raid: the bombing dice of the bombers that survived the AA guns."""
    dice, _ = builder._dice_values(index, record.dice)
    builder.add(BombingRecorded, record.at, line, turn=builder._turn(index, record.turn),
                target=record.target, dice=dice, text=record.text,
                territory=_land(builder, index, "target", record.target))


def rocket(builder: _Builder, index: int, record: RocketRecord, line: int | None) -> None:
    """A rocket shot: one die (2008 Rocket Technology: "one rocket shot per turn, never two")."""
    dice, _ = builder._dice_values(index, record.dice)
    if len(dice) != 1:
        raise builder.error(f"expected dice = one die (a rocket is one shot: 2008 Rules Clarifications, "
                            f"Rocket Technology), found {len(dice)}", index, "dice")
    builder.add(RocketFired, record.at, line, turn=builder._turn(index, record.turn),
                launcher=record.launcher, target=record.target, dice=dice, text=record.text,
                territory=_land(builder, index, "target", record.target))
    _land(builder, index, "launcher", record.launcher)  # resolved again when filed


def neutral(builder: _Builder, index: int, record: NeutralRecord, line: int | None) -> None:
    """IPCs paid to enter a neutral territory."""
    name = _land(builder, index, "neutral", record.neutral)
    if not resolve(name).territory.neutral:
        raise builder.error(f"expected neutral = a neutral territory of the board, found {name!r} "
                            "(not neutral)", index, "neutral")
    builder.add(NeutralEntered, record.at, line, turn=builder._turn(index, record.turn),
                neutral=record.neutral, text=record.text, territory=name)


def forfeit_request(builder: _Builder, index: int, record: ForfeitRequestRecord, line: int | None) -> None:
    """A forfeit request (2008 Forfeits: "enter a reason for the forfeit request")."""
    builder.add(ForfeitRequested, record.at, line, by=_party(builder, index, record.by), text=record.text)


def forfeit_decision(builder: _Builder, index: int, record: ForfeitDecisionRecord,
                     line: int | None) -> None:
    """The Minister of Law's answer to the forfeit request before it."""
    if record.decision not in FORFEIT_DECISIONS:
        raise builder.error(f"expected decision = one of {', '.join(FORFEIT_DECISIONS)}, found "
                            f"{record.decision!r}", index, "decision")
    builder.add(ForfeitDecided, record.at, line, decision=record.decision, by=record.by, text=record.text)


def concession(builder: _Builder, index: int, record: ConcessionRecord, line: int | None) -> None:
    """A player concedes the game."""
    builder.add(GameConceded, record.at, line, by=_party(builder, index, record.by), text=record.text)


#: ``type = "..."`` -> (its Struct, its builder), for :data:`application.intake.record_events.RECORD_KINDS`.
KINDS: dict[str, tuple[type[Record], Callable[[_Builder, int, Any, int | None], None]]] = {
    "bombing": (BombingRecord, bombing), "rocket": (RocketRecord, rocket),
    "neutral": (NeutralRecord, neutral),
    "forfeit_request": (ForfeitRequestRecord, forfeit_request),
    "forfeit_decision": (ForfeitDecisionRecord, forfeit_decision),
    "concession": (ConcessionRecord, concession),
}

#: The record type each of these events is written as (for ``minister export``).
RECORD_TYPES: dict[type[GameEvent], str] = {
    BombingRecorded: "bombing", RocketFired: "rocket", NeutralEntered: "neutral",
    ForfeitRequested: "forfeit_request", ForfeitDecided: "forfeit_decision", GameConceded: "concession",
}
