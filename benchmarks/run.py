"""Every benchmark in one run: ``python -m benchmarks.run`` (or ``python3 dev.py bench``).

Targets live here, never in timed unit tests: the machines are shared and noisy. Each module
prints figures and ratios measured in this same run.
"""

from __future__ import annotations

import importlib
import sys
import time

MODULES = ("benchmarks.bench_engine", "benchmarks.bench_odds", "benchmarks.bench_store",
           "benchmarks.bench_tui", "benchmarks.bench_open", "benchmarks.bench_desk",
           "benchmarks.bench_archive", "benchmarks.bench_roll_log", "benchmarks.bench_mail")


def main(argv: list[str]) -> int:
    """Run the benchmarks named in ``argv`` (module suffixes such as ``odds``), or all."""
    wanted = [m for m in MODULES if not argv or any(m.endswith(a) for a in argv)]
    goals: list[str] = []
    for name in wanted:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                print(f"== {name}: not present")
                continue
            raise
        start = time.perf_counter()
        print(f"== {name}", flush=True)
        for line in module.run():
            print(f"   {line}", flush=True)
            if "(target" in line or "target " in line:
                goals.append(f"{name.removeprefix('benchmarks.')}: {line.strip()}")
        print(f"   ({time.perf_counter() - start:.1f} s)", flush=True)
    # Every figure with a target, once more, each with its verdict (ok / short).
    print("== goals (target: ok/short)")
    for line in goals:
        print(f"   {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
