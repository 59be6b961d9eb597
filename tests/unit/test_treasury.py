"""The treasury walked beside the board (domain/record/treasury.py) and the checks of purchases,
placements and map updates against it (domain/review/treasury_review.py).

Each test writes a small record a careful Minister could check by hand: starting IPCs (board data),
income at the end of a turn, purchases spent, a captured capital's IPCs to the captor.
"""

from __future__ import annotations

import json

import pytest

from application.intake.replayfile import load_replay, parse_replay
from domain.record.board.walk import walk_board
from domain.record.game import Game
from domain.record.treasury import TreasuryWalk, cost_of, income_of, walk_treasury
from domain.review.board_review import outcomes_of
from domain.review.game_review import review
from domain.review.treasury_review import purses
from domain.review.views import Purse
from domain.rules.forces import Force
from tests.conftest import REPLAYS

HEAD = """
format = "minister-replay/1"
[game]
id = "treasury"
edition = "iaapa-2008"
"""


def _event(kind: str, at: str, **fields: str | int | list[str]) -> str:
    """One record; values written as TOML (JSON strings and arrays are valid TOML)."""
    lines = ["[[event]]", f'type = "{kind}"', f"at = 2008-10-01T{at}:00Z"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


def _game(*events: str) -> Game:
    return parse_replay(HEAD + "".join(events)).game


def _treasury(game: Game) -> TreasuryWalk:
    return walk_treasury(game, walk_board(game, outcomes_of(review(game).battles)))


def _kinds(game: Game) -> list[str]:
    return [f.kind for f in review(game).findings]


def purchase(turn: str, units: str, at: str = "09:00", **more: str | int) -> str:
    return _event("purchase", at, turn=turn, units=units, **more)


def placement(turn: str, *place: str, at: str = "09:30") -> str:
    return _event("placement", at, turn=turn, place=list(place))


def map_update(turn: str, count: str = "", at: str = "09:35", units: tuple[str, ...] = ()) -> str:
    fields: dict[str, str | int | list[str]] = {"turn": turn, "units": list(units)}
    if count:
        fields["count"] = count
    return _event("map_update", at, **fields)


# -- the ledger -----------------------------------------------------------------------------------
def test_starting_ipcs_then_purchases_then_income_at_the_end_of_the_turn() -> None:
    game = _game(purchase("USSR 1", "3 INF, 1 ARM"), placement("USSR 1", "Russia 3 INF, 1 ARM"),
                 map_update("USSR 1", "USSR 8/$24"), purchase("Germany 1", "2 INF", at="10:00"))
    treasury = _treasury(game)
    assert cost_of(Force.parse("3 INF, 1 ARM")) == 14
    assert treasury.final["USSR"] == 24 - 14 + 24
    assert treasury.final["Germany"] == 32 - 6  # its turn is not over: no income yet
    assert treasury.before(game.board_log[2].seq)["USSR"] == 10  # spent, not yet collected
    assert _kinds(game) == []


def test_a_turn_without_a_map_update_collects_when_the_next_turn_begins() -> None:
    game = _game(purchase("USSR 1", "2 INF"), purchase("Germany 1", "1 ARM", at="10:00"))
    assert _treasury(game).final["USSR"] == 24 - 6 + 24


def test_the_bid_adds_ipcs_and_tech_dice_cost_five_each() -> None:
    game = _game(_event("bid", "08:00", total=2, ipcs=["Japan 2"]),
                 _event("tech", "09:00", turn="USSR 1", dice="12", declared=2))
    treasury = _treasury(game)
    assert treasury.final["Japan"] == 27
    assert treasury.final["USSR"] == 24 - 10


def test_a_record_that_starts_mid_game_knows_no_treasury() -> None:
    game = _game(purchase("USSR 3", "30 INF"))
    assert not _treasury(game).known
    assert _kinds(game) == []


CAPTURE = [
    _event("position", "08:00", units=["USSR Russia: 1 INF, AA, IC", "Germany Karelia: 3 INF"]),
    _event("declaration", "09:00", turn="Germany 1",
           text="\nCombat Moves:\nAttack #1 - Russia (1 INF)\nKar 3 INF\n"),
    _event("roll", "09:05", battle="Russia", log="\nRussia(1 INF)\n3 INF from Karelia\nR1\n"
           "A(3 INF) 1*56 = 1 hit\nD(1 INF) 5 = 0 hits\n"),
    map_update("Germany 1", at="09:35"),
    purchase("USSR 2", "1 INF", at="10:00"),
    map_update("USSR 2", at="10:35"),
]


def test_a_captured_capital_gives_the_captor_the_owners_ipcs_and_its_owner_no_income() -> None:
    """Classic rulebook, Capturing an Enemy Capital; 2008 Income Collection and Spending."""
    game = _game(*CAPTURE)
    treasury = _treasury(game)
    [capture] = treasury.captures
    assert (capture.capital, capture.owner, capture.captor, capture.amount) == (
        "Russia", "USSR", "Germany", 24)
    assert treasury.final["USSR"] == 0 - 3  # bought with nothing; no income while Russia is held
    assert [i.amount for i in treasury.incomes if i.power == "USSR"] == [0]
    germany = [i.amount for i in treasury.incomes if i.power == "Germany"]
    assert treasury.final["Germany"] == 32 + 24 + germany[0] and germany[0] == 32 + 8
    [found] = [f for f in review(game).findings if f.kind == "purchase_overspent"]
    assert "Germany holds its capital" in found.detail and "Income Collection and Spending" in found.rule


def test_the_income_read_at_a_battle_is_the_count_of_the_board_then() -> None:
    """The incomes kept step by step (for the report and the panel) equal the board's count."""
    for game in (_game(*CAPTURE), load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game):
        walk = walk_board(game, outcomes_of(review(game).battles))
        treasury = walk_treasury(game, walk)
        for seq in range(1, game.seq + 2):
            board = walk.before(seq)
            assert treasury.income_before(seq) == {p: income_of(board, p) for p in walk.board.powers}, seq
    assert _treasury(_game(*CAPTURE)).income_before(1 << 40)["USSR"] == 0  # Russia held


def test_the_purses_shown_at_each_record_are_the_treasury_and_incomes_then() -> None:
    """The purses made once per stretch of records are each power's IPCs and income before the
    record, whichever record is asked first."""
    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    walk = walk_board(game, outcomes_of(review(game).battles))
    treasury = walk_treasury(game, walk)
    for seq in [*range(game.seq + 2, 0, -1), 1 << 40]:
        ipcs, income = treasury.before(seq), treasury.income_before(seq)
        assert purses(treasury, walk, seq) == tuple(
            Purse(power, ipcs.get(power, 0), income[power]) for power in walk.board.powers), seq


# -- purchases ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("stated", "units", "kinds"), [
    (24, "8 INF", []),
    (42, "3 INF", ["treasury_wrong"]),  # 2008 Section VI: "A number can never be a typographical error"
    (20, "3 INF", ["treasury_wrong"]),
    (24, "9 INF", ["purchase_overspent"]),
])
def test_a_purchase_is_checked_against_the_treasury(stated: int, units: str, kinds: list[str]) -> None:
    game = _game(purchase("USSR 1", units, ipcs=stated))
    found = [f for f in review(game).findings if f.kind != "units_unplaced"]
    assert [f.kind for f in found] == kinds
    assert all("Section VI" in f.rule or "Income" in f.rule or "Purchase" in f.rule for f in found)


# -- placements -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("bought", "place", "kinds"), [
    ("3 INF", "Russia 3 INF", []),
    ("3 INF", "Caucasus 3 INF", ["placement_illegal"]),
    ("1 TRN", "Karelia SZ 1 TRN", []),
    ("1 TRN", "Black Sea 1 TRN", ["placement_illegal"]),  # next to Caucasus, Ukraine: no IC
    ("1 FTR", "Karelia SZ 1 FTR", ["placement_illegal"]),
    ("2 INF", "Russia 3 INF", ["placement_unpurchased"]),
    ("2 INF", "Russia 1 ARM, 2 INF", ["placement_unpurchased"]),
    ("3 INF", "Russia 2 INF", ["units_unplaced"]),
])
def test_placements_follow_the_purchase_and_the_industrial_complexes(bought: str, place: str,
                                                                      kinds: list[str]) -> None:
    game = _game(purchase("USSR 1", bought), placement("USSR 1", place), map_update("USSR 1"))
    found = review(game).findings
    assert [f.kind for f in found] == kinds
    assert all("Place" in f.rule for f in found)


def test_units_cannot_be_placed_at_an_ic_taken_this_turn() -> None:
    """2008 Placement of New Units: the IC owned at the beginning of the turn."""
    game = _game(*CAPTURE[:3], purchase("Germany 1", "1 INF", at="09:20"),
                 placement("Germany 1", "Russia 1 INF"), map_update("Germany 1", at="09:40"))
    assert "placement_illegal" in _kinds(game)


def test_a_bid_ic_produces_no_more_than_its_territorys_income() -> None:
    """2008 Bidding: bid ICs are not original ICs (Ukraine is worth 3)."""
    bid = _event("bid", "08:00", total=15, units=["Germany Ukraine: IC"])
    ok = _game(bid, purchase("Germany 1", "3 INF"), placement("Germany 1", "Ukraine 3 INF"),
               map_update("Germany 1"))
    assert _kinds(ok) == []
    over = _game(bid, purchase("Germany 1", "4 INF"), placement("Germany 1", "Ukraine 4 INF"),
                 map_update("Germany 1"))
    [found] = [f for f in review(over).findings if f.kind == "placement_illegal"]
    assert "bid IC" in found.detail and "Bidding" in found.detail


# -- map updates ----------------------------------------------------------------------------------
def test_a_map_update_that_leaves_out_a_territory_taken_that_turn() -> None:
    full = _game(*CAPTURE[:3], map_update("Germany 1", units=("Germany Russia: 3 INF, AA, IC",)))
    assert "map_update_incomplete" not in _kinds(full)
    short = _game(*CAPTURE[:3], map_update("Germany 1", units=("Germany Germany: 1 INF",)))
    [found] = [f for f in review(short).findings if f.kind == "map_update_incomplete"]
    assert "leaves out Russia" in found.detail and "Post Combat Orders" in found.rule
    count_only = _game(*CAPTURE[:3], map_update("Germany 1", "Germany 10/$40"))
    assert "map_update_incomplete" not in _kinds(count_only)


def test_a_map_update_that_lists_a_territory_an_enemy_holds() -> None:
    game = _game(map_update("Germany 1", units=("Germany Karelia: 3 INF",)))
    found = [f for f in review(game).findings if f.kind == "map_update_incomplete"]
    assert len(found) == 1 and "USSR holding it" in found[0].detail


# -- a void turn (2008 Section VII) ----------------------------------------------------------------
def test_a_void_turns_purchase_is_not_paid_in_the_treasury_as_corrected() -> None:
    """2008 Section VII: "the subsequent turn is void and must be re-done": Germany 1 (rolled
    before USSR 1's reported error was corrected) is void, so its 11 IPCs purchase is undone in
    the treasury as corrected, as its battle and placements are on the board; as rolled it stands."""
    game = load_replay(REPLAYS / "fidelity" / "void-turn-purchase-undone-2008.toml").game
    corrected = review(game)
    assert corrected.void_turns == ("Germany 1",)
    walk = walk_board(game, outcomes_of(corrected.battles, corrected.void_turns))
    treasury = walk_treasury(game, walk)
    [void] = [s for s in treasury.spends if s.turn == "Germany 1"]
    assert void.void and void.cost == 11
    def germany_2(walked: TreasuryWalk) -> int:
        """The IPCs Germany had for its Germany 2 purchase (income of Germany 1 collected)."""
        return next(s.available for s in walked.spends if s.turn == "Germany 2")

    assert germany_2(treasury) == 32 + 32  # nothing paid; Anglo Egypt not taken
    assert "treasury_wrong" not in [f.kind for f in corrected.findings]
    rolled = walk_treasury(game, walk_board(game, outcomes_of(review(game, as_rolled=True).battles)))
    assert not any(s.void for s in rolled.spends)
    assert germany_2(rolled) == 32 - 11 + 34
    assert "treasury_wrong" in [f.kind for f in review(game, as_rolled=True).findings]


LIBERATION = [
    _event("position", "08:00", units=["USSR Russia: 1 INF, AA, IC", "Germany Karelia: 3 INF",
                                       "UK Caucasus: 4 INF"]),
    *CAPTURE[1:3],
    map_update("Germany 1", at="09:35", units=("Germany Russia: 3 INF",)),
    _event("declaration", "10:00", turn="UK 1",
           text="\nCombat Moves:\nAttack #1 - Russia (3 INF)\nCaucasus 4 INF\n"),
    _event("roll", "10:05", battle="Russia", log="\nRussia(3 INF)\n4 INF from Caucasus\nR1\n"
           "A(4 INF) 1*1*1*5 = 3 hits\nD(3 INF) 666 = 0 hits\n"),
    map_update("UK 1", at="10:35"),
    purchase("USSR 2", "1 INF", at="11:00", ipcs=0),
    placement("USSR 2", "Russia 1 INF", at="11:30"),
    map_update("USSR 2", at="11:35"),
]


def test_a_liberated_capital_returns_to_its_owner_with_its_ic_and_aa_gun() -> None:
    """2008 Rules Clarifications, Placement of New Units: "if you liberate their capital ... it
    has now reverted back to your Ally's control"; AA Guns: a liberated gun "will belong to the
    country that owned the territory at the start of the game" (issue 28.2)."""
    game = _game(*LIBERATION)
    walk = walk_board(game, outcomes_of(review(game).battles))
    after = walk.final
    assert after.control_of("Russia") == "USSR"
    assert after.of("Russia", "USSR") == Force.parse("1 INF, AA, IC")  # its gun, its IC, the new infantry
    assert after.of("Russia", "UK") == Force.parse("4 INF")  # no loss: the defence missed
    treasury = _treasury(game)
    # Plunder went to Germany; the USSR collects again once Russia is its own (24 with Russia).
    assert [i.amount for i in treasury.incomes if i.power == "USSR"] == [24]
    kinds = _kinds(game)
    assert "placement_illegal" not in kinds and "map_count_wrong" not in kinds
