"""``minister expect FILE [--write]`` (issue 28, item 7): a replay's ``[expect]`` table written
from its current report, for a developer to review; ``--write`` replaces the file's own, atomically."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from projections.expect import check
from projections.expect_write import expect_toml, expectations, replace_expect
from projections.report import report_dict
from tests.conftest import REPLAYS
from tui.cli import check_replay, main

SHIPPED = sorted(REPLAYS.rglob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_the_table_written_holds_for_the_report_it_was_written_from(path: Path) -> None:
    game = load_replay(path).game
    corrected, rolled = report_dict(review(game)), report_dict(review(game, as_rolled=True))
    table = tomllib.loads(expect_toml(expectations(corrected, rolled)))["expect"]
    rolled_table = table.pop("as_rolled")
    assert check(table, corrected) == []
    assert check(rolled_table, rolled, "as_rolled") == []
    # It states every count, so an extra finding or battle would fail it.
    assert table["summary"] == corrected["summary"]
    assert len(table["findings"]) == len(corrected["findings"])


def test_expect_prints_the_table_and_leaves_the_file(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.toml"
    original = (REPLAYS / "findings" / "too_many_units-2008.toml").read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    assert main(["expect", str(path)]) == 0
    printed = tomllib.loads(capsys.readouterr().out)["expect"]
    assert printed["findings"] == [{"kind": "too_many_units", "turn": "USSR 2", "battle": "Ukraine S.S.R.",
                                    "round": 1, "side": "attacker", "column": 3, "status": "corrected"}]
    assert [r["origin"] for r in printed["battles"][0]["rounds"]] == ["as_rolled", "rerolled"]
    assert path.read_text(encoding="utf-8") == original


def test_write_replaces_the_files_expect_and_keeps_the_rest(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.toml"
    original = (REPLAYS / "games" / "full-game-three-rounds-2008.toml").read_text(encoding="utf-8")
    # A wrong count, as a developer's stale table would have it.
    path.write_text(original.replace("summary = { findings = 14", "summary = { findings = 13"),
                    encoding="utf-8")
    assert check_replay(load_replay(path))
    assert main(["expect", str(path), "--write"]) == 0
    assert "review it before committing" in capsys.readouterr().err
    written = path.read_text(encoding="utf-8")
    head = original.split("\n[expect]")[0]
    assert written.startswith(head.rstrip("\n") + "\n\n# Written by `minister expect`")
    assert written.count("[expect]") == 1 and "[expect.as_rolled]" in written
    assert check_replay(load_replay(path)) == []
    assert tomllib.loads(written)["expect"]["summary"]["findings"] == 14


def test_write_adds_a_table_to_a_file_without_one(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    original = (REPLAYS / "findings" / "bid_total_mismatch-2008.toml").read_text(encoding="utf-8")
    bare = original.split("\n[expect]")[0] + "\n"
    path.write_text(bare, encoding="utf-8")
    assert check_replay(load_replay(path)) == ["the file has no [expect] table"]
    assert main(["expect", str(path), "--write"]) == 0
    assert path.read_text(encoding="utf-8").startswith(bare)
    assert check_replay(load_replay(path)) == []


def test_a_bad_file_is_refused_and_left_as_it_was(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.toml"
    text = (REPLAYS / "findings" / "bid_total_mismatch-2008.toml").read_text(encoding="utf-8")
    text = text.replace("total = 12", "totl = 12")
    path.write_text(text, encoding="utf-8")
    assert main(["expect", str(path), "--write"]) == 2
    assert "unknown key 'totl' in this bid event, did you mean 'total'?" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["game.toml"]  # no temporary file left


def test_only_the_expect_tables_are_replaced() -> None:
    text = ('format = "x"\n\n[expect]\nsummary = { findings = 1 }\n# stale\n\n[[expect.battles]]\n'
            'battle = "a"\n\n[integrity]\nhead = "h"\n\n[[event]]\nlog = """\n[expect]\n"""\n')
    written = replace_expect(text, "[expect]\nsummary = { findings = 2 }\n")
    assert written == ('format = "x"\n\n[expect]\nsummary = { findings = 2 }\n\n[integrity]\n'
                       'head = "h"\n\n[[event]]\nlog = """\n[expect]\n"""\n')
