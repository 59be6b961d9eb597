"""The report as rolled never says "corrected" (issue 27 item 9): nothing is applied to the record
as rolled, so a finding the rules give a remedy is ``found`` there, and the report as corrected
says what becomes of it (SQLite; PostgreSQL when ``MINISTER_TEST_POSTGRES`` names a server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.test_desk import GAME_ID, imported, run
from tests.e2e.test_desk_why import spec

__all__ = ["spec"]  # the store fixture (SQLite, PostgreSQL)


def test_as_rolled_never_says_corrected(tmp_path: Path, spec: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A battle awaiting its correction's dice: as rolled, its findings are found, not corrected;
    the report as corrected says they are open (issue 27 item 9)."""
    imported(tmp_path, spec, capsys)
    run(capsys, "report", GAME_ID, "--by", "Germany", "--battle", "W "
                                                                  "Europe", "--text", "1 ARM missing", "--at",
        "2008-07-05T18:30:00Z", "--store", spec)
    run(capsys, "rule", GAME_ID, "--finding", "F1", "--decision", "apply", "--election", "reroll",
        "--by", "UK",
        "--at", "2008-07-05T18:40:00Z", "--store", spec)
    text = run(capsys, "replay", GAME_ID, "--as-rolled", "--store", spec)[1]
    findings = text.split("Findings:", 1)[1].split("\n\n", 1)[0]
    assert "corrected]" not in findings and "[corrected" not in findings
    assert "F1 defenders_misdeclared [found: the report as corrected says what becomes of it]" in findings
    rolled = json.loads(run(capsys, "replay", GAME_ID, "--as-rolled", "--json", "--store", spec)[1])
    assert [f["status"] for f in rolled["findings"]] == ["found", "found"]
    assert rolled["summary"]["finding_status"] == {"found": 2}
    corrected = json.loads(run(capsys, "replay", GAME_ID, "--json", "--store", spec)[1])
    assert [f["status"] for f in corrected["findings"]] == ["open", "superseded"]
