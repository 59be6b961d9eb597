"""The shape of a replay file (``minister-replay/1``): one msgspec Struct per table and record type.

Every field's type is checked here, at the edge, by ``msgspec.convert`` (strict: no number is
taken for a string, no ``true`` for a die), before any event exists; :func:`convert` turns
msgspec's error path (``$.dice[0]``) into the key whose line the message names. Meaning (a
turn, a territory, the notation of a log) is checked by the builder in
:mod:`application.intake.record_events`.

Counts and sizes have stated limits far above any real game (docs/reliability.md), so a hostile
file costs bounded time and memory and never reaches the store with an integer msgpack cannot
hold. A new record type is one more :class:`Record` subclass with its ``tag`` (the file's
``type = "..."``) plus its builder in :data:`application.intake.record_events.RECORD_KINDS`.
"""

from __future__ import annotations

import difflib
import re
from datetime import datetime
from typing import Annotated, Any, TypeVar

import msgspec

#: The largest whole number a count field may hold (turns, rounds, sequences, IPCs, lines).
MAX_COUNT = 1_000_000
#: The most dice one ``dice``/``drawn``/``tech`` record may hold.
MAX_DICE = 10_000
#: The most roll-log lines one file may hold: a real battle takes tens, a whole game a few
#: thousand; the largest generated benchmark game (50,000 events) 164,316. Memory grows with
#: them (~1.7 KB each in ``minister replay FILE``; measured in docs/reliability.md).
MAX_LOG_LINES = 170_000
#: The most dice the roll logs of one file may hold (that benchmark game: 323,354).
MAX_LOG_DICE = 400_000
#: The most [[event]] tables one file may hold.
MAX_EVENTS = 200_000
#: The largest replay file read (bytes).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: The most list items (units, moves) one record may hold.
MAX_ITEMS = 100_000

#: A string with something in it (not only blanks).
Text = Annotated[str, msgspec.Meta(pattern=r"\S")]
#: A name shown on terminals (a game id, a title): no control characters (no screen clears,
#: no fake rows), something not blank.
Name = Annotated[str, msgspec.Meta(pattern=r"^[^\x00-\x1f\x7f-\x9f]*$")]
#: A whole number from 0 to :data:`MAX_COUNT`.
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT)]
#: A whole number from -:data:`MAX_COUNT` to :data:`MAX_COUNT` (a negative bid's total).
Signed = Annotated[int, msgspec.Meta(ge=-MAX_COUNT, le=MAX_COUNT)]
#: A die's face.
Face = Annotated[int, msgspec.Meta(ge=1, le=6)]
#: A label written as text or a number (``number = 1234`` or ``"1234"``).
Label = Text | Annotated[int, msgspec.Meta(ge=0, le=2**53)]


class GameTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``[game]``: the game's id, edition and optional title, dice seed and game number."""

    id: Annotated[str, msgspec.Meta(pattern=r"^[^\x00-\x1f\x7f-\x9f]*\S[^\x00-\x1f\x7f-\x9f]*$")]
    edition: Text
    #: Readings chosen over the edition's own (docs/rulings.md): ``{ casualty_error = "..." }``.
    readings: dict[str, Text | bool] | None = None
    title: Name | None = None
    dice_seed: Label | None = None
    number: Label | None = None
    source_line: Count | None = None


class IntegrityTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``[integrity]`` (written by ``minister export``): the hash-chain head of the events."""

    scheme: Text | None = None
    head: Annotated[str, msgspec.Meta(pattern=r"^[0-9a-fA-F]{64}$")]
    events: Count | None = None


class Record(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Fields every ``[[event]]`` has; ``type`` picks the subclass (its ``tag``).

    A key no record type has is refused (``forbid_unknown_fields``, inherited by every record
    type): a misspelt key (``ipc = 32`` for ``ipcs``) would otherwise be dropped, and the check it
    asked for silently skipped."""

    at: datetime
    #: The line of the file this record was first read from (``minister export`` writes it).
    source_line: Count | None = None


class PositionRecord(Record, kw_only=True):
    """``type = "position"``: a map update."""

    units: Annotated[list[str], msgspec.Meta(max_length=MAX_ITEMS)]


class DeclarationRecord(Record, kw_only=True):
    """``type = "declaration"``: a power's combat declaration."""

    turn: Text
    text: Text


class OrdersRecord(Record, kw_only=True):
    """``type = "orders"``: special orders for one side of a battle."""

    turn: Text
    battle: Text
    side: Text
    text: Text


class RollRecord(Record, kw_only=True):
    """``type = "roll"``: one dice-server record."""

    battle: Text
    log: Text
    game_number: Label | None = None
    turn_number: Count | None = None
    round_number: Count | None = None
    country: Text | None = None


class CasualtiesRecord(Record, kw_only=True):
    """``type = "casualties"``: the casualties a side chose."""

    battle: Text
    round: Count
    side: Text
    units: Text


class RetreatRecord(Record, kw_only=True):
    """``type = "retreat"``: the attacker's retreat."""

    battle: Text
    after_round: Count
    to: Text


class Entered(Record, kw_only=True):
    """A record that may be entered late. ``entered`` (an extension, docs/format-extensions.md):
    when minister stored a record that claims an earlier time in ``at`` (an e-mail entered after
    later records). The file's order goes by ``entered``; the rules by ``at``."""

    entered: datetime | None = None


class ReportRecord(Entered, kw_only=True):
    """``type = "report"``: a correction request (``turn``: the battle's, where the territory
    alone names two battles)."""

    by: Text
    text: Text
    battle: Label | None = None
    turn: Text | None = None


class RulingRecord(Entered, kw_only=True):
    """``type = "ruling"``: a decision on a finding (``turn``, ``battle``: the finding's, to
    name it among several of one kind)."""

    finding: Text
    decision: Text
    election: Label | None = None
    text: str = ""
    turn: Text | None = None
    battle: Text | None = None
    #: The identity of the finding it was made on (``minister export`` writes it; the finding
    #: must exist then): the ruling stays on it whatever findings are added later.
    finding_key: Text | None = None


#: Dice as a list of faces, or written as digits ("14 2 256", a '*' may mark a hit).
Dice = Annotated[list[Face], msgspec.Meta(max_length=MAX_DICE)] | Annotated[
    str, msgspec.Meta(max_length=4 * MAX_DICE)] | Annotated[int, msgspec.Meta(ge=0, le=2**53)]


class DiceRecord(Entered, kw_only=True):
    """``type = "dice"``: dice supplied for a correction (``turn``: the battle's)."""

    battle: Text
    dice: Dice
    turn: Text | None = None


class DrawnRecord(Record, kw_only=True):
    """``type = "drawn"``: dice the verifiable source drew."""

    battle: Text
    sequence: Count
    purpose: str = ""
    dice: Annotated[list[Face], msgspec.Meta(min_length=1, max_length=MAX_DICE)]
    turn: Text | None = None


class TechRecord(Record, kw_only=True):
    """``type = "tech"`` (an extension): weapons-development dice of a turn."""

    turn: Text
    dice: Dice
    declared: Count | None = None
    ipcs: Count | None = None


class NonCombatRecord(Record, kw_only=True):
    """``type = "noncombat"`` (an extension): a power's non-combat moves."""

    turn: Text
    moves: Annotated[list[str], msgspec.Meta(max_length=MAX_ITEMS)]


#: A SHA-256 in hex (a dice commitment).
Sha256 = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]


class CommitmentRecord(Record, kw_only=True):
    """``type = "commitment"`` (the desk): the hash of the Minister's dice secret."""

    commitment: Sha256
    scheme: Text
    by: str = ""


class RevealRecord(Record, kw_only=True):
    """``type = "reveal"`` (the desk): the secret behind a commitment."""

    commitment: Sha256
    secret: Text


class ReportAmendmentRecord(Entered, kw_only=True):
    """``type = "report_amendment"`` (the desk): a report restated."""

    amends: Count
    by: Text
    text: Text
    battle: Label | None = None
    turn: Text | None = None


class RuledRecord(Entered, kw_only=True):
    """``type = "ruled"`` (the desk): a ruling with who gave it, maybe replacing an earlier one."""

    finding: Text
    decision: Text
    election: Label | None = None
    by: str = ""
    text: str = ""
    amends: Count | None = None
    turn: Text | None = None
    battle: Text | None = None
    #: As :attr:`RulingRecord.finding_key`.
    finding_key: Text | None = None


class WithdrawalRecord(Entered, kw_only=True):
    """``type = "withdrawal"`` (the desk): a report or ruling withdrawn."""

    withdraws: Count
    by: str = ""
    text: str = ""


class FieldError(ValueError):
    """A field of the wrong type: ``key`` is the table's key it sits under (None: the table)."""

    def __init__(self, message: str, key: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key


_PATH = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_MISSING = re.compile(r"Object missing required field `(?P<key>[^`]+)`")
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<key>[^`]+)`")
_S = TypeVar("_S", bound=msgspec.Struct)


def convert(table: Any, schema: type[_S], label: str) -> _S:
    """``table`` as a ``schema``; raise :class:`FieldError` naming the key and what was expected.

    ``label`` names the table in messages ("this roll event", "[game]").
    """
    try:
        return msgspec.convert(table, schema, strict=True)
    except msgspec.ValidationError as error:
        raise _field_error(str(error), label, keys(schema)) from None


def keys(schema: type[msgspec.Struct]) -> tuple[str, ...]:
    """The keys a table of ``schema`` may hold (``type`` first for a record)."""
    fields = tuple(schema.__struct_fields__)
    return ("type", *fields) if issubclass(schema, Record) else fields


def unknown_key(key: str, known: tuple[str, ...], label: str) -> str:
    """The message for a key no table of its kind has: the nearest known key, and all of them."""
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    hint = f", did you mean {close[0]!r}?" if close else ""
    return f"unknown key {key!r} in {label}{hint} (its keys: {', '.join(known)})"


def _field_error(text: str, label: str, known: tuple[str, ...]) -> FieldError:
    found = _PATH.match(text)
    what = found.group("what") if found else text
    path = (found.group("path") if found else None) or ""
    missing = _MISSING.match(what)
    if missing:
        key = missing.group("key")
        return FieldError(f"expected {key} = ... in {label} (it is missing)", None)
    unknown = _UNKNOWN.match(what)
    if unknown and not path:
        key = unknown.group("key")
        return FieldError(unknown_key(key, known, label), key)
    key_match = re.match(r"^\.(\w+)", path)
    key = key_match.group(1) if key_match else None
    what = what.replace("matching regex '\\S'", "that is not blank")
    what = re.sub(r"matching regex '\^\[\^[^']*'", "without control characters", what)
    what = what[:1].lower() + what[1:]
    shown = f"{key}{path[len(key) + 1:]}" if key else "the table"
    return FieldError(f"{shown} in {label}: {what}", key)
