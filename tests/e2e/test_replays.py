"""Every regression replay in replays/ matches its [expect] table, through the real command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from application.intake.replayfile import load_replay
from application.usecases.desk.dice_check import check_events
from domain.review.game_review import review
from projections.report import report_json
from tests.conftest import REPLAYS, ROOT
from tui.cli import check_replay

FILES = sorted(REPLAYS.rglob("*.toml"))


def test_there_are_replays() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REPLAYS)) for p in FILES])
def test_replay_matches_its_expectations(path: Path) -> None:
    replay = load_replay(path)
    assert replay.expect is not None, "every shipped replay carries an [expect] table"
    assert check_replay(replay) == []


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REPLAYS)) for p in FILES])
def test_replay_states_its_finding_count(path: Path) -> None:
    # [expect] lists match as a subsequence (the spec's rule), so only the count catches an
    # extra finding: every shipped replay states it.
    replay = load_replay(path)
    assert replay.expect is not None
    summary = replay.expect.get("summary")
    assert isinstance(summary, dict) and isinstance(summary.get("findings"), int), (
        f"{path.relative_to(ROOT)}: [expect] states no summary.findings (the number of findings)")


def test_an_unexpected_finding_fails_a_replay_that_states_its_count(tmp_path: Path) -> None:
    # The record of a clean battle with one more armour die typed in round 3: a finding the
    # [expect] findings list (empty) would let through, but the stated count does not.
    source = (REPLAYS / "battles" / "uk1-west-europe-amphibious.toml").read_text()
    broken = source.replace("A(1 BMB) 2* = 1 hit", "A(1 BMB, 1 ARM) 2*/6 = 1 hit")
    assert broken != source
    path = tmp_path / "extra.toml"
    path.write_text(broken)
    problems = check_replay(load_replay(path))
    assert any("summary.findings: expected 0, found 1" in p for p in problems), problems


def _minister(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_verify_command_passes_on_the_shipped_replays() -> None:
    done = _minister("verify", "replays")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(FILES)} passed, 0 failed" in done.stdout


def test_verify_reports_each_mismatch_with_its_path(tmp_path: Path) -> None:
    source = (REPLAYS / "part13" / "overkill-6arm-v-2inf.toml").read_text()
    broken = source.replace("attacker_losses = { ARM = 2 }", "attacker_losses = { ARM = 3 }")
    assert broken != source
    path = tmp_path / "broken.toml"
    path.write_text(broken)
    done = _minister("verify", str(path))
    assert done.returncode == 1
    assert "battles[0].rounds[0].attacker_losses: expected {'ARM': 3}, found {'ARM': 2}" in done.stdout
    assert "0 passed, 1 failed" in done.stdout


def test_replay_json_is_byte_identical_across_runs() -> None:
    path = str(REPLAYS / "battles" / "uk1-west-europe-amphibious.toml")
    first = _minister("replay", path, "--json")
    second = _minister("replay", path, "--json")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert '"format": "minister-report/1"' in first.stdout


def test_text_report_shows_units_dice_losses_and_result_per_round() -> None:
    done = _minister("replay", str(REPLAYS / "battles" / "uk1-west-europe-amphibious.toml"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Round 1" in out and "Round 2" in out and "Round 3" in out
    expected = "A(1 INF, 1 ARM, 1 FTR, 1 BMB) [BB: 3*] [1: 2] [3: 52*] [4: 3*] = 3 hits; loses 1 INF, 1 ARM"
    assert expected in out
    assert "Result: attacker wins; attacker left 1 BMB" in out


def test_bad_input_exits_2_naming_file_and_line(tmp_path: Path) -> None:
    source = (REPLAYS / "part13" / "overkill-6arm-v-2inf.toml").read_text()
    path = tmp_path / "bad.toml"
    path.write_text(source.replace("A1 1*2*3*1*2*5 5 Hits", "A1 1*2*3*9*2*5 5 Hits"))
    done = _minister("replay", str(path))
    assert done.returncode == 2
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "A1 1*2*3*9" in text)
    assert f"{path}:{line}:" in done.stderr
    assert "1*2*3*9*2*5" in done.stderr


def test_every_replay_gives_byte_identical_json_on_every_run() -> None:
    for path in FILES:
        first = report_json(review(load_replay(path).game))
        second = report_json(review(load_replay(path).game))
        assert first == second, path


def test_a_clear_dice_seed_draws_no_correction_die() -> None:
    # Anyone holding the file could compute the dice a clear seed gives: they are never drawn.
    replay = load_replay(REPLAYS / "part14" / "east-europe-verifiable-dice.toml")
    view = review(replay.game)
    assert replay.game.dice_seed is not None and not view.drawn
    [battle] = view.battles
    assert battle.status == "awaiting" and battle.needed is not None and battle.needed.count == 2
    assert not battle.voided and all(e.status != "added" for rv in battle.rounds
                                     for e in rv.attacker.dice + rv.defender.dice)


def test_committed_correction_dice_are_rechecked_offline() -> None:
    replay = load_replay(REPLAYS / "part14" / "east-europe-committed-dice.toml")
    check = check_events(replay.game_id, replay.events, replay.game)
    assert check.verified and check.checked == check.rolls > 0 and not check.pending and not check.legacy
    drawn = [d for b in replay.game.battles for _, _, faces in b.drawn for d in faces]
    view = review(replay.game)
    added = [v for rv in view.battles[0].rounds for e in rv.attacker.dice + rv.defender.dice
             if e.status == "added" for v in e.values]
    assert added == drawn[:len(added)]


def test_reports_do_not_depend_on_the_hash_seed() -> None:
    # Sets of unit types iterate in an order that varies between processes: nothing in a
    # report may depend on it.
    script = ("import sys; from pathlib import Path; from application.intake.replayfile import load_replay;"
              "from domain.review.game_review import review; from projections.report import report_json;"
              "[sys.stdout.buffer.write(report_json(review(load_replay(p).game)))"
              " for p in sorted(Path('replays').rglob('*.toml'))]")
    outputs = set()
    for seed in ("0", "1", "7"):
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        outputs.add(done.stdout)
    assert len(outputs) == 1
