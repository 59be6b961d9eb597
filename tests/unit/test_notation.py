"""IAAPA battle-log notation: dice strings, log lines, canonical printing and round trips."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidNotationError
from domain.notation.battle_log import (
    AttackLine,
    BattleHeader,
    BattleLog,
    Comment,
    DiceText,
    FirstStrikeLine,
    MarkedDie,
    RoundMarker,
    ShotLine,
    SideLine,
    format_log,
    parse_dice,
    parse_log,
    parse_log_line,
)
from domain.rules.units import UnitType
from tests.unit.notation_strategies import battle_logs, dice_texts, log_lines, mutated

U = UnitType

# IAAPA Part 14 (1999) "GM Errors": the battle in which the GM forgot to roll for 2 ARM.
PART14_LOG = """E Europe(AA , 2 INF, 3 FTRs, 3 ARM)
9 INF,1 ARM,2 FTRs from Karelia land Russia
2 ARM from Caucasus
AA rolls 1*1* = 2 hits!!!
R1
A(9 INF,1 ARM) 52461*5654/3* = 2 hits
D(2 INF,3 ARM,2 FTRs) 63431*/2*1* = 3 hits
"""

# The same example's original round 2.
PART14_ROUND2 = """R2
A(6 INF,1 ARM) 52551*3/6 = 1 hit
D(3 ARM,2 FTRs) 436/61* = 1 hit
"""


def cols(*columns: str) -> tuple[tuple[MarkedDie, ...], ...]:
    """Columns from compact text: "61*" -> (6, False), (1, True)."""
    result = []
    for column in columns:
        dice: list[MarkedDie] = []
        for char in column:
            if char == "*":
                dice[-1] = MarkedDie(dice[-1].value, True)
            else:
                dice.append(MarkedDie(int(char), False))
        result.append(tuple(dice))
    return tuple(result)


# ------------------------------------------------------------------------------------- dice
class TestDice:
    def test_columns_and_marks(self) -> None:
        dice = parse_dice("52461*5654/3*")
        assert dice.columns == (
            (MarkedDie(5, False), MarkedDie(2, False), MarkedDie(4, False), MarkedDie(6, False),
             MarkedDie(1, True), MarkedDie(5, False), MarkedDie(6, False), MarkedDie(5, False),
             MarkedDie(4, False)),
            (MarkedDie(3, True),))
        assert dice.has_separators
        assert dice.values == (5, 2, 4, 6, 1, 5, 6, 5, 4, 3)
        assert dice.marked_hits == 2
        assert len(dice) == 10

    def test_dice_keep_the_shape_stored_events_hold(self) -> None:
        # Stored events hold a dice string as [columns], each column [[value, marked], ...]
        # (MarkedDie was a NamedTuple): written and read back exactly so, whatever a die is now.
        stored = msgspec.msgpack.encode([[[[5, False], [2, True]], [[3, False]]]])
        dice = parse_dice("52*/3")
        assert msgspec.msgpack.encode(dice) == stored
        assert msgspec.msgpack.decode(stored, type=DiceText) == dice
        assert dice.marks == (False, True, False)

    def test_each_die_value_is_one_object(self) -> None:
        # A long game holds ~320,000 dice of twelve values: the parser gives each value once.
        first, second = parse_dice("1*6"), parse_dice("3/1*66")
        assert first.columns[0][0] is second.columns[1][0]
        assert first.columns[0][1] is second.columns[1][1] is second.columns[1][2]

    def test_spaces_between_dice(self) -> None:
        assert parse_dice("1*2*3*1*2*5") == parse_dice("1* 2* 3* 1* 2* 5")
        four = parse_dice("6 6 6 6")
        assert four.values == (6, 6, 6, 6)
        assert not four.has_separators
        assert four.marked_hits == 0
        assert parse_dice(" 63431* / 2*1* ").columns == cols("63431*", "2*1*")

    def test_canonical_text(self) -> None:
        assert parse_dice("6 3 4 3 1* / 2* 1*").format() == "63431*/2*1*"
        assert str(parse_dice("1*1*")) == "1*1*"

    @pytest.mark.parametrize(("text", "message"), [
        ("5246 0", "die '0' is not 1-6"),
        ("527", "die '7' is not 1-6"),
        ("8", "die '8' is not 1-6"),
        ("12 9*", "die '9' is not 1-6"),
        ("12x4", "found 'x'"),
        ("*12", "before '*'"),
        ("1**", "before '*'"),
        ("1 *", "before '*'"),
        ("12//3", "before '/'"),
        ("/12", "before '/'"),
        ("12/", "after '/'"),
        ("", "expected a die"),
        ("   ", "expected a die"),
    ])
    def test_errors(self, text: str, message: str) -> None:
        with pytest.raises(InvalidNotationError) as error:
            parse_dice(text)
        assert message in error.value.message
        assert error.value.line == 1
        assert error.value.text == text.strip()

    def test_error_line_in_wrapped_dice(self) -> None:
        with pytest.raises(InvalidNotationError) as error:
            parse_dice("1234\n5678")
        assert error.value.line == 2
        assert error.value.text == "5678"

    @settings(max_examples=200, deadline=None)
    @given(dice_texts)
    def test_round_trip(self, dice: DiceText) -> None:
        assert parse_dice(dice.format()) == dice

    @settings(max_examples=300, deadline=None)
    @given(st.text(max_size=40))
    def test_arbitrary_text_raises_only_notation_errors(self, text: str) -> None:
        try:
            dice = parse_dice(text)
        except InvalidNotationError:
            return
        assert all(1 <= value <= 6 for value in dice.values)


# ------------------------------------------------------------------------------ log lines
class TestPart14Example:
    def test_every_line(self) -> None:
        log = parse_log(PART14_LOG)
        header, karelia, caucasus, aa, r1, attack, defence = log.lines
        assert header == BattleHeader("E Europe", ((U.AA, 1), (U.INF, 2), (U.FTR, 3), (U.ARM, 3)))
        assert karelia == AttackLine(((U.INF, 9), (U.ARM, 1), (U.FTR, 2)), "Karelia", "Russia")
        assert caucasus == AttackLine(((U.ARM, 2),), "Caucasus", None)
        assert aa == ShotLine("AA", DiceText(cols("1*1*")), 2)
        assert r1 == RoundMarker(1)
        assert attack == SideLine("A", None, ((U.INF, 9), (U.ARM, 1)),
                                  DiceText(cols("52461*5654", "3*")), 2)
        assert defence == SideLine("D", None, ((U.INF, 2), (U.ARM, 3), (U.FTR, 2)),
                                   DiceText(cols("63431*", "2*1*")), 3)
        assert log.header is header

    def test_line_numbers_and_raw_text(self) -> None:
        log = parse_log("\n" + PART14_LOG)
        assert [line.lineno for line in log.lines] == [2, 3, 4, 5, 6, 7, 8]
        assert log.lines[3].raw == "AA rolls 1*1* = 2 hits!!!"
        assert log.lines[0].raw == "E Europe(AA , 2 INF, 3 FTRs, 3 ARM)"

    def test_round_two(self) -> None:
        r2, attack, defence = parse_log(PART14_ROUND2).lines
        assert r2 == RoundMarker(2)
        assert attack == SideLine("A", None, ((U.INF, 6), (U.ARM, 1)),
                                  DiceText(cols("52551*3", "6")), 1)
        assert defence == SideLine("D", None, ((U.ARM, 3), (U.FTR, 2)),
                                   DiceText(cols("436", "61*")), 1)

    def test_canonical_text(self) -> None:
        assert format_log(parse_log(PART14_LOG)) == (
            "E Europe(AA, 2 INF, 3 FTR, 3 ARM)\n"
            "9 INF, 1 ARM, 2 FTR from Karelia land Russia\n"
            "2 ARM from Caucasus\n"
            "AA rolls 1*1* = 2 hits\n"
            "R1\n"
            "A(9 INF, 1 ARM) 52461*5654/3* = 2 hits\n"
            "D(2 INF, 3 ARM, 2 FTR) 63431*/2*1* = 3 hits")

    def test_round_trip(self) -> None:
        for text in (PART14_LOG, PART14_ROUND2):
            log = parse_log(text)
            assert parse_log(format_log(log)) == log


class TestPart13ShortForm:
    """IAAPA Part 13 (1999) "Miscellaneous" examples: side and round, no unit list."""

    def test_six_arm_versus_two_inf(self) -> None:
        attack, defence = parse_log("A1 1*2*3*1*2*5 5 Hits\nD1 1*2* 2 Hits").lines
        assert attack == SideLine("A", 1, None, DiceText(cols("1*2*3*1*2*5")), 5)
        assert defence == SideLine("D", 1, None, DiceText(cols("1*2*")), 2)

    def test_stated_hits_absent(self) -> None:
        attack, defence = parse_log("A1 6666\nD1 1*1*1*1*1* 5 Hits").lines
        assert attack == SideLine("A", 1, None, DiceText(cols("6666")), None)
        assert isinstance(defence, SideLine)
        assert defence.stated_hits == 5
        assert defence.dice.marked_hits == 5

    def test_canonical_short_form(self) -> None:
        line = parse_log_line("A1 1*2*3*1*2*5 5 Hits")
        assert line.format() == "A1 1*2*3*1*2*5 = 5 hits"


class TestLineKinds:
    @pytest.mark.parametrize(("text", "kind", "dice", "hits"), [
        ("AA rolls 1*1* = 2 hits", "AA", "1*1*", 2),
        ("AA 1*1* = 2 hits", "AA", "1*1*", 2),
        ("AA rolls 1* = 1 hit!!!", "AA", "1*", 1),
        ("AA rolls 6 5", "AA", "65", None),
        ("aa rolls 64 = no hits", "AA", "64", 0),
        ("BB rolls 4* = 1 hit", "BB", "4*", 1),
        ("BB 4*", "BB", "4*", None),
        ("BB 5 0 hits", "BB", "5", 0),
    ])
    def test_shots(self, text: str, kind: str, dice: str, hits: int | None) -> None:
        assert parse_log_line(text) == ShotLine(kind, DiceText(cols(dice)), hits)  # type: ignore[arg-type]

    @pytest.mark.parametrize(("text", "number"), [
        ("R1", 1), ("R 2", 2), ("Round 3", 3), ("Rnd 4", 4), ("round 12:", 12)])
    def test_round_markers(self, text: str, number: int) -> None:
        assert parse_log_line(text) == RoundMarker(number)

    @pytest.mark.parametrize(("text", "hits"), [
        ("D(2 INF) 12 = 1 hit", 1),
        ("D(2 INF) 12 = 1 hits", 1),
        ("D(2 INF) 34 = 0 hits", 0),
        ("D(2 INF) 34 no hits", 0),
        ("D(2 INF) 34 = no hits", 0),
        ("D(2 INF) 1*2* = 2", 2),
        ("D(2 INF) 1*2*  2 hits", 2),
        ("D(2 INF) 1*2*", None),
    ])
    def test_stated_hits(self, text: str, hits: int | None) -> None:
        line = parse_log_line(text)
        assert isinstance(line, SideLine)
        assert line.stated_hits == hits
        assert line.units == ((U.INF, 2),)

    def test_side_line_with_round_and_units(self) -> None:
        line = parse_log_line("A2(3 ARM) 3*3*6 = 2 hits")
        assert line == SideLine("A", 2, ((U.ARM, 3),), DiceText(cols("3*3*6")), 2)
        assert line.format() == "A2(3 ARM) 3*3*6 = 2 hits"

    def test_attack_line_landing_in_parentheses(self) -> None:
        line = parse_log_line("2 FTR from Karelia (land Russia)")
        assert line == AttackLine(((U.FTR, 2),), "Karelia", "Russia")

    def test_first_strike(self) -> None:
        line = parse_log_line("A(2 SUB) first strike 2*5 = 1 hit")
        assert line == FirstStrikeLine(None, ((U.SUB, 2),), DiceText(cols("2*5")), 1)
        assert line.format() == "A(2 SUB) first strike 2*5 = 1 hit"
        assert parse_log_line("A1 First Strike: 6") == FirstStrikeLine(1, None, DiceText(cols("6")))

    def test_comments_and_blank_lines(self) -> None:
        log = parse_log("# Game 12\n\n   \n-- rolled by USSR  \nR1")
        assert log.lines == (Comment("# Game 12"), Comment("-- rolled by USSR"), RoundMarker(1))
        assert [line.lineno for line in log.lines] == [1, 4, 5]
        assert format_log(log) == "# Game 12\n-- rolled by USSR\nR1"

    def test_line_numbers_do_not_change_equality(self) -> None:
        assert parse_log("R1") == parse_log("\n\nR1")
        assert parse_log("R1").lines[0].lineno == 1
        assert parse_log("\n\nR1").lines[0].lineno == 3

    def test_typos_are_collected(self) -> None:
        log = parse_log("Moscow(10 ing)\n2 ARM from Kar")
        assert log.lines[0] == BattleHeader("Moscow", ((U.INF, 10),))
        assert log.typos == ("line 1: 'ing' read as INF",)

    def test_crlf_line_ends(self) -> None:
        log = parse_log("R1\r\nA1 12\r\n")
        assert log.lines == (RoundMarker(1), SideLine("A", 1, None, DiceText(cols("12"))))
        assert log.lines[1].raw == "A1 12"


class TestErrors:
    @pytest.mark.parametrize(("text", "line", "bad", "message"), [
        ("R1\nA(9 INF) 5247 = 1 hit", 2, "A(9 INF) 5247 = 1 hit", "die '7' is not 1-6"),
        ("R1\n\nD1 1*0 = 1 hit", 3, "D1 1*0 = 1 hit", "die '0' is not 1-6"),
        ("A(9 INF)", 1, "A(9 INF)", "expected dice after 'A(...)'"),
        ("R1\nA(9 INF) 52x", 2, "A(9 INF) 52x", "expected a side line"),
        ("AA rolls", 1, "AA rolls", "expected 'AA rolls"),
        ("E Europe(2 INF)\n9 INF from", 2, "9 INF from", "expected a battle header"),
        ("2 INF, 3 GOATS from Karelia", 1, "2 INF, 3 GOATS from Karelia", "unknown unit type"),
        ("E Europe(2 INF, 3 ZZZ)", 1, "E Europe(2 INF, 3 ZZZ)", "unknown unit type"),
        ("(Original Rnd 2)", 1, "(Original Rnd 2)", "expected a battle header"),
        ("A(6 INF, 3 ARM) Re-roll for the rest of the battle would start here.", 1,
         "A(6 INF, 3 ARM) Re-roll for the rest of the battle would start here.",
         "expected a side line"),
    ])
    def test_line_and_text(self, text: str, line: int, bad: str, message: str) -> None:
        with pytest.raises(InvalidNotationError) as error:
            parse_log(text)
        assert error.value.line == line
        assert error.value.text == bad
        assert message in error.value.message
        assert repr(bad) in str(error.value)

    def test_overlong_line(self) -> None:
        with pytest.raises(InvalidNotationError) as error:
            parse_log("R1\n" + "1" * 3000)
        assert error.value.line == 2


# ------------------------------------------------------------------------------ properties
@settings(max_examples=300, deadline=None)
@given(log_lines)
def test_every_line_round_trips(line: object) -> None:
    assert isinstance(line, (BattleHeader, AttackLine, ShotLine, RoundMarker, SideLine,
                             FirstStrikeLine, Comment))
    assert parse_log_line(line.format()) == line


@settings(max_examples=150, deadline=None)
@given(battle_logs)
def test_logs_round_trip(log: BattleLog) -> None:
    assert parse_log(format_log(log)) == log


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(), mutated(battle_logs.map(format_log))))
def test_arbitrary_text_raises_only_notation_errors(text: str) -> None:
    try:
        log = parse_log(text)
    except InvalidNotationError as error:
        assert error.line is not None
        return
    # Whatever parses prints to a text that parses back to the same log.
    assert parse_log(format_log(log)) == log
