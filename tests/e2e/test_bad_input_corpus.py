"""The fuzz corpus (tests/corpus): every bad file is refused with exit 2, file and line, no traceback.

Issue 14, items 2 and 3: a field of the wrong type, binary or non-UTF-8 bytes, integers beyond
what the store can hold, dates at the calendar's ends, deep nesting, truncated strings and
missing tables used to import (poisoning the store) or crash. Each must be refused at the edge.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tui.cli import main

CORPUS = ROOT / "tests" / "corpus"

#: file -> (line the message names, words it must hold)
EXPECTED: dict[str, tuple[int, str]] = {
    "at-date-only.toml": (41, "expected at = an RFC 3339 time with zone"),
    "at-local.toml": (41, "expected at = an RFC 3339 time with zone"),
    "at-year-1.toml": (8, "a time the calendar can hold"),
    "at-year-9999.toml": (41, "a time the calendar can hold"),
    "binary.toml": (2, "expected UTF-8 text"),
    "control-characters-id.toml": (4, "without control characters"),
    "country-int.toml": (26, "country in this roll event: expected `str | null`, got `int`"),
    "declaration-huge-count.toml": (19, "at most 999 units"),
    "deep-inline-tables.toml": (46, "nested too deeply"),
    "deep-nesting.toml": (46, "nested too deeply"),
    "dice-bool.toml": (37, "dice[0] in this dice event: expected `int`, got `bool`"),
    "dice-huge.toml": (37, "dice in this dice event"),
    "empty.toml": (1, "expected format = 'minister-replay/1'"),
    "event-not-table-list.toml": (2, "expected [[event]] tables"),
    "expect-int.toml": (2, "expected [expect] to be a table"),
    "format-missing.toml": (1, "expected format = 'minister-replay/1'"),
    "game-id-int.toml": (4, "id in [game]: expected `str`, got `int`"),
    "game-not-table.toml": (3, "expected a [game] table"),
    "integrity-head-int.toml": (47, "head in [integrity]"),
    "integrity-not-table.toml": (2, "expected an [integrity] table"),
    "missing-game.toml": (1, "expected a [game] table"),
    "no-events.toml": (7, "expected at least one [[event]]"),
    "not-utf8.toml": (42, "expected UTF-8 text, found the byte 0xff"),
    "nul-byte.toml": (42, "not valid TOML"),
    "round-negative.toml": (49, "round in this casualties event: expected `int` >= 0"),
    "seed-huge.toml": (6, "dice_seed in [game]"),
    "side-int.toml": (50, "side in this casualties event"),
    "source-line-huge.toml": (43, "source_line in this report event: expected `int` <= 1000000"),
    "title-date.toml": (7, "title in [game]: expected `str | null`, got `date`"),
    "title-int.toml": (7, "title in [game]: expected `str | null`, got `int`"),
    "title-table.toml": (7, "title in [game]: expected `str | null`, got `object`"),
    "truncated-basic-string.toml": (42, "not valid TOML: Unterminated string"),
    "truncated-string.toml": (49, "not valid TOML: Unterminated string"),
    "turn-number-huge.toml": (26, "turn_number in this roll event: expected `int` <= 1000000"),
    "type-int.toml": (40, "expected type one of"),
    "units-huge-count.toml": (11, "at most 999 units"),
    "units-not-strings.toml": (11, "units[1] in this position event: expected `str`, got `int`"),
    "unknown-key.toml": (45, "unknown key 'ipc' in this report event"),
    "report-unknown-battle.toml": (45, "battle 'Karelia': game 'g1' has no such battle"),
    "noncombat-route-unknown.toml": (16, "unknown territory or sea zone (nearest: North Sea Zone"),
}


def test_every_corpus_file_has_an_expectation() -> None:
    assert sorted(p.name for p in (CORPUS / "bad").iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_bad_file_is_refused_with_its_line(name: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "bad" / name
    line, words = EXPECTED[name]
    store = f"sqlite:{tmp_path / 's.sqlite3'}"
    for command in (["replay", str(path)], ["import", str(path), "--store", store]):
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert err.startswith(f"minister: {path}:{line}: "), err
        assert words in err, err
        assert "Traceback" not in err
    assert main(["games", "--store", store]) == 0
    assert capsys.readouterr().out.strip() == "no games stored"


def test_an_integrity_head_the_events_do_not_give_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "bad-import" / "integrity-wrong-head.toml"
    store = f"sqlite:{tmp_path / 's.sqlite3'}"
    assert main(["import", str(path), "--store", store]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"minister: {path}:47: the events do not match [integrity] head"), err
    assert main(["games", "--store", store]) == 0
    assert capsys.readouterr().out.strip() == "no games stored"


def test_several_files_import_together_and_a_bad_one_stores_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``minister import A B C``: every file is read and checked before the first is stored, so
    a bad file (named with its line) stores none of them; good files are each stored whole."""
    games = sorted((ROOT / "replays" / "games").glob("*.toml"))
    bad = CORPUS / "bad" / sorted(EXPECTED)[0]
    store = f"sqlite:{tmp_path / 's.sqlite3'}"
    assert main(["import", *map(str, games), str(bad), "--store", store]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"minister: {bad}:{EXPECTED[bad.name][0]}: "), err
    assert main(["games", "--store", store]) == 0
    assert capsys.readouterr().out.strip() == "no games stored"
    assert main(["import", str(games[0]), str(games[0]), "--store", store]) == 2
    assert "also the game of" in capsys.readouterr().err
    assert main(["import", *map(str, games), "--store", store]) == 0
    assert capsys.readouterr().out.count("imported ") == len(games) >= 2
    assert main(["import", *map(str, games), "--store", store, "--if-new"]) == 0
    assert capsys.readouterr().out.count("is already stored") == len(games)
