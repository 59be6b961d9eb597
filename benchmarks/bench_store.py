"""Store benchmarks (issue 3): rebuild throughput, the mapper, time travel, snapshot intervals.

All figures come from one run on one generated 10,000-event game (benchmarks/gen_game.py) in
SQLite files under a temporary folder. The machines are shared and noisy, so the figures that
are compared with each other are timed in interleaved rounds (best of each):

* floor: the adapter's raw ``SELECT topic, state`` of the game's rows
  (:func:`application.adapters.eventstore.read_states`) plus msgspec decoding, one decoder per
  topic called directly (no fold, no generator): the least any rebuild must do;
* rebuild (the target's figure): the application's own rebuild without snapshots,
  :func:`application.adapters.timetravel.state_at`, which reads rows through
  application/adapters/eventstore.py
  (one SELECT on the recorder's connection, msgspec decoding) and folds them as they come;
* rebuild through eventsourcing: ``app.events.get`` (eventsourcing's EventStore, StoredEvent
  objects, :class:`MsgspecMapper`) plus the same fold, for comparison;
* default mapper: the same events as plain eventsourcing events stored with eventsourcing's
  default ``Mapper`` and ``JSONTranscoder``, read back, plus the same fold (its time is the
  measured fold time: the fold is the same code whichever mapper decoded the events);
* time travel: the game at random versions (seeded) through ``MinisterApplication.game_at``:
  cold (the first look at the game in a process: the latest snapshot plus the events after it,
  then :meth:`domain.record.game.Game.at`) and warm (later looks: ``Game.at`` on the state kept in
  memory); every answer is checked to be a complete Game at that version;
* snapshot intervals: cold time travel, import time and snapshot storage for several intervals.

``python -m benchmarks.bench_store [EVENTS]`` prints the lines :func:`run` returns.
"""

from __future__ import annotations

import enum
import hashlib
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder, Transcoding

from application.adapters.app import MinisterApplication
from application.adapters.eventstore import raw_state_bytes, read_states, snapshots_of
from application.adapters.integrity import GENESIS, follow_chain
from application.adapters.mapper import decode_event, encode_event
from application.adapters.snapshots import decode_snapshot
from application.adapters.stores import open_store
from application.adapters.timetravel import SNAPSHOT_INTERVAL, state_at, stored_events
from application.intake.replayfile import Replay, parse_replay
from benchmarks.gen_game import generate_replay
from domain.memory import no_gc
from domain.record.events import TOPICS, GameEvent, game_uuid
from domain.record.game import Game, project_game
from domain.rules.forces import Force
from domain.rules.units import UnitType

N_EVENTS = 10_000
SEED = 1
INTERVALS = (100, 250, 500, 1000, 2500)
POINTS = 100
TABLE_POINTS = 12
ROUNDS = 7
#: Warm answers compared (untimed) with folding that many events, to show they are complete.
CHECKED = 5


#: Issue 25: cold time travel on this 10k game "back to <= 30 ms" (the whole chain is checked
#: from the genesis link on a cold look, docs/reliability.md: its parts are printed below it).
TARGET_COLD_MS = 30


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


def _interleaved(actions: dict[str, Callable[[], Any]], rounds: int = ROUNDS) -> dict[str, float]:
    """The best time (seconds) of each action over ``rounds`` rounds that run each in turn, so
    a noisy spell of the machine slows all of them alike."""
    best = dict.fromkeys(actions, float("inf"))
    for _ in range(rounds):
        for name, action in actions.items():
            result = None
            start = time.perf_counter()
            result = action()
            best[name] = min(best[name], time.perf_counter() - start)
            del result  # freed outside the timing
    return best


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


class EnumAsValue(Transcoding):
    """An enum member (UnitType, Side, ...) <-> its value for the JSON transcoder."""

    def __init__(self, cls: type[enum.Enum]) -> None:
        self.type = cls
        self.name = cls.__name__

    def encode(self, obj: Any) -> Any:
        return obj.value

    def decode(self, data: Any) -> Any:
        return self.type(data)


def nested_structs(events: Sequence[GameEvent]) -> set[type[msgspec.Struct]]:
    """Every Struct type (other than Force) found inside the events' fields."""
    found: set[type[msgspec.Struct]] = set()

    def walk(value: Any) -> None:
        if isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, msgspec.Struct) and not isinstance(value, Force):
            if not isinstance(value, GameEvent):
                found.add(type(value))
            for name in value.__struct_fields__:
                walk(getattr(value, name))

    for event in events:
        walk(event)
    return found


def nested_enums(events: Sequence[GameEvent]) -> set[type[enum.Enum]]:
    """Every non-str Enum type found inside the events' fields (str enums encode as strings)."""
    found: set[type[enum.Enum]] = set()

    def walk(value: Any) -> None:
        if isinstance(value, enum.Enum):
            if not isinstance(value, str):
                found.add(type(value))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, msgspec.Struct) and not isinstance(value, Force):
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
    enums: ClassVar[set[type[enum.Enum]]] = set()

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(ForceAsList())
        for cls in self.structs:
            transcoder.register(StructAsDict(cls))
        for kind in self.enums:
            transcoder.register(EnumAsValue(kind))


# -- measurements -------------------------------------------------------------------------------
@contextmanager
def _sqlite_app(path: Path, interval: int) -> Iterator[MinisterApplication]:
    app = open_store(f"sqlite:{path}")
    app.snapshot_interval = interval
    try:
        yield app
    finally:
        app.close()


#: The floor decodes with one msgspec decoder per topic, called directly (no function around it).
_DECODERS = {topic: msgspec.msgpack.Decoder(cls) for topic, cls in TOPICS.items()}


def _floor(app: MinisterApplication, originator_id: UUID) -> list[GameEvent]:
    """The least a rebuild must do: one SELECT on the store's connection, then decode each row."""
    with no_gc():
        rows = read_states(app, originator_id)
        decoders = _DECODERS
        return [decoders[topic].decode(state) for topic, state in rows]


def _decode_state(state: bytes) -> Game:
    with no_gc():
        return msgspec.msgpack.decode(state, type=Game)


def _read(app: MinisterApplication, originator_id: UUID) -> list[GameEvent]:
    with no_gc():
        return stored_events(app, originator_id)


def _read_eventsourcing(app: MinisterApplication, originator_id: UUID) -> list[Any]:
    with no_gc():
        return list(app.events.get(originator_id))


def _rebuild(app: MinisterApplication, originator_id: UUID) -> Game | None:
    """The application's rebuild when no snapshot helps (the store holds none here)."""
    return state_at(app, originator_id, None)


def _rebuild_eventsourcing(app: MinisterApplication, originator_id: UUID) -> Game | None:
    with no_gc():
        events: Iterator[Any] = app.events.get(originator_id)  # the mapper's GameEvents
        return project_game(None, events)


def _fold(events: Sequence[GameEvent]) -> Game | None:
    with no_gc():
        return project_game(None, events)


def _fold_by_kind(events: Sequence[GameEvent]) -> dict[str, tuple[int, float]]:
    """Per kind of event: how many, and the milliseconds the fold spends on them in all."""
    spent: dict[str, list[float]] = defaultdict(list)
    game: Game | None = None
    with no_gc():
        for event in events:
            before = time.perf_counter()
            game = project_game(game, (event,))
            spent[type(event).__name__].append(time.perf_counter() - before)
    return {kind: (len(times), 1000 * sum(times)) for kind, times in spent.items()}


def _same(game: Game, events: Sequence[GameEvent]) -> bool:
    """Whether ``game`` encodes exactly as folding ``events`` does."""
    return msgspec.msgpack.encode(game) == msgspec.msgpack.encode(project_game(None, events))


def _travel(app: MinisterApplication, replay: Replay, points: int, seed: int, *,
            cold: bool) -> list[float]:
    """Milliseconds to open the game at ``points`` random versions: each a first look at the
    game (``cold``: the application forgets the states it keeps before each), or not."""
    rng = random.Random(seed)
    spent = []
    checked: list[tuple[int, Game]] = []
    for _ in range(points):
        version = rng.randint(1, N_EVENTS)
        if cold:
            app.latest_games.forget()
        start = time.perf_counter()
        game = app.game_at(replay.game_id, version=version)
        spent.append(1000 * (time.perf_counter() - start))
        assert game.version == version
        if len(checked) < CHECKED:
            checked.append((version, game))
        del game
    for version, game in checked:  # untimed: each answer is the whole game at that version
        assert _same(game, replay.events[:version]), version
    return spent


def _travel_by_time(app: MinisterApplication, replay: Replay) -> list[float]:
    """Milliseconds to open the game at the times of random events (warm)."""
    rng = random.Random(SEED)
    spent = []
    for _ in range(POINTS):
        index = rng.randrange(N_EVENTS)
        event = replay.events[index]
        assert event.at is not None
        start = time.perf_counter()
        game = app.game_at(replay.game_id, at=event.at)
        spent.append(1000 * (time.perf_counter() - start))
        assert game.modified_on <= event.at and game.version >= index + 1
        del game
    return spent


def _cold_parts(app: MinisterApplication, game_id: str) -> str:
    """What a cold look spends, part by part (best of interleaved rounds, milliseconds): reading
    the game's rows, recomputing its chain from them (and hashing them alone: what no check of
    the chain can save), reading the latest snapshot and decoding it."""
    originator_id = game_uuid(game_id)
    states = read_states(app, originator_id)
    [snapshot] = snapshots_of(app, originator_id, desc=True, limit=1)

    def decode() -> Game | None:
        with no_gc():
            return decode_snapshot(snapshot)

    best = _interleaved({
        "reading the rows": lambda: read_states(app, originator_id),
        "the chain": lambda: follow_chain(game_id, states, GENESIS, 1),
        "hashing the rows alone": lambda: [hashlib.sha256(state).digest() for _, state in states],
        "reading the snapshot": lambda: snapshots_of(app, originator_id, desc=True, limit=1),
        "decoding it": decode,
    })
    return "  a cold look by parts: " + ", ".join(f"{name} {1000 * seconds:.1f} ms"
                                                  for name, seconds in best.items())


def _snapshot_bytes(app: MinisterApplication) -> int:
    return raw_state_bytes(app, snapshots=True)


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def _mappers(folder: Path, replay: Replay, lines: list[str]) -> float:
    """Floor, rebuild and default mapper figures; returns the full rebuild time."""
    originator_id = game_uuid(replay.game_id)
    path = folder / "events.sqlite3"
    events = replay.events
    plain_path = folder / "plain.sqlite3"
    DefaultMapperApplication.structs = nested_structs(events)
    DefaultMapperApplication.enums = nested_enums(events)
    plain_app = DefaultMapperApplication(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                              "SQLITE_DBNAME": str(plain_path)})
    plain_app.events.put([plain_event(e) for e in events])

    def read_plain() -> list[Any]:
        with no_gc():
            return list(plain_app.events.get(originator_id))

    with _sqlite_app(path, 10 * N_EVENTS) as app:
        app.record(events)  # no snapshot: rebuilds fold every event
        assert [decode_event(type(e).TOPIC, encode_event(e)) for e in events] == \
            _floor(app, originator_id)
        best = _interleaved({
            "floor": lambda: _floor(app, originator_id),
            "rebuild": lambda: _rebuild(app, originator_id),
            "read": lambda: _read(app, originator_id),
            "fold": lambda: _fold(events),
            "rebuild_es": lambda: _rebuild_eventsourcing(app, originator_id),
            "read_es": lambda: _read_eventsourcing(app, originator_id),
            "plain_read": read_plain,
        })
        game = _rebuild(app, originator_id)
        assert game is not None and _same(game, events)
        assert len(read_plain()) == len(events) == N_EVENTS
    plain_app.close()
    per_kind = _fold_by_kind(events)
    state = msgspec.msgpack.encode(game)
    decode, _ = _timed(lambda: _decode_state(state))
    floor, rebuild, fold = best["floor"], best["rebuild"], best["fold"]
    default = best["plain_read"] + fold

    def rate(seconds: float) -> str:
        return f"{N_EVENTS / seconds:,.0f} events/s ({1000 * seconds:.1f} ms)"

    lines += [
        f"floor (SELECT + msgspec decode, no fold): {rate(floor)}",
        f"rebuild (the application's: SQLite via application/reading.py + fold, no snapshot): "
        f"{rate(rebuild)} = {floor / rebuild:.0%} of the floor (target >= 50%)",
        f"rebuild through eventsourcing (EventStore.get + MsgspecMapper + fold): "
        f"{rate(best['rebuild_es'])} = {floor / best['rebuild_es']:.0%} of the floor",
        f"default mapper (SQLite + eventsourcing + JSONTranscoder, same fold): {rate(default)}; "
        f"rebuild is {default / rebuild:.2f}x faster (target >= 3x; through eventsourcing "
        f"{default / best['rebuild_es']:.2f}x)",
        f"reading alone (no fold): application/reading.py {1000 * best['read']:.1f} ms, "
        f"eventsourcing + MsgspecMapper {1000 * best['read_es']:.1f} ms, default mapper "
        f"{1000 * best['plain_read']:.1f} ms",
        f"fold alone (domain.record.game.project_game): {1000 * fold:.1f} ms = {fold / rebuild:.0%} of the "
        "rebuild; by kind (events: ms in all, us each): " + ", ".join(
            f"{kind} {count}: {ms:.0f}, {1000 * ms / count:.0f}" for kind, (count, ms)
            in sorted(per_kind.items(), key=lambda item: -item[1][1])),
        f"snapshot of the final state: {len(state) / 1e6:.1f} MB, decoded in {1000 * decode:.1f} ms "
        "(what a cold start costs at least)",
    ]
    return rebuild


def run() -> list[str]:
    """Every figure of the store benchmark, one line each."""
    lines = [f"store benchmark: generated game of {N_EVENTS:,} events (seed {SEED}), SQLite"]
    start = time.perf_counter()
    replay = parse_replay(generate_replay(N_EVENTS, SEED), "generated.toml")
    lines.append(f"generate + parse + check the replay: {time.perf_counter() - start:.2f} s")
    with tempfile.TemporaryDirectory(prefix="minister-bench-") as name:
        folder = Path(name)
        rebuild = _mappers(folder, replay, lines)
        originator_id = game_uuid(replay.game_id)
        lines.append(f"snapshot intervals (cold time travel to {TABLE_POINTS} random versions; "
                     f"import = record + snapshots):")
        for interval in INTERVALS:
            path = folder / f"interval-{interval}.sqlite3"
            with _sqlite_app(path, interval) as app:
                start = time.perf_counter()
                app.record(replay.events)
                imported = time.perf_counter() - start
                spent = _travel(app, replay, TABLE_POINTS, seed=interval, cold=True)
                # Every interval divides the game's length, so its last snapshot is its last
                # event; one event less is the worst case: interval - 1 events after it.
                worst, _ = _timed(lambda: state_at(app, originator_id, N_EVENTS - 1))
                if interval == SNAPSHOT_INTERVAL:
                    cold = spent
                    warm = _travel(app, replay, POINTS, seed=SEED, cold=False)
                    by_time = _travel_by_time(app, replay)
                    parts = _cold_parts(app, replay.game_id)
                stored = _snapshot_bytes(app)
            lines.append(f"  every {interval:>4} events: cold median {statistics.median(spent):5.1f} ms, "
                         f"p90 {_p90(spent):5.1f} ms, latest state {interval - 1} events past a "
                         f"snapshot {1000 * worst:5.1f} ms, snapshots {stored / 1e6:6.1f} "
                         f"MB, import {imported:.2f} s" + ("  <- SNAPSHOT_INTERVAL" if interval ==
                                                           SNAPSHOT_INTERVAL else ""))
    median = statistics.median(warm)
    lines += [
        f"time travel by version, warm ({POINTS} random points after the first look; Game.at on the "
        f"state kept in memory): median {median:.2f} ms, p90 {_p90(warm):.2f} ms (target <= 5 ms); "
        f"full rebuild {1000 * rebuild:.1f} ms = {1000 * rebuild / median:.0f}x slower",
        f"time travel by version, cold (first look in a process, interval {SNAPSHOT_INTERVAL}: latest "
        f"snapshot + the events after it, then Game.at): median {statistics.median(cold):.1f} ms, "
        f"p90 {_p90(cold):.1f} ms (issue 25: target <= {TARGET_COLD_MS} ms: "
        f"{'ok' if statistics.median(cold) <= TARGET_COLD_MS else 'short'})",
        parts,
        f"time travel by time, warm (binary search on the stored event times, then by version): "
        f"median {statistics.median(by_time):.2f} ms",
    ]
    return lines


if __name__ == "__main__":
    if len(sys.argv) > 1:
        N_EVENTS = int(sys.argv[1])
    for line in run():
        print(line, flush=True)
