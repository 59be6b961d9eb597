"""The stored review is a read model of the events, on every store: after any sequence of desk
events, what readers put together from the stored rows is what a fresh review makes.

On every store: a shipped replay is recorded and its review stored (as ``minister import``
does), then random reports, rulings and dice are recorded one at a time, each by a freshly
opened application (a new process's view of the store), and the stored review refreshed as a
desk command refreshes it. Every product a reader puts together from the rows (both views, the
opening part, the four reports) and the stored findings must be what a review from scratch makes.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from application.adapters.app import MinisterApplication
from application.adapters.review_store import head_of, save
from application.adapters.stores import open_store
from application.intake.replayfile import Replay, load_replay
from application.usecases.review_model import (
    FINDINGS,
    HISTORY,
    KINDS,
    VIEW_CORRECTED,
    product,
    products,
    refresh,
    stored,
    stored_findings,
    stored_view,
)
from domain.review.game_review import review
from tests.integration.store_helpers import postgres_schema
from tests.support.desk_events import FLOWS, REPLAYS, ROOT, desk_event, event_for

StoreFactory = Callable[[], AbstractContextManager[Callable[[], MinisterApplication]]]


@contextmanager
def _memory() -> Iterator[Callable[[], MinisterApplication]]:
    app = open_store("memory:")  # one process: the rows still go through the store's bytes
    yield lambda: app


@contextmanager
def _sqlite() -> Iterator[Callable[[], MinisterApplication]]:
    with tempfile.TemporaryDirectory() as folder:
        yield lambda: open_store(f"sqlite:{Path(folder) / 'minister.sqlite3'}")


@contextmanager
def _postgres() -> Iterator[Callable[[], MinisterApplication]]:
    with postgres_schema() as spec:
        yield lambda: open_store(spec)


def _check_desk_commands(store: StoreFactory, path: str, specs: list[tuple[Any, ...]]) -> None:
    replay = load_replay(ROOT / path)
    with store() as opened:
        app = opened()
        app.record(replay.events)
        refresh(app, replay.game_id)  # minister import: the review stored
        for spec in specs:
            app = opened()  # the next desk command: a new process
            app.record([event_for(app.game(replay.game_id), spec)])
            refresh(app, replay.game_id)
            game = app.game(replay.game_id)
            full = products(game)  # from scratch: no rows
            for kind in KINDS:
                assert stored(app, replay.game_id, kind) == full[kind], kind
            assert stored_findings(app, replay.game_id) == review(game).findings


_EXAMPLES = settings(max_examples=10, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
_STORES = {"memory": _memory, "sqlite": _sqlite, "postgres": _postgres}


@pytest.mark.parametrize("name", ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
@_EXAMPLES
@given(path=st.sampled_from(REPLAYS), specs=st.lists(desk_event, min_size=1, max_size=4))
# A corrected result that stops flowing (its finding dismissed) or flows otherwise (new dice).
@example(path=FLOWS, specs=[("ruling", 0, 0, 1, 5, [1])])
@example(path=FLOWS, specs=[("supplied", 0, 0, 0, 5, [6, 6, 6, 6])])
def test_the_stored_rows_equal_a_fresh_review_after_any_desk_events(name: str, path: str,
                                                                     specs: list[tuple[Any, ...]]) -> None:
    _check_desk_commands(_STORES[name], path, specs)


def _recorded(opened: Callable[[], MinisterApplication]) -> tuple[MinisterApplication, Replay]:
    """The flows game recorded in a store, its review stored (as ``minister import``)."""
    app = opened()
    replay = load_replay(ROOT / FLOWS)
    app.record(replay.events)
    refresh(app, replay.game_id)
    return app, replay


def _stored_game(spec: str = "memory:") -> tuple[MinisterApplication, str]:
    replay = load_replay(ROOT / FLOWS)
    app = open_store(spec)
    app.record(replay.events)
    refresh(app, replay.game_id)
    return app, replay.game_id


@pytest.mark.parametrize("junk", [b"not zlib at all", b"x\x9c\x03\x00\x00\x00\x00\x01",
                                  msgspec.msgpack.encode({"view_head": 1})])
def test_a_row_that_cannot_be_read_is_never_served_and_never_a_traceback(junk: bytes) -> None:
    """A game-level row edited in the database (not zlib, not the typed row) makes the stored
    review stale: readers review the game again, and the review is stored afresh."""
    import zlib

    app, game_id = _stored_game()
    head = head_of(app, game_id)
    assert head is not None
    fresh = products(app.game(game_id))
    table: Any = app.recorder._minister_reviews  # type: ignore[attr-defined]
    version, chain, engine, _ = table.rows[(game_id, HISTORY + "corrected")]
    table.rows[(game_id, HISTORY + "corrected")] = (version, chain, engine,
                                                    junk if junk.startswith(b"not") else zlib.compress(junk))
    table.rows[(game_id, FINDINGS + "corrected")] = (version, chain, engine, b"not zlib")
    assert stored(app, game_id, "json") is None
    assert stored_findings(app, game_id) is None
    assert product(app, game_id, "json") == fresh["json"]  # made again from the events
    assert stored(app, game_id, "json") == fresh["json"]  # and stored again


def test_a_battle_row_that_decodes_to_no_view_is_made_again() -> None:
    """A battle row edited in the database so that it is no battle view (its digest left as the
    history lists it): the timeline's reader does not fail, it gets the review made afresh."""
    import zlib

    app, game_id = _stored_game()
    fresh = review(app.game(game_id))
    table: Any = app.recorder._minister_reviews  # type: ignore[attr-defined]
    rows = table.battles[(game_id, "corrected")]
    version, engine, row = rows[0]
    forged = type(row)(row.digest, (zlib.compress(msgspec.msgpack.encode(["no", "view"])), *row.parts[1:]))
    rows[0] = (version, engine, forged)
    view = stored_view(app, game_id, VIEW_CORRECTED)
    assert msgspec.msgpack.encode(view) == msgspec.msgpack.encode(fresh)
    assert stored(app, game_id, VIEW_CORRECTED) == msgspec.msgpack.encode(fresh)  # rows written again


def test_a_decompression_bomb_row_is_refused() -> None:
    import zlib

    from application.adapters import review_store

    app, game_id = _stored_game()
    bomb = zlib.compress(b"\0" * (8 << 20), 9)
    table: Any = app.recorder._minister_reviews  # type: ignore[attr-defined]
    version, chain, engine, _ = table.rows[(game_id, HISTORY + "corrected")]
    table.rows[(game_id, HISTORY + "corrected")] = (version, chain, engine, bomb)
    real = review_store.MAX_ROW_BYTES
    try:
        review_store.MAX_ROW_BYTES = 1 << 20
        assert review_store.load(app, game_id, HISTORY + "corrected") is None
    finally:
        review_store.MAX_ROW_BYTES = real


def test_no_stored_row_is_pickled_nor_read_with_pickle() -> None:
    """Nothing minister stores or reads back goes through pickle: no module outside the tests
    imports it (a pickled row would run code on the Minister's machine when read)."""
    import ast

    offenders = []
    for package in ("domain", "projections", "application", "tui"):
        for source in (ROOT / package).rglob("*.py"):
            tree = ast.parse(source.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                if any(name.split(".")[0] in ("pickle", "_pickle", "marshal", "shelve", "dill")
                       for name in names):
                    offenders.append(str(source.relative_to(ROOT)))
    assert offenders == []


@pytest.mark.parametrize("name", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_row_of_another_head_is_not_served(name: str) -> None:
    """Rows are bound to the chain head they were made from: rows stored under another head
    (a forged or stale writer) are never served."""
    from application.adapters.review_tables import Head

    with _STORES[name]() as opened:
        app, replay = _recorded(opened)
        head = head_of(app, replay.game_id)
        assert head is not None
        save(app, replay.game_id, Head(head.version, "0" * 64), {HISTORY + "corrected": b"forged"})
        assert stored(app, replay.game_id, "json") is None


@pytest.mark.parametrize("name", ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_verify_integrity_compares_the_stored_review_with_the_events(name: str) -> None:
    """A battle row forged whole (its digest listed as it should be, its report saying another
    winner) is what a reader of the rows gets until checked; ``verify --integrity`` reviews the
    events, finds the rows differ, says so (exit 1) and makes them again (issue 26.2)."""

    from application.adapters.review_tables import BattleRow, HistoryRows
    from application.usecases.review_model import check_stored_review

    with _STORES[name]() as opened:
        app, replay = _recorded(opened)
        honest = stored(app, replay.game_id, "json")
        assert honest is not None and check_stored_review(app, replay.game_id) == []
        head = head_of(app, replay.game_id)
        assert head is not None
        from application.adapters.review_store import _table

        [row] = [r for p, r in _table(app).everything(replay.game_id)[1]["corrected"].items() if p == 0]
        json_part = row.parts[1].replace(b'"attacker"', b'"defender"')  # stored as it is
        forged = BattleRow(row.digest, (row.parts[0], json_part, row.parts[2]))
        save(app, replay.game_id, head, {}, {"corrected": HistoryRows(len(review(replay.game).battles),
                                                                      {0: forged})})
        assert stored(app, replay.game_id, "json") != honest  # the forgery is what the rows say
        problems = check_stored_review(app, replay.game_id)
        assert problems and "json" in problems[0] and "edited" in problems[0]
        assert stored(app, replay.game_id, "json") == honest  # made again from the events
        assert check_stored_review(app, replay.game_id) == []


class _Planted:
    """What an attacker plants: unpickled, it would create the marker file (a side effect)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Path.touch, (str(self.marker),))


@pytest.mark.parametrize("name", ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_planted_pickles_in_the_review_rows_never_run(name: str, tmp_path: Path) -> None:
    """Issue 26.1: the exploit rows of the audit (a pickle that runs code when read, in every
    row the stored review has and the old memo's rows) planted with the game's current head and
    this engine: every reader and the next refresh read past them, no side effect, no traceback."""
    import pickle
    import zlib

    from application.adapters.review_tables import BattleRow, HistoryRows
    from application.usecases.review_model import OPENING, check_stored_review, products, remake

    marker = tmp_path / "pwned"
    payload = zlib.compress(pickle.dumps(_Planted(marker)))
    with _STORES[name]() as opened:
        app, replay = _recorded(opened)
        head = head_of(app, replay.game_id)
        assert head is not None
        kinds = [HISTORY + "corrected", HISTORY + "as_rolled", FINDINGS + "corrected", OPENING,
                 "memo", "memo.1"]
        rows = {"corrected": HistoryRows(2, {0: BattleRow(b"\0" * 16, (payload, payload, payload))})}
        from application.adapters import review_store

        review_store._table(app).put(replay.game_id, head, review_store.engine_version(),
                                     dict.fromkeys(kinds, payload), rows)
        fresh = products(replay.game)
        for kind in KINDS:
            assert product(app, replay.game_id, kind) == fresh[kind], kind
        assert stored_findings(app, replay.game_id) is None or not marker.exists()
        assert check_stored_review(app, replay.game_id) == []
        assert stored_view(app, replay.game_id).findings == review(replay.game).findings
        remake(app, replay.game_id)
        refresh(app, replay.game_id)
        assert not marker.exists()
