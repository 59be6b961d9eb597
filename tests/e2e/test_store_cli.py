"""The store commands end to end: import, games, replay/show by id, export, roll, verify."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from application.adapters.mapper import encode_event
from application.adapters.stores import open_store
from tests.conftest import REPLAYS, ROOT
from tests.integration.store_helpers import edit_sqlite_event, forge_sqlite_event, sqlite_rows
from tui.cli import main

EXAMPLE = REPLAYS / "part13" / "overkill-6arm-v-2inf.toml"
EXAMPLE_ID = "part13-overkill-6arm-v-2inf"


def minister(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real ``minister`` program."""
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_default_store_from_the_data_directory(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "MINISTER_STORE": ""}
    done = minister("import", str(EXAMPLE), env=env)
    assert done.returncode == 0, done.stderr
    assert f"imported {EXAMPLE_ID}: 4 events, head " in done.stdout
    assert (tmp_path / "data" / "minister" / "minister.sqlite3").exists()
    listed = minister("games", env=env)
    assert listed.returncode == 0
    for shown in (EXAMPLE_ID, "iaapa-1999", "1999-07-20T18:10:00Z", "     4  "):
        assert shown in listed.stdout
    by_id = minister("replay", EXAMPLE_ID, env=env)
    by_file = minister("replay", str(EXAMPLE), env=env)
    assert by_id.returncode == 0 and by_id.stdout == by_file.stdout
    again = minister("import", "--if-new", str(EXAMPLE), env=env)
    assert again.returncode == 0 and "already stored" in again.stdout


def test_store_option_before_or_after_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINISTER_STORE", f"sqlite:{tmp_path / 'env.sqlite3'}")
    first = f"sqlite:{tmp_path / 'one.sqlite3'}"
    assert run(capsys, "--store", first, "import", str(EXAMPLE))[0] == 0
    assert EXAMPLE_ID in run(capsys, "games", "--store", first)[1]
    assert run(capsys, "games")[1].strip() == "no games stored"  # MINISTER_STORE
    code, out, _ = run(capsys, "replay", EXAMPLE_ID, "--store", first, "--json")
    assert code == 0 and f'"id":"{EXAMPLE_ID}"' in out.replace(" ", "")


def test_import_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = f"sqlite:{tmp_path / 's.sqlite3'}"
    bad = tmp_path / "bad.toml"
    bad.write_text(EXAMPLE.read_text(encoding="utf-8").replace("A1 1*2*3*1*2*5", "A1 1*2*3*1*2*9"),
                   encoding="utf-8")
    code, _, err = run(capsys, "--store", store, "import", str(bad))
    assert code == 2 and str(bad) in err
    assert run(capsys, "--store", store, "games")[1].strip() == "no games stored"
    assert run(capsys, "--store", store, "import", str(EXAMPLE))[0] == 0
    code, out, _ = run(capsys, "--store", store, "import", str(EXAMPLE))
    assert code == 0 and "is already stored (4 events)" in out
    other = tmp_path / "other.toml"
    other.write_text(EXAMPLE.read_text(encoding="utf-8").replace("18:10:00Z", "18:11:00Z"),
                     encoding="utf-8")
    code, _, err = run(capsys, "--store", store, "import", str(other))
    assert code == 2
    assert f"game '{EXAMPLE_ID}' is already stored with different events" in err
    assert "first difference at event 4" in err


def awaiting_dice(tmp_path: Path, store: str) -> str:
    """The desk's one-battle game imported into ``store`` with a report in time and UK's election
    to re-roll West Europe: the battle awaits dice (what ``roll`` draws). Its id."""
    from tests.e2e.test_desk import GAME, GAME_ID

    source = tmp_path / "desk.toml"
    source.write_text(GAME, encoding="utf-8")
    for args in (["import", str(source)],
                 ["report", GAME_ID, "--by", "Germany", "--battle", "W Europe", "--text", "1 ARM too",
                  "--at", "2008-07-05T18:30:00Z"],
                 ["rule", GAME_ID, "--finding", "F1", "--decision", "apply", "--election", "reroll",
                  "--by", "UK", "--at", "2008-07-05T18:40:00Z"]):
        done = minister("--store", store, *args)
        assert done.returncode == 0, (args, done.stderr)
    return GAME_ID


def test_export_then_import_elsewhere(tmp_path: Path) -> None:
    one, two = tmp_path / "one.sqlite3", tmp_path / "two.sqlite3"
    game = awaiting_dice(tmp_path, f"sqlite:{one}")
    keys = str(tmp_path / "keys")
    assert minister("--store", f"sqlite:{one}", "commit", game, "--keys", keys).returncode == 0
    rolled = minister("--store", f"sqlite:{one}", "roll", game, "--battle", "W Europe", "--keys", keys)
    assert rolled.returncode == 0, rolled.stderr
    assert rolled.stdout.startswith("roll #0 for West Europe (R1 attacker column 3)")
    assert minister("--store", f"sqlite:{one}", "reveal", game, "--keys", keys).returncode == 0
    exported = tmp_path / "export.toml"
    done = minister("export", game, "-o", str(exported), "--store", f"sqlite:{one}")
    assert done.returncode == 0, done.stderr
    assert minister("--store", f"sqlite:{two}", "import", str(exported)).returncode == 0
    assert [s for _, _, s in sqlite_rows(one, game)] == [s for _, _, s in sqlite_rows(two, game)]
    stdout = minister("--store", f"sqlite:{one}", "export", game).stdout
    assert stdout == exported.read_text(encoding="utf-8")
    assert minister("--store", f"sqlite:{two}", "verify", "--dice", game).returncode == 0


def test_roll_and_verify_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite3"
    store = f"sqlite:{path}"
    keys = str(tmp_path / "keys")
    game = awaiting_dice(tmp_path, store)
    assert run(capsys, "--store", store, "commit", game, "--keys", keys)[0] == 0
    code, out, _ = run(capsys, "--store", store, "roll", game, "--battle", "W Europe", "--keys", keys)
    rolled = [[int(d) for d in line.split(":", 1)[1].split("[")[0].split()] for line in out.splitlines()]
    events = [int(line.rsplit("[event ", 1)[1].rstrip("]")) for line in out.splitlines()]
    assert code == 0 and len(rolled) >= 3, out
    assert run(capsys, "--store", store, "reveal", game, "--keys", keys)[0] == 0
    code, out, _ = run(capsys, "--store", store, "verify", "--dice", game, "--integrity", game)
    assert code == 0, out
    assert f"{len(rolled)} committed rolls reproduce from their revealed secrets" in out
    assert f"{events[-1] + 1} events, hash chain intact" in out
    # A roll whose dice were changed in the store no longer reproduces, even with the chain made
    # anew. Every die changed (7 - d), so the check cannot pass by chance.
    changed = [7 - d for d in rolled[1]]
    forge_sqlite_event(path, game, events[1], dice=changed)
    code, out, _ = run(capsys, "--store", store, "verify", "--dice", game)
    assert code == 1 and f"roll #1 (event {events[1]}" in out
    assert f"does not reproduce: recorded {' '.join(map(str, changed))}" in out
    # Two rolls with one sequence number, one missing: both show.
    forge_sqlite_event(path, game, events[2], sequence=1)
    code, out, _ = run(capsys, "--store", store, "verify", "--dice", game)
    assert code == 1 and f"roll #1 is recorded 2 times (events {events[1]}, {events[2]})" in out
    forge_sqlite_event(path, game, events[2], sequence=len(rolled))
    code, out, _ = run(capsys, "--store", store, "verify", "--dice", game)
    assert code == 1 and "rolls missing: #2" in out
    # Edited without making the chain anew: the game is refused before any die is read.
    edit_sqlite_event(path, game, events[0], dice=[7 - d for d in rolled[0]])
    code, _, err = run(capsys, "--store", store, "verify", "--dice", game)
    assert code == 1 and f"stored event {events[0]} (DiceDrawn) does not match the hash chain" in err


def test_roll_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = f"sqlite:{tmp_path / 's.sqlite3'}"
    assert run(capsys, "--store", store, "import", str(EXAMPLE))[0] == 0
    code, _, err = run(capsys, "--store", store, "roll", EXAMPLE_ID, "--battle", "Caucasus",
                       "--keys", str(tmp_path))
    assert code == 2 and "has no open dice commitment" in err
    code, _, err = run(capsys, "--store", store, "roll", "nope", "--battle", "Caucasus")
    assert code == 2 and "no game with id 'nope'" in err


def test_verify_integrity_after_editing_the_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    assert minister("--store", f"sqlite:{path}", "import", str(EXAMPLE)).returncode == 0
    edit_sqlite_event(path, EXAMPLE_ID, 3, text="Attack #1 - Caucasus (2 INF)\nUkr 7 ARM\n")
    done = minister("--store", f"sqlite:{path}", "verify", "--integrity", EXAMPLE_ID)
    assert done.returncode == 1
    assert "event 3 (DeclarationRecorded): does not match the hash chain" in done.stdout


def test_stored_events_are_what_the_file_gives(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from application.intake.replayfile import load_replay

    store = f"sqlite:{tmp_path / 's.sqlite3'}"
    assert run(capsys, "--store", store, "import", str(EXAMPLE))[0] == 0
    app = open_store(store)
    assert [encode_event(e) for e in app.game_events(EXAMPLE_ID)] == \
        [encode_event(e) for e in load_replay(EXAMPLE).events]
    app.close()


def test_the_command_as_a_process_freezes_what_it_made_and_keeps_the_exit_code(tmp_path: Path) -> None:
    """``minister`` (its console script and ``python -m tui.cli``) is :func:`tui.cli.run`: the
    exit code is main's, and what the command made is frozen out of the collector before the
    interpreter exits (tests call ``main``, which freezes nothing)."""
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["minister"] == "tui.cli:run"
    probe = ("import gc, sys\nfrom tui.cli import run\ncode = run()\n"
             "print('frozen', gc.get_freeze_count() > 0)\nsys.exit(code)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path), "MINISTER_STORE": ""}
    for args, code in (([str(EXAMPLE)], 0), (["no-such-file.toml"], 2)):
        done = subprocess.run([sys.executable, "-c", probe, "replay", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=False, env=env)
        assert done.returncode == code, done.stderr
        assert done.stdout.endswith("frozen True\n")
