"""Special orders text (the ``orders`` records): order of loss, retreat and sub withdrawal.

Part 13 (1999): "The sending player can, and he is strongly suggested to, issue special orders to
cover any odd dice rolls"; the GM follows them mechanically. 2008 "Default Orders of Loss": "A
player may designate any order of loss that he desires for his casualties"; "Amendments and
Special Orders": special instructions count when received before the battle is rolled; "RETREATS"
and "SUB WITHDRAWAL" (the defender names the sea zone a surviving sub withdraws to).

Accepted orders, one per line or separated by ``;`` (keywords in any case)::

    OOL: ARM, INF, FTR                 also "order of loss(es):"; "," or ">" between types
    retreat after round 2              also "after R2", "after 2 rounds"; optional "to <territory>"
    retreat when 3 or fewer attacking units remain     "if", "less", "units left"; optional "to"
    retreat to Karelia                 a retreat location without a condition
    withdraw subs after round 1 to Baltic SZ           also "sub withdrawal ..."; round or zone optional

An order of loss names unit types without counts; a repeated type keeps its first place.
"""

from __future__ import annotations

import re
from typing import TypeVar

import msgspec

from domain.battle.model import RetreatCondition
from domain.errors import InvalidNotationError
from domain.notation.battle_log import NAME, NUMBER, check_length, parse_unit_list
from domain.rules.units import UnitType

T = TypeVar("T", int, str)


class SpecialOrders(msgspec.Struct, frozen=True, array_like=True, eq=False, gc=False):
    """A side's special orders for one battle; ``None`` where the text gives no such order.

    A msgspec Struct, so the orders read when recorded travel with the event; ``typos`` is not
    part of equality.
    """

    order_of_loss: tuple[UnitType, ...] | None = None
    retreat: RetreatCondition | None = None
    sub_withdrawal_after: int | None = None
    withdraw_to: str | None = None
    typos: tuple[str, ...] = ()

    def _meaning(self) -> tuple[object, ...]:
        return (self.order_of_loss, self.retreat, self.sub_withdrawal_after, self.withdraw_to)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpecialOrders) and self._meaning() == other._meaning()

    def __hash__(self) -> int:
        return hash(self._meaning())

    def format(self) -> str:
        """Canonical text, one order per line; :func:`parse_special_orders` reads it back equal."""
        lines: list[str] = []
        if self.order_of_loss is not None:
            lines.append("OOL: " + ", ".join(unit.value for unit in self.order_of_loss))
        if self.retreat is not None:
            lines.extend(_format_retreat(self.retreat))
        if self.sub_withdrawal_after is not None or self.withdraw_to is not None:
            text = "withdraw subs"
            if self.sub_withdrawal_after is not None:
                text += f" after round {self.sub_withdrawal_after}"
            if self.withdraw_to is not None:
                text += f" to {self.withdraw_to}"
            lines.append(text)
        return "\n".join(lines)


def _format_retreat(retreat: RetreatCondition) -> list[str]:
    lines: list[str] = []
    to = f" to {retreat.to}" if retreat.to is not None else ""
    if retreat.after_round is not None:
        lines.append(f"retreat after round {retreat.after_round}{to}")
        to = ""
    if retreat.at_most_units is not None:
        lines.append(f"retreat when {retreat.at_most_units} or fewer attacking units remain{to}")
        to = ""
    if to:
        lines.append(f"retreat{to}")
    return lines


_ROUND = rf"(?:(?i:round|rnd|r)\s*(?P<round>{NUMBER})|(?P<rounds>{NUMBER})\s+(?i:rounds?))"
_TO = rf"(?:\s+(?i:to)\s+(?P<to>{NAME}))?"
_END = r"\s*$"
_OOL = re.compile(r"^(?:(?i:OOL)|(?i:orders?\s+of\s+loss(?:es)?))\s*[:\-]?\s*(?P<units>.*?)\s*\.?$")
_RETREAT_AFTER = re.compile(rf"^(?i:retreat)\s+(?i:after)\s+{_ROUND}{_TO}{_END}")
_RETREAT_WHEN = re.compile(
    rf"^(?i:retreat)\s+(?i:when|if)\s+(?P<count>{NUMBER})\s+(?i:or)\s+(?i:fewer|less)\s+"
    rf"(?:(?i:attacking)\s+)?(?i:units?)\s+(?i:remain|remains|remaining|left|are\s+left)"
    rf"{_TO}{_END}")
_RETREAT_TO = re.compile(rf"^(?i:retreat)\s+(?i:to)\s+(?P<to>{NAME}){_END}")
_WITHDRAW = re.compile(
    rf"^(?:(?i:withdraw)\s+(?i:subs?|submarines?|ss)|(?i:sub)\s+(?i:withdrawal))"
    rf"(?:\s+(?i:after)\s+{_ROUND})?{_TO}{_END}")
_COUNT = re.compile(r"[0-9]")


def parse_special_orders(text: str) -> SpecialOrders:
    """Parse special orders; errors name the 1-based line within ``text`` and quote the order."""
    order: tuple[UnitType, ...] | None = None
    after_round: int | None = None
    at_most: int | None = None
    retreat_to: str | None = None
    retreat_given = False
    sub_after: int | None = None
    sub_to: str | None = None
    typos: list[str] = []

    for lineno, line in enumerate(text.split("\n"), start=1):
        check_length(line.strip(), lineno)
        for part in (segment.strip() for segment in line.split(";")):
            if not part:
                continue
            if match := _OOL.match(part):
                if order is not None:
                    raise InvalidNotationError("a second order of loss", line=lineno, text=part)
                order = _order_of_loss(match.group("units"), lineno, part, typos)
            elif match := _RETREAT_AFTER.match(part):
                number = int(match.group("round") or match.group("rounds"))
                after_round = _merge(after_round, number, "retreat round", lineno, part)
                retreat_to = _merge(retreat_to, match.group("to"), "retreat location", lineno, part)
                retreat_given = True
            elif match := _RETREAT_WHEN.match(part):
                count = int(match.group("count"))
                at_most = _merge(at_most, count, "retreat unit count", lineno, part)
                retreat_to = _merge(retreat_to, match.group("to"), "retreat location", lineno, part)
                retreat_given = True
            elif match := _RETREAT_TO.match(part):
                retreat_to = _merge(retreat_to, match.group("to"), "retreat location", lineno, part)
                retreat_given = True
            elif match := _WITHDRAW.match(part):
                number_text = match.group("round") or match.group("rounds")
                if number_text is None and match.group("to") is None:
                    raise InvalidNotationError(
                        "expected 'after round N' and/or 'to <sea zone>' after 'withdraw subs'",
                        line=lineno, text=part)
                sub_round = int(number_text) if number_text is not None else None
                sub_after = _merge(sub_after, sub_round, "sub withdrawal round", lineno, part)
                sub_to = _merge(sub_to, match.group("to"), "sub withdrawal zone", lineno, part)
            else:
                raise InvalidNotationError(
                    "expected 'OOL: ARM, INF, FTR', 'retreat after round N', 'retreat when N or "
                    "fewer attacking units remain', 'retreat to <territory>' or 'withdraw subs "
                    "after round N to <sea zone>'", line=lineno, text=part)
    retreat = RetreatCondition(after_round, at_most, retreat_to) if retreat_given else None
    return SpecialOrders(order, retreat, sub_after, sub_to, tuple(typos))


def _merge(old: T | None, new: T | None, what: str, lineno: int, part: str) -> T | None:
    """Combine an order given twice: the same value is fine, a different one is an error."""
    if new is None:
        return old
    if old is not None and old != new:
        raise InvalidNotationError(f"a second, different {what} ({old!r} before)",
                                   line=lineno, text=part)
    return new


def _order_of_loss(text: str, lineno: int, part: str, typos: list[str]) -> tuple[UnitType, ...]:
    """``"ARM, INF > FTR"`` -> types in order, first occurrence kept."""
    order: list[UnitType] = []
    items = re.split(r"[,>]", text)
    for item in items:
        name = item.strip()
        if not name:
            raise InvalidNotationError("expected a unit type in the order of loss",
                                       line=lineno, text=part)
        if _COUNT.search(name):
            raise InvalidNotationError(
                f"an order of loss lists unit types without counts ({name!r})", line=lineno, text=part)
        for unit, _ in parse_unit_list(name, line=lineno, raw=part, typos=typos):
            if unit not in order:
                order.append(unit)
    return tuple(order)
