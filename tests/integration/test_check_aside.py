"""The stored record's check begun in a child process (``services.check_stored_aside``): what
``minister show`` does so Textual loads meanwhile (issue 25: the first paint of a long game),
with nothing shown before the verdict, and a damaged record refused naming the event, as the
check made at once refuses it (issue 26), on SQLite and PostgreSQL (a memory store lives in
one process only: no child could read it).
"""

from __future__ import annotations

import os
import threading

import pytest

from application.adapters.damage import TamperedError
from application.adapters.stores import open_store
from application.usecases.services import check_stored_aside
from application.usecases.transfer import import_replay
from tests.integration.store_helpers import PostgresSpec, RawRows, SQLiteSpec, generated

GAME = "generated-40-81"


def stored(spec: str, damage: str | None = None) -> None:
    """The game stored, then (``damage``) one row changed as someone holding the database would."""
    app = open_store(spec)
    try:
        import_replay(app, generated(40, 81))
        raw = RawRows(app)
        if damage == "edited":  # the chain is not recomputed: it breaks at event 12
            raw.edit(GAME, 12, source_line=999)
        elif damage == "forged":  # a field of the wrong type, the chain recomputed after it
            raw.edit(GAME, 12, at="not a time")
            raw.rechain(GAME)
    finally:
        app.close()


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The children forked (their process ids), counted in the parent."""
    forked: list[int] = []
    fork = os.fork

    def counted() -> int:
        child = fork()
        if child:
            forked.append(child)
        return child

    monkeypatch.setattr(os, "fork", counted)
    return forked


class CheckAsideContract:
    def test_an_intact_record_passes_its_check_made_in_a_child(self, spec: str, forks: list[int]) -> None:
        stored(spec)
        verdict = check_stored_aside(GAME, store=spec)
        assert len(forks) == 1
        verdict()  # passes: nothing raised

    @pytest.mark.parametrize("damage", ["edited", "forged"])
    def test_a_damaged_record_is_refused_at_the_verdict_naming_the_event(
            self, spec: str, forks: list[int], damage: str) -> None:
        stored(spec, damage)
        verdict = check_stored_aside(GAME, store=spec)  # the caller loads what it will show meanwhile
        assert len(forks) == 1
        with pytest.raises(TamperedError, match=r"stored event 12 \("):
            verdict()

    def test_with_threads_running_the_check_is_made_at_once(self, spec: str, forks: list[int]) -> None:
        stored(spec, "edited")
        done = threading.Event()
        waiting = threading.Thread(target=done.wait)
        waiting.start()
        try:
            with pytest.raises(TamperedError, match=r"stored event 12 \("):
                check_stored_aside(GAME, store=spec)  # a fork would copy the thread half-way
        finally:
            done.set()
            waiting.join()
        assert forks == []


class TestSQLiteCheckAside(SQLiteSpec, CheckAsideContract):
    pass


class TestPostgresCheckAside(PostgresSpec, CheckAsideContract):
    pass
