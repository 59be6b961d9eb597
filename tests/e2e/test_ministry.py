"""The Minister of Law's desk on a stored game: reports and rulings, recorded at the time made.

Recording time decides correctability (2008 Section VII), so these tests freeze the clock.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from freezegun import freeze_time

from tui.cli import main

GAME = '''format = "minister-replay/1"
[game]
id = "desk"
edition = "iaapa-2008"
dice_seed = "desk-seed"
[[event]]
type = "position"
at = 2008-03-01T10:00:00Z
units = ["USSR Caucasus: 2 INF, 1 ARM", "Germany Ukraine: 2 INF", "Germany E Europe: 3 INF"]
[[event]]
type = "declaration"
at = 2008-03-01T10:05:00Z
turn = "USSR 1"
text = """
Attack #1 - Ukraine (2 INF)
Cauc 2 INF, 1 ARM
"""
[[event]]
type = "roll"
at = 2008-03-01T10:10:00Z
battle = "Ukraine"
log = """
Ukraine(2 INF)
R1
A(2 INF) 56 = 0 hits
D(2 INF) 56 = 0 hits
R2
A(2 INF) 1*1* = 2 hits
D(2 INF) 66 = 0 hits
"""
'''

NEXT_TURN = '''[[event]]
type = "declaration"
at = 2008-03-02T09:00:00Z
turn = "Germany 1"
text = """
Attack #1 - Caucasus
E Europe 3 INF
"""
[[event]]
type = "roll"
at = 2008-03-02T09:05:00Z
battle = "Caucasus"
log = """
Caucasus(1 ARM)
R1
A(3 INF) 666 = 0 hits
D(1 ARM) 6 = 0 hits
"""
'''


def _store(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.toml"
    path.write_text(text)
    spec = f"sqlite:{tmp_path / 'store.sqlite3'}"
    assert main(["import", str(path), "--store", spec]) == 0
    return spec


def _report(spec: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["replay", "desk", "--json", "--store", spec]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def _finding(data: dict[str, object]) -> dict[str, object]:
    findings = data["findings"]
    assert isinstance(findings, list)
    [finding] = [f for f in findings if f["kind"] == "too_few_units" and f["turn"] == "USSR 1"]
    assert isinstance(finding, dict)
    return finding


def test_a_report_in_time_makes_the_error_correctable(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    spec = _store(tmp_path, GAME)
    before = _finding(_report(spec, capsys))
    assert before["status"] == "open" and "not reported yet" in str(before["detail"])
    with freeze_time("2008-03-01T11:00:00Z"):
        assert main(["report", "desk", "--by", "USSR", "--text", "my ARM was not rolled",
                     "--battle", "Ukraine", "--store", spec]) == 0
    assert "report recorded at 2008-03-01T11:00:00+00:00" in capsys.readouterr().out
    # Reported in time: correctable, but not corrected until its die is recorded (the clear
    # dice_seed of the record is a legacy demo source and draws nothing).
    waiting = _report(spec, capsys)
    assert _finding(waiting)["status"] == "open"
    assert "awaiting 1 die: R1 attacker column 3 (1 ARM)" in str(_finding(waiting)["detail"])
    battles = waiting["battles"]
    assert isinstance(battles, list) and battles[0]["status"] == "awaiting"
    with freeze_time("2008-03-01T11:05:00Z"):
        assert main(["dice", "desk", "--battle", "Ukraine", "4 1 1 6 6", "--store", spec]) == 0
    entered = capsys.readouterr().out
    assert "dice for Ukraine S.S.R. recorded: 4 1 1 6 6 at 2008-03-01T11:05:00+00:00" in entered
    after = _report(spec, capsys)
    assert _finding(after)["status"] == "corrected"
    battles = after["battles"]
    assert isinstance(battles, list) and battles[0]["status"] == "corrected"


def test_a_report_after_the_next_turn_was_rolled_comes_too_late(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _store(tmp_path, GAME + NEXT_TURN)
    with freeze_time(datetime(2008, 3, 3, 8, 0, tzinfo=UTC)):
        assert main(["report", "desk", "--by", "USSR", "--text", "my ARM was not rolled",
                     "--store", spec]) == 0
    finding = _finding(_report(spec, capsys))
    assert finding["status"] == "fixed"
    assert "after Germany 1 was rolled (2008-03-02 09:05 UTC" in str(finding["detail"])


def test_a_mutual_agreement_is_recorded_and_stands(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    spec = _store(tmp_path, GAME)
    with freeze_time("2008-03-01T11:00:00Z"):
        assert main(["report", "desk", "--by", "USSR", "--text", "ARM missing", "--store", spec]) == 0
    with freeze_time("2008-03-01T11:30:00Z"):
        assert main(["rule", "desk", "--finding", "too_few_units", "--decision", "mutual",
                     "--text", "we agree the battle stands", "--store", spec]) == 0
    finding = _finding(_report(spec, capsys))
    assert finding["status"] == "stands"
    assert "mutual: we agree the battle stands (2008-03-01T11:30:00+00:00)" in str(finding["ruling"])


def test_a_ruling_must_name_a_finding_of_the_game(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    spec = _store(tmp_path, GAME)
    assert main(["rule", "desk", "--finding", "F99", "--decision", "apply", "--store", spec]) == 2
    assert "--finding 'F99': game 'desk' has no such finding" in capsys.readouterr().err


def test_a_ruling_naming_no_finding_kind_is_refused_naming_the_kinds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _store(tmp_path, GAME)
    with pytest.raises(SystemExit) as exit_:
        main(["rule", "desk", "--finding", "too_few_unit", "--decision", "apply", "--store", spec])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --finding: 'too_few_unit' is neither a finding id" in err
    assert "allowed kinds: units_not_available," in err and "too_few_units" in err
