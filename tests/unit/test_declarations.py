"""Combat declarations in IAAPA notation: both line styles, battle lines, totals, round trips."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from domain.errors import InvalidNotationError
from domain.notation.declarations import (
    Declaration,
    DeclaredBattle,
    DeclaredMove,
    DeclaredTotal,
    format_declaration,
    parse_declaration,
)
from domain.rules.units import UnitType
from tests.unit.notation_strategies import declarations, mutated

U = UnitType

# 2008 "Declaration and Battle Resolution Procedures", Precombat example.
EXAMPLE_2008 = """Combat Moves:
Attack #1 - W Europe (10 INF, AA)
UK 8 INF on UK SZ 4 TRN
E Can 1 ARM on E Can SZ 1 TRN to UK SZ
Kar 2 FTR (land Karelia)
Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA
"""


class Test2008Example:
    def test_battle(self) -> None:
        declaration = parse_declaration(EXAMPLE_2008)
        (battle,) = declaration.battles
        assert battle.number == 1
        assert battle.territory == "W Europe"
        assert battle.defenders == ((U.INF, 10), (U.AA, 1))
        assert battle.lineno == 2
        assert declaration.typos == ()

    def test_moves(self) -> None:
        uk, can, kar = parse_declaration(EXAMPLE_2008).battles[0].moves
        assert uk == DeclaredMove("UK", ((U.INF, 8),), 4, "UK SZ", None, None)
        assert can == DeclaredMove("E Can", ((U.ARM, 1),), 1, "E Can SZ", "UK SZ", None)
        assert kar == DeclaredMove("Kar", ((U.FTR, 2),), 0, None, None, "Karelia")
        assert (uk.lineno, can.lineno, kar.lineno) == (3, 4, 5)
        assert can.raw == "E Can 1 ARM on E Can SZ 1 TRN to UK SZ"

    def test_total(self) -> None:
        total = parse_declaration(EXAMPLE_2008).battles[0].total
        assert total == DeclaredTotal("UK", "Germany", ((U.INF, 8), (U.ARM, 1), (U.FTR, 2)),
                                      ((U.INF, 10), (U.AA, 1)))
        assert total.lineno == 6

    def test_canonical_text(self) -> None:
        assert format_declaration(parse_declaration(EXAMPLE_2008)) == (
            "Attack #1 - W Europe (10 INF, AA)\n"
            "UK 8 INF on UK SZ 4 TRN\n"
            "E Can 1 ARM on E Can SZ 1 TRN to UK SZ\n"
            "Kar 2 FTR (land Karelia)\n"
            "Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA")

    def test_round_trip(self) -> None:
        declaration = parse_declaration(EXAMPLE_2008)
        assert parse_declaration(declaration.format()) == declaration


class TestBattleLines:
    @pytest.mark.parametrize(("text", "number", "territory", "defenders"), [
        ("Attack #1 - W Europe (10 INF, AA)", 1, "W Europe", ((U.INF, 10), (U.AA, 1))),
        ("Attack #2 - Kaz", 2, "Kaz", None),
        ("Battle #3 - Novo (2 INF)", 3, "Novo", ((U.INF, 2),)),
        ("Battle 1: Novo (2 INF)", 1, "Novo", ((U.INF, 2),)),
        ("#4 Cauc (1 INF, 1 ARM)", 4, "Cauc", ((U.INF, 1), (U.ARM, 1))),
        ("#5 Kenya-Rhodesia", 5, "Kenya-Rhodesia", None),
        ("Kaz:", None, "Kaz", None),
        ("E Europe (AA, 2 INF):", None, "E Europe", ((U.AA, 1), (U.INF, 2))),
        ("Novo (2 INF)", None, "Novo", ((U.INF, 2),)),
        ("attack #6 - Karelia S.S.R. ()", 6, "Karelia S.S.R.", ()),
    ])
    def test_forms(self, text: str, number: int | None, territory: str,
                   defenders: tuple[tuple[UnitType, int], ...] | None) -> None:
        (battle,) = parse_declaration(text).battles
        assert battle == DeclaredBattle(number, territory, defenders)

    def test_only_territory_listed_keeps_defenders_none(self) -> None:
        # 2008 Section II: the attacker may list only the defending territory.
        battle = parse_declaration("Attack #2 - Kaz\nNovo 2 INF").battles[0]
        assert battle.defenders is None
        assert battle.moves == (DeclaredMove("Novo", ((U.INF, 2),)),)

    def test_russia_three_battles(self) -> None:
        # IAAPA Part 14 (1999) "Sending Errors" example, written as a declaration.
        text = ("Battle #1 - Kaz\nRussia 2 INF\n\nBattle #2 - Novo\nRussia 2 INF\n\n"
                "Battle #3 - Cauc\nRussia 1 FTR, 2 ARM")
        battles = parse_declaration(text).battles
        assert [(b.number, b.territory) for b in battles] == [(1, "Kaz"), (2, "Novo"), (3, "Cauc")]
        assert battles[2].moves[0].units == ((U.FTR, 1), (U.ARM, 2))
        assert [b.lineno for b in battles] == [1, 4, 7]


class TestMoveLines:
    def test_units_first_style(self) -> None:
        (move,) = parse_declaration(
            "Attack #1 - Russia\n9 INF,1 ARM,2 FTRs from Karelia land Russia").battles[0].moves
        assert move == DeclaredMove("Karelia", ((U.INF, 9), (U.ARM, 1), (U.FTR, 2)), landing="Russia")

    def test_units_first_with_transports(self) -> None:
        (move,) = parse_declaration("Kaz:\n8 INF from UK on UK SZ 4 TRNs to E Can SZ").battles[0].moves
        assert move == DeclaredMove("UK", ((U.INF, 8),), 4, "UK SZ", "E Can SZ")

    def test_transport_count_omitted_is_one(self) -> None:
        (move,) = parse_declaration("Kaz:\nUK 2 INF on UK SZ TRN").battles[0].moves
        assert (move.transports, move.transport_zone) == (1, "UK SZ")

    def test_origin_without_counts(self) -> None:
        (move,) = parse_declaration("Kaz:\nE Can FTR, BMB (land UK)").battles[0].moves
        assert move == DeclaredMove("E Can", ((U.FTR, 1), (U.BMB, 1)), landing="UK")

    def test_origin_ending_in_a_number(self) -> None:
        (move,) = parse_declaration("Kaz:\nSZ 4 1 BB, 2 SUB").battles[0].moves
        assert move.origin == "SZ 4"
        assert move.units == ((U.BB, 1), (U.SUB, 2))
        assert move.format() == "1 BB, 2 SUB from SZ 4"

    def test_units_keep_written_order_and_typos_are_noted(self) -> None:
        declaration = parse_declaration("Attack #1 - Moscoq\nKar 2 ftrs, 10 ing")
        assert declaration.battles[0].territory == "Moscoq"  # names are resolved elsewhere
        assert declaration.battles[0].moves[0].units == ((U.FTR, 2), (U.INF, 10))
        assert declaration.typos == ("line 2: 'ing' read as INF",)

    def test_comments_and_headings_are_skipped(self) -> None:
        text = "Combat moves\n-- turn 3\n# note\nKaz:\nNovo 2 INF\n"
        declaration = parse_declaration(text)
        assert declaration == Declaration((DeclaredBattle(None, "Kaz", None, (
            DeclaredMove("Novo", ((U.INF, 2),)),)),))

    def test_empty_text(self) -> None:
        assert parse_declaration("") == Declaration(())


class TestErrors:
    @pytest.mark.parametrize(("text", "line", "bad", "message"), [
        ("UK 8 INF on UK SZ 4 TRN", 1, "UK 8 INF on UK SZ 4 TRN",
         "expected 'Attack #N - territory' before"),
        ("\n9 INF from Karelia", 2, "9 INF from Karelia", "expected 'Attack #N - territory' before"),
        ("Total UK v. Germany --- 8 INF v. 10 INF", 1, "Total UK v. Germany --- 8 INF v. 10 INF",
         "before a Total line"),
        ("Attack #1 - Kaz\nKar 2 GOATS", 2, "Kar 2 GOATS", "unknown unit type"),
        ("Attack #1 - Kaz\n8 INF on UK SZ 1 TRN", 2, "8 INF on UK SZ 1 TRN", "expected"),
        ("Attack #1 - Kaz\nKar", 2, "Kar", "expected a battle line"),
        ("Attack #1 - Kaz\nKar 2 FTR (land)", 2, "Kar 2 FTR (land)", "expected"),
        ("Attack #1 - Kaz\n2 INF from", 2, "2 INF from", "expected 'units from origin'"),
        ("Attack #1 - Kaz (2 XYZZY)", 1, "Attack #1 - Kaz (2 XYZZY)", "unknown unit type"),
        ("Attack #1 - Kaz\nTotal A v. B --- 1 INF v. 1 INF\nTotal A v. B --- 1 INF v. 1 INF", 3,
         "Total A v. B --- 1 INF v. 1 INF", "a second Total line"),
    ])
    def test_line_and_text(self, text: str, line: int, bad: str, message: str) -> None:
        with pytest.raises(InvalidNotationError) as error:
            parse_declaration(text)
        assert error.value.line == line
        assert error.value.text == bad
        assert message in error.value.message


@settings(max_examples=100, deadline=None)
@given(declarations)
def test_declarations_round_trip(declaration: Declaration) -> None:
    assert parse_declaration(declaration.format()) == declaration


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(), mutated(declarations.map(format_declaration))))
# Found by this test: a zero count ("0FIA") read as a move of nothing, whose canonical text
# read back as another declaration.
@example("0(INA,JAT)\nA 0 TO 0FIA,AA ON 0TRN\nA INF,INF\n0:\nA 0FIA,INA,JAT(LAND 0)\nA INF,INF\n0:")
# Found by this test: an origin holding a keyword ("A 0 ON", "A ON 0") written back ambiguously.
@example("0(FIA,INA)\nA 0 ON 1FIA,ANF,INA ON 0TRN(LAND 0)\nTOTAL 0 V 0--FIA,INA V FIA,ANF,ANF,INA")
@example("0(FIA,INA)\nA ON 0 1FIA,ANF,INA ON 0TRN(LAND 0)\nTOTAL 0 V 0--FIA,INA V FIA,ANF,ANF,INA")
def test_arbitrary_text_raises_only_notation_errors(text: str) -> None:
    try:
        declaration = parse_declaration(text)
    except InvalidNotationError as error:
        assert error.line is not None
        return
    assert parse_declaration(declaration.format()) == declaration


def test_a_long_declaration_parses_in_linear_time() -> None:
    """Issue 14 item 4: 4x the move lines costs about 4x the time (it was quadratic: 128k lines
    took 83 s). The best of three runs of each size, so a busy machine does not decide it; the
    collector paused meanwhile, so what else the test process holds does not either (a full
    collection walks all of it, once per so many objects the parse makes)."""
    import time

    from domain.memory import no_gc
    from domain.notation.declarations import parse_declaration

    def best(lines: int) -> float:
        text = "Attack #1 - Caucasus (2 INF)\n" + "Ukr 1 ARM\n" * lines
        runs = []
        for _ in range(3):
            with no_gc(promote=False):
                started = time.perf_counter()
                assert len(parse_declaration(text).battles[0].moves) == lines
                runs.append(time.perf_counter() - started)
        return min(runs)

    assert best(16000) < 8 * best(4000)
