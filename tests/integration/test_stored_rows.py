"""The stored review's battle rows (application/usecases/review_model.py, review_store.py): what a
refresh rewrites, and readers putting the rows back together byte for byte.

A correction of an early battle that changes its result moves the board on from there, so a
later battle on the same territory, whose defenders are read from the board, is reviewed again
and its row rewritten (rules matrix, Consequences: "a corrected battle's result flows into later
positions"); a desk event that changes no battle's view rewrites no battle row.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

from application.adapters import review_store
from application.adapters.review_store import HistoryRows, forget
from application.adapters.stores import open_store
from application.intake.replayfile import load_replay
from application.usecases.review_model import (
    AS_ROLLED,
    CORRECTED,
    KINDS,
    product,
    products,
    stored,
    stored_view,
)
from application.usecases.review_model import refresh as keep
from domain.record.events import ReportFiled, RulingIssued
from projections.board_map import battle_places
from tests.integration.store_helpers import generated

ROOT = Path(__file__).resolve().parents[2]


def _written(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, HistoryRows]]:
    """Every save's battle rows, as they are written."""
    saves: list[dict[str, HistoryRows]] = []
    real = review_store.save

    def spy(app: Any, game_id: str, head: Any, made: Any, battles: Any = None) -> None:
        saves.append(dict(battles or {}))
        real(app, game_id, head, made, battles)

    monkeypatch.setattr("application.usecases.review_model.save", spy)
    return saves


def test_a_ruling_that_changes_the_board_rewrites_the_later_battles(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    replay = load_replay(ROOT / "replays" / "consequences" / "corrected-result-flows-2008.toml")
    app = open_store(f"sqlite:{tmp_path / 'store.sqlite3'}")
    app.record(replay.events)  # USSR 3 corrected: the USSR takes Ukraine, Germany 3 retakes it
    keep(app, replay.game_id)
    before = msgspec.json.decode(stored(app, replay.game_id, "json") or b"")
    game = app.game(replay.game_id)
    saves = _written(monkeypatch)
    app = open_store(f"sqlite:{tmp_path / 'store.sqlite3'}")  # the desk command's own process
    when = game.moments[-1] + timedelta(minutes=5)
    app.record([RulingIssued(originator_id=game.id, originator_version=game.version + 1, timestamp=when,
                             at=when, finding="F1", decision="dismiss", text="the report came too late")])
    keep(app, replay.game_id)
    # Dismissed, USSR 3 stands as rolled (Germany keeps Ukraine): its row is rewritten, and so is
    # Germany 3's, whose board is read after USSR 3's (corrected) result.
    assert sorted(saves[0][CORRECTED].rows) == [0, 1]
    after = msgspec.json.decode(stored(app, replay.game_id, "json") or b"")
    assert [b["result"]["winner"] for b in after["battles"]] == ["defender", "attacker"]
    assert before["battles"][0]["result"]["winner"] == "attacker"
    full = products(app.game(replay.game_id))
    for kind in KINDS:
        assert stored(app, replay.game_id, kind) == full[kind], kind
    # Germany 3 is declared on the board after USSR 3's corrected result: Germany holds Ukraine.
    view = stored_view(app, replay.game_id)
    assert battle_places(view, 1)[0].holder_before == "Germany"


def test_a_report_that_changes_no_battle_rewrites_no_battle_row(monkeypatch: pytest.MonkeyPatch) -> None:
    replay = generated(300, 4)
    app = open_store("memory:")
    app.record(replay.events)
    keep(app, replay.game_id)
    game = app.game(replay.game_id)
    saves = _written(monkeypatch)
    app.record([ReportFiled(originator_id=game.id, originator_version=game.version + 1, by="UK",
                            text="a word on the game", timestamp=game.modified_on, at=game.modified_on)])
    keep(app, replay.game_id)
    assert {history: dict(rows.rows) for history, rows in saves[0].items()} == {CORRECTED: {}, AS_ROLLED: {}}
    full = products(app.game(replay.game_id))
    for kind in KINDS:
        assert stored(app, replay.game_id, kind) == full[kind], kind


def test_a_big_games_opening_part_is_its_first_rows() -> None:
    from projections.timeline import OPENING_BATTLES

    replay = generated(2000, 2)
    app = open_store("memory:")
    app.record(replay.events)
    keep(app, replay.game_id)
    full = products(app.game(replay.game_id))
    opening = msgspec.msgpack.decode(stored(app, replay.game_id, "view:opening") or b"")
    assert len(opening["battles"]) >= OPENING_BATTLES and stored(app, replay.game_id, "view:opening") == \
        full["view:opening"]


def test_the_opening_part_is_served_only_with_the_battle_rows_it_lists() -> None:
    """The opening row lists the digests of its battle rows (the first paint reads it without
    the history's part): a first row out of step with that list makes it stale, never served."""
    from projections.timeline import OPENING_BATTLES

    replay = generated(2000, 2)
    app = open_store("memory:")
    app.record(replay.events)
    keep(app, replay.game_id)
    table: Any = app.recorder._minister_reviews  # type: ignore[attr-defined]
    rows = table.battles[(replay.game_id, CORRECTED)]
    assert len(rows) > OPENING_BATTLES and rows[0][2].digest != rows[1][2].digest
    rows[0] = rows[1]  # the first battle's row put in the place of the second's
    assert stored(app, replay.game_id, "view:opening") is None
    assert stored(app, replay.game_id, "view:corrected") is None  # the history's list says so too
    made = products(app.game(replay.game_id))["view:opening"]
    assert product(app, replay.game_id, "view:opening") == made  # made again, and the rows rewritten
    assert stored(app, replay.game_id, "view:opening") == made


def test_rows_missing_or_of_another_engine_are_never_served(monkeypatch: pytest.MonkeyPatch) -> None:
    replay = generated(200, 3)
    app = open_store("memory:")
    app.record(replay.events)
    keep(app, replay.game_id)
    assert stored(app, replay.game_id, "json") is not None
    table: Any = app.recorder._minister_reviews  # type: ignore[attr-defined]
    rows = table.battles[(replay.game_id, CORRECTED)]
    del rows[max(rows)]  # a battle row lost: the stored history no longer adds up
    assert stored(app, replay.game_id, "json") is None
    assert stored(app, replay.game_id, "json:as_rolled") is not None
    monkeypatch.setattr("application.adapters.review_store.engine_version", lambda: "a later engine")
    assert stored(app, replay.game_id, "json:as_rolled") is None
    with pytest.raises(ValueError, match="no product 'findings'"):
        stored(app, replay.game_id, "findings")
    forget(app, replay.game_id)
    assert table.battles == {} or all(key[0] != replay.game_id for key in table.battles)


def test_rows_of_an_earlier_engine_are_dropped_when_the_review_is_stored_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    replay = generated(120, 5)
    app = open_store(f"sqlite:{tmp_path / 'store.sqlite3'}")
    app.record(replay.events)
    head = review_store.head_of(app, replay.game_id)
    assert head is not None
    with monkeypatch.context() as patched:  # minister 1 kept the report whole, as one row
        patched.setattr("application.adapters.review_store.engine_version", lambda: "1:an earlier engine")
        review_store.save(app, replay.game_id, head, {"json": b"the whole report"})
    assert review_store.load(app, replay.game_id, "json") is None  # never served: another engine
    keep(app, replay.game_id)
    products_now, battles = review_store.copy_of(app, replay.game_id)
    assert "json" not in products_now and set(battles) == {CORRECTED, AS_ROLLED}
    assert stored(app, replay.game_id, "json") == products(app.game(replay.game_id))["json"]


def test_a_battle_row_out_of_step_with_its_list_is_written_again_by_the_next_reader(tmp_path: Path) -> None:
    """A refresh takes the stored battle rows to be those the history's stored part lists (one
    row read, not thousands). A row some other writer left out of step with the list makes the
    stored review stale for readers, and the reader that finds it so writes it again: the next
    reader gets the stored review whole."""
    from application.adapters.review_tables import BattleRow

    replay = generated(120, 5)
    app = open_store(f"sqlite:{tmp_path / 'store.sqlite3'}")
    app.record(replay.events)
    keep(app, replay.game_id)
    head = review_store.head_of(app, replay.game_id)
    assert head is not None
    full = products(app.game(replay.game_id))
    assert stored(app, replay.game_id, "json") == full["json"]
    wrong = BattleRow(b"\x00" * 16, (b"not a view", b"{}", b"nothing"))
    review_store.save(app, replay.game_id, head, {}, {CORRECTED: HistoryRows(
        len(stored_view(app, replay.game_id).battles), {0: wrong})})
    assert stored(app, replay.game_id, "json") is None  # out of step: stale, never served
    keep(app, replay.game_id)  # a desk command's refresh trusts the list: the row stays wrong
    assert stored(app, replay.game_id, "json") is None
    assert product(app, replay.game_id, "json") == full["json"]  # the reader reviews, rewrites it
    for kind in KINDS:
        assert stored(app, replay.game_id, kind) == full[kind], kind
