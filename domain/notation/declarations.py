"""Combat declarations in IAAPA notation (2008 "Declaration and Battle Resolution Procedures").

A declaration lists battles; each battle starts with a battle line and is followed by move lines
and an optional totals line. Both move styles of real records are read::

    Attack #1 - W Europe (10 INF, AA)        battle: number, territory, optional defenders
    UK 8 INF on UK SZ 4 TRN                  origin first; "on <zone> <n> TRN": carried by transports
    E Can 1 ARM on E Can SZ 1 TRN to UK SZ   "to <zone>": where the transports unload
    Kar 2 FTR (land Karelia)                 "(land X)" or "land X": where aircraft land
    9 INF,1 ARM,2 FTRs from Karelia land Russia    units first, as in battle logs
    Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA

Battle lines: ``Attack #N - X (units)``, ``Battle #N - X (units)``, ``Battle N: X``, ``#N X (units)``,
``X (units):`` and ``X:``; the defenders list is optional (2008 Section II: the attacker "may list
only the defending territory", so ``defenders`` is ``None`` then). Headings such as
``Combat Moves:`` and comment lines (``--`` or ``#`` not followed by a digit) are skipped.

In an origin-first line the origin is the text before the first count ("E Can 1 ARM"); without
any count, the shortest origin after which the rest is a list of exactly spelt units. Names are
kept as written. Names that contain the words "from", "on", "to" or "land" cannot be read
unambiguously and must be abbreviated.

Special orders (the ``orders`` records) are parsed by :mod:`domain.notation.special_orders`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from domain.errors import InvalidNotationError
from domain.notation.battle_log import NAME, NUMBER, Units, check_length, is_name, parse_unit_list

# Special orders live in their own module; re-exported for callers of the declaration API.
from domain.notation.special_orders import SpecialOrders, parse_special_orders
from domain.rules.forces import format_units, parse_units


@dataclass(frozen=True, slots=True)
class DeclaredMove:
    """Units sent from one origin, with their transports and landing place when given.

    ``transports`` counts the transports named with ``on <zone> <n> TRN`` (0 when none;
    ``on <zone> TRN`` without a count is one); ``transport_zone`` is that zone, ``unload_zone``
    the zone named with ``to``, ``landing`` where aircraft land.
    """

    origin: str
    units: Units
    transports: int = 0
    transport_zone: str | None = None
    unload_zone: str | None = None
    landing: str | None = None
    lineno: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)

    def format(self) -> str:
        """Canonical text: origin first, every unit with its count.

        An origin ending in a number ("SZ 4") would swallow the first count, so such a move is
        printed units first ("8 INF from SZ 4").
        """
        units = ", ".join(f"{count} {unit.value}" for unit, count in self.units)
        tail = ""
        if self.transport_zone is not None:
            tail += f" on {self.transport_zone} {self.transports} TRN"
        if self.unload_zone is not None:
            tail += f" to {self.unload_zone}"
        if self.landing is not None:
            tail += f" (land {self.landing})"
        if _HAS_NUMBER_WORD.search(self.origin):
            return f"{units} from {self.origin}{tail}"
        return f"{self.origin} {units}{tail}"


@dataclass(frozen=True, slots=True)
class DeclaredTotal:
    """``Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA``: the writer's totals (a claim)."""

    attacker_power: str
    defender_power: str
    attack: Units
    defence: Units
    lineno: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)

    def format(self) -> str:
        """Canonical text."""
        return (f"Total {self.attacker_power} v. {self.defender_power} --- "
                f"{format_units(self.attack)} v. {format_units(self.defence)}")


@dataclass(frozen=True, slots=True)
class DeclaredBattle:
    """One declared battle: number (if written), territory as written, listed defenders
    (``None`` when only the territory is named), its moves and its totals line."""

    number: int | None
    territory: str
    defenders: Units | None
    moves: tuple[DeclaredMove, ...] = ()
    total: DeclaredTotal | None = None
    lineno: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)

    def format_start(self) -> str:
        """The battle line: ``Attack #1 - W Europe (10 INF, AA)`` or ``Kaz:`` without a number."""
        listed = f" ({format_units(self.defenders)})" if self.defenders is not None else ""
        if self.number is not None:
            return f"Attack #{self.number} - {self.territory}{listed}"
        return f"{self.territory}{listed}:"

    def format(self) -> str:
        """Canonical text of the battle: its line, its moves, its totals."""
        lines = [self.format_start(), *(move.format() for move in self.moves)]
        if self.total is not None:
            lines.append(self.total.format())
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A parsed declaration; ``typos`` (not part of equality) lists unit names read as typos."""

    battles: tuple[DeclaredBattle, ...]
    typos: tuple[str, ...] = field(default=(), compare=False)

    def format(self) -> str:
        """Canonical text; :func:`parse_declaration` reads it back equal."""
        return "\n".join(battle.format() for battle in self.battles)


def format_declaration(declaration: Declaration) -> str:
    """Canonical text of a declaration."""
    return declaration.format()


_HAS_NUMBER_WORD = re.compile(r"(?:^|\s)[0-9]")
_SKIP = re.compile(r"^(?:--|#(?![0-9]))|^(?i:combat)(?:\s+(?i:moves?|movement|orders?))?\s*:?$")
_DEFENDERS = r"(?:\s*\((?P<units>[^()]*)\))?"
_BATTLE_NUMBERED = re.compile(
    rf"^(?:(?i:attack|battle)\s*#?\s*|#)(?P<number>{NUMBER})\s*[-:.)]?\s*(?P<territory>{NAME})"
    rf"{_DEFENDERS}\s*:?$")
_BATTLE_PLAIN = re.compile(rf"^(?P<territory>{NAME})(?:\s*\((?P<units>[^()]*)\)\s*:?|\s*:)$")
_VS = r"(?i:vs?)\.?"
_TOTAL = re.compile(
    rf"^(?i:totals?)\s*:?\s+(?P<attacker>{NAME})\s+{_VS}\s+(?P<defender>{NAME})"
    r"(?:\s*(?:-{2,}|—|–|:)\s*|\s+-\s+)"
    rf"(?P<attack>[^()=]+?)\s+{_VS}\s+(?P<defence>[^()=]+?)\s*$")
_TAIL = (rf"(?:\s+(?i:on)\s+(?P<zone>{NAME})(?:\s+(?P<trn>{NUMBER}))?\s*(?i:trns?|transports?|trans))?"
         rf"(?:\s+(?i:to)\s+(?P<unload>{NAME}))?"
         rf"(?:\s*\(\s*(?i:land)\s+(?P<landing>{NAME})\s*\)|\s+(?i:land)\s+(?P<landing2>{NAME}))?\s*$")
_UNITS_FIRST = re.compile(rf"^(?P<units>[^()=]+?)\s+(?i:from)\s+(?P<origin>{NAME}){_TAIL}")
_ORIGIN_FIRST = re.compile(rf"^(?P<head>[^()=]+?){_TAIL}")
_FROM = re.compile(r"\s(?i:from)(?:\s|$)")
_COUNT_WORD = re.compile(r"(?<=\s)[0-9]")
#: The words that open a move line's tail: an origin holding one ("A 0 ON", "A ON 0") would be
#: written back as "units from A ON 0 on ..." and read back as another origin and zone (no
#: name on the board holds one).
_KEYWORDS = frozenset({"on", "to", "land", "from"})
_LAND_PAREN = re.compile(r"^\s*(?i:land)\b")


def parse_declaration(text: str) -> Declaration:
    """Parse a declaration; errors name the 1-based line within ``text`` and quote it.

    Linear in the number of lines: a battle's moves are collected in a list and frozen into
    its tuple once, when the next battle starts or the text ends.
    """
    battles: list[DeclaredBattle] = []
    typos: list[str] = []
    current: DeclaredBattle | None = None
    moves: list[DeclaredMove] = []
    total: DeclaredTotal | None = None
    for lineno, raw_line in enumerate(text.split("\n"), start=1):
        line = raw_line.strip()
        raw = raw_line.rstrip("\r")
        check_length(line, lineno)
        if not line or _SKIP.match(line):
            continue
        if match := _TOTAL.match(line):
            if current is None:
                raise InvalidNotationError("expected 'Attack #N - territory' before a Total line",
                                           line=lineno, text=line)
            if total is not None:
                raise InvalidNotationError(
                    f"a second Total line for the battle of line {current.lineno}",
                    line=lineno, text=line)
            total = DeclaredTotal(
                match.group("attacker"), match.group("defender"),
                parse_unit_list(match.group("attack"), line=lineno, raw=line, typos=typos),
                parse_unit_list(match.group("defence"), line=lineno, raw=line, typos=typos),
                lineno=lineno, raw=raw)
            continue
        battle = _battle_line(line, lineno, raw, typos)
        if battle is not None:
            if current is not None:
                battles.append(_closed(current, moves, total))
            current, moves, total = battle, [], None
            continue
        move = _move_line(line, lineno, raw, typos)
        if current is None:
            raise InvalidNotationError(
                "expected 'Attack #N - territory' before the first move", line=lineno, text=line)
        moves.append(move)
    if current is not None:
        battles.append(_closed(current, moves, total))
    return Declaration(tuple(battles), tuple(typos))


def _closed(battle: DeclaredBattle, moves: list[DeclaredMove], total: DeclaredTotal | None) -> DeclaredBattle:
    """A battle line's battle with its moves and totals line (built directly: dataclasses.replace
    showed in a profile of declarations, once per battle)."""
    return DeclaredBattle(battle.number, battle.territory, battle.defenders, tuple(moves), total,
                          lineno=battle.lineno, raw=battle.raw)


def _battle_line(line: str, lineno: int, raw: str, typos: list[str]) -> DeclaredBattle | None:
    """The battle a battle line starts, or ``None`` when the line is not a battle line."""
    number: int | None = None
    match = _BATTLE_NUMBERED.match(line)
    if match:
        number = int(match.group("number"))
    else:
        match = _BATTLE_PLAIN.match(line)
        # "Kar 2 FTR (land Karelia)" is a move, not a battle with defenders "land Karelia".
        if match is None or (match.group("units") is not None
                             and _LAND_PAREN.match(match.group("units"))):
            return None
    units = match.group("units")
    defenders = None if units is None else parse_unit_list(units, line=lineno, raw=line, typos=typos)
    return DeclaredBattle(number, match.group("territory"), defenders, lineno=lineno, raw=raw)


def _move_line(line: str, lineno: int, raw: str, typos: list[str]) -> DeclaredMove:
    """Parse a move line in either style."""
    if _FROM.search(line):
        match = _UNITS_FIRST.match(line)
        if match is None:
            raise InvalidNotationError(
                "expected 'units from origin' with optional 'on <sea zone> <n> TRN', "
                "'to <sea zone>' and '(land <territory>)'", line=lineno, text=line)
        origin = match.group("origin")
        units = parse_unit_list(match.group("units"), line=lineno, raw=line, typos=typos)
    else:
        match = _ORIGIN_FIRST.match(line)
        if match is None:
            raise InvalidNotationError(
                "expected a battle line 'Attack #N - territory (defenders)', a move "
                "'origin units' with optional 'on <sea zone> <n> TRN', 'to <sea zone>' and "
                "'(land <territory>)', or 'Total <power> v. <power> --- units v. units'",
                line=lineno, text=line)
        origin, units = _split_origin(match.group("head"), lineno, line, typos)
    zone = match.group("zone")
    count = match.group("trn")
    transports = 0 if zone is None else (int(count) if count is not None else 1)
    return DeclaredMove(origin, units, transports, zone, match.group("unload"),
                        match.group("landing") or match.group("landing2"), lineno=lineno, raw=raw)


def _split_origin(head: str, lineno: int, line: str, typos: list[str]) -> tuple[str, Units]:
    """Split ``"E Can 1 ARM"`` into origin and units: the origin ends before the first count.

    When the text after the first count is no unit list ("SZ 4 8 INF"), the next count is tried.
    """
    if head[:1].isdigit():
        raise InvalidNotationError("expected an origin before the units (or 'units from origin')",
                                   line=lineno, text=line)
    first_error: InvalidNotationError | None = None
    for count in _COUNT_WORD.finditer(head):
        origin, rest = head[:count.start()].strip(), head[count.start():]
        if not is_name(origin) or not _KEYWORDS.isdisjoint(origin.lower().split()):
            first_error = first_error or InvalidNotationError(
                f"expected an origin name before the units, found {origin!r}", line=lineno, text=line)
            continue
        notes: list[str] = []
        try:
            units = parse_unit_list(rest, line=lineno, raw=line, typos=notes)
        except InvalidNotationError as exc:
            first_error = first_error or exc
            continue
        if any(n == 0 for _, n in units):
            # "0 FTR" moves nothing: no declaration means it, and its canonical text would
            # read back differently (the count would be taken for part of the origin).
            first_error = first_error or InvalidNotationError(
                "expected a count of at least 1 for each unit", line=lineno, text=line)
            continue
        typos.extend(notes)
        return origin, units
    if first_error is not None:
        raise first_error
    # No counts ("Kar FTR"): the shortest origin after which the rest are exactly spelt units.
    for gap in re.finditer(r"\s+", head):
        origin, rest = head[:gap.start()], head[gap.end():]
        if not is_name(origin):
            continue
        exact: list[str] = []
        try:
            units = tuple(parse_units(rest, typos=exact))
        except ValueError:
            continue
        if units and not exact:
            return origin, units
    raise InvalidNotationError(
        "expected a battle line 'Attack #N - territory (defenders)', a move 'origin units' "
        "such as 'UK 8 INF on UK SZ 4 TRN', or 'Total <power> v. <power> --- units v. units'",
        line=lineno, text=line)

__all__ = [
    "Declaration", "DeclaredBattle", "DeclaredMove", "DeclaredTotal", "SpecialOrders",
    "format_declaration", "parse_declaration", "parse_special_orders",
]
