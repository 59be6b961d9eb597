"""Benchmark: a desk command's refresh of the stored review, incremental vs. full, each in a new process.

Each desk command (``minister report``, ``rule``, ``dice``, ``roll`` ...) is a new process that
records its event and then refreshes the stored review (tui/reviewed.py ``keep``). A generated
game is imported into a fresh SQLite store by ``minister import`` (a child process: the review
and its memo are stored). Then, for each kind of desk event, in the same run:

- *incremental*: a new process records the event and refreshes the stored review as the command
  does, carrying on from the memo the store keeps (application/adapters/memo_codec.py);
- *full*: a new process refreshes the stored review of the same events with the stored
  products and memo dropped first: the review made from scratch, as every desk command did
  before the memo was stored.

The figure is the refresh itself (reading the game, the memo and the stored battle rows' digests,
the review of both histories, rendering and writing the battle rows that changed and the
game-level parts), wall and CPU seconds measured inside the child; Python's and minister's
start-up (the modules a refresh imports, loaded before the clock starts) are the same in both
and left out. Both refreshes must store the same reviews (read
back from the rows, as readers get them). Each line says how many battle rows the incremental
refresh rewrote (a full one writes every battle of both histories).
Goal (issue "Speed where users wait", 3): incremental ≥ 20× faster than full.

    python -m benchmarks.bench_incremental          # the 10,000-event game
    python -m benchmarks.bench_incremental 50000
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.bench_open import MINISTER, _game_id, timed_cpu
from benchmarks.gen_game import generate_replay

TARGET_RATIO = 20.0
KINDS = {"report": "a report on the last battle", "ruling": "a ruling on the last finding",
         "supplied": "dice supplied for the last battle", "drawn": "dice drawn for the last battle"}
#: Started in a child: record one desk event (or none) and refresh the stored review, timed.
_REFRESH = """
import hashlib, json, sys, time
from datetime import timedelta
store, game_id, kind, mode = sys.argv[1:5]
from application.adapters.review_store import forget
from application.adapters.stores import open_store
from tui.reviewed import VIEW_AS_ROLLED, VIEW_CORRECTED, keep, stored
# Start-up, left out of both figures: the modules a refresh imports when first used.
import application.adapters.memo_codec, domain.review.game_review, projections.report, projections.timeline
app = open_store(store)
if mode == "incremental":
    from benchmarks.bench_incremental import desk_event
    app.record([desk_event(app, game_id, kind)])
else:
    forget(app, game_id)  # no stored review, no memo: the full review
import tui.reviewed
written = []
real_save = tui.reviewed.save
def counting_save(app, game_id, head, made, battles=None, **rest):
    written.append(sum(len(rows.rows) for rows in (battles or {}).values()))
    real_save(app, game_id, head, made, battles, **rest)
tui.reviewed.save = counting_save
wall, cpu = time.perf_counter(), time.process_time()
keep(app, game_id)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
digest = hashlib.sha256(b"".join(stored(app, game_id, k) or b"" for k in (VIEW_CORRECTED, VIEW_AS_ROLLED)))
print(json.dumps({"wall": wall, "cpu": cpu, "digest": digest.hexdigest(), "rows": sum(written)}))
"""


def desk_event(app: object, game_id: str, kind: str) -> object:
    """One desk event of ``kind`` about the game's last battle, after its last event."""
    from datetime import timedelta

    from application.adapters.app import MinisterApplication
    from domain.record.events import DiceDrawn, DiceSupplied, ReportFiled, RulingIssued
    from tui.reviewed import stored_view

    assert isinstance(app, MinisterApplication)
    game = app.game(game_id)
    last = game.battles[-1]
    when = game.moments[-1] + timedelta(minutes=5)
    base: dict[str, Any] = {"originator_id": game.id, "originator_version": game.version + 1,
                            "timestamp": when, "at": when}
    where: dict[str, Any] = {"battle": last.written or last.territory, "territory": last.territory}
    if kind == "report":
        return ReportFiled(**base, by="UK", text="wrong dice", battle=last.territory)
    if kind == "ruling":
        findings = stored_view(app, game_id).findings
        return RulingIssued(**base, finding=findings[-1].id if findings else "F1", decision="apply",
                            text="apply")
    if kind == "supplied":
        return DiceSupplied(**base, **where, dice=(3, 5))
    sequence = 1 + max((s for b in game.battles for s, _, _ in b.drawn), default=-1)
    return DiceDrawn(**base, **where, sequence=sequence, purpose="correction", dice=(2, 6))


def _refresh(store: str, game_id: str, kind: str, mode: str) -> dict[str, float | str | int]:
    _, _, printed = timed_cpu([sys.executable, "-c", _REFRESH, store, game_id, kind, mode])
    found: dict[str, float | str | int] = json.loads(printed.strip().splitlines()[-1])
    return found


def measure(n_events: int) -> list[str]:
    """The refresh after each kind of desk event, incremental and full, each in a new process."""
    with tempfile.TemporaryDirectory() as folder:
        store = f"sqlite:{Path(folder) / 'store.sqlite3'}"
        replay = Path(folder) / "game.toml"
        replay.write_text(generate_replay(n_events, 1), encoding="utf-8")
        timed_cpu([*MINISTER, "import", str(replay), "--store", store])
        game_id = _game_id(replay)
        lines = [f"{n_events:,}-event generated game in SQLite: a desk command's refresh of the stored "
                 "review (both histories, the reports), each in a new process:"]
        for kind, name in KINDS.items():
            incremental = _refresh(store, game_id, kind, "incremental")
            full = _refresh(store, game_id, kind, "full")
            if incremental["digest"] != full["digest"]:
                raise AssertionError(f"after {name}, the incremental refresh stored another review")
            inc_cpu, full_cpu = float(incremental["cpu"]), float(full["cpu"])
            ratio = full_cpu / inc_cpu
            lines.append(f"  {kind} ({name}): full {float(full['wall']):.2f} s (CPU {full_cpu:.2f} s), "
                         f"incremental {float(incremental['wall']):.2f} s (CPU {inc_cpu:.2f} s), "
                         f"{int(incremental['rows'])} battle rows rewritten: {ratio:.1f}x by CPU, "
                         f"{float(full['wall']) / float(incremental['wall']):.1f}x by wall "
                         f"(target >= {TARGET_RATIO:.0f}x) {'ok' if ratio >= TARGET_RATIO else 'short'}")
    return lines


def run(sizes: tuple[int, ...] = (10_000,)) -> list[str]:
    """One block per game size."""
    from benchmarks.bench_open import warm_bytecode

    warm_bytecode()
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    lines: list[str] = []
    for n in sizes:
        lines.extend(measure(n))
    return lines


if __name__ == "__main__":
    print("\n".join(run((int(sys.argv[1]),)) if len(sys.argv) > 1 else run()))
