"""The Game fold files each record where it belongs and never judges it."""

from __future__ import annotations

import pytest

from application.intake.replayfile import parse_replay
from domain.errors import ReplayError
from domain.record.game import parse_turn
from domain.rules.forces import Force

HEAD = '''format = "minister-replay/1"
[game]
id = "fold"
edition = "iaapa-2008"
[[event]]
type = "position"
at = 2008-01-01T10:00:00Z
units = ["UK United Kingdom: 2 INF, 1 ARM, 2 FTR", "UK UK SZ: 1 TRN, 1 BB",
         "Germany W Europe: 2 INF, 1 FTR, AA", "Japan W Europe: 1 INF", "USA W Europe: 1 ARM"]
[[event]]
type = "declaration"
at = 2008-01-01T10:01:00Z
turn = "UK 1"
text = """
Attack #1 - W Europe
UK 1 INF, 1 ARM on UK SZ 1 TRN
UK 2 FTR (land United Kingdom)
UK SZ 1 BB
"""
'''

AMEND = '''[[event]]
type = "declaration"
at = {at}
turn = "UK 1"
text = """
Attack #1 - W Europe
UK 2 FTR (land United Kingdom)
"""
'''

ROLL = '''[[event]]
type = "roll"
at = 2008-01-01T10:03:00Z
battle = "W Europe"
log = """
R1
A(1 INF, 1 ARM, 2 FTR) 6/55 = 0 hits
"""
'''


def test_a_declared_battle_collects_its_moves_and_the_defenders_on_the_map() -> None:
    game = parse_replay(HEAD).game
    [battle] = game.battles
    assert (battle.turn, battle.territory, battle.kind) == ("UK 1", "West Europe", "amphibious")
    assert battle.attackers == Force.parse("1 INF, 1 ARM, 2 FTR")
    assert battle.support == Force.parse("1 BB")
    assert battle.amphibious == Force.parse("1 INF, 1 ARM")
    # Only enemy powers' units defend; the USA is the UK's ally.
    assert battle.position_defenders == Force.parse("3 INF, 1 FTR, AA")
    assert battle.available["United Kingdom"] == Force.parse("2 INF, 1 ARM, 2 FTR")
    assert battle.declared_defenders is None


def test_an_amendment_before_any_die_replaces_the_declaration() -> None:
    game = parse_replay(HEAD + AMEND.format(at="2008-01-01T10:02:00Z") + ROLL).game
    assert game.battles[0].attackers == Force.parse("2 FTR")
    assert [d.effective for d in game.declarations] == [True, True]


def test_an_amendment_after_dice_is_kept_but_not_in_force() -> None:
    # 2008 "Amendments and Special Orders": no changes once any combat dice are rolled.
    game = parse_replay(HEAD + ROLL + AMEND.format(at="2008-01-01T10:04:00Z")).game
    assert game.battles[0].attackers == Force.parse("1 INF, 1 ARM, 2 FTR")
    assert [d.effective for d in game.declarations] == [True, False]
    assert len(game.battles[0].rolls) == 1


def test_a_roll_for_an_undeclared_battle_is_bad_input() -> None:
    with pytest.raises(ReplayError, match="no declaration lists"):
        parse_replay(HEAD + ROLL.replace('battle = "W Europe"', 'battle = "Germany"'))


@pytest.mark.parametrize(("text", "expected"), [("USSR 3", ("USSR", 3)), ("uk 1", ("UK", 1)),
                                                ("  Japan 12 ", ("Japan", 12))])
def test_turns(text: str, expected: tuple[str, int]) -> None:
    assert parse_turn(text) == expected
