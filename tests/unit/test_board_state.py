"""The board moving on: the walk of a game's records (domain/record/board/walk.py).

Each test reads a shipped replay and asks the board at a record what a careful player would
read off the table: who holds a territory, what stands in it, what the counts are.
"""

from __future__ import annotations

import pytest

from application.intake.replayfile import load_replay, parse_replay
from domain.battle.model import Outcome, Winner
from domain.record.board.walk import BoardWalk, walk_board
from domain.record.game import Game, project_game
from domain.record.treasury import walk_treasury
from domain.review.board_review import outcomes_of
from domain.review.game_review import review
from domain.review.views import GameView
from domain.rules.board import Board
from domain.rules.forces import Force
from tests.conftest import REPLAYS

GAMES = REPLAYS / "games"
F = Force.parse


def _walk(game: Game, *, as_rolled: bool = False) -> BoardWalk:
    view = review(game, as_rolled=as_rolled)
    return walk_board(game, outcomes_of(view.battles, view.void_turns))


def _version_after(game: Game, kind: str, turn: str) -> int:
    """The version of the last event filed for a turn (declarations and the battles' rolls)."""
    seqs = [b.last_seq for b in game.battles if b.turn == turn]
    seqs += [n.seq for n in game.board_log if n.turn == turn and n.kind == kind]
    return max(seqs) + game.version - game.seq


def test_attackers_leave_their_origin_and_the_winner_occupies() -> None:
    game = load_replay(GAMES / "two-turns-board-moves-on-2008.toml").game
    after_ussr = _walk(game.at(4)).final  # USSR 1 declared (3) and rolled (4)
    assert after_ussr.of("Karelia S.S.R.", "USSR") == F("1 INF, AA, IC")
    assert after_ussr.holders("East Europe") == {"USSR": F("2 INF, 2 ARM")}
    assert after_ussr.control_of("East Europe") == "USSR"
    final = _walk(game).final
    # Germany takes Karelia: the USSR's AA gun and IC are captured with it (2008 AA Guns).
    assert final.holders("Karelia S.S.R.") == {"Germany": F("3 INF, 1 ARM, AA, IC")}
    assert final.control_of("Karelia S.S.R.") == "Germany"
    assert final.holders("East Europe") == {"Germany": F("2 INF, 2 ARM")}
    assert final.of("Germany", "Germany") == F("1 FTR, 1 BMB, AA, IC")  # its FTR landed home
    assert final.of("Finland Norway", "Germany") == F("1 FTR")


def test_a_retreat_goes_where_it_was_declared_and_aircraft_land_as_written() -> None:
    game = load_replay(GAMES / "full-game-three-rounds-2008.toml").game
    board = _walk(game.at(_version_after(game, "map_update", "USSR 1"))).final
    assert board.of("Caucasus", "USSR") == F("6 INF, 1 ARM")
    assert board.of("Karelia S.S.R.", "USSR") == F("2 ARM, 1 FTR, AA, IC")
    assert board.holders("Ukraine S.S.R.") == {"Germany": F("2 INF, 2 ARM, 1 FTR")}
    assert board.control_of("Ukraine S.S.R.") == "Germany"


def test_a_capture_moves_the_territory_and_its_ipcs() -> None:
    game = load_replay(GAMES / "full-game-three-rounds-2008.toml").game
    walk = _walk(game)
    germany_1 = walk.before(_version_after(game, "map_update", "Germany 1"))
    assert germany_1.control_of("Anglo Sudan Egypt") == "Germany"
    assert germany_1.count("Germany") == (9, 34)
    assert germany_1.count("UK") == (16, 28)
    assert walk.final.control_of("Anglo Sudan Egypt") == "UK"
    assert walk.final.count("Japan") == (13, 27) and walk.final.count("USA") == (10, 34)


def test_every_count_of_the_full_game_is_the_boards() -> None:
    walk = _walk(load_replay(GAMES / "full-game-three-rounds-2008.toml").game)
    assert len(walk.counts) == 15
    assert all((c.stated.territories, c.stated.ipcs) == (c.territories, c.ipcs) for c in walk.counts)
    [gap] = walk.discrepancies
    assert (gap.turn, gap.territory, gap.stated, gap.board) == (
        "USSR 2", "Karelia S.S.R.", F("2 ARM, 1 FTR, AA, IC"), F("3 INF, 2 ARM, 1 FTR, AA, IC"))


def test_a_corrected_result_changes_the_board_from_then_on() -> None:
    game = load_replay(REPLAYS / "consequences" / "corrected-result-flows-2008.toml").game
    before_germany = game.battles[1].declared_seq
    rolled = _walk(game, as_rolled=True).before(before_germany)
    corrected = _walk(game).before(before_germany)
    assert rolled.holders("Ukraine S.S.R.") == {"Germany": F("2 INF")}
    assert corrected.holders("Ukraine S.S.R.") == {"USSR": F("1 ARM")}
    assert corrected.control_of("Ukraine S.S.R.") == "USSR"


def test_a_record_that_starts_mid_game_knows_only_what_positions_name() -> None:
    game = load_replay(REPLAYS / "consequences" / "corrected-result-flows-2008.toml").game
    board = _walk(game).final
    assert not board.knows("Russia") and board.knows("Caucasus")
    assert not _walk(game).from_setup


BID = """
format = "minister-replay/1"
[game]
id = "bids"
edition = "iaapa-2008"
[[event]]
type = "bid"
at = 2008-01-01T00:00:00Z
units = [{units}]
remove = [{remove}]
"""


@pytest.mark.parametrize(("units", "remove", "why"), [
    ('"Germany Ukraine: 3 INF"', "", None),
    ('"Germany Baltic SZ: 1 TRN"', "", None),
    ('"Germany Karelia: 1 INF"', "", "land units go in a territory Germany controls"),
    ('"Japan Ukraine: 1 INF"', "", "land units go in a territory Japan controls"),
    ('"Japan Caroline Islands SZ: 1 FTR"', "", "fighters cannot be placed"),
    ('"Germany North Sea: 1 SUB"', "", "Allied units occupy the sea zone"),
    ('"USSR Russia: 1 INF"', "", "Axis powers only"),
    ('"Germany Ukraine: 1 INF"', '"Japan Manchuria: 1 INF"', "negative bids"),
])
def test_bid_placements_follow_the_bidding_rules(units: str, remove: str, why: str | None) -> None:
    game = parse_replay(BID.replace("{units}", units).replace("{remove}", remove)).game
    found = [f for f in review(game).findings if f.kind == "bid_illegal"]
    if why is None:
        assert found == []
    else:
        assert len(found) == 1 and why in found[0].detail and "Bidding" in found[0].rule


def test_the_board_of_an_earlier_version_is_the_board_of_that_many_events() -> None:
    """Game.at(v) walks to exactly the board (and the treasury: domain/record/treasury.py) the
    fold of the first v events walks to."""
    for path in sorted(REPLAYS.rglob("*.toml")):
        replay = load_replay(path)
        for version in range(1, len(replay.events) + 1):
            folded = project_game(None, replay.events[:version])
            assert folded is not None
            derived = replay.game.at(version)
            assert derived.board_log == folded.board_log, (path, version)
            a, b = _walk(derived), _walk(folded)
            assert a.same_board(b) and a.discrepancies == b.discrepancies and a.counts == b.counts, (
                path, version)
            x, y = walk_treasury(derived, a), walk_treasury(folded, b)
            assert (x.history, x.spends, x.incomes, x.captures, x.turn_starts) == \
                (y.history, y.spends, y.incomes, y.captures, y.turn_starts), (path, version)


def test_map_updates_are_checkpoints_not_overwrites() -> None:
    walk = _walk(load_replay(GAMES / "full-game-three-rounds-2008.toml").game)
    # USSR 2's map update forgot 3 INF: the board keeps them (the moves take precedence).
    assert walk.final.of("Karelia S.S.R.", "USSR") == F("3 INF, 2 ARM, 1 FTR, AA, IC")


COUNT = """
format = "minister-replay/1"
[game]
id = "count"
edition = "iaapa-2008"
[[event]]
type = "map_update"
at = 2008-10-01T09:35:00Z
turn = "USSR 1"
count = "{count}"
"""


@pytest.mark.parametrize(("count", "kinds"), [
    ("USSR 8/$24", []), ("USSR 8/24", []), ("USSR 8/$26", ["map_count_wrong"]),
    # 2008 Section VI: "A number can never be a typographical error", digits transposed too.
    ("USSR 8/$42", ["map_count_wrong"]), ("USSR 9/$24", ["map_count_wrong"]),
])
def test_a_count_is_checked_against_the_board_and_a_number_is_never_a_typo(count: str,
                                                                           kinds: list[str]) -> None:
    game = parse_replay(COUNT.replace("{count}", count)).game
    assert [f.kind for f in review(game).findings] == kinds


TREASURY_IS_NOT_THE_COUNT = """
format = "minister-replay/1"
[game]
id = "count-not-treasury"
edition = "iaapa-2008"
[[event]]
type = "purchase"
at = 2008-10-01T09:00:00Z
turn = "USSR 1"
units = "3 INF"
[[event]]
type = "placement"
at = 2008-10-01T09:30:00Z
turn = "USSR 1"
place = ["Russia 3 INF"]
[[event]]
type = "map_update"
at = 2008-10-01T09:35:00Z
turn = "USSR 1"
count = "{count}"
"""


@pytest.mark.parametrize(("count", "kinds"), [("USSR 8/$24", []), ("USSR 8/$15", ["map_count_wrong"])])
def test_the_counts_dollars_are_the_ipc_value_held_not_the_treasury(count: str, kinds: list[str]) -> None:
    """2008 Post Combat Orders: "give a territory and IPC count ... i.e. UK 30/$32": the IPC count
    is the IPC value of the territories held ($24), not the IPCs left after buying 3 INF (15)."""
    game = parse_replay(TREASURY_IS_NOT_THE_COUNT.replace("{count}", count)).game
    findings = review(game).findings
    assert [f.kind for f in findings] == kinds
    assert all("8 territories held, their IPC value $24" in f.detail for f in findings)


SUBS = """
format = "minister-replay/1"
[game]
id = "subs"
edition = "iaapa-2008"
[[event]]
type = "position"
at = 2008-10-01T08:00:00Z
units = ["Germany Baltic SZ: 2 SUB", "UK North Sea: 1 BB", "Germany Karelia SZ: "]
[[event]]
type = "declaration"
at = 2008-10-01T09:00:00Z
turn = "UK 2"
text = '''
Attack #1 - Baltic SZ (2 SUB)
North Sea 1 BB
'''
[[event]]
type = "orders"
at = 2008-10-01T09:01:00Z
turn = "UK 2"
battle = "Baltic SZ"
side = "defender"
text = "withdraw subs after round 1 to Karelia SZ"
"""


def test_withdrawn_subs_go_where_the_defender_said() -> None:
    """2008 Rules Clarifications, Sub Withdrawal (the result given: 1 SUB lost, 1 withdrew)."""
    game = parse_replay(SUBS).game
    withdrew = Outcome(Winner.ATTACKER, F("1 BB"), Force(), defender_withdrew=F("1 SUB"))
    board = walk_board(game, {"UK 2 / Baltic Sea Zone": withdrew}).final
    assert board.holders("Baltic Sea Zone") == {"UK": F("1 BB")}
    assert board.holders("Karelia Sea Zone") == {"Germany": F("1 SUB")}


def test_each_records_board_is_kept_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record's changes are logged when the walk moves on from it (one entry per territory it
    changed): what was logged for a record is what the history still holds after every later
    record (the walk's live dicts are copied, never shared), and one look reads it whole."""
    from domain.record.board import walker as board_walker

    logged: dict[tuple[str, int], tuple[dict[str, Force], str | None]] = {}
    flush = board_walker.Walker.flush

    def spy(walker: board_walker.Walker) -> None:
        flush(walker)
        # What the record just walked left logged.
        for territory, entries in walker.history.items():
            seq, units, holder = entries[-1]
            if seq == walker.seq:
                logged[(territory, seq)] = (dict(units), holder)

    monkeypatch.setattr(board_walker.Walker, "flush", spy)
    walk = _walk(load_replay(GAMES / "full-game-three-rounds-2008.toml").game)
    assert len(logged) > 20
    for territory, entries in walk.history.items():
        for seq, units, holder in entries[1:]:  # the start is not logged
            assert (units, holder) == logged[(territory, seq)], (territory, seq)
            board = walk.before(seq + 1)
            assert board.look(territory) == (board.control_of(territory), board.holders(territory))


def test_a_battle_awaiting_correction_dice_keeps_its_attackers_in_the_battle() -> None:
    """2008 Declaration and Battle Resolution Procedures, Combat Resolution and Order of Battles:
    "once a battle begins it must be resolved completely". USSR 3's Ukraine battle awaits a
    correction die: its attackers made their combat move into Ukraine and stand there beside the
    defenders, who still hold it; they are not back in Karelia. Germany 3 (void, Section VII)
    is not fought: its attackers stay in Finland Norway."""
    game = load_replay(REPLAYS / "fidelity" / "void-turn-findings-superseded-2008.toml").game
    walk = _walk(game)
    germany = game.battles[1]
    board = walk.at_declaration(germany)
    assert board.holders("Ukraine S.S.R.") == {"Germany": F("2 INF"), "USSR": F("3 INF, 1 ARM")}
    assert board.control_of("Ukraine S.S.R.") == "Germany"
    assert board.holders("Karelia S.S.R.") == {"USSR": F("1 INF")}  # what the 19:00 map shows
    assert walk.final.holders("Finland Norway") == {"Germany": F("2 ARM")}
    assert walk.final.control_of("Karelia S.S.R.") == "USSR"


def test_an_illegal_bid_is_not_fixed_by_the_turns_rolled_after_it() -> None:
    """2008 Section VII's time limit "will apply to CDEs, rolling errors, and non-combat errors
    only. All other errors will be adjudicated on a case by case basis by the Minister of Law":
    the full game's illegal bid, never reported, is still open after Germany 1 was rolled."""
    game = load_replay(GAMES / "full-game-three-rounds-2008.toml").game
    [bid] = [f for f in review(game).findings if f.kind == "bid_illegal"]
    assert bid.status == "open"
    assert "case by case (2008 Section VII)" in bid.detail


def test_a_void_turns_non_combat_moves_are_undone_on_the_board_as_corrected() -> None:
    """2008 Section VII: Germany 3, rolled before USSR 3's reported error was corrected, "is void
    and must be re-done": as corrected its battle has no result and its non-combat move is
    undone too (its 2 ARM stay in Finland Norway); as rolled they took Karelia and one moved."""
    text = (REPLAYS / "fidelity" / "void-turn-findings-superseded-2008.toml").read_text()
    moved = text.replace("[expect]", '''[[event]]
type = "noncombat"
at = 2009-04-04T19:40:00Z
turn = "Germany 3"
moves = ["Karelia 1 ARM to Finland Norway"]

[expect]''')
    game = parse_replay(moved).game
    corrected, rolled = _walk(game).final, _walk(game, as_rolled=True).final
    assert corrected.holders("Finland Norway") == {"Germany": F("2 ARM")}
    assert corrected.holders("Karelia S.S.R.") == {"USSR": F("1 INF")}
    assert rolled.holders("Finland Norway") == {"Germany": F("1 ARM")}
    assert rolled.holders("Karelia S.S.R.") == {"Germany": F("1 ARM")}
    assert review(game).void_turns == ("Germany 3",)


RULING = """
[[event]]
type = "ruling"
at = 2008-01-02T00:00:00Z
finding = "F1"
decision = "apply"
text = "{text}"
"""


def test_an_illegal_bid_placement_ruled_off_is_not_on_the_board_as_corrected() -> None:
    """2008 Section VII leaves an illegal bid to the Minister of Law, case by case, with no time
    limit: his ruling applying 2008 Bidding ("Ftrs cannot be placed on existing or bid carriers")
    takes the fighter off the board as corrected; the record as rolled keeps it, and the legal
    part of the bid stands in both."""
    bid = BID.replace("{units}", '"Germany Ukraine: 1 INF", "Japan Caroline Islands SZ: 1 FTR"')
    game = parse_replay(bid.replace("{remove}", "") + RULING.replace("{text}", "The FTR comes off.")).game
    corrected, rolled = review(game), review(game, as_rolled=True)
    [finding] = [f for f in corrected.findings if f.kind == "bid_illegal"]
    assert finding.status == "corrected" and finding.ruling is not None
    assert "case by case" in finding.detail and "come off the board as corrected" in finding.detail

    def now(view: GameView, territory: str, power: str) -> Force:
        return view.board_history[territory][-1][1].get(power, F(""))

    carrier = "Caroline Islands Sea Zone"
    start = Board.classic().setup["Japan"][carrier]
    assert now(corrected, carrier, "Japan") == start
    assert now(rolled, carrier, "Japan") == start + F("1 FTR")
    assert now(corrected, "Ukraine S.S.R.", "Germany") == now(rolled, "Ukraine S.S.R.", "Germany")
    assert now(corrected, "Ukraine S.S.R.", "Germany").contains(F("1 INF"))
    # Without the ruling the bid stands on both boards, the finding open for the Minister.
    unruled = review(parse_replay(bid.replace("{remove}", "")).game)
    assert now(unruled, carrier, "Japan") == start + F("1 FTR")


def test_a_ruling_on_a_mixed_negative_bid_has_no_remedy_on_the_board() -> None:
    """2008 Bidding: "Negative value bids are allowed ... but may not be combined with the
    addition of additional units": the rules say what is illegal, not which part goes; a ruling
    applying the rule is on record and the bid stands as placed."""
    text = BID.replace("{units}", '"Germany Ukraine: 1 INF"').replace("{remove}", '"Japan Manchuria: 1 INF"')
    game = parse_replay(text + RULING.replace("{text}", "Noted.")).game
    [finding] = [f for f in review(game).findings if f.kind == "bid_illegal"]
    assert finding.status == "stands" and finding.ruling is not None
    assert "no remedy on the board" in finding.detail



#: From the setup: Germany 1 declares Algeria's INF against French West Africa (empty), listing a
#: defender; the UK reports it before any die; Germany elects not to fight.
NOT_FOUGHT = """
format = "minister-replay/1"
[game]
id = "not-fought"
edition = "iaapa-2008"

[[event]]
type = "declaration"
at = 2008-09-02T09:05:00Z
turn = "Germany 1"
text = \"\"\"
Attack #1 - French West Africa (1 INF)
Algeria 1 INF
\"\"\"

[[event]]
type = "report"
at = 2008-09-02T10:00:00Z
by = "UK"
battle = "French West Africa"
text = "French West Africa is empty."

[[event]]
type = "ruling"
at = 2008-09-02T10:30:00Z
finding = "defenders_misdeclared"
battle = "French West Africa"
decision = "apply"
election = "not_fight"
"""


def test_a_battle_elected_not_fought_is_no_walk_in() -> None:
    """2008 Section II: the attacker "may elect not to fight the battle at all" (and "may move the
    previously assigned units during non-combat"): declared into an empty territory and not
    fought, its units stay home; the record as rolled (no election) walked in."""
    game = parse_replay(NOT_FOUGHT).game
    corrected, rolled = _walk(game).final, _walk(game, as_rolled=True).final
    assert corrected.control_of("French West Africa") == "UK"
    assert corrected.of("Algeria", "Germany") == F("1 INF")
    assert rolled.control_of("French West Africa") == "Germany"
    assert rolled.of("French West Africa", "Germany") == F("1 INF")
    # The ruling names the battle by its `battle` (its words do not): it is the correction, made
    # before the next turn was rolled; once UK 1 is rolled, no turn is void (2008 Section VII).
    later = parse_replay(NOT_FOUGHT + '''
[[event]]
type = "purchase"
at = 2008-09-03T09:00:00Z
turn = "UK 1"
units = "2 INF"

[[event]]
type = "purchase"
at = 2008-09-04T09:00:00Z
turn = "Japan 1"
units = "2 INF"
''').game
    view = review(later)
    assert view.void_turns == ()
    assert [(f.kind, f.status) for f in view.findings] == [("defenders_misdeclared", "void")]
