"""Tamper evidence: editing, deleting or rewriting stored rows is found by ``verify --integrity``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec
import pytest
from eventsourcing.persistence import StoredEvent

from application.integrity import GENESIS, check_game, check_rows, link, link_bytes, stored_link
from application.mapper import decode_event, encode_event
from application.stores import open_store
from application.transfer import import_replay
from domain.record.events import GameEvent, game_uuid
from tests.integration.store_helpers import edit_sqlite_event, generated, sqlite_rows
from tui.cli import main

GAME = "generated-80-31"


@pytest.fixture
def store(tmp_path: Path) -> tuple[str, Path]:
    path = tmp_path / "s.sqlite3"
    app = open_store(f"sqlite:{path}")
    app.snapshot_interval = 20
    import_replay(app, generated(80, 31))
    app.close()
    return f"sqlite:{path}", path


def _verify(spec: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["--store", spec, "verify", "--integrity", GAME, *extra])
    return code, capsys.readouterr().out


def _kind(path: Path, version: int) -> str:
    topic = sqlite_rows(path, GAME)[version - 1][1]
    return topic.split("/")[1].split("@")[0]


def test_an_untouched_game_verifies(store: tuple[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _verify(store[0], capsys)
    assert code == 0
    assert "80 events, hash chain intact" in out


def test_editing_a_row_names_that_event(store: tuple[str, Path],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    spec, path = store
    kind = _kind(path, 37)
    field = {"RollRecorded": "log", "DeclarationRecorded": "text"}.get(kind, "source_line")
    edit_sqlite_event(path, GAME, 37, **{field: 999 if field == "source_line" else "edited"})
    code, out = _verify(spec, capsys)
    assert code == 1
    assert f"event 37 ({kind}): does not match the hash chain" in out


def test_editing_a_rolled_die_is_found(store: tuple[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    spec, path = store
    rolls = [v for v, topic, _ in sqlite_rows(path, GAME) if topic.endswith("RollRecorded@1")]
    version = rolls[len(rolls) // 2]
    state = msgspec.msgpack.decode(sqlite_rows(path, GAME)[version - 1][2])
    edit_sqlite_event(path, GAME, version, log=state["log"].replace("1*", "6", 1).replace("2", "5", 1))
    code, out = _verify(spec, capsys)
    assert code == 1 and f"event {version} (RollRecorded)" in out


def test_a_deleted_row_is_a_missing_event(store: tuple[str, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    spec, path = store
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM stored_events WHERE originator_id=? AND originator_version=12",
                           (game_uuid(GAME).hex,))
    code, out = _verify(spec, capsys)
    assert code == 1 and "event 12 is missing" in out


def test_garbage_in_a_row_cannot_be_decoded(store: tuple[str, Path],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    spec, path = store
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=5",
                           (b"\xc1garbage", game_uuid(GAME).hex))
    code, out = _verify(spec, capsys)
    assert code == 1 and "event 5 (" in out and "cannot be decoded" in out


def test_a_rewritten_chain_is_caught_by_the_exported_head(store: tuple[str, Path],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Someone edits an event and recomputes every link after it: only a held head shows it."""
    spec, path = store
    head = sqlite_rows(path, GAME)[-1]
    held = msgspec.msgpack.decode(head[2])["chain"]
    edit_sqlite_event(path, GAME, 50, source_line=12345)
    previous = GENESIS
    for version, _, state in sqlite_rows(path, GAME):
        canonical, _ = stored_link(state)
        previous = link_bytes(previous, canonical)
        edit_sqlite_event(path, GAME, version, chain=previous)
    with sqlite3.connect(path) as connection:  # and covers their tracks in the snapshots
        connection.execute("DELETE FROM stored_snapshots")
    assert _verify(spec, capsys)[0] == 0  # the chain itself is consistent again
    code, out = _verify(spec, capsys, "--head", held)
    assert code == 1 and "rewritten or cut short" in out


def test_an_edited_snapshot_is_found(store: tuple[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    spec, path = store
    with sqlite3.connect(path) as connection:
        (state,) = connection.execute(
            "SELECT state FROM stored_snapshots WHERE originator_version=40").fetchone()
        tree = msgspec.msgpack.decode(state)
        tree["state"] = tree["state"].replace(b"INF", b"ARM", 1)
        connection.execute("UPDATE stored_snapshots SET state=? WHERE originator_version=40",
                           (msgspec.msgpack.encode(tree),))
    code, out = _verify(spec, capsys)
    assert code == 1 and "snapshot at event 40 does not match" in out


def test_an_unknown_game_is_bad_input(store: tuple[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--store", store[0], "verify", "--integrity", "nope"]) == 2
    assert "no game with id 'nope'" in capsys.readouterr().err


def test_old_events_missing_a_newer_field_still_verify() -> None:
    """The chain covers the stored bytes: a field added to an event class later breaks nothing."""
    app = open_store("memory:")
    replay = generated(12, 32)
    rows = []
    previous = GENESIS
    for event in replay.events:
        tree = msgspec.msgpack.decode(encode_event(event))
        del tree["source_line"]  # as if written before the field existed
        tree["chain"] = None
        canonical = msgspec.msgpack.encode(tree)
        previous = link_bytes(previous, canonical)
        tree["chain"] = previous
        rows.append(StoredEvent(originator_id=event.originator_id,
                                originator_version=event.originator_version,
                                topic=type(event).TOPIC, state=msgspec.msgpack.encode(tree)))
    app.recorder.insert_events(rows)
    check = check_game(app, replay.game_id)
    assert check.ok and check.chain.events == 12 and check.chain.head == previous


def test_links_cover_every_field_and_the_previous_link() -> None:
    event = generated(12, 33).events[3]
    assert link(GENESIS, event) == link(GENESIS, msgspec.structs.replace(event, chain="anything"))
    assert link(GENESIS, event) != link("1" * 64, event)
    assert link(GENESIS, event) != link(GENESIS, msgspec.structs.replace(event, source_line=None))
    events = generated(12, 33).events
    rows = [StoredEvent(e.originator_id, e.originator_version, type(e).TOPIC, encode_event(e))
            for e in events]

    def decode(row: StoredEvent) -> GameEvent:
        return decode_event(row.topic, row.state)

    def plain(row: StoredEvent) -> bytes:
        return row.state

    assert check_rows(rows, decode, plain).ok
    moved = [*rows[:4], StoredEvent(rows[5].originator_id, 5, rows[5].topic, rows[5].state), *rows[6:]]
    problem = check_rows(moved, decode, plain).problem
    assert problem is not None and problem.version == 5 and "says it is event 6" in problem.reason
