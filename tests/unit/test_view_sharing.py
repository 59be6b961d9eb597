"""Battle views with their equal parts made one object (application/adapters/view_sharing.py):
every view is byte for byte the view it was made from, and equal parts are shared."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from application.adapters.view_sharing import ViewSharing
from application.intake.replayfile import load_replay, parse_replay
from benchmarks.gen_game import generate_replay
from domain.record.game import Game, project_game
from domain.review.game_review import review
from domain.review.views import BattleView, DiceEntry
from tests.unit.test_review_memo import REPLAYS, ROOT

_ENCODE = msgspec.msgpack.Encoder().encode


def _views(game: Game) -> list[BattleView]:
    return [view for as_rolled in (False, True) for view in review(game, as_rolled=as_rolled).battles]


def _entries(views: list[BattleView]) -> set[int]:
    return {id(entry) for view in views for made in view.rounds
            for side in (made.attacker, made.defender) for entry in side.dice}


def _check(views: list[BattleView]) -> list[BattleView]:
    sharing = ViewSharing()
    shared = [sharing.view(view) for view in views]
    for view, again in zip(views, shared, strict=True):
        assert _ENCODE(again) == _ENCODE(view)  # True is not 1 here: the bytes tell them apart
    return shared


@pytest.mark.parametrize("path", REPLAYS)
def test_every_replay_s_views_stay_byte_for_byte_the_same(path: str) -> None:
    replay = load_replay(Path(ROOT / path))
    game = project_game(None, replay.events)
    assert game is not None
    _check(_views(game))


def test_a_big_game_s_equal_dice_entries_are_one_object() -> None:
    """On a generated 2,000-event game, far fewer dice entry objects than entries."""
    game = project_game(None, parse_replay(generate_replay(2_000, seed=3)).events)
    assert game is not None
    views = _views(game)
    shared = _check(views)
    before, after = _entries(views), _entries(shared)
    assert len(after) * 2 < len(before)
    assert all(isinstance(entry, DiceEntry) for view in shared for made in view.rounds
               for entry in made.attacker.dice)
