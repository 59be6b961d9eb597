"""What the Minister sees of a damaged stored game, command by command (issue 26: items 2 and 5,
and "replay, show, letter, bundle refuse a game whose chain is broken or whose events cannot be
decoded"), on SQLite and PostgreSQL.

One game's rows are changed in the database: a row edited without its chain (the chain breaks),
garbage bytes, and a forged row whose chain was recomputed but which no longer decodes. Every
command that shows or hands on the game refuses it, exit 1, naming the event; ``games`` lists it
as DAMAGED (exit 0) beside the intact game; nothing prints a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from application.adapters.stores import open_store
from application.usecases.transfer import import_replay
from tests.integration.store_helpers import RawRows, generated
from tui.cli import main

BAD, GOOD = "generated-30-91", "generated-30-92"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def damaged(spec: str, how: str, version: int) -> None:
    """Both games stored, then one row of BAD changed as someone holding the database would."""
    app = open_store(spec)
    try:
        import_replay(app, generated(30, 91))
        import_replay(app, generated(30, 92))
        raw = RawRows(app)
        if how == "edited":  # the chain is not recomputed: it breaks here
            raw.edit(BAD, version, source_line=999)
        elif how == "garbage":
            raw.set_state(BAD, version, b"\xc1garbage")
        else:  # forged: a field of the wrong type, the chain recomputed after it
            raw.edit(BAD, version, at="not a time")
            raw.rechain(BAD)
    finally:
        app.close()


@pytest.mark.parametrize(("how", "version"), [("edited", 12), ("garbage", 12), ("garbage", 30),
                                              ("forged", 12), ("garbage", 1), ("forged", 1)])
def test_a_damaged_game_is_refused_by_every_command_and_listed_as_damaged(
        tmp_path: Path, spec: str, how: str, version: int, capsys: pytest.CaptureFixture[str]) -> None:
    damaged(spec, how, version)
    for command in (["replay", BAD], ["replay", BAD, "--json"], ["replay", BAD, "--as-rolled"],
                    ["show", BAD], ["letter", BAD], ["bundle", BAD, "-o", str(tmp_path / "b.json")],
                    ["export", BAD], ["report", BAD, "--by", "x", "--text", "y"],
                    ["verify", "--dice", BAD]):
        code, out, err = run(capsys, *command, "--store", spec)
        assert code == 1, (command, out, err)
        assert f"stored event {version} (" in err and "Traceback" not in err, (command, err)
        assert out == "", (command, out)
    assert not (tmp_path / "b.json").exists()
    code, out, _ = run(capsys, "verify", "--integrity", BAD, "--store", spec)
    assert code == 1 and f"event {version} (" in out
    code, out, err = run(capsys, "games", "--store", spec)
    assert code == 0 and GOOD in out and "Traceback" not in err
    if how != "edited" and version in (1, 30):  # the rows the list reads: the game is marked
        [line] = [line for line in out.splitlines() if "DAMAGED" in line]
        assert f"stored event {version} cannot be decoded" in line
    listed = json.loads(run(capsys, "games", "--json", "--store", spec)[1])
    assert [g["damaged"] for g in listed if g["game"] == GOOD] == [None]
    code, out, _ = run(capsys, "replay", GOOD, "--json", "--store", spec)
    assert code == 0 and json.loads(out)["game"]["id"] == GOOD
