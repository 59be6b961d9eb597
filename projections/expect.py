"""Regression expectations: an ``[expect]`` table is a partial report (spec/replay-format.md).

Every key it names must equal the report's value; a list matches when its items match report
items in the same order, other items possibly standing between them. Each mismatch is given
with its path (``battles[0].rounds[1].attacker.units``).
"""

from __future__ import annotations

from typing import Any

#: Keys whose values are forces: a force is one value, compared whole ({} means "nothing left").
FORCE_KEYS = frozenset({"units", "attacker_losses", "defender_losses", "attacker_left",
                        "defender_left", "aa_losses"})


def mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Every way ``actual`` fails to match ``expected``; empty when it matches."""
    if isinstance(expected, dict) and path.rsplit(".", 1)[-1] in FORCE_KEYS:
        return [] if expected == actual else [f"{path}: expected {_show(expected)}, found {_show(actual)}"]
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected a table, found {_show(actual)}"]
        problems: list[str] = []
        for key, want in expected.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in actual:
                problems.append(f"{where}: missing from the report (expected {_show(want)})")
            else:
                problems.extend(mismatches(want, actual[key], where))
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list, found {_show(actual)}"]
        return _match_list(expected, actual, path)
    if _equal(expected, actual):
        return []
    return [f"{path}: expected {_show(expected)}, found {_show(actual)}"]


def _match_list(expected: list[Any], actual: list[Any], path: str) -> list[str]:
    """Items in order with gaps allowed: greedy, each expected item takes the first match."""
    start = 0
    for index, want in enumerate(expected):
        for position in range(start, len(actual)):
            if not mismatches(want, actual[position], f"{path}[{position}]"):
                start = position + 1
                break
        else:
            # Say why against the item most likely meant: the one at the same position.
            candidate = min(max(start, index), len(actual) - 1) if actual else None
            if candidate is None:
                return [f"{path}[{index}]: expected {_show(want)}, the report's list is empty"]
            detail = mismatches(want, actual[candidate], f"{path}[{candidate}]")
            head = f"{path}[{index}]: no item (in order) matches {_show(want)}"
            return [head, *("  closest: " + d for d in detail)]
    return []


def _equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return bool(expected == actual)
    return bool(expected == actual)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
