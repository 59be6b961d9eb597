"""How far two walks read the same (domain/review/walk_prefix.py): the proof behind the
review memo's per-turn audit and board keys."""

from __future__ import annotations

from pathlib import Path

from application.intake.replayfile import load_replay
from domain.record.board_state import walk_board
from domain.record.game import project_game
from domain.review.board_review import on_board, outcomes_of
from domain.review.game_review import review
from domain.review.walk_prefix import EVERY, descend, name_before, walk_agrees

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((ROOT / "replays").rglob("*.toml"))


def test_a_lineage_names_the_first_walk_that_still_agrees() -> None:
    first = descend(None, 0, "a")
    assert first == ((EVERY, "a"),)
    second = descend(first, 100, "b")
    assert second == ((100, "a"), (EVERY, "b"))
    assert [name_before(second, seq) for seq in (1, 100, 101)] == ["a", "a", "b"]
    third = descend(second, 50, "c")  # agrees with b (and so with a) up to 50 only
    assert third == ((50, "a"), (EVERY, "c"))
    fourth = descend(third, 200, "d")  # agrees with c up to 200: a still up to 50, c up to 200
    assert fourth == ((50, "a"), (200, "c"), (EVERY, "d"))
    assert descend(fourth, 0, "e") == ((EVERY, "e"),)


def test_two_walks_read_the_same_before_where_they_agree() -> None:
    """Each battle's result void in turn: every look at the board before a record up to where
    the walks agree gives the same (the battles' boards at their declarations), and a walk
    agrees with itself everywhere."""
    differed = 0
    for path in REPLAYS:
        game = project_game(None, load_replay(path).events)
        assert game is not None
        outcomes = outcomes_of(review(game).battles)
        walk = walk_board(game, outcomes)
        assert walk_agrees(walk, walk_board(game, outcomes)) == EVERY
        for changed in game.battles:
            other = walk_board(game, {**outcomes, changed.key: None})
            agrees = walk_agrees(walk, other)
            assert agrees == walk_agrees(other, walk)
            for record in game.battles:
                if record.declared_seq <= agrees:
                    assert on_board(record, walk) == on_board(record, other), (path, record.key)
                    state, now = walk.at_declaration(record), other.at_declaration(record)
                    assert state.known_units() == now.known_units(), (path, record.key)
                else:
                    differed += 1
    assert differed > 0
