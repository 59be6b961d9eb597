"""Both histories made in one pass (GameReview, review_both) are each history made alone, on
every shipped replay and after random desk events."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from application.intake.replayfile import load_replay
from domain.record.game import project_game
from domain.review.game_review import GameReview, review, review_both
from tests.support.desk_events import REPLAYS, ROOT, desk_event, event_for

_ENCODE = msgspec.msgpack.encode


def test_both_histories_in_one_pass_are_each_made_alone_on_every_replay() -> None:
    for path in REPLAYS:
        game = load_replay(ROOT / path).game
        corrected, rolled = review_both(game)
        assert _ENCODE(corrected) == _ENCODE(review(game)), path
        assert _ENCODE(rolled) == _ENCODE(review(game, as_rolled=True)), path
        assert corrected.as_rolled is False and rolled.as_rolled is True


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(REPLAYS), st.lists(desk_event, min_size=1, max_size=4))
def test_both_histories_in_one_pass_after_random_desk_events(path: str, specs: list[tuple[Any, ...]]) -> None:
    game = project_game(None, load_replay(ROOT / path).events)
    assert game is not None
    for spec in specs:
        game = project_game(game, [event_for(game, spec)])
        assert game is not None
    reviewer = GameReview(game)
    corrected = reviewer.corrected()  # the corrected history first, as the timeline asks
    assert reviewer.corrected() is corrected  # each history made once
    assert _ENCODE(reviewer.as_rolled()) == _ENCODE(review(game, as_rolled=True))
    assert _ENCODE(corrected) == _ENCODE(review(game))
