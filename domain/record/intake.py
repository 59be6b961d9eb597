"""Reading records once, when they are recorded: declarations into battles with resolved names,
battle logs into typed lines, special orders into typed orders.

The events keep the text as evidence and these facts beside it, so rebuilding a game (and
time travel through it) never parses or resolves names again, and the review works on typed
records only. Errors name the line within the whole file when ``first_line`` says where the
text starts.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

import msgspec

from domain.errors import InvalidNotationError
from domain.notation.battle_log import BattleLog, parse_log
from domain.notation.special_orders import SpecialOrders, parse_special_orders
from domain.record.events import BattleFacts, Move
from domain.rules.forces import Force
from domain.rules.names import Resolution, resolve

if TYPE_CHECKING:
    import domain.notation.declarations as decl


def battle_territory(name: str) -> str:
    """The canonical territory a record's ``battle`` names."""
    return resolved(name).territory.name


@lru_cache(maxsize=4096)
def resolved(name: str) -> Resolution:
    """:func:`~domain.rules.names.resolve` of a written name on the classic board, remembered: a
    pure function of the name (the board is loaded once), and a file writes a few hundred names
    some 20,000 times (each resolve first finds the board's index in a weak dictionary: ~15
    times the cost of this look-up). An unknown name is raised each time, never kept."""
    return resolve(name)


@lru_cache(maxsize=4096)
def known_territory(name: str) -> str | None:
    """The canonical territory a name reads as, or None when it names none (kept for the review).

    Cached: the fold calls it for every retreat and report, and the same few names recur."""
    try:
        return resolve(name).territory.name
    except ValueError:
        return None


def battle_log(text: str, first_line: int | None = None) -> BattleLog:
    """A roll record's dice-server log read into typed lines."""
    try:
        return parse_log(text)
    except InvalidNotationError as error:
        raise error.at_offset(first_line or 1) from None


def special_orders(text: str, first_line: int | None = None) -> SpecialOrders:
    """An orders record's text read into typed orders (order of loss, retreat, withdrawal)."""
    try:
        return parse_special_orders(text)
    except InvalidNotationError as error:
        raise error.at_offset(first_line or 1) from None


def declaration_facts(text: str, first_line: int | None = None) -> tuple[BattleFacts, ...]:
    """The battles a declaration declares, names resolved (typos noted, 2008 Section VI)."""
    # Imported here: its patterns take ~25 ms to compile, and only a declaration being
    # recorded needs them (commands that read a stored game never do).
    import domain.notation.declarations as decl

    base = first_line or 1
    try:
        parsed = decl.parse_declaration(text)
    except InvalidNotationError as error:
        raise error.at_offset(base) from None
    battles = [_battle(battle, base) for battle in parsed.battles]
    # Unit-name typos ("3 ing") are noted per declaration line: file each under its battle.
    for note in parsed.typos:
        found = re.match(r"line (\d+):", note)
        where = base + int(found.group(1)) - 1 if found else None
        owners = [i for i, b in enumerate(battles) if where is None or (b.line or 0) <= where]
        if owners:
            index = owners[-1]
            shown = re.sub(r"^line \d+", f"line {where}", note) if where is not None else note
            battles[index] = msgspec.structs.replace(battles[index], typos=(*battles[index].typos, shown))
    return tuple(battles)


def _battle(battle: decl.DeclaredBattle, base: int) -> BattleFacts:
    typos: list[str] = []

    def where(name: str, lineno: int | None) -> str:
        try:
            found = resolved(name)
        except InvalidNotationError as error:
            raise error.at_offset(base + (lineno or 1) - 1) from None
        if found.typo:
            typos.append(found.note)
        return found.territory.name

    territory = where(battle.territory, battle.lineno)
    moves = tuple(
        Move(origin=where(m.origin, m.lineno), units=Force.of(m.units), transports=m.transports,
             transport_zone=where(m.transport_zone, m.lineno) if m.transport_zone else None,
             unload_zone=where(m.unload_zone, m.lineno) if m.unload_zone else None,
             landing=where(m.landing, m.lineno) if m.landing else None,
             line=base + m.lineno - 1 if m.lineno else None, raw=m.raw)
        for m in battle.moves)
    return BattleFacts(territory=territory, written=battle.territory, number=battle.number,
                       defenders=Force.of(battle.defenders) if battle.defenders is not None else None,
                       moves=moves, line=base + (battle.lineno or 1) - 1, typos=tuple(typos))


_MOVE = re.compile(r"^\s*(?P<origin>[^\d]+?)\s+(?P<units>\d.*?)\s+(?:via\s+(?P<route>.+?)\s+)?"
                   r"to\s+(?P<dest>.+?)\s*$", re.IGNORECASE)


def noncombat_move(text: str) -> Move:
    """A non-combat move "Kar 2 INF to Russia": origin, units, destination (as ``landing``)."""
    return read_noncombat(text)[0]


def read_noncombat(text: str) -> tuple[Move, tuple[str, ...]]:
    """A non-combat move and the spaces it states it passes through, in order (empty when it
    states none): "Kar 2 INF via Karelia SZ to Norway", "W Europe 1 FTR via North Sea, Eire to
    United Kingdom"."""
    match = _MOVE.match(text)
    if not match:
        raise InvalidNotationError("expected a non-combat move such as 'Kar 2 INF to Russia' "
                                   "or 'Kar 2 INF via Karelia SZ to Norway'", text=text)
    units = Force.parse(match.group("units"))
    names = [name.strip() for name in match.group("route").split(",")] if match.group("route") else []
    if not all(names):
        raise InvalidNotationError("expected the spaces of a route separated by commas", text=text)
    route = tuple(battle_territory(name) for name in names)
    move = Move(origin=battle_territory(match.group("origin")), units=units,
                landing=battle_territory(match.group("dest")), raw=text)
    return move, route
