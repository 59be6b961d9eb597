"""Benchmark: a club archive in PostgreSQL — many stored games, each command from process start.

Goal (issue "Speed where users wait", 5): 500 games, ≥ 2M events: ``minister games`` ≤ 1 s,
opening any game (``minister replay GAME --json`` and the timeline's first paint) ≤ 1 s, import
of one more game unaffected by the archive's size (the slope: time per game at 10, 100, 500).

Building the archive: a few *template* games (distinct seeds) are generated, recorded and
reviewed for real (``import_replay`` and ``keep``: what ``minister import`` does). The other
games are *clones* of a template under their own game id: the template's parsed events with the
clone's game id (its aggregate id, the ``GameStarted`` id) and the hash chain made again, which
is what parsing the template's replay text with its ``[game] id`` changed gives (checked on the
first clone of each template against a real parse of its text), recorded by ``import_replay``
(so every event row, its hash chain and the game list are exactly what ``minister import``
writes; reading the text again for every clone took 1.2 s of the 2 s a clone cost), and the stored review rows
(``minister_reviews``: each history's game-level part and findings, the opening part) are the
template's with the game id replaced — every game id has the same length, so the bytes are what
a review of the clone makes — and its battle rows (``minister_review_battles``, which never name
the game) are the template's; the bench checks that on one clone against a real review. Only the
review is cloned, never an event. At 10, 100 and all the games, each command is a new process:
``minister import`` of one more game (a real one, review included), ``minister games``,
``minister replay GAME --json`` on a random earlier game, and the timeline's first paint of it.
The operating system's caches are warm; minister's start empty.

Needs ``MINISTER_TEST_POSTGRES`` (a server URL); the schema is dropped afterwards.

    python -m benchmarks.bench_archive              # 500 games of 4,000 events: 2,000,000 events
    python -m benchmarks.bench_archive 100 400      # smaller: games, events per game
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.bench_open import _PAINT_DRIVER, MINISTER, POSTGRES_VARIABLE, _fresh_store, timed_cpu
from benchmarks.gen_game import generate_replay

if TYPE_CHECKING:
    from application.adapters.review_tables import HistoryRows
    from application.intake.replayfile import Replay

TARGET_GAMES_S = 1.0
TARGET_OPEN_S = 1.0
MILESTONES = (10, 100, 500)
#: Games reviewed for real; the others are clones of one of them (see the module doc).
TEMPLATES = 4
#: "Unaffected by the archive's size": the import's CPU at the largest size over the smallest.
TARGET_SLOPE = 1.25


def _verdict(ok: bool) -> str:
    return "ok" if ok else "short"


def game_id(number: int) -> str:
    """The archive's game ids: all of one length (a clone's review is its template's, id replaced)."""
    return f"club-{number:05d}"


def _replay_text(number: int, n_events: int) -> str:
    """Game ``number``'s replay: its template's generated text under its own id."""
    seed = 1 + (number - 1) % TEMPLATES
    text = generate_replay(n_events, seed)
    generated = f'id = "generated-{n_events}-{seed}"'
    if generated not in text:
        raise AssertionError(f"the generator no longer writes {generated}")
    return text.replace(generated, f'id = "{game_id(number)}"', 1)


class _Archive:
    """Fills the archive: templates recorded and reviewed, clones recorded with their template's review."""

    def __init__(self, store: str, n_events: int) -> None:
        from application.adapters.stores import open_store

        self.app = open_store(store)
        self.n_events = n_events
        #: template number -> its stored rows (game-level products, battle rows)
        self.reviews: dict[int, tuple[dict[str, bytes], dict[str, HistoryRows]]] = {}
        self.parsed: dict[int, Replay] = {}  # template number -> its replay as read
        self.events = 0
        self.seconds = 0.0  # spent recording the clones (their events and cloned reviews)
        self.clones = 0

    def add(self, number: int) -> None:
        from application.adapters.review_store import copy_of, head_of, save
        from application.intake.replayfile import parse_replay
        from application.usecases.review_model import (
            VIEW_AS_ROLLED,
            VIEW_CORRECTED,
            VIEW_OPENING,
            report_kind,
            stored,
        )
        from application.usecases.review_model import refresh as keep
        from application.usecases.transfer import import_replay

        template = 1 + (number - 1) % TEMPLATES
        if template in self.parsed:
            started = time.perf_counter()
            replay = _clone(self.parsed[template], number)
            if number <= 2 * TEMPLATES:  # the first clone of its template: what a parse gives
                read = parse_replay(_replay_text(number, self.n_events), f"{game_id(number)}.toml")
                if read.events != replay.events:
                    raise AssertionError(f"the cloned events of {replay.game_id} differ from its replay's")
                started = time.perf_counter()
        else:
            replay = parse_replay(_replay_text(number, self.n_events), f"{game_id(number)}.toml")
            self.parsed[template] = replay
        import_replay(self.app, replay)
        self.events += len(replay.events)
        if template not in self.reviews:
            keep(self.app, replay.game_id)
            self.reviews[template] = copy_of(self.app, replay.game_id)
            return
        old, new = game_id(template).encode(), game_id(number).encode()
        products, battles = self.reviews[template]
        rows = {kind: data.replace(old, new) for kind, data in products.items()}
        head = head_of(self.app, replay.game_id)
        assert head is not None
        # A battle's rows never name the game: they are stored again as they are.
        save(self.app, replay.game_id, head, rows, battles)
        self.seconds += time.perf_counter() - started
        self.clones += 1
        if number == TEMPLATES + 1:  # the first clone: its rows are what its own review makes
            kinds = (VIEW_CORRECTED, VIEW_AS_ROLLED, VIEW_OPENING, report_kind(json=True, as_rolled=False),
                     report_kind(json=False, as_rolled=True))
            cloned = {kind: stored(self.app, replay.game_id, kind) for kind in kinds}
            keep(self.app, replay.game_id)
            if any(stored(self.app, replay.game_id, kind) != cloned[kind] for kind in kinds):
                raise AssertionError(f"the cloned review of {replay.game_id} differs from its own review")

    def close(self) -> None:
        self.app.close()


def _clone(template: Replay, number: int) -> Replay:
    """The template's replay as game ``number``: its events under that game's id, chained anew
    (what reading the template's text with its ``[game] id`` changed gives)."""
    import dataclasses

    import msgspec

    from application.adapters.integrity import LinkedEvents
    from domain.record.events import GameStarted, game_uuid

    name = game_id(number)
    originator = game_uuid(name)
    renamed = {"game_id": name}
    events = LinkedEvents([msgspec.structs.replace(event, originator_id=originator, chain=None,
                                                   **(renamed if isinstance(event, GameStarted) else {}))
                           for event in template.events])
    return dataclasses.replace(template, path=f"{name}.toml", game_id=name, events=events)


def _milestone(store: str, folder: Path, games: int, n_events: int, extra: int) -> tuple[str, float, float]:
    """Time one import, ``games``, and opening an earlier game, each from process start (the
    line, and the import's wall and CPU seconds)."""
    replay = folder / f"{game_id(extra)}.toml"
    replay.write_text(_replay_text(extra, n_events), encoding="utf-8")
    imported, imported_cpu, _ = timed_cpu([*MINISTER, "import", str(replay), "--store", store])
    listed, listed_cpu, printed = timed_cpu([*MINISTER, "games", "--store", store])
    shown = len(printed.strip().splitlines()) - 1
    some = game_id(random.Random(games).randrange(1, games + 1))
    opened, opened_cpu, _ = timed_cpu([*MINISTER, "replay", some, "--json", "--store", store])
    spawned = time.time()
    _, _, painted = timed_cpu([sys.executable, "-c", _PAINT_DRIVER, str(spawned), some, store])
    paint, paint_cpu = (float(x) for x in painted.strip().splitlines()[-2].split()[:2])
    return (f"  {shown} games: import of one more {imported:.2f} s (CPU {imported_cpu:.2f} s, "
            f"{n_events:,} events); minister games {listed:.2f} s, "
            f"CPU {listed_cpu:.2f} s (target {TARGET_GAMES_S:.0f} s: {_verdict(listed <= TARGET_GAMES_S)}); "
            f"replay {some} --json {opened:.2f} s, CPU {opened_cpu:.2f} s (target {TARGET_OPEN_S:.0f} s: "
            f"{_verdict(opened <= TARGET_OPEN_S)}); its timeline's first paint {paint:.2f} s, "
            f"CPU {paint_cpu:.2f} s "
            f"(target {TARGET_OPEN_S:.0f} s: {_verdict(paint <= TARGET_OPEN_S)})"), imported, imported_cpu


def _slope(imports: dict[int, tuple[float, float]]) -> str:
    """The import of one more game against the archive's size: its time at each size, and the
    CPU ratio of the largest to the smallest (wall time on a shared machine is mostly waiting)."""
    sizes = sorted(imports)
    ratio = imports[sizes[-1]][1] / imports[sizes[0]][1]
    figures = ", ".join(f"{n} games {wall:.2f} s (CPU {cpu:.2f} s)"
                        for n, (wall, cpu) in sorted(imports.items()))
    return (f"  slope of minister import (one more game, from process start): {figures}; CPU at "
            f"{sizes[-1]} / at {sizes[0]} games = {ratio:.2f} (target {TARGET_SLOPE:.2f}: "
            f"{_verdict(ratio <= TARGET_SLOPE)})")


def run(games: int = 500, n_events: int = 4000) -> Iterator[str]:
    """Fill the archive step by step, a line per milestone as soon as it is measured."""
    if not os.environ.get(POSTGRES_VARIABLE):
        yield f"skipped: {POSTGRES_VARIABLE} names no PostgreSQL server"
        return
    from benchmarks.bench_open import warm_bytecode

    warm_bytecode()
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    yield (f"club archive in PostgreSQL: up to {games} games of {n_events:,} events "
           f"({games * n_events:,} events; goal: 500 games, 2,000,000 events); {TEMPLATES} template "
           "games reviewed for real, the others recorded for real with their template's stored "
           "review rows cloned (game id replaced; checked against a real review on one clone)")
    with tempfile.TemporaryDirectory() as folder, _fresh_store(folder, "postgres") as store:
        archive = _Archive(store, n_events)
        start = time.perf_counter()
        extra = 1_000_000
        imports: dict[int, tuple[float, float]] = {}
        try:
            for milestone in sorted({m for m in MILESTONES if m < games} | {games}):
                while archive.events < milestone * n_events:
                    archive.add(archive.events // n_events + 1)
                # The imported extra games stay: the archive grows by them too.
                line, wall, cpu = _milestone(store, Path(folder), milestone, n_events, extra)
                imports[milestone] = (wall, cpu)
                yield line + f" [{archive.events + (extra - 999_999) * n_events:,} events stored]"
                extra += 1
        finally:
            archive.close()
        yield _slope(imports)
        yield (f"  (filled in {time.perf_counter() - start:.0f} s; recording a clone took "
               f"{archive.seconds / max(1, archive.clones):.2f} s on average over {archive.clones})")


if __name__ == "__main__":
    arguments = [int(a) for a in sys.argv[1:3]]
    for printed in run(*arguments):
        print(printed, flush=True)
