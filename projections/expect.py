"""Regression expectations: an ``[expect]`` table is a partial report (docs/replay-format.md).

Every key it names must equal the report's value; a list matches when its items match report
items in the same order, other items possibly standing between them. Each mismatch is given
with its path in the report (``battles[1].rounds[1].defender.hits``) and its path in the
expectation, so the caller can point at the replay file's line (:mod:`projections.expect_lines`).

A key the report never carries at that place (``resum_round``) is reported as unknown, with
the keys that are known there, rather than as missing: a misspelt expectation must not read as
a bug in the report.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import Enum
from typing import Any

#: Keys whose values are forces: a force is one value, compared whole ({} means "nothing left").
FORCE_KEYS = frozenset({"units", "attacker_losses", "defender_losses", "attacker_left",
                        "defender_left", "aa_losses"})

_SIDE = ("units", "hits", "dice", "stated_hits")

#: Every key the report (projections.report) can carry, by place; a place not listed (impact,
#: luck, the summary's counts per status) is open: any key may be asked for there.
KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "": ("format", "game", "as_rolled", "summary", "findings", "battles", "papers", "treasury"),
    "treasury[]": ("power", "ipcs", "income"),
    "papers[]": ("event", "kind", "at", "entered", "by", "about", "text", "status"),
    "game": ("id", "edition", "title"),
    "summary": ("findings", "finding_status", "battles", "battle_status"),
    "findings[]": ("id", "kind", "turn", "battle", "round", "side", "column", "status", "rule",
                   "detail", "ruling", "key"),
    "battles[]": ("turn", "battle", "kind", "status", "resume_round", "findings", "rounds",
                  "voided", "result", "impact", "awaiting", "dice_needed", "treasury"),
    "battles[].treasury[]": ("power", "ipcs", "income"),
    "battles[].awaiting": ("finding", "by", "side", "elections"),
    "battles[].dice_needed": ("count", "purpose", "round", "side", "column", "units", "on_hand", "then"),
    "battles[].rounds[]": ("round", "origin", "attacker", "defender", "attacker_losses",
                           "defender_losses", "aa_losses", "pause_required", "luck"),
    "battles[].rounds[].attacker": _SIDE,
    "battles[].rounds[].defender": _SIDE,
    "battles[].rounds[].attacker.dice[]": ("column", "values", "status", "first_strike"),
    "battles[].rounds[].defender.dice[]": ("column", "values", "status", "first_strike"),
    "battles[].voided[]": ("round", "side", "column", "values"),
    "battles[].result": ("winner", "attacker_left", "defender_left", "retreated"),
}

#: What names a list item: an expected item giving these keys is compared with the report's
#: item with the same values (a battle by turn and name, a round by number, a finding by id).
IDENTITY_KEYS = ("id", "turn", "battle", "round")

#: How an item of each list is called in a message.
_ITEM_NAMES = {"battles[]": "battle", "battles[].rounds[]": "round", "findings[]": "finding"}

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Mismatch:
    """One way the report fails an expectation."""

    #: Where in the ``[expect]`` table (keys and indexes of the expectation, not of the report).
    expect_path: Path
    #: What is wrong, starting with the path in the report.
    message: str

    def __str__(self) -> str:
        return self.message


def mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Every way ``actual`` fails to match ``expected`` as messages; empty when it matches."""
    return [problem.message for problem in check(expected, actual, path)]


def check(expected: Any, actual: Any, path: str = "", where: Path = ()) -> list[Mismatch]:
    """Every way the report ``actual`` fails to match ``expected``: unknown keys first, then
    differences. ``path`` and ``where`` prefix the report and expectation paths (``as_rolled``)."""
    return (unknown_keys(expected, path, where)
            + _compare(_known_only(expected, ""), actual, path, where, ""))


def unknown_keys(expected: Any, path: str = "", where: Path = (), place: str = "") -> list[Mismatch]:
    """The keys of ``expected`` the report never carries where they stand."""
    problems: list[Mismatch] = []
    if isinstance(expected, dict) and not _is_force(place):
        known = KNOWN_KEYS.get(place)
        for key, value in expected.items():
            key_path = f"{path}.{key}" if path else str(key)
            if known is not None and key not in known:
                problems.append(Mismatch((*where, key), f"{key_path}: unknown key{_did_you_mean(key, known)}"
                                                        f" (known keys here: {', '.join(known)})"))
                continue
            problems.extend(unknown_keys(value, key_path, (*where, key), _join(place, str(key))))
    elif isinstance(expected, list):
        for index, item in enumerate(expected):
            problems.extend(unknown_keys(item, f"{path}[{index}]", (*where, index), place + "[]"))
    return problems


def _did_you_mean(key: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    return f", did you mean {close[0]!r}?" if close else ""


def _join(place: str, key: str) -> str:
    return f"{place}.{key}" if place else key


def _is_force(place: str) -> bool:
    return place.rsplit(".", 1)[-1] in FORCE_KEYS


def _known_only(expected: Any, place: str) -> Any:
    """``expected`` without its unknown keys (reported once by :func:`unknown_keys`)."""
    if isinstance(expected, dict) and not _is_force(place):
        known = KNOWN_KEYS.get(place)
        return {key: _known_only(value, _join(place, str(key))) for key, value in expected.items()
                if known is None or key in known}
    if isinstance(expected, list):
        return [_known_only(item, place + "[]") for item in expected]
    return expected


def _compare(expected: Any, actual: Any, path: str, where: Path, place: str) -> list[Mismatch]:
    if isinstance(expected, dict) and _is_force(place):
        if expected == actual:
            return []
        return [Mismatch(where, f"{path}: expected {_show(expected)}, found {_show(actual)}")]
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [Mismatch(where, f"{path or '.'}: expected a table, found {_show(actual)}")]
        problems: list[Mismatch] = []
        for key, want in expected.items():
            key_path = f"{path}.{key}" if path else str(key)
            if key not in actual:
                problems.append(Mismatch((*where, key), f"{key_path}: missing from the report "
                                                        f"(expected {_show(want)})"))
            else:
                problems.extend(_compare(want, actual[key], key_path, (*where, key),
                                         _join(place, str(key))))
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [Mismatch(where, f"{path}: expected a list, found {_show(actual)}")]
        return _match_list(expected, actual, path, where, place + "[]")
    if _equal(expected, actual):
        return []
    return [Mismatch(where, f"{path}: expected {_show(expected)}, found {_show(actual)}")]


def _match_list(expected: list[Any], actual: list[Any], path: str, where: Path,
                place: str) -> list[Mismatch]:
    """Items in order with gaps allowed: greedy, each expected item takes the first match."""
    start = 0
    for index, want in enumerate(expected):
        for position in range(start, len(actual)):
            if not _compare(want, actual[position], f"{path}[{position}]", (*where, index), place):
                start = position + 1
                break
        else:
            return _explain(want, actual, start, index, path, (*where, index), place)
    return []


def _explain(want: Any, actual: list[Any], start: int, index: int, path: str, where: Path,
             place: str) -> list[Mismatch]:
    """Why the index-th expected item matches nothing: against the report's item of the same
    identity (turn and battle, round, id) when the expectation names one, else the item at the
    same position."""
    identity = {key: want[key] for key in IDENTITY_KEYS if isinstance(want, dict) and key in want}
    if identity:
        same = [position for position, item in enumerate(actual)
                if isinstance(item, dict) and all(_equal(v, item.get(k)) for k, v in identity.items())]
        name = _ITEM_NAMES.get(place, "item")
        named = ", ".join(f"{key} {value!r}" for key, value in identity.items())
        if not same:
            return [Mismatch(where, f"{path}[{index}]: the report has no {name} with {named}"
                                    f"{_listing(actual, identity)}")]
        later = [position for position in same if position >= start]
        if not later:
            return [Mismatch(where, f"{path}[{index}]: the {name} with {named} comes earlier in the "
                                    f"report ({path}[{same[0]}]) than the item expected before it")]
        candidate = later[0]
        return _compare(want, actual[candidate], f"{path}[{candidate}]", where, place)
    if not actual:
        return [Mismatch(where, f"{path}[{index}]: expected {_show(want)}, the report's list is empty")]
    candidate = min(max(start, index), len(actual) - 1)
    detail = _compare(want, actual[candidate], f"{path}[{candidate}]", where, place)
    head = Mismatch(where, f"{path}[{index}]: no item (in order) matches {_show(want)}")
    return [head, *(Mismatch(d.expect_path, "  closest: " + d.message) for d in detail)]


def _listing(actual: list[Any], identity: dict[str, Any]) -> str:
    """The identities the report's items have, to compare with the one asked for."""
    names = [" ".join(str(item.get(key)) for key in identity) for item in actual if isinstance(item, dict)]
    if not names:
        return " (the report's list is empty)"
    shown = "; ".join(names[:8]) + ("; ..." if len(names) > 8 else "")
    return f" (it has: {shown})"


def _equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _show(value: Any) -> str:
    text = repr(_plain(value))
    return text if len(text) <= 120 else text[:117] + "..."


def _plain(value: Any) -> Any:
    """``value`` as the JSON report writes it: a status or kind (a StrEnum) as its text."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value
