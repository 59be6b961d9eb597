"""Immutable forces: a multiset of unit types, parsed from and printed as IAAPA notation.

``Force.parse("9 INF,1 ARM, 2 FTRs")`` and ``str(force)`` -> ``"9 INF, 1 ARM, 2 FTR"`` (canonical:
types in the canonical order, zero counts omitted). A force is a frozen msgspec Struct so it can
sit inside events and snapshots as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache

import msgspec

from domain.errors import InvalidNotationError
from domain.rules.units import ALIASES, UnitType, unit_from_name

#: The most units of one type one entry may name ("999 INF"): far above any real game, low
#: enough that a unit list built from it stays small (a hostile "99999999 INF" is refused).
MAX_UNIT_COUNT = 999

_ITEM = re.compile(r"^\s*(?:(\d+)\s*[xX]?\s*)?([A-Za-z][A-Za-z. ]*?)\s*$")


class Force(msgspec.Struct, frozen=True, array_like=True, cache_hash=True):
    """A multiset of units in canonical order; build it with :meth:`of` or :meth:`parse`.

    Its hash is worked out once (``cache_hash``): forces key the review's remembered
    functions (losses, columns, casualties), which hash the same few thousand forces millions
    of times in a long game.
    """

    items: tuple[tuple[UnitType, int], ...] = ()

    # -- construction -------------------------------------------------------------------
    @classmethod
    def of(cls, counts: Mapping[UnitType, int] | Iterable[tuple[UnitType, int]]) -> Force:
        """A force from counts per type; zero counts are dropped, negatives refused."""
        if type(counts) is tuple:
            # Unit lists as typed and sums of forces recur all game long: read each once.
            return _of_pairs(counts)
        return cls._of(counts)

    @classmethod
    def _of(cls, counts: Mapping[UnitType, int] | Iterable[tuple[UnitType, int]]) -> Force:
        pairs = counts.items() if isinstance(counts, Mapping) else counts
        merged: dict[UnitType, int] = {}
        for unit, count in pairs:
            if count < 0:
                raise ValueError(f"negative count {count} of {unit.value}")
            merged[unit] = merged.get(unit, 0) + count
        return cls(tuple(sorted(((u, n) for u, n in merged.items() if n), key=_key)))

    @classmethod
    def from_units(cls, units: Iterable[UnitType]) -> Force:
        """A force holding each listed unit once per occurrence."""
        merged: dict[UnitType, int] = {}
        for unit in units:
            merged[unit] = merged.get(unit, 0) + 1
        return cls.of(merged)

    @classmethod
    def parse(cls, text: str, *, typos: list[str] | None = None) -> Force:
        """Parse ``"9 INF, 1 ARM, 2 FTRs"`` / ``"AA, 2 INF"``; see :func:`parse_units`."""
        return _of_pairs(_units_noting(text, typos))  # the same few texts recur: each force made once

    @classmethod
    def from_json(cls, data: Mapping[str, int]) -> Force:
        """The inverse of :meth:`to_json`."""
        return cls.of({UnitType(name): count for name, count in data.items()})

    # -- queries --------------------------------------------------------------------------
    def __getitem__(self, unit: UnitType) -> int:
        for have, count in self.items:
            if have is unit:
                return count
        return 0

    def __iter__(self) -> Iterator[tuple[UnitType, int]]:
        return iter(self.items)

    def __len__(self) -> int:
        """Number of units (not of types)."""
        return sum(count for _, count in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    @property
    def types(self) -> tuple[UnitType, ...]:
        """The unit types present, in canonical order."""
        return tuple([unit for unit, _ in self.items])

    def units(self) -> list[UnitType]:
        """Each unit once per count, in canonical order."""
        return [unit for unit, count in self.items for _ in range(count)]

    def where(self, keep: Callable[[UnitType], bool]) -> Force:
        """The sub-force of the types ``keep`` accepts."""
        return Force(tuple((u, n) for u, n in self.items if keep(u)))

    def combatants(self) -> Force:
        """Units that can be hit (without AA guns and industrial complexes)."""
        for unit, _ in self.items:
            if unit in _NOT_COMBATANTS:
                return Force(tuple([pair for pair in self.items if pair[0] not in _NOT_COMBATANTS]))
        return self

    def contains(self, other: Force) -> bool:
        """Whether every unit of ``other`` is in this force."""
        return all(self[unit] >= count for unit, count in other.items)

    # -- arithmetic -----------------------------------------------------------------------
    def __add__(self, other: Force) -> Force:
        if not other.items:
            return self
        if not self.items:
            return other
        return _of_pairs(self.items + other.items)  # (Force.of of a tuple, without its call)

    def __sub__(self, other: Force) -> Force:
        if not self.contains(other):
            raise ValueError(f"cannot remove {other} from {self}")
        return self.minus_available(other)

    def minus_available(self, other: Force) -> Force:
        """Subtract what is there to subtract, ignoring the rest."""
        if not other.items:
            return self
        return _minus(self, other)

    # -- output ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, int]:
        """``{"INF": 6, "ARM": 3}``: the report's form of a force."""
        names = _NAMES
        return {names[unit]: count for unit, count in self.items}

    def __str__(self) -> str:
        return _formatted(self.items)

    def __repr__(self) -> str:
        return f"Force({str(self)!r})"


@lru_cache(maxsize=16384)
def _of_pairs(pairs: tuple[tuple[UnitType, int], ...]) -> Force:
    force = Force._of(pairs)
    # Pairs out of canonical order give the force the canonical ones give, the same object:
    # forces met again are then mostly the same object, which compares equal at once (the
    # review compares forces, and remembers by them, round after round).
    return force if force.items == pairs else _of_pairs(force.items)


#: :meth:`Force.of` of a unit list as typed (a tuple of pairs), without the method's call: the
#: review reads every typed line's units.
of_typed = _of_pairs


@lru_cache(maxsize=16384)
def _minus(force: Force, other: Force) -> Force:
    """``force`` less what it holds of ``other``: a pure function of two small values that
    recur all game long (a review subtracts each round's losses several times), remembered."""
    # Removing keeps the canonical order, so no sorting is needed.
    less = dict(other.items).get
    kept = []
    for unit, count in force.items:
        left = count - less(unit, 0)
        if left > 0:
            kept.append((unit, left))
    return _of_pairs(tuple(kept))  # (the force these units make anywhere else, see _of_pairs)


@lru_cache(maxsize=16384)
def _formatted(items: tuple[tuple[UnitType, int], ...]) -> str:
    """:func:`format_units` of a force's items: a pure function of a small value that recurs all
    game long (every report line prints a few forces), remembered."""
    return format_units(items)


def _key(pair: tuple[UnitType, int]) -> int:
    return pair[0].order


def format_units(items: Iterable[tuple[UnitType, int]]) -> str:
    """Canonical notation: ``"9 INF, 1 ARM, AA"`` (an AA gun or IC alone without its count)."""
    parts = []
    for unit, count in items:
        if count == 1 and unit in (UnitType.AA, UnitType.IC):
            parts.append(unit.value)
        else:
            parts.append(f"{count} {unit.value}")
    return ", ".join(parts)


def parse_units(text: str, *, typos: list[str] | None = None) -> list[tuple[UnitType, int]]:
    """Parse a comma-separated unit list, keeping the order and repetitions as written.

    Counts may be omitted for one unit; plurals and aliases are accepted. A unit name that is
    not known but is one edit away from exactly one known name is a typo (2008 §VI): it resolves,
    and a note is appended to ``typos`` when given. A number is never a typo.
    """
    return list(_units_noting(text, typos))


def _units_noting(text: str, typos: list[str] | None) -> tuple[tuple[UnitType, int], ...]:
    """The unit list a text types (read once per distinct text), its typo notes added to ``typos``."""
    items, notes = _parsed_units(text.strip())
    if typos is not None and notes:
        typos.extend(notes)
    return items


@lru_cache(maxsize=8192)
def _parsed_units(stripped: str) -> tuple[tuple[tuple[UnitType, int], ...], tuple[str, ...]]:
    """:func:`parse_units` of a stripped text: its items and its typo notes. A pure function of
    the text (unit lists recur all game long), remembered; an error is raised, never kept."""
    result: list[tuple[UnitType, int]] = []
    notes: list[str] = []
    if not stripped:
        return (), ()
    for raw in stripped.split(","):
        match = _ITEM.match(raw)
        if not match:
            raise InvalidNotationError("expected a unit such as '2 INF'", text=raw.strip())
        count = int(match.group(1)) if match.group(1) else 1
        if count > MAX_UNIT_COUNT:
            raise InvalidNotationError(f"expected at most {MAX_UNIT_COUNT} units of one type",
                                       text=raw.strip())
        name = match.group(2)
        unit = unit_from_name(name)
        if unit is None:
            unit = _typo_unit(name)
            if unit is None:
                raise InvalidNotationError(
                    "unknown unit type (expected INF, ARM, FTR, BMB, TRN, SUB, AC, BB, AA, IC)",
                    text=raw.strip())
            notes.append(f"{name!r} read as {unit.value}")
        result.append((unit, count))
    return tuple(result), tuple(notes)


def _typo_unit(name: str) -> UnitType | None:
    """The one unit type a misspelt name is readily decipherable as, if any."""
    key = name.strip().upper().replace(" ", "")
    if len(key) < 3 or any(ch.isdigit() for ch in key):
        return None
    if key.endswith("S") and len(key) > 3:
        key = key[:-1]
    found = {unit for alias, unit in ALIASES.items()
             if len(alias) >= 3 and _within_one_edit(key, alias)}
    return found.pop() if len(found) == 1 else None


def _within_one_edit(a: str, b: str) -> bool:
    """Levenshtein distance at most one (substitution, insertion, deletion or transposition)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


EMPTY = Force()

#: Units that are captured, never hit (see UnitType.is_combatant).
_NOT_COMBATANTS = frozenset(unit for unit in UnitType if not unit.is_combatant)
#: Each unit type's name as written (``unit.value`` is a descriptor call: every force of a report).
_NAMES = {unit: unit.value for unit in UnitType}


# -- filters the board walk asks at every step ------------------------------------------------
#: Unit types by kind, for :func:`only` (a set look-up per unit, not a property call).
AIR = frozenset(u for u in UnitType if u.is_air)
SEA = frozenset(u for u in UnitType if u.is_sea)
LAND = frozenset(u for u in UnitType if u.is_land)
NOT_COMBATANT = _NOT_COMBATANTS


def capped(units: Force, cap: Force) -> Force:
    """Each unit of ``units`` up to as many as ``cap`` has (already in canonical order: no sort)."""
    if not cap.items:
        return EMPTY
    most = dict(cap.items)
    return Force(tuple((u, m) for u, n in units.items if (m := min(n, most.get(u, 0)))))


def only(units: Force, kinds: frozenset[UnitType]) -> Force:
    """The units of the given types (already in canonical order: no sort; the same force when
    every unit is of them)."""
    items = units.items
    if not items:
        return units
    kept = tuple(item for item in items if item[0] in kinds)
    if len(kept) == len(items):
        return units
    return Force(kept) if kept else EMPTY
