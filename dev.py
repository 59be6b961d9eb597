#!/usr/bin/env python3
"""minister's developer entry point: set up ``.venv`` on first use, then run a job.

    python3 dev.py show     the timeline on a shipped disputed game, on the embedded store
    python3 dev.py test     the full test suite (ruff, mypy --strict, import contracts, pytest, replays)
    python3 dev.py bench    the benchmarks

Needs only python3: CPython 3.11 or newer (the suite is run on 3.11). The virtual
environment is rebuilt when pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".minister-installed"
DEMO_REPLAY = ROOT / "replays" / "part14" / "east-europe-forgotten-armour.toml"
DEMO_GAME = "part14-east-europe"


def _requirements_hash() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> None:
    """Create .venv and install the project with its dev tools, unless already current."""
    # Any CPython from 3.11 on; 3.11 is the version the suite is run on here.
    if sys.version_info < (3, 11) or sys.implementation.name != "cpython":
        sys.exit(f"dev.py: minister needs CPython 3.11 or newer, this is "
                 f"{sys.implementation.name} {sys.version.split()[0]}")
    wanted = _requirements_hash()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and (BIN / "minister").exists():
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("dev.py: installing minister and its tools into .venv", flush=True)
    pip = [str(BIN / "python"), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "install", "-e", f"{ROOT}[dev]"], check=True, cwd=ROOT)
    STAMP.write_text(wanted + "\n")


def run(*command: str) -> int:
    """Run a command from .venv/bin in the repository root; return its exit code."""
    return subprocess.run([str(BIN / command[0]), *command[1:]], cwd=ROOT, check=False).returncode


def job_test(extra: list[str]) -> int:
    """ruff, mypy --strict, the import contracts, then pytest on every core (which also
    verifies every replay)."""
    for step in (("ruff", "check", "."), ("mypy",), ("lint-imports",)):
        print(f"dev.py: {' '.join(step)}", flush=True)
        code = run(*step)
        if code:
            return code
    return run("pytest", "-n", "auto", *extra)


def job_show(extra: list[str]) -> int:
    """Import the shipped disputed game into the embedded store and open its timeline."""
    code = run("minister", "import", "--if-new", str(DEMO_REPLAY))
    if code:
        return code
    return run("minister", "show", DEMO_GAME, *extra)


def job_bench(extra: list[str]) -> int:
    """Every benchmark, in one run."""
    return run("python", "-m", "benchmarks.run", *extra)


JOBS = {"test": job_test, "show": job_show, "bench": job_bench}


def main(argv: list[str]) -> int:
    """``dev.py JOB [ARGS...]``."""
    if not argv or argv[0] not in JOBS:
        print(__doc__)
        return 2
    ensure_venv()
    return JOBS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
