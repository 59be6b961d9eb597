"""docs/architecture.md names every module of minister's packages (a module it does not name is
a module nobody was told about)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_architecture_names_every_module() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/.]+)`", text))
    missing = []
    for package in ("domain", "projections", "application", "tui"):
        for source in sorted((ROOT / package).rglob("*.py")):
            if source.name == "__init__.py":
                continue
            path = source.relative_to(ROOT).as_posix()
            if not ({source.stem, path, f"{source.parent.name}/{source.name}"} & named) and path not in text:
                missing.append(path)
    assert missing == []
