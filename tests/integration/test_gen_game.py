"""The generated benchmark games (benchmarks/gen_game.py): exact size, deterministic, clean."""

from __future__ import annotations

import pytest

from application.intake.replayfile import parse_replay
from benchmarks.gen_game import generate_replay
from domain.record.events import DeclarationRecorded, RollRecorded
from domain.review.game_review import review
from projections.report import report_dict


@pytest.mark.parametrize(("size", "seed"), [(2, 1), (37, 2), (400, 3)])
def test_a_generated_game_has_exactly_the_events_asked_for(size: int, seed: int) -> None:
    replay = parse_replay(generate_replay(size, seed))
    assert len(replay.events) == size
    assert [e.originator_version for e in replay.events] == list(range(1, size + 1))


def test_the_same_seed_gives_the_same_text_and_another_seed_another() -> None:
    assert generate_replay(300, 4) == generate_replay(300, 4)
    assert generate_replay(300, 4) != generate_replay(300, 5)


def test_a_generated_game_reviews_without_findings() -> None:
    replay = parse_replay(generate_replay(600, 6))
    kinds = {type(e) for e in replay.events}
    assert {DeclarationRecorded, RollRecorded} <= kinds
    report = report_dict(review(replay.game))
    assert report["findings"] == []
    assert len(report["battles"]) > 50
    assert all(b["status"] == "stands" for b in report["battles"])


def test_too_small_a_game_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 events"):
        generate_replay(1, 1)
