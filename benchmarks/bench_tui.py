"""Benchmark: the terminal timeline's keys on a stored 50,000-event game, as a user has it.

Goals (issue "Speed where users wait", 4; issue 30 on the 10,000-event game): every navigation key
≤ 20 ms p95, ``v`` / ``d`` ≤ 20 ms per press, the game's story (``c``) drawn ≤ 100 ms from the
key, and the timeline's peak RSS on the game stated (target ≤ 400 MB).

The game is generated and recorded by ``minister import`` into a fresh SQLite store (its stored
review made there, as for any stored game). Then a child process opens it as ``minister show``
does (``MinisterApp`` on the stored game, headless under Textual's ``run_test`` at 120 x 40),
waits until both histories are loaded and the screen is idle, and presses keys as a terminal
sends them: each press is timed from the key event to the next frame Textual writes (wall), with
the CPU the process spent meanwhile. Textual paints at most 60 frames a second, so a press also
waits up to ~17 ms for its frame; the same press on a one-label Textual app, timed the same way
in the same child, shows that floor. The child's peak RSS is the timeline's, both histories and
every layout in memory.

Then ``c`` shows the story: timed from the key to the first frame that shows the chart at the
panel's width (the first time the story is made from the timeline; then hidden and shown again).
Its battles' odds are worked out in a thread after that frame; once they are in (or after
STORY_WAIT seconds) the navigation keys are pressed again with the chart shown.

    python -m benchmarks.bench_tui            # 10,000 and 50,000 events
    python -m benchmarks.bench_tui 5000       # one smaller game
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.bench_open import MINISTER, _game_id, timed_cpu, warm_bytecode
from benchmarks.gen_game import generate_replay

TARGET_KEY_MS = 20.0
TARGET_STORY_MS = 100.0
#: Longest wait for the story's odds before the keys are pressed with the chart shown (seconds).
STORY_WAIT = 60.0
TARGET_RSS_MB = 400.0
#: Navigation keys pressed, in turn: steps and jumps to the next/previous turn, battle, round, finding.
KEYS = ("j", "j", "l", "k", "r", "r", "b", "B", "t", "n", "h", "R", "T", "N", "right", "left", "end", "home")
#: The history switch (repaints the rows that differ) and the diff (redraws the boards).
SWITCH_KEYS = ("v", "d")

#: The child: open the stored game, wait for both histories, press keys; print JSON.
_KEYS_DRIVER = """
import asyncio, json, sys, time
from benchmarks.child import own_peak_kb
from textual import events
from textual.app import App
from textual.widgets import Static
from tui.app import MinisterApp
from tui.loading import FileSource
from tui.widgets.story import StoryPanel

game, store, rounds, wait = sys.argv[1], sys.argv[2], int(sys.argv[5]), float(sys.argv[6])
keys, switch = json.loads(sys.argv[3]), json.loads(sys.argv[4])
frames = []
charts = []  # per frame: whether it shows the story's chart at the panel's width
display = App._display

def _display(app, screen, renderable):
    display(app, screen, renderable)
    frames.append(time.perf_counter())
    story = app.query_one(StoryPanel) if isinstance(app, MinisterApp) else None
    charts.append(story is not None and bool(story.display and story.region.height and story.text
                                             and story._width == story.content_region.width))

App._display = _display

async def settle():
    # Idle: no frame for 0.2 s (the loader's follow-ups and the findings' layout are done).
    while True:
        count = len(frames)
        await asyncio.sleep(0.2)
        if len(frames) == count:
            return

async def press(app, key, chart=False):
    await asyncio.sleep(0.03)  # the previous press's after-refresh work
    count = len(frames)
    start, cpu = time.perf_counter(), time.process_time()
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    app._driver.send_message(event)  # as the terminal driver delivers a key
    # The next frame (chart: the first that shows the chart).
    while len(frames) == count or (chart and not any(charts[count:])):
        if time.perf_counter() - start > 2.0:
            return None  # nothing to repaint (already at the end, say)
        await asyncio.sleep(0.0005)
    shown = next(i for i in range(count, len(frames)) if charts[i]) if chart else count
    return [(frames[shown] - start) * 1000.0, (time.process_time() - cpu) * 1000.0]

class Bare(App):
    BINDINGS = [("j", "tick", "tick")]
    def compose(self):
        yield Static("0", id="count")
    def action_tick(self):
        label = self.query_one("#count", Static)
        label.update(str(int(str(label.render())) + 1))

async def main():
    out = {"keys": {}, "switch": {}}
    app = MinisterApp(FileSource(game, store=store))
    async with app.run_test(size=(120, 40)):
        while not app.ready:  # a stored game's loader starts after the first paint
            await asyncio.sleep(0.01)
        await app.workers.wait_for_complete()
        await settle()
        for _ in range(rounds):
            for key in keys:
                out["keys"].setdefault(key, []).append(await press(app, key))
        for _ in range(rounds):
            for key in switch:  # each pressed twice: on, then off again
                for _ in range(2):
                    out["switch"].setdefault(key, []).append(await press(app, key))
        out["rss_mb"] = own_peak_kb() / 1024.0
        out["points"] = len(app.current_timeline)
        out["battles"] = len(app.corrected.battles)
        # The story: made and drawn, then hidden and drawn again; the keys with it shown.
        await settle()
        out["story"] = [await press(app, "c", chart=True)]
        story, start = app.query_one(StoryPanel), time.perf_counter()
        while story.story.worked_out < len(story.story.battles) and time.perf_counter() - start < wait:
            await asyncio.sleep(0.05)
        out["odds_s"] = time.perf_counter() - start
        out["odds_left"] = len(story.story.battles) - story.story.worked_out
        await settle()
        await press(app, "c")
        await settle()
        out["story"].append(await press(app, "c", chart=True))
        await settle()
        for _ in range(max(1, rounds // 3)):
            for key in keys:
                out.setdefault("story_keys", []).append(await press(app, key))
    bare = Bare()
    async with bare.run_test(size=(120, 40)):
        await settle()
        out["bare"] = [await press(bare, "j") for _ in range(3 * rounds)]
    print(json.dumps(out))

asyncio.run(main())
"""


def _verdict(ok: bool) -> str:
    return "ok" if ok else "short"


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def _figures(presses: list[list[float] | None]) -> tuple[list[float], list[float], int]:
    """Wall ms to the frame, CPU ms, and how many presses repainted nothing."""
    timed = [p for p in presses if p is not None]
    return [p[0] for p in timed], [p[1] for p in timed], len(presses) - len(timed)


def _key_line(name: str, presses: list[list[float] | None]) -> str:
    wall, cpu, idle = _figures(presses)
    if not wall:
        return f"  {name:>6}: no press repainted anything ({idle} presses)"
    p95 = _p95(wall)
    idle_note = f"; {idle} of {len(presses)} changed nothing on screen" if idle else ""
    return (f"  {name:>6}: to the frame p50 {statistics.median(wall):.1f} ms, p95 {p95:.1f} ms; CPU p50 "
            f"{statistics.median(cpu):.1f} ms, p95 {_p95(cpu):.1f} ms (target p95 {TARGET_KEY_MS:.0f} ms: "
            f"{_verdict(p95 <= TARGET_KEY_MS)}){idle_note}")


def run(sizes: int | tuple[int, ...] = (10_000, 50_000), seed: int = 1, rounds: int = 12) -> list[str]:
    """Import each generated game, then time its keys in a child process: one line per figure."""
    lines = [warm_bytecode()]
    for n_events in (sizes,) if isinstance(sizes, int) else sizes:
        lines.extend(measure(n_events, seed, rounds))
    return lines


def measure(n_events: int, seed: int = 1, rounds: int = 12) -> list[str]:
    """One game's figures: its keys, v and d, the floor, the story, the peak RSS."""
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        replay = Path(folder) / "game.toml"
        replay.write_text(generate_replay(n_events, seed), encoding="utf-8")
        store = f"sqlite:{Path(folder) / 'store.sqlite3'}"
        imported, imported_cpu, _ = timed_cpu([*MINISTER, "import", str(replay), "--store", store])
        keys = list(dict.fromkeys(KEYS))
        order = json.dumps(list(KEYS))
        _, _, printed = timed_cpu([sys.executable, "-c", _KEYS_DRIVER, _game_id(replay), store, order,
                                   json.dumps(list(SWITCH_KEYS)), str(rounds), str(STORY_WAIT)])
    data = json.loads(printed.strip().splitlines()[-1])
    lines.append(f"{n_events:,}-event game ({data['battles']:,} battles, {data['points']:,} timeline points) "
                 f"in a fresh SQLite store by minister import: {imported:.1f} s (CPU {imported_cpu:.1f} s); "
                 "the timeline opened on it as minister show does, both histories loaded, screen idle")
    every = [p for key in keys for p in data["keys"][key]]
    lines.append(_all_keys_line("every navigation key", every))
    lines.append("each key, time from the key event to the next frame written, and the CPU meanwhile:")
    lines.extend(_key_line(key, data["keys"][key]) for key in keys)
    lines.append("v / d (switch history: the rows that differ; diff: the boards), each on and off again:")
    lines.extend(_key_line(key, data["switch"][key]) for key in SWITCH_KEYS)
    wall, _, _ = _figures(every)
    bare_wall, bare_cpu, _ = _figures(data["bare"])
    lines.append(f"Textual's floor, a one-label app in the same process: to the frame p50 "
                 f"{statistics.median(bare_wall):.1f} ms, p95 {_p95(bare_wall):.1f} ms (CPU p50 "
                 f"{statistics.median(bare_cpu):.1f} ms); navigation p50 / floor p50 = "
                 f"{statistics.median(wall) / statistics.median(bare_wall):.2f}")
    lines.extend(_story_lines(data))
    rss = data["rss_mb"]
    lines.append(f"peak RSS of the timeline process on it: {rss:.0f} MB (target {TARGET_RSS_MB:.0f} MB: "
                 f"{_verdict(rss <= TARGET_RSS_MB)})")
    return lines


def _all_keys_line(name: str, presses: list[list[float] | None]) -> str:
    wall, cpu, _ = _figures(presses)
    return (f"{name} ({len(wall)} presses that repainted): to the frame p50 "
            f"{statistics.median(wall):.1f} ms, p95 {_p95(wall):.1f} ms; CPU p50 "
            f"{statistics.median(cpu):.1f} ms, p95 {_p95(cpu):.1f} ms "
            f"(target p95 {TARGET_KEY_MS:.0f} ms: {_verdict(_p95(wall) <= TARGET_KEY_MS)})")


def _story_lines(data: dict[str, Any]) -> list[str]:
    """The story's figures: drawn on c (made, then again), its odds, the keys with it shown."""
    out = []
    for name, drawn in zip(("made from the timeline and drawn", "hidden, then drawn again"), data["story"],
                           strict=True):
        if drawn is None:
            out.append(f"c (the story, {name}): no frame showed the chart within 2 s (target "
                       f"{TARGET_STORY_MS:.0f} ms: short)")
            continue
        ok = _verdict(drawn[0] <= TARGET_STORY_MS)
        out.append(f"c (the story, {name}): to the frame that shows the chart {drawn[0]:.1f} ms, CPU "
                   f"{drawn[1]:.1f} ms (target {TARGET_STORY_MS:.0f} ms: {ok})")
    left = data["odds_left"]
    out.append("its battles' odds as declared, worked out in a thread after that frame: "
               + (f"all in after {data['odds_s']:.1f} s" if not left
                  else f"{left:,} still to work out after {data['odds_s']:.0f} s (the keys below compete "
                       "with that thread)"))
    out.append(_all_keys_line("every navigation key with the story shown", data["story_keys"]))
    return out


if __name__ == "__main__":
    print("\n".join(run(int(sys.argv[1])) if len(sys.argv) > 1 else run()))
