"""Replay files (``minister-replay/1``, spec/replay-format.md) to domain events.

Every error names the file, the line and what was expected. Each table is first checked against
its msgspec Struct (:mod:`application.intake.replayschema`: every field's type, counts and sizes within
stated limits), then its meaning is read (turns, territories, notation). The whole file is turned
into events and folded into a Game before anything is stored, so a bad file never leaves half a
game behind. Event times (``at``) become the events' timestamps, which makes the events a pure
function of the file: importing the same file twice gives identical events.

A new record type is one Struct in :mod:`application.intake.replayschema` and one entry in
:data:`application.intake.record_events.RECORD_KINDS` (its Struct and the builder method that
turns it into events).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import tomli

from application.adapters.integrity import LinkedEvents
from application.intake.filelines import FileLines
from application.intake.record_events import EventBuilder, convert_table, record_time
from application.intake.references import check_record, check_retreats
from application.intake.replayschema import (
    MAX_EVENTS,
    MAX_FILE_BYTES,
    GameTable,
    IntegrityTable,
    unknown_key,
)
from domain.battle.dice import commitment
from domain.errors import InvalidNotationError, ReplayError
from domain.memory import no_gc
from domain.record.events import (
    GameStarted,
)
from domain.record.game import Game, project_game
from domain.rules.editions import edition, known_editions

FORMAT = "minister-replay/1"
#: The top-level keys and tables of a replay file (any other is refused: a misspelt ``[expect]``
#: would otherwise check nothing).
TOP_KEYS = ("format", "game", "event", "expect", "integrity")


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
    builder = EventBuilder(game.id, source, lines)
    first_at = record_time(records[0], source, lines.event_line(0))
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
    game = convert_table(table, GameTable, "[game]", source,
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
    return convert_table(table, IntegrityTable, "[integrity]", source,
                         lambda key: lines.table_key_line("integrity", key))



def _fold(builder: EventBuilder, source: str) -> Game:
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

