"""The replay file is strict (issue 28, item 7; issue 27, item 10): an unknown key is refused with
its line and the nearest valid key; every reference (battle, turn, finding, event) is resolved at
intake, as the desk's commands resolve it; a retreat must come after the last round its battle's
log fights. Each refusal is bad input at the line of the key at fault."""

from __future__ import annotations

import pytest

from application.intake.replayfile import parse_replay
from domain.errors import ReplayError
from domain.record.references import named_battle
from domain.review.game_review import review
from tests.conftest import REPLAYS

#: Two battles in Caucasus: Germany 2 takes it, USSR 3 takes it back.
TWO_BATTLES = '''format = "minister-replay/1"

[game]
id = "two-caucasus"
edition = "iaapa-2008"

[[event]]
type = "position"
at = 2008-01-01T10:00:00Z
units = ["Germany Ukraine: 6 ARM", "USSR Caucasus: 2 INF", "USSR Russia: 8 INF"]

[[event]]
type = "declaration"
at = 2008-01-01T10:01:00Z
turn = "Germany 2"
text = """
Attack #1 - Caucasus (2 INF)
Ukr 6 ARM
"""

[[event]]
type = "roll"
at = 2008-01-01T10:02:00Z
battle = "Caucasus"
log = """
Caucasus(2 INF)
6 ARM from Ukraine
A1 1*2*5 5 5 5 2 Hits
D1 6 6 0 Hits
"""

[[event]]
type = "declaration"
at = 2008-01-02T10:01:00Z
turn = "USSR 3"
text = """
Attack #1 - Caucasus (6 ARM)
Russia 8 INF
"""

[[event]]
type = "roll"
at = 2008-01-02T10:02:00Z
battle = "Caucasus"
log = """
Caucasus(6 ARM)
8 INF from Russia
A1 1*1*1*1*1*1*6 6 6 Hits
D1 6 6 6 6 6 6 0 Hits
"""
'''


def refused(text: str) -> ReplayError:
    with pytest.raises(ReplayError) as caught:
        parse_replay(text, "game.toml")
    return caught.value


def line_of(text: str, needle: str, nth: int = 1) -> int:
    found = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return found[nth - 1]


def with_record(record: str) -> str:
    return TWO_BATTLES + "\n[[event]]\n" + record


# -- unknown keys -------------------------------------------------------------------------------
def test_an_unknown_key_in_a_record_is_refused_with_the_nearest_key() -> None:
    text = with_record('type = "purchase"\nat = 2008-01-03T10:00:00Z\nturn = "Germany 3"\n'
                       'units = "3 INF"\nipc = 32\n')
    error = refused(text)
    assert error.line == line_of(text, "ipc = 32")
    assert "unknown key 'ipc' in this purchase event, did you mean 'ipcs'?" in error.message
    assert "turn, units, ipcs" in error.message


def test_an_unknown_key_in_game_and_at_the_top_is_refused() -> None:
    text = TWO_BATTLES.replace('edition = "iaapa-2008"', 'edition = "iaapa-2008"\ntitel = "x"')
    error = refused(text)
    assert (error.line, "did you mean 'title'?" in error.message) == (line_of(text, "titel"), True)
    text = TWO_BATTLES + '\n[expects]\nsummary = { findings = 0 }\n'
    error = refused(text)
    assert error.line == line_of(text, "[expects]")
    assert "unknown key 'expects' in the file, did you mean 'expect'?" in error.message


# -- references ---------------------------------------------------------------------------------
def test_a_report_on_a_battle_that_does_not_exist_is_refused_at_its_line() -> None:
    text = with_record('type = "report"\nat = 2008-01-02T11:00:00Z\nby = "USSR"\ntext = "wrong"\n'
                       'battle = "Karelia"\n')
    error = refused(text)
    assert error.line == line_of(text, 'battle = "Karelia"')
    assert "has no such battle" in error.message and "Caucasus (Germany 2)" in error.message


def test_a_report_naming_a_turn_without_that_battle_is_refused_at_the_turn() -> None:
    text = with_record('type = "report"\nat = 2008-01-02T11:00:00Z\nby = "USSR"\ntext = "wrong"\n'
                       'battle = "Caucasus"\nturn = "UK 2"\n')
    error = refused(text)
    assert error.line == line_of(text, 'turn = "UK 2"')
    assert "has no such turn" in error.message


def test_a_report_names_its_battle_by_turn_and_territory() -> None:
    text = with_record('type = "report"\nat = 2008-01-02T11:00:00Z\nby = "USSR"\ntext = "wrong"\n'
                       'battle = "Caucasus"\nturn = "germany 2"\n')
    [report] = parse_replay(text).game.reports
    assert (report.territory, report.turn) == ("Caucasus", "Germany 2")


def test_a_report_on_a_territory_fought_over_twice_resolves_as_the_whole_list_would() -> None:
    """A report's battle is found from its territory's latest battle back, not by reading every
    battle of the game: the same battle the whole list gives, with its turn or without."""
    game = parse_replay(TWO_BATTLES).game
    for turn in (None, "Germany 2", "ussr 3"):
        label = None if turn is None else turn.replace("ussr", "USSR")
        whole = [b for b in game.battles if b.territory == "Caucasus" and label in (None, b.turn)]
        assert named_battle(game, "Caucasus", turn, several=True) is whole[-1]
    assert named_battle(game, "cauc", several=True).turn == "USSR 3"


def test_dice_for_a_territory_fought_over_twice_need_the_turn() -> None:
    record = 'type = "dice"\nat = 2008-01-02T11:00:00Z\nbattle = "Caucasus"\ndice = "3 4"\n'
    text = with_record(record)
    error = refused(text)
    assert error.line == line_of(text, 'battle = "Caucasus"', 3)
    assert "names 2 battles" in error.message
    assert "Caucasus (Germany 2), Caucasus (USSR 3); name its turn too" in error.message
    game = parse_replay(with_record(record + 'turn = "Germany 2"\n')).game
    first, second = game.battles
    assert ([e.dice for e in first.supplied], second.supplied) == ([(3, 4)], ())


def test_a_ruling_names_its_finding_by_turn() -> None:
    path = REPLAYS / "games" / "full-game-three-rounds-2008.toml"
    text = path.read_text(encoding="utf-8")
    head = text.split("\n[expect]", 1)[0]
    ruling = ('\n[[event]]\ntype = "ruling"\nat = 2008-10-01T10:00:00Z\nfinding = "treasury_wrong"\n'
              'decision = "dismiss"\nturn = "UK 2"\n')
    view = review(parse_replay(head + ruling).game)
    ruled = {f.turn: f.ruling for f in view.findings if f.kind == "treasury_wrong"}
    assert ruled["USSR 2"] is None and ruled["UK 2"] is not None
    error = refused(head + ruling.replace('"UK 2"', '"Germany 2"'))
    assert error.line == len((head + ruling).splitlines())  # the ruling's turn, its last line
    assert "no finding 'treasury_wrong' in Germany 2" in error.message


def test_a_withdrawal_or_amendment_must_name_a_report_or_ruling_in_force() -> None:
    text = with_record('type = "withdrawal"\nat = 2008-01-02T11:00:00Z\nwithdraws = 3\n')
    error = refused(text)
    assert error.line == line_of(text, "withdraws = 3")
    assert "event 3 of game 'two-caucasus' is not a report or ruling in force" in error.message
    report = ('type = "report"\nat = 2008-01-02T11:00:00Z\nby = "USSR"\ntext = "wrong"\n'
              '\n[[event]]\n')
    text = with_record(report + 'type = "ruled"\nat = 2008-01-02T11:01:00Z\nfinding = "F1"\n'
                       'decision = "dismiss"\namends = 7\n')
    error = refused(text)
    assert error.line == line_of(text, "amends = 7")
    assert "not a ruling in force" in error.message


# -- retreats -----------------------------------------------------------------------------------
RETREAT = '''
[[event]]
type = "retreat"
at = 2008-01-01T10:03:00Z
battle = "Caucasus"
after_round = {after}
to = "Ukraine"
'''


@pytest.mark.parametrize(("after", "why"), [(0, "the battle went on after round 0"),
                                            (2, "its log fights 1 round")])
def test_a_retreat_contradicting_the_log_is_refused(after: int, why: str) -> None:
    head = TWO_BATTLES.split("\n[[event]]\ntype = \"declaration\"\nat = 2008-01-02", maxsplit=1)[0]
    text = head + RETREAT.format(after=after)
    error = refused(text)
    assert error.line == line_of(text, "after_round")
    assert "expected after_round = the last round the log of Caucasus (Germany 2) fights (1)" \
        in error.message and why in error.message
    [battle] = parse_replay(head + RETREAT.format(after=1)).game.battles
    assert battle.retreats[0].after_round == 1


def test_a_report_naming_a_turn_but_no_battle_is_refused() -> None:
    text = with_record('type = "report"\nat = 2008-01-02T11:00:00Z\nby = "USSR"\ntext = "wrong"\n'
                       'turn = "USSR 3"\n')
    error = refused(text)
    assert error.line == line_of(text, 'turn = "USSR 3"', 2)
    assert "names a battle's turn: expected battle = ... too" in error.message


def test_a_ruling_naming_a_territory_fought_over_twice_needs_the_turn() -> None:
    text = with_record('type = "ruling"\nat = 2008-01-02T11:00:00Z\nfinding = "too_few_units"\n'
                       'decision = "apply"\nbattle = "Caucasus"\n')
    error = refused(text)
    assert error.line == line_of(text, 'battle = "Caucasus"', 3)
    assert "names 2 battles" in error.message
