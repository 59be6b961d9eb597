"""Replay files (``minister-replay/1``, spec/replay-format.md) to domain events.

Every error names the file, the line and what was expected. Each table is first checked against
its msgspec Struct (:mod:`application.intake.replayschema`: every field's type, counts and sizes within
stated limits), then its meaning is read (turns, territories, notation). The whole file is turned
into events and folded into a Game before anything is stored, so a bad file never leaves half a
game behind. Event times (``at``) become the events' timestamps, which makes the events a pure
function of the file: importing the same file twice gives identical events.

A new record type is one Struct in :mod:`application.intake.replayschema` and one entry in
:data:`RECORD_KINDS` (its Struct and the builder method that turns it into events).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import tomli

from application.adapters.integrity import LinkedEvents
from application.intake import board_records, club_records
from application.intake.desk_records import DeskRecords
from application.intake.filelines import FileLines
from application.intake.references import check_record, check_retreats
from application.intake.replayschema import (
    MAX_EVENTS,
    MAX_FILE_BYTES,
    MAX_LOG_DICE,
    MAX_LOG_LINES,
    CasualtiesRecord,
    CommitmentRecord,
    DeclarationRecord,
    DiceRecord,
    DrawnRecord,
    FieldError,
    GameTable,
    IntegrityTable,
    NonCombatRecord,
    OrdersRecord,
    PositionRecord,
    Record,
    ReportAmendmentRecord,
    ReportRecord,
    RetreatRecord,
    RevealRecord,
    RollRecord,
    RuledRecord,
    RulingRecord,
    TechRecord,
    WithdrawalRecord,
    convert,
    unknown_key,
)
from domain.battle.dice import commitment
from domain.errors import InvalidNotationError, ReplayError
from domain.memory import no_gc
from domain.notation.battle_log import DiceText
from domain.record.claimed import claimed_time_problem
from domain.record.entries import Ruling
from domain.record.events import (
    CasualtiesChosen,
    DeclarationRecorded,
    DiceDrawn,
    DiceSupplied,
    GameEvent,
    GameStarted,
    Holding,
    NonCombatRecorded,
    NonCombatRouted,
    OrdersRecorded,
    PositionRecorded,
    ReportFiled,
    RetreatDeclared,
    RollRecorded,
    RulingIssued,
    TechRolled,
    game_uuid,
)
from domain.record.game import Game, parse_turn, project_game, turn_label
from domain.record.intake import (
    battle_log,
    battle_territory,
    declaration_facts,
    read_noncombat,
    resolved,
    special_orders,
)
from domain.rules.editions import edition, known_editions
from domain.rules.forces import Force

FORMAT = "minister-replay/1"
#: The top-level keys and tables of a replay file (any other is refused: a misspelt ``[expect]``
#: would otherwise check nothing).
TOP_KEYS = ("format", "game", "event", "expect", "integrity")
SIDES = ("attacker", "defender")
DECISIONS = tuple(Ruling)
_POWER_ALIASES = {"ussr": "USSR", "russia": "USSR", "soviet": "USSR", "germany": "Germany",
                  "ger": "Germany", "uk": "UK", "britain": "UK", "japan": "Japan", "jap": "Japan",
                  "usa": "USA", "us": "USA"}
_HOLDING = re.compile(r"^\s*(\S+)\s+(.+?)\s*:\s*(.*)$")
_DICE = re.compile(r"^[1-6*\s,]*$")
_R = TypeVar("_R", bound=msgspec.Struct)


@dataclass
class Replay:
    """A replay file read into events, with its expectations."""

    path: str
    game_id: str
    edition: str
    #: The events, linked into the hash chain from the genesis link (as a store records them).
    events: LinkedEvents
    expect: dict[str, Any] | None
    game: Game
    #: The file's top-level keys and tables, but for its [[event]] tables (read into ``events``).
    raw: dict[str, Any] = field(default_factory=dict)
    #: The ``[integrity]`` table (written by ``minister export``), checked for its shape.
    integrity: IntegrityTable | None = None
    #: The line of the ``[integrity]`` head (for the import's messages).
    integrity_line: int | None = None


def load_replay(path: str | Path) -> Replay:
    """Read a replay file; raise :class:`ReplayError` naming the file and line on bad input."""
    source = str(path)
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ReplayError(f"cannot read the file ({error.strerror})", source=source) from None
    if len(data) > MAX_FILE_BYTES:
        raise ReplayError(f"the file is larger than the limit of {MAX_FILE_BYTES // 2**20} MB",
                          source=source)
    return parse_replay(decode_text(data, source), source)


def decode_text(data: bytes, source: str) -> str:
    """UTF-8 text, or a :class:`ReplayError` naming the line of the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ReplayError(f"expected UTF-8 text, found the byte {data[error.start]:#04x} "
                          f"(a binary file?)", source=source, line=line) from None


def _toml(text: str, source: str) -> dict[str, Any]:
    """The TOML document, or a :class:`ReplayError` with the line of the problem."""
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError as error:
        # Python 3.11's TOMLDecodeError only says "(at line N, column M)" in its message.
        found = re.search(r"\(at line (\d+), column \d+\)", str(error))
        line = int(found.group(1)) if found else None
        if line is None and "end of document" in str(error):
            line = max(1, len(text.splitlines()))
        message = re.sub(r"\s*\((at line \d+, column \d+|at end of document)\)", "", str(error))
        raise ReplayError(f"not valid TOML: {message}", source=source, line=line) from None
    except RecursionError:
        depth = [line.count("[") + line.count("{") for line in text.splitlines()] or [0]
        raise ReplayError("not valid TOML: arrays or tables nested too deeply", source=source,
                          line=depth.index(max(depth)) + 1) from None


def parse_replay(text: str, source: str = "<replay>") -> Replay:
    """Read a replay document from text."""
    # Reading a file builds a game's worth of small objects and no reference cycle: the cyclic
    # collector would only walk them again and again as they pile up (a 50,000-event file:
    # 0.85 of 4.5 s), so it is paused, and what was built promoted whole (domain.memory).
    with no_gc(promote_over=_PROMOTE_OVER):
        return _parse_replay(text, source)


#: New objects above which reading a file promotes what it built (see domain.memory.no_gc).
_PROMOTE_OVER = 50_000


def _parse_replay(text: str, source: str) -> Replay:
    data = _toml(text, source)
    lines = FileLines(text)
    if data.get("format") != FORMAT:
        raise ReplayError(f"expected format = {FORMAT!r}, found {data.get('format')!r}",
                          source=source, line=lines.top_line("format") or 1)
    for key in data:
        if key not in TOP_KEYS:
            raise ReplayError(unknown_key(key, TOP_KEYS, "the file"), source=source,
                              line=lines.any_line(key))
    game = _game_table(data, lines, source)
    records = data.pop("event", [])  # each table is let go once read: the events replace them
    if not isinstance(records, list) or not records:
        raise ReplayError("expected at least one [[event]] table", source=source,
                          line=lines.top_line("event") or max(1, len(lines.lines)))
    if not all(isinstance(record, dict) for record in records):
        raise ReplayError("expected [[event]] tables, found a list of other values", source=source,
                          line=lines.top_line("event"))
    if len(records) > MAX_EVENTS:
        raise ReplayError(f"expected at most {MAX_EVENTS} [[event]] tables, found {len(records)}",
                          source=source, line=lines.event_line(MAX_EVENTS))
    lines.state(records)
    builder = _Builder(game.id, source, lines)
    first_at = _at(records[0], source, lines.event_line(0))
    seed, number = game.dice_seed, game.number
    builder.add(GameStarted, first_at, lines.tables.get("game"), game_id=game.id,
                edition=game.edition, title=game.title,
                dice_seed=str(seed) if seed is not None else None,
                dice_commitment=commitment(str(seed)) if seed is not None else None,
                game_number=str(number) if number is not None else None)
    builder.keep_line(game.source_line)
    for index, record in enumerate(records):
        builder.record(index, record)
        records[index] = None
    expect = data.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise ReplayError(f"expected [expect] to be a table, found {type(expect).__name__}",
                          source=source, line=lines.top_line("expect"))
    integrity = _integrity_table(data, lines, source)
    state = _fold(builder, source)
    # Linked into the hash chain here, so the events are what a store records (a pure function
    # of the file: the chain starts from the genesis link).
    return Replay(source, game.id, game.edition, LinkedEvents(builder.events), expect, state, data,
                  integrity, lines.table_key_line("integrity", "head") or lines.top_line("integrity"))


def _game_table(data: dict[str, Any], lines: FileLines, source: str) -> GameTable:
    """The ``[game]`` table, every field checked."""
    table = data.get("game")
    if not isinstance(table, dict):
        raise ReplayError("expected a [game] table (with id and edition)", source=source,
                          line=lines.top_line("game") or 1)
    game = _convert(table, GameTable, "[game]", source,
                    lambda key: lines.table_key_line("game", key))
    # Any registered edition: the two of the texts, or a club's house rules
    # (domain.rules.editions.register), with readings added by name ("iaapa-2008+field=value").
    base = game.edition.partition("+")[0]
    if base not in known_editions():
        raise ReplayError(f"expected edition one of {', '.join(known_editions())}, found {game.edition!r}",
                          source=source, line=lines.table_key_line("game", "edition"))
    name = game.edition
    if game.readings:
        # ``[game] readings``: the edition's choices where the texts leave a reading open.
        name += "".join(f"+{key}={str(value).lower() if isinstance(value, bool) else value}"
                        for key, value in sorted(game.readings.items()))
    try:
        edition(name)
    except KeyError as error:
        key = "readings" if game.readings else "edition"
        raise ReplayError(f"expected readings the edition offers: {error.args[0]}", source=source,
                          line=lines.table_key_line("game", key)) from None
    return msgspec.structs.replace(game, edition=name, readings=None)


def _integrity_table(data: dict[str, Any], lines: FileLines, source: str) -> IntegrityTable | None:
    """The ``[integrity]`` table's shape (its head is checked against the events on import)."""
    table = data.get("integrity")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ReplayError("expected an [integrity] table with scheme and head", source=source,
                          line=lines.top_line("integrity"))
    return _convert(table, IntegrityTable, "[integrity]", source,
                    lambda key: lines.table_key_line("integrity", key))


def _convert(table: Any, schema: type[_R], label: str, source: str,
             line_of: Callable[[str | None], int | None]) -> _R:
    """A table as its Struct; a wrong field is a :class:`ReplayError` at the key's line."""
    try:
        return convert(table, schema, label)
    except FieldError as error:
        raise ReplayError(error.message, source=source, line=line_of(error.key)) from None


def _fold(builder: _Builder, source: str) -> Game:
    """Fold the events now, so a record the Game cannot file, or whose references it cannot
    resolve (application.intake.references), fails before anything is stored."""
    game: Game | None = None
    lines = builder.lines
    for index, read in enumerate(builder.events):
        # One [[event]] table per event after GameStarted: event version v is table v - 2.
        table = read.originator_version - 2
        event = read if game is None else check_record(game, read, source, partial(lines.key_line, table))
        builder.events[index] = event
        try:
            game = project_game(game, [event])
        except InvalidNotationError as error:
            # A record naming an undeclared battle is best shown at its ``battle =`` line.
            line = lines.key_line(table, "battle") if error.text and "battle" in error.message \
                and table >= 0 else None
            raise ReplayError(f"{error.message}" + (f": {error.text!r}" if error.text else ""),
                              source=source, line=line or error.line) from None
    assert game is not None
    # Record numbers are versions less one in a file (GameStarted is version 1, record 0).
    check_retreats(game, source, lambda seq, key: lines.key_line(seq - 1, key))
    return game


@dataclass(frozen=True)
class RecordKind:
    """One ``type = "..."`` of [[event]]: the Struct that checks it, the method that records it."""

    schema: type[Record]
    build: Callable[[_Builder, int, Any, int | None], None]


class _Builder(DeskRecords):
    """Turns [[event]] tables into events with consecutive versions."""

    def __init__(self, game_id: str, source: str, lines: FileLines) -> None:
        self.game_id = game_id
        self.uuid = game_uuid(game_id)
        self.source = source
        self.lines = lines
        self.events: list[GameEvent] = []
        self.last_at: datetime | None = None
        #: Roll-log lines and dice read so far (at most MAX_LOG_LINES and MAX_LOG_DICE).
        self.log_lines = 0
        self.log_dice = 0
        #: The ``entered`` key of the record being built (None: entered when it happened).
        self.entered: datetime | None = None

    def add(self, cls: type[GameEvent], at: datetime, line: int | None, **fields: Any) -> None:
        index = len(self.events) - 1  # the GameStarted event has no [[event]] table
        # A record entered late (``entered``, an extension) claims an earlier time in ``at``:
        # the file's order goes by when it was entered, the rules by ``at``.
        entered, self.entered = self.entered, None
        order = entered if entered is not None else at
        key = "entered" if entered is not None else "at"
        if self.last_at is not None and order < self.last_at:
            raise ReplayError(f"events must be in the order they happened: {order.isoformat()} is "
                              f"before the previous event's {self.last_at.isoformat()}"
                              + (" (entered: when the record was stored)" if entered else ""),
                              source=self.source, line=self.lines.key_line(index, key) or line)
        if entered is not None and self.events:
            problem = claimed_time_problem(at, entered, start=self.events[0].timestamp)
            if problem is not None:
                raise ReplayError(f"at {problem}", source=self.source,
                                  line=self.lines.key_line(index, "at") or line)
        self.last_at = order
        self.events.append(cls(originator_id=self.uuid, originator_version=len(self.events) + 1,
                               timestamp=order, at=at, source_line=line, **fields))

    def keep_line(self, line: int | None) -> None:
        """Honour a ``source_line`` key (``minister export`` writes it; 0: no line).

        An exported record keeps the lines of the file it was first read from, so importing the
        export gives the same events (an extension of minister-replay/1).
        """
        if line is not None and self.events:
            self.events[-1] = msgspec.structs.replace(self.events[-1], source_line=line or None)

    def error(self, message: str, index: int, key: str | None = None) -> ReplayError:
        """A :class:`ReplayError` at the line of ``key`` in the index-th [[event]] table."""
        line = self.lines.key_line(index, key) if key else self.lines.event_line(index)
        return ReplayError(message, source=self.source, line=line)

    def record(self, index: int, table: Any) -> None:
        """Check the index-th [[event]] table against its Struct, then record its events."""
        line = self.lines.stated[index] if index in self.lines.stated else self.lines.event_line(index)
        if not isinstance(table, dict):
            raise self.error("expected [[event]] to be a table", index)
        kind_name = table.get("type")
        kind = RECORD_KINDS.get(kind_name) if isinstance(kind_name, str) else None
        if kind is None:
            raise self.error(f"expected type one of {', '.join(sorted(RECORD_KINDS))}, "
                             f"found {kind_name!r}", index, "type" if "type" in table else None)
        try:
            _at(table, self.source, line)
        except ReplayError:  # said at the ``at`` key's line (looked up only now)
            _at(table, self.source, self.lines.key_line(index, "at") if "at" in table else line)
        body = dict(table)  # the table less its ``type`` (which named the kind)
        del body["type"]
        record = _convert(body, kind.schema, f"this {kind_name} event", self.source,
                          lambda key: self.lines.key_line(index, key) if key is not None and key in table
                          else self.lines.event_line(index))
        self.entered = getattr(record, "entered", None)
        try:
            kind.build(self, index, record, line)
        except InvalidNotationError as error:
            raise ReplayError(error.message + (f": {error.text!r}" if error.text else ""),
                              source=self.source, line=error.line or line) from None
        self.keep_line(record.source_line)

    # -- per type -----------------------------------------------------------------------------
    def position(self, index: int, record: PositionRecord, line: int | None) -> None:
        holdings = []
        for offset, entry in enumerate(record.units):
            try:
                holdings.append(_holding(entry))
            except ValueError as error:
                first = self.lines.key_line(index, "units") or line  # looked up only now
                raise ReplayError(str(error), source=self.source,
                                  line=self._item_line(first, entry, offset)) from None
        self.add(PositionRecorded, record.at, line, holdings=tuple(holdings))

    def _item_line(self, first: int | None, entry: str, offset: int) -> int | None:
        """The line of a list item (searching from the key's line), for error messages."""
        if first is None:
            return None
        for lineno in range(first, len(self.lines.lines) + 1):
            if entry in self.lines.lines[lineno - 1]:
                return lineno
        return first + offset

    def declaration(self, index: int, record: DeclarationRecord, line: int | None) -> None:
        turn = self._turn(index, record.turn)
        start = self.lines.text_start(index, "text")
        self.add(DeclarationRecorded, record.at, start, turn=turn, text=record.text,
                 battles=declaration_facts(record.text, start))

    def orders(self, index: int, record: OrdersRecord, line: int | None) -> None:
        parsed = special_orders(record.text, self.lines.text_start(index, "text"))
        self.add(OrdersRecorded, record.at, line, turn=self._turn(index, record.turn),
                 battle=record.battle, side=self._side(index, record.side), text=record.text,
                 territory=self._territory(index, record.battle), parsed=parsed)

    def roll(self, index: int, record: RollRecord, line: int | None) -> None:
        start = self.lines.text_start(index, "log") or 1
        # Memory grows with the roll-log lines kept (docs/reliability.md): a stated limit.
        self.log_lines += record.log.count("\n") + 1
        if self.log_lines > MAX_LOG_LINES:
            raise self.error(f"expected at most {MAX_LOG_LINES} roll-log lines in one file, found "
                             f"{self.log_lines} by this roll", index, "log")
        parsed = battle_log(record.log, start)
        self.log_dice += sum(len(column) for line in parsed.lines
                             if isinstance(dice := getattr(line, "dice", None), DiceText)
                             for column in dice.columns)
        if self.log_dice > MAX_LOG_DICE:
            raise self.error(f"expected at most {MAX_LOG_DICE} dice in the roll logs of one file, "
                             f"found {self.log_dice} by this roll", index, "log")
        number = record.game_number
        # Stored as read: each line's text is in ``log`` already, and the fold keeps none of it.
        self.add(RollRecorded, record.at, start, battle=record.battle, log=record.log,
                 parsed=parsed.as_read(), territory=self._territory(index, record.battle),
                 game_number=str(number) if number is not None else None,
                 turn_number=record.turn_number, round_number=record.round_number,
                 country=record.country)

    def casualties(self, index: int, record: CasualtiesRecord, line: int | None) -> None:
        units = Force.parse(record.units)
        self.add(CasualtiesChosen, record.at, line, battle=record.battle,
                 territory=self._territory(index, record.battle), round=record.round,
                 side=self._side(index, record.side), units=units)

    def retreat(self, index: int, record: RetreatRecord, line: int | None) -> None:
        try:
            resolved(record.to)
        except InvalidNotationError as error:
            raise error.at_offset(self.lines.key_line(index, "to") or 1) from None
        self.add(RetreatDeclared, record.at, line, battle=record.battle,
                 territory=self._territory(index, record.battle),
                 after_round=record.after_round, to=record.to)

    def report(self, index: int, record: ReportRecord, line: int | None) -> None:
        battle = record.battle
        self.add(ReportFiled, record.at, line, by=record.by, text=record.text,
                 battle=str(battle) if battle is not None else None,
                 turn=self.turn_of(index, record.turn))

    def ruling(self, index: int, record: RulingRecord, line: int | None) -> None:
        if record.decision not in DECISIONS:
            raise self.error(f"expected decision one of {', '.join(DECISIONS)}, "
                             f"found {record.decision!r}", index, "decision")
        election = record.election
        self.add(RulingIssued, record.at, line, finding=record.finding, decision=record.decision,
                 election=str(election) if election is not None else None, text=record.text,
                 turn=self.turn_of(index, record.turn), battle=record.battle, finding_key=record.finding_key)

    def tech(self, index: int, record: TechRecord, line: int | None) -> None:
        """``type = "tech"`` (an extension): weapons-development dice of a turn."""
        values, _ = self._dice_values(index, record.dice)
        self.add(TechRolled, record.at, line, turn=self._turn(index, record.turn), dice=values,
                 declared=record.declared, ipcs=record.ipcs)

    def noncombat(self, index: int, record: NonCombatRecord, line: int | None) -> None:
        """``type = "noncombat"`` (an extension): the listed non-combat moves of a turn."""
        try:
            read = [read_noncombat(m) for m in record.moves]
        except InvalidNotationError as error:
            raise error.at_offset(self.lines.key_line(index, "moves") or 1) from None
        parsed, routes = tuple(move for move, _ in read), tuple(route for _, route in read)
        if any(routes):
            # Version 2 only where a route is stated: a record without one stays version 1.
            self.add(NonCombatRouted, record.at, line, turn=self._turn(index, record.turn),
                     moves=tuple(record.moves), parsed=parsed, routes=routes)
        else:
            self.add(NonCombatRecorded, record.at, line, turn=self._turn(index, record.turn),
                     moves=tuple(record.moves), parsed=parsed)

    def _dice_values(self, index: int, raw: list[int] | str | int) -> tuple[tuple[int, ...], str]:
        if isinstance(raw, list):
            values = tuple(raw)
            written = "".join(str(v) for v in raw)
        elif _DICE.match(str(raw)):
            written = str(raw)
            values = tuple(int(ch) for ch in written if ch.isdigit())
        else:
            raise self.error(f"expected dice = \"digits 1-6\" (a '*' may mark a hit), found {raw!r}",
                             index, "dice")
        if not values:
            raise self.error("expected at least one die", index, "dice")
        return values, written

    def dice(self, index: int, record: DiceRecord, line: int | None) -> None:
        values, written = self._dice_values(index, record.dice)
        self.add(DiceSupplied, record.at, line, battle=record.battle, dice=values,
                 territory=self._territory(index, record.battle), written=written,
                 turn=self.turn_of(index, record.turn))

    def drawn(self, index: int, record: DrawnRecord, line: int | None) -> None:
        """Dice the verifiable source drew (``minister roll``; an extension of the format)."""
        self.add(DiceDrawn, record.at, line, battle=record.battle,
                 territory=self._territory(index, record.battle), sequence=record.sequence,
                 purpose=record.purpose, dice=tuple(record.dice), turn=self.turn_of(index, record.turn))

    # -- fields -------------------------------------------------------------------------------
    def _territory(self, index: int, name: str) -> str:
        """The canonical territory of the record's ``battle`` (resolved once, here)."""
        try:
            return battle_territory(name)
        except InvalidNotationError as error:
            raise self.error(f"{error.message}: {name!r}", index, "battle") from None

    def _side(self, index: int, side: str) -> str:
        if side not in SIDES:
            raise self.error(f"expected side = \"attacker\" or \"defender\", found {side!r}",
                             index, "side")
        return side

    def turn_of(self, index: int, text: str | None) -> str | None:
        """An optional ``turn`` key, canonical ("uk 3" -> "UK 3"; None: not given)."""
        return self._turn(index, text) if text is not None else None

    def _turn(self, index: int, text: str) -> str:
        try:
            return turn_label(*parse_turn(text))
        except InvalidNotationError:
            raise self.error(f"expected turn = \"<power> <round>\" such as \"USSR 3\", "
                             f"found {text!r}", index, "turn") from None


#: Every record type a replay file may hold: ``type = "..."`` -> its Struct and its builder.
RECORD_KINDS: dict[str, RecordKind] = {
    "position": RecordKind(PositionRecord, _Builder.position),
    "declaration": RecordKind(DeclarationRecord, _Builder.declaration),
    "orders": RecordKind(OrdersRecord, _Builder.orders),
    "roll": RecordKind(RollRecord, _Builder.roll),
    "casualties": RecordKind(CasualtiesRecord, _Builder.casualties),
    "retreat": RecordKind(RetreatRecord, _Builder.retreat),
    "report": RecordKind(ReportRecord, _Builder.report),
    "ruling": RecordKind(RulingRecord, _Builder.ruling),
    "dice": RecordKind(DiceRecord, _Builder.dice),
    "drawn": RecordKind(DrawnRecord, _Builder.drawn),
    "tech": RecordKind(TechRecord, _Builder.tech),
    "noncombat": RecordKind(NonCombatRecord, _Builder.noncombat),
    "commitment": RecordKind(CommitmentRecord, _Builder.commitment),
    "reveal": RecordKind(RevealRecord, _Builder.reveal),
    "report_amendment": RecordKind(ReportAmendmentRecord, _Builder.report_amendment),
    "ruled": RecordKind(RuledRecord, _Builder.ruled),
    "withdrawal": RecordKind(WithdrawalRecord, _Builder.withdrawal),
}
# The board's records (extensions, docs/format-extensions.md), read in their own module.
RECORD_KINDS.update({name: RecordKind(schema, build)
                     for name, (schema, build) in (*board_records.KINDS.items(),
                                                   *club_records.KINDS.items())})


def _at(record: Any, source: str, line: int | None) -> datetime:
    """A record's ``at``: an RFC 3339 time with a zone, within the calendar once in UTC."""
    value = record.get("at") if isinstance(record, dict) else None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise ReplayError(f"expected at = an RFC 3339 time with zone (1999-07-20T18:00:00Z), "
                          f"found {value!r}", source=source, line=line)
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise ReplayError(f"expected at = a time the calendar can hold in UTC, found "
                          f"{value.isoformat()}", source=source, line=line) from None
    return value


def _holding(entry: str) -> Holding:
    """One ``"Power Territory: units"`` entry; ValueError saying what was expected."""
    match = _HOLDING.match(entry)
    if not match:
        raise ValueError(f"expected \"Power Territory: units\", found {entry!r}")
    power = _POWER_ALIASES.get(match.group(1).lower())
    if power is None:
        raise ValueError(f"expected a power (USSR, Germany, UK, Japan, USA), found "
                         f"{match.group(1)!r} in {entry!r}")
    try:
        territory = battle_territory(match.group(2))
        units = Force.parse(match.group(3))
    except InvalidNotationError as error:
        raise ValueError(f"{error.message}: {error.text!r} in {entry!r}") from None
    return Holding(power=power, territory=territory, units=units, written=entry)
