"""A big memo part stored as what it changes of an earlier one (application/adapters/part_delta.py):
put together again, it equals the part it was made from, container types and all."""

from __future__ import annotations

import dataclasses
import pickle
from collections import defaultdict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from application.adapters.part_delta import PartDelta, big, part_delta


@dataclasses.dataclass(frozen=True)
class Parts:
    """A dataclass of big fields, as the game view's parts are."""

    points: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    issues: dict[str, list[str]]


def _exact(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (True and 1 are not the same here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_exact(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        if isinstance(a, defaultdict) and a.default_factory is not b.default_factory:
            return False
        return list(a) == list(b) and all(_exact(a[k], b[k]) for k in a)
    if dataclasses.is_dataclass(a):
        return all(_exact(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return bool(a == b)


leaf = st.one_of(st.integers(0, 5), st.booleans(), st.text("ab", max_size=2),
                 st.binary(min_size=1, max_size=3))
pairs = st.tuples(st.integers(0, 9), st.integers(0, 9))


def _edit(base: tuple[Any, ...], edits: list[tuple[int, Any]], grow: list[Any]) -> tuple[Any, ...]:
    made = list(base)
    for at, value in edits:
        if made:
            made[at % len(made)] = value
    return tuple(made + grow)


@settings(max_examples=200, deadline=None)
@given(st.lists(leaf, min_size=0, max_size=40), st.lists(st.tuples(st.integers(0, 99), leaf), max_size=6),
       st.lists(leaf, max_size=3), st.sampled_from([tuple, list]))
def test_a_sequence_put_together_again_is_the_sequence(base: list[Any], edits: list[tuple[int, Any]],
                                                       grow: list[Any], kind: type) -> None:
    """Elements replaced here and there (a bool where an int was: equal, not the same) and
    some added: the change put back on the base is the new sequence exactly."""
    old = kind(base)
    new = kind(_edit(tuple(base), edits, grow))
    delta = part_delta(new, {"base": old})
    if delta is not None:
        again = pickle.loads(pickle.dumps(delta)).part({"base": old})
        assert _exact(again, new)


@settings(max_examples=100, deadline=None)
@given(st.lists(pairs, min_size=8, max_size=30), st.lists(st.tuples(st.integers(0, 99), pairs), max_size=3),
       st.dictionaries(st.text("xyz", min_size=1, max_size=2),
                       st.lists(st.text("ab", max_size=1), max_size=2), min_size=8, max_size=12),
       st.booleans())
def test_a_dataclass_of_big_fields_put_together_again_is_the_dataclass(
        points: list[tuple[int, int]], edits: list[tuple[int, Any]], issues: dict[str, list[str]],
        drop_last: bool) -> None:
    """Fields changed element by element (a tuple of pairs), a dict with an item changed at
    its end (a defaultdict stays one), a field left as it was: the part again, exactly."""
    held: defaultdict[str, list[str]] = defaultdict(list, issues)
    old = Parts(tuple(points), ("a",) * 9, held)
    changed: defaultdict[str, list[str]] = defaultdict(list, issues)
    if drop_last:
        changed.pop(list(changed)[-1])
    changed["new"] = ["b"]
    new = Parts(_edit(tuple(points), edits, []), old.names, changed)
    assert big(new)
    delta = part_delta(new, {"base": old, "other": ("not", "a", "dataclass")})
    assert delta is not None and delta.base == "base"
    again = pickle.loads(pickle.dumps(delta)).part({"base": old})
    assert _exact(again, new)


def test_a_part_mostly_new_or_small_is_stored_whole() -> None:
    """Nothing near enough to store as a change: None (the part is pickled as it is)."""
    assert part_delta(tuple(range(20)), {"base": tuple(range(100, 120))}) is None
    assert part_delta((1, 2), {"base": (1, 3)}) is None
    assert not big((1, 2, 3)) and big((1, tuple(range(8)))) and big(tuple(range(8)))


def test_the_nearest_base_is_chosen() -> None:
    """Of two earlier parts, the change is made against the one it differs from least."""
    new = tuple(range(30))
    far = (*range(20), *range(100, 110))
    near = (*range(29), 99)
    delta = part_delta(new, {"far": far, "near": near})
    assert isinstance(delta, PartDelta) and delta.base == "near"
    assert delta.part({"near": near}) == new
