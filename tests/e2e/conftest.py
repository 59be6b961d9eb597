"""Fixtures the end-to-end tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.store_helpers import postgres_schema


@pytest.fixture(params=["sqlite", "postgres"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store for a command to run on: an SQLite file, then a PostgreSQL schema (skipped,
    saying so, when no server is configured)."""
    if request.param == "sqlite":
        yield f"sqlite:{tmp_path / 'store.sqlite3'}"
    else:
        with postgres_schema() as url:
            yield url
