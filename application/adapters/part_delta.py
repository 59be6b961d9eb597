"""A big memo part stored as what it changes of an earlier part of the same table.

A refresh after dice walks the board again, so the parts keyed by the walk are new: the whole
turn audit, every battle's board key in order, the game view's parts made from the records.
Each is hundreds of kilobytes on a 10,000-event game, and each equals the earlier walk's part but
for the battles the dice touched. Pickled whole into the chunk a desk command appends to the
stored memo (:mod:`application.adapters.memo_codec`), they made most of its bytes, written by
this refresh and read by every later one. So such a part is stored as a :class:`PartDelta`: the
earlier part it is nearest to (a key an earlier chunk holds) and what differs, element by element
for tuples and lists, field by field for dataclasses, and as a shared prefix plus the items after
it for dicts (:mod:`application.adapters.walk_delta` does the same for walks of the board).

An element counts as unchanged when it is the earlier part's very object, or of the same type and
equal (keys and digests are made again by each review, equal but not the same objects); read
back, the part holds the earlier part's objects there, which are equal to its own.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

#: Containers shorter than this are stored whole (a change would save nothing).
_SMALL = 8
#: How deep a change looks into containers held by a changed container.
_DEPTH = 3


class Seq:
    """A tuple or list as its base's elements, ``size`` of them, with ``items`` replaced
    (index -> element, or the change of the base's element there)."""

    __slots__ = ("items", "kind", "size")

    def __init__(self, kind: type, size: int, items: dict[int, Any]) -> None:
        self.kind, self.size, self.items = kind, size, items

    def __reduce__(self) -> tuple[Any, ...]:
        return Seq, (self.kind, self.size, self.items)


class Items:
    """A dict as the first ``count`` items of its base, then ``tail`` (a defaultdict keeps its
    base's factory)."""

    __slots__ = ("count", "tail")

    def __init__(self, count: int, tail: dict[Any, Any]) -> None:
        self.count, self.tail = count, tail

    def __reduce__(self) -> tuple[Any, ...]:
        return Items, (self.count, self.tail)


class Fields:
    """A dataclass as its base with the fields ``items`` names changed (name -> value, or the
    change of the base's field)."""

    __slots__ = ("items",)

    def __init__(self, items: dict[str, Any]) -> None:
        self.items = items

    def __reduce__(self) -> tuple[Any, ...]:
        return Fields, (self.items,)


_CHANGES = (Seq, Items, Fields)


class PartDelta:
    """A part as the earlier part ``base`` (a key of the same memo table) and its ``change``."""

    __slots__ = ("base", "change")

    def __init__(self, base: Any, change: Seq | Items | Fields) -> None:
        self.base, self.change = base, change

    def __reduce__(self) -> tuple[Any, ...]:
        return PartDelta, (self.base, self.change)

    def part(self, table: Mapping[Any, Any]) -> Any:
        """The part put together again on the earlier part the table holds (KeyError: none)."""
        return _apply(table[self.base], self.change)


def _same(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _change(new: Any, base: Any, depth: int) -> Any:
    """What ``new`` changes of ``base`` (a Seq, Items or Fields), or None when it is best
    stored whole."""
    kind = type(new)
    if kind is not type(base) or depth <= 0:
        return None
    if kind is tuple or kind is list:
        items: dict[int, Any] = {}
        whole = 0
        for index, element in enumerate(new):
            if index < len(base) and _same(element, base[index]):
                continue
            inner = _change(element, base[index], depth - 1) if index < len(base) else None
            if inner is None:
                whole += 1
                inner = element
            items[index] = inner
        if whole * 2 > len(new) or (len(new) < _SMALL and whole == len(items)):
            return None  # mostly new, or small and changed only by whole elements
        return Seq(kind, len(new), items)
    if kind is dict or kind is defaultdict:
        count = 0
        for (key, value), (other_key, other_value) in zip(new.items(), base.items(), strict=False):
            if not (_same(key, other_key) and _same(value, other_value)):
                break
            count += 1
        if count * 2 < len(new):
            return None
        return Items(count, dict(list(new.items())[count:]))
    if dataclasses.is_dataclass(new) and not isinstance(new, type):
        changed: dict[str, Any] = {}
        for field in dataclasses.fields(new):
            value, other = getattr(new, field.name), getattr(base, field.name)
            if _same(value, other):
                continue
            inner = _change(value, other, depth - 1)
            changed[field.name] = value if inner is None else inner
        if len(changed) == len(dataclasses.fields(new)) and not any(
                type(value) in _CHANGES for value in changed.values()):
            return None
        return Fields(changed)
    return None


def _apply(base: Any, change: Any) -> Any:
    kind = type(change)
    if kind is Seq:
        items = change.items
        elements = [_apply(base[index], items[index]) if index in items and type(items[index]) in _CHANGES
                    else items[index] if index in items else base[index] for index in range(change.size)]
        return elements if change.kind is list else tuple(elements)
    if kind is Items:
        held: dict[Any, Any] = defaultdict(base.default_factory) if type(base) is defaultdict else {}
        for index, (key, value) in enumerate(base.items()):
            if index >= change.count:
                break
            held[key] = value
        held.update(change.tail)
        return held
    if kind is Fields:
        return dataclasses.replace(base, **{
            name: _apply(getattr(base, name), value) if type(value) in _CHANGES else value
            for name, value in change.items.items()})
    return change


def big(part: Any) -> bool:
    """Whether a part holds a container of :data:`_SMALL` elements or more (itself, one of its
    first elements, or a dataclass's field): only such a part is worth storing as a change."""
    if isinstance(part, (tuple, list, dict)):
        if len(part) >= _SMALL:
            return True
        elements = list(part.values() if isinstance(part, dict) else part)[:_SMALL]
    elif dataclasses.is_dataclass(part) and not isinstance(part, type):
        elements = [getattr(part, field.name) for field in dataclasses.fields(part)]
    else:
        return False
    return any((isinstance(element, (tuple, list, dict)) and len(element) >= _SMALL)
               or (dataclasses.is_dataclass(element) and not isinstance(element, type) and big(element))
               for element in elements)


def part_delta(part: Any, earlier: Mapping[Any, Any]) -> PartDelta | None:
    """``part`` (:func:`big`) as what it changes of the earlier part (of ``earlier``: key ->
    part, those read back) it shares most with; None when none is near enough (it is stored
    whole)."""
    best: tuple[int, Any, Any] | None = None
    sized = isinstance(part, (tuple, list))
    for key, other in earlier.items():
        if type(other) is not type(part) or (sized and len(other) != len(part)) or not big(other):
            continue
        change = _change(part, other, _DEPTH)
        if change is None:
            continue
        weight = _weight(change)
        if best is None or weight < best[0]:
            best = (weight, key, change)
    return None if best is None else PartDelta(best[1], best[2])


def _weight(change: Any) -> int:
    """How many elements a change holds (to pick the nearest base)."""
    if type(change) is Seq:
        return sum(_weight(item) if type(item) in _CHANGES else 1 for item in change.items.values())
    if type(change) is Items:
        return len(change.tail)
    if type(change) is Fields:
        return sum(_weight(item) if type(item) in _CHANGES else 1 for item in change.items.values())
    return 1
