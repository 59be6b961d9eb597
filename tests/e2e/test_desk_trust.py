"""What the Minister hands on can be trusted (issues 26 and 27), on a real store (SQLite, and
PostgreSQL when ``MINISTER_TEST_POSTGRES`` names a server): the letter shows players' words as
written in every format, and bad dice are refused at the door."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.e2e.test_desk import GAME_ID, as_json, awaiting_the_reroll, imported, run, stored

HOSTILE = '<script>alert(1)</script> <img src=x onerror=alert(1)> [see](javascript:alert(1))'


def test_the_letter_shows_players_words_never_their_markup(
        tmp_path: Path, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A report and a ruling whose words carry HTML and a Markdown link: the Markdown letter,
    rendered as most mail programs do (raw HTML allowed), and the HTML letter hold no tag and
    no link of theirs; the words are there, as typed (issue 26 item 6)."""
    imported(tmp_path, spec, capsys)
    assert run(capsys, "report", GAME_ID, "--by", "<b>Germany</b>", "--text", HOSTILE,
               "--store", spec)[0] == 0
    assert run(capsys, "rule", GAME_ID, "--finding", "F1", "--decision", "dismiss", "--text", HOSTILE,
               "--store", spec)[0] == 0
    code, markdown, _ = run(capsys, "letter", GAME_ID, "--format", "markdown", "--store", spec)
    assert code == 0
    rendered = MarkdownIt("commonmark").render(markdown)
    code, html, _ = run(capsys, "letter", GAME_ID, "--format", "html", "--store", spec)
    assert code == 0
    for page in (rendered, html):
        for tag in ("<script", "<img", "<a ", "<b>", "javascript:alert(1)\""):
            assert tag not in page, (tag, page)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page


@pytest.mark.parametrize("faces", [" ", "", "*", " , ", "6" * 10_001],
                         ids=["blank", "empty", "star", "commas", "10001-dice"])
def test_no_dice_or_too_many_are_refused_at_entry(tmp_path: Path, spec: str, faces: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``dice GAME --battle B " "`` stored zero dice, after which the game could never be
    exported and imported again (issue 26 item 5): exit 2, nothing stored."""
    imported(tmp_path, spec, capsys)
    before = stored(spec)
    code, _, err = run(capsys, "dice", GAME_ID, "--battle", "W Europe", faces, "--store", spec)
    assert code == 2 and ("no die given" in err or "expected at most 10000" in err
                          or "expected faces 1-6" in err), err
    assert "Traceback" not in err and stored(spec) == before


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_a_keys_folder_others_can_write_is_refused(tmp_path: Path, spec: str, mode: int,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Whoever can write the key folder can delete or replace a key file (issue 26 item 7): an
    existing folder with group or world write permission is refused, exit 2, before any key
    is written or anything stored; a folder the tool makes is owner-only."""
    imported(tmp_path, spec, capsys)
    keys = tmp_path / "shared-keys"
    keys.mkdir()
    keys.chmod(mode)
    before = stored(spec)
    code, _, err = run(capsys, "commit", GAME_ID, "--keys", str(keys), "--store", spec)
    assert code == 2 and "the dice key folder is writable by" in err and "chmod 700" in err, err
    assert stored(spec) == before and list(keys.iterdir()) == []
    # Made safe, it is used; made unsafe again, the reveal refuses to read the key from it.
    keys.chmod(0o700)
    assert run(capsys, "commit", GAME_ID, "--keys", str(keys), "--store", spec)[0] == 0
    keys.chmod(mode)
    code, _, err = run(capsys, "reveal", GAME_ID, "--keys", str(keys), "--store", spec)
    assert code == 2 and "writable by" in err, err
    fresh = tmp_path / "new" / "keys"
    assert run(capsys, "commit", "--abandon", GAME_ID, "--keys", str(fresh), "--force",
               "--store", spec)[0] == 0
    assert fresh.stat().st_mode & 0o077 == 0


def test_dice_of_an_abandoned_commitment_are_never_verified(
        tmp_path: Path, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``commit --abandon`` while the key file is there is refused unless --force; the throws
    drawn under the abandoned commitment are named as unverifiable by ``verify`` of the bundle
    (exit 1 unless --allow-unverified) and by the letter (issue 27 item 7)."""
    keys = str(tmp_path / "keys")
    imported(tmp_path, spec, capsys)
    awaiting_the_reroll(capsys, spec)
    as_json(capsys, "commit", GAME_ID, "--keys", keys, "--store", spec)
    rolls = as_json(capsys, "roll", GAME_ID, "--battle", "W Europe", "--keys", keys, "--store", spec)["rolls"]
    before = stored(spec)
    code, _, err = run(capsys, "commit", GAME_ID, "--abandon", "--keys", keys, "--store", spec)
    assert code == 2 and "is still in" in err and "--force" in err, err
    assert stored(spec) == before
    as_json(capsys, "commit", GAME_ID, "--abandon", "--force", "--keys", keys, "--store", spec)

    letter = " ".join(run(capsys, "letter", GAME_ID, "--store", spec)[1].split())  # wrapped at 78 columns
    for roll in rolls:
        assert (f"roll #{roll['sequence']}, West Europe, {roll['purpose']}: "
                f"{' '.join(map(str, roll['dice']))} — UNVERIFIABLE") in letter, letter
    assert "was abandoned without its secret being revealed" in letter
    assert "These dice cannot be checked by anyone" in letter

    bundle = tmp_path / "abandoned.json"
    assert run(capsys, "bundle", GAME_ID, "-o", str(bundle), "--store", spec)[0] == 0
    code, out, _ = run(capsys, "verify", str(bundle))
    assert code == 1 and f"{len(rolls)} rolls cannot be checked" in out, out
    assert out.count("abandoned unrevealed: it can never be checked") == len(rolls)
    code, out, _ = run(capsys, "verify", str(bundle), "--allow-unverified")
    assert code == 0 and "every part holds" in out and "can never be checked" in out, out


def test_verify_compares_the_head_the_player_holds(tmp_path: Path, spec: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``verify --head HASH`` of a bundle, a replay file or a stored game: the player's head
    must be the record's; events added after it are counted, a head of another record means a
    rewrite (exit 1, saying which); a malformed head is bad input (issue 26 item 4, 27 item 6)."""
    imported(tmp_path, spec, capsys)
    held = run(capsys, "export", GAME_ID, "--store", spec)[1]
    old_head = held.split('head = "')[1].split('"')[0]
    run(capsys, "report", GAME_ID, "--by", "Germany", "--text", "later", "--store", spec)
    run(capsys, "report", GAME_ID, "--by", "Germany", "--text", "later still", "--store", spec)
    bundle, record = tmp_path / "b.json", tmp_path / "record.toml"
    assert run(capsys, "bundle", GAME_ID, "-o", str(bundle), "--store", spec)[0] == 0
    record.write_text(run(capsys, "export", GAME_ID, "--store", spec)[1], encoding="utf-8")
    head = json.loads(bundle.read_text(encoding="utf-8"))["head"]
    for target in ([str(bundle)], [str(record)], ["--integrity", GAME_ID, "--store", spec]):
        code, out, _ = run(capsys, "verify", *target, "--head", old_head)
        assert code == 1 and "2 events were added after the head you hold" in out, (target, out)
        assert "events 5 to 6 came after it" in out, out
        code, out, _ = run(capsys, "verify", *target, "--head", "ab" * 32)
        assert code == 1 and "rewritten or cut short" in out, (target, out)
        assert run(capsys, "verify", *target, "--head", head)[0] == 0, target
        code, _, err = run(capsys, "verify", *target, "--head", "0000")
        assert code == 2 and "expected the 64 hex digits" in err, (target, err)
    code, _, err = run(capsys, "verify", "--dice", GAME_ID, "--head", head, "--store", spec)
    assert code == 2 and "expected one thing to compare it with" in err, err


def test_bundles_are_capped_in_size_and_nesting(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A 100 MB bundle is refused before it is read, a 100,000-deep one without recursing, a
    part nested deeper than an event's fields names its key; each exit 2, no traceback (issue 26
    item 5). A bundle above the limit is never written."""
    import time

    from application.usecases.desk import bundle as bundles

    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:  # sparse: 100 MB on paper, nothing to read
        out.write(b'{"format": "minister-bundle/1", ')
        out.truncate(100 * 2**20)
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "minister-bundle/1", "draws": ' + "[" * 100_000 + "]" * 100_000 + "}")
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps({"format": "minister-bundle/1", "game": "g", "events": 1, "head": "0",
                                  **{k: [] for k in ("commitments", "reveals", "entered_dice", "reports",
                                                     "rulings", "withdrawals")},
                                  "draws": [{"dice": [[6]]}], "letter": "", "record": ""}))
    for path, expected in ((huge, "over the limit of 64 MB"), (deep, "not a minister-bundle/1 bundle"),
                           (nested, "at `$.draws[0][...][0]`")):
        started = time.monotonic()
        code, out, err = run(capsys, "verify", str(path))
        assert code == 2 and expected in err and "Traceback" not in err, (path, out, err)
        assert time.monotonic() - started < 10
    spec = f"sqlite:{tmp_path / 'store.sqlite3'}"
    imported(tmp_path, spec, capsys)
    monkeypatch.setattr(bundles, "MAX_BUNDLE_BYTES", 2_000)
    written = tmp_path / "big.json"
    code, _, err = run(capsys, "bundle", GAME_ID, "-o", str(written), "--store", spec)
    assert code == 2 and "over the limit" in err and "nothing written" in err and not written.exists()


def test_the_letter_and_the_bundle_are_made_from_the_events_never_from_the_stored_rows(
        tmp_path: Path, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Derived rows are a cache, never evidence (docs/reliability.md): with the stored review's
    findings of the game as corrected forged away (a valid row at the game's head and engine, so
    a reader of the rows is served the forgery), ``letter`` and the bundle's letter are still
    the events' own, every dispute in them."""
    from msgspec.structs import replace

    from application.adapters.review_store import head_of, save
    from application.adapters.stores import open_store
    from application.usecases.review_model import CORRECTED, _rows, review_histories
    from application.usecases.stored_game import reviewed_views

    path = Path(__file__).resolve().parents[2] / "replays" / "games" / "six-rounds-2008.toml"
    assert run(capsys, "import", str(path), "--store", spec)[0] == 0
    code, honest, err = run(capsys, "letter", "six-rounds-2008", "--store", spec)
    assert code == 0 and "defenders_misdeclared" not in honest and "Section II" in honest, err
    app = open_store(spec)
    try:
        head = head_of(app, "six-rounds-2008")
        assert head is not None
        game = app.game("six-rounds-2008")
        views = {name: replace(view, findings=()) for name, view in review_histories(game).items()}
        save(app, "six-rounds-2008", head, *_rows(app, "six-rounds-2008", views))
        assert reviewed_views(app, "six-rounds-2008", game)[CORRECTED].findings == ()  # the rows lie
    finally:
        app.close()
    code, letter, err = run(capsys, "letter", "six-rounds-2008", "--store", spec)
    assert (code, letter) == (0, honest), err
    bundle = tmp_path / "game.bundle"
    assert run(capsys, "bundle", "six-rounds-2008", "-o", str(bundle), "--store", spec)[0] == 0
    assert json.loads(bundle.read_text(encoding="utf-8"))["letter"] == honest
