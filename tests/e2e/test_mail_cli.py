"""``minister mail`` through the real command: the shipped mailboxes give their shipped replays,
``--import`` then ``replay`` gives the same findings, and bad input never gives a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPLAYS, ROOT
from tests.support.mail_messages import mbox, message, raw

MAIL = REPLAYS / "mail"
#: Where the hand-checked part of a shipped mail replay starts (everything before is the draft).
HAND_CHECKED = "\n# == Hand-checked"
GAMES = [("game-2231.mbox", "game-2231"), ("game-5907", "game-5907")]


def _minister(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=cwd, capture_output=True, text=True,
                          check=False, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.parametrize("mailbox, game", GAMES)
def test_the_draft_of_a_shipped_mailbox_is_its_shipped_replay(mailbox: str, game: str) -> None:
    done = _minister("mail", f"replays/mail/{mailbox}")
    assert done.returncode == 0, done.stderr
    shipped = (MAIL / f"{game}.toml").read_text(encoding="utf-8")
    assert HAND_CHECKED in shipped
    assert done.stdout == shipped.partition(HAND_CHECKED)[0]
    assert "needs the Minister: nothing" in done.stderr and "findings of the draft: 1" in done.stderr


@pytest.mark.parametrize("mailbox, game", GAMES)
def test_import_then_replay_gives_the_shipped_replays_findings(mailbox: str, game: str,
                                                               tmp_path: Path) -> None:
    store = f"sqlite:{tmp_path / 'store.sqlite3'}"
    draft = tmp_path / "draft.toml"
    done = _minister("mail", str(MAIL / mailbox), "-o", str(draft), "--import", "--store", store)
    assert done.returncode == 0, done.stderr
    assert f"imported {game}:" in done.stdout and f"draft written to {draft}" in done.stdout
    stored = json.loads(_minister("replay", game, "--json", "--store", store).stdout)
    shipped = json.loads(_minister("replay", str(MAIL / f"{game}.toml"), "--json").stdout)
    assert stored["findings"] == shipped["findings"] and stored["findings"]
    assert stored["summary"] == shipped["summary"]
    # The summary names the e-mail behind the finding.
    assert "from \"" in done.stdout.split("findings of the draft: 1")[1]


def test_the_summary_as_json(tmp_path: Path) -> None:
    done = _minister("mail", str(MAIL / "game-5907"), "-o", str(tmp_path / "d.toml"), "--json")
    summary = json.loads(done.stdout)
    assert summary["format"] == "minister-mail/1" and summary["game"] == "game-5907"
    assert [s["where"] for s in summary["skipped"]] == ["README.txt"]
    assert {m["status"] for m in summary["messages"]} == {"records", "not recognised", "duplicate"}
    assert summary["findings"][0]["emails"]


def test_the_dice_servers_signature_is_checked_or_says_why_not() -> None:
    done = _minister("mail", str(MAIL / "game-5907"), "--dice-key", str(MAIL / "dice-server-test-key.pem"))
    assert done.returncode == 0
    assert "signature checked against the dice server's key: valid" in done.stdout
    assert "does NOT match" not in done.stdout
    plain = _minister("mail", str(MAIL / "game-5907"))
    assert "signature not checked: no --dice-key given" in plain.stdout


# -- bad input: a clear message, exit 2 only where nothing could be read, never a traceback -------

def test_paths_that_are_no_mailbox_exit_2_naming_them(tmp_path: Path) -> None:
    done = _minister("mail", str(tmp_path / "missing.mbox"))
    assert done.returncode == 2 and "missing.mbox: no such file or folder" in done.stderr
    (tmp_path / "notes.txt").write_text("hello\n")
    done = _minister("mail", str(tmp_path / "notes.txt"))
    assert done.returncode == 2 and "notes.txt: not an mbox file: line 1" in done.stderr
    (tmp_path / "empty").mkdir()
    done = _minister("mail", str(tmp_path / "empty"))
    assert done.returncode == 2 and "no message could be read" in done.stderr


def test_bad_options_exit_2(tmp_path: Path) -> None:
    done = _minister("mail", str(MAIL / "game-5907"), "--dice-key", str(tmp_path / "none.pem"))
    assert done.returncode == 2 and "--dice-key" in done.stderr and "cannot read the file" in done.stderr
    done = _minister("mail", str(MAIL / "game-5907"), "--edition", "iaapa-1066")
    assert done.returncode == 2 and "--edition 'iaapa-1066'" in done.stderr


def test_a_draft_that_cannot_be_written_leaves_no_file(tmp_path: Path) -> None:
    done = _minister("mail", str(MAIL / "game-5907"), "-o", str(tmp_path / "no" / "such" / "draft.toml"))
    assert done.returncode == 2 and "cannot write the file" in done.stderr
    assert not (tmp_path / "no").exists()


def test_a_truncated_mbox_is_read_as_far_as_it_goes(tmp_path: Path) -> None:
    data = (MAIL / "game-2231.mbox").read_bytes()
    cut = tmp_path / "cut.mbox"
    cut.write_bytes(data[: data.index(b"Game2231:Germans roll dice for 4 infantry") + 5000])
    done = _minister("mail", str(cut))
    assert done.returncode == 0, done.stderr
    assert "the mailbox ends inside this message" in done.stderr or "cut short" in done.stderr
    assert 'type = "declaration"' in done.stdout


def test_an_unknown_charset_is_read_and_noted(tmp_path: Path) -> None:
    data = raw(message("Purchase: 3 INF\n", charset="windows-1252")).replace(b"windows-1252", b"x-unheard-of")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "1.eml").write_bytes(data)
    done = _minister("mail", str(tmp_path / "folder"))
    assert done.returncode == 0 and "unknown charset 'x-unheard-of'" in done.stderr
    assert 'units = "3 INF"' in done.stdout


def test_a_50_mb_attachment_is_cut_and_listed(tmp_path: Path) -> None:
    line = b"A" * 76 + b"\n"
    big = (b"From: Boris <boris@example.net>\nSubject: Game 9 - USSR 1\n"
           b"Date: Sat, 01 Jun 2019 10:00:00 +0200\n"
           b"Message-ID: <big@x>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=BB\n\n"
           b"--BB\nContent-Type: text/plain\n\nPurchase: 3 INF\n\n"
           b"--BB\nContent-Type: application/octet-stream\n"
           b"Content-Disposition: attachment; filename=triplea_1Rus.tsvg\n"
           b"Content-Transfer-Encoding: base64\n\n"
           + line * (50 * 2**20 // len(line)) + b"--BB--\n")
    path = mbox(tmp_path / "big.mbox", big, message("bye", message_id="<bye@x>"))
    done = _minister("mail", str(path))
    assert done.returncode == 0, done.stderr
    assert "larger than the limit" in done.stderr and 'units = "3 INF"' in done.stdout
    assert "not recognised: 1" in done.stderr


def test_a_mail_bomb_of_nested_forwards_is_cut_and_listed(tmp_path: Path) -> None:
    inner = message("Your dice are: 6,6,6", subject="bottom", message_id="<b0@x>")
    for level in range(60):
        outer = message(f"level {level}", message_id=f"<b{level + 1}@x>")
        outer.add_attachment(inner)
        inner = outer
    body = "bomb\n"
    for level in range(300):
        body = f"level {level}\n\n---------- Forwarded message ---------\nFrom: x{level}@x\n\n{body}"
    path = mbox(tmp_path / "bomb.mbox", inner, message(body, message_id="<text-bomb@x>"))
    done = _minister("mail", str(path))
    assert done.returncode == 0, done.stderr
    assert "nested more than" in done.stderr and "deep: not read" in done.stderr


def test_a_maildir_with_unreadable_files_lists_them(tmp_path: Path) -> None:
    for sub in ("cur", "new", "tmp"):
        (tmp_path / sub).mkdir()
    os.symlink(tmp_path / "gone", tmp_path / "cur" / "1.host:2,S")
    done = _minister("mail", str(tmp_path))
    assert done.returncode == 2 and "cur/1.host:2,S: cannot read the file" in done.stderr
    (tmp_path / "new" / "2.host").write_bytes(raw(message("Purchase: 3 INF\n")))
    done = _minister("mail", str(tmp_path))
    assert done.returncode == 0 and "cur/1.host:2,S: cannot read the file" in done.stderr


def test_import_is_refused_while_anything_needs_the_minister(tmp_path: Path) -> None:
    store = f"sqlite:{tmp_path / 'store.sqlite3'}"
    body = "Game 9 - USSR 1\nCombat Moves:\nAttack #1 - Kar (1 INF)\nRus 2 INF\n\ndice: 1 2 3 4 5 6 1 2 3\n"
    path = mbox(tmp_path / "g.mbox", message(body, subject="Game 9 - USSR 1"))
    done = _minister("mail", str(path), "--import", "--store", store)
    assert done.returncode == 2
    assert "need the Minister" in done.stderr and "nothing was imported" in done.stderr
    assert _minister("games", "--store", store).stdout.strip() == "no games stored"
