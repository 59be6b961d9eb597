"""A finding has an identity later events cannot move (issue 27.1, 27.2): a ruling is bound to
the finding it named when it was recorded, and stays on it whatever reports, rulings and dice
are added later; findings are numbered in game order."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from application.intake.replayfile import load_replay
from domain.record.events import RulingIssued
from domain.record.game import Game, project_game
from domain.review.decisions import ruled_finding, ruling_problem
from domain.review.game_review import review
from domain.rules.turns import turn_of
from tests.support.desk_events import REPLAYS, ROOT, desk_event, event_for

FULL_GAME = ROOT / "replays" / "games" / "full-game-three-rounds-2008.toml"
OURS = "the ruling under test"


def _ruled(game: Game, pick: int) -> tuple[Game, str]:
    """The game with a ruling (dismiss) on its ``pick``-th finding, bound to it; its key."""
    findings = review(game).findings
    finding = findings[pick % len(findings)]
    when = game.moments[-1] + timedelta(minutes=1)
    event = RulingIssued(originator_id=game.id, originator_version=game.version + 1, timestamp=when,
                         at=when, finding=finding.id, decision="dismiss", text=OURS,
                         finding_key=finding.key)
    ruled = project_game(game, [event])
    assert ruled is not None
    return ruled, finding.key


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(REPLAYS), st.integers(0, 50), st.lists(desk_event, min_size=1, max_size=5))
def test_later_events_never_move_a_ruling(path: str, pick: int, specs: list[tuple[Any, ...]]) -> None:
    game = load_replay(ROOT / path).game
    if not review(game).findings:
        return
    game, key = _ruled(game, pick)
    for spec in specs:
        later = project_game(game, [event_for(game, spec)])
        assert later is not None
        game = later
        view = review(game)
        on = [f for f in view.findings if f.ruling is not None and OURS in f.ruling]
        assert all(f.key == key for f in on), [(f.id, f.key) for f in on]
        ruling_paper = next(p for p in view.papers if p.kind == "ruling" and p.text == OURS)
        still = [f for f in view.findings if f.key == key]
        if still:
            assert ruling_paper.about.startswith(still[0].id)
        else:
            assert "no longer exists" in ruling_paper.about


def test_dice_that_add_findings_leave_each_ruling_on_its_finding() -> None:
    """The issue's case: the illegal bid ruled, then dice for UK 1's battle add findings; the
    bid's ruling stays on the bid."""
    game = load_replay(FULL_GAME).game
    bid = next(f for f in review(game).findings if f.kind == "bid_illegal")
    game, key = _ruled(game, review(game).findings.index(bid))
    assert key == bid.key
    for spec in [("supplied", 2, 0, 0, 5, [3, 2, 5]), ("report", 2, 0, 0, 10, [1]),
                 ("drawn", 1, 0, 0, 15, [6, 6])]:
        later = project_game(game, [event_for(game, spec)])
        assert later is not None
        game = later
    view = review(game)
    [ruled] = [f for f in view.findings if f.ruling is not None and OURS in f.ruling]
    assert ruled.kind == "bid_illegal" and ruled.key == key


def test_findings_are_numbered_in_game_order() -> None:
    view = review(load_replay(FULL_GAME).game)
    places = [turn_of(f.turn) for f in view.findings if f.turn]
    order = [(t.round, list(type(t.power)).index(t.power)) for t in places]
    assert order == sorted(order)
    assert [f.id for f in view.findings] == [f"F{n}" for n in range(1, len(view.findings) + 1)]


def test_a_kind_that_names_several_findings_is_refused_with_the_candidates() -> None:
    findings = review(load_replay(FULL_GAME).game).findings
    problem = ruling_problem(findings, "treasury_wrong", None)
    assert problem is not None and problem.part == "finding"
    assert "names 2 findings" in problem.message and "USSR 2" in problem.message and "UK 2" in problem.message
    assert ruled_finding(findings, "treasury_wrong") is None
    narrowed = ruled_finding(findings, "treasury_wrong", turn="UK 2")
    assert narrowed is not None and narrowed.turn == "UK 2"
    assert ruling_problem(findings, "treasury_wrong", None, turn="UK 2") is None


@pytest.mark.parametrize("path", [FULL_GAME])
def test_every_finding_has_a_distinct_key(path: Any) -> None:
    for as_rolled in (False, True):
        findings = review(load_replay(path).game, as_rolled=as_rolled).findings
        keys = [f.key for f in findings]
        assert all(keys) and len(set(keys)) == len(keys)
