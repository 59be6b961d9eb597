"""An evidence bundle is a read-only store (issue 27 item 8): the accused player, with no store,
reads it with ``letter``, ``replay``, ``export``, ``chart`` and ``show`` (its timeline source)
once the bundle's own checks hold; a bundle that fails them is refused (exit 1) and nothing of
it is shown; reading one never writes anything (SQLite; PostgreSQL when
``MINISTER_TEST_POSTGRES`` names a server)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from application.adapters.stores import open_store
from domain.review.game_review import review
from tests.e2e.test_desk import GAME_ID, awaiting_the_reroll, imported, run
from tests.integration.store_helpers import postgres_schema
from tui.loading import FileSource


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:{tmp_path / 'store.sqlite3'}"
    else:
        with postgres_schema() as url:
            yield url


@pytest.fixture
def no_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The accused player's machine: no store configured, an empty data folder."""
    data = tmp_path / "elsewhere"
    monkeypatch.delenv("MINISTER_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setenv("HOME", str(data))
    return data


def _bundle(tmp_path: Path, spec: str, capsys: pytest.CaptureFixture[str]) -> Path:
    imported(tmp_path, spec, capsys)
    awaiting_the_reroll(capsys, spec)
    path = tmp_path / "job.bundle"
    assert run(capsys, "bundle", GAME_ID, "-o", str(path), "--store", spec)[0] == 0
    return path


def test_a_bundle_reads_as_its_game(tmp_path: Path, spec: str, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = _bundle(tmp_path, spec, capsys)
    stored = {name: run(capsys, *args, "--store", spec)[1] for name, args in (
        ("letter", ("letter", GAME_ID)), ("markdown", ("letter", GAME_ID, "--format", "markdown")),
        ("replay", ("replay", GAME_ID, "--json")), ("as_rolled", ("replay", GAME_ID, "--as-rolled")),
        ("export", ("export", GAME_ID)))}
    app = open_store(spec)
    try:
        reviewed = msgspec.msgpack.encode(review(app.game(GAME_ID)))
    finally:
        app.close()
    data = tmp_path / "elsewhere"
    monkeypatch.delenv("MINISTER_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setenv("HOME", str(data))
    read = {name: run(capsys, *args) for name, args in (
        ("letter", ("letter", str(path))), ("markdown", ("letter", str(path), "--format", "markdown")),
        ("replay", ("replay", str(path), "--json")), ("as_rolled", ("replay", str(path), "--as-rolled")),
        ("export", ("export", str(path))))}
    for name, (code, out, err) in read.items():
        assert code == 0, (name, err)
        assert out == stored[name], name  # the same game the store holds
    assert json.loads(read["replay"][1])["battles"][0]["status"] == "awaiting"
    # The timeline and the chart read it too.
    source = FileSource(str(path))
    assert msgspec.msgpack.encode(source.corrected(lambda stage, done: None)) == reviewed
    assert run(capsys, "chart", str(path), "-o", str(tmp_path / "story.svg"))[0] == 0
    assert not data.exists()  # read only: no store, no data folder made


def test_a_bundle_that_fails_its_checks_is_not_shown(tmp_path: Path, spec: str, no_store: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = _bundle(tmp_path, spec, capsys)
    bundle = json.loads(path.read_text(encoding="utf-8"))
    forged = tmp_path / "forged.bundle"
    bundle["record"] = bundle["record"].replace("18:30:00", "18:31:00", 1)
    forged.write_text(json.dumps(bundle), encoding="utf-8")
    for args in (("letter", str(forged)), ("replay", str(forged)), ("replay", str(forged), "--json"),
                 ("export", str(forged)), ("chart", str(forged), "-o", str(tmp_path / "x.svg"))):
        code, out, err = run(capsys, *args)
        assert code == 1 and out == "", args
        assert f"{forged}: the bundle fails its own checks (record:" in err, (args, err)
    assert not (tmp_path / "x.svg").exists() and not no_store.exists()
    # Its letter changed by hand: the bundle no longer holds, whatever its record says.
    bundle = json.loads(path.read_text(encoding="utf-8"))
    bundle["letter"] = bundle["letter"].replace("Dear players,", "Dear Germany,")
    forged.write_text(json.dumps(bundle), encoding="utf-8")
    code, out, err = run(capsys, "letter", str(forged))
    assert code == 1 and out == "" and "(letter line" in err
