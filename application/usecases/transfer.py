"""Import replay files into a store and export stored games back to replay files.

An import stores all of a game's events in one atomic save, so a malformed file, a crash or a
kill part-way leaves either nothing or the whole game. Importing a game the store already holds
is refused unless the events are the same (then it is reported as already stored).

An export writes ``minister-replay/1`` TOML that imports to byte-identical events: every record
keeps the line of the file it was first read from (``source_line``, 0 for none), ``drawn``
records carry the verifiable dice, and an ``[integrity]`` table states the hash-chain head, which
the import checks. The TOML is written as tomli-w writes it, which escapes every string so that
quotes, backslashes, trailing spaces, control characters and unicode survive (the event tables
by :func:`_event_tables`, byte for byte the same, without tomli-w's per-character loop).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import tomli_w

from application.adapters.app import MinisterApplication
from application.adapters.eventstore import VersionClash, decode_states, read_states
from application.adapters.integrity import SCHEME, head_of
from application.adapters.mapper import encode_event
from application.intake import board_records, club_records
from application.intake.replayfile import FORMAT, Replay
from domain.errors import MinisterError, ReplayError
from domain.memory import no_gc
from domain.record.events import (
    CasualtiesChosen,
    DeclarationRecorded,
    DiceCommitted,
    DiceDrawn,
    DiceRevealed,
    DiceSupplied,
    EntryWithdrawn,
    GameEvent,
    GameStarted,
    NonCombatRecorded,
    NonCombatRouted,
    OrdersRecorded,
    PositionRecorded,
    ReportAmended,
    ReportFiled,
    RetreatDeclared,
    RollRecorded,
    RulingGiven,
    RulingIssued,
    TechRolled,
)


class ImportConflictError(MinisterError):
    """The store holds a different game under the same id."""


class Outcome(enum.Enum):
    """What an import did."""

    IMPORTED = "imported"
    ALREADY_STORED = "already stored"


@dataclass(frozen=True)
class ImportResult:
    """The game an import concerned, its events in the file, and what happened."""

    game_id: str
    events: int
    head: str
    outcome: Outcome
    #: Events the store holds after the file's (appended since the file was written).
    later: int = 0


def import_replay(app: MinisterApplication, replay: Replay, *, if_new: bool = False) -> ImportResult:
    """Record a replay's game in one atomic save; see the module docs for repeated imports.

    ``if_new``: when the store already holds a game with this id, leave it as it is.
    """
    # The replay's events are linked from the genesis link already (parse_replay): their last
    # link is the file's head, and they are what the store holds when it holds this game.
    chained = replay.events
    if replay.integrity is not None:  # the file's head, checked before anything is stored
        _check_head(replay, head_of(chained), len(chained))
    for _ in range(2):  # a second pass only when another writer stored the game meanwhile
        stored = app.game_events(replay.game_id)
        if stored:
            if if_new:
                return ImportResult(replay.game_id, len(chained), head_of(chained),
                                    Outcome.ALREADY_STORED, max(len(stored) - len(chained), 0))
            return _compare(replay, chained, stored)
        try:
            # Linked from the genesis link as the file's own chain is: the head is the file's.
            recorded = app.record(chained, folded=replay.game)
        except VersionClash:
            continue
        return ImportResult(replay.game_id, len(recorded), head_of(recorded), Outcome.IMPORTED)
    raise ImportConflictError(f"{replay.path}: game {replay.game_id!r} is being written by another "
                              "process; try again")


def _check_head(replay: Replay, head: str, count: int) -> None:
    """An ``[integrity]`` table (written by export) must match the events read."""
    table = replay.integrity
    if table is None:
        return
    if table.scheme not in (None, SCHEME):
        raise ReplayError(f"expected [integrity] scheme = {SCHEME!r}, found {table.scheme!r}",
                          source=replay.path, line=replay.integrity_line)
    if table.head.lower() != head:
        raise ReplayError(
            f"the events do not match [integrity] head = {table.head!r} (they give {head!r}, "
            f"{count} events): the file was changed after it was exported. Remove the [integrity] "
            "table to import it as a new record", source=replay.path, line=replay.integrity_line)


def _compare(replay: Replay, chained: Sequence[GameEvent], stored: Sequence[GameEvent]) -> ImportResult:
    for index, event in enumerate(chained):
        if index >= len(stored) or encode_event(stored[index]) != encode_event(event):
            theirs = (f"stored {type(stored[index]).__name__}" if index < len(stored)
                      else f"the store has only {len(stored)} events")
            raise ImportConflictError(
                f"{replay.path}: game {replay.game_id!r} is already stored with different events "
                f"(first difference at event {index + 1}: {theirs}, the file has "
                f"{type(event).__name__}); export the stored game or give the file another game id")
    return ImportResult(replay.game_id, len(chained), head_of(chained), Outcome.ALREADY_STORED,
                        len(stored) - len(chained))


def export_game(app: MinisterApplication, game_id: str) -> str:
    """A stored game as replay-file text that imports to the same events.

    The game is opened first, which checks its hash chain: a broken record is refused
    (TamperedError), never exported with a head the recipient would then blame the file for.
    """
    game = app.game(game_id)  # raises UnknownGameError or TamperedError naming the game
    rows = read_states(app, game.id)
    with no_gc():  # each event decoded as it is written, and let go
        return write_replay(decode_states(rows))


# -- writing TOML -------------------------------------------------------------------------------
_HEADER = ("# Exported by minister. source_line keeps each record's line in the original file;\n"
           "# [integrity] head is the hash-chain head: keep it to check the record later.\n")


def toml_string(text: str) -> str:
    """A TOML string that reads back as ``text`` (as tomli-w writes it: multi-line when it has
    line breaks and no carriage return)."""
    return _tomli_w_string(text, "\r" not in text)


def _tomli_w_string(text: str, multiline: bool) -> str:
    return tomli_w.dumps({"x": text}, multiline_strings=multiline).removeprefix("x = ").removesuffix("\n")


def _plain(value: Any) -> Any:
    """A field's value as TOML holds it: lists for tuples, text for anything else (a Force)."""
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value if isinstance(value, str | int | datetime) else str(value)


def _time(value: datetime) -> datetime:
    """Times are written in UTC (they are stored as instants: the offset was never kept)."""
    return value.astimezone(UTC)


#: The record type each kind of event is written as.
RECORD_TYPES: dict[type[GameEvent], str] = {
    PositionRecorded: "position", DeclarationRecorded: "declaration", OrdersRecorded: "orders",
    RollRecorded: "roll", CasualtiesChosen: "casualties", RetreatDeclared: "retreat",
    ReportFiled: "report", RulingIssued: "ruling", DiceSupplied: "dice", DiceDrawn: "drawn",
    TechRolled: "tech", NonCombatRecorded: "noncombat", NonCombatRouted: "noncombat",
    DiceCommitted: "commitment", DiceRevealed: "reveal", ReportAmended: "report_amendment",
    RulingGiven: "ruled", EntryWithdrawn: "withdrawal",
}
RECORD_TYPES.update(board_records.RECORD_TYPES)
RECORD_TYPES.update(club_records.RECORD_TYPES)
#: Fields the loader derives from what is written (names resolved, text parsed): not written.
DERIVED = frozenset({"territory", "battles", "parsed", "routes"})
_BASE = frozenset(GameEvent.__struct_fields__)


def _fields(event: GameEvent) -> tuple[str, dict[str, Any]]:
    """The record type and fields of an event, as the replay format writes them."""
    kind = RECORD_TYPES.get(type(event))
    if kind is None:
        raise ValueError(f"cannot export a {type(event).__name__} event (no record type for it)")
    fields: dict[str, Any] = {name: getattr(event, name) for name in type(event).__struct_fields__
                              if name not in _BASE and name not in DERIVED}
    if isinstance(event, PositionRecorded):
        fields = {"units": [h.written or f"{h.power} {h.territory}: {h.units}" for h in event.holdings]}
    elif isinstance(event, RollRecorded):
        fields["log"] = fields.pop("log")  # last: the long text reads best after the short keys
    elif isinstance(event, DiceSupplied):
        written = fields.pop("written")
        same = [int(c) for c in written if c.isdigit()] == list(event.dice)
        fields["dice"] = written if same and written else list(event.dice)
    return kind, fields


def write_replay(events: Iterable[GameEvent]) -> str:
    """Replay-file text for a game's stored events (GameStarted first), written by tomli-w.

    The events are read once, in order (they may be decoded as they come: a 50,000-event game's
    events are ~140 MB decoded)."""
    stream = iter(events)
    started = next(stream, None)
    if not isinstance(started, GameStarted):
        raise ValueError("a game's events start with GameStarted")
    game: dict[str, Any] = {"id": started.game_id, "edition": started.edition}
    optional = {"title": started.title, "dice_seed": started.dice_seed,
                "number": started.game_number}
    game.update({key: value for key, value in optional.items() if value is not None})
    game["source_line"] = started.source_line or 0
    records = []
    last: GameEvent = started
    for event in stream:
        last = event
        kind, fields = _fields(event)
        record: dict[str, Any] = {"type": kind,
                                  "at": _time(event.at if event.at is not None else event.timestamp),
                                  "source_line": event.source_line or 0}
        if event.at is not None and event.at != event.timestamp:
            # Entered after it happened (domain.record.claimed): the recording time, an extension.
            record["entered"] = _time(event.timestamp)
        record.update({key: _plain(value) for key, value in fields.items() if value is not None})
        records.append(record)
    integrity = {"scheme": SCHEME, "events": 1 + len(records), "head": head_of((last,))}
    # tomli-w writes "\r\n" inside a multi-line string as a plain line break (TOML reads both
    # as "\n"): a game holding a carriage return is written with one-line strings, exactly.
    multiline = not any("\r" in text for record in (game, *records) for value in record.values()
                        for text in (value if isinstance(value, list) else [value])
                        if isinstance(text, str))
    tables = _event_tables(records, multiline)
    if tables is None:  # tomli-w writes these records inline (a game of a few short records)
        return _HEADER + tomli_w.dumps({"format": FORMAT, "game": game, "event": records,
                                        "integrity": integrity}, multiline_strings=multiline)
    return (_HEADER + tomli_w.dumps({"format": FORMAT, "game": game}, multiline_strings=multiline)
            + tables + "\n" + tomli_w.dumps({"integrity": integrity}, multiline_strings=multiline))


# -- the event records, written exactly as tomli-w writes them, without its character loop -------
#: A string tomli-w writes as it is, between quotes (it escapes these: quote, backslash, and
#: the control characters but tab; a multi-line string keeps its line feeds).
_ESCAPED = re.compile(r'["\\\x00-\x08\x0a-\x1f\x7f]')
_ESCAPED_MULTILINE = re.compile(r'["\\\x00-\x08\x0b-\x1f\x7f]')
_BARE_KEY = re.compile("[A-Za-z0-9_-]+")
_INDENT = "    "  # tomli-w's indent


def _event_tables(records: list[dict[str, Any]], multiline: bool) -> str | None:
    """The ``[[event]]`` tables of ``records`` exactly as tomli-w writes them (None when it
    would write them as an inline array instead: when every record fits on one line)."""
    if not records or all(_fits_inline(record, multiline) for record in records):
        return None
    lines = []
    for record in records:
        lines.append("\n[[event]]\n")
        for key, value in record.items():
            if _BARE_KEY.fullmatch(key) is None:
                return None  # never a field name: tomli-w quotes it
            lines.append(f"{key} = {_literal(value, multiline)}\n")
    return "".join(lines)


def _fits_inline(record: dict[str, Any], multiline: bool) -> bool:
    """Whether tomli-w would write the record as an inline table (one line, at most 100 wide)."""
    inline = ", ".join(f"{key} = {_literal(value, multiline)}" for key, value in record.items())
    written = f"{_INDENT}{{ {inline} }}," if record else f"{_INDENT}{{}},"
    return len(written) <= 100 and "\n" not in written


def _literal(value: Any, multiline: bool, nest: int = 0) -> str:
    """A value as tomli-w's ``format_literal`` writes it (the kinds :func:`_plain` leaves)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | datetime):
        return str(value)
    if isinstance(value, str):
        if multiline and "\n" in value:
            if _ESCAPED_MULTILINE.search(value) is None:
                return f'"""\n{value}"""'
        elif _ESCAPED.search(value) is None:
            return f'"{value}"'
        return _tomli_w_string(value, multiline)  # escapes: tomli-w's own, slower, way
    if isinstance(value, list):
        if not value:
            return "[]"
        items = ",\n".join(_INDENT * (nest + 1) + _literal(item, multiline, nest + 1) for item in value)
        return f"[\n{items},\n{_INDENT * nest}]"
    raise TypeError(f"cannot write a {type(value).__name__} in a replay file")
