"""Special orders text: order of loss, retreat conditions, sub withdrawal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.battle.model import RetreatCondition
from domain.errors import InvalidNotationError
from domain.notation.declarations import parse_special_orders as reexported
from domain.notation.special_orders import SpecialOrders, parse_special_orders
from domain.rules.units import UnitType
from tests.unit.notation_strategies import mutated, special_orders

U = UnitType


@pytest.mark.parametrize(("text", "expected"), [
    ("OOL: ARM, INF, FTR", SpecialOrders(order_of_loss=(U.ARM, U.INF, U.FTR))),
    ("order of loss: INF, INF, ARM", SpecialOrders(order_of_loss=(U.INF, U.ARM))),
    ("Order of Losses - tnk > inf > ftrs", SpecialOrders(order_of_loss=(U.ARM, U.INF, U.FTR))),
    ("retreat after round 2", SpecialOrders(retreat=RetreatCondition(after_round=2))),
    ("retreat after R2 to Karelia",
     SpecialOrders(retreat=RetreatCondition(after_round=2, to="Karelia"))),
    ("Retreat after 3 rounds", SpecialOrders(retreat=RetreatCondition(after_round=3))),
    ("retreat when 3 or fewer attacking units remain",
     SpecialOrders(retreat=RetreatCondition(at_most_units=3))),
    ("retreat if 2 or less units left to Ukraine S.S.R.",
     SpecialOrders(retreat=RetreatCondition(at_most_units=2, to="Ukraine S.S.R."))),
    ("retreat to Karelia", SpecialOrders(retreat=RetreatCondition(to="Karelia"))),
    ("withdraw subs after round 1 to Baltic SZ",
     SpecialOrders(sub_withdrawal_after=1, withdraw_to="Baltic SZ")),
    ("sub withdrawal after R2", SpecialOrders(sub_withdrawal_after=2)),
    ("withdraw sub to Baltic SZ", SpecialOrders(withdraw_to="Baltic SZ")),
    ("", SpecialOrders()),
])
def test_single_orders(text: str, expected: SpecialOrders) -> None:
    assert parse_special_orders(text) == expected


def test_several_orders_on_lines_and_semicolons() -> None:
    orders = parse_special_orders(
        "OOL: ARM, INF, FTR; retreat after round 2 to Karelia\n\n"
        "retreat when 3 or fewer attacking units remain\nwithdraw subs after round 1 to Baltic SZ")
    assert orders == SpecialOrders((U.ARM, U.INF, U.FTR),
                                   RetreatCondition(after_round=2, at_most_units=3, to="Karelia"),
                                   1, "Baltic SZ")
    assert reexported is parse_special_orders


def test_canonical_text() -> None:
    orders = parse_special_orders("retreat when 3 or fewer units remain to Kar; ool: inf, arm")
    assert orders.format() == ("OOL: INF, ARM\n"
                               "retreat when 3 or fewer attacking units remain to Kar")
    assert parse_special_orders(orders.format()) == orders


def test_typos_are_noted() -> None:
    orders = parse_special_orders("OOL: ing, ARM")
    assert orders.order_of_loss == (U.INF, U.ARM)
    assert orders.typos == ("line 1: 'ing' read as INF",)


@pytest.mark.parametrize(("text", "line", "bad", "message"), [
    ("OOL: ARM\nfight to the death", 2, "fight to the death", "expected 'OOL"),
    ("OOL: ARM; retreat soon", 1, "retreat soon", "expected 'OOL"),
    ("OOL: 2 INF, ARM", 1, "OOL: 2 INF, ARM", "without counts"),
    ("OOL: INF,, ARM", 1, "OOL: INF,, ARM", "expected a unit type"),
    ("OOL:", 1, "OOL:", "expected a unit type"),
    ("OOL: GOATS", 1, "OOL: GOATS", "unknown unit type"),
    ("OOL: INF\nOOL: ARM", 2, "OOL: ARM", "a second order of loss"),
    ("retreat after round 2\nretreat after round 3", 2, "retreat after round 3",
     "a second, different retreat round"),
    ("retreat to Kar\n\nretreat after R1 to Novo", 3, "retreat after R1 to Novo",
     "a second, different retreat location"),
    ("withdraw subs", 1, "withdraw subs", "after round N"),
])
def test_errors(text: str, line: int, bad: str, message: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_special_orders(text)
    assert error.value.line == line
    assert error.value.text == bad
    assert message in error.value.message


def test_repeating_the_same_order_is_not_a_conflict() -> None:
    orders = parse_special_orders("retreat after round 2\nretreat after R2 to Kar")
    assert orders.retreat == RetreatCondition(after_round=2, to="Kar")


@settings(max_examples=150, deadline=None)
@given(special_orders())
def test_orders_round_trip(orders: SpecialOrders) -> None:
    assert parse_special_orders(orders.format()) == orders


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), mutated(special_orders().map(SpecialOrders.format))))
def test_arbitrary_text_raises_only_notation_errors(text: str) -> None:
    try:
        orders = parse_special_orders(text)
    except InvalidNotationError as error:
        assert error.line is not None
        return
    assert parse_special_orders(orders.format()) == orders
