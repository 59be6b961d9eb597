"""The Classic board as data: territories, sea zones, adjacency, canals and the starting setup.

``Board.classic()`` loads the packaged board once: ``domain/data/classic.toml`` (generated from the
shared board facts by ``tools/make_board_data.py``) is the data, read by people; the same tool
compiles it into ``domain/data/classic.json``, which is what a process reads (decoded in well under
a millisecond where parsing the TOML takes ~30 ms, paid by every command; a unit test fails if the
two differ). Lookups here take canonical names only; written
names ("Kar", "E Can SZ", "Karelai") go through :mod:`domain.rules.names` (or :meth:`Board.resolve`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

import msgspec

from domain.errors import UnknownTerritoryError
from domain.rules.forces import Force

NEUTRAL = "neutral"
"""``Territory.owner`` of a neutral territory."""
NO_OWNER = "none"
"""``Territory.owner`` of a sea zone."""


class Territory(msgspec.Struct, frozen=True):
    """A land territory or sea zone, with the facts the board prints on it."""

    name: str
    sea: bool
    ipc: int
    owner: str
    """Original owner: a power, ``"neutral"``, or ``"none"`` for sea zones."""
    capital: bool
    factory: bool
    adjacent: tuple[str, ...]
    abbreviations: tuple[str, ...] = ()
    source_name: str | None = None
    """TripleA's spelling where the board file corrected it."""

    @property
    def land(self) -> bool:
        """A land territory (not a sea zone)."""
        return not self.sea

    @property
    def neutral(self) -> bool:
        """A neutral land territory."""
        return self.owner == NEUTRAL

    def __str__(self) -> str:
        return self.name


class Canal(msgspec.Struct, frozen=True):
    """Two sea zones joined by a canal that needs control of ``controlled_by`` to pass."""

    name: str
    sea_zones: tuple[str, str]
    controlled_by: tuple[str, ...]


class SetupEntry(msgspec.Struct, frozen=True):
    """A power's starting units in one territory or sea zone."""

    power: str
    territory: str
    force: Force


class _Meta(msgspec.Struct, frozen=True):
    game: str
    version: str
    turn_order: tuple[str, ...]
    alliances: dict[str, tuple[str, ...]]
    starting_ipcs: dict[str, int]
    neutral_entry_charge: int
    max_factories_per_territory: int
    heavy_bomber_dice: int
    use_destroyers_and_artillery: bool
    two_hit_battleship: bool
    submersible_subs: bool
    low_luck: bool


class _SetupRow(msgspec.Struct, frozen=True):
    power: str
    territory: str
    units: str


class _BoardFile(msgspec.Struct, frozen=True):
    meta: _Meta
    canal: tuple[Canal, ...]
    territory: tuple[Territory, ...]
    setup: tuple[_SetupRow, ...]


class Board:
    """An immutable board: look territories up by canonical name, ask adjacency, read the setup."""

    def __init__(self, *, territories: tuple[Territory, ...], canals: tuple[Canal, ...],
                 setup: tuple[SetupEntry, ...], turn_order: tuple[str, ...],
                 alliances: Mapping[str, tuple[str, ...]], starting_ipcs: Mapping[str, int],
                 neutral_entry_charge: int = 3) -> None:
        self._by_name: Mapping[str, Territory] = MappingProxyType({t.name: t for t in territories})
        if len(self._by_name) != len(territories):
            raise ValueError("board data: duplicate territory names")
        self.canals = canals
        self.setup_entries = setup
        self.turn_order = turn_order
        self.alliances: Mapping[str, tuple[str, ...]] = MappingProxyType(dict(alliances))
        self.starting_ipcs: Mapping[str, int] = MappingProxyType(dict(starting_ipcs))
        self.neutral_entry_charge = neutral_entry_charge
        self._check()
        per_power: dict[str, dict[str, Force]] = {power: {} for power in turn_order}
        for entry in setup:
            held = per_power.setdefault(entry.power, {})
            held[entry.territory] = held.get(entry.territory, Force()) + entry.force
        self.setup: Mapping[str, Mapping[str, Force]] = MappingProxyType(
            {power: MappingProxyType(held) for power, held in per_power.items()})
        """Starting units: power -> territory -> force."""

    # -- loading --------------------------------------------------------------------------
    @classmethod
    def classic(cls) -> Board:
        """The Milton Bradley 2nd edition board (loaded once, then shared)."""
        return _classic()

    @classmethod
    def from_toml(cls, text: str) -> Board:
        """A board from the text of a data file shaped like ``domain/data/classic.toml``."""
        import tomllib  # only here: a process reads the compiled board (Board.classic)

        try:
            data = msgspec.convert(tomllib.loads(text), _BoardFile)
        except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
            raise ValueError(f"board data: {exc}") from exc
        return cls._from_data(data)

    @classmethod
    def from_json(cls, raw: bytes) -> Board:
        """A board from a compiled data file (``domain/data/classic.json``: the TOML as JSON)."""
        try:
            data = msgspec.json.decode(raw, type=_BoardFile)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise ValueError(f"board data: {exc}") from exc
        return cls._from_data(data)

    @classmethod
    def _from_data(cls, data: _BoardFile) -> Board:
        setup = tuple(SetupEntry(row.power, row.territory, Force.parse(row.units))
                      for row in data.setup)
        meta = data.meta
        return cls(territories=data.territory, canals=data.canal, setup=setup,
                   turn_order=meta.turn_order, alliances=meta.alliances,
                   starting_ipcs=meta.starting_ipcs, neutral_entry_charge=meta.neutral_entry_charge)

    def _check(self) -> None:
        """Refuse inconsistent data: unknown or one-way adjacencies, setups off the board."""
        for terr in self._by_name.values():
            for other in terr.adjacent:
                if other not in self._by_name:
                    raise ValueError(f"board data: {terr.name!r} borders unknown {other!r}")
                if terr.name not in self._by_name[other].adjacent:
                    raise ValueError(f"board data: {terr.name!r} -> {other!r} is one-way")
        named = [c for canal in self.canals for c in (*canal.sea_zones, *canal.controlled_by)]
        named += [entry.territory for entry in self.setup_entries]
        for name in named:
            if name not in self._by_name:
                raise ValueError(f"board data: unknown territory {name!r}")

    # -- lookup ---------------------------------------------------------------------------
    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[Territory]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def get(self, name: str) -> Territory | None:
        """The territory with this canonical name, or None."""
        return self._by_name.get(name)

    def territory(self, name: str | Territory) -> Territory:
        """The territory with this canonical name; :class:`UnknownTerritoryError` otherwise."""
        if isinstance(name, Territory):
            return name
        found = self._by_name.get(name)
        if found is None:
            raise UnknownTerritoryError("not a canonical territory name", text=name)
        return found

    @property
    def territories(self) -> tuple[Territory, ...]:
        """Every land territory and sea zone, in data-file order."""
        return tuple(self._by_name.values())

    @property
    def land(self) -> tuple[Territory, ...]:
        """The land territories."""
        return tuple(t for t in self._by_name.values() if not t.sea)

    @property
    def sea_zones(self) -> tuple[Territory, ...]:
        """The sea zones."""
        return tuple(t for t in self._by_name.values() if t.sea)

    # -- geography ------------------------------------------------------------------------
    def adjacent(self, a: str | Territory, b: str | Territory) -> bool:
        """Whether two territories (canonical names) share a border."""
        return self.territory(b).name in self.territory(a).adjacent

    def neighbours(self, name: str | Territory) -> tuple[Territory, ...]:
        """The territories and sea zones bordering ``name``."""
        return tuple(self._by_name[n] for n in self.territory(name).adjacent)

    def adjacent_sea_zones(self, name: str | Territory) -> tuple[Territory, ...]:
        """The sea zones bordering ``name`` (for a land territory: where it is coastal)."""
        return tuple(t for t in self.neighbours(name) if t.sea)

    def spaces(self, start: str, end: str) -> int:
        """The fewest moves from ``start`` to ``end`` through any territories and sea zones (an
        aircraft's shortest flight; 0 from a place to itself): a breadth-first search of the
        adjacency. :class:`UnknownTerritoryError` for a name the board does not know."""
        target = self.territory(end).name
        frontier, seen, steps = [self.territory(start).name], {self.territory(start).name}, 0
        while frontier:
            if target in seen:
                return steps
            steps += 1
            reached = [n for name in frontier for n in self._by_name[name].adjacent if n not in seen]
            seen.update(reached)
            frontier = list(dict.fromkeys(reached))
        raise ValueError(f"board data: {end!r} cannot be reached from {start!r}")

    def canal_between(self, a: str | Territory, b: str | Territory) -> Canal | None:
        """The canal joining two sea zones, if there is one."""
        pair = {self.territory(a).name, self.territory(b).name}
        return next((canal for canal in self.canals if set(canal.sea_zones) == pair), None)

    # -- powers ---------------------------------------------------------------------------
    @property
    def powers(self) -> tuple[str, ...]:
        """The five powers in turn order."""
        return self.turn_order

    def side_of(self, power: str) -> str:
        """The alliance ("Allies" or "Axis") a power belongs to."""
        for side, members in self.alliances.items():
            if power in members:
                return side
        raise ValueError(f"unknown power {power!r}")

    def capital_of(self, power: str) -> Territory:
        """A power's capital territory."""
        for terr in self._by_name.values():
            if terr.capital and terr.owner == power:
                return terr
        raise ValueError(f"no capital for power {power!r}")

    def original_territories(self, power: str) -> tuple[Territory, ...]:
        """The land territories a power owns at the start."""
        return tuple(t for t in self._by_name.values() if t.owner == power)

    def __repr__(self) -> str:
        return f"Board({len(self.land)} territories, {len(self.sea_zones)} sea zones)"


@functools.cache
def _classic() -> Board:
    # Beside the package's modules (not through importlib.resources, whose import loads the
    # zip and temporary-file modules: ~30M instructions at every command's start).
    return Board.from_json((Path(__file__).resolve().parent.parent / "data" / "classic.json").read_bytes())
