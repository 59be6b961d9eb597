"""Tamper evidence, one contract run against memory, SQLite and PostgreSQL: editing, deleting or
rewriting stored rows is found by the integrity check (``minister verify --integrity``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from application.adapters.app import MinisterApplication
from application.adapters.damage import TamperedError
from application.adapters.eventstore import StoredEvent, insert_raw_rows, read_states
from application.adapters.integrity import (
    GENESIS,
    check_game,
    check_rows,
    link,
    link_bytes,
    stored_link,
    walk_stored,
)
from application.adapters.mapper import decode_event, encode_event
from application.adapters.stores import open_store
from application.usecases.transfer import import_replay
from domain.record.events import GameEvent, game_uuid
from tests.integration.store_helpers import (
    MemorySpec,
    PostgresSpec,
    RawRows,
    SQLiteSpec,
    generated,
)
from tui.cli import main

GAME = "generated-80-31"


class IntegrityContract:
    """What every store's integrity check finds; subclasses provide ``spec``."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        raise NotImplementedError

    @pytest.fixture
    def app(self, spec: str) -> Iterator[MinisterApplication]:
        app = open_store(spec)
        app.snapshot_interval = 20
        import_replay(app, generated(80, 31))
        yield app
        app.close()

    @pytest.fixture
    def raw(self, app: MinisterApplication) -> RawRows:
        return RawRows(app)

    def _kind(self, raw: RawRows, version: int) -> str:
        topic = raw.rows(GAME)[version - 1][1]
        return topic.split("/")[1].split("@")[0]

    def test_an_untouched_game_verifies(self, app: MinisterApplication) -> None:
        check = check_game(app, GAME)
        assert check.ok and check.chain.events == 80

    def test_editing_a_row_names_that_event(self, app: MinisterApplication, raw: RawRows) -> None:
        kind = self._kind(raw, 37)
        field = {"RollRecorded": "log", "DeclarationRecorded": "text"}.get(kind, "source_line")
        raw.edit(GAME, 37, **{field: 999 if field == "source_line" else "edited"})
        assert f"event 37 ({kind}): does not match the hash chain" in check_game(app, GAME).problems[0]

    def test_editing_a_rolled_die_is_found(self, app: MinisterApplication, raw: RawRows) -> None:
        rolls = [v for v, topic, _ in raw.rows(GAME) if topic.endswith("RollRecorded@1")]
        version = rolls[len(rolls) // 2]
        state = msgspec.msgpack.decode(raw.rows(GAME)[version - 1][2])
        raw.edit(GAME, version, log=state["log"].replace("1*", "6", 1).replace("2", "5", 1))
        assert f"event {version} (RollRecorded)" in check_game(app, GAME).problems[0]

    @pytest.mark.parametrize("change", ["field repeated at the end", "chain moved to the end",
                                        "chain not a string"])
    def test_a_row_laid_out_otherwise_is_found(self, app: MinisterApplication, raw: RawRows,
                                               change: str) -> None:
        """The chain's bytes are spliced out only of a row that opens with the six base fields
        exactly as decoded; a row that repeats a field (a decoder takes the last), moves or
        retypes ``chain`` is hashed as its decoded fields and no longer matches."""
        state = raw.rows(GAME)[36][2]
        tree = msgspec.msgpack.decode(state)
        if change == "field repeated at the end":
            count = len(tree) + 1
            header = bytes([0x80 | count]) if count < 16 else b"\xde" + count.to_bytes(2, "big")
            body = state[1:] if state[0] < 0x90 else state[3:]
            state = header + body + msgspec.msgpack.encode("source_line") + msgspec.msgpack.encode(999)
        elif change == "chain moved to the end":
            state = msgspec.msgpack.encode({**{k: v for k, v in tree.items() if k != "chain"},
                                            "chain": tree["chain"]})
        else:
            state = msgspec.msgpack.encode({**tree, "chain": 12})
        raw.set_state(GAME, 37, state)
        problem = check_game(app, GAME).problems[0]
        assert problem.startswith(f"event 37 ({self._kind(raw, 37)}): ")
        assert "does not match the hash chain" in problem or change == "chain not a string"
        app.latest_games.forget()
        with pytest.raises(TamperedError, match=r"stored event 37 .* does not match the hash chain"):
            app.game(GAME)  # opening it walks the chain the same way

    def test_a_field_given_twice_is_refused_even_with_its_link_made_over_it(
            self, app: MinisterApplication, raw: RawRows) -> None:
        """A forger repeats ``originator_version`` at the end of a row (a decoder takes the last)
        and makes its link over the row as stored: the link holds, but the event does not say
        what was checked, so the one-pass walk (``replay``, ``show``) refuses it. Opening it
        refuses the record at the next link (which no longer holds) and, with every later link
        made again too, at that event when it is read into the game (the snapshot after it is no
        longer bound to the chain, so the events are folded)."""
        rows = raw.rows(GAME)
        state = rows[36][2]
        count = len(msgspec.msgpack.decode(state)) + 1
        header = bytes([0x80 | count]) if count < 16 else b"\xde" + count.to_bytes(2, "big")
        body = state[1:] if state[0] < 0x90 else state[3:]
        forged = header + body + msgspec.msgpack.encode("originator_version") + msgspec.msgpack.encode(99)
        previous = msgspec.msgpack.decode(rows[35][2])["chain"]
        for version, row in [(37, forged), *[(v, s) for v, _, s in rows[37:]]]:
            at = row.index(b"\xa5chain\xd9\x40") + 8  # the link's 64 digits, as minister writes it
            previous = link_bytes(previous, row[:at - 2] + b"\xc0" + row[at + 64:])
            raw.set_state(GAME, version, row[:at] + previous.encode() + row[at + 64:])
            if version == 37:
                with pytest.raises(TamperedError, match=r"stored event 37 "):
                    walk_stored(GAME, read_states(app, game_uuid(GAME)))
                app.latest_games.forget()
                with pytest.raises(TamperedError, match=r"stored event 38 .*does not match the hash chain"):
                    app.game(GAME)
        app.latest_games.forget()
        with pytest.warns(UserWarning, match="not bound to the stored events' chain"), \
                pytest.raises(TamperedError, match=r"stored event 37 .*says it is event 99"):
            app.game(GAME)

    def test_a_deleted_row_is_a_missing_event(self, app: MinisterApplication, raw: RawRows) -> None:
        raw.delete(GAME, 12)
        assert "event 12 is missing" in check_game(app, GAME).problems[0]

    def test_garbage_in_a_row_cannot_be_decoded(self, app: MinisterApplication, raw: RawRows) -> None:
        raw.set_state(GAME, 5, b"\xc1garbage")
        problem = check_game(app, GAME).problems[0]
        assert "event 5 (" in problem and "cannot be decoded" in problem

    def test_a_rewritten_chain_is_caught_by_the_exported_head(self, app: MinisterApplication,
                                                             raw: RawRows) -> None:
        """Someone edits an event and recomputes every link after it: only a held head shows it."""
        held = msgspec.msgpack.decode(raw.rows(GAME)[-1][2])["chain"]
        raw.edit(GAME, 50, source_line=12345)
        previous = GENESIS
        for version, _, state in raw.rows(GAME):
            canonical, _ = stored_link(state)
            previous = link_bytes(previous, canonical)
            raw.edit(GAME, version, chain=previous)
        raw.delete(GAME, snapshots=True)  # and covers their tracks in the snapshots
        assert check_game(app, GAME).ok  # the chain itself is consistent again
        check = check_game(app, GAME, head=held)
        assert not check.ok and "rewritten or cut short" in check.problems[0]

    def test_an_edited_snapshot_is_found(self, app: MinisterApplication, raw: RawRows) -> None:
        [state] = [s for v, _, s in raw.rows(GAME, snapshots=True) if v == 80]
        tree = msgspec.msgpack.decode(state)
        raw.edit(GAME, 80, snapshots=True, state=tree["state"].replace(b"INF", b"ARM", 1))
        assert any("snapshot at event 80 does not match" in p for p in check_game(app, GAME).problems)

    def test_a_snapshot_bound_to_another_chain_is_found(self, app: MinisterApplication, raw: RawRows) -> None:
        """Its state is right, but it is bound to a link the events do not give (a snapshot of
        another history): ``verify --integrity`` names it (issue 26: the snapshot chain check)."""
        assert check_game(app, GAME).ok
        raw.edit(GAME, 80, snapshots=True, chain="ab" * 32)
        assert any("snapshot at event 80 does not match" in p for p in check_game(app, GAME).problems)

    def test_old_events_missing_a_newer_field_still_verify(self, spec: str) -> None:
        """The chain covers the stored bytes: a field added to an event class later breaks nothing."""
        app = open_store(spec)
        try:
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
                rows.append((event.originator_id, event.originator_version, type(event).TOPIC,
                             msgspec.msgpack.encode(tree)))
            insert_raw_rows(app, rows)
            check = check_game(app, replay.game_id)
            assert check.ok and check.chain.events == 12 and check.chain.head == previous
        finally:
            app.close()


class TestMemoryIntegrity(MemorySpec, IntegrityContract):
    """The in-memory store."""


class TestSQLiteIntegrity(SQLiteSpec, IntegrityContract):
    """The embedded SQLite store, and the command line on it."""

    def test_the_command_says_what_it_found(self, spec: str, app: MinisterApplication, raw: RawRows,
                                            capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["--store", spec, "verify", "--integrity", GAME]) == 0
        assert "80 events, hash chain intact" in capsys.readouterr().out
        raw.delete(GAME, 12)
        assert main(["--store", spec, "verify", "--integrity", GAME]) == 1
        assert "event 12 is missing" in capsys.readouterr().out

    def test_an_unknown_game_is_bad_input(self, spec: str, app: MinisterApplication,
                                          capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["--store", spec, "verify", "--integrity", "nope"]) == 2
        assert "no game with id 'nope'" in capsys.readouterr().err


@pytest.mark.postgres
class TestPostgresIntegrity(PostgresSpec, IntegrityContract):
    """PostgreSQL, in a schema of its own per test."""


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
