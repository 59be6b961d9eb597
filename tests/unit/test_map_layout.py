"""The Classic board's map layout (domain/data/classic-map.toml): every place on the grid, one to
a cell, and neighbours drawn near each other (the Pacific meeting across the east-west wrap)."""

from __future__ import annotations

import pytest

from domain.rules.board import Board
from domain.rules.map_layout import MAX_LABEL, MapLayout

#: Adjacent places are at most this many cells apart (counting across the wrap).
MAX_STEP = 3
#: The adjacencies that cross the map's east-west edge: the Pacific, split as the board splits it.
WRAP_EDGES = {
    frozenset(pair) for pair in (
        ("Alaska Sea Zone", "North Pacific Sea Zone"),
        ("Alaska Sea Zone", "Soviet Far East Sea Zone"),
        ("Midway Sea Zone", "North Pacific Sea Zone"),
        ("Hawaii Sea Zone", "North Pacific Sea Zone"),
        ("Hawaii Sea Zone", "Wake Island Sea Zone"),
        ("Hawaii Sea Zone", "Solomon Islands Sea Zone"),
        ("South Pacific Sea Zone", "Solomon Islands Sea Zone"),
        ("South Pacific Sea Zone", "New Zealand Sea Zone"),
        ("East Pacific Sea Zone", "New Zealand Sea Zone"),
        ("Peru Sea Zone", "New Zealand Sea Zone"),
        ("South Argentina Sea Zone", "New Zealand Sea Zone"),
    )
}


def _adjacencies() -> set[frozenset[str]]:
    return {frozenset((t.name, other)) for t in Board.classic() for other in t.adjacent}


def test_every_territory_and_sea_zone_has_a_cell_of_its_own() -> None:
    layout = MapLayout.classic()
    board = Board.classic()
    assert set(layout.places) == {t.name for t in board}
    assert len({(p.x, p.y) for p in layout}) == len(layout) == len(board.territories)
    assert all(0 < len(p.label) <= MAX_LABEL for p in layout)
    assert len({p.label for p in layout}) == len(layout)


def test_adjacent_places_are_drawn_close_together() -> None:
    layout = MapLayout.classic()
    far = {(pair, layout.distance(*pair)) for pair in _adjacencies() if layout.distance(*pair) > MAX_STEP}
    assert far == set()


def test_only_the_pacific_wraps_round_the_edge() -> None:
    layout = MapLayout.classic()
    across = {pair for pair in _adjacencies() if layout.flat_distance(*pair) > MAX_STEP}
    assert across == WRAP_EDGES


def test_sea_zones_are_marked_in_their_labels() -> None:
    layout = MapLayout.classic()
    board = Board.classic()
    assert all(p.label.endswith("~") == board.territory(p.name).sea for p in layout)


def _text(places: str) -> str:
    return f"[grid]\ncolumns = 3\nrows = 2\n{places}"


def _place(name: str, label: str, x: int, y: int) -> str:
    return f'[[place]]\nname = "{name}"\nlabel = "{label}"\nx = {x}\ny = {y}\n'




@pytest.mark.parametrize(("places", "message"), [
    (_place("Atlantis", "Atl", 0, 0), "place 1 ('Atlantis'): not a territory or sea zone of the board"),
    (_place("Germany", "Ger", 5, 0), "place 1 ('Germany'): cell (5, 0) is off the 3×2 grid"),
    (_place("Germany", "Germany", 0, 0), "label 'Germany' should be 1 to 5 characters"),
    (_place("Germany", "Ger", 0, 0) + _place("Russia", "Rus", 0, 0),
     "place 2 ('Russia'): cell (0, 0) already holds 'Germany'"),
    (_place("Germany", "Ger", 0, 0) + _place("Russia", "Ger", 1, 0), "label 'Ger' is taken by 'Germany'"),
    (_place("Germany", "Ger", 0, 0), "no cell for Afghanistan, Alaska"),
    ("[[place]]\nname = 1\n", "my-map.toml: Expected `str`"),
])
def test_a_bad_layout_is_refused_naming_the_file_and_the_place(places: str, message: str) -> None:
    with pytest.raises(ValueError, match=r"^my-map\.toml: ") as error:
        MapLayout.from_toml(_text(places), board=Board.classic(), source="my-map.toml")
    assert message in str(error.value)
