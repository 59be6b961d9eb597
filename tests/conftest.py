"""Shared fixtures: paths to the shipped replays and a helper to write replay files; the long
runs (``slow``) left to CI, so the README's test command stays quick for a newcomer."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"


@pytest.fixture
def write_replay(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write a replay document into a temporary file and return its path."""

    def write(text: str, name: str = "game.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture(autouse=True)
def _nothing_left_frozen() -> Iterator[None]:
    """What a test froze out of the collector is given back after it. The timeline freezes what
    it loads (``gc.freeze``: right for a process that ends with it); a test process goes on, and
    every later ``domain.memory.no_gc`` counts the frozen objects (``gc.get_freeze_count`` walks
    them all): after the timeline tests, each fold of a small game cost seconds."""
    yield
    gc.unfreeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (Monte Carlo cross-checks, every benchmark run to its end, a fresh
    clone's set-up, big property runs) run when ``MINISTER_STRESS=1``, as ``.ci/run`` sets; a
    local run lists them as skipped, saying so."""
    del config
    if os.environ.get("MINISTER_STRESS") == "1":
        return
    later = pytest.mark.skip(reason="a long run: CI runs it (MINISTER_STRESS=1, as .ci/run sets)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(later)
