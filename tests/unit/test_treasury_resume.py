"""A treasury resumed from an earlier treasury is the full treasury (domain/record/treasury_resume.py).

Random event sequences: a game at some version is walked (board and treasury, as rolled and as
corrected), then more of its events and random desk events (reports, rulings, dice supplied or
drawn for any battle: the middle one, the last one) are filed, and the treasury walked on the new
walk, resumed from the earlier treasuries, must be the treasury walked from the start, field for
field (the dicts' order too), with the same inputs for a later treasury to resume from.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from application.intake.replayfile import parse_replay
from domain.record import board_resume, treasury_resume
from domain.record.board_state import walk_board
from domain.record.events import GameEvent
from domain.record.game import project_game
from domain.record.treasury import TreasuryWalk, walk_treasury
from domain.review.treasury_review import purses
from tests.unit import test_board_resume
from tests.unit.test_board_resume import FLOWS, GENERATED, _outcomes, dice_for, grown
from tests.unit.test_review_memo import REPLAYS, desk_event
from tests.unit.test_treasury import CAPTURE, HEAD

#: Games whose treasury is known (from the setup): purchases, tech, void turns, a capital taken
#: (most replays start mid-game: their treasury is unknown, nothing to resume).
CAPITAL = "a capital taken"
FROM_SETUP = [GENERATED, CAPITAL, "replays/games/full-game-three-rounds-2008.toml",
              "replays/fidelity/void-turn-purchase-undone-2008.toml",
              "replays/fidelity/void-turn-tech-undone-2008.toml"]


@cache
def _events(source: str) -> tuple[GameEvent, ...]:
    if source == CAPITAL:
        return tuple(parse_replay(HEAD + "".join(CAPTURE)).events)
    return test_board_resume._events(source)


def _fields(treasury: TreasuryWalk) -> dict[str, Any]:
    """Every field of a treasury, the dicts' order included, and what a later one resumes from."""
    return {"known": treasury.known, "history": list(treasury.history.items()), "spends": treasury.spends,
            "incomes": treasury.incomes, "captures": treasury.captures,
            "turn_starts": list(treasury.turn_starts.items()), "income_steps": treasury.income_steps,
            "marks": treasury.marks(), "inputs": treasury.inputs}


@pytest.fixture(autouse=True)
def _marks_everywhere() -> Iterator[None]:
    # The board walks resume too (a mark every few steps: the replays are short), and a digest
    # of every few control changes (a record's changes across two digests too).
    with patch.object(board_resume, "EVERY", 2), patch.object(board_resume, "BLOCK", 3), \
            patch.object(board_resume, "_STRETCH", 2), patch.object(treasury_resume, "BLOCK", 3):
        yield


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([*FROM_SETUP, *REPLAYS]), st.floats(0.3, 1.0), st.floats(0, 1),
       st.lists(desk_event, max_size=4))
# Dice supplied for a middle battle and for the last one (the benchmark's desk event), rulings.
@example(GENERATED, 1.0, 0.0, [("supplied", 7, 0, 0, 5, [3, 5])])
@example(GENERATED, 1.0, 0.0, [("drawn", -1, 0, 0, 5, [2, 6])])
@example(GENERATED, 0.5, 0.0, [("supplied", -1, 0, 0, 5, [6, 6, 6, 6, 6, 6])])
@example(FLOWS, 1.0, 0.0, [("supplied", 0, 0, 0, 5, [6, 6, 6, 6])])
@example(FLOWS, 1.0, 0.0, [("ruling", 0, 0, 0, 5, []), ("ruling", 0, 1, 1, 5, [])])
def test_a_resumed_treasury_is_the_full_treasury(source: str, first: float, more: float,
                                                 specs: list[tuple[Any, ...]]) -> None:
    _check(source, first, more, specs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FROM_SETUP), st.floats(0.05, 1.0), st.floats(0, 1), st.lists(desk_event, max_size=4))
@example(CAPITAL, 1.0, 0.0, [("supplied", 0, 0, 0, 5, [6, 6, 6])])
@example(CAPITAL, 0.5, 1.0, [("drawn", 0, 0, 0, 5, [6, 6, 6]), ("ruling", 0, 0, 0, 5, [])])
def test_a_resumed_treasury_of_a_game_from_the_setup(source: str, first: float, more: float,
                                                     specs: list[tuple[Any, ...]]) -> None:
    _check(source, first, more, specs)


def _check(source: str, first: float, more: float, specs: list[tuple[Any, ...]]) -> None:
    events = _events(source)
    cut = max(1, int(len(events) * first))
    start = project_game(None, events[:cut])
    assert start is not None
    (rolled, corrected), game = grown(events, first, more, specs)
    earlier = [walk_treasury(start, rolled, []), walk_treasury(start, corrected, [])]
    rolled_outcomes, corrected_outcomes = _outcomes(game)
    walks = [walk_board(game, rolled_outcomes, since=[rolled, corrected])]
    walks.append(walk_board(game, corrected_outcomes, rolled=walks[0], since=[rolled, corrected]))
    for walk in walks:
        full = walk_treasury(game, walk, [])
        resumed = walk_treasury(game, walk, earlier)
        assert _fields(resumed) == _fields(full)
        # A treasury resumed from a resumed one too; the purses the review reads the same.
        again = walk_treasury(game, walk, [resumed])
        assert _fields(again) == _fields(full)
        for seq in {1, *(s + 1 for s, _ in full.income_steps[:3]), game.seq, game.seq + 1}:
            assert purses(resumed, walk, seq) == purses(full, walk, seq)
        # Nothing kept without a memo (no later treasury resumes it).
        assert walk_treasury(game, walk) == full and walk_treasury(game, walk).inputs is None


@pytest.mark.parametrize("pick", ["middle", "last"])
def test_dice_for_a_battle_resume_the_treasury_at_that_battle(pick: str) -> None:
    events = _events(GENERATED)
    game = project_game(None, events)
    assert game is not None and len(game.battles) > 4
    outcomes = _outcomes(game)[0]
    walk = walk_board(game, outcomes)
    earlier = walk_treasury(game, walk, [])
    assert earlier.known and earlier.inputs is not None
    battle, after = dice_for(events, pick, [6, 6, 6, 6, 6, 6])
    outcomes = _outcomes(after)[0]
    walk = walk_board(after, outcomes)
    resumed: list[int] = []
    real = treasury_resume.cut

    def spy(earlier: TreasuryWalk, seq: int, starting: Any) -> Any:
        resumed.append(seq)
        return real(earlier, seq, starting)

    with patch("domain.record.treasury.cut", spy), patch.object(treasury_resume, "BLOCK", 1):
        earlier = walk_treasury(game, walk_board(game, _outcomes(game)[0]), [])  # (digest by change)
        treasury = walk_treasury(after, walk, [earlier])
        assert _fields(treasury) == _fields(walk_treasury(after, walk, []))
    # Resumed at the battle's old result at the earliest (nothing before it read anew).
    assert resumed and resumed[0] >= battle.last_seq


def test_another_start_or_fewer_records_walk_from_the_start() -> None:
    events = _events(GENERATED)
    game = project_game(None, events)
    shorter = project_game(None, events[: len(events) // 2])
    assert game is not None and shorter is not None
    walk = walk_board(game, _outcomes(game)[0])
    earlier = walk_treasury(game, walk, [])
    short_walk = walk_board(shorter, _outcomes(shorter)[0])
    with patch("domain.record.treasury.cut") as cut:
        treasury = walk_treasury(shorter, short_walk, [earlier])
    assert not cut.called
    assert _fields(treasury) == _fields(walk_treasury(shorter, short_walk, []))


@pytest.mark.parametrize("source", FROM_SETUP)
def test_each_event_resumes_the_treasury(source: str) -> None:
    # One event at a time (a purchase, a battle, a map update...): the treasury walked on from
    # the one before is the full treasury (as rolled and as corrected).
    events = _events(source)
    game = project_game(None, events[:1])
    assert game is not None
    earlier: list[TreasuryWalk] = []
    for event in events[1:]:
        game = project_game(game, [event])
        assert game is not None
        rolled_outcomes, corrected_outcomes = _outcomes(game)
        rolled = walk_board(game, rolled_outcomes)
        made = []
        for walk in (rolled, walk_board(game, corrected_outcomes, rolled=rolled)):
            treasury = walk_treasury(game, walk, earlier)
            assert _fields(treasury) == _fields(walk_treasury(game, walk, []))
            made.append(treasury)
        earlier = made
