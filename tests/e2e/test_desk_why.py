"""The desk says why no dice are awaited (issue 27 item 3): ``roll`` refusing a battle that
awaits none, and ``dice`` entered for one, name each finding on it and what became of it, with
the times that decided (SQLite; PostgreSQL when ``MINISTER_TEST_POSTGRES`` names a server)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.e2e.test_desk import GAME_ID, imported, run
from tests.integration.store_helpers import postgres_schema

FULL = "full-game-three-rounds-2008"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:{tmp_path / 'store.sqlite3'}"
    else:
        with postgres_schema() as url:
            yield url


def _full(capsys: pytest.CaptureFixture[str], spec: str) -> None:
    path = ROOT / "replays" / "games" / f"{FULL}.toml"
    assert run(capsys, "import", str(path), "--store", spec)[0] == 0


def test_roll_says_why_a_battle_awaits_no_dice(tmp_path: Path, spec: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    _full(capsys, spec)
    keys = str(tmp_path / "keys")
    assert run(capsys, "commit", FULL, "--keys", keys, "--store", spec)[0] == 0
    roll = ("roll", FULL, "--battle", "Anglo Egypt", "--turn", "UK 1", "--keys", keys, "--store", spec)
    code, out, err = run(capsys, *roll)
    assert code == 2 and out == ""
    assert ("battle 'Anglo Sudan Egypt' (UK 1) awaits no dice: F2 defenders_misdeclared is fixed: not "
            "reported "
            "before Japan 1 was rolled (2008-09-04 09:10 UTC; 2008 Section VII)") in err
    # Reported in time, never corrected before the turn after: fixed, the two times given.
    assert run(capsys, "report", FULL, "--by", "Germany", "--battle", "Anglo "
                                                                      "Egypt", "--turn", "UK 1", "--text",
               "defenders wrong", "--at", "2008-09-03T12:00:00Z", "--store", spec)[0] == 0
    code, _, err = run(capsys, *roll)
    assert code == 2 and ("F2 defenders_misdeclared is fixed: reported in time (2008-09-03 12:00 UTC) but "
                          "not "
                          "corrected before USA 1 was rolled (2008-09-05 09:00 UTC; 2008 Section VII)") in err
    # No finding at all in Germany's battle there.
    code, _, err = run(capsys, "roll", FULL, "--battle", "Anglo Egypt", "--turn", "Germany 1", "--keys", keys,
                       "--store", spec)
    assert code == 2 and "(Germany 1) awaits no dice: nothing was found wrong in it" in err


def test_dice_for_a_battle_that_awaits_none_are_kept_and_said_so(tmp_path: Path, spec: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    imported(tmp_path, spec, capsys)
    code, out, _ = run(capsys, "dice", GAME_ID, "--battle", "W Europe", "--at", "2008-07-05T18:20:00Z", "6 6",
                       "--store", spec)
    assert code == 0 and "dice for West Europe recorded: 6 6" in out
    assert ("note: West Europe (UK 2) awaits no dice: F1 defenders_misdeclared is not reported yet: a report "
            "comes first") in out and "correctable until Japan 2 is rolled" in out
    data = json.loads(run(capsys, "dice", GAME_ID, "--battle", "W "
                                                               "Europe", "--at", "2008-07-05T18:21:00Z", "5",
                          "--json", "--store", spec)[1])
    assert data["dice"] == [5] and "F1 defenders_misdeclared is not reported yet" in data["note"]
    # Reported and elected: the battle awaits dice, and an entry says nothing more.
    run(capsys, "report", GAME_ID, "--by", "Germany", "--battle", "W "
                                                                  "Europe", "--text", "1 ARM missing", "--at",
        "2008-07-05T18:30:00Z", "--store", spec)
    code, out, _ = run(capsys, "rule", GAME_ID, "--finding", "F1", "--decision", "apply", "--election",
                       "reroll",
                       "--by", "UK", "--at", "2008-07-05T18:40:00Z", "--store", spec)
    assert code == 0
    code, out, _ = run(capsys, "dice", GAME_ID, "--battle", "W Europe", "--at", "2008-07-05T18:50:00Z", "4",
                       "--store", spec)
    assert code == 0 and "note:" not in out


def test_a_void_battle_awaiting_its_election_says_so(tmp_path: Path, spec: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    imported(tmp_path, spec, capsys)
    keys = str(tmp_path / "keys")
    run(capsys, "report", GAME_ID, "--by", "Germany", "--battle", "W "
                                                                  "Europe", "--text", "1 ARM missing", "--at",
        "2008-07-05T18:30:00Z", "--store", spec)
    assert run(capsys, "commit", GAME_ID, "--keys", keys, "--store", spec)[0] == 0
    code, _, err = run(capsys, "roll", GAME_ID, "--battle", "W Europe", "--keys", keys, "--store", spec)
    assert code == 2 and ("F1 defenders_misdeclared is void: the attacker's election comes first (reroll or "
                          "not_fight: minister rule desk-cde --finding F1 --decision apply --election "
                          "...)") in err
