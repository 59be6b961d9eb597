"""Property tests at the edge (issue 14 items 2-4): any value of any type in any field of a replay
file is either accepted or refused with a ReplayError naming a line; never another exception.
Counts have stated limits (docs/reliability.md)."""

from __future__ import annotations

import tomllib
from datetime import UTC
from typing import Any

import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from application.intake.replayfile import parse_replay
from application.intake.replayschema import MAX_COUNT
from domain.errors import ReplayError
from domain.rules.forces import MAX_UNIT_COUNT
from tests.unit.test_replayfile import GOOD

BASE = GOOD + '''
[[event]]
type = "dice"
at = 2008-01-01T10:03:00Z
battle = "Caucasus"
dice = "12"

[[event]]
type = "report"
at = 2008-01-01T10:04:00Z
by = "USSR"
text = "too many dice"

[[event]]
type = "casualties"
at = 2008-01-01T10:05:00Z
battle = "Caucasus"
round = 1
side = "defender"
units = "1 INF"
'''

Field = tuple[str, int | None, str]
#: (table, event index or None, key) of every field of BASE, plus keys a file may add.
FIELDS: list[Field] = [("", None, key) for key in ("expect", "integrity", "game", "event")]
FIELDS += [("game", None, key)
           for key in ("id", "edition", "title", "dice_seed", "number", "source_line")]
for _index, _record in enumerate(tomllib.loads(BASE)["event"]):
    FIELDS += [("event", _index, key)
               for key in (*_record, "source_line", "game_number", "turn_number", "country")]

SCALARS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30), st.dates(),
    st.datetimes(timezones=st.just(UTC)), st.datetimes())
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3),
                   st.dictionaries(st.text(alphabet="abcxyz", min_size=1, max_size=4), SCALARS,
                                   max_size=3))


def _spoiled(field: tuple[str, int | None, str], value: Any) -> str:
    document = tomllib.loads(BASE)
    table, index, key = field
    if table == "game":
        document["game"][key] = value
    elif table == "event":
        assert index is not None
        document["event"][index][key] = value
    else:
        document[key] = value
    return tomli_w.dumps(document, multiline_strings=True)


@settings(max_examples=400, deadline=None)
@given(field=st.sampled_from(FIELDS), value=VALUES)
def test_any_value_in_any_field_is_accepted_or_refused_with_a_line(
        field: tuple[str, int | None, str], value: Any) -> None:
    text = _spoiled(field, value)
    try:
        parse_replay(text, "spoiled.toml")
    except ReplayError as error:
        assert error.line is not None, str(error)
        assert 1 <= error.line <= len(text.splitlines()) + 1, str(error)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(min_value=0, max_value=10**30))
def test_unit_counts_have_a_stated_limit(count: int) -> None:
    text = BASE.replace('"USSR Cauc: 2 INF"', f'"USSR Cauc: {count} INF"')
    if count <= MAX_UNIT_COUNT:
        parse_replay(text, "count.toml")
        return
    try:
        parse_replay(text, "count.toml")
    except ReplayError as error:
        assert error.line == 11 and f"at most {MAX_UNIT_COUNT} units" in str(error)
    else:
        raise AssertionError(f"{count} INF was accepted")


@settings(max_examples=200, deadline=None)
@given(number=st.integers(min_value=-(2**80), max_value=2**80))
def test_whole_numbers_have_a_stated_limit(number: int) -> None:
    text = _spoiled(("event", 5, "round"), number)
    if 0 <= number <= MAX_COUNT:
        assert parse_replay(text, "n.toml").events[-1].round == number  # type: ignore[attr-defined]
        return
    try:
        parse_replay(text, "n.toml")
    except ReplayError as error:
        assert "round in this casualties event" in str(error) and error.line is not None
    else:
        raise AssertionError(f"round = {number} was accepted")
