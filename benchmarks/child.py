"""A child process's own figures: its wall and CPU time from spawn to exit, and its own peak RSS.

Linux carries a process's peak resident set across ``exec``: a child that a big benchmark
process spawns (``vfork`` + ``exec``, as :mod:`subprocess` does) reports the parent's peak as
its own ``ru_maxrss``, through ``wait4`` and ``getrusage(RUSAGE_SELF)`` alike (seen here: every
command of a run reported the 498 MB the run itself had reached). So a command is started
through a small launcher that forks it from the launcher's own few megabytes, and a probe
running inside a child reads its peak from ``VmHWM``, the high-water mark of the address space
that ``exec`` made new.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent

#: Forks the command from this small process, waits for it, and writes, as the last line of its
#: standard error, the command's wall seconds from fork to exit, its CPU seconds, its own peak
#: RSS in KB and its exit code (the command's output passes through untouched).
_LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
sys.stderr.write(f"\\n{wall} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss} "
                 f"{os.waitstatus_to_exitcode(status)}\\n")
"""


class Measured(NamedTuple):
    """What one command cost, from its spawn to its exit, and what it printed."""

    wall: float
    cpu: float
    peak_mb: float
    stdout: str


def measured(command: list[str]) -> Measured:
    """Run ``command`` (its first item an executable path) in the repository root; raise with
    its standard error if it fails."""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", _LAUNCHER, *command], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    err, _, figures = done.stderr.rstrip("\n").rpartition("\n")
    wall, cpu, peak_kb, code = figures.split()
    if done.returncode != 0 or code != "0":
        raise RuntimeError(f"{' '.join(command)} failed ({code}): {err[-500:]}")
    return Measured(float(wall), float(cpu), int(peak_kb) / 1024.0, done.stdout)


def own_peak_kb() -> int:
    """This process's own peak resident set in KB (``VmHWM``; see the module's docstring)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")
