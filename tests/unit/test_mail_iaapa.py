"""The IAAPA-notation recogniser: each section of a turn e-mail becomes its record, or a problem
naming the e-mail's line."""

from __future__ import annotations

from dataclasses import replace

from application.intake.mail.model import Found, Source
from application.intake.mail.recognise import iaapa
from application.intake.mail.recognise.context import GameFacts, edition_of, hints, turn_in, turn_line
from tests.support.mail_messages import reading, segment


def _read(text: str, **kw: str) -> Found:
    return iaapa.recognise(segment(text, **kw), reading())


def _records(text: str, **kw: str) -> list[tuple[str, tuple[tuple[str, object], ...]]]:
    return [(r.kind, r.fields) for r in _read(text, **kw).records]


def test_a_turn_email_is_read_section_by_section() -> None:
    text = """Hans,

here's my turn.

Purchase: 3 INF (24 IPCs)

Combat Moves:
Attack #1 - E Europe (2 INF)
Kar 2 INF, 2 ARM

Attack #2 - Ukraine (1 INF)
Cauc 2 INF

Orders for E Europe (attacker):
OOL: INF, ARM
retreat after round 2

Non-combat moves: Russia 2 ARM to Karelia; Caucasus 1 INF to Russia

Placement:
Russia 3 INF
Karelia 1 INF

Map update:
USSR Karelia: 1 INF, AA, IC
USSR 8/$24

Boris
"""
    assert _records(text) == [
        ("purchase", (("turn", "USSR 1"), ("units", "3 INF"), ("ipcs", 24))),
        ("declaration", (("turn", "USSR 1"), ("text", "Combat Moves:\nAttack #1 - E Europe (2 INF)\n"
                                                      "Kar 2 INF, 2 ARM\nAttack #2 - Ukraine (1 INF)\n"
                                                      "Cauc 2 INF\n"))),
        ("orders", (("turn", "USSR 1"), ("battle", "E Europe"), ("side", "attacker"),
                    ("text", "OOL: INF, ARM\nretreat after round 2\n"))),
        ("noncombat", (("turn", "USSR 1"),
                       ("moves", ["Russia 2 ARM to Karelia", "Caucasus 1 INF to Russia"]))),
        ("placement", (("turn", "USSR 1"), ("place", ["Russia 3 INF", "Karelia 1 INF"]))),
        ("map_update", (("turn", "USSR 1"), ("units", ["USSR Karelia: 1 INF, AA, IC"]),
                        ("count", "USSR 8/$24"))),
    ]


def test_each_record_names_its_email_line_and_takes_the_emails_date() -> None:
    found = _read("Hello\n\nPurchase with 24 IPCs: 3 INF\n")
    record = found.records[0]
    assert record.source.line == 3 and record.at.isoformat() == "2019-06-01T10:00:00+02:00"
    assert record.fields == (("turn", "USSR 1"), ("units", "3 INF"), ("ipcs", 24))


def test_position_casualties_retreat_and_report() -> None:
    text = """Position:
USSR Karelia: 3 INF, 2 ARM, AA, IC
Germany E Europe: 2 INF

Casualties in E Europe, round 1 (defender): 1 INF, 1 ARM
Retreat from Ukraine after round 1 to Caucasus.

Correction request by Germany about E Europe: The 2 ARM from Caucasus
were never rolled in round 1.
"""
    assert _records(text) == [
        ("position", (("units", ["USSR Karelia: 3 INF, 2 ARM, AA, IC", "Germany E Europe: 2 INF"]),)),
        ("casualties", (("battle", "E Europe"), ("round", 1), ("side", "defender"),
                        ("units", "1 INF, 1 ARM"))),
        ("retreat", (("battle", "Ukraine"), ("after_round", 1), ("to", "Caucasus"))),
        ("report", (("by", "Germany"), ("battle", "E Europe"),
                    ("text", "The 2 ARM from Caucasus were never rolled in round 1."))),
    ]


def test_a_report_without_by_names_the_senders_side_from_the_game_header() -> None:
    game = GameFacts()
    game.read_line("Axis: Hans Keller <hans@x.de>", Source(segment("x").origin, 1))
    found = iaapa.recognise(segment("Dispute: that die was a 4, not a 1.", sender="Hans <hans@x.de>"),
                            reading(game))
    assert found.records[0].fields[0] == ("by", "Axis")


def test_a_pasted_battle_log_is_a_roll_of_its_battle() -> None:
    text = """the rolls:

E Europe(AA, 2 INF, 2 FTR, 3 ARM)
9 INF,1 ARM,2 FTRs from Karelia land Russia
AA rolls 1*1* = 2 hits!!!
R1
A(9 INF,1 ARM) 52461*5654/3* = 2 hits
D(2 INF,3 ARM,2 FTRs) 63431*/2*1* = 3 hits

Ivan
"""
    [(kind, fields)] = _records(text)
    assert kind == "roll" and fields[0] == ("battle", "E Europe")
    assert fields[1][1] == ("E Europe(AA, 2 INF, 2 FTR, 3 ARM)\n9 INF,1 ARM,2 FTRs from Karelia land Russia\n"
                            "AA rolls 1*1* = 2 hits!!!\nR1\nA(9 INF,1 ARM) 52461*5654/3* = 2 hits\n"
                            "D(2 INF,3 ARM,2 FTRs) 63431*/2*1* = 3 hits\n")


def test_a_log_without_a_header_takes_the_battle_named_above_it() -> None:
    [(kind, fields)] = _records("Battle: Karelia\nR2\nA2 15 = 1 hit\nD2 3\n")
    assert (kind, fields[0]) == ("roll", ("battle", "Karelia"))
    found = _read("R2\nA2 15 = 1 hit\n")
    assert found.records == [] and "no battle" in found.problems[0].message


def test_english_that_starts_like_a_log_line_is_not_a_log() -> None:
    assert _read("A 4 misses (armour hits on 3 or less): Germany holds Karelia.\nA fine game.\n") == Found()


def test_notation_that_does_not_read_is_a_problem_at_the_emails_line_never_a_record() -> None:
    found = _read("Hello\n\nE Europe(2 INF)\nR1\nA(2 INF) 1*9 = 1 hit\n")
    assert found.records == []
    [problem] = found.problems
    assert problem.source.line == 5
    assert "a battle log not read" in problem.message and "1*9" in problem.message
    found = _read("Combat Moves:\nAttack #1 - E Europe (2 INF)\nKar 2 INF, 2 ZEPPELINS\n")
    assert found.records == [] and found.problems[0].source.line == 3
    found = _read("Orders for E Europe (defender):\nOOL: INF\nsurrender at once\n")
    assert found.records == [] and found.problems[0].source.line == 3


def test_a_section_with_no_turn_is_a_problem() -> None:
    found = _read("Purchase: 3 INF\n", subject="my move")
    assert found.records == [] and "no turn" in found.problems[0].message


def test_a_turn_line_overrides_the_subject() -> None:
    assert _records("Germany 2.\nPurchase: 1 ARM\n")[0][1][0] == ("turn", "Germany 2")


def test_a_quote_with_no_date_of_its_own_takes_the_carrying_mails() -> None:
    quoted = segment("Purchase: 1 ARM\n", date="", carried="quoted")
    found = iaapa.recognise(quoted, reading())
    assert found.records == [] and "no date" in found.problems[0].message
    dated = iaapa.recognise(quoted, replace(reading(), fallback=segment("x").origin.date))
    assert dated.records[0].at.isoformat() == "2019-06-01T10:00:00+02:00"


def test_turns_games_and_editions_named_in_subjects_and_lines() -> None:
    assert turn_in("Re: Game 2231 - USSR 1") == "USSR 1"
    assert turn_in("Russians - round 3") == "USSR 3"
    assert turn_in("Fwd: Game 5 Germany #2") == "Germany 2"
    assert turn_in("Game 2231 - setup") is None
    assert turn_line("Turn: UK 4") == "UK 4" and turn_line("USA #13") == "USA 13"
    assert turn_line("Game 2231") is None and turn_line("Russia 3 INF") is None
    assert edition_of("IAAPA 2008 (2nd Edition Unabridged)") == "iaapa-2008"
    assert edition_of("IAAPA 1999 (Parts 13 and 14)") == "iaapa-1999" and edition_of("house rules") is None
    assert hints("Ukraine defence, round 2") == hints("R2 defending Ukraine")
    assert hints("E Europe correction dice").purpose == "correction"
