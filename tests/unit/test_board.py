"""The packaged Classic board: facts, adjacency, setup, and agreement with the shared board file."""

from __future__ import annotations

import importlib.util
import tomllib
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from domain.errors import UnknownTerritoryError
from domain.rules.board import Board, Territory
from domain.rules.forces import Force
from domain.rules.units import UnitType

ROOT = Path(__file__).resolve().parents[2]
#: The board file the spec names ("../data/classic-board.toml" from the spec folder): beside the
#: repository, in ../shared. The repository's own data is domain/data/classic.toml, generated
#: from it; the comparisons below are skipped where ../shared is not checked out.
SHARED = ROOT.parent / "shared" / "data" / "classic-board.toml"
needs_shared = pytest.mark.skipif(not SHARED.exists(), reason=f"shared board file not available ({SHARED})")


@pytest.fixture(scope="module")
def board() -> Board:
    return Board.classic()


@pytest.fixture(scope="module")
def shared() -> dict[str, object]:
    with SHARED.open("rb") as handle:
        return tomllib.load(handle)


def test_classic_is_loaded_once(board: Board) -> None:
    assert Board.classic() is board


def test_counts_and_kinds(board: Board) -> None:
    assert len(board.land) == 70
    assert len(board.sea_zones) == 58
    assert len(board) == 128
    assert all(t.sea for t in board.sea_zones)
    assert all(t.name.endswith(" Sea Zone") for t in board.sea_zones)
    assert not any(t.name.endswith(" Sea Zone") for t in board.land)
    assert all(t.owner == "none" and t.ipc == 0 for t in board.sea_zones)


def test_lookup_by_canonical_name(board: Board) -> None:
    kar = board.territory("Karelia S.S.R.")
    assert isinstance(kar, Territory)
    assert (kar.ipc, kar.owner, kar.factory, kar.capital) == (3, "USSR", True, False)
    assert "Karelia S.S.R." in board
    assert "Kar" not in board
    assert board.get("Kar") is None
    with pytest.raises(UnknownTerritoryError, match="'Kar'"):
        board.territory("Kar")


def test_adjacency_is_symmetric_and_known(board: Board) -> None:
    for terr in board:
        assert terr.adjacent, terr.name
        assert terr.name not in terr.adjacent
        for other in terr.adjacent:
            assert board.adjacent(other, terr.name), (terr.name, other)


def test_adjacency_examples(board: Board) -> None:
    assert board.adjacent("Karelia S.S.R.", "East Europe")
    assert board.adjacent("Caucasus", "Russia")
    assert not board.adjacent("Germany", "Russia")
    assert [t.name for t in board.adjacent_sea_zones("United Kingdom")] == ["North Sea Zone"]
    assert {t.name for t in board.neighbours("Japan")} == {"Japan Sea Zone"}
    assert board.adjacent_sea_zones("Sinkiang") == ()


def test_canals(board: Board) -> None:
    suez = board.canal_between("Red Sea Zone", "East Mediterranean Sea Zone")
    assert suez is not None and suez.name == "Suez Canal"
    assert set(suez.controlled_by) == {"Anglo Sudan Egypt", "Syria Jordan"}
    panama = board.canal_between("Caribbean Sea Zone", "West Panama Sea Zone")
    assert panama is not None and panama.controlled_by == ("Panama",)
    assert board.canal_between("North Sea Zone", "Baltic Sea Zone") is None


def test_powers_capitals_and_ipcs(board: Board) -> None:
    assert board.turn_order == ("USSR", "Germany", "UK", "Japan", "USA")
    assert board.side_of("Japan") == "Axis"
    assert board.side_of("UK") == "Allies"
    capitals = {power: board.capital_of(power).name for power in board.powers}
    assert capitals == {"USSR": "Russia", "Germany": "Germany", "UK": "United Kingdom",
                        "Japan": "Japan", "USA": "East US"}
    for power in board.powers:
        # Starting income is exactly the printed value of the power's original territories.
        income = sum(t.ipc for t in board.original_territories(power))
        assert board.starting_ipcs[power] == income, power


def test_setup_spot_checks(board: Board) -> None:
    assert board.setup["Germany"]["East Europe"] == Force.parse("3 INF, 1 ARM, 1 FTR")
    assert str(board.setup["Germany"]["East Europe"]) == "3 INF, 1 ARM, 1 FTR"
    assert board.setup["USSR"]["Karelia S.S.R."] == Force.parse("3 INF, 1 ARM, 1 FTR, AA, IC")
    assert board.setup["UK"]["North Sea Zone"] == Force.parse("1 TRN, 1 BB")
    assert board.setup["Japan"]["Caroline Islands Sea Zone"][UnitType.AC] == 1
    assert "Russia" not in board.setup["Germany"]
    for power, held in board.setup.items():
        for name, force in held.items():
            assert name in board, name
            # An IC in the setup sits exactly where the board prints a factory.
            assert (force[UnitType.IC] > 0) == board.territory(name).factory, (power, name)


@needs_shared
def test_setup_matches_shared_file(board: Board, shared: dict[str, object]) -> None:
    rows = shared["setup"]
    assert isinstance(rows, list)
    expected: dict[str, Counter[UnitType]] = {}
    for row in rows:
        total = expected.setdefault(row["power"], Counter())
        for unit, count in Force.parse(row["units"]):
            total[unit] += count
    actual: dict[str, Counter[UnitType]] = {}
    for power, held in board.setup.items():
        total = actual.setdefault(power, Counter())
        for force in held.values():
            total.update(dict(force.items))
    assert actual == expected
    assert sum(len(entry.force) for entry in board.setup_entries) == sum(
        len(Force.parse(row["units"])) for row in rows)


@needs_shared
def test_territories_match_shared_file(board: Board, shared: dict[str, object]) -> None:
    rows = shared["territory"]
    assert isinstance(rows, list)
    assert [row["name"] for row in rows] == [t.name for t in board]
    for row in rows:
        terr = board.territory(row["name"])
        assert (terr.sea, terr.ipc, terr.owner, terr.capital, terr.factory) == (
            row["sea"], row["ipc"], row["owner"], row["capital"], row["factory"])
        assert terr.adjacent == tuple(row["adjacent"])
        assert terr.source_name == row.get("source_name")
    meta = shared["meta"]
    assert isinstance(meta, dict)
    assert dict(board.starting_ipcs) == meta["starting_ipcs"]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_board_data", ROOT / "tools" / "make_board_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_shared
def test_packaged_file_is_generated_output(shared: dict[str, object]) -> None:
    packaged = (ROOT / "domain" / "data" / "classic.toml").read_text(encoding="utf-8")
    assert _generator().build(shared) == packaged


def test_packaged_file_is_self_contained() -> None:
    packaged = (ROOT / "domain" / "data" / "classic.toml").read_text(encoding="utf-8")
    assert "/work/shared" not in packaged
    source = (ROOT / "domain" / "rules" / "board.py").read_text(encoding="utf-8")
    assert "/work/shared" not in source


def test_compiled_file_is_the_packaged_toml() -> None:
    """The package reads domain/data/classic.json, the TOML compiled by tools/make_board_data.py:
    after a hand edit of the TOML without ``--compile`` this fails."""
    toml_text = (ROOT / "domain" / "data" / "classic.toml").read_text(encoding="utf-8")
    json_text = (ROOT / "domain" / "data" / "classic.json").read_text(encoding="utf-8")
    assert json_text == _generator().compiled(toml_text)
    from_toml, classic = Board.from_toml(toml_text), Board.classic()
    assert classic.territories == from_toml.territories and classic.canals == from_toml.canals
    assert classic.setup == from_toml.setup and classic.turn_order == from_toml.turn_order
    assert (classic.alliances, classic.starting_ipcs) == (from_toml.alliances, from_toml.starting_ipcs)
    with pytest.raises(ValueError, match="board data"):
        Board.from_json(b'{"meta": {}}')


def test_inconsistent_data_is_refused() -> None:
    text = (ROOT / "domain" / "data" / "classic.toml").read_text(encoding="utf-8")
    one_way = text.replace('adjacent = ["Japan Sea Zone"]', 'adjacent = ["Japan Sea Zone", "Okinawa"]', 1)
    assert one_way != text
    with pytest.raises(ValueError, match="one-way"):
        Board.from_toml(one_way)
    with pytest.raises(ValueError, match="board data"):
        Board.from_toml("[meta]\n")
