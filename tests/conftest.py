"""Shared fixtures: paths to the shipped replays and a helper to write replay files."""

from __future__ import annotations

from collections.abc import Callable
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
