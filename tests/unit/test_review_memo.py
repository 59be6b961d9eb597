"""The incremental review (domain/review/memo.py) is the full review, on random event sequences.

Each example takes a shipped replay (disputed battles, corrections, flows, elections) and appends
random reports, rulings and dice, one at a time, reviewing after each with the memo carried over
from the review before: both histories must equal a review made from scratch.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from application.intake.replayfile import load_replay
from domain.record.events import DiceDrawn, DiceSupplied, GameEvent, ReportFiled, RulingIssued
from domain.record.game import Game, project_game
from domain.review.game_review import review
from domain.review.memo import ReviewMemo, record_key
from domain.review.views import GameView

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "replays").rglob("*.toml"))
DECISIONS = ("apply", "dismiss", "mutual")
ELECTIONS = (None, "reroll", "not_fight", "accept", "apply_to_corrected_units", "reroll_defence")

#: One desk event, abstractly: (kind, battle pick, finding pick, choice, minutes, dice).
desk_event = st.tuples(st.sampled_from(("report", "report_game", "ruling", "ruling_kind", "supplied",
                                        "drawn")),
                       st.integers(0, 50), st.integers(0, 50), st.integers(0, 20),
                       st.integers(-600, 3000), st.lists(st.integers(1, 6), min_size=1, max_size=6))


def _event(game: Game, spec: tuple[Any, ...]) -> GameEvent:
    """A concrete event after ``game``'s last one, as ``spec`` describes it."""
    kind, battle_pick, finding_pick, choice, minutes, dice = spec
    when = game.moments[-1] + timedelta(minutes=minutes)
    base: dict[str, Any] = {"originator_id": game.id, "originator_version": game.version + 1,
                            "timestamp": when, "at": when}
    record = game.battles[battle_pick % len(game.battles)] if game.battles else None
    if kind in ("supplied", "drawn") and record is not None:
        where = {"battle": record.written or record.territory, "territory": record.territory}
        if kind == "supplied":
            return DiceSupplied(**base, **where, dice=tuple(dice))
        sequence = 1 + max((s for b in game.battles for s, _, _ in b.drawn), default=-1)
        return DiceDrawn(**base, **where, sequence=sequence, purpose="correction", dice=tuple(dice))
    if kind in ("ruling", "ruling_kind"):
        findings = review(game).findings
        finding = (f"F{finding_pick % (len(findings) + 1) + 1}" if kind == "ruling" or not findings
                   else findings[finding_pick % len(findings)].kind)
        return RulingIssued(**base, finding=finding, decision=DECISIONS[choice % 3],
                            election=ELECTIONS[choice % len(ELECTIONS)], text=f"ruling {choice}")
    battle = record.territory if kind == "report" and record is not None else None
    return ReportFiled(**base, by="USSR", text=f"report {choice}", battle=battle)


def _encoded(game: Game, memo: ReviewMemo | None) -> tuple[bytes, bytes]:
    return (msgspec.msgpack.encode(review(game, memo=memo)),
            msgspec.msgpack.encode(review(game, as_rolled=True, memo=memo)))


FLOWS = "replays/consequences/corrected-result-flows-2008.toml"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(REPLAYS), st.lists(desk_event, min_size=1, max_size=6))
# A corrected result that stops flowing (its finding dismissed) or flows otherwise (new dice)
# into a later battle on the same board, which has no finding of its own.
@example(FLOWS, [("ruling", 0, 0, 1, 5, [1])])
@example(FLOWS, [("supplied", 0, 0, 0, 5, [6, 6, 6, 6])])
def test_incremental_review_is_the_full_review(path: str, specs: list[tuple[Any, ...]]) -> None:
    replay = load_replay(ROOT / path)
    game = project_game(None, replay.events)
    assert game is not None
    memo = ReviewMemo()
    _encoded(game, memo)
    for spec in specs:
        game = project_game(game, [_event(game, spec)])
        assert game is not None
        assert _encoded(game, memo) == _encoded(game, None)
        memo.prune()


def test_the_memo_reuses_what_an_event_did_not_touch() -> None:
    replay = load_replay(ROOT / "replays" / "consequences" / "corrected-result-flows-2008.toml")
    game = project_game(None, replay.events)
    assert game is not None and len(game.battles) > 1
    memo = ReviewMemo()
    review(game, memo=memo)
    first = memo.computed
    game = project_game(game, [_event(game, ("supplied", 0, 0, 0, 5, [3, 4]))])
    assert game is not None
    memo.computed = memo.reused = 0
    review(game, memo=memo)
    assert 0 < memo.computed < first and memo.reused > 0


def _views(game: Game, memo: ReviewMemo | None) -> list[GameView]:
    return [review(game, memo=memo), review(game, as_rolled=True, memo=memo)]


def _new_keys(memo: ReviewMemo, before: dict[str, set[Any]]) -> dict[str, set[Any]]:
    return {name: set(getattr(memo, name)) - before[name] for name in before}


@pytest.mark.parametrize("kind", ["supplied", "drawn"])
def test_dice_for_one_battle_review_only_that_battle_again(kind: str) -> None:
    """Dice filed into a battle's record move its last record, so the walk of the board is made
    again; a battle without findings that reads the same board as before is reused whole
    (memo.board_key), not reviewed again because another battle's record grew."""
    reused = 0
    for path in REPLAYS:
        game = project_game(None, load_replay(ROOT / path).events)
        assert game is not None
        if len(game.battles) < 2:
            continue
        memo = ReviewMemo()
        earlier = _views(game, memo)
        before = set(memo.quiet_battles)
        game = project_game(game, [_event(game, (kind, len(game.battles) - 1, 0, 0, 5, [2, 6]))])
        assert game is not None
        now = _views(game, memo)
        assert now == _views(game, None)
        last = record_key(game.battles[-1])
        # The battles whose view is as it was (a finding renumbered or a result moved changes it).
        same = {(history, record_key(record))
                for history, (old, new) in enumerate(zip(earlier, now, strict=True))
                for record, was, is_ in zip(game.battles, old.battles, new.battles, strict=True)
                if was == is_ and record_key(record) != last}
        again = {(int(key[0]), key[1]) for key in set(memo.quiet_battles) - before}
        assert not (again & same), path
        reused += len(same & {(int(key[0]), key[1]) for key in before})
    assert reused >= 10
