"""Replay files to events: every error names the file, the line and what was expected."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from application.adapters.mapper import encode_event
from application.intake.replayfile import load_replay, parse_replay
from domain.errors import ReplayError
from domain.record.events import DeclarationRecorded, GameStarted, PositionRecorded, RollRecorded
from domain.record.intake import battle_log
from domain.rules.forces import Force

GOOD = '''format = "minister-replay/1"

[game]
id = "g1"
edition = "iaapa-2008"
dice_seed = "seed"

[[event]]
type = "position"
at = 2008-01-01T10:00:00Z
units = ["Germany Ukraine: 6 ARM", "USSR Cauc: 2 INF"]

[[event]]
type = "declaration"
at = 2008-01-01T10:01:00Z
turn = "Germany 2"
text = """
Attack #1 - Caucasus (2 INF)
Ukr 6 ARM
"""

[[event]]
type = "roll"
at = 2008-01-01T10:02:00Z
battle = "Caucasus"
log = """
Caucasus(2 INF)
6 ARM from Ukraine
A1 1*2*3*1*2*5 5 Hits
D1 1*2* 2 Hits
"""
'''


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_good_file_becomes_consecutive_events() -> None:
    replay = parse_replay(GOOD, "g.toml")
    kinds = [type(e) for e in replay.events]
    assert kinds == [GameStarted, PositionRecorded, DeclarationRecorded, RollRecorded]
    assert [e.originator_version for e in replay.events] == [1, 2, 3, 4]
    started = replay.events[0]
    assert isinstance(started, GameStarted)
    assert started.dice_commitment is not None and started.dice_seed == "seed"
    position = replay.events[1]
    assert isinstance(position, PositionRecorded)
    assert [(h.power, h.territory, h.units) for h in position.holdings] == [
        ("Germany", "Ukraine S.S.R.", Force.parse("6 ARM")), ("USSR", "Caucasus", Force.parse("2 INF"))]
    roll = replay.events[3]
    assert isinstance(roll, RollRecorded)
    assert roll.source_line == _line_of(GOOD, "Caucasus(2 INF)")


def test_a_roll_keeps_its_text_once_and_its_lines_as_read() -> None:
    roll = parse_replay(GOOD).events[3]
    assert isinstance(roll, RollRecorded) and roll.parsed is not None
    assert roll.parsed.lines and all(line.raw == "" for line in roll.parsed.lines)
    read = battle_log(roll.log, roll.source_line)
    assert any(line.raw for line in read.lines)  # the text is in the log, not repeated
    assert msgspec.msgpack.encode(roll.parsed) == msgspec.msgpack.encode(read.as_read())


def test_the_same_file_gives_identical_events() -> None:
    first = [encode_event(e) for e in parse_replay(GOOD).events]
    second = [encode_event(e) for e in parse_replay(GOOD).events]
    assert first == second


def test_game_state_survives_a_snapshot_encoding() -> None:
    game = parse_replay(GOOD).game
    again = msgspec.msgpack.decode(msgspec.msgpack.encode(game), type=type(game))
    assert again == game


@pytest.mark.parametrize(("change", "needle", "expected"), [
    (("A1 1*2*3*1*2*5 5 Hits", "A1 1*2*3*0*2*5 5 Hits"), "A1 1*2*3*0", "1*2*3*0*2*5"),
    (("Ukr 6 ARM", "Ukr 6 ARM ??"), "Ukr 6 ARM ??", "Ukr 6 ARM ??"),
    (('"USSR Cauc: 2 INF"', '"USSR Atlantis: 2 INF"'), "Atlantis", "Atlantis"),
    (('type = "roll"', 'type = "rol"'), 'type = "rol"', "expected type one of"),
    (('turn = "Germany 2"', 'turn = "Prussia 2"'), "Prussia", "expected turn"),
    (('battle = "Caucasus"', 'battle = "Karelia"'), 'battle = "Karelia"', "no declaration lists"),
    (("at = 2008-01-01T10:02:00Z", "at = 2008-01-01T10:02:00"), "at = 2008-01-01T10:02:00", "with zone"),
    (("at = 2008-01-01T10:02:00Z", "at = 2007-01-01T10:02:00Z"), "at = 2007", "in the order they happened"),
])
def test_errors_name_the_line_and_what_was_expected(
        write_replay: Callable[[str, str], Path], change: tuple[str, str], needle: str,
        expected: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    path = write_replay(text, "bad.toml")
    with pytest.raises(ReplayError) as caught:
        load_replay(path)
    error = caught.value
    assert error.source == str(path)
    wanted_line = _line_of(text, needle)
    # The roll/event line or the key's line, whichever names the bad input most closely.
    assert error.line is not None
    assert abs(error.line - wanted_line) <= 1 or error.line == _line_of(text, "[[event]]"), str(error)
    assert expected in str(error)
    assert str(error).startswith(f"{path}:{error.line}:")


def test_not_toml_names_the_line(write_replay: Callable[[str, str], Path]) -> None:
    path = write_replay(GOOD + "\n[[event]\n", "broken.toml")
    with pytest.raises(ReplayError) as caught:
        load_replay(path)
    assert caught.value.line == len(GOOD.splitlines()) + 2
    assert "not valid TOML" in str(caught.value)


def test_wrong_format_and_missing_file(write_replay: Callable[[str, str], Path], tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="expected format = 'minister-replay/1'"):
        load_replay(write_replay(GOOD.replace("minister-replay/1", "minister-replay/9"), "v9.toml"))
    with pytest.raises(ReplayError, match="cannot read the file"):
        load_replay(tmp_path / "absent.toml")


def test_unknown_edition_is_refused() -> None:
    with pytest.raises(ReplayError, match="expected edition one of iaapa-1999, iaapa-2008"):
        parse_replay(GOOD.replace("iaapa-2008", "iaapa-2031"))
