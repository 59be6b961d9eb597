"""A walk of the board stored as what it adds to an earlier walk in the same memo.

Dice for a battle make the review walk the board again, resumed from an earlier walk
(domain/record/board_resume.py): the new walk's logs start with the very entries of the earlier
walk's (the same objects, up to where it resumed) and end with a few new ones. Pickled whole into
the chunk a desk command appends to the stored memo (:mod:`application.adapters.memo_codec`),
it would write the earlier walk's megabyte again, and the next refresh would read it again. So a
walk an appended chunk holds is stored as a :class:`WalkDelta` against the earlier walk it
shares most with (an earlier chunk holds it): for each log, how many of its first items are the
earlier walk's and the items after them. Reading the chunk back puts the walk together again:
its logs equal the ones it was stored from, item for item.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Any

from domain.record.board_walk import BoardWalk

#: The walk's logs (history is per territory): a list, or a dict in insertion order.
_LISTS = ("discrepancies", "counts", "round_ends", "control_log")
_DICTS = ("known_since", "adopted")
#: Fields a walk is made from (its per-process cache left out, as memo_codec pickles a walk).
_FIELDS = tuple(f.name for f in dataclasses.fields(BoardWalk) if f.init and f.name != "boarded")


def _shared(mine: Iterable[Any], theirs: Iterable[Any]) -> int:
    """How many of the first items of two sequences are the same objects."""
    count = 0
    for a, b in zip(mine, theirs, strict=False):
        if a is not b:
            break
        count += 1
    return count


class WalkDelta:
    """A walk as the earlier walk ``base`` (a key of the memo's walks) plus what it adds."""

    __slots__ = ("base", "fields", "history", "logs")

    def __init__(self, base: Any, history: dict[str, tuple[int, list[Any]]],
                 logs: dict[str, tuple[int, Any]], fields: dict[str, Any]) -> None:
        self.base, self.history, self.logs, self.fields = base, history, logs, fields

    def __reduce__(self) -> tuple[Any, ...]:
        return WalkDelta, (self.base, self.history, self.logs, self.fields)

    @classmethod
    def of(cls, walk: BoardWalk, base_key: Any, base: BoardWalk) -> WalkDelta:
        """``walk`` as what it adds to ``base``."""
        history = {}
        for territory, entries in walk.history.items():
            earlier = base.history.get(territory, ())
            count = _shared(entries, earlier)
            history[territory] = (count, entries[count:])
        logs: dict[str, tuple[int, Any]] = {}
        for name in _LISTS:
            items, earlier = getattr(walk, name), getattr(base, name)
            count = _shared(items, earlier) if items is not None and earlier is not None else 0
            logs[name] = (count, items[count:] if items is not None else None)
        for name in _DICTS:
            items, earlier = getattr(walk, name), getattr(base, name)
            count = _shared_items(items, earlier)
            logs[name] = (count, dict(islice(items.items(), count, None)))
        fields = {name: getattr(walk, name) for name in _FIELDS if name not in logs and name != "history"}
        return cls(base_key, history, logs, fields)

    def walk(self, walks: Mapping[Any, Any]) -> BoardWalk:
        """The walk put together again on the earlier walk the memo holds (KeyError: none)."""
        base = walks[self.base]
        if not isinstance(base, BoardWalk):
            raise KeyError(self.base)
        history = {territory: [*base.history[territory][:count], *tail] if count else list(tail)
                   for territory, (count, tail) in self.history.items()}
        made: dict[str, Any] = {}
        for name, (count, tail) in self.logs.items():
            earlier = getattr(base, name)
            if name in _DICTS:
                made[name] = dict(islice(earlier.items(), count)) | tail if count else dict(tail)
            elif tail is None:
                made[name] = None
            else:
                made[name] = [*earlier[:count], *tail] if count else list(tail)
        return BoardWalk(history=history, **made, **self.fields)


def _shared_items(mine: dict[Any, Any], theirs: dict[Any, Any]) -> int:
    """How many of two dicts' first items have the same key and value objects."""
    count = 0
    for (key, value), (other_key, other_value) in zip(mine.items(), theirs.items(), strict=False):
        if key is not other_key or value is not other_value:
            break
        count += 1
    return count


def delta_of(walk: BoardWalk, earlier: Mapping[Any, Any]) -> WalkDelta | None:
    """``walk`` as what it adds to the earlier walk (of ``earlier``: key -> walk) it was resumed
    from (the one whose territories' first history entries are most often its own); None when
    it shares none (it is stored whole)."""
    best: tuple[int, Any, BoardWalk] | None = None
    for key, other in earlier.items():
        if not isinstance(other, BoardWalk) or other.board is not walk.board:
            continue
        shared = sum(1 for territory, entries in walk.history.items()
                     if entries and (theirs := other.history.get(territory)) and theirs[0] is entries[0])
        if shared and (best is None or shared > best[0]):
            best = (shared, key, other)
    return None if best is None else WalkDelta.of(walk, best[1], best[2])
