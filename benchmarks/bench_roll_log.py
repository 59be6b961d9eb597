"""Benchmark: memory per roll-log line in ``minister replay FILE --json`` (issue 14, item 4).

A generated game holds one battle whose dice-server record has N log lines (rounds of
``A(2 INF) 66 = 0 hits`` / ``D(2 INF) 66 = 0 hits``, nobody hit, so every round is fought and
reported). Each size runs as its own process, as a user runs it; the figure is the growth of the
peak resident set (``VmHWM``: benchmarks.child) per added line between the smallest and each larger size, so
the interpreter and the imports cancel out. The audit measured ~12 KB per line (64k lines:
780 MB).

Target: at most 1 KB of peak memory per line. What is left per line (docs/reliability.md): the
parsed log the Game keeps (a ``LogLine`` and its dice), the review's rounds, and the JSON report,
compact while it is indented (its battles are let go once joined: projections.report.join_json).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_KB_PER_LINE = 1.0
SIZES = (1_000, 16_000, 64_000)

_PROBE = """
import sys, time
from benchmarks.child import own_peak_kb
from tui.cli import main
cpu = time.process_time()
sys.stdout = open("/dev/null", "w")
code = main(["replay", sys.argv[1], "--json"])
sys.stdout = sys.__stdout__
print(own_peak_kb(), time.process_time() - cpu, code)
"""


def roll_log_game(lines: int) -> str:
    """A replay whose one roll record has about ``lines`` log lines."""
    body = ["W Europe(2 INF)", "2 INF from Germany"]
    for number in range(1, max(1, lines // 3) + 1):
        body += [f"R{number}", "A(2 INF) 66 = 0 hits", "D(2 INF) 66 = 0 hits"]
    log = "\n".join(body)
    return f'''format = "minister-replay/1"
[game]
id = "roll-log-{lines}"
edition = "iaapa-2008"
[[event]]
type = "position"
at = 2008-07-05T18:00:00Z
units = ["Germany West Europe: 2 INF", "UK Germany: 2 INF"]
[[event]]
type = "declaration"
at = 2008-07-05T18:05:00Z
turn = "UK 2"
text = """
Attack #1 - W Europe (2 INF)
2 INF from Germany
"""
[[event]]
type = "roll"
at = 2008-07-05T18:10:00Z
battle = "W Europe"
log = """
{log}
"""
'''


def measure(path: Path) -> tuple[int, float, float]:
    """(peak RSS in KB, CPU seconds, wall seconds) of ``minister replay FILE --json``."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parent.parent)
    rss, cpu, code = done.stdout.split()
    if code != "0":
        raise RuntimeError(f"minister replay {path} exited {code}: {done.stderr}")
    return int(rss), float(cpu), time.perf_counter() - start


def run(sizes: tuple[int, ...] = SIZES) -> list[str]:
    """Peak RSS per size and KB per added line, with the target and ok/short."""
    out: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        figures = {}
        for lines in sizes:
            path = Path(folder) / f"roll-log-{lines}.toml"
            path.write_text(roll_log_game(lines), encoding="utf-8")
            figures[lines] = measure(path)
            rss, cpu, wall = figures[lines]
            out.append(f"{lines:>6} lines: peak RSS {rss / 1024:7.1f} MB, CPU {cpu:5.1f} s, "
                       f"wall {wall:5.1f} s")
        base = sizes[0]
        for lines in sizes[1:]:
            per_line = (figures[lines][0] - figures[base][0]) / (lines - base)
            verdict = "ok" if per_line <= TARGET_KB_PER_LINE else "short"
            out.append(f"{base}->{lines} lines: {per_line:.2f} KB/line (target <= "
                       f"{TARGET_KB_PER_LINE:.0f} KB/line: {verdict})")
    return out


if __name__ == "__main__":
    for line in run(tuple(int(a) for a in sys.argv[1:]) or SIZES):
        print(line)
