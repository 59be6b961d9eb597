"""Non-combat moves checked per edition (domain/review/noncombat_review.py) and the time limit
2008 Section VII gives non-combat errors (domain/review/decisions.py).

Each test writes a small record a Minister could check by hand on the Classic board: who fought,
where each unit stands, who held each territory at the start of the turn, how far an aircraft
flew. Every check failed on the code before it (no non-combat rule was checked at all).
"""

from __future__ import annotations

import json

import pytest

from application.adapters.mapper import decode_event, encode_event
from application.intake.replayfile import parse_replay
from application.usecases.transfer import write_replay
from domain.errors import InvalidNotationError
from domain.record.board.walk import walk_board
from domain.record.events import NonCombatRecorded, NonCombatRouted
from domain.record.game import Game
from domain.record.intake import read_noncombat
from domain.review.board_review import outcomes_of
from domain.review.game_review import review
from domain.review.noncombat_review import audit_noncombat
from domain.review.views import Finding
from domain.rules.board import Board
from domain.rules.editions import IAAPA_1999, IAAPA_2008, NONCOMBAT_ERRORS
from domain.rules.findings import FindingStatus

NONCOMBAT = {kind.value for kind in NONCOMBAT_ERRORS}


def _head(edition: str = "iaapa-2008") -> str:
    return f'format = "minister-replay/1"\n[game]\nid = "noncombat"\nedition = "{edition}"\n'


def _event(kind: str, at: str, **fields: str | int | list[str]) -> str:
    """One record on 1 October 2008 (``at``: "HH:MM", or "DD HH:MM" for a later day)."""
    day, _, time = at.rpartition(" ")
    lines = ["[[event]]", f'type = "{kind}"', f"at = 2008-10-{day or '01'}T{time}:00Z"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


def position(*units: str) -> str:
    return _event("position", "09:00", units=list(units))


def declare(turn: str, text: str, at: str = "09:05") -> str:
    return _event("declaration", at, turn=turn, text=text)


def roll(battle: str, log: str, at: str = "09:10") -> str:
    return _event("roll", at, battle=battle, log=log)


def moves(turn: str, *listed: str, at: str = "09:30") -> str:
    return _event("noncombat", at, turn=turn, moves=list(listed))


def report(at: str, text: str = "an illegal non-combat move") -> str:
    return _event("report", at, by="the opponent", text=text)


def ruling(at: str, finding: str) -> str:
    return _event("ruling", at, finding=finding, decision="apply", text="the moves re-done")


def _game(*events: str, edition: str = "iaapa-2008") -> Game:
    return parse_replay(_head(edition) + "".join(events)).game


def _found(game: Game) -> list[Finding]:
    return [f for f in review(game).findings if f.kind in NONCOMBAT]


#: USSR 2 takes East Europe with 3 INF, 1 ARM from Karelia (2 hits on 1 INF).
TAKE_EAST_EUROPE = (
    position("USSR Karelia: 3 INF, 1 ARM", "USSR Russia: 2 INF", "Germany East Europe: 1 INF"),
    declare("USSR 2", "Attack #1 - E Europe\nKar 3 INF, 1 ARM"),
    roll("E Europe", "East Europe(1 INF)\n3 INF, 1 ARM from Karelia\nR1\nA(3 INF, 1 ARM) 1*45/3* = 2 hits\n"
         "D(1 INF) 6 = 0 hits"),
)


# -- units that fought ------------------------------------------------------------------------------
def test_units_that_fought_may_not_move_again_in_noncombat() -> None:
    listed = moves("USSR 2", "E Europe 1 ARM to Karelia", "Russia 2 INF to Karelia")
    found = _found(_game(*TAKE_EAST_EUROPE, listed))
    assert [(f.kind, f.turn) for f in found] == [("moved_after_combat", "USSR 2")]
    assert "'E Europe 1 ARM to Karelia': 1 ARM of it took part in USSR 2's combat" in found[0].detail
    assert found[0].rule == IAAPA_2008.cite(found[0].kind)
    assert "no units may engage in both combat and non-combat" in found[0].rule


def test_units_of_a_battle_declared_and_not_fought_may_move() -> None:
    # 2008 Section II: "If the attacker elects not to fight the battle, he may move the previously
    # assigned units during non-combat." No roll: the units never left Karelia.
    game = _game(TAKE_EAST_EUROPE[0], TAKE_EAST_EUROPE[1], moves("USSR 2", "Karelia 1 ARM to Russia"))
    assert _found(game) == []


def test_a_retreat_fought_beside_units_that_did_not() -> None:
    # USSR 2 attacks East Europe with 1 ARM from Karelia and retreats after round 1; the 2 INF that
    # stayed in Karelia may move, the ARM may not.
    game = _game(
        position("USSR Karelia: 2 INF, 1 ARM", "USSR Russia: 1 INF", "Germany East Europe: 3 INF"),
        declare("USSR 2", "Attack #1 - E Europe\nKar 1 ARM"),
        roll("E Europe", "East Europe(3 INF)\n1 ARM from Karelia\nR1\nA(1 ARM) 6 = 0 hits\n"
             "D(3 INF) 666 = 0 hits"),
        _event("retreat", "09:12", battle="E Europe", after_round=1, to="Karelia"),
        moves("USSR 2", "Kar 2 INF to Russia", "Kar 1 ARM to Russia"))
    found = _found(game)
    assert [f.detail.split(":")[0] for f in found] == ["'Kar 1 ARM to Russia'"]


def test_transports_that_unloaded_in_an_amphibious_assault_are_done_for_the_turn() -> None:
    game = _game(
        position("UK United Kingdom: 1 INF, 1 ARM", "UK North Sea Zone: 1 TRN", "Germany West Europe: 1 INF"),
        declare("UK 2", "Attack #1 - W Europe\nUK 1 INF, 1 ARM on UK SZ 1 TRN"),
        roll("W Europe", "W Europe(1 INF)\n1 INF, 1 ARM from United Kingdom\nR1\n"
             "A(1 INF, 1 ARM) 1*/3* = 2 hits\nD(1 INF) 6 = 0 hits"),
        moves("UK 2", "North Sea 1 TRN to East Canada SZ"))
    [found] = _found(game)
    assert found.kind == "moved_after_combat" and "Once a transport unloads ANY of its cargo" in found.detail


# -- land units into enemy territory --------------------------------------------------------------
def test_land_units_into_an_enemy_or_neutral_territory_or_through_one() -> None:
    # From the setup (a record that begins with USSR 1's purchase): every holder is known.
    bought = _event("purchase", "09:00", turn="USSR 1", units="1 INF")
    game = _game(bought, moves("USSR 1", "Kar 1 INF to E Europe", "Caucasus 1 INF to Turkey",
                       "Kar 1 ARM via Ukraine to Caucasus", "Kar 1 INF to Russia"))
    found = _found(game)
    assert [f.kind for f in found] == ["noncombat_into_enemy"] * 3
    assert "to East Europe, held by Germany" in found[0].detail
    assert "to Turkey, a neutral territory" in found[1].detail
    assert "through Ukraine S.S.R., held by Germany" in found[2].detail
    # A record that starts later knows only what a position names.
    later = _game(position("USSR Karelia: 3 INF"), moves("USSR 2", "Kar 1 INF to Finland Norway"))
    assert _found(later) == []


def test_land_units_may_move_into_a_territory_captured_this_turn() -> None:
    # Karelia keeps 1 INF that did not fight; East Europe is the USSR's once captured.
    game = _game(position("USSR Karelia: 4 INF, 1 ARM", "Germany East Europe: 1 INF"), *TAKE_EAST_EUROPE[1:],
                 moves("USSR 2", "Kar 1 INF to E Europe"))
    assert _found(game) == []


# -- aircraft -------------------------------------------------------------------------------------
CAUCASUS = (
    position("Germany Germany: 1 FTR, 1 BMB", "Germany East Europe: 2 INF, 1 FTR", "Germany Ukraine: 2 ARM",
             "USSR Caucasus: 1 INF"),
    declare("Germany 2", "Attack #1 - Caucasus\nUkraine 2 ARM\nGermany 1 FTR"),
    roll("Caucasus", "Caucasus(1 INF)\n2 ARM from Ukraine\n1 FTR from Germany\nR1\n"
         "A(2 ARM, 1 FTR) 1*66 = 1 hit\nD(1 INF) 6 = 0 hits"),
)


def test_a_fighters_range_counts_its_combat_move() -> None:
    # Germany to Caucasus is 3 spaces; Caucasus to East Europe 2 more (5), to Ukraine 1 (4).
    board = Board.classic()
    assert board.spaces("Germany", "Caucasus") == 3 and board.spaces("Caucasus", "East Europe") == 2
    [found] = _found(_game(*CAUCASUS, moves("Germany 2", "Caucasus 1 FTR to E Europe")))
    assert found.kind == "aircraft_landing"
    assert "flies 3 space(s) from Germany to its battle in Caucasus, then 2 at the least" in found.detail
    assert _found(_game(*CAUCASUS, moves("Germany 2", "Caucasus 1 FTR to Ukraine"))) == []


def test_a_stated_route_counts_every_space() -> None:
    # East Europe to Germany is 1 space; by the Baltic, West Europe and back it is 3, by the North
    # Sea 5: more than a fighter's 4.
    game = _game(CAUCASUS[0], moves("Germany 2", "E Europe 1 FTR via Baltic SZ, North Sea, W Europe to "
                                                 "Germany"))
    assert _found(game) == []
    game = _game(CAUCASUS[0], moves("Germany 2", "E Europe 1 FTR via Baltic SZ, North Sea, Eire, North Sea, "
                                                 "W Europe to Germany"))
    assert [f.kind for f in _found(game)] == ["aircraft_landing"]


def test_aircraft_land_only_where_friendly_at_the_start_of_the_turn() -> None:
    listed = moves("Germany 2", "Caucasus 1 FTR to Ukraine", "E Europe 1 FTR to Caucasus")
    [found] = _found(_game(*CAUCASUS, listed))
    assert "Caucasus was not friendly at the start of Germany 2 (held by USSR; captured this turn)" \
        in found.detail


def test_a_bomber_never_lands_at_sea_a_fighter_only_on_a_friendly_carrier() -> None:
    game = _game(position("Germany Germany: 1 FTR, 1 BMB", "Germany Baltic Sea Zone: 1 TRN"),
                 moves("Germany 2", "Germany 1 BMB to Baltic SZ", "Germany 1 FTR to Baltic SZ"))
    found = _found(game)
    assert ["bomber cannot land at sea" in f.detail for f in found] == [True, False]
    assert "no friendly carrier in Baltic Sea Zone" in found[1].detail
    game = _game(position("Germany Germany: 2 FTR", "Germany Baltic Sea Zone: 1 AC"),
                 moves("Germany 2", "Germany 2 FTR to Baltic SZ"))
    assert _found(game) == []


def test_a_power_that_may_have_long_range_aircraft_is_not_range_checked() -> None:
    far = moves("Germany 2", "Caucasus 1 FTR to E Europe")
    tech = _event("tech", "09:01", turn="Germany 2", dice="26")
    assert [f.kind for f in _found(_game(*CAUCASUS[:1], tech, *CAUCASUS[1:], far))] == []
    tech = _event("tech", "09:01", turn="Germany 2", dice="25")
    assert [f.kind for f in _found(_game(*CAUCASUS[:1], tech, *CAUCASUS[1:], far))] == ["aircraft_landing"]


def test_a_landing_the_declaration_states_is_checked_too() -> None:
    # UK 1 of the shipped full game: India to Anglo Sudan Egypt is 3 spaces, and back 3 more.
    game = _game(
        position("UK India: 1 FTR", "UK Syria Jordan: 1 INF", "Germany Anglo Egypt: 1 ARM"),
        declare("UK 2", "Attack #1 - Anglo Egypt\nSyria 1 INF\nIndia 1 FTR (land India)"),
        roll("Anglo Egypt", "Anglo Sudan Egypt(1 ARM)\n1 INF from Syria Jordan\n1 FTR from India land India\n"
             "R1\nA(1 INF, 1 FTR) 1*/5 = 1 hit\nD(1 ARM) 4 = 0 hits"))
    [found] = _found(game)
    assert found.detail.startswith("1 FTR from India to Anglo Sudan Egypt, landing in India: a FTR flies 3")
    nearby = _game(
        position("UK India: 1 FTR", "UK Syria Jordan: 1 INF", "Germany Anglo Egypt: 1 ARM"),
        declare("UK 2", "Attack #1 - Anglo Egypt\nSyria 1 INF\nIndia 1 FTR (land Syria)"),
        roll("Anglo Egypt", "Anglo Sudan Egypt(1 ARM)\n1 INF from Syria Jordan\n"
             "1 FTR from India land Syria Jordan\nR1\nA(1 INF, 1 FTR) 1*/5 = 1 hit\nD(1 ARM) 4 = 0 hits"))
    assert _found(nearby) == []  # 3 spaces to the battle, 1 back to Syria Jordan, held since the start


# -- AA guns --------------------------------------------------------------------------------------
def test_an_aa_gun_never_leaves_a_territory_captured_this_turn() -> None:
    take = (position("Germany East Europe: 3 INF, AA", "USSR Karelia: 1 INF, AA"),
            declare("Germany 2", "Attack #1 - Karelia\nE Europe 3 INF"),
            roll("Karelia", "Karelia(1 INF)\n3 INF from East Europe\nR1\nA(3 INF) 1*1*5 = 2 hits\n"
                 "D(1 INF) 6 = 0 hits"))
    [found] = _found(_game(*take, moves("Germany 2", "Karelia 1 AA to E Europe")))
    assert found.kind == "aa_gun_moved" and "captured in Germany 2 (held by USSR at the start" in found.detail
    assert _found(_game(*take, moves("Germany 2", "E Europe 1 AA to Karelia"))) == []  # into it: allowed


def test_an_aa_gun_declared_into_a_combat_attack() -> None:
    game = _game(position("USSR Karelia: 3 INF, AA", "Germany East Europe: 1 INF"),
                 declare("USSR 2", "Attack #1 - E Europe\nKar 3 INF, 1 AA"),
                 roll("E Europe", "East Europe(1 INF)\n3 INF, 1 AA from Karelia\nR1\n"
                      "A(3 INF) 1*1*1* = 3 hits\nD(1 INF) 6 = 0 hits"))
    [found] = _found(game)
    assert found.kind == "aa_gun_moved"
    assert "A rocket may not accompany any units in a combat attack" in found.detail


# -- capacity -------------------------------------------------------------------------------------
CANADA = position("UK East Canada: 2 INF, 1 ARM", "UK East Canada Sea Zone: 1 TRN", "UK West Canada: 1 INF",
                  "UK United Kingdom: 3 FTR", "UK North Sea Zone: 1 AC")


def test_a_transport_carries_two_infantry_or_one_and_one_other() -> None:
    by_sea = "via East Canada SZ to West Canada"
    assert _found(_game(CANADA, moves("UK 2", f"East Canada 1 INF, 1 ARM {by_sea}"))) == []
    assert _found(_game(CANADA, moves("UK 2", f"East Canada 2 INF {by_sea}"))) == []
    [found] = _found(_game(CANADA, moves("UK 2", f"East Canada 1 INF {by_sea}",
                                         f"East Canada 1 INF, 1 ARM {by_sea}")))
    assert found.kind == "capacity_exceeded"
    assert found.detail.startswith("2 INF, 1 ARM routed through East Canada")
    # Without a route the record does not say the units went by sea: nothing is checked.
    assert _found(_game(CANADA, moves("UK 2", "East Canada 2 INF, 1 ARM to West Canada"))) == []


def test_a_carrier_carries_two_fighters() -> None:
    assert _found(_game(CANADA, moves("UK 2", "United Kingdom 2 FTR to North Sea"))) == []
    [found] = _found(_game(CANADA, moves("UK 2", "United Kingdom 3 FTR to North Sea")))
    assert found.kind == "capacity_exceeded" and "3 friendly fighters in North Sea Zone" in found.detail


# -- editions, both boards, the time limit --------------------------------------------------------
def test_parts_13_and_14_have_no_noncombat_rule() -> None:
    listed = moves("USSR 2", "E Europe 1 ARM to Karelia")
    assert [f.kind for f in _found(_game(*TAKE_EAST_EUROPE, listed))] == ["moved_after_combat"]
    assert _found(_game(*TAKE_EAST_EUROPE, listed, edition="iaapa-1999")) == []
    assert not NONCOMBAT_ERRORS & IAAPA_1999.kinds and IAAPA_2008.kinds >= NONCOMBAT_ERRORS


def test_a_move_is_in_error_only_on_both_boards() -> None:
    game = _game(*TAKE_EAST_EUROPE, moves("USSR 2", "E Europe 1 ARM to Karelia"))
    rolled = walk_board(game, outcomes_of(review(game, as_rolled=True).battles))
    unfought = walk_board(game, {game.battles[0].key: None})  # as if the battle were void
    assert [i.kind for _, i in audit_noncombat(game, rolled, rolled, IAAPA_2008)] == ["moved_after_combat"]
    assert audit_noncombat(game, unfought, rolled, IAAPA_2008) == []
    assert audit_noncombat(game, rolled, unfought, IAAPA_2008) == []


ERROR = (*TAKE_EAST_EUROPE, moves("USSR 2", "E Europe 1 ARM to Karelia"))
#: Germany 2 rolled (the turn after USSR 2), then UK 2 (the one after that).
GERMANY_2 = (declare("Germany 2", "Attack #1 - Karelia\nGermany 1 INF", at="02 09:05"),
             roll("Karelia", "Karelia(3 INF)\n1 INF from Germany\nR1\nA(1 INF) 6 = 0 hits\n"
                  "D(3 INF) 666 = 0 hits", at="02 09:10"))
UK_2 = (declare("UK 2", "Attack #1 - W Europe\nUK 1 INF", at="03 09:05"),
        roll("W Europe", "W Europe(1 INF)\n1 INF from United Kingdom\nR1\nA(1 INF) 6 = 0 hits\n"
             "D(1 INF) 6 = 0 hits", at="03 09:10"))


def _status(*events: str) -> tuple[FindingStatus, str]:
    [found] = _found(_game(*events))
    return found.status, found.detail


@pytest.mark.parametrize(("events", "status", "words"), [
    ((), FindingStatus.OPEN, "not reported yet: correctable until Germany 2 is rolled"),
    (GERMANY_2, FindingStatus.FIXED, "not reported before Germany 2 was rolled"),
    ((report("11:00"),), FindingStatus.OPEN, "reported in time: the move must be corrected before Germany 2"),
    ((report("11:00"), ruling("11:30", "moved_after_combat")), FindingStatus.CORRECTED, ""),
    ((report("11:00"), *GERMANY_2), FindingStatus.OPEN,
     "Germany 2 is void and must be re-done; fixed if UK 2"),
    ((report("11:00"), *GERMANY_2, ruling("02 11:00", "moved_after_combat")), FindingStatus.CORRECTED,
     "corrected after Germany 2 was rolled: Germany 2 is void"),
    ((report("11:00"), *GERMANY_2, *UK_2), FindingStatus.FIXED, "never corrected before UK 2 was rolled"),
    ((*GERMANY_2, report("02 11:00")), FindingStatus.FIXED,
     "after Germany 2 was rolled (2008-10-02 09:10 UTC"),
])
def test_the_time_limit_of_non_combat_errors(events: tuple[str, ...], status: FindingStatus,
                                             words: str) -> None:
    """2008 Section VII: "This will apply to CDEs, rolling errors, and non-combat errors only"."""
    found, detail = _status(*ERROR, *events)
    assert found == status and words in detail


def test_the_route_is_read_with_the_move() -> None:
    move, route = read_noncombat("W Europe 1 FTR via North Sea, Eire to United Kingdom")
    assert route == ("North Sea Zone", "Eire") and move.landing == "United Kingdom"
    assert move.raw == "W Europe 1 FTR via North Sea, Eire to United Kingdom"
    assert read_noncombat("Kar 2 INF to Russia")[1] == ()
    with pytest.raises(InvalidNotationError, match="separated by commas"):
        read_noncombat("Kar 2 INF via Karelia SZ, to Norway")


def test_a_route_makes_the_record_version_2_and_only_then() -> None:
    """A record without a route keeps version 1's exact bytes (its hash-chain link, an export's
    [integrity] head); one with a route is version 2, and survives an export and re-import."""
    plain = parse_replay(_head() + moves("USSR 2", "Kar 2 INF to Russia"))
    listed = moves("USSR 2", "Kar 2 INF to Russia", "Kar 1 INF via Karelia SZ to Norway")
    routed = parse_replay(_head() + listed)
    assert [type(e) for e in plain.events[1:]] == [NonCombatRecorded]
    assert [type(e) for e in routed.events[1:]] == [NonCombatRouted]
    assert routed.game.noncombat[0].routes == ((), ("Karelia Sea Zone",))
    assert routed.game.noncombat[0].route(1) == ("Karelia Sea Zone",)
    assert plain.game.noncombat[0].route(0) == ()
    again = parse_replay(write_replay(routed.events))
    assert [encode_event(e) for e in again.events] == [encode_event(e) for e in routed.events]
    assert decode_event(NonCombatRouted.TOPIC, encode_event(routed.events[1])) == routed.events[1]


def test_no_finding_quotes_again_what_its_citation_quotes() -> None:
    """A finding's line is its detail, then its kind's citation: where the citation quotes one
    rule, the detail names it without quoting it again (the six-round game's F2 carried the same
    150 characters twice); where it quotes several (an AA gun's), the detail quotes the one it
    breaks. Every shipped replay, both histories."""
    import re

    from domain.record.game import project_game
    from domain.review.game_review import review_both
    from domain.rules.editions import edition
    from domain.rules.findings import FindingKind
    from tests.conftest import REPLAYS

    checked = 0
    for path in sorted(REPLAYS.rglob("*.toml")):
        try:
            replay = parse_replay(path.read_text(encoding="utf-8"), str(path))
        except InvalidNotationError:
            continue  # a replay written to fail intake
        game = project_game(None, replay.events)
        assert game is not None
        policy = edition(game.edition)
        for view in review_both(game):
            for finding in view.findings:
                quotes = re.findall(r'"([^"]{20,})"', policy.cite(FindingKind(finding.kind)))
                if len(quotes) == 1:
                    assert quotes[0] not in finding.detail, f"{path.name} {finding.id}: {quotes[0]}"
                    checked += 1
    assert checked >= 10  # findings whose citation quotes one rule were read (14 today)
