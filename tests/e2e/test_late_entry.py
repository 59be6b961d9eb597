"""An e-mail entered after later rolls keeps its own time (issue 12): the report claims the
e-mail's time (``--at``, earlier than the game's last record) and is judged by it under 2008
Section VII, while the store records it in order (time travel and the timeline go by that).
Acted out on a real store (SQLite; PostgreSQL when ``MINISTER_TEST_POSTGRES`` names a server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_desk import GAME, GAME_ID, as_json, run, stored

# Japan 2 rolls the day after UK 2: 2008 Section VII closes UK 2's errors once it is rolled.
LATER = GAME.replace('"Germany West Europe: 2 INF, 1 ARM"]',
                     '"Germany West Europe: 2 INF, 1 ARM", "Japan Manchuria: 3 INF", '
                     '"USSR Soviet Far East: 1 INF"]') + '''
[[event]]
type = "declaration"
at = 2008-07-06T18:05:00Z
turn = "Japan 2"
text = """
Attack #1 - SFE (1 INF)
Manch 3 INF
"""
[[event]]
type = "roll"
at = 2008-07-06T18:10:00Z
battle = "SFE"
log = """
Soviet Far East(1 INF)
3 INF from Manchuria
R1
A(3 INF) 1*45 = 1 hit
D(1 INF) 6 = 0 hits
"""
'''


def _imported(tmp_path: Path, store: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "later.toml"
    path.write_text(LATER, encoding="utf-8")
    code, _, err = run(capsys, "import", str(path), "--store", store)
    assert code == 0, err


@pytest.mark.parametrize(("sent", "status", "note"), [
    # Sent before Japan 2 was rolled, read and entered after: in time, the battle is void.
    ("2008-07-05T20:00:00Z", "void", None),
    # Sent after Japan 2 was rolled: too late, the error stands.
    ("2008-07-06T19:00:00Z", "fixed",
     "reported 2008-07-06 19:00 UTC, after Japan 2 was rolled (2008-07-06 18:10 UTC; 2008 Section VII)"),
])
def test_an_email_entered_after_later_rolls_is_judged_by_its_own_time(
        tmp_path: Path, spec: str, sent: str, status: str, note: str | None,
        capsys: pytest.CaptureFixture[str]) -> None:
    _imported(tmp_path, spec, capsys)
    report = as_json(capsys, "report", GAME_ID, "--by", "Germany", "--battle", "W Europe", "--text",
                     "West Europe also holds 1 ARM", "--at", sent, "--store", spec)
    # Both times kept: the claimed one (the rules) and when minister stored it (now).
    assert report["at"] == sent and report["entered"] > "2008-07-06T18:10:00Z"
    reviewed = as_json(capsys, "replay", GAME_ID, "--store", spec)
    finding = next(f for f in reviewed["findings"] if f["kind"] == "defenders_misdeclared")
    assert finding["status"] == status
    if note is not None:
        assert note in finding["detail"]
    [paper] = reviewed["papers"]
    assert paper["at"] == sent and paper["entered"] == report["entered"]
    text = run(capsys, "replay", GAME_ID, "--store", spec)[1]
    assert f"(entered {report['entered'][:10]}" in text
    letter = run(capsys, "letter", GAME_ID, "--store", spec)[1]
    words = " ".join(letter.split())  # the text letter is wrapped at 78 columns
    assert f"{sent[:10]} {sent[11:16]} UTC (entered {report['entered'][:10]}" in words
    assert "Germany reported about West Europe (UK 2)" in words
    # Why it was in time or too late: the e-mail's time against Japan 2's first die (issue 27.5).
    assert f"at {sent[:10]} {sent[11:16]} UTC (entered " in words
    assert ("before Japan 2 was rolled (2008-07-06 18:10 UTC): in time" if status == "void" else
            "after Japan 2 was rolled (2008-07-06 18:10 UTC): too late") in words
    # An export keeps both times (``entered``, an extension), so a re-import is the same game.
    export = run(capsys, "export", GAME_ID, "--store", spec)[1]
    assert f"at = {sent[:10]} {sent[11:19]}+00:00" in export and "entered = " in export
    other = f"sqlite:{tmp_path / 'other.sqlite3'}"
    (tmp_path / "export.toml").write_text(export, encoding="utf-8")
    assert run(capsys, "import", str(tmp_path / "export.toml"), "--store", other)[0] == 0
    assert stored(other) == stored(spec)


@pytest.mark.parametrize(("args", "expected"), [
    (("report", "--by", "G", "--text", "t", "--at", "2099-01-01T00:00:00Z"), "in the future"),
    (("report", "--by", "G", "--text", "t", "--at", "2008-07-01T00:00:00Z"), "before the game's start"),
    (("report", "--by", "G", "--text", "t", "--battle", "SFE", "--at", "2008-07-06T18:00:00Z"),
     "before the battle Soviet Far East (Japan 2) was rolled (2008-07-06T18:10:00Z)"),
    (("rule", "--finding", "F1", "--decision", "apply", "--at", "2008-07-04T00:00:00Z"),
     "before the game's start"),
    (("dice", "--battle", "W Europe", "--at", "2008-07-05T18:00:00Z", "6 6"),
     "before the battle West Europe (UK 2) was rolled"),
])
def test_an_impossible_claimed_time_is_refused(tmp_path: Path, args: tuple[str, ...], expected: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    store = f"sqlite:{tmp_path / 'store.sqlite3'}"
    _imported(tmp_path, store, capsys)
    before = stored(store)
    code, _, err = run(capsys, args[0], GAME_ID, *args[1:], "--store", store)
    assert code == 2 and "--at" in err and expected in err, err
    assert stored(store) == before
