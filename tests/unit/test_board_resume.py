"""A walk of the board resumed from an earlier walk is the full walk (domain/record/board_resume.py).

Random event sequences: a game at some version is walked (as rolled and as corrected), then
more of its events and random desk events (reports, rulings, dice supplied or drawn for any
battle: the middle one, the last one) are filed, and the walk resumed from the earlier one must
be the walk from the start, field for field (the logs' order too).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from application.intake.replayfile import load_replay, parse_replay
from benchmarks.gen_game import generate_replay
from domain.record import board_resume
from domain.record.board_state import BattleResult, BoardWalk, walk_board
from domain.record.entries import BattleRecord
from domain.record.events import GameEvent
from domain.record.game import Game, project_game
from domain.review.board_review import outcomes_of
from domain.review.game_review import review
from tests.unit.test_review_memo import REPLAYS, ROOT, _event, desk_event

GENERATED = "generated 120"
FLOWS = "replays/consequences/corrected-result-flows-2008.toml"


@cache
def _events(source: str) -> tuple[GameEvent, ...]:
    if source == GENERATED:
        return tuple(parse_replay(generate_replay(120, 3)).events)
    return tuple(load_replay(ROOT / source).events)


def grown(events: tuple[GameEvent, ...], first: float, more: float, specs: list[tuple[Any, ...]]
          ) -> tuple[tuple[BoardWalk, BoardWalk], Game]:
    """The first part (``first``) of a game's events walked (as rolled, as corrected), and the
    game grown on: part (``more``) of its later events, then the desk events ``specs`` (a battle
    pick of -1: the last battle)."""
    cut = max(1, int(len(events) * first))
    game = project_game(None, events[:cut])
    assert game is not None
    rolled_outcomes, corrected_outcomes = _outcomes(game)
    rolled = walk_board(game, rolled_outcomes)
    corrected = walk_board(game, corrected_outcomes, rolled=rolled)
    later = events[cut:cut + int((len(events) - cut) * more)]
    if later:
        game = project_game(game, list(later))
        assert game is not None
    for spec in specs:
        grew = project_game(game, [_event(game, spec)])
        assert grew is not None
        game = grew
    return (rolled, corrected), game


def dice_for(events: tuple[GameEvent, ...], pick: str, dice: list[int]) -> tuple[BattleRecord, Game]:
    """Dice supplied for the battle nearest the middle of the game (``pick`` "middle": the
    nearest that takes them, a battle named by its territory being the latest one there) or for
    the last: (the battle as it was, the game after the dice)."""
    whole = project_game(None, events)
    assert whole is not None
    count = len(whole.battles)
    picks = sorted(range(count), key=lambda i: abs(i - count // 2)) if pick == "middle" else [count - 1]
    for index in picks:  # (a game is projected in place: each try from a fresh copy)
        before = project_game(None, events)
        assert before is not None
        records = list(before.battles)
        after = project_game(before, [_event(before, ("supplied", index, 0, 0, 5, dice))])
        assert after is not None
        moved = [k for k, (old, new) in enumerate(zip(records, after.battles, strict=True))
                 if old.last_seq != new.last_seq]
        if moved:
            break
    assert moved and (pick == "last" or 0 < moved[0] < count - 1)
    return records[moved[0]], after


def _outcomes(game: Game) -> tuple[dict[str, BattleResult], dict[str, BattleResult]]:
    """(as rolled, as corrected) as the review gives them."""
    rolled = review(game, as_rolled=True)
    corrected = review(game)
    return (outcomes_of(rolled.battles, rolled.void_turns),
            outcomes_of(corrected.battles, corrected.void_turns))


def _fields(walk: BoardWalk) -> dict[str, Any]:
    """Every field of a walk, the dicts' order included."""
    return {"history": list(walk.history.items()), "known_since": list(walk.known_since.items()),
            "discrepancies": walk.discrepancies, "counts": walk.counts, "round_ends": walk.round_ends,
            "from_setup": walk.from_setup, "adopted": list(walk.adopted.items()), "bid_seq": walk.bid_seq,
            "void": walk.void, "control_log": walk.control_log}


@pytest.fixture(autouse=True)
def _marks_everywhere() -> Iterator[None]:
    # A mark at every few steps and a digest of every few results (the replays are short):
    # every resume point is tried.
    with patch.object(board_resume, "EVERY", 2), patch.object(board_resume, "BLOCK", 3), \
            patch.object(board_resume, "_STRETCH", 2):
        yield


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([GENERATED, *REPLAYS]), st.floats(0.3, 1.0), st.floats(0, 1),
       st.lists(desk_event, max_size=4))
# Dice supplied for a middle battle and for the last one (the benchmark's desk event).
@example(GENERATED, 1.0, 0.0, [("supplied", 7, 0, 0, 5, [3, 5])])
@example(GENERATED, 1.0, 0.0, [("drawn", -1, 0, 0, 5, [2, 6])])
@example(FLOWS, 1.0, 0.0, [("supplied", 0, 0, 0, 5, [6, 6, 6, 6])])
def test_a_resumed_walk_is_the_full_walk(source: str, first: float, more: float,
                                         specs: list[tuple[Any, ...]]) -> None:
    earlier, game = grown(_events(source), first, more, specs)
    rolled, corrected = earlier
    rolled_outcomes, corrected_outcomes = _outcomes(game)
    full_rolled = walk_board(game, rolled_outcomes)
    resumed_rolled = walk_board(game, rolled_outcomes, since=[corrected, rolled])
    assert _fields(resumed_rolled) == _fields(full_rolled)
    full = walk_board(game, corrected_outcomes, rolled=full_rolled)
    resumed = walk_board(game, corrected_outcomes, rolled=resumed_rolled, since=[rolled, corrected])
    assert _fields(resumed) == _fields(full)
    # A walk resumed from a resumed walk too (its marks: the earlier walk's, then its own).
    again = walk_board(game, corrected_outcomes, rolled=full_rolled, since=[resumed])
    assert _fields(again) == _fields(full)


@pytest.mark.parametrize("pick", ["middle", "last"])
def test_dice_for_a_battle_resume_the_walk_at_that_battle(pick: str) -> None:
    game = project_game(None, _events(GENERATED))
    assert game is not None and len(game.battles) > 4
    outcomes = _outcomes(game)[0]
    earlier = walk_board(game, outcomes)
    # The battle nearest the middle (or the last) that takes the dice (a battle named by its
    # territory is the latest one there).
    battle, game = dice_for(_events(GENERATED), pick, [3, 5])
    outcomes = _outcomes(game)[0]
    resumed: list[int] = []
    real = board_resume.rebuild

    def spy(walker: Any, walk: BoardWalk, mark: board_resume.Mark) -> list[board_resume.Mark]:
        resumed.append(mark.seq)
        return real(walker, walk, mark)

    with patch("domain.record.board_state.rebuild", spy):
        walk = walk_board(game, outcomes, since=[earlier])
    assert _fields(walk) == _fields(walk_board(game, outcomes))
    # Resumed at the battle's old result, not before its declaration's record.
    assert resumed and battle.declared_seq <= resumed[0] <= battle.last_seq


def test_another_start_or_fewer_records_walk_from_the_start() -> None:
    events = _events(GENERATED)
    game = project_game(None, events)
    shorter = project_game(None, events[: len(events) // 2])
    assert game is not None and shorter is not None
    earlier = walk_board(game, _outcomes(game)[0])
    with patch("domain.record.board_state.rebuild") as rebuild:
        walk = walk_board(shorter, _outcomes(shorter)[0], since=[earlier])
    assert not rebuild.called
    assert _fields(walk) == _fields(walk_board(shorter, _outcomes(shorter)[0]))


def test_replays_exist() -> None:
    assert REPLAYS and Path(ROOT / FLOWS).exists()
