"""domain/ and projections/ never import Textual (or Rich): the user interface sits on top of them."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "projections")
UI_PACKAGES = ("textual", "rich")


def modules() -> list[str]:
    """Every module of the two packages, by dotted name."""
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_packages_have_modules() -> None:
    found = modules()
    assert "domain.review.views" in found and "projections.timeline" in found and "projections.luck" in found


def test_no_import_statement_names_textual() -> None:
    offenders: list[str] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__" \
                        and node.args and isinstance(node.args[0], ast.Constant):
                    names = [str(node.args[0].value)]
                line = getattr(node, "lineno", 0)
                offenders.extend(f"{path.relative_to(ROOT)}:{line} imports {name}"
                                 for name in names if name.split(".")[0] in UI_PACKAGES)
    assert offenders == []


def test_importing_every_module_loads_no_textual() -> None:
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules()!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {UI_PACKAGES!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_check_would_catch_textual() -> None:
    """The subprocess check is not vacuous: importing the app does load Textual."""
    script = ("import sys, tui.app\n"
              "print('textual' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
