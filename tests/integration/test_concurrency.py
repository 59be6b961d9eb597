"""Two writer processes appending to one game lose no event (SQLite and PostgreSQL)."""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from application.adapters.integrity import check_game
from application.adapters.stores import open_store
from application.usecases.dicecmd import check_dice
from application.usecases.transfer import import_replay
from domain.record.events import DiceDrawn, ReportFiled
from tests.integration.store_helpers import generated, postgres_schema, write_events

WRITERS = ("w1", "w2")
EACH = 50
GAME_EVENTS = 40


@pytest.fixture
def sqlite_spec(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:{tmp_path / 'shared.sqlite3'}"


@pytest.fixture
def postgres_spec() -> Iterator[str]:
    with postgres_schema() as spec:
        yield spec


def _race(spec: str) -> None:
    replay = generated(GAME_EVENTS, 41)
    app = open_store(spec)
    import_replay(app, replay)  # also creates the tables before the writers start
    app.close()
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(len(WRITERS))
    writers = [context.Process(target=write_events, args=(spec, replay.game_id, name, EACH, start))
               for name in WRITERS]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(300)
    assert [writer.exitcode for writer in writers] == [0, 0]

    app = open_store(spec)
    try:
        events = app.game_events(replay.game_id)
        total = GAME_EVENTS + EACH * len(WRITERS)
        assert [e.originator_version for e in events] == list(range(1, total + 1))
        tags = Counter(e.purpose if isinstance(e, DiceDrawn) else e.text
                       for e in events[GAME_EVENTS:] if isinstance(e, DiceDrawn | ReportFiled))
        assert tags == Counter(f"{name}-{index}" for name in WRITERS for index in range(EACH))
        drawn = [e for e in events if isinstance(e, DiceDrawn)]
        assert sorted(e.sequence for e in drawn) == list(range(EACH * len(WRITERS) // 2))
        assert check_dice(app, replay.game_id).ok
        assert check_game(app, replay.game_id).ok
        # Both writers really interleaved (otherwise this tested nothing concurrent).
        order = [e.purpose.split("-")[0] if isinstance(e, DiceDrawn) else getattr(e, "by", "")
                 for e in events[GAME_EVENTS:]]
        switches = sum(1 for a, b in pairwise(order) if a != b)
        assert switches >= 2, order
    finally:
        app.close()


@pytest.mark.slow
def test_two_writers_on_sqlite(sqlite_spec: str) -> None:
    _race(sqlite_spec)


@pytest.mark.slow
@pytest.mark.postgres
def test_two_writers_on_postgres(postgres_spec: str) -> None:
    _race(postgres_spec)
