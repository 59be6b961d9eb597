"""[[event]] tables to domain events: one builder method per record ``type``.

The builder checks each table against its msgspec Struct (:mod:`application.intake.replayschema`),
reads its meaning (turns, territories, notation) and appends its events with consecutive
versions; a wrong field or a bad value is a :class:`ReplayError` at the key's line. The board's,
the club's and the desk's records are read by the tables and mixins of
:mod:`application.intake.board_records`, :mod:`application.intake.club_records` and
:mod:`application.intake.desk_records`. The file around the tables (TOML, ``[game]``,
``[integrity]``, the fold that checks the whole) is :mod:`application.intake.replayfile`'s.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import msgspec

from application.intake import board_records, club_records
from application.intake.desk_records import DeskRecords
from application.intake.filelines import FileLines
from application.intake.replayschema import (
    MAX_LOG_DICE,
    MAX_LOG_LINES,
    CasualtiesRecord,
    CommitmentRecord,
    DeclarationRecord,
    DiceRecord,
    DrawnRecord,
    FieldError,
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
)
from domain.errors import InvalidNotationError, ReplayError
from domain.notation.battle_log import DiceText
from domain.record.claimed import claimed_time_problem
from domain.record.entries import Ruling
from domain.record.events import (
    CasualtiesChosen,
    DeclarationRecorded,
    DiceDrawn,
    DiceSupplied,
    GameEvent,
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
from domain.record.game import parse_turn, turn_label
from domain.record.intake import (
    battle_log,
    battle_territory,
    declaration_facts,
    read_noncombat,
    resolved,
    special_orders,
)
from domain.rules.forces import Force

SIDES = ("attacker", "defender")
DECISIONS = tuple(Ruling)
_POWER_ALIASES = {"ussr": "USSR", "russia": "USSR", "soviet": "USSR", "germany": "Germany",
                  "ger": "Germany", "uk": "UK", "britain": "UK", "japan": "Japan", "jap": "Japan",
                  "usa": "USA", "us": "USA"}
_HOLDING = re.compile(r"^\s*(\S+)\s+(.+?)\s*:\s*(.*)$")
_DICE = re.compile(r"^[1-6*\s,]*$")
_R = TypeVar("_R", bound=msgspec.Struct)


def convert_table(table: Any, schema: type[_R], label: str, source: str,
                  line_of: Callable[[str | None], int | None]) -> _R:
    """A table as its Struct; a wrong field is a :class:`ReplayError` at the key's line."""
    try:
        return convert(table, schema, label)
    except FieldError as error:
        raise ReplayError(error.message, source=source, line=line_of(error.key)) from None



@dataclass(frozen=True)
class RecordKind:
    """One ``type = "..."`` of [[event]]: the Struct that checks it, the method that records it."""

    schema: type[Record]
    build: Callable[[EventBuilder, int, Any, int | None], None]


class EventBuilder(DeskRecords):
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
            record_time(table, self.source, line)
        except ReplayError:  # said at the ``at`` key's line (looked up only now)
            record_time(table, self.source, self.lines.key_line(index, "at") if "at" in table else line)
        body = dict(table)  # the table less its ``type`` (which named the kind)
        del body["type"]
        record = convert_table(body, kind.schema, f"this {kind_name} event", self.source,
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
    "position": RecordKind(PositionRecord, EventBuilder.position),
    "declaration": RecordKind(DeclarationRecord, EventBuilder.declaration),
    "orders": RecordKind(OrdersRecord, EventBuilder.orders),
    "roll": RecordKind(RollRecord, EventBuilder.roll),
    "casualties": RecordKind(CasualtiesRecord, EventBuilder.casualties),
    "retreat": RecordKind(RetreatRecord, EventBuilder.retreat),
    "report": RecordKind(ReportRecord, EventBuilder.report),
    "ruling": RecordKind(RulingRecord, EventBuilder.ruling),
    "dice": RecordKind(DiceRecord, EventBuilder.dice),
    "drawn": RecordKind(DrawnRecord, EventBuilder.drawn),
    "tech": RecordKind(TechRecord, EventBuilder.tech),
    "noncombat": RecordKind(NonCombatRecord, EventBuilder.noncombat),
    "commitment": RecordKind(CommitmentRecord, EventBuilder.commitment),
    "reveal": RecordKind(RevealRecord, EventBuilder.reveal),
    "report_amendment": RecordKind(ReportAmendmentRecord, EventBuilder.report_amendment),
    "ruled": RecordKind(RuledRecord, EventBuilder.ruled),
    "withdrawal": RecordKind(WithdrawalRecord, EventBuilder.withdrawal),
}
# The board's records (extensions, docs/format-extensions.md), read in their own module.
RECORD_KINDS.update({name: RecordKind(schema, build)
                     for name, (schema, build) in (*board_records.KINDS.items(),
                                                   *club_records.KINDS.items())})


def record_time(record: Any, source: str, line: int | None) -> datetime:
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
