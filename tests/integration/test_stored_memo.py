"""Incremental == full, on every store: a desk command in a new process carries on from the
stored memo and the stored battle rows (application/adapters/memo_codec.py, review_store.py,
tui/reviewed.py), and what readers then get is what a review from scratch makes.

On every store: a shipped replay is recorded and its review stored (as ``minister import`` does),
then random reports, rulings and dice are recorded one at a time, each by a freshly opened
application (a new process's view of the store: nothing in memory but what the store holds), and
the stored review refreshed as a desk command refreshes it. Every product a reader puts together
from the rows (both views, the opening part, the four reports) must be byte for byte what a
review from scratch makes, and the refresh must have started from the stored memo (read back).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from application.adapters.app import MinisterApplication
from application.adapters.memo_codec import MEMO_HEADER, MemoUnreadable, load_memo
from application.adapters.review_store import MAX_CHUNKS, ChunkWrite, head_of, load_chunks, save
from application.adapters.stores import open_store
from application.intake.replayfile import Replay, load_replay
from domain.review.game_review import review
from tests.integration.store_helpers import postgres_schema
from tests.unit.test_review_memo import REPLAYS, ROOT, _event, desk_event
from tui.reviewed import (
    MEMO,
    MEMO_ROWS,
    VIEW_AS_ROLLED,
    VIEW_CORRECTED,
    VIEW_OPENING,
    _review_now,
    keep,
    products,
    report_kind,
    stored,
)

#: Every product a reader asks for.
KINDS = (VIEW_CORRECTED, VIEW_AS_ROLLED, VIEW_OPENING,
         *(report_kind(json=json, as_rolled=as_rolled) for json in (True, False)
           for as_rolled in (False, True)))

_ENCODER = msgspec.msgpack.Encoder()


@contextmanager
def _memory() -> Iterator[Callable[[], MinisterApplication]]:
    app = open_store("memory:")  # one process: the memo still goes through the store's bytes
    yield lambda: app


@contextmanager
def _sqlite() -> Iterator[Callable[[], MinisterApplication]]:
    with tempfile.TemporaryDirectory() as folder:
        yield lambda: open_store(f"sqlite:{Path(folder) / 'minister.sqlite3'}")


@contextmanager
def _postgres() -> Iterator[Callable[[], MinisterApplication]]:
    with postgres_schema() as spec:
        yield lambda: open_store(spec)


def _check_desk_commands(store: Callable[[], AbstractContextManager[Callable[[], MinisterApplication]]],
                         path: str, specs: list[tuple[Any, ...]]) -> None:
    replay = load_replay(ROOT / path)
    with store() as opened:
        app = opened()
        app.record(replay.events)
        keep(app, replay.game_id)  # minister import: the review and its memo stored
        for spec in specs:
            app = opened()  # the next desk command: a new process
            game = app.game(replay.game_id)
            app.record([_event(game, spec)])
            head = head_of(app, replay.game_id)
            assert head is not None
            earlier = load_chunks(app, replay.game_id, MEMO, head)
            assert earlier is not None and earlier.head.version < head.version  # an earlier review's memo
            load_memo(earlier.data)  # ... that reads back (else the refresh is a full review)
            keep(app, replay.game_id)
            game = app.game(replay.game_id)
            full = products(game)  # from scratch: no memo, no rows
            for kind in KINDS:
                assert stored(app, replay.game_id, kind) == full[kind], kind


_EXAMPLES = settings(max_examples=12, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@_EXAMPLES
@given(st.sampled_from(REPLAYS), st.lists(desk_event, min_size=1, max_size=4))
def test_memory_store_refreshes_incrementally(path: str, specs: list[tuple[Any, ...]]) -> None:
    _check_desk_commands(_memory, path, specs)


@_EXAMPLES
@given(st.sampled_from(REPLAYS), st.lists(desk_event, min_size=1, max_size=4))
def test_sqlite_store_refreshes_incrementally(path: str, specs: list[tuple[Any, ...]]) -> None:
    _check_desk_commands(_sqlite, path, specs)


@pytest.mark.postgres
@_EXAMPLES
@given(st.sampled_from(REPLAYS), st.lists(desk_event, min_size=1, max_size=4))
def test_postgres_store_refreshes_incrementally(path: str, specs: list[tuple[Any, ...]]) -> None:
    _check_desk_commands(_postgres, path, specs)


def _kept(*path: str) -> tuple[MinisterApplication, Replay]:
    """A shipped replay recorded in a memory store, its review stored (as ``minister import``)."""
    replay = load_replay(ROOT.joinpath("replays", *path))
    app = open_store("memory:")
    app.record(replay.events)
    keep(app, replay.game_id)
    return app, replay


def test_a_memo_naming_other_code_is_refused() -> None:
    import pickle

    data = pickle.dumps({"reads": {1: print}})
    with pytest.raises(MemoUnreadable, match=r"builtins\.print"):
        load_memo([MEMO_HEADER + data])
    with pytest.raises(MemoUnreadable, match="not a memo of this layout"):
        load_memo([data])


def test_a_broken_memo_means_a_full_review() -> None:
    app, replay = _kept("consequences", "corrected-result-flows-2008.toml")
    head = head_of(app, replay.game_id)
    assert head is not None
    save(app, replay.game_id, head, {}, chunks={MEMO: ChunkWrite(0, MEMO_HEADER + b"junk!")})
    game = app.game(replay.game_id)
    app.record([_event(game, ("report", 0, 0, 0, 5, [1]))])
    keep(app, replay.game_id)
    game = app.game(replay.game_id)
    assert stored(app, replay.game_id, VIEW_CORRECTED) == _ENCODER.encode(review(game))


def test_a_refresh_that_adds_nothing_to_the_memo_leaves_its_row_as_it_was() -> None:
    """A second report on the same battle needs no part the memo lacks: the memo is not written
    again (megabytes on a big game), and the row of the earlier version is what the next
    refresh carries on from."""
    app, replay = _kept("consequences", "corrected-result-flows-2008.toml")
    game = app.game(replay.game_id)
    app.record([_event(game, ("report", 0, 0, 0, 5, [1]))])
    keep(app, replay.game_id)
    reported = head_of(app, replay.game_id)
    assert reported is not None
    before = load_chunks(app, replay.game_id, MEMO, reported)
    game = app.game(replay.game_id)
    app.record([_event(game, ("report", 0, 0, 0, 6, [1]))])
    keep(app, replay.game_id)
    head = head_of(app, replay.game_id)
    assert head is not None and head.version == reported.version + 1
    after = load_chunks(app, replay.game_id, MEMO, head)
    assert before is not None and after == before  # the same row: its version and its bytes
    game = app.game(replay.game_id)
    assert stored(app, replay.game_id, VIEW_CORRECTED) == _ENCODER.encode(review(game))
    app.record([_event(game, ("report", 0, 0, 0, 7, [1]))])  # the next refresh carries on from it
    keep(app, replay.game_id)
    game = app.game(replay.game_id)
    assert stored(app, replay.game_id, VIEW_CORRECTED) == _ENCODER.encode(review(game))


def _memo_rows(app: MinisterApplication, game_id: str) -> list[str]:
    """The memo's rows stored for a game, in chunk order."""
    from application.adapters.review_store import _table

    return list(_table(app).get_many(game_id, sorted(MEMO_ROWS, key=len)))


@pytest.mark.parametrize("store", [_memory, _sqlite, pytest.param(_postgres, marks=pytest.mark.postgres)])
def test_each_refresh_appends_its_chunk_and_the_memo_is_written_whole_again_at_the_most_chunks(
        store: Callable[[], AbstractContextManager[Callable[[], MinisterApplication]]]) -> None:
    """A desk command writes only what its refresh added to the memo, as a row of its own (not
    the earlier megabytes again); after as many chunks as a memo keeps, it is written whole
    (pruned) and the appended rows go. Each refresh carries on from every chunk stored."""
    replay = load_replay(ROOT / "replays" / "consequences" / "corrected-result-flows-2008.toml")
    with store() as opened:
        app = opened()
        app.record(replay.events)
        keep(app, replay.game_id)
        assert _memo_rows(app, replay.game_id) == [MEMO]
        seen = []
        for minutes in range(MAX_CHUNKS + 1):
            app = opened()
            game = app.game(replay.game_id)
            app.record([_event(game, ("supplied", 0, 0, 0, 5 + minutes, [minutes % 6 + 1]))])
            head = head_of(app, replay.game_id)
            assert head is not None
            earlier = load_chunks(app, replay.game_id, MEMO, head)
            assert earlier is not None and len(earlier.data) == len(_memo_rows(app, replay.game_id))
            keep(app, replay.game_id)
            seen.append(len(_memo_rows(app, replay.game_id)))
            assert stored(app, replay.game_id, VIEW_CORRECTED) == products(app.game(replay.game_id))[
                VIEW_CORRECTED]
        assert seen == [*range(2, MAX_CHUNKS + 1), 1, 2]


def test_a_chunk_that_does_not_follow_the_one_before_ends_the_memo_read() -> None:
    """A chunk row left by an interleaved or stale writer (it names another chunk as the one it
    follows) is not read, nor anything after it: the refresh carries on from the chunks before
    it, and what readers get is still the review from scratch."""
    app, replay = _kept("consequences", "corrected-result-flows-2008.toml")
    for minutes in (5, 6):
        app.record([_event(app.game(replay.game_id), ("supplied", 0, 0, 0, minutes, [3]))])
        keep(app, replay.game_id)
    head = head_of(app, replay.game_id)
    assert head is not None
    whole = load_chunks(app, replay.game_id, MEMO, head)
    assert whole is not None and len(whole.data) == 3
    # Chunk 2 written again as if it followed another chunk 1 (a writer that read other rows).
    save(app, replay.game_id, head, {}, chunks={MEMO: ChunkWrite(2, whole.data[2], b"\x01" * 16)})
    cut = load_chunks(app, replay.game_id, MEMO, head)
    assert cut is not None and cut.data == whole.data[:2]
    app.record([_event(app.game(replay.game_id), ("drawn", 0, 0, 0, 7, [2, 6]))])
    keep(app, replay.game_id)
    assert len(_memo_rows(app, replay.game_id)) == 3  # chunk 2 written again, following chunk 1
    game = app.game(replay.game_id)
    assert stored(app, replay.game_id, VIEW_CORRECTED) == _ENCODER.encode(review(game))


def test_the_stored_memo_holds_each_quiet_battles_view_once() -> None:
    """A battle without findings has the same view in both histories: the memo stores it once
    (as one object, read back as one), not once per history."""
    app, replay = _kept("games", "full-game-three-rounds-2008.toml")
    head = head_of(app, replay.game_id)
    assert head is not None
    chunks = load_chunks(app, replay.game_id, MEMO, head)
    assert chunks is not None
    memo = load_memo(chunks.data)
    quiet = memo.quiet_battles
    assert {key[0] for key in quiet} == {False, True}  # both histories have quiet battles
    assert len({id(view) for view, _ in quiet.values()}) == len({memo.view_digests[key] for key in quiet})
    assert len({id(view) for view, _ in quiet.values()}) < len(quiet)


def test_a_part_taken_as_it_was_under_a_new_key_is_stored_as_that_key() -> None:
    """A big part a refresh took as it was (the very object, under a new key: a treasury a dice
    event left unchanged) is named in the appended chunk, not pickled again; read back, both
    keys hold one object."""
    from application.adapters.memo_codec import added_chunk, dump_memo, known_keys
    from domain.review.memo import ReviewMemo

    app, replay = _kept("games", "full-game-three-rounds-2008.toml")
    game = app.game(replay.game_id)
    memo = ReviewMemo()
    review(game, memo=memo)
    whole = dump_memo(memo)
    known = known_keys(memo)
    [(key, treasury)] = memo.treasuries.items()
    moved = (key[0], "another walk")
    memo.treasuries[moved] = treasury
    chunk = added_chunk(memo, known)
    assert chunk is not None and len(chunk) < 1000 < len(whole)
    read = load_memo([whole, chunk])
    assert read.treasuries[moved] is read.treasuries[key] and read.treasuries[key] == treasury


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(REPLAYS), st.lists(desk_event, min_size=MAX_CHUNKS - 2, max_size=MAX_CHUNKS + 2))
def test_refreshes_across_every_chunk_and_a_whole_rewrite_equal_the_full_review(
        path: str, specs: list[tuple[Any, ...]]) -> None:
    """Parts read back only when asked for (memo_codec.PackedTable, LazyTable) are never lost:
    through as many chunks as a memo keeps, its whole rewrite (which reads every part left
    unread, then prunes) and the chunks after it, every refresh is the full review."""
    _check_desk_commands(_memory, path, specs)


def test_a_refresh_reads_back_only_the_walks_it_asks_for() -> None:
    """After dice events, the walks the appended chunks supersede stay unread (their bytes):
    a refresh reads the latest walk of each role, and is the full review."""
    from application.adapters.memo_codec import Packed, PackedTable

    replay = load_replay(ROOT / "replays" / "consequences" / "corrected-result-flows-2008.toml")
    app = open_store("memory:")
    app.record(replay.events)
    keep(app, replay.game_id)
    for minutes in range(4):
        game = app.game(replay.game_id)
        app.record([_event(game, ("supplied", 0, 0, 0, 5 + minutes, [minutes % 6 + 1]))])
        keep(app, replay.game_id)
    game = app.game(replay.game_id)
    app.record([_event(game, ("supplied", 0, 0, 0, 20, [3]))])
    head = head_of(app, replay.game_id)
    assert head is not None
    earlier = load_chunks(app, replay.game_id, MEMO, head)
    assert earlier is not None and len(earlier.data) == 5
    memo = load_memo(earlier.data)
    assert isinstance(memo.walks, PackedTable)
    game = app.game(replay.game_id)
    assert review(game, memo=memo) == review(game)
    walks = [key for key in memo.walks if key[0] != "lineage"]
    unread = [key for key in walks if type(dict.__getitem__(memo.walks, key)) is Packed]
    assert len(walks) > 5 and unread  # the superseded walks were never read back


def test_the_memo_written_whole_after_the_most_chunks_keeps_the_parts_its_review_used() -> None:
    """The refresh that writes the memo whole again notes the parts it uses (the ones before it,
    which only append, note none) and prunes only the others: the memo it writes still holds
    the game's battles and walk, and a refresh from it reuses them."""
    from application.adapters.memo_codec import known_keys

    replay = load_replay(ROOT / "replays" / "consequences" / "corrected-result-flows-2008.toml")
    app = open_store("memory:")
    app.record(replay.events)
    keep(app, replay.game_id)
    whole = known_keys(load_memo(load_chunks(app, replay.game_id, MEMO, head_of(app, replay.game_id)).data))
    for minutes in range(MAX_CHUNKS):
        game = app.game(replay.game_id)
        app.record([_event(game, ("supplied", 0, 0, 0, 5 + minutes, [minutes % 6 + 1]))])
        keep(app, replay.game_id)
    head = head_of(app, replay.game_id)
    assert head is not None
    chunks = load_chunks(app, replay.game_id, MEMO, head)
    assert chunks is not None and len(chunks.data) == 1  # written whole again
    memo = load_memo(chunks.data)
    kept = known_keys(memo)
    assert kept["quiet_battles"] == whole["quiet_battles"] and kept["walks"] and kept["reads"]
    game = app.game(replay.game_id)
    assert review(game, memo=memo) == review(game) and memo.reused
    # Every part the last review used was kept, those appended as what they change of an
    # earlier part too (their base is read before the prune): nothing is made again.
    assert memo.computed == 0


def test_a_memo_that_notes_no_use_prunes_nothing() -> None:
    """A refresh that appends its chunk does not note the parts it uses: were its memo pruned,
    nothing would be lost."""
    from application.adapters.memo_codec import known_keys
    from domain.review.memo import ReviewMemo

    app, replay = _kept("games", "full-game-three-rounds-2008.toml")
    game = app.game(replay.game_id)
    memo = ReviewMemo()
    memo.track_use = False
    review(game, memo=memo)
    before = known_keys(memo)
    memo.prune()
    assert known_keys(memo) == before and before["quiet_battles"]


def test_a_packed_part_that_cannot_be_read_is_left_out_when_the_memo_is_written_whole() -> None:
    """Writing the memo whole reads back every packed part; one that is not a part (a broken
    row) is left out, not a failed desk command: the next review makes it again."""
    from application.adapters.memo_codec import Packed, PackedTable, dump_memo

    app, replay = _kept("games", "full-game-three-rounds-2008.toml")
    game = app.game(replay.game_id)
    head = head_of(app, replay.game_id)
    assert head is not None
    chunks = load_chunks(app, replay.game_id, MEMO, head)
    assert chunks is not None
    memo = load_memo(chunks.data)
    assert isinstance(memo.walks, PackedTable)
    dict.__setitem__(memo.walks, ("broken",), Packed(b"not a pickle", (("broken",),)))
    assert ("broken",) not in load_memo([dump_memo(memo)]).walks
    assert review(game, memo=load_memo([dump_memo(memo)])) == review(game)


def test_a_memo_that_lost_parts_since_it_was_read_is_written_whole() -> None:
    """A chunk only adds keys: were a table of the memo to hold fewer parts than when it was
    read, storing it writes the memo whole (a chunk, index 0), not a warning and no review."""
    from application.adapters.memo_codec import MemoShrank, added_chunk, known_keys

    app, replay = _kept("consequences", "corrected-result-flows-2008.toml")
    game = app.game(replay.game_id)
    app.record([_event(game, ("supplied", 0, 0, 0, 5, [4]))])
    _, reviewed = _review_now(app, replay.game_id)
    assert reviewed.earlier is not None and reviewed.known is not None
    memo = reviewed.memo
    memo.quiet_battles.clear()
    with pytest.raises(MemoShrank):
        added_chunk(memo, reviewed.known)
    write = reviewed.memo_write()
    assert write is not None and write.index == 0
    assert known_keys(load_memo([write.data]))["quiet_battles"] == 0 < reviewed.known["quiet_battles"]


def test_equal_forces_read_back_from_a_memo_share_their_units() -> None:
    """A memo names each different force's units once (memo_codec._force): read back, equal
    forces hold one tuple of units, and every force equals the one pickled."""
    from application.adapters.memo_codec import dump_memo
    from application.intake.replayfile import parse_replay
    from benchmarks.gen_game import generate_replay
    from domain.record.game import project_game
    from domain.review.memo import ReviewMemo
    from domain.rules.forces import Force

    memo = ReviewMemo()
    review(project_game(None, parse_replay(generate_replay(600, seed=2)).events), memo=memo)
    made = [force for key in memo.audits for force in key if type(force) is Force]
    read = load_memo([dump_memo(memo)])
    again = [force for key in read.audits for force in key if type(force) is Force]
    assert again == made and len(made) > 10
    units = {force: force.items for force in again}
    assert all(force.items is units[force] for force in again)
    assert len({id(force.items) for force in again}) == len(set(again)) < len(again)
