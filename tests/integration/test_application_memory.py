"""The eventsourcing Application records a replay's events and rebuilds the same Game."""

from __future__ import annotations

import msgspec
import pytest

from application.adapters.app import MinisterApplication, UnknownGameError
from application.adapters.mapper import decode_event, encode_event
from application.intake.replayfile import load_replay
from domain.record.events import TOPICS
from tests.conftest import REPLAYS


@pytest.fixture
def app() -> MinisterApplication:
    return MinisterApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


def test_recorded_game_rebuilds_to_the_folded_state(app: MinisterApplication) -> None:
    replay = load_replay(REPLAYS / "battles" / "ussr1-two-battles.toml")
    app.record(replay.events)
    rebuilt = app.game(replay.game_id)
    assert msgspec.msgpack.encode(rebuilt) == msgspec.msgpack.encode(replay.game)
    assert [b.territory for b in rebuilt.battles] == ["Ukraine S.S.R.", "Manchuria"]


def test_stored_events_come_back_identical(app: MinisterApplication) -> None:
    replay = load_replay(REPLAYS / "battles" / "uk1-west-europe-amphibious.toml")
    app.record(replay.events)
    stored = app.game_events(replay.game_id)
    assert [encode_event(e) for e in stored] == [encode_event(e) for e in replay.events]


def test_the_game_at_an_earlier_version(app: MinisterApplication) -> None:
    replay = load_replay(REPLAYS / "battles" / "uk1-west-europe-amphibious.toml")
    app.record(replay.events)
    early = app.game(replay.game_id, version=3)
    assert early.version == 3
    assert len(early.battles) == 1 and not early.battles[0].rolls


def test_unknown_game(app: MinisterApplication) -> None:
    with pytest.raises(UnknownGameError):
        app.game("no-such-game")


def test_every_topic_is_explicit_and_decodes_its_own_class() -> None:
    for topic, cls in TOPICS.items():
        assert topic.startswith("minister/") and "@" in topic
        assert topic == cls.TOPIC
    replay = load_replay(REPLAYS / "part13" / "subs-v-transports-and-fighters.toml")
    for event in replay.events:
        assert decode_event(type(event).TOPIC, encode_event(event)) == event
