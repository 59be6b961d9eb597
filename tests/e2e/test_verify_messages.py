"""``minister verify`` on replays whose [expect] is wrong: what it says, and at which line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPLAYS
from tui.cli import main

TWO_BATTLES = REPLAYS / "battles" / "ussr1-two-battles.toml"
AS_ROLLED = REPLAYS / "part14" / "east-europe-forgotten-armour.toml"


def _edited(tmp_path: Path, source: Path, old: str, new: str) -> tuple[Path, list[str]]:
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must stand once in {source}"
    path = tmp_path / source.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path, path.read_text(encoding="utf-8").splitlines()


def _verify(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[str]]:
    code = main(["verify", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"FAIL {path}"
    assert out[-1].endswith("0 passed, 1 failed")
    return code, out[1:-1]


def _line(lines: list[str], text: str) -> int:
    (number,) = [n for n, line in enumerate(lines, start=1) if text in line]
    return number


def test_a_difference_in_the_second_battle_is_shown_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Manchuria is the second battle: it must not be compared with the first (Ukraine).
    wrong = "defender = { units = { INF = 3, FTR = 1 }, hits = 2 }"
    path, lines = _edited(tmp_path, TWO_BATTLES, "defender = { units = { INF = 3, FTR = 1 }, hits = 3 }",
                          wrong)
    code, problems = _verify(capsys, path)
    assert code == 1
    assert problems == [f"  line {_line(lines, wrong)}: battles[1].rounds[0].defender.hits: expected 2, "
                        f"found 3"]


def test_only_the_second_battle_expected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = TWO_BATTLES.read_text(encoding="utf-8")
    head, expect = text.split("[[expect.battles]]", 1)
    second = "[[expect.battles]]" + expect.split("[[expect.battles]]", 1)[1]
    second = second.replace('result = { winner = "defender"', 'result = { winner = "attacker"')
    path = tmp_path / "second.toml"
    path.write_text(head + second, encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    code, problems = _verify(capsys, path)
    assert code == 1
    assert problems == [f"  line {_line(lines, 'result = { winner = ')}: battles[1].result.winner: "
                        "expected 'attacker', found 'defender'"]


def test_an_expected_battle_that_is_not_in_the_report(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, lines = _edited(tmp_path, TWO_BATTLES, 'battle = "Manchuria"', 'battle = "Manchuria "')
    code, problems = _verify(capsys, path)
    assert code == 1
    # The item as a whole is at fault: its [[expect.battles]] header, the second one.
    first = [n for n, line in enumerate(lines, start=1) if line == "[[expect.battles]]"][1]
    assert problems == [f"  line {first}: battles[1]: the report has no battle with turn 'USSR 1', "
                        "battle 'Manchuria ' (it has: USSR 1 Ukraine S.S.R.; USSR 1 Manchuria)"]


def test_a_misspelt_key_is_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, lines = _edited(tmp_path, TWO_BATTLES, 'battle = "Manchuria"\nstatus = "stands"',
                          'battle = "Manchuria"\nstatus = "stands"\nresum_round = 2')
    code, problems = _verify(capsys, path)
    assert code == 1
    assert problems == [f"  line {_line(lines, 'resum_round')}: battles[1].resum_round: unknown key, did "
                        "you mean 'resume_round'? (known keys here: turn, battle, kind, status, "
                        "resume_round, findings, rounds, voided, result, impact, awaiting, dice_needed, "
                        "treasury)"]


def test_as_rolled_expectations_have_their_lines(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path, lines = _edited(tmp_path, AS_ROLLED, 'battles = [{ battle = "East Europe", status = "stands"',
                          'battles = [{ battle = "East Europe", status = "corrected"')
    code, problems = _verify(capsys, path)
    assert code == 1
    line = _line(lines, 'status = "corrected", rounds')
    assert problems == [f"  line {line}: as_rolled.battles[0].status: expected 'corrected', found 'stands'"]
