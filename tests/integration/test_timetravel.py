"""Time travel: the game as of any event, by version or by time, through snapshots and from
the latest state kept in memory (Game.at); the store part is one contract run against memory,
SQLite and PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
import pytest

from application.adapters.app import MinisterApplication, UnknownGameError
from application.adapters.eventstore import prune_snapshots, put_snapshots, snapshots_of, store_kind_of
from application.adapters.stores import open_store
from application.adapters.timetravel import (
    LatestGames,
    decode_snapshot,
    event_time,
    snapshot_of,
    state_topic,
    version_at,
)
from application.intake.replayfile import parse_replay
from domain.record.events import GameSnapshot, ReportFiled, game_uuid
from domain.record.game import project_game
from tests.integration.store_helpers import MemorySpec, PostgresSpec, SQLiteSpec, generated

INTERVAL = 25


def _same(a: object, b: object) -> bool:
    return msgspec.msgpack.encode(a) == msgspec.msgpack.encode(b)


class TimeTravelContract:
    """Time travel on every store; subclasses provide ``spec`` (a store spec string)."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        raise NotImplementedError

    @pytest.fixture
    def app(self, spec: str) -> Iterator[MinisterApplication]:
        app = open_store(spec)
        app.snapshot_interval = INTERVAL
        yield app
        app.close()


    def test_any_version_equals_folding_that_many_events(self, app: MinisterApplication) -> None:
        replay = generated(300, 51)
        app.record(replay.events)
        rng = random.Random(51)
        for version in [1, 24, 25, 26, 299, 300, *rng.sample(range(1, 301), 20)]:
            got = app.game_at(replay.game_id, version=version)
            assert got.version == version
            assert _same(got, project_game(None, replay.events[:version])), version

    def test_any_time_gives_the_last_event_at_or_before_it(self, app: MinisterApplication) -> None:
        replay = generated(300, 52)
        app.record(replay.events)
        times = [event_time(e) for e in replay.events]
        rng = random.Random(52)
        start, end = times[0], times[-1] + timedelta(hours=1)
        for _ in range(25):
            moment = start + (end - start) * rng.random()
            expected = max(i + 1 for i, t in enumerate(times) if t <= moment)
            assert version_at(app, replay.game_id, moment) == expected
            assert _same(app.game_at(replay.game_id, at=moment),
                         project_game(None, replay.events[:expected]))

    def test_events_at_the_same_moment_travel_together(self, app: MinisterApplication) -> None:
        replay = generated(30, 53)
        app.record(replay.events)
        last = replay.events[-1]
        at = event_time(last)
        extra = [ReportFiled(originator_id=last.originator_id, originator_version=31 + i, by="UK",
                             text=f"same minute {i}", timestamp=at, at=at) for i in range(3)]
        app.record(extra)
        assert app.game_at(replay.game_id, at=at).version == 33
        assert app.game_at(replay.game_id, at=at - timedelta(microseconds=1)).version == 29

    def test_a_time_without_a_zone_is_refused(self, app: MinisterApplication) -> None:
        replay = generated(12, 54)
        app.record(replay.events)
        with pytest.raises(ValueError, match="with a zone"):
            app.game_at(replay.game_id, at=datetime(1999, 7, 20, 19, 0))

    def test_snapshots_of_another_shape_of_game_are_ignored(self, app: MinisterApplication) -> None:
        """A snapshot whose topic or bytes do not fit the current Game is never trusted."""
        replay = generated(60, 55)
        app.record(replay.events)
        oid = game_uuid(replay.game_id)
        folded = project_game(None, replay.events[:55])
        assert folded is not None
        stale = msgspec.structs.replace(snapshot_of(folded, folded.modified_on), originator_version=54,
                                        topic="minister/Game@1#0000000000000000")
        broken = GameSnapshot(originator_id=oid, originator_version=53, timestamp=datetime.now(UTC),
                              state=b"\x93\x01\x02", topic=state_topic())
        assert put_snapshots(app, [broken, stale])
        with pytest.warns(UserWarning, match="not bound to the stored events' chain"):
            assert _same(app.game_at(replay.game_id, version=55), folded)
        assert _same(app.game_at(replay.game_id, version=54), project_game(None, replay.events[:54]))
        assert _same(app.game_at(replay.game_id, version=53), project_game(None, replay.events[:53]))

    def test_a_cold_open_replaces_a_snapshot_it_cannot_read(self, app: MinisterApplication) -> None:
        """After an upgrade that changed the Game's shape, the stored snapshot is of the old
        shape: the first cold open folds every event and takes the snapshot again, so the next
        one does not (the in-memory store keeps nothing across processes: no upgrade meets it)."""
        if store_kind_of(app) == "eventsourcing.popo":
            pytest.skip("an in-memory store's snapshots live as long as its process")
        replay = generated(60, 57)
        app.record(replay.events)
        oid = game_uuid(replay.game_id)
        [taken] = snapshots_of(app, oid)
        assert taken.originator_version == 50
        prune_snapshots(app, oid, 61)
        assert put_snapshots(app, [msgspec.structs.replace(taken, topic="minister/Game@1#0000000000000000")])
        app.latest_games.forget()
        assert _same(app.game(replay.game_id), project_game(None, replay.events))
        [again] = snapshots_of(app, oid)
        assert (again.originator_version, again.topic, again.chain) == (50, state_topic(), taken.chain)
        assert _same(decode_snapshot(again), project_game(None, replay.events[:50]))

    def test_snapshots_taken_by_later_appends(self, app: MinisterApplication) -> None:
        replay = generated(20, 56)
        app.record(replay.events)
        for i in range(10):
            game = app.game(replay.game_id)
            app.record([ReportFiled(originator_id=game.id, originator_version=game.version + 1, by="UK",
                                    text=str(i), timestamp=game.modified_on, at=game.modified_on)])
        versions = [s.originator_version for s in snapshots_of(app, game_uuid(replay.game_id))]
        assert versions == [25]
        assert len(app.game_at(replay.game_id, version=30).reports) == \
            len(project_game(None, replay.events).reports) + 10

    def test_a_game_handed_out_is_the_callers_own(self, app: MinisterApplication) -> None:
        """Folding more events into a Game the application returned changes nothing it keeps."""
        replay = generated(90, 59)
        app.record(replay.events)
        early = app.game_at(replay.game_id, version=40)
        project_game(early, replay.events[40:])
        early.battles.clear()
        assert _same(app.game_at(replay.game_id, version=40), project_game(None, replay.events[:40]))
        assert _same(app.game(replay.game_id), project_game(None, replay.events))

    def test_a_game_recorded_with_its_folded_state_is_as_if_folded(self, app: MinisterApplication) -> None:
        """An import hands over the replay file's state: the snapshot cut from it and the latest
        state kept are what folding the stored events gives, and the caller's state stays its own."""
        replay = generated(60, 61)
        stored = app.record(replay.events, folded=replay.game)
        originator_id = game_uuid(replay.game_id)
        [snapshot] = snapshots_of(app, originator_id)
        assert snapshot.originator_version == 50 and snapshot.chain == stored[49].chain
        assert snapshot.state == snapshot_of(project_game(None, replay.events[:50]), snapshot.timestamp).state
        assert app.latest_games.kept() == [originator_id]
        app.record([ReportFiled(originator_id=originator_id, originator_version=61, by="UK", text="late",
                                timestamp=replay.game.modified_on, at=replay.game.modified_on)])
        assert len(app.game(replay.game_id).reports) == len(replay.game.reports) + 1
        assert _same(replay.game, project_game(None, replay.events))  # the caller's, untouched
        app.latest_games.forget()
        assert _same(app.game(replay.game_id), project_game(None, [*replay.events,
                                                                   *app.game_events(replay.game_id)[60:]]))

    def test_a_folded_state_of_other_events_is_not_used(self, app: MinisterApplication) -> None:
        replay, other = generated(60, 62), generated(40, 63)
        app.record(replay.events, folded=other.game)
        assert app.latest_games.kept() == []
        [snapshot] = snapshots_of(app, game_uuid(replay.game_id))
        assert snapshot.state == snapshot_of(project_game(None, replay.events[:50]), snapshot.timestamp).state

    def test_only_the_games_last_read_are_kept(self, app: MinisterApplication) -> None:
        replays = [generated(30, 60 + i) for i in range(3)]
        app.latest_games = LatestGames(size=2)
        for replay in replays:
            app.record(replay.events)
            app.game(replay.game_id)
        assert app.latest_games.kept() == [game_uuid(replays[1].game_id), game_uuid(replays[2].game_id)]
        assert _same(app.game_at(replays[0].game_id, version=12), project_game(None, replays[0].events[:12]))
        assert app.latest_games.kept()[-1] == game_uuid(replays[0].game_id)


class SharedStoreContract(TimeTravelContract):
    """Stores that several processes open at once (not the in-memory one)."""

    def test_time_travel_derives_from_the_latest_state_and_sees_other_writers(self, spec: str) -> None:
        """A warm game answers from memory; events another process stored since are read in."""
        replay = generated(120, 58)
        reader, writer = open_store(spec), open_store(spec)
        try:
            writer.record(replay.events[:80])
            assert reader.game(replay.game_id).version == 80  # cold: now kept by the reader
            writer.record(replay.events[80:])
            assert _same(reader.game_at(replay.game_id, version=60), project_game(None, replay.events[:60]))
            assert _same(reader.game(replay.game_id), project_game(None, replay.events))
            assert _same(reader.game_at(replay.game_id, version=100), project_game(None, replay.events[:100]))
            assert reader.game_at(replay.game_id, version=500).version == 120  # past the end: the last
            with pytest.raises(UnknownGameError):
                reader.game_at(replay.game_id, version=0)
        finally:
            reader.close()
            writer.close()


class TestMemoryTimeTravel(MemorySpec, TimeTravelContract):
    """The in-memory store."""


class TestSQLiteTimeTravel(SQLiteSpec, SharedStoreContract):
    """The embedded SQLite store."""


@pytest.mark.postgres
class TestPostgresTimeTravel(PostgresSpec, SharedStoreContract):
    """PostgreSQL, in a schema of its own per test."""


# -- the state at any version derived from a later one (Game.at) ------------------------------
REPLAYS = sorted(Path(__file__).parents[2].joinpath("replays").rglob("*.toml"))


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_replay_at_every_version_is_the_fold_of_that_many_events(path: Path) -> None:
    replay = parse_replay(path.read_text(encoding="utf-8"), str(path))
    full = replay.game
    for version in range(1, len(replay.events) + 1):
        assert _same(full.at(version), project_game(None, replay.events[:version])), version


def test_a_generated_game_at_many_versions_is_the_fold_of_that_many_events() -> None:
    replay = generated(2000, 57)
    full = project_game(None, replay.events)
    assert full is not None
    rng = random.Random(57)
    for version in [1, 2, 1999, 2000, *rng.sample(range(1, 2001), 60)]:
        assert _same(full.at(version), project_game(None, replay.events[:version])), version


