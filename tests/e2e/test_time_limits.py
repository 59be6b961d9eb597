"""2008 Section VII on an error reported in time whose correction is never carried out:
"If it is not [corrected before the next turn is rolled], then the subsequent turn is void and
must be re-done. If, however, another turn is rolled and the error is still not corrected, it
becomes fixed and not subject to correction." (replays/fidelity/reported-never-corrected-fixed-2008.toml)"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from application.intake.replayfile import parse_replay
from domain.review.game_review import review
from domain.rules import editions
from projections.report import report_dict
from tests.conftest import REPLAYS

NEVER = REPLAYS / "fidelity" / "reported-never-corrected-fixed-2008.toml"
#: The replay's records up to Germany 3 (UK 3 not rolled yet).
UK3_STARTS = '[[event]]\ntype = "position"\nat = 2009-04-04T19:15:00Z'


@pytest.fixture(autouse=True)
def _registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(editions, "_EDITIONS", dict(editions._EDITIONS))
    yield


def report(text: str, **choices: Any) -> dict[str, Any]:
    if choices:
        editions.register(dataclasses.replace(editions.IAAPA_2008, name="house-2008", **choices))
        text = text.replace('edition = "iaapa-2008"', 'edition = "house-2008"', 1)
    return report_dict(review(parse_replay(text).game))


def statuses(result: dict[str, Any]) -> list[str]:
    return [b["status"] for b in result["battles"]]


def test_never_corrected_becomes_fixed_once_another_turn_is_rolled() -> None:
    result = report(NEVER.read_text())
    [finding] = result["findings"]
    assert (finding["kind"], finding["status"]) == ("too_few_units", "fixed")
    assert "never corrected before UK 3" in finding["detail"] and "Section VII" in finding["detail"]
    assert statuses(result) == ["stands", "stands", "stands"]
    assert result["battles"][0]["result"]["attacker_left"] == {"INF": 3}


def test_not_corrected_before_the_next_turn_voids_it_until_then() -> None:
    text = NEVER.read_text()
    assert UK3_STARTS in text
    before_uk3 = text[:text.index(UK3_STARTS)]
    result = report(before_uk3)
    finding = result["findings"][0]
    # Open until the ARM's die is entered (the battle awaits it).
    assert (finding["kind"], finding["status"]) == ("too_few_units", "open")
    assert "Germany 3 is void and must be re-done" in finding["detail"]
    assert "awaiting 1 die" in finding["detail"]
    # Ukraine awaits the ARM's die; Germany 3, rolled on the uncorrected board, is void.
    assert statuses(result) == ["awaiting", "void"]


def test_the_fixed_error_keeps_the_next_turn_void_under_the_other_reading() -> None:
    result = report(NEVER.read_text(), fixed_error_voids_turn=True)
    assert result["findings"][0]["status"] == "fixed"
    assert statuses(result) == ["stands", "void", "stands"]
