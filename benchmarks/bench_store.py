"""Store benchmarks (issue 3): rebuild throughput, the mapper, time travel, snapshot intervals.

All figures come from one run on one generated 10,000-event game (benchmarks/gen_game.py) in
SQLite files under a temporary folder:

* floor: a raw ``SELECT topic, state`` of the game's rows plus msgspec decoding (no fold);
* rebuild: the game folded from SQLite through eventsourcing with :class:`MsgspecMapper`;
* default mapper: the same events as plain eventsourcing events stored with eventsourcing's
  default ``Mapper`` and ``JSONTranscoder``, read back, plus the same fold (its time is the
  measured fold time: the fold is the same code whichever mapper decoded the events);
* time travel: the game at random versions (seeded) through snapshots, against a full rebuild;
* snapshot intervals: time travel and snapshot storage for several intervals.

``python -m benchmarks.bench_store [EVENTS]`` prints the lines :func:`run` returns.
"""

from __future__ import annotations

import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder, Transcoding

from application.app import MinisterApplication
from application.mapper import decode_event
from application.replayfile import Replay, parse_replay
from application.stores import open_store
from application.timetravel import SNAPSHOT_INTERVAL, no_gc, stored_events
from benchmarks.gen_game import generate_replay
from domain.events import GameEvent, game_uuid
from domain.forces import Force
from domain.game import Game, project_game
from domain.units import UnitType

N_EVENTS = 10_000
SEED = 1
INTERVALS = (50, 100, 250, 500, 1000)
POINTS = 100
TABLE_POINTS = 40


def _timed(action: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The best of ``repeat`` runs (seconds) and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        result = None  # the previous result is freed outside the timing
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


# -- eventsourcing's default mapper on equivalent events ----------------------------------------
class PlainEvent:
    """An event as eventsourcing's default Mapper expects: attributes in ``__dict__``."""

    originator_id: UUID
    originator_version: int


_PLAIN: dict[type[GameEvent], type[PlainEvent]] = {}


def _plain_class(cls: type[GameEvent]) -> type[PlainEvent]:
    if cls not in _PLAIN:
        plain = type(f"Plain{cls.__name__}", (PlainEvent,), {"__module__": __name__})
        globals()[plain.__name__] = plain  # so eventsourcing's resolve_topic finds it
        _PLAIN[cls] = plain
    return _PLAIN[cls]


def plain_event(event: GameEvent) -> PlainEvent:
    """The same event as a plain object with the same field values."""
    plain = object.__new__(_plain_class(type(event)))
    plain.__dict__.update({name: getattr(event, name) for name in event.__struct_fields__})
    return plain


class ForceAsList(Transcoding):
    """Force <-> [[unit, count], ...] for the JSON transcoder."""

    type = Force
    name = "force"

    def encode(self, obj: Any) -> list[list[Any]]:
        return [[unit.value, count] for unit, count in obj.items]

    def decode(self, data: Any) -> Force:
        return Force(tuple((UnitType(unit), count) for unit, count in data))


class StructAsDict(Transcoding):
    """A nested msgspec Struct (Holding, BattleFacts, Move, ...) <-> dict for the JSON transcoder."""

    def __init__(self, cls: type[msgspec.Struct]) -> None:
        self.type = cls
        self.name = cls.__name__

    def encode(self, obj: Any) -> dict[str, Any]:
        return {name: getattr(obj, name) for name in obj.__struct_fields__}

    def decode(self, data: Any) -> Any:
        return self.type(**data)


def nested_structs(events: list[GameEvent]) -> set[type[msgspec.Struct]]:
    """Every Struct type (other than Force) found inside the events' fields."""
    found: set[type[msgspec.Struct]] = set()

    def walk(value: Any) -> None:
        if isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, msgspec.Struct) and not isinstance(value, Force):
            if not isinstance(value, GameEvent):
                found.add(type(value))
            for name in value.__struct_fields__:
                walk(getattr(value, name))

    for event in events:
        walk(event)
    return found


class DefaultMapperApplication(Application[UUID]):
    """eventsourcing's defaults (Mapper, JSONTranscoder) with transcodings for minister's values."""

    name = "plain"
    env: ClassVar[dict[str, str]] = {}
    structs: ClassVar[set[type[msgspec.Struct]]] = set()

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(ForceAsList())
        for cls in self.structs:
            transcoder.register(StructAsDict(cls))


# -- measurements -------------------------------------------------------------------------------
@contextmanager
def _sqlite_app(path: Path, interval: int) -> Iterator[MinisterApplication]:
    app = open_store(f"sqlite:{path}")
    app.snapshot_interval = interval
    try:
        yield app
    finally:
        app.close()


def _floor(path: Path, originator_id: UUID) -> list[GameEvent]:
    with sqlite3.connect(path) as connection, no_gc():
        rows = connection.execute("SELECT topic, state FROM stored_events WHERE originator_id=? "
                                  "ORDER BY originator_version", (originator_id.hex,)).fetchall()
        return [decode_event(topic, state) for topic, state in rows]


def _decode_state(state: bytes) -> Game:
    with no_gc():
        return msgspec.msgpack.decode(state, type=Game)


def _read(app: MinisterApplication, originator_id: UUID) -> list[GameEvent]:
    with no_gc():
        return stored_events(app, originator_id)


def _rebuild(app: MinisterApplication, originator_id: UUID) -> Game | None:
    with no_gc():
        return project_game(None, stored_events(app, originator_id))


def _fold(events: list[GameEvent]) -> Game | None:
    with no_gc():
        return project_game(None, events)


def _fold_by_kind(events: list[GameEvent]) -> dict[str, tuple[int, float]]:
    """Per kind of event: how many, and the milliseconds the fold spends on them in all."""
    spent: dict[str, list[float]] = defaultdict(list)
    game: Game | None = None
    with no_gc():
        for event in events:
            before = time.perf_counter()
            game = project_game(game, (event,))
            spent[type(event).__name__].append(time.perf_counter() - before)
    return {kind: (len(times), 1000 * sum(times)) for kind, times in spent.items()}


def _travel(app: MinisterApplication, game_id: str, points: int, seed: int) -> list[float]:
    """Milliseconds to open the game at ``points`` random versions."""
    rng = random.Random(seed)
    spent = []
    for _ in range(points):
        version = rng.randint(1, N_EVENTS)
        start = time.perf_counter()
        game = app.game_at(game_id, version=version)
        spent.append(1000 * (time.perf_counter() - start))
        assert game.version == version
        del game
    return spent


def _snapshot_bytes(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        found = connection.execute("SELECT COALESCE(SUM(LENGTH(state)), 0) FROM stored_snapshots")
        return int(found.fetchone()[0])


def _mappers(folder: Path, replay: Replay, lines: list[str]) -> tuple[float, Game | None]:
    """Floor, rebuild and default mapper figures; returns the full rebuild time."""
    originator_id = game_uuid(replay.game_id)
    path = folder / "events.sqlite3"
    with _sqlite_app(path, 10 * N_EVENTS) as app:  # no snapshot: rebuilds fold every event
        app.record(replay.events)
        floor, events = _timed(lambda: _floor(path, originator_id))
        rebuild, game = _timed(lambda: _rebuild(app, originator_id))
        read, _ = _timed(lambda: _read(app, originator_id))
    fold, _ = _timed(lambda: _fold(events))
    per_kind = _fold_by_kind(events)
    plain_path = folder / "plain.sqlite3"
    DefaultMapperApplication.structs = nested_structs(events)
    plain_app = DefaultMapperApplication(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                              "SQLITE_DBNAME": str(plain_path)})
    plain_app.recorder.insert_events([plain_app.mapper.to_stored_event(plain_event(e))
                                      for e in events])

    def read_plain() -> list[Any]:
        with no_gc():
            return list(plain_app.events.get(originator_id))

    plain_read, plain = _timed(read_plain)
    plain_app.close()
    assert len(plain) == len(events) == N_EVENTS
    assert game is not None
    state = msgspec.msgpack.encode(game)
    decode, _ = _timed(lambda: _decode_state(state))
    rate = N_EVENTS / rebuild
    lines += [
        f"floor (SELECT + msgspec decode, no fold): {N_EVENTS / floor:,.0f} events/s "
        f"({1000 * floor:.1f} ms)",
        f"rebuild (SQLite + eventsourcing + MsgspecMapper + fold): {rate:,.0f} events/s "
        f"({1000 * rebuild:.1f} ms) = {rebuild and floor / rebuild:.0%} of the floor (target >= 50%)",
        f"default mapper (SQLite + eventsourcing + JSONTranscoder, same fold): "
        f"{N_EVENTS / (plain_read + fold):,.0f} events/s ({1000 * (plain_read + fold):.1f} ms); "
        f"rebuild is {(plain_read + fold) / rebuild:.2f}x faster (target >= 3x)",
        f"reading alone (SQLite + eventsourcing + mapper, no fold): MsgspecMapper {1000 * read:.1f} ms, "
        f"default mapper {1000 * plain_read:.1f} ms = {plain_read / read:.1f}x",
        f"fold alone (domain.game.project_game): {1000 * fold:.1f} ms = {fold / rebuild:.0%} of the "
        "rebuild; by kind (events: ms in all, us each): " + ", ".join(
            f"{kind} {count}: {ms:.0f}, {1000 * ms / count:.0f}" for kind, (count, ms)
            in sorted(per_kind.items(), key=lambda item: -item[1][1])),
        f"snapshot of the final state: {len(state) / 1e6:.1f} MB, decoded in {1000 * decode:.1f} ms "
        "(what time travel near the end costs at least)",
    ]
    return rebuild, game


def run() -> list[str]:
    """Every figure of the store benchmark, one line each."""
    lines = [f"store benchmark: generated game of {N_EVENTS:,} events (seed {SEED}), SQLite"]
    start = time.perf_counter()
    replay = parse_replay(generate_replay(N_EVENTS, SEED), "generated.toml")
    lines.append(f"generate + parse + check the replay: {time.perf_counter() - start:.2f} s")
    with tempfile.TemporaryDirectory(prefix="minister-bench-") as name:
        folder = Path(name)
        rebuild, _ = _mappers(folder, replay, lines)
        lines.append(f"snapshot intervals (time travel to {TABLE_POINTS} random versions; "
                     f"import = record + snapshots):")
        for interval in INTERVALS:
            path = folder / f"interval-{interval}.sqlite3"
            with _sqlite_app(path, interval) as app:
                start = time.perf_counter()
                app.record(replay.events)
                imported = time.perf_counter() - start
                spent = _travel(app, replay.game_id, TABLE_POINTS if interval != SNAPSHOT_INTERVAL
                                else POINTS, seed=interval)
                if interval == SNAPSHOT_INTERVAL:
                    chosen = spent
                    at_spent = _travel_by_time(app, replay)
            lines.append(f"  every {interval:>3} events: median {statistics.median(spent):5.1f} ms, "
                         f"p90 {_p90(spent):5.1f} ms, snapshots {_snapshot_bytes(path) / 1e6:6.1f} MB, "
                         f"import {imported:.2f} s" + ("  <- SNAPSHOT_INTERVAL" if interval ==
                                                       SNAPSHOT_INTERVAL else ""))
    median = statistics.median(chosen)
    lines += [
        f"time travel by version ({POINTS} random points, interval {SNAPSHOT_INTERVAL}): median "
        f"{median:.1f} ms, p90 {_p90(chosen):.1f} ms (target <= 5 ms); full rebuild "
        f"{1000 * rebuild:.1f} ms = {1000 * rebuild / median:.0f}x slower",
        f"time travel by time (binary search on event times, then by version): median "
        f"{statistics.median(at_spent):.1f} ms",
    ]
    return lines


def _travel_by_time(app: MinisterApplication, replay: Replay) -> list[float]:
    rng = random.Random(SEED)
    spent = []
    for _ in range(TABLE_POINTS):
        event = replay.events[rng.randrange(N_EVENTS)]
        assert event.at is not None
        start = time.perf_counter()
        game = app.game_at(replay.game_id, at=event.at)
        spent.append(1000 * (time.perf_counter() - start))
        assert game.modified_on <= event.at
        del game
    return spent


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


if __name__ == "__main__":
    if len(sys.argv) > 1:
        N_EVENTS = int(sys.argv[1])
    for line in run():
        print(line, flush=True)
