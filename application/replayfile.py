"""Replay files (``minister-replay/1``, spec/replay-format.md) to domain events.

Every error names the file, the line and what was expected. The whole file is turned into
events and folded into a Game before anything is stored, so a bad file never leaves half a
game behind. Event times (``at``) become the events' timestamps, which makes the events a pure
function of the file: importing the same file twice gives identical events.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from application.integrity import chain_events
from domain.battle.dice import commitment
from domain.errors import InvalidNotationError, ReplayError
from domain.notation.battle_log import parse_log
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
    Holding,
    NonCombatRecorded,
    OrdersRecorded,
    PositionRecorded,
    ReportAmended,
    ReportFiled,
    RetreatDeclared,
    RollRecorded,
    RulingGiven,
    RulingIssued,
    TechRolled,
    game_uuid,
)
from domain.record.game import Game, parse_turn, project_game, turn_label
from domain.record.intake import battle_territory, declaration_facts, noncombat_move
from domain.rules.forces import Force
from domain.rules.names import resolve

FORMAT = "minister-replay/1"
EDITIONS = ("iaapa-1999", "iaapa-2008")
SIDES = ("attacker", "defender")
DECISIONS = ("apply", "dismiss", "mutual")
_POWER_ALIASES = {"ussr": "USSR", "russia": "USSR", "soviet": "USSR", "germany": "Germany",
                  "ger": "Germany", "uk": "UK", "britain": "UK", "japan": "Japan", "jap": "Japan",
                  "usa": "USA", "us": "USA"}
_HOLDING = re.compile(r"^\s*(\S+)\s+(.+?)\s*:\s*(.*)$")
_DICE = re.compile(r"^[1-6*\s,]*$")


@dataclass
class Replay:
    """A replay file read into events, with its expectations."""

    path: str
    game_id: str
    edition: str
    events: list[GameEvent]
    expect: dict[str, Any] | None
    game: Game
    raw: dict[str, Any] = field(default_factory=dict)


class _Lines:
    """Line numbers of a TOML document's [[event]] tables and their keys."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.events: list[int] = [i + 1 for i, line in enumerate(self.lines)
                                  if line.strip().startswith("[[event]]")]
        self.tables: dict[str, int] = {}
        for i, line in enumerate(self.lines):
            match = re.match(r"^\s*\[([A-Za-z_]+)\]\s*$", line)
            if match:
                self.tables.setdefault(match.group(1), i + 1)
        #: [[event]] index -> the ``source_line`` an export states (0: none); see keep_line.
        self.stated: dict[int, int | None] = {}

    def state(self, records: Any) -> None:
        """Note the ``source_line`` keys of the [[event]] tables (written by ``minister export``)."""
        for index, record in enumerate(records if isinstance(records, list) else ()):
            line = record.get("source_line") if isinstance(record, dict) else None
            if isinstance(line, int) and not isinstance(line, bool) and line >= 0:
                self.stated[index] = line or None

    def event_line(self, index: int) -> int | None:
        return self.events[index] if index < len(self.events) else None

    def key_line(self, index: int, key: str) -> int | None:
        """The line of ``key = ...`` inside the index-th [[event]] table."""
        start = self.event_line(index)
        if start is None:
            return None
        end = self.events[index + 1] if index + 1 < len(self.events) else len(self.lines) + 1
        for lineno in range(start + 1, end):
            if re.match(rf"^\s*{re.escape(key)}\s*=", self.lines[lineno - 1]):
                return lineno
        return start

    def text_start(self, index: int, key: str) -> int | None:
        """The file line holding the first line of a (possibly multi-line) string value."""
        if index in self.stated:
            return self.stated[index]
        line = self.key_line(index, key)
        if line is None:
            return None
        value = self.lines[line - 1].split("=", 1)[1].strip()
        # TOML drops the newline right after an opening triple quote.
        if value in ('"""', "'''"):
            return line + 1
        return line


def load_replay(path: str | Path) -> Replay:
    """Read a replay file; raise :class:`ReplayError` naming the file and line on bad input."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ReplayError(f"cannot read the file ({error.strerror})", source=source) from None
    return parse_replay(text, source)


def parse_replay(text: str, source: str = "<replay>") -> Replay:
    """Read a replay document from text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.11's TOMLDecodeError only says "(at line N, column M)" in its message.
        found = re.search(r"\(at line (\d+), column \d+\)", str(error))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
        raise ReplayError(f"not valid TOML: {message}", source=source,
                          line=int(found.group(1)) if found else None) from None
    lines = _Lines(text)
    if data.get("format") != FORMAT:
        raise ReplayError(f"expected format = {FORMAT!r}, found {data.get('format')!r}",
                          source=source, line=1)
    game = data.get("game")
    if not isinstance(game, dict):
        raise ReplayError("expected a [game] table", source=source)
    game_line = lines.tables.get("game")
    game_id = _text(game, "id", source, game_line)
    edition = _text(game, "edition", source, game_line)
    if edition not in EDITIONS:
        raise ReplayError(f"expected edition one of {', '.join(EDITIONS)}, found {edition!r}",
                          source=source, line=game_line)
    records = data.get("event", [])
    if not isinstance(records, list) or not records:
        raise ReplayError("expected at least one [[event]]", source=source)
    lines.state(records)
    builder = _Builder(game_id, source, lines)
    first_at = _at(records[0], source, lines.event_line(0))
    seed = game.get("dice_seed")
    number = game.get("number")
    builder.add(GameStarted, first_at, lines.tables.get("game"), game_id=game_id,
                edition=edition, title=game.get("title"),
                dice_seed=str(seed) if seed is not None else None,
                dice_commitment=commitment(str(seed)) if seed is not None else None,
                game_number=str(number) if number is not None else None)
    builder.keep_line(game)
    for index, record in enumerate(records):
        builder.record(index, record)
        builder.keep_line(record)
    expect = data.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise ReplayError("expected [expect] to be a table", source=source, line=lines.tables.get("expect"))
    state = _fold(builder, source)
    # Linked into the hash chain here, so the events are what a store records (a pure function
    # of the file: the chain starts from the genesis link).
    return Replay(source, game_id, edition, chain_events(builder.events), expect, state, data)


def _fold(builder: _Builder, source: str) -> Game:
    """Fold the events now, so a record the Game cannot file fails before anything is stored."""
    game: Game | None = None
    for event in builder.events:
        try:
            game = project_game(game, [event])
        except InvalidNotationError as error:
            # A record naming an undeclared battle is best shown at its ``battle =`` line.
            line = builder.battle_lines.get(event.originator_version) if error.text and \
                "battle" in error.message else None
            raise ReplayError(f"{error.message}" + (f": {error.text!r}" if error.text else ""),
                              source=source, line=line or error.line) from None
    assert game is not None
    return game


class _Builder:
    """Turns [[event]] tables into events with consecutive versions."""

    def __init__(self, game_id: str, source: str, lines: _Lines) -> None:
        self.game_id = game_id
        self.uuid = game_uuid(game_id)
        self.source = source
        self.lines = lines
        self.events: list[GameEvent] = []
        self.last_at: datetime | None = None
        #: version -> line of the event's ``battle =`` key
        self.battle_lines: dict[int, int] = {}

    def add(self, cls: type[GameEvent], at: datetime, line: int | None, **fields: Any) -> None:
        if self.last_at is not None and at < self.last_at:
            index = len(self.events) - 1  # the GameStarted event has no [[event]] table
            raise ReplayError(f"events must be in the order they happened: {at.isoformat()} is "
                              f"before the previous event's {self.last_at.isoformat()}",
                              source=self.source, line=self.lines.key_line(index, "at") or line)
        self.last_at = at
        self.events.append(cls(originator_id=self.uuid, originator_version=len(self.events) + 1,
                               timestamp=at, at=at, source_line=line, **fields))

    def keep_line(self, table: Any) -> None:
        """Honour a ``source_line`` key (``minister export`` writes it; 0: no line).

        An exported record keeps the lines of the file it was first read from, so importing the
        export gives the same events (an extension of minister-replay/1).
        """
        line = table.get("source_line") if isinstance(table, dict) else None
        if isinstance(line, int) and not isinstance(line, bool) and line >= 0 and self.events:
            self.events[-1] = msgspec.structs.replace(self.events[-1], source_line=line or None)

    def record(self, index: int, record: Mapping[str, Any]) -> None:
        line = self.lines.stated[index] if index in self.lines.stated else self.lines.event_line(index)
        kind = record.get("type")
        handler = _HANDLERS.get(str(kind))
        if handler is None:
            raise ReplayError(f"expected type one of {', '.join(sorted(_HANDLERS))}, found {kind!r}",
                              source=self.source, line=self.lines.key_line(index, "type"))
        at = _at(record, self.source, self.lines.key_line(index, "at") if "at" in record else line)
        if "battle" in record:
            battle_line = self.lines.key_line(index, "battle")
            if battle_line is not None:
                self.battle_lines[len(self.events) + 1] = battle_line
        try:
            handler(self, index, record, at, line)
        except InvalidNotationError as error:
            raise ReplayError(error.message + (f": {error.text!r}" if error.text else ""),
                              source=self.source, line=error.line or line) from None

    # -- per type -----------------------------------------------------------------------------
    def position(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        units = record.get("units")
        if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
            raise ReplayError('expected units = ["Power Territory: force", ...]', source=self.source,
                              line=self.lines.key_line(index, "units"))
        first = self.lines.key_line(index, "units") or line
        holdings = []
        for offset, entry in enumerate(units):
            holdings.append(_holding(entry, self.source, self._item_line(first, entry, offset)))
        self.add(PositionRecorded, at, line, holdings=tuple(holdings))

    def _item_line(self, first: int | None, entry: str, offset: int) -> int | None:
        """The line of a list item (searching from the key's line), for error messages."""
        if first is None:
            return None
        for lineno in range(first, len(self.lines.lines) + 1):
            if entry in self.lines.lines[lineno - 1]:
                return lineno
        return first + offset

    def declaration(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        turn = self._turn(index, record)
        text = self._field(index, record, "text")
        start = self.lines.text_start(index, "text")
        self.add(DeclarationRecorded, at, start, turn=turn, text=text,
                 battles=declaration_facts(text, start))

    def orders(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        from domain.notation.special_orders import parse_special_orders

        text = self._field(index, record, "text")
        try:
            parse_special_orders(text)
        except InvalidNotationError as error:
            raise error.at_offset(self.lines.text_start(index, "text") or 1) from None
        self.add(OrdersRecorded, at, line, turn=self._turn(index, record),
                 battle=self._field(index, record, "battle"), side=self._side(index, record),
                 text=text, territory=self._territory(index, record))

    def roll(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        log = self._field(index, record, "log")
        start = self.lines.text_start(index, "log") or 1
        try:
            parse_log(log)
        except InvalidNotationError as error:
            raise error.at_offset(start) from None
        game_number = record.get("game_number")
        self.add(RollRecorded, at, start, battle=self._field(index, record, "battle"), log=log,
                 territory=self._territory(index, record),
                 game_number=str(game_number) if game_number is not None else None,
                 turn_number=self._int(index, record, "turn_number", required=False),
                 round_number=self._int(index, record, "round_number", required=False),
                 country=record.get("country"))

    def casualties(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        units = Force.parse(self._field(index, record, "units"))
        self.add(CasualtiesChosen, at, line, battle=self._field(index, record, "battle"),
                 territory=self._territory(index, record),
                 round=self._int(index, record, "round"), side=self._side(index, record), units=units)

    def retreat(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        to = self._field(index, record, "to")
        try:
            resolve(to)
        except InvalidNotationError as error:
            raise error.at_offset(self.lines.key_line(index, "to") or 1) from None
        self.add(RetreatDeclared, at, line, battle=self._field(index, record, "battle"),
                 territory=self._territory(index, record),
                 after_round=self._int(index, record, "after_round"), to=to)

    def report(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        battle = record.get("battle")
        self.add(ReportFiled, at, line, by=self._field(index, record, "by"),
                 text=self._field(index, record, "text"),
                 battle=str(battle) if battle is not None else None)

    def ruling(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        decision = self._field(index, record, "decision")
        if decision not in DECISIONS:
            raise ReplayError(f"expected decision one of {', '.join(DECISIONS)}, found {decision!r}",
                              source=self.source, line=self.lines.key_line(index, "decision"))
        election = record.get("election")
        self.add(RulingIssued, at, line, finding=self._field(index, record, "finding"),
                 decision=decision, election=str(election) if election is not None else None,
                 text=str(record.get("text", "")))

    def tech(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        """``type = "tech"`` (an extension): weapons-development dice of a turn."""
        values, _ = self._dice_values(index, record)
        self.add(TechRolled, at, line, turn=self._turn(index, record), dice=values,
                 declared=self._int(index, record, "declared", required=False),
                 ipcs=self._int(index, record, "ipcs", required=False))

    def noncombat(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        """``type = "noncombat"`` (an extension): the listed non-combat moves of a turn."""
        moves = record.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise ReplayError('expected moves = ["Origin units to Destination", ...]', source=self.source,
                              line=self.lines.key_line(index, "moves"))
        self.add(NonCombatRecorded, at, line, turn=self._turn(index, record), moves=tuple(moves),
                 parsed=tuple(noncombat_move(m) for m in moves))

    def _dice_values(self, index: int, record: Mapping[str, Any]) -> tuple[tuple[int, ...], str]:
        raw = record.get("dice")
        if isinstance(raw, list) and all(isinstance(v, int) and 1 <= v <= 6 for v in raw):
            values = tuple(raw)
            written = "".join(str(v) for v in raw)
        elif isinstance(raw, str | int) and _DICE.match(str(raw)):
            written = str(raw)
            values = tuple(int(ch) for ch in written if ch.isdigit())
        else:
            raise ReplayError(f"expected dice = \"digits 1-6\" (a '*' may mark a hit), found {raw!r}",
                              source=self.source, line=self.lines.key_line(index, "dice"))
        if not values:
            raise ReplayError("expected at least one die", source=self.source,
                              line=self.lines.key_line(index, "dice"))
        return values, written

    def dice(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        values, written = self._dice_values(index, record)
        self.add(DiceSupplied, at, line, battle=self._field(index, record, "battle"), dice=values,
                 territory=self._territory(index, record), written=written)

    def drawn(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        """Dice the verifiable source drew (``minister roll``; an extension of the format)."""
        raw = record.get("dice")
        if not (isinstance(raw, list) and raw
                and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in raw)):
            raise ReplayError(f"expected dice = [faces 1-6, ...], found {raw!r}", source=self.source,
                              line=self.lines.key_line(index, "dice"))
        self.add(DiceDrawn, at, line, battle=self._field(index, record, "battle"),
                 territory=self._territory(index, record),
                 sequence=self._int(index, record, "sequence"),
                 purpose=str(record.get("purpose", "")), dice=tuple(raw))

    # -- the Minister's desk (extensions: minister commit/reveal, amend, withdraw) ---------------
    def commitment(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        """``type = "commitment"``: the hash of the Minister's dice secret (never the secret)."""
        self.add(DiceCommitted, at, line, commitment=self._hex(index, record, "commitment"),
                 scheme=self._field(index, record, "scheme"), by=str(record.get("by", "")))

    def reveal(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        """``type = "reveal"``: the secret behind a commitment."""
        self.add(DiceRevealed, at, line, commitment=self._hex(index, record, "commitment"),
                 secret=self._field(index, record, "secret"))

    def report_amendment(self, index: int, record: Mapping[str, Any], at: datetime,
                         line: int | None) -> None:
        """``type = "report_amendment"``: a report restated (``amends`` = its event number)."""
        battle = record.get("battle")
        self.add(ReportAmended, at, line, amends=self._earlier(index, record, "amends"),
                 by=self._field(index, record, "by"), text=self._field(index, record, "text"),
                 battle=str(battle) if battle is not None else None)

    def ruled(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        """``type = "ruled"``: a ruling with who gave it, possibly amending an earlier one."""
        decision = self._field(index, record, "decision")
        if decision not in DECISIONS:
            raise ReplayError(f"expected decision one of {', '.join(DECISIONS)}, found {decision!r}",
                              source=self.source, line=self.lines.key_line(index, "decision"))
        election = record.get("election")
        amends = self._earlier(index, record, "amends") if "amends" in record else None
        self.add(RulingGiven, at, line, finding=self._field(index, record, "finding"),
                 decision=decision, election=str(election) if election is not None else None,
                 by=str(record.get("by", "")), text=str(record.get("text", "")), amends=amends)

    def withdrawal(self, index: int, record: Mapping[str, Any], at: datetime, line: int | None) -> None:
        """``type = "withdrawal"``: a report or ruling withdrawn (``withdraws`` = its event number)."""
        self.add(EntryWithdrawn, at, line, withdraws=self._earlier(index, record, "withdraws"),
                 by=str(record.get("by", "")), text=str(record.get("text", "")))

    def _earlier(self, index: int, record: Mapping[str, Any], key: str) -> int:
        value: int = self._int(index, record, key)
        if not 1 <= value <= len(self.events):
            raise ReplayError(f"expected {key} = the number of an earlier event (1-{len(self.events)}), "
                              f"found {value}", source=self.source, line=self.lines.key_line(index, key))
        return value

    def _hex(self, index: int, record: Mapping[str, Any], key: str) -> str:
        value = self._field(index, record, key)
        if not re.fullmatch(r"[0-9a-f]{64}", value):
            raise ReplayError(f"expected {key} = 64 lower-case hex digits (a SHA-256), found {value!r}",
                              source=self.source, line=self.lines.key_line(index, key))
        return value

    # -- fields -------------------------------------------------------------------------------
    def _territory(self, index: int, record: Mapping[str, Any]) -> str:
        """The canonical territory of the record's ``battle`` (resolved once, here)."""
        name = self._field(index, record, "battle")
        try:
            return battle_territory(name)
        except InvalidNotationError as error:
            raise ReplayError(f"{error.message}: {name!r}", source=self.source,
                              line=self.lines.key_line(index, "battle")) from None

    def _field(self, index: int, record: Mapping[str, Any], key: str) -> str:
        value = record.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ReplayError(f"expected {key} = \"...\" in this {record.get('type')} event",
                              source=self.source, line=self.lines.key_line(index, key)
                              if key in record else self.lines.event_line(index))
        return value

    def _int(self, index: int, record: Mapping[str, Any], key: str, *, required: bool = True) -> Any:
        value = record.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ReplayError(f"expected {key} = a whole number, found {value!r}", source=self.source,
                              line=self.lines.key_line(index, key) if key in record
                              else self.lines.event_line(index))
        return value

    def _side(self, index: int, record: Mapping[str, Any]) -> str:
        side = self._field(index, record, "side")
        if side not in SIDES:
            raise ReplayError(f"expected side = \"attacker\" or \"defender\", found {side!r}",
                              source=self.source, line=self.lines.key_line(index, "side"))
        return side

    def _turn(self, index: int, record: Mapping[str, Any]) -> str:
        text = self._field(index, record, "turn")
        try:
            return turn_label(*parse_turn(text))
        except InvalidNotationError:
            raise ReplayError(f"expected turn = \"<power> <round>\" such as \"USSR 3\", found {text!r}",
                              source=self.source, line=self.lines.key_line(index, "turn")) from None


_HANDLERS: dict[str, Callable[[_Builder, int, Mapping[str, Any], datetime, int | None], None]] = {
    "position": _Builder.position, "declaration": _Builder.declaration, "orders": _Builder.orders,
    "roll": _Builder.roll, "casualties": _Builder.casualties, "retreat": _Builder.retreat,
    "report": _Builder.report, "ruling": _Builder.ruling, "dice": _Builder.dice,
    "drawn": _Builder.drawn, "tech": _Builder.tech, "noncombat": _Builder.noncombat,
    "commitment": _Builder.commitment, "reveal": _Builder.reveal,
    "report_amendment": _Builder.report_amendment, "ruled": _Builder.ruled,
    "withdrawal": _Builder.withdrawal,
}


def _text(table: Mapping[str, Any], key: str, source: str, line: int | None) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ReplayError(f"expected {key} = \"...\" in [game]", source=source, line=line)
    return value


def _at(record: Any, source: str, line: int | None) -> datetime:
    value = record.get("at") if isinstance(record, dict) else None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise ReplayError(f"expected at = an RFC 3339 time with zone (1999-07-20T18:00:00Z), "
                          f"found {value!r}", source=source, line=line)
    return value


def _holding(entry: str, source: str, line: int | None) -> Holding:
    match = _HOLDING.match(entry)
    if not match:
        raise ReplayError(f"expected \"Power Territory: units\", found {entry!r}", source=source, line=line)
    power = _POWER_ALIASES.get(match.group(1).lower())
    if power is None:
        raise ReplayError(f"expected a power (USSR, Germany, UK, Japan, USA), found {match.group(1)!r} "
                          f"in {entry!r}", source=source, line=line)
    try:
        territory = resolve(match.group(2)).territory.name
        units = Force.parse(match.group(3))
    except InvalidNotationError as error:
        raise ReplayError(f"{error.message}: {error.text!r} in {entry!r}", source=source, line=line) from None
    return Holding(power=power, territory=territory, units=units, written=entry)
