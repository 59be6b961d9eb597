"""One damaged game never poisons the store (issue 14 items 2, 3, 5, 7).

A stored game whose rows were edited, replaced by garbage or by text is refused when opened
(never shown as fact) while every other game is still listed and opened; a stale or garbage
snapshot is ignored; a locked SQLite file, a malformed store URL and a bad port are exit 2 with a
message and no traceback or password.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import msgspec
import pytest

from application.adapters.eventstore import raw_rows, set_raw_state
from application.adapters.integrity import GENESIS, link_bytes, stored_link
from application.adapters.stores import open_store
from application.usecases.transfer import import_replay
from domain.record.events import game_uuid
from tests.integration.store_helpers import (
    edit_sqlite_event,
    generated,
    set_sqlite_state,
    sqlite_rows,
    sqlite_store,
)
from tui.cli import main

BAD, GOOD = "generated-60-71", "generated-40-72"


@pytest.fixture
def store(tmp_path: Path) -> tuple[str, Path]:
    path = tmp_path / "s.sqlite3"
    app = open_store(f"sqlite:{path}")
    app.snapshot_interval = 20
    import_replay(app, generated(60, 71))
    import_replay(app, generated(40, 72))
    app.close()
    return f"sqlite:{path}", path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _others_still_work(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "games", "--store", spec)
    assert code == 0 and BAD in out and GOOD in out, err
    code, out, err = _run(capsys, "replay", GOOD, "--store", spec, "--json")
    assert code == 0 and GOOD in out, err


@pytest.mark.parametrize("damage", ["edited", "garbage", "text"])
def test_a_damaged_game_is_refused_and_the_others_still_work(
        store: tuple[str, Path], capsys: pytest.CaptureFixture[str], damage: str) -> None:
    spec, path = store
    if damage == "edited":  # a round shown as 10 hits instead of 2, say
        edit_sqlite_event(path, BAD, 30, source_line=999)
    else:
        value = b"\xc1garbage" if damage == "garbage" else "a state cell as text"
        set_sqlite_state(path, BAD, 30, value)
    for command in (["replay", BAD], ["export", BAD]):
        code, out, err = _run(capsys, *command, "--store", spec)
        assert code == 1, (command, out, err)  # a verification failure (issue 26), not bad input
        assert "stored event 30" in err and "not shown" in err and "Traceback" not in err
    _others_still_work(spec, capsys)
    code, out, _ = _run(capsys, "verify", "--integrity", BAD, "--store", spec)
    assert code == 1 and "event 30" in out


def test_garbage_snapshots_are_ignored(store: tuple[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    spec, path = store
    with sqlite_store(path) as app:
        for game in (BAD, GOOD):
            for version, _, _ in raw_rows(app, game_uuid(game), snapshots=True):
                set_raw_state(app, game_uuid(game), version, b"\x00\xffnot a snapshot", snapshots=True)
    code, out, err = _run(capsys, "replay", BAD, "--store", spec, "--json")
    assert code == 0 and BAD in out, err
    _others_still_work(spec, capsys)


def test_a_snapshot_of_another_history_is_not_used(store: tuple[str, Path],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The record is rewritten (chain recomputed) behind a snapshot taken before: the snapshot's
    binding no longer matches, so it is ignored, with a warning, and the events are folded."""
    spec, path = store
    expected = _run(capsys, "replay", BAD, "--store", spec, "--json")[1]
    edit_sqlite_event(path, BAD, 10, source_line=4242)
    previous = GENESIS
    for version, _, state in sqlite_rows(path, BAD):
        canonical, _ = stored_link(state)
        previous = link_bytes(previous, canonical)
        edit_sqlite_event(path, BAD, version, chain=previous)
    with pytest.warns(UserWarning, match="not bound to the stored events' chain"):
        code, out, err = _run(capsys, "replay", BAD, "--store", spec, "--json")
    assert code == 0, err
    assert out == expected  # source lines are not in the report: the same game, folded afresh


def test_an_earlier_head_says_how_many_events_were_added(store: tuple[str, Path],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The head a player holds is his only protection (issue 26 item 4): a record that goes on
    past it fails, saying how many events he has not seen; one it is no link of was rewritten."""
    spec, path = store
    rows = sqlite_rows(path, GOOD)
    earlier = msgspec.msgpack.decode(rows[24][2])["chain"]
    code, out, _ = _run(capsys, "verify", "--integrity", GOOD, "--head", earlier, "--store", spec)
    assert code == 1 and f"{len(rows) - 25} events were added after the head you hold" in out, out
    assert "link of event 25" in out and f"events 26 to {len(rows)} came after it" in out
    last = msgspec.msgpack.decode(rows[-1][2])["chain"]
    assert _run(capsys, "verify", "--integrity", GOOD, "--head", last.upper(), "--store", spec)[0] == 0
    code, out, _ = _run(capsys, "verify", "--integrity", GOOD, "--head", "ab" * 32, "--store", spec)
    assert code == 1 and "rewritten or cut short" in out
    code, _, err = _run(capsys, "verify", "--integrity", GOOD, "--head", "0000", "--store", spec)
    assert code == 2 and "expected the 64 hex digits" in err


def test_a_locked_sqlite_store_is_exit_2(store: tuple[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    spec, path = store
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        code, _, err = _run(capsys, "import", str(Path(__file__).parents[2] / "replays" / "part13" /
                                                  "overkill-6arm-v-2inf.toml"), "--store", spec)
    finally:
        holder.rollback()
        holder.close()
    assert code == 2, err
    assert "locked by another program" in err and "Traceback" not in err
    assert time.monotonic() - started < 60


@pytest.mark.parametrize("url", [
    "postgresql://alice:s3cret@db.example:99999/club",
    "postgresql://alice:s3cret@db.example:port/club",
    "postgresql://alice:s3cret@/club",
    "postgresql://:s3cret@db.example/club",
    "postgresql://alice:s3cret@db.example:5432/",
])
def test_a_malformed_store_url_never_prints_its_password(url: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "games", "--store", url)
    assert code == 2 and "Traceback" not in err
    assert "s3cret" not in out + err and "***" in err
