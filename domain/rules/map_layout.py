"""Where each territory and sea zone sits on a schematic map of the Classic board.

``MapLayout.classic()`` loads the packaged ``domain/data/classic-map.toml`` once: for every
territory and sea zone of :meth:`Board.classic` a short label and a cell on a grid that follows
the printed board (the Americas left, Europe and Africa in the centre, Asia and the western
Pacific right). The grid wraps east-west, as the board does across the Pacific; distances are
measured across the wrap. Pure data: the timeline's map widget draws it.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterator, Mapping
from importlib import resources
from types import MappingProxyType

import msgspec

from domain.rules.board import Board

#: The longest label a cell holds (the map gives each cell a mark either side).
MAX_LABEL = 5
_FILE = "domain/data/classic-map.toml"


class MapPlace(msgspec.Struct, frozen=True):
    """A territory or sea zone on the map: its canonical name, short label and cell."""

    name: str
    label: str
    x: int
    y: int


class _Grid(msgspec.Struct, frozen=True):
    columns: int
    rows: int


class _MapFile(msgspec.Struct, frozen=True):
    grid: _Grid
    place: tuple[MapPlace, ...]


class MapLayout:
    """The places of a board on a ``columns`` × ``rows`` grid that wraps east-west."""

    def __init__(self, columns: int, rows: int, places: tuple[MapPlace, ...], *, board: Board,
                 source: str = _FILE) -> None:
        self.columns = columns
        self.rows = rows
        self.places: Mapping[str, MapPlace] = MappingProxyType({p.name: p for p in places})
        self._cells: Mapping[tuple[int, int], MapPlace] = MappingProxyType({(p.x, p.y): p for p in places})
        _check(self, places, board, source)

    @classmethod
    def classic(cls) -> MapLayout:
        """The Classic board's layout (loaded once, then shared)."""
        return _classic()

    @classmethod
    def from_toml(cls, text: str, *, board: Board, source: str = _FILE) -> MapLayout:
        """A layout from the text of a file shaped like ``domain/data/classic-map.toml``."""
        try:
            data = msgspec.convert(tomllib.loads(text), _MapFile)
        except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
            raise ValueError(f"{source}: {exc}") from exc
        return cls(data.grid.columns, data.grid.rows, data.place, board=board, source=source)

    def __iter__(self) -> Iterator[MapPlace]:
        return iter(self.places.values())

    def __len__(self) -> int:
        return len(self.places)

    def at(self, x: int, y: int) -> MapPlace | None:
        """The place in cell (x, y), if any (x taken round the wrap)."""
        return self._cells.get((x % self.columns, y))

    def distance(self, a: str, b: str) -> int:
        """Cells between two places (the larger of across and down), the shorter way round."""
        pa, pb = self.places[a], self.places[b]
        across = abs(pa.x - pb.x)
        return max(min(across, self.columns - across), abs(pa.y - pb.y))

    def flat_distance(self, a: str, b: str) -> int:
        """Cells between two places without going round the wrap."""
        pa, pb = self.places[a], self.places[b]
        return max(abs(pa.x - pb.x), abs(pa.y - pb.y))

    def reading_order(self) -> tuple[str, ...]:
        """Every place, row by row, left to right."""
        return tuple(p.name for p in sorted(self.places.values(), key=lambda p: (p.y, p.x)))


def _check(layout: MapLayout, places: tuple[MapPlace, ...], board: Board, source: str) -> None:
    """Refuse a layout that leaves a place out, names one the board lacks, or stacks two in a cell."""
    known = {t.name for t in board}
    cells: dict[tuple[int, int], str] = {}
    labels: dict[str, str] = {}
    for n, place in enumerate(places, start=1):
        where = f"{source}: place {n} ({place.name!r})"
        if place.name not in known:
            raise ValueError(f"{where}: not a territory or sea zone of the board")
        if not 0 <= place.x < layout.columns or not 0 <= place.y < layout.rows:
            raise ValueError(f"{where}: cell ({place.x}, {place.y}) is off the "
                             f"{layout.columns}×{layout.rows} grid")
        if not 0 < len(place.label) <= MAX_LABEL:
            raise ValueError(f"{where}: label {place.label!r} should be 1 to {MAX_LABEL} characters")
        same = labels.setdefault(place.label, place.name)
        if same != place.name:
            raise ValueError(f"{where}: label {place.label!r} is taken by {same!r}")
        other = cells.setdefault((place.x, place.y), place.name)
        if other != place.name:
            raise ValueError(f"{where}: cell ({place.x}, {place.y}) already holds {other!r}")
    if len(layout.places) != len(places):
        raise ValueError(f"{source}: a place is listed twice")
    missing = sorted(known - set(layout.places))
    if missing:
        raise ValueError(f"{source}: no cell for {', '.join(missing)}")


@functools.cache
def _classic() -> MapLayout:
    text = resources.files("domain").joinpath("data", "classic-map.toml").read_text(encoding="utf-8")
    return MapLayout.from_toml(text, board=Board.classic())
