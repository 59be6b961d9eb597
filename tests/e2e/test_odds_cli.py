"""``minister odds`` end to end: text and JSON output, exit codes, error messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from domain.battle.model import BattleSetup, RetreatCondition
from domain.odds.exact import odds
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss
from domain.rules.units import UnitType
from tui.commands import odds as command

ROOT = Path(__file__).resolve().parents[2]


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.commands.odds", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_text_report_as_a_program() -> None:
    done = run_module("9 INF, 3 ARM", "2 INF, 3 ARM, 2 FTR")
    assert done.returncode == 0, done.stderr
    exact = odds(BattleSetup(BattleKind.LAND, Force.parse("9 INF, 3 ARM"),
                             Force.parse("2 INF, 3 ARM, 2 FTR")))
    assert f"{100 * exact.attacker_win:9.4f} %" in done.stdout
    for label in ("Attacker wins", "Defender wins", "Both destroyed", "Attacker retreats",
                  "Expected survivors", "percentiles"):
        assert label in done.stdout


def test_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    code = command.main(["6 INF, 3 ARM, 2 FTR", "AA, 5 INF, 1 FTR", "--attacker-ool", "ARM, INF, FTR",
                         "--retreat", "when 3 or fewer attacking units remain", "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    setup = BattleSetup(BattleKind.LAND, Force.parse("6 INF, 3 ARM, 2 FTR"), Force.parse("AA, 5 INF, 1 FTR"),
                        attacker_order=OrderOfLoss((UnitType.ARM, UnitType.INF, UnitType.FTR)),
                        retreat=RetreatCondition(at_most_units=3))
    exact = odds(setup)
    assert list(doc)[:5] == ["format", "kind", "attacker", "defender", "start_round"]
    assert doc["format"] == "minister-odds/1"
    assert doc["kind"] == "land"
    assert doc["attacker_win"] == round(exact.attacker_win, 12)
    assert doc["retreat"] == round(exact.retreat, 12)
    assert doc["retreat"] > 0
    assert doc["defender"] == {"INF": 5, "FTR": 1, "AA": 1}
    total = doc["attacker_win"] + doc["defender_win"] + doc["draw"] + doc["retreat"] + doc["unresolved"]
    assert total == pytest.approx(1.0, abs=1e-10)


def test_sea_and_amphibious_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert command.main(["2 SUB, 1 FTR", "1 AC, 2 FTR, 1 SUB", "--sea", "--withdraw-subs", "1",
                         "--json"]) == 0
    sea = json.loads(capsys.readouterr().out)
    exact = odds(BattleSetup(BattleKind.SEA, Force.parse("2 SUB, 1 FTR"), Force.parse("1 AC, 2 FTR, 1 SUB"),
                             sub_withdrawal_after=1))
    assert sea["attacker_win"] == round(exact.attacker_win, 12)
    assert command.main(["3 INF, 1 ARM", "3 INF", "--amphibious", "--support", "2 BB", "--rounds"]) == 0
    text = capsys.readouterr().out
    assert "support shots: 2 BB" in text
    assert "Battle ends in round:" in text


def test_through_the_minister_command(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    assert main(["odds", "1 INF", "1 INF", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["attacker_win"] == 0.25


@pytest.mark.parametrize(("args", "named", "expected"), [
    (["9 XYZ", "1 INF"], "ATTACKER", "unknown unit type"),
    (["1 INF", "2 FOOBAR"], "DEFENDER", "unknown unit type"),
    (["1 INF", "1 INF", "--retreat", "sometime"], "--retreat", "after round N"),
    (["1 INF", "1 INF", "--attacker-ool", "INF, 3 ARM"], "--attacker-ool", "unit types"),
    (["1 INF", "1 INF", "--amphibious", "--support", "2 FTR"], "--support", "battleships only"),
    (["1 INF", "1 BB"], "DEFENDER", "land battle"),
    (["AA", "1 INF"], "ATTACKER", "cannot attack"),
])
def test_bad_input_exits_2_naming_the_argument(args: list[str], named: str, expected: str) -> None:
    done = run_module(*args)
    assert done.returncode == 2
    assert named in done.stderr
    assert expected in done.stderr
    assert done.stdout == ""
