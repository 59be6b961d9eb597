"""A walk of the board kept in a stored memo is resumed in the next process, and the review on
it is the full review (domain/record/board_resume.py through application/adapters/memo_codec.py).

The memo is dumped and read back between events (as a desk command in a new process does); the
marks are taken every few steps so that the walks of short games are resumed, not made again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from application.adapters.memo_codec import dump_memo, load_memo
from application.intake.replayfile import parse_replay
from benchmarks.gen_game import generate_replay
from domain.record import board_resume, board_state
from domain.record.game import project_game
from domain.review.game_review import review
from domain.review.memo import ReviewMemo
from tests.unit.test_review_memo import _event, desk_event


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(desk_event, min_size=1, max_size=3))
def test_a_walk_resumed_from_a_stored_memo_gives_the_full_review(specs: list[tuple[Any, ...]]) -> None:
    resumed: list[int] = []
    real = board_resume.rebuild

    def spy(walker: Any, walk: Any, mark: board_resume.Mark) -> list[board_resume.Mark]:
        resumed.append(mark.seq)
        return real(walker, walk, mark)

    with patch.object(board_resume, "EVERY", 4), patch.object(board_state, "rebuild", spy):
        game = project_game(None, parse_replay(generate_replay(120, 5)).events)
        assert game is not None
        memo = ReviewMemo()
        review(game, memo=memo)
        for spec in specs:
            memo = load_memo([dump_memo(memo)])  # (the parts the last review used)
            game = project_game(game, [_event(game, spec)])
            assert game is not None
            for as_rolled in (False, True):
                assert msgspec.msgpack.encode(review(game, as_rolled=as_rolled, memo=memo)) == \
                    msgspec.msgpack.encode(review(game, as_rolled=as_rolled))
    if any(spec[0] in ("supplied", "drawn") for spec in specs):
        assert resumed  # dice moved a result: the walk was resumed, not made again


def _through_chunks(specs: list[tuple[Any, ...]], check: Callable[[ReviewMemo, ReviewMemo], None]) -> None:
    """As a desk command stores a memo: whole, then each refresh's chunk appended (what
    added_chunk gives), each refresh equal to the full review; ``check(memo, read)`` after each
    chunk, with the memo the review used and the one read back from every chunk so far."""
    from application.adapters.memo_codec import added_chunk, known_keys

    with patch.object(board_resume, "EVERY", 4):
        game = project_game(None, parse_replay(generate_replay(120, 5)).events)
        assert game is not None
        memo = ReviewMemo()
        review(game, memo=memo)
        chunks = [dump_memo(memo)]
        for spec in specs:
            memo = load_memo(chunks)
            known = known_keys(memo)
            game = project_game(game, [_event(game, spec)])
            assert game is not None
            for as_rolled in (False, True):
                assert msgspec.msgpack.encode(review(game, as_rolled=as_rolled, memo=memo)) == \
                    msgspec.msgpack.encode(review(game, as_rolled=as_rolled))
            chunk = added_chunk(memo, known)
            if chunk is not None:
                chunks.append(chunk)
                check(memo, load_memo(chunks))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(desk_event, min_size=1, max_size=4))
def test_a_resumed_walk_appended_as_what_it_adds_reads_back_whole(specs: list[tuple[Any, ...]]) -> None:
    """A walk resumed from an earlier one is stored as what it adds to it
    (application/adapters/walk_delta.py); read back, every walk equals the one the review made,
    and the reviews stay the full ones."""
    from application.adapters.walk_delta import WalkDelta

    deltas: list[WalkDelta] = []
    real = WalkDelta.of.__func__  # type: ignore[attr-defined]

    def spy(cls: type[WalkDelta], *args: Any) -> WalkDelta:
        found: WalkDelta = real(cls, *args)
        deltas.append(found)
        return found

    def check(memo: ReviewMemo, read: ReviewMemo) -> None:
        for key, walk in memo.walks.items():
            if isinstance(walk, board_state.BoardWalk):
                again = read.walks[key]
                assert again.same_board(walk) and again == walk
                assert (again.adopted, again.control_log, again.inputs) == \
                    (walk.adopted, walk.control_log, walk.inputs)

    with patch.object(WalkDelta, "of", classmethod(spy)):
        _through_chunks(specs, check)
    if any(spec[0] in ("supplied", "drawn") for spec in specs):
        assert deltas  # a resumed walk was stored as what it adds


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(desk_event, min_size=1, max_size=4))
def test_big_parts_appended_as_what_they_change_read_back_equal(specs: list[tuple[Any, ...]]) -> None:
    """The whole turn audit, every battle's board key and the game view's parts, made again on
    a resumed walk, are appended as what they change of an earlier part
    (application/adapters/part_delta.py); read back, each equals the part the review made."""
    from application.adapters import memo_codec
    from application.adapters.part_delta import PartDelta, part_delta

    made: list[PartDelta] = []

    def spy(part: Any, earlier: Any) -> PartDelta | None:
        found = part_delta(part, earlier)
        if found is not None:
            made.append(found)
        return found

    def check(memo: ReviewMemo, read: ReviewMemo) -> None:
        for name in ("turn_audits", "board_keys", "game_views"):
            table = getattr(memo, name)
            for key in list(table):
                assert getattr(read, name)[key] == table[key]

    with patch.object(memo_codec, "part_delta", spy):
        _through_chunks(specs, check)
    if any(spec[0] in ("supplied", "drawn") for spec in specs):
        assert made  # a part made again on the resumed walk was stored as what it changes
