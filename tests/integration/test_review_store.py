"""The stored review (application/adapters/review_store.py, application/usecases/review_model.py), one
contract on every store:
a product is served only while it covers the game's events and was made by this engine."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from application.adapters.app import MinisterApplication
from application.adapters.archive import list_games_at_once
from application.adapters.review_store import Head, engine_version, forget, head_of, load, save
from application.adapters.stores import list_games, open_store
from application.usecases.review_model import VIEW_CORRECTED, product, report_kind, stored, stored_view
from application.usecases.review_model import refresh as keep
from domain.record.events import ReportFiled, game_uuid
from domain.review.game_review import review
from projections.report import report_json_body
from tests.integration.store_helpers import MemorySpec, PostgresSpec, SQLiteSpec, generated


class ReviewStoreContract:
    """What every store does with stored reviews; subclasses provide ``spec``."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        raise NotImplementedError

    @pytest.fixture
    def app(self, spec: str) -> Iterator[MinisterApplication]:
        app = open_store(spec)
        yield app
        app.close()

    def test_a_stored_product_is_served_while_fresh(self, app: MinisterApplication) -> None:
        replay = generated(40, 5)
        app.record(replay.events)
        head = head_of(app, replay.game_id)
        assert head is not None and head.version == 40
        assert load(app, replay.game_id, "json") is None  # nothing stored yet
        save(app, replay.game_id, head, {"json": b"made from 40 events"})
        assert load(app, replay.game_id, "json") == b"made from 40 events"
        assert load(app, replay.game_id, "text") is None

    def test_a_new_event_makes_it_stale(self, app: MinisterApplication) -> None:
        replay = generated(30, 6)
        app.record(replay.events)
        head = head_of(app, replay.game_id)
        assert head is not None
        save(app, replay.game_id, head, {"json": b"old"})
        game = app.game(replay.game_id)
        app.record([ReportFiled(originator_id=game.id, originator_version=31, by="UK", text="late",
                                timestamp=game.modified_on, at=game.modified_on)])
        assert load(app, replay.game_id, "json") is None

    def test_another_head_or_engine_makes_it_stale(self, app: MinisterApplication,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
        replay = generated(20, 7)
        app.record(replay.events)
        head = head_of(app, replay.game_id)
        assert head is not None
        save(app, replay.game_id, Head(head.version, "an edited chain"), {"json": b"edited"})
        assert load(app, replay.game_id, "json") is None
        save(app, replay.game_id, head, {"json": b"fresh"})
        assert load(app, replay.game_id, "json") == b"fresh"
        monkeypatch.setattr("application.adapters.review_store.engine_version", lambda: "a later engine")
        assert load(app, replay.game_id, "json") is None

    def test_an_older_version_never_replaces_a_newer(self, app: MinisterApplication) -> None:
        replay = generated(20, 8)
        app.record(replay.events)
        head = head_of(app, replay.game_id)
        assert head is not None
        save(app, replay.game_id, head, {"json": b"newer"})
        save(app, replay.game_id, Head(head.version - 1, "older"), {"json": b"older"})
        assert load(app, replay.game_id, "json") == b"newer"
        forget(app, replay.game_id)
        assert load(app, replay.game_id, "json") is None

    def test_kept_products_are_the_review_of_the_events(self, app: MinisterApplication) -> None:
        replay = generated(120, 9)
        app.record(replay.events)
        keep(app, replay.game_id)
        corrected = review(replay.game)
        assert stored(app, replay.game_id, VIEW_CORRECTED) == msgspec.msgpack.encode(corrected)
        assert msgspec.msgpack.encode(stored_view(app, replay.game_id)) == msgspec.msgpack.encode(corrected)
        # The JSON report without its final newline: `minister replay` writes that apart.
        corrected_json = product(app, replay.game_id, report_kind(json=True, as_rolled=False))
        assert corrected_json == report_json_body(corrected)
        rolled = review(replay.game, as_rolled=True)
        rolled_json = product(app, replay.game_id, report_kind(json=True, as_rolled=True))
        assert rolled_json == report_json_body(rolled)

    def test_a_stale_product_is_made_again(self, app: MinisterApplication) -> None:
        replay = generated(60, 10)
        app.record(replay.events[:50])
        keep(app, replay.game_id)
        app.record(replay.events[50:])
        assert stored(app, replay.game_id, VIEW_CORRECTED) is None
        view = stored_view(app, replay.game_id)
        assert msgspec.msgpack.encode(view) == msgspec.msgpack.encode(review(replay.game))
        assert stored(app, replay.game_id, VIEW_CORRECTED) is not None

    def test_a_review_made_for_a_reader_lets_the_games_state_go_once_stored(
            self, app: MinisterApplication) -> None:
        # The rows are read back without the state and the reviews beside them (a first
        # `replay --json` of a 50,000-event game after an upgrade peaked at 458 MB).
        replay = generated(60, 11)
        app.record(replay.events)
        forget(app, replay.game_id)
        app.game(replay.game_id)  # a look keeps the state
        assert game_uuid(replay.game_id) in app.latest_games.kept()
        made = product(app, replay.game_id, "json")
        assert game_uuid(replay.game_id) not in app.latest_games.kept()
        assert made == stored(app, replay.game_id, "json") == report_json_body(review(replay.game))
        assert not made.endswith(b"\n")  # the JSON product is the body: the writer ends the line

    def test_games_listed_at_once_are_the_games_listed(self, app: MinisterApplication) -> None:
        for seed in (3, 1, 2):
            app.record(generated(25 + seed, seed).events)
        game = app.game("generated-26-1")
        app.record([ReportFiled(originator_id=game.id, originator_version=27, by="UK", text="late",
                                timestamp=game.modified_on, at=game.modified_on)])
        at_once = list_games_at_once(app)
        if at_once is not None:  # the in-memory store has no table to query
            assert at_once == list_games(app)
            assert [g.events for g in at_once] == [28, 27, 27]


def test_the_engine_version_digests_the_modules_that_make_the_rows() -> None:
    """No version is bumped by hand: the modules that cut the review into rows and store them
    are digested with the engine and the reports."""
    from application.adapters.review_store import _sources

    root = Path(__file__).resolve().parents[2]
    names = {name for name, _ in _sources(root)}
    assert {"application/usecases/review_model.py", "application/adapters/review_store.py",
            "application/adapters/review_tables.py", "domain/review/game_review.py",
            "projections/report.py"} <= names
    assert len(engine_version()) == 24


class TestMemoryReviews(MemorySpec, ReviewStoreContract):
    """The in-memory store."""


class TestSQLiteReviews(SQLiteSpec, ReviewStoreContract):
    """The embedded SQLite store."""


@pytest.mark.postgres
class TestPostgresReviews(PostgresSpec, ReviewStoreContract):
    """PostgreSQL, in a schema of its own per test."""


def test_the_engine_version_follows_the_code_and_is_kept_beside_it(tmp_path: Path) -> None:
    from application.adapters.review_store import version_of

    (tmp_path / "domain" / "data").mkdir(parents=True)
    (tmp_path / "projections").mkdir()
    rule = tmp_path / "domain" / "rule.py"
    rule.write_text("HITS = 3\n")
    (tmp_path / "domain" / "data" / "board.json").write_text("{}")
    (tmp_path / "projections" / "report.py").write_text("WIDTH = 80\n")
    rows = tmp_path / "application" / "usecases" / "review_model.py"
    for name in ("application/usecases/review_model.py", "application/adapters/review_store.py",
                 "application/adapters/review_tables.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("ROWS = 1\n")
    first = version_of(tmp_path)
    kept = tmp_path / "domain" / "__pycache__" / "minister-engine-version"
    assert first in kept.read_text()
    assert version_of(tmp_path) == first  # read back from what was kept
    rule.write_text("HITS = 4\n")  # the same size: the modification time tells
    os.utime(rule, ns=(rule.stat().st_atime_ns, rule.stat().st_mtime_ns + 1_000_000))
    second = version_of(tmp_path)
    assert second != first
    (tmp_path / "domain" / "data" / "board.json").write_text('{"a": 1}')  # data the engine reads
    assert version_of(tmp_path) not in (first, second)
    kept.write_text("not a stamp")  # a broken keeping: the files are read again
    third = version_of(tmp_path)
    assert third not in (first, second) and version_of(tmp_path) == third
    rows.write_text("ROWS = 22\n")  # the rows' layout: a new stamp, no version bumped by hand
    assert version_of(tmp_path) not in (first, second, third)
