"""Import and export: atomic imports, byte-identical round trips, repeated imports, TOML strings."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

import msgspec
import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from application.adapters.app import MinisterApplication
from application.adapters.integrity import check_game
from application.adapters.mapper import encode_event
from application.adapters.stores import open_store
from application.intake.replayfile import load_replay, parse_replay
from application.usecases.dicecmd import draw, file_report
from application.usecases.transfer import (
    ImportConflictError,
    Outcome,
    _event_tables,
    _fields,
    export_game,
    import_replay,
    toml_string,
)
from domain.errors import ReplayError
from domain.record.events import (
    RECORD_EVENTS,
    DiceSupplied,
    GameEvent,
    PositionRecorded,
    game_uuid,
)
from domain.rules.forces import Force
from tests.conftest import REPLAYS, ROOT
from tests.integration.store_helpers import generated, generated_text, sqlite_rows

AWKWARD = 'He said "OOL: INF" \\ then \\\\ and """ triple, tab\there,  trailing  \nЯ ✓ é 日本\r\nend\\'

AWKWARD_TOML = toml_string(AWKWARD)
REVERSED_TOML = toml_string(AWKWARD[::-1])
TITLE = toml_string('Quotes "x", backslash \\ and ✓  ')
SEED = toml_string('seed with "quotes" \\ and ünïcode')

REPLAY = f'''format = "minister-replay/1"

[game]
id = "awkward-text"
edition = "iaapa-1999"
title = {TITLE}
dice_seed = {SEED}
number = "PBEM-7"

[[event]]
type = "position"
at = 1999-07-20T18:00:00+02:00
units = ["Germany Ukraine: 6 ARM", "USSR Caucasus: 2 INF"]

[[event]]
type = "declaration"
at = 1999-07-20T18:05:00Z
turn = "Germany 2"
text = """
Attack #1 - Caucasus (2 INF)
Ukr 6 ARM
"""

[[event]]
type = "orders"
at = 1999-07-20T18:06:00Z
turn = "Germany 2"
battle = "Caucasus"
side = "defender"
text = "OOL: INF, ARM"

[[event]]
type = "roll"
at = 1999-07-20T18:10:00.250000Z
battle = "Caucasus"
game_number = 1234
turn_number = 2
round_number = 1
country = "Germany"
log = """
Caucasus(2 INF)
6 ARM from Ukraine
# GM note: "quoted" \\\\ backslashed   ✓
A1 1*2*3*1*2*5 5 Hits
D1 1*2* 2 Hits
"""

[[event]]
type = "casualties"
at = 1999-07-20T18:11:00Z
battle = "Caucasus"
round = 1
side = "attacker"
units = "2 ARM"

[[event]]
type = "report"
at = 1999-07-20T18:12:00Z
by = "USSR"
battle = "Caucasus"
text = {AWKWARD_TOML}

[[event]]
type = "ruling"
at = 1999-07-20T18:13:00Z
finding = "F1"
decision = "dismiss"
election = "accept"
text = {REVERSED_TOML}

[[event]]
type = "dice"
at = 1999-07-20T18:14:00Z
battle = "Caucasus"
dice = "1* 2, 3"

[[event]]
type = "retreat"
at = 1999-07-20T18:15:00Z
battle = "Caucasus"
after_round = 1
to = "Ukraine"

[expect]
findings = []
'''


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MinisterApplication]:
    app = open_store(f"sqlite:{tmp_path / 'a.sqlite3'}")
    yield app
    app.close()


def _encoded(app: MinisterApplication, game_id: str) -> list[bytes]:
    return [encode_event(e) for e in app.game_events(game_id)]


def _round_trip(app: MinisterApplication, game_id: str, tmp_path: Path) -> MinisterApplication:
    """Export from ``app`` and import into a fresh SQLite store; return that store."""
    path = tmp_path / "export.toml"
    path.write_text(export_game(app, game_id), encoding="utf-8")
    other = open_store(f"sqlite:{tmp_path / 'b.sqlite3'}")
    assert import_replay(other, load_replay(path)).outcome is Outcome.IMPORTED
    return other


def test_import_export_import_gives_identical_events(store: MinisterApplication, tmp_path: Path) -> None:
    replay = parse_replay(REPLAY, "awkward.toml")
    import_replay(store, replay)
    draw(store, replay.game_id, "Caucasus", 3, 'defender "re-roll" ✓')
    file_report(store, replay.game_id, "Germany", AWKWARD)
    other = _round_trip(store, replay.game_id, tmp_path)
    assert _encoded(other, replay.game_id) == _encoded(store, replay.game_id)
    assert len(_encoded(other, replay.game_id)) == len(replay.events) + 2
    assert check_game(other, replay.game_id).chain.head == store.game_events(replay.game_id)[-1].chain
    texts = [getattr(e, "text", None) for e in other.game_events(replay.game_id)]
    assert AWKWARD in texts and AWKWARD[::-1] in texts
    other.close()


def test_a_generated_game_round_trips(store: MinisterApplication, tmp_path: Path) -> None:
    replay = generated(400, 21)
    import_replay(store, replay)
    other = _round_trip(store, replay.game_id, tmp_path)
    assert _encoded(other, replay.game_id) == _encoded(store, replay.game_id)
    assert msgspec.msgpack.encode(other.game(replay.game_id)) == msgspec.msgpack.encode(replay.game)
    other.close()


@pytest.mark.parametrize("path", sorted(REPLAYS.rglob("*.toml")), ids=lambda p: p.stem)
def test_every_shipped_replay_round_trips(path: Path) -> None:
    replay = load_replay(path)
    first, second = open_store("memory:"), open_store("memory:")
    import_replay(first, replay)
    again = parse_replay(export_game(first, replay.game_id), "export.toml")
    import_replay(second, again)
    assert _encoded(second, replay.game_id) == _encoded(first, replay.game_id) == \
        [encode_event(e) for e in replay.events]


def test_the_export_states_the_head_and_the_import_checks_it(store: MinisterApplication) -> None:
    replay = parse_replay(REPLAY, "awkward.toml")
    import_replay(store, replay)
    text = export_game(store, replay.game_id)
    head = tomllib.loads(text)["integrity"]["head"]
    assert head == store.game_events(replay.game_id)[-1].chain
    tampered = text.replace('to = "Ukraine"', 'to = "Caucasus"')
    assert tampered != text
    with pytest.raises(ReplayError, match="do not match \\[integrity\\] head"):
        import_replay(open_store("memory:"), parse_replay(tampered, "tampered.toml"))


def test_a_malformed_file_imports_nothing(store: MinisterApplication, tmp_path: Path) -> None:
    good = generated_text(60, 22)
    # Break the log of a roll near the end: the whole file must be refused.
    cut = good.rindex("A(")
    bad = good[:cut] + "A(2 INF) 12x4 = 1 hits\n" + good[good.index("\n", cut) + 1:]
    with pytest.raises(ReplayError):
        import_replay(store, parse_replay(bad, "bad.toml"))
    assert store.game_events("generated-60-22") == []
    assert sqlite_rows(tmp_path / "a.sqlite3", "generated-60-22") == []


def test_importing_again(store: MinisterApplication) -> None:
    replay = generated(50, 23)
    assert import_replay(store, replay).outcome is Outcome.IMPORTED
    again = import_replay(store, generated(50, 23))
    assert again.outcome is Outcome.ALREADY_STORED and again.later == 0
    file_report(store, replay.game_id, "UK", "appended later")
    assert import_replay(store, replay).later == 1
    changed = parse_replay(generated_text(50, 23).replace('"iaapa-2008"', '"iaapa-1999"'))
    with pytest.raises(ImportConflictError, match="first difference at event 1"):
        import_replay(store, changed)
    assert import_replay(store, changed, if_new=True).outcome is Outcome.ALREADY_STORED
    assert len(store.game_events(replay.game_id)) == 51


def test_every_event_field_is_exported() -> None:
    """A field added to an event kind must be added to the export (or the round trip breaks)."""
    base = set(GameEvent.__struct_fields__)
    renamed = {"units": {"holdings", "units"}, "dice": {"dice", "written"}}
    # Facts the loader derives from the written text (the round trips above check them).
    derived = {"battles", "territory", "parsed", "routes"}
    for cls in RECORD_EVENTS:
        if cls.__name__ == "GameStarted":
            continue
        event = _sample(cls)
        _, fields = _fields(event)
        covered = set().union(*(renamed.get(key, {key}) for key in fields))
        missing = set(cls.__struct_fields__) - base - covered - derived
        assert not missing, f"{cls.__name__} fields not exported: {sorted(missing)}"


def test_every_game_field_is_exported(store: MinisterApplication) -> None:
    replay = parse_replay(REPLAY, "awkward.toml")
    import_replay(store, replay)
    started = store.game_events(replay.game_id)[0]
    values = {name: getattr(started, name) for name in type(started).__struct_fields__
              if name not in GameEvent.__struct_fields__}
    assert all(value is not None for value in values.values()), values
    again = parse_replay(export_game(store, replay.game_id), "export.toml").events[0]
    assert encode_event(again) == encode_event(started)


def _sample(cls: type[GameEvent]) -> GameEvent:
    """An event of ``cls`` with every field given a non-default value."""
    values: dict[str, object] = {}
    for field in msgspec.structs.fields(cls):
        if field.name in GameEvent.__struct_fields__:
            continue
        values[field.name] = _value_for(cls, field.name, field.type)
    return cls(originator_id=game_uuid("x"), originator_version=2,
               timestamp=generated(12, 1).events[0].timestamp, **values)  # type: ignore[arg-type]


def _value_for(cls: type[GameEvent], name: str, kind: object) -> object:
    if cls is PositionRecorded:
        return ()
    if cls is DiceSupplied and name == "dice":
        return (1, 2)
    if kind is Force or name == "units":
        return Force.parse("2 INF")
    text = str(kind)
    if "tuple" in text:
        return (1,)
    if "int" in text:
        return 3
    return "x"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",))))
def test_toml_strings_read_back_exactly(text: str) -> None:
    assert tomllib.loads(f"x = {toml_string(text)}\n")["x"] == text


_VALUES = st.one_of(st.text(alphabet=st.characters(exclude_categories=("Cs",))), st.integers(),
                   st.booleans(), st.datetimes(timezones=st.just(UTC)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.from_regex("[a-z_]{1,12}", fullmatch=True),
                                st.one_of(_VALUES, st.lists(_VALUES, max_size=3)), max_size=5),
                max_size=4), st.booleans())
def test_the_event_records_are_written_as_tomli_w_writes_them(records: list[dict[str, object]],
                                                              multiline: bool) -> None:
    written = _event_tables(records, multiline)  # the export's own writer of the [[event]] tables
    expected = tomli_w.dumps({"event": records}, multiline_strings=multiline)
    if written is None:  # left to tomli-w: it writes them inline
        assert expected.startswith("event = ")
    else:
        assert written == "\n" + expected


@pytest.mark.slow
def test_a_killed_import_leaves_no_partial_game(tmp_path: Path) -> None:
    """SIGKILL an import at seeded random moments: the game is then absent or complete."""
    size = 2500
    source = tmp_path / "big.toml"
    source.write_text(generated_text(size, 24), encoding="utf-8")
    game_id = f"generated-{size}-24"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def start(store: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "tui.cli", "--store", f"sqlite:{store}",
                                 "import", str(source)], env=env, cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    began = time.perf_counter()
    full = start(tmp_path / "full.sqlite3")
    assert full.wait(120) == 0, full.stderr.read() if full.stderr else ""
    duration = time.perf_counter() - began
    assert [v for v, _, _ in sqlite_rows(tmp_path / "full.sqlite3", game_id)] == list(range(1, size + 1))
    rng = random.Random(24)
    outcomes = []
    for attempt in range(3):
        store = tmp_path / f"killed-{attempt}.sqlite3"
        process = start(store)
        time.sleep(rng.uniform(0.5, 1.0) * duration)  # the save comes last: aim at the end
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        versions = [v for v, _, _ in sqlite_rows(store, game_id)] if store.exists() else []
        assert versions in ([], list(range(1, size + 1))), f"partial game: {len(versions)} events"
        outcomes.append(len(versions))
        if versions:
            app = open_store(f"sqlite:{store}")
            assert check_game(app, game_id).ok
            app.close()
    assert outcomes  # each kill left nothing or everything (which one depends on timing)


@pytest.mark.slow
def test_a_kill_inside_the_save_leaves_nothing(tmp_path: Path) -> None:
    """The save itself is one transaction: killed half-way through it, no event remains."""
    size = 1500
    source = tmp_path / "big.toml"
    source.write_text(generated_text(size, 25), encoding="utf-8")
    store = tmp_path / "s.sqlite3"
    script = ("from tests.integration.store_helpers import slow_import; "
              f"slow_import({f'sqlite:{store}'!r}, {str(source)!r}, 0.001)")
    process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None
    assert process.stdout.readline().strip() == b"saving"
    time.sleep(random.Random(25).uniform(0.2, 1.0))  # well inside the ~1.5 s of inserts
    assert process.poll() is None, "the save finished before the kill"
    process.send_signal(signal.SIGKILL)
    process.wait(30)
    assert sqlite_rows(store, f"generated-{size}-25") == []
    app = open_store(f"sqlite:{store}")  # the store is still usable afterwards
    import_replay(app, load_replay(source))
    assert len(app.game_events(f"generated-{size}-25")) == size
    app.close()


def test_an_import_loads_no_user_interface_nor_other_stores(tmp_path: Path) -> None:
    """``minister import`` on an SQLite store it is given: no Textual or Rich (the timeline's),
    no psycopg (PostgreSQL's), no platformdirs (the default store's): their imports are a
    third of the command's start."""
    source = tmp_path / "g.toml"
    source.write_text(generated_text(40, 26), encoding="utf-8")
    script = ("import sys\nfrom tui.cli import main\n"
              f"assert main(['import', {str(source)!r}, '--store', {str(tmp_path / 's.db')!r}]) == 0\n"
              "print(sorted({name.split('.')[0] for name in sys.modules}))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.splitlines()[-1].strip("[]").replace("'", "").split(", "))
    assert "application" in loaded
    assert loaded.isdisjoint({"textual", "rich", "psycopg", "psycopg_pool", "platformdirs"})
