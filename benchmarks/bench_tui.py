"""Benchmark: the terminal timeline on a generated 50,000-event game.

Targets (the issue "The terminal timeline"): first paint of the timeline within 0.5 s of launching
the app, and 20 ms of CPU or less per key press. The app runs headless under ``run_test`` at
120 x 40. Reading and reviewing the replay file (the engine's work, which the app does in a worker
behind a progress bar) is timed separately, so the figures say where the time goes.

    python -m benchmarks.bench_tui            # 50,000 events
    python -m benchmarks.bench_tui 5000       # a smaller game
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.pilot import Pilot
from textual.widgets import Footer, Header, Static

from benchmarks.gen_game import generate_replay
from domain.review.views import GameView
from projections.timeline import Timeline
from tui.app import MinisterApp
from tui.loading import ViewsSource
from tui.widgets.timeline_view import TimelineView

TARGET_PAINT_S = 0.5
TARGET_KEY_MS = 20.0
SIZE = (120, 40)
#: Navigation keys pressed, in turn: steps and jumps to the next/previous turn, battle, round, finding.
KEYS = ("j", "j", "l", "k", "r", "r", "b", "B", "t", "n", "h", "R", "T", "N", "right", "left", "end", "home")
#: The history switch and the diff, pressed in pairs (measured apart: they redraw every panel).
SWITCH_KEYS = ("v", "v", "d", "d")


def _verdict(ok: bool) -> str:
    return "ok" if ok else "short"


def load_views(n_events: int, seed: int) -> tuple[GameView, GameView, list[str]]:
    """Generate, read and review the game; the figures of each step."""
    from application.usecases.services import open_game
    from domain.review.game_review import review

    start = time.perf_counter()
    text = generate_replay(n_events, seed)
    generated = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.toml"
        path.write_text(text, encoding="utf-8")
        start = time.perf_counter()
        game = open_game(str(path))
        read = time.perf_counter() - start
    start = time.perf_counter()
    corrected = review(game)
    reviewed = time.perf_counter() - start
    start = time.perf_counter()
    rolled = review(game, as_rolled=True)
    reviewed_rolled = time.perf_counter() - start
    lines = [f"game: {n_events:,} events, {len(corrected.battles):,} battles, "
             f"{sum(len(b.rounds) for b in corrected.battles):,} rounds (generated in {generated:.1f} s)",
             f"engine, in the app's worker behind the progress bar: read {read:.1f} s, "
             f"review as corrected {reviewed:.1f} s, as rolled {reviewed_rolled:.1f} s"]
    return corrected, rolled, lines


async def _measure(corrected: GameView, rolled: GameView, presses: int) -> dict[str, float]:
    app = MinisterApp(ViewsSource(corrected, rolled))
    launched = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        screen_up = time.perf_counter() - launched
        view = app.query_one(TimelineView)
        while view.rendered_rows == 0:
            await asyncio.sleep(0.001)
        first_paint = time.perf_counter() - launched
        await app.workers.wait_for_complete()
        await pilot.pause()
        timeline = app.current_timeline
        assert timeline is not None
        cpu = [await _keystroke(app, KEYS[n % len(KEYS)]) for n in range(presses)]
        via_pilot = [await _press(pilot, KEYS[n % len(KEYS)]) for n in range(presses // 3)]
        switch = [await _keystroke(app, SWITCH_KEYS[n % len(SWITCH_KEYS)])
                  for n in range(4 * len(SWITCH_KEYS))]
        return {"screen": screen_up, "paint": first_paint, "nodes": float(len(timeline)),
                "key_mean": statistics.fmean(cpu), "key_median": statistics.median(cpu),
                "key_p95": _p95(cpu), "key_max": max(cpu), "pilot_median": statistics.median(via_pilot),
                "first_switch": switch[0], "switch_mean": statistics.fmean(switch[4:])}


async def _keystroke(app: App[None], key: str) -> float:
    """CPU milliseconds to handle one key press as a terminal sends it, repaint included."""
    driver = app._driver
    assert driver is not None
    start = time.process_time()
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    driver.send_message(event)
    # The app handles the key, then repaints on its refresh timer: 40 ms covers both.
    await asyncio.sleep(0.04)
    return (time.process_time() - start) * 1000.0


async def _press(pilot: Pilot[None], key: str) -> float:
    """CPU milliseconds for a key press through Textual's test pilot, which also waits on every
    widget's message queue (harness work a real terminal does not cause)."""
    start = time.process_time()
    await pilot.press(key)
    await pilot.pause()
    await asyncio.sleep(0.02)  # the repaint
    return (time.process_time() - start) * 1000.0


class _Bare(App[None]):
    """A one-label Textual app: what any key press costs here, for comparison."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("j", "tick", "tick", id="bare.tick")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("0", id="count")
        yield Footer()

    def action_tick(self) -> None:
        label = self.query_one("#count", Static)
        label.update(str(int(str(label.render())) + 1), layout=False)


async def _baseline(presses: int) -> tuple[float, float]:
    app = _Bare()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        return (statistics.median([await _keystroke(app, "j") for _ in range(presses)]),
                statistics.median([await _press(pilot, "j") for _ in range(presses)]))


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def run(n_events: int = 50_000, seed: int = 1, presses: int = 300) -> list[str]:
    """Measure and describe: one line per figure."""
    corrected, rolled, lines = load_views(n_events, seed)
    start = time.perf_counter()
    timeline = Timeline(corrected, rolled)
    built = time.perf_counter() - start
    lines.append(f"timeline: {len(timeline):,} points laid out in {built * 1000:.0f} ms")
    figures = asyncio.run(_measure(corrected, rolled, presses))
    bare = asyncio.run(_baseline(100))
    paint_ok = figures["paint"] <= TARGET_PAINT_S
    key_ok = figures["key_p95"] <= TARGET_KEY_MS
    switch_ok = figures["switch_mean"] <= TARGET_KEY_MS
    lines.append(f"launch to loading screen: {figures['screen'] * 1000:.0f} ms; "
                 f"launch to first paint of the timeline (reviews in hand): {figures['paint'] * 1000:.0f} ms "
                 f"(target {TARGET_PAINT_S * 1000:.0f} ms: {_verdict(paint_ok)})")
    lines.append(f"CPU per navigation key over {presses} presses: mean {figures['key_mean']:.1f} ms, "
                 f"median {figures['key_median']:.1f} ms, p95 {figures['key_p95']:.1f} ms, "
                 f"max {figures['key_max']:.1f} ms (target p95 {TARGET_KEY_MS:.0f} ms: {_verdict(key_ok)})")
    lines.append(f"the same through Textual's pilot (it also waits on every widget): median "
                 f"{figures['pilot_median']:.1f} ms; a one-label Textual app here: {bare[0]:.1f} ms, "
                 f"{bare[1]:.1f} ms through the pilot")
    lines.append(f"v / d (switch history, diff; every panel redrawn): first v "
                 f"{figures['first_switch']:.0f} ms, then {figures['switch_mean']:.1f} ms per press "
                 f"(target {TARGET_KEY_MS:.0f} ms: {_verdict(switch_ok)})")
    return lines


if __name__ == "__main__":
    print("\n".join(run(int(sys.argv[1])) if len(sys.argv) > 1 else run()))
