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
from domain.review.treasury_review import purses
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


def _table_keys(memo: ReviewMemo, table: str, kind: str) -> set[Any]:
    return {key for key in getattr(memo, table) if isinstance(key, tuple) and key and key[0] == kind}


@pytest.mark.parametrize("kind", ["supplied", "drawn"])
def test_dice_for_the_last_battle_audit_only_its_turn_again(kind: str) -> None:
    """Dice for the last battle move only its last record: the walk reads as before up to it
    (domain/review/walk_prefix.py), so the turn audit makes again only the last battle's turn,
    and the board keys and the game view's roles only the battles the change reaches."""
    checked = 0
    for path in REPLAYS:
        game = project_game(None, load_replay(ROOT / path).events)
        assert game is not None
        if len({b.turn for b in game.battles}) < 2:
            continue
        memo = ReviewMemo()
        _views(game, memo)
        before = {table: set(getattr(memo, table)) for table in ("turn_audits", "board_keys", "game_views")}
        game = project_game(game, [_event(game, (kind, len(game.battles) - 1, 0, 0, 5, [2, 6]))])
        assert game is not None
        assert _views(game, memo) == _views(game, None)
        last = game.battles[-1]
        turns = {key[3] for key in _table_keys(memo, "turn_audits", "turn") - before["turn_audits"]}
        battles = {key[2] for key in _table_keys(memo, "board_keys", "battle") - before["board_keys"]}
        roles = {key[1] for key in _table_keys(memo, "game_views", "roles") - before["game_views"]}
        if not memo.walks.keys() - {key for key in memo.walks if key[0] == "lineage"}:
            continue
        assert turns <= {last.turn}, path
        # Only the last battle's turn (its findings) and the battles whose purse moved.
        reached = {b.turn for b in game.battles if b.last_seq >= last.declared_seq}
        assert {key[0] for key in battles} <= reached, path
        assert roles == {record_key(last)}, path
        checked += 1
    assert checked >= 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(REPLAYS), st.integers(0, 50), st.integers(0, 50), st.integers(0, 20),
       st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_a_turn_part_kept_after_dice_is_made_again_when_an_earlier_result_changes(
        path: str, battle: int, finding: int, choice: int, dice: list[int]) -> None:
    """The per-turn audit and the board keys are keyed by the board before the turn (the walk's
    lineage): dice moved on the last battle, then a ruling that changes an earlier battle's
    result moves the board before later turns; every part that reads it must be made again
    (the incremental review is the full review, without pruning between the events)."""
    game = project_game(None, load_replay(ROOT / path).events)
    assert game is not None
    if not game.battles:
        return
    memo = ReviewMemo()
    _encoded(game, memo)
    for spec in (("supplied", len(game.battles) - 1, 0, 0, 5, dice),
                 ("ruling", battle, finding, choice, 10, dice),
                 ("drawn", len(game.battles) - 1, 0, 0, 15, dice),
                 ("ruling_kind", battle, finding, choice + 1, 20, dice)):
        game = project_game(game, [_event(game, spec)])
        assert game is not None
        assert _encoded(game, memo) == _encoded(game, None)


def test_a_turn_part_or_board_key_under_the_same_key_reads_the_same() -> None:
    """The proof behind the per-turn audit, the battles' purses and Magic 84's counts: on two walks of the
    same game whose results differ (each battle's result void in turn), a turn whose key
    (memo.turn_keys, through the walks' lineage) is the same on both finds the same, and a
    battle whose board key's key is the same reads the same board key; a change before a turn
    gives it a new key."""
    from domain.record.board_state import walk_board
    from domain.record.treasury import walk_treasury
    from domain.review.board_review import outcomes_of
    from domain.review.declaration_errors import audit_turn
    from domain.review.walk_prefix import name_before
    from domain.rules.board import Board
    from domain.rules.editions import edition
    from domain.rules.units import AXIS

    renamed = 0
    for path in REPLAYS:
        game = project_game(None, load_replay(ROOT / path).events)
        assert game is not None
        policy, board = edition(game.edition), Board.classic()
        outcomes = outcomes_of(review(game).battles)
        for changed in game.battles:
            memo = ReviewMemo()
            memo.begin(game)
            walks = []
            for name, results in (("a", outcomes), ("b", {**outcomes, changed.key: None})):
                walk = memo.walk(game, name, lambda since, game=game, results=results:
                                 walk_board(game, results, since=since))
                treasury = memo.treasury(game, name, lambda since, game=game, walk=walk:
                                         walk_treasury(game, walk, since))
                lineages = memo.lineage(game, 0, name, walk, treasury)
                assert lineages is not None
                walks.append((walk, treasury, lineages, memo.turn_keys(game, lineages)))
            for turn in game.turns:
                records = [b for b in game.battles if b.turn == turn]
                if not records:
                    continue
                found = [audit_turn(game, records, policy, board, walk) for walk, *_ in walks]
                if walks[0][3][turn] == walks[1][3][turn]:
                    assert found[0] == found[1], (path, turn)
                else:
                    renamed += 1
                for record in records:
                    money = [name_before(made[2].treasury, record.last_seq + 1) for made in walks]
                    if money[0] == money[1]:
                        assert purses(walks[0][1], walks[0][0], record.last_seq + 1) == \
                            purses(walks[1][1], walks[1][0], record.last_seq + 1), (path, record.key)
            for _, _, seq in walks[0][0].round_ends:  # Magic 84's count (club_procedures "axis")
                if len({name_before(made[2].walk, seq) for made in walks}) == 1:
                    assert len({made[0].before(seq).side_ipcs(sorted(AXIS)) for made in walks}) == 1
    assert renamed > 0
