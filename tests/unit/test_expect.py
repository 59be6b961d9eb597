"""[expect] is a partial report: named keys must equal, lists match in order with gaps."""

from __future__ import annotations

from projections.expect import mismatches

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
    assert mismatches({"flag": True}, {"flag": 1}) == ["flag: expected True, found 1"]
