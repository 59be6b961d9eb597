"""The store contract, one abstract test case run against memory, SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

from application.adapters.app import MinisterApplication, UnknownGameError
from application.adapters.eventstore import SQLITE_PAGE_SIZE, VersionClash, snapshots_of, store_kind_of
from application.adapters.integrity import GENESIS, check_game, link
from application.adapters.mapper import encode_event
from application.adapters.stores import StoreSpecError, list_games, open_store, parse_store_spec
from application.adapters.timetravel import decode_snapshot, state_topic
from application.intake.replayfile import Replay
from application.usecases.desk.papers import report
from domain.errors import MinisterError
from domain.record.events import ReportFiled, game_uuid
from domain.record.game import project_game
from tests.integration.store_helpers import MemorySpec, PostgresSpec, SQLiteSpec, generated

INTERVAL = 10


class StoreContract:
    """What every store does; subclasses provide ``spec`` (a store spec string)."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        raise NotImplementedError

    @pytest.fixture
    def app(self, spec: str) -> Iterator[MinisterApplication]:
        app = open_store(spec)
        app.snapshot_interval = INTERVAL
        yield app
        app.close()

    def test_records_a_game_and_rebuilds_it(self, app: MinisterApplication) -> None:
        replay = generated(60, 1)
        stored = app.record(replay.events)
        assert [encode_event(e) for e in app.game_events(replay.game_id)] == \
            [encode_event(e) for e in stored] == [encode_event(e) for e in replay.events]
        game = app.game(replay.game_id)
        assert msgspec.msgpack.encode(game) == msgspec.msgpack.encode(replay.game)

    def test_a_save_is_all_or_nothing(self, app: MinisterApplication) -> None:
        replay = generated(30, 2)
        app.record(replay.events[:5])
        # Events 1-30 again: event 1-5 clash, so none of 6-30 may be stored either.
        with pytest.raises(VersionClash):
            app.save(*replay.events)
        assert [e.originator_version for e in app.game_events(replay.game_id)] == [1, 2, 3, 4, 5]

    def test_a_version_clash_is_the_stores_integrity_error(self, app: MinisterApplication) -> None:
        replay = generated(20, 3)
        app.record(replay.events)
        last = app.game(replay.game_id)
        clash = ReportFiled(originator_id=last.id, originator_version=last.version, by="UK",
                            text="late", timestamp=last.modified_on, at=last.modified_on)
        with pytest.raises(VersionClash):
            app.record([clash])
        assert len(app.game_events(replay.game_id)) == 20

    def test_append_retries_on_fresh_state(self, app: MinisterApplication) -> None:
        replay = generated(20, 4)
        app.record(replay.events)
        calls: list[int] = []

        def build(game: object) -> list[ReportFiled]:
            assert hasattr(game, "version")
            calls.append(game.version)
            if len(calls) == 1:  # another writer gets in between our read and our save
                app.record([_report(app, replay.game_id, "other writer")])
            version = calls[-1] + 1
            at = app.game(replay.game_id, version=calls[-1]).modified_on
            return [ReportFiled(originator_id=game_uuid(replay.game_id), originator_version=version,
                                by="USSR", text="mine", timestamp=at, at=at)]

        app.append(replay.game_id, build)
        assert calls == [20, 21]
        texts = [getattr(e, "text", None) for e in app.game_events(replay.game_id)[-2:]]
        assert texts == ["other writer", "mine"]

    def test_events_are_chained_across_saves(self, app: MinisterApplication) -> None:
        replay = generated(25, 5)
        app.record(replay.events[:12])
        app.record(replay.events[12:])
        stored = app.game_events(replay.game_id)
        previous = GENESIS
        for event in stored:
            assert event.chain == link(previous, event)
            previous = event.chain
        check = check_game(app, replay.game_id)
        assert check.ok and check.chain.events == 25 and check.chain.head == stored[-1].chain

    def test_a_gap_in_versions_is_refused(self, app: MinisterApplication) -> None:
        replay = generated(20, 6)
        app.record(replay.events[:5])
        with pytest.raises(ValueError, match="would follow no stored event"):
            app.record(replay.events[7:9])

    def test_one_bounded_snapshot_matching_the_fold(self, app: MinisterApplication) -> None:
        """Issue 14 item 7: one snapshot per recording (the last multiple of the interval), older
        ones deleted (the memory store keeps them: it has no rows to delete), each bound to the
        chain link of the event at its version."""
        replay = generated(45, 7)
        app.record(replay.events[:25])
        app.record(replay.events[25:])
        snapshots = snapshots_of(app, game_uuid(replay.game_id))
        versions = [s.originator_version for s in snapshots]
        assert versions == ([20, 40] if store_kind_of(app) == "eventsourcing.popo" else [40])
        stored = app.game_events(replay.game_id)
        for snapshot in snapshots:
            assert snapshot.chain == stored[snapshot.originator_version - 1].chain
            assert snapshot.topic == state_topic()
            folded = project_game(None, replay.events[:snapshot.originator_version])
            assert msgspec.msgpack.encode(decode_snapshot(snapshot)) == msgspec.msgpack.encode(folded)

    def test_time_travel_by_version_and_by_time(self, app: MinisterApplication) -> None:
        replay = generated(45, 8)
        app.record(replay.events)
        for version in (1, 9, 10, 11, 33, 45):
            folded = project_game(None, replay.events[:version])
            got = app.game_at(replay.game_id, version=version)
            assert msgspec.msgpack.encode(got) == msgspec.msgpack.encode(folded)
        event = replay.events[26]
        assert event.at is not None
        assert app.game_at(replay.game_id, at=event.at).version == 27
        assert app.game_at(replay.game_id, at=event.at + timedelta(microseconds=1)).version == 27
        assert app.game_at(replay.game_id, at=event.at - timedelta(microseconds=1)).version == 26
        first = replay.events[0].at
        assert first is not None
        with pytest.raises(UnknownGameError, match="no event at or before"):
            app.game_at(replay.game_id, at=first - timedelta(seconds=1))

    def test_a_late_entry_keeps_its_claimed_time_apart(self, app: MinisterApplication) -> None:
        """A report entered after later records claims the e-mail's time (the rules read it),
        is recorded in order, and time travel goes by the recording (issue 12)."""
        replay = generated(40, 12)
        app.record(replay.events)
        last = app.game(replay.game_id).modified_on
        claimed = replay.events[10].timestamp + timedelta(seconds=1)  # before 29 later records
        now = last + timedelta(days=3)
        event = report(app, replay.game_id, "UK", "the e-mail of last week", at=claimed, now=now)
        assert (event.at, event.timestamp, event.originator_version) == (claimed, now, 41)
        [stored] = app.game_events(replay.game_id)[40:]
        assert stored.at == claimed and stored.timestamp == now
        game = app.game(replay.game_id)
        assert game.reports[-1].at == claimed and game.stamps[-1] == now
        # Time travel by recording: at the claimed time, or the day before the entry, no report.
        assert app.game_at(replay.game_id, at=claimed).version == 11
        assert app.game_at(replay.game_id, at=now - timedelta(days=1)).version == 40
        assert app.game_at(replay.game_id, at=now).version == 41
        with pytest.raises(MinisterError, match="is in the future of its entry"):
            report(app, replay.game_id, "UK", "x", at=now + timedelta(hours=1), now=now)
        assert app.game(replay.game_id).version == 41

    def test_lists_games(self, app: MinisterApplication) -> None:
        assert list_games(app) == []
        one, two = generated(12, 9), generated(15, 10)
        app.record(one.events)
        app.record(two.events)
        games = list_games(app)
        assert [(g.game_id, g.edition, g.events) for g in games] == \
            [(one.game_id, "iaapa-2008", 12), (two.game_id, "iaapa-2008", 15)]
        assert games[1].last_event_at == two.events[-1].at
        assert games[0].title == one.game.title

    def test_unknown_game(self, app: MinisterApplication) -> None:
        with pytest.raises(UnknownGameError, match="no-such-game"):
            app.game("no-such-game")
        assert app.game_events("no-such-game") == []


def _report(app: MinisterApplication, game_id: str, text: str) -> ReportFiled:
    game = app.game(game_id)
    return ReportFiled(originator_id=game.id, originator_version=game.version + 1, by="UK",
                       text=text, timestamp=game.modified_on, at=game.modified_on)


def _recorded_then_reopened(spec: str, replay: Replay) -> MinisterApplication:
    """The store ``spec`` names, the replay recorded in it, closed and opened again (the game
    found there whole): the reopened store, for the caller to close."""
    first = open_store(spec)
    first.record(replay.events)
    first.close()
    again = open_store(spec)
    assert again.game(replay.game_id).version == len(replay.events)
    return again


class TestMemoryStore(MemorySpec, StoreContract):
    """The in-memory store (unit tests)."""


class TestSQLiteStore(SQLiteSpec, StoreContract):
    """The embedded SQLite store (the default)."""

    def test_reopening_the_file_finds_the_game(self, spec: str) -> None:
        _recorded_then_reopened(spec, generated(15, 11)).close()

    def test_a_new_file_has_large_pages(self, spec: str) -> None:
        open_store(spec).close()
        assert _pragmas(spec) == (SQLITE_PAGE_SIZE, "wal")

    @pytest.mark.parametrize("existing", ["empty", "4 KiB pages", "rollback journal"])
    def test_a_file_made_otherwise_keeps_its_pages_and_opens(self, spec: str, existing: str) -> None:
        path = Path(spec.removeprefix("sqlite:"))
        path.parent.mkdir(parents=True)
        maker = sqlite3.connect(path, isolation_level=None)
        if existing != "empty":  # a store made by an earlier minister, or by hand
            maker.execute("PRAGMA page_size=4096")
            maker.execute("PRAGMA journal_mode=" + ("WAL" if existing == "4 KiB pages" else "DELETE"))
            maker.execute("CREATE TABLE kept (x)")
        maker.close()
        replay = generated(15, 13)
        again = _recorded_then_reopened(spec, replay)
        assert check_game(again, replay.game_id).ok
        again.close()
        assert _pragmas(spec) == (SQLITE_PAGE_SIZE if existing == "empty" else 4096, "wal")


def _pragmas(spec: str) -> tuple[int, str]:
    """The page size and journal mode of an SQLite store's file."""
    reader = sqlite3.connect(spec.removeprefix("sqlite:"))
    try:
        return (reader.execute("PRAGMA page_size").fetchone()[0],
                reader.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        reader.close()


@pytest.mark.postgres
class TestPostgresStore(PostgresSpec, StoreContract):
    """PostgreSQL (a club archive), in a schema of its own per test."""


def test_store_specs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MINISTER_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert parse_store_spec(None).path == tmp_path / "data" / "minister" / "minister.sqlite3"
    monkeypatch.setenv("MINISTER_STORE", "memory:")
    assert parse_store_spec(None).kind == "memory"
    assert parse_store_spec(f"sqlite:{tmp_path}/a.db").path == tmp_path / "a.db"
    assert parse_store_spec(f"{tmp_path}/b.sqlite3").kind == "sqlite"
    url = parse_store_spec("postgresql://club:secret@db.example:6543/archive?schema=s1")
    assert url.kind == "postgres" and url.schema == "s1"
    assert url.settings["POSTGRES_PORT"] == "6543" and url.settings["POSTGRES_PASSWORD"] == "secret"
    assert "secret" not in url.description
    with pytest.raises(StoreSpecError, match="'mongodb://x'"):
        parse_store_spec("mongodb://x")
    monkeypatch.delenv("POSTGRES_HOST", raising=False)
    with pytest.raises(StoreSpecError, match="POSTGRES_HOST"):
        parse_store_spec("postgres:")


def test_the_default_store_is_created_on_demand(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MINISTER_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = open_store(None)
    app.record(generated(12, 12).events)
    app.close()
    assert (tmp_path / "data" / "minister" / "minister.sqlite3").exists()
