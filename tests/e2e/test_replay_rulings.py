"""A replay's rulings are checked as ``minister rule`` checks them, and a registered edition
(a club's house rules) is usable from a replay file."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from domain.rules import editions
from tests.conftest import REPLAYS
from tui.cli import main

ACCEPT = REPLAYS / "findings" / "pause_skipped-accept-2008.toml"


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(("change", "needle", "message"), [
    (('finding = "pause_skipped"', 'finding = "F9"'), 'finding = "F9"', "the game has no finding 'F9'"),
    (('finding = "pause_skipped"', 'finding = "too_many_units"'), 'finding = "too_many_units"',
     "no finding 'too_many_units'"),
    # 2008 Orders of Loss: the defender's options are accept, apply to corrected units or re-roll
    # the defence; "not_fight" is the attacker's option on a void battle (Section II).
    (('election = "accept"', 'election = "not_fight"'), 'election = "not_fight"',
     "election 'not_fight' is not one the rule gives on pause_skipped"),
])
def test_a_ruling_the_rules_do_not_allow_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      change: tuple[str, str], needle: str,
                                                      message: str) -> None:
    text = ACCEPT.read_text().replace(*change)
    assert text != ACCEPT.read_text()
    path = tmp_path / "ruling.toml"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert f"{path}:{_line_of(text, needle)}:" in err


def test_an_election_on_a_finding_that_offers_none_is_bad_input(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    source = (REPLAYS / "findings" / "retreat_undeclared-ruled-2008.toml").read_text()
    assert 'finding = "retreat_undeclared"' in source
    text = source.replace('decision = "apply"', 'decision = "apply"\nelection = "reroll"', 1)
    path = tmp_path / "ruling.toml"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    assert "the rule offers no election" in capsys.readouterr().err


def test_a_registered_edition_is_usable_from_a_replay_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(editions, "_EDITIONS", dict(editions._EDITIONS))
    # A club that re-rolls the whole column for too many units, as Part 14 did.
    house = dataclasses.replace(editions.IAAPA_2008, name="club-house", too_many_units="reroll_column")
    editions.register(house)
    source = (REPLAYS / "findings" / "too_many_units-2008.toml").read_text()
    path = tmp_path / "house.toml"
    path.write_text(source.replace('edition = "iaapa-2008"', 'edition = "club-house"'))
    assert main(["replay", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"]["edition"] == "club-house"
    [finding] = report["findings"]
    assert finding["kind"] == "too_many_units" and finding["rule"].startswith("club-house Section III")
    # The house choice is applied: the whole column is voided, none of its dice kept.
    first = report["battles"][0]["rounds"][0]["attacker"]["dice"]
    assert not any(d["status"] == "kept" and d["column"] == finding["column"] for d in first)


def test_an_unregistered_edition_is_still_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = (REPLAYS / "findings" / "too_many_units-2008.toml").read_text()
    path = tmp_path / "house.toml"
    path.write_text(source.replace('edition = "iaapa-2008"', 'edition = "club-house"'))
    assert main(["replay", str(path)]) == 2
    assert "expected edition one of iaapa-1999, iaapa-2008, found 'club-house'" in capsys.readouterr().err
