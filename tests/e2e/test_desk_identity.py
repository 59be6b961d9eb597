"""The Minister's job on the full game, as issue 27 acted it out: rulings stay on the finding
they were made on after later dice, reports and rulings; a kind that names several findings is
refused, listing them, and nothing is stored."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from application.adapters.mapper import encode_event
from application.adapters.stores import open_store
from tests.conftest import ROOT
from tui.cli import main

GAME = "full-game-three-rounds-2008"


def _run(capsys: pytest.CaptureFixture[str], spec: str, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--store", spec])
    out = capsys.readouterr()
    return code, out.out, out.err


def _events(spec: str) -> list[bytes]:
    app = open_store(spec)
    try:
        return [encode_event(event) for event in app.game_events(GAME)]
    finally:
        app.close()


def _report(capsys: pytest.CaptureFixture[str], spec: str) -> Any:
    code, out, err = _run(capsys, spec, "replay", GAME, "--json")
    assert code == 0, err
    return json.loads(out)


def test_rulings_stay_on_their_findings_through_later_dice(spec: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, spec, "import", str(ROOT / "replays" / "games" / f"{GAME}.toml"))[0] == 0
    before = _events(spec)
    code, _, err = _run(capsys, spec, "rule", GAME, "--finding", "treasury_wrong", "--decision", "dismiss")
    assert code == 2 and "names 2 findings" in err
    assert re.search(r"F\d+ \(USSR 2\)", err) and re.search(r"F\d+ \(UK 2\)", err)
    assert _events(spec) == before  # nothing stored
    findings = {f["kind"]: f for f in _report(capsys, spec)["findings"]}
    bid, misdeclared = findings["bid_illegal"]["id"], findings["defenders_misdeclared"]["id"]
    steps = [
        ("rule", GAME, "--finding", bid, "--decision", "apply", "--text", "the bid fighter comes off"),
        ("report", GAME, "--by", "UK", "--battle", "Anglo Egypt", "--turn", "UK 1", "--text", "misdeclared",
         "--at", "2008-09-03T12:00:00Z"),
        ("rule", GAME, "--finding", misdeclared, "--decision", "apply", "--election", "reroll", "--by", "UK",
         "--at", "2008-09-03T12:30:00Z"),
        ("dice", GAME, "--battle", "Anglo Egypt", "--turn", "UK 1", "--at", "2008-09-03T14:00:00Z", "3 2 5"),
    ]
    for step in steps:
        code, _, err = _run(capsys, spec, *step)
        assert code == 0, (step, err)
    report = _report(capsys, spec)
    ruled = {f["kind"]: f for f in report["findings"] if f.get("ruling")}
    assert set(ruled) == {"bid_illegal", "defenders_misdeclared"}
    assert ruled["bid_illegal"]["status"] == "corrected" and "bid fighter" in ruled["bid_illegal"]["ruling"]
    assert ruled["defenders_misdeclared"]["status"] == "corrected"
    papers = [p["about"] for p in report["papers"] if p["kind"] == "ruling"]
    assert papers[0].startswith(ruled["bid_illegal"]["id"])
    assert papers[1].startswith(ruled["defenders_misdeclared"]["id"])
    [uk1] = [b for b in report["battles"] if b["turn"] == "UK 1"]
    assert uk1["status"] == "corrected" and uk1["result"]["winner"] == "attacker"
