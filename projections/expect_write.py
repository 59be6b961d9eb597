"""Writing a replay's ``[expect]`` table from its report (``minister expect FILE``).

The other side of :mod:`projections.expect`: from the report of the game as corrected (and the
record as rolled) it picks what a regression replay states (docs/replay-format.md, "Expectations"):

- ``summary``: every count (findings and battles, per status), so an unexpected finding fails;
- ``treasury``: each power's IPCs and income at the end, when the record knows them;
- ``findings``: each finding's kind, where (turn, battle, round, side, column) and status; not
  its id (ids are for display and may be given anew) nor its words (they are the report's);
- ``battles``: each battle's turn, territory, status, resume round and result, and for a
  corrected battle its rounds (units, hits, losses), where a correction shows;
- ``as_rolled``: the record's counts and each battle's status and result as rolled.

What it writes is what the program says now: a developer reviews every value against the rule
texts before committing it (it is never a proof of itself). :func:`replace_expect` puts the
table in place of a file's own.
"""

from __future__ import annotations

import re
from typing import Any

import tomli_w

#: Where a finding is, in the order the report gives it.
_FINDING_KEYS = ("kind", "turn", "battle", "round", "side", "column", "status")
_BATTLE_KEYS = ("turn", "battle", "status", "resume_round", "result")
_ROUND_KEYS = ("attacker_losses", "defender_losses", "aa_losses")
_NOTE = ("# Written by `minister expect` from the report as it is now: check every value against\n"
         "# the rule texts before trusting it (docs/replay-format.md, \"Expectations\").\n")


def expectations(corrected: dict[str, Any], rolled: dict[str, Any]) -> dict[str, Any]:
    """The ``[expect]`` table for a game's reports as corrected and as rolled (report dicts)."""
    table: dict[str, Any] = {"summary": corrected["summary"]}
    if "treasury" in corrected:
        table["treasury"] = corrected["treasury"]
    table["findings"] = [_pick(f, _FINDING_KEYS) for f in corrected["findings"]]
    table["battles"] = [_battle(b) for b in corrected["battles"]]
    table["as_rolled"] = {"summary": rolled["summary"],
                          "battles": [_pick(b, _BATTLE_KEYS) for b in rolled["battles"]]}
    return table


def _pick(item: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: item[key] for key in keys if item.get(key) is not None}


def _battle(battle: dict[str, Any]) -> dict[str, Any]:
    picked = _pick(battle, _BATTLE_KEYS)
    if battle["status"] == "corrected":
        picked["rounds"] = [_round(r) for r in battle["rounds"]]
    return picked


def _round(view: dict[str, Any]) -> dict[str, Any]:
    picked = {"round": view["round"], "origin": view["origin"]}
    for side in ("attacker", "defender"):
        picked[side] = {"units": view[side]["units"], "hits": view[side]["hits"]}
    return picked | _pick(view, _ROUND_KEYS)


# -- TOML ------------------------------------------------------------------------------------------
def expect_toml(table: dict[str, Any]) -> str:
    """The ``[expect]`` table as TOML, laid out as the shipped replays write it: counts and lists
    of findings inline, one ``[[expect.battles]]`` table per battle."""
    out = [_NOTE, "[expect]\n"]
    for key in ("summary", "treasury", "findings"):
        if key in table:
            out.append(f"{key} = {_value(table[key], multiline=True)}\n")
    for battle in table.get("battles", []):
        rounds = battle.get("rounds", [])
        out.append("\n[[expect.battles]]\n")
        out += [f"{key} = {_value(value)}\n" for key, value in battle.items()
                if key != "rounds" and value is not None]
        for view in rounds:
            out.append("\n[[expect.battles.rounds]]\n")
            out += [f"{key} = {_value(value)}\n" for key, value in view.items()]
    rolled = table.get("as_rolled")
    if rolled is not None:
        out.append("\n[expect.as_rolled]\n")
        out += [f"{key} = {_value(value, multiline=True)}\n" for key, value in rolled.items()]
    return "".join(out)


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else _string(key)


def _string(text: str) -> str:
    return tomli_w.dumps({"x": text}).removeprefix("x = ").removesuffix("\n")


def _value(value: Any, *, multiline: bool = False) -> str:
    """A TOML value, inline (a list of tables one per line when ``multiline``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        # TOML has no null: a value the report leaves null (a void battle's winner) is not stated.
        items = [(k, v) for k, v in value.items() if v is not None]
        if not items:
            return "{}"
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in items) + " }"
    if isinstance(value, list):
        if multiline and value:
            return "[\n" + "".join(f"  {_value(item)},\n" for item in value) + "]"
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} in [expect]")


# -- the file --------------------------------------------------------------------------------------
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_\-\"'. ]+?)\s*\]\]?\s*(?:#.*)?$")


def _table_of(line: str) -> str | None:
    """The (dotted) name a table header line opens, or None for any other line."""
    found = _HEADER.match(line)
    return found.group(1).replace(" ", "").strip("\"'") if found else None


def replace_expect(text: str, table: str) -> str:
    """A replay file's text with its ``[expect]`` tables (``[expect]``, ``[[expect.battles]]``,
    ``[expect.as_rolled]`` ...) replaced by ``table``, where the first of them stood (at the end
    when it has none). The lines of the old tables go with them, comments included; every other
    line is kept as it is. A multi-line string is never read as a header."""
    lines = text.splitlines(keepends=True)
    kept: list[str] = []
    at: int | None = None
    inside = in_string = False
    for line in lines:
        if not in_string:
            name = _table_of(line)
            if name is not None:
                inside = name == "expect" or name.startswith("expect.")
                if inside and at is None:
                    at = len(kept)
        if line.count('"""') % 2 or line.count("'''") % 2:
            in_string = not in_string
        if not inside:
            kept.append(line)
    if at is None:
        body = "".join(kept).rstrip("\n")
        return f"{body}\n\n{table}"
    before, after = "".join(kept[:at]).rstrip("\n"), "".join(kept[at:]).lstrip("\n")
    return f"{before}\n\n{table}" + (f"\n{after}" if after else "")
