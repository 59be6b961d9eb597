"""[expect] is a partial report: named keys must equal, lists match in order with gaps; unknown keys
are named as unknown, list items are compared with the report's item of the same identity."""

from __future__ import annotations

from pathlib import Path

import pytest

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from projections.expect import KNOWN_KEYS, check, mismatches
from projections.expect_lines import ExpectLines
from projections.report import report_dict
from tests.conftest import REPLAYS

REPORT = {
    "findings": [{"id": "F1", "kind": "typo"}, {"id": "F2", "kind": "too_few_units", "round": 1}],
    "battles": [{"battle": "East Europe", "status": "corrected",
                 "rounds": [{"round": 1, "attacker": {"units": {"INF": 9, "ARM": 3}, "hits": 3}}],
                 "result": {"winner": "attacker", "defender_left": {}}}],
}


def test_partial_tables_and_ordered_lists_with_gaps_match() -> None:
    assert mismatches({"findings": [{"kind": "too_few_units"}]}, REPORT) == []
    assert mismatches({"findings": [{"kind": "typo"}, {"round": 1}]}, REPORT) == []
    assert mismatches({"battles": [{"status": "corrected"}]}, REPORT) == []


def test_out_of_order_items_do_not_match() -> None:
    problems = mismatches({"findings": [{"kind": "too_few_units"}, {"kind": "typo"}]}, REPORT)
    assert problems and problems[0].startswith("findings[1]: no item (in order) matches")


def test_a_mismatch_names_its_path() -> None:
    problems = mismatches({"battles": [{"rounds": [{"attacker": {"hits": 4}}]}]}, REPORT)
    assert any("battles[0].rounds[0].attacker.hits: expected 4, found 3" in p for p in problems)


def test_forces_compare_whole() -> None:
    expect = {"battles": [{"rounds": [{"attacker": {"units": {"INF": 9}}}]}]}
    problems = mismatches(expect, REPORT)
    assert any("attacker.units: expected {'INF': 9}, found {'INF': 9, 'ARM': 3}" in p for p in problems)
    assert mismatches({"battles": [{"result": {"defender_left": {}}}]}, REPORT) == []


def test_missing_keys_and_booleans() -> None:
    assert mismatches({"battles": [{"resume_round": 2}]}, REPORT)[0].startswith("battles[0]: no item")
    assert mismatches({"as_rolled": True}, {"as_rolled": 1}) == ["as_rolled: expected True, found 1"]


TWO_BATTLES = {
    "battles": [
        {"turn": "UK 1", "battle": "Anglo Sudan Egypt", "status": "stands",
         "rounds": [{"round": 1, "defender": {"hits": 1}}]},
        {"turn": "Germany 1", "battle": "East Europe", "status": "corrected",
         "rounds": [{"round": 1, "defender": {"hits": 2}}, {"round": 2, "defender": {"hits": 1}}]},
    ],
}


def test_an_expected_battle_is_compared_with_the_battle_of_its_turn_and_name() -> None:
    expect = {"battles": [{"turn": "Germany 1", "battle": "East Europe",
                           "rounds": [{"round": 2, "defender": {"hits": 3}}]}]}
    assert mismatches(expect, TWO_BATTLES) == [
        "battles[1].rounds[1].defender.hits: expected 3, found 1"]


def test_a_battle_of_another_turn_is_not_the_one_expected() -> None:
    expect = {"battles": [{"turn": "UK 2", "battle": "East Europe"}]}
    assert mismatches(expect, TWO_BATTLES) == [
        "battles[0]: the report has no battle with turn 'UK 2', battle 'East Europe' "
        "(it has: UK 1 Anglo Sudan Egypt; Germany 1 East Europe)"]


def test_battles_expected_out_of_order_are_named() -> None:
    expect = {"battles": [{"battle": "East Europe"}, {"battle": "Anglo Sudan Egypt"}]}
    assert mismatches(expect, TWO_BATTLES) == [
        "battles[1]: the battle with battle 'Anglo Sudan Egypt' comes earlier in the report "
        "(battles[0]) than the item expected before it"]


def test_a_misspelt_key_is_unknown_and_the_rest_still_compares() -> None:
    expect = {"battles": [{"turn": "Germany 1", "battle": "East Europe", "resum_round": 2,
                           "rounds": [{"round": 1, "defender": {"hits": 2}}]}]}
    problems = check(expect, TWO_BATTLES)
    assert [p.message for p in problems] == [
        "battles[0].resum_round: unknown key, did you mean 'resume_round'? (known keys here: turn, "
        "battle, kind, status, resume_round, findings, rounds, voided, result, impact, awaiting, "
        "dice_needed, treasury)"]
    assert problems[0].expect_path == ("battles", 0, "resum_round")


def test_keys_inside_forces_and_open_tables_are_not_checked() -> None:
    report = {"battles": [{"battle": "X", "impact": {"from_round": 2},
                           "result": {"attacker_left": {"INF": 1}}}]}
    expect = {"battles": [{"impact": {"from_round": 2}, "result": {"attacker_left": {"INF": 1}}}]}
    assert mismatches(expect, report) == []
    assert mismatches({"battles": [{"impact": {"from_rnd": 2}}]}, report)[0].startswith(
        "battles[0]: no item (in order) matches")


def test_expectation_paths_point_into_the_expectation_not_the_report() -> None:
    expect = {"battles": [{"battle": "East Europe", "status": "stands"}]}
    (problem,) = check(expect, TWO_BATTLES)
    assert problem.message == "battles[1].status: expected 'stands', found 'corrected'"
    assert problem.expect_path == ("battles", 0, "status")


REPLAY_FILES = sorted(REPLAYS.rglob("*.toml"))


def _keys(value: object, place: str, found: set[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        if place.rsplit(".", 1)[-1] in {"units", "attacker_losses", "defender_losses", "attacker_left",
                                        "defender_left", "aa_losses"}:
            return
        for key, inner in value.items():
            found.add((place, key))
            _keys(inner, f"{place}.{key}" if place else key, found)
    elif isinstance(value, list):
        for item in value:
            _keys(item, place + "[]", found)


@pytest.mark.slow
def test_every_key_the_report_writes_is_known() -> None:
    """KNOWN_KEYS follows projections.report: a key the report writes must not read as unknown."""
    found: set[tuple[str, str]] = set()
    for path in REPLAY_FILES:
        game = load_replay(path).game
        for as_rolled in (False, True):
            _keys(report_dict(review(game, as_rolled=as_rolled)), "", found)
    unknown = sorted((place, key) for place, key in found
                     if place in KNOWN_KEYS and key not in KNOWN_KEYS[place])
    assert unknown == []


EXPECT_TEXT = """\
format = "minister-replay/1"

[expect]
summary = { findings = 1 }
findings = [
  { kind = "typo" },
]

[[expect.battles]]
turn = "UK 1"
battle = "Anglo Sudan Egypt"

[[expect.battles.rounds]]
round = 1
defender = { hits = 1 }

[[expect.battles]]
battle = "East Europe"   # the second battle
result.winner = "attacker"

[[expect.battles.rounds]]
round = 1

[[expect.battles.rounds]]
round = 2
defender = { hits = 3 }

[expect.as_rolled]
summary = { findings = 2 }
"""


def test_expect_lines_follow_tables_arrays_of_tables_and_keys(tmp_path: Path) -> None:
    lines = ExpectLines(EXPECT_TEXT)
    assert lines.line_of(("summary", "findings")) == 4
    assert lines.line_of(("findings", 0, "kind")) == 5
    assert lines.line_of(("battles", 0, "battle")) == 11
    assert lines.line_of(("battles", 0, "rounds", 0, "defender", "hits")) == 15
    assert lines.line_of(("battles", 1, "battle")) == 18
    assert lines.line_of(("battles", 1, "result", "winner")) == 19
    assert lines.line_of(("battles", 1, "result", "attacker_left")) == 19
    assert lines.line_of(("battles", 1, "rounds", 1, "defender", "hits")) == 26
    assert lines.line_of(("battles", 1, "rounds", 1, "attacker")) == 24
    assert lines.line_of(("as_rolled", "summary", "findings")) == 29
    assert lines.line_of(("nowhere",)) == 3
    path = tmp_path / "x.toml"
    path.write_text(EXPECT_TEXT, encoding="utf-8")
    assert ExpectLines.read(path).lines == lines.lines
