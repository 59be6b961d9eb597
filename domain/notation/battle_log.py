"""IAAPA battle-log notation: dice strings and the lines of a dice-server battle log.

The design follows python-chess's PGN reader: every line is matched by one anchored regular
expression per line kind (``re.match`` with ``^...$``) and turned into a frozen value; a line that
fits no kind raises :class:`~domain.errors.InvalidNotationError` naming the 1-based line within the
parsed text and quoting it. Names (territories, origins, landing places) are kept as written:
resolving them against the board is the board's job. Unit lists keep their written order as
tuples of ``(UnitType, count)``.

Line kinds (replay-format.md "IAAPA notation"; the examples of IAAPA Part 14 (1999) "GM Errors"
and Part 13 (1999) "Miscellaneous")::

    E Europe(AA, 2 INF, 2 FTR, 3 ARM)              BattleHeader
    9 INF,1 ARM,2 FTRs from Karelia land Russia    AttackLine (landing optional)
    AA rolls 1*1* = 2 hits!!!                      ShotLine kind "AA" (also "BB rolls 4* = 1 hit")
    R1 / R 2 / Round 3                             RoundMarker
    A(9 INF,1 ARM) 52461*5654/3* = 2 hits          SideLine with units
    A1 1*2*3*1*2*5 5 Hits                          SideLine short form (side and round)
    A(2 SUB) first strike 2*5 = 1 hit              FirstStrikeLine (this project's extension)
    # note / -- note                               Comment (kept, printed back as written)

Every parsed line keeps ``lineno`` and ``raw``; they are excluded from equality, so
``parse_log(format_log(log)) == log`` compares what the lines mean.

The values are frozen msgspec Structs (tagged, encoded as arrays), so a record's log is read once
when it is recorded and its parsed form travels with the event and the Game's state.
"""

from __future__ import annotations

import re
from functools import lru_cache
from operator import attrgetter
from typing import Any, ClassVar, Literal

import msgspec

from domain.errors import InvalidNotationError
from domain.rules.forces import format_units, parse_units
from domain.rules.units import UnitType

#: A unit list as written: types in written order, repetitions kept.
Units = tuple[tuple[UnitType, int], ...]

#: A name as written (territory, sea zone, origin, power): starts with a letter or digit, may hold
#: spaces and ``. ' & / -``. Lazy, so a name followed by a keyword ("on", "to", "land") stops there.
NAME = r"[^\W_](?:[\w.'&/\- ]*?[\w.'])??"

_NAME_RE = re.compile(rf"^{NAME}$")

# Counts are capped at six digits so that ``int()`` never sees a number it refuses.
NUMBER = r"[0-9]{1,6}"

#: Stated hits after the dice: "= 2 hits", "= 1 hit", "= 2", "5 Hits", "no hits", trailing "!!!".
_HITS = (rf"(?:\s*=\s*(?P<hits>{NUMBER}|(?i:no))(?:\s*(?i:hits?))?"
         rf"|\s+(?P<hits2>{NUMBER}|(?i:no))\s*(?i:hits?))?\s*!*")
#: Dice as the line regexes see them; :func:`parse_dice` checks them die by die. Runs of dice
#: characters split by blanks, taken greedily: a dice group never ends in a blank, so the stated
#: hits that follow are found where a lazy group would stop (the lazy group tried them after
#: every character: most of a side line's matching).
_DICE = r"(?P<dice>[0-9*/]+(?:[ \t]+[0-9*/]+)*)"


#: Longest line read: no real record comes near it, and it bounds the regex work on junk input.
MAX_LINE = 2000


def check_length(line: str, lineno: int) -> None:
    """Refuse a line longer than :data:`MAX_LINE` characters."""
    if len(line) > MAX_LINE:
        raise InvalidNotationError(f"line longer than {MAX_LINE} characters", line=lineno,
                                   text=line[:80] + "...")


def is_name(text: str) -> bool:
    """Whether ``text`` is a well-formed name as the notation writes territories and origins."""
    return bool(_NAME_RE.match(text))


def format_hits(count: int) -> str:
    """``"1 hit"`` / ``"3 hits"``."""
    return f"{count} hit" if count == 1 else f"{count} hits"


def parse_unit_list(text: str, *, line: int, raw: str, typos: list[str] | None = None) -> Units:
    """Parse a unit list inside a line, re-raising errors with the line's number and text.

    Typo notes (2008 Section VI, Typographical Errors) are appended to ``typos`` prefixed with
    the line number.
    """
    try:
        units, notes = _unit_list(text)
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"{exc.message} ({exc.text!r})", line=line, text=raw) from exc
    except ValueError as exc:  # e.g. a count int() refuses
        raise InvalidNotationError(f"expected a unit list ({exc})", line=line, text=raw) from exc
    if notes and typos is not None:  # (most lists: no note, and no generator made for none)
        typos.extend(f"line {line}: {note}" for note in notes)
    return units


@lru_cache(maxsize=4096)
def _unit_list(text: str) -> tuple[Units, tuple[str, ...]]:
    """A unit list as written and its typo notes: a pure function of the text, read once per
    text (a long game types the same hundred-odd lists ~100,000 times). Looked up by the text,
    whose hash Python keeps, where each line copied parse_units' list into a tuple and hashed
    that tuple pair by pair to intern it; each list is still one object (:func:`_interned`). An
    error is raised, never kept."""
    notes: list[str] = []
    units = tuple(parse_units(text, typos=notes))
    return _interned(units), tuple(notes)


@lru_cache(maxsize=4096)
def _interned(units: Units) -> Units:
    """One object per unit list, however it is written ("2 INF" and "2 inf")."""
    return units


# --------------------------------------------------------------------------------------- dice
class MarkedDie(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """One die as written: its face and whether a ``*`` claimed it as a hit.

    Encoded as ``[value, marked]`` (as the NamedTuple it once was: stored events read the same).
    Untracked by the cyclic collector (``gc=False``: a number and a flag hold no cycle), and the
    parser gives each of the twelve values as one object (:data:`_DIE`): a 50,000-event game
    holds ~320,000 dice.
    """

    value: int
    marked: bool


_VALUE, _MARKED = attrgetter("value"), attrgetter("marked")
#: The twelve dice, one object each: (value, marked) -> MarkedDie.
_DIE = {(value, marked): MarkedDie(value, marked) for value in range(1, 7) for marked in (False, True)}


class DiceText(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A dice string: ``"52461*5654/3*"`` -> columns split at ``/``, each die with its mark.

    Columns are never empty. The marks are claims: hits are recomputed from the faces elsewhere.
    The flat views (``dice``, ``values``, ``marks``) are made when read, not kept: a game holds
    ~70,000 dice strings for as long as it is open, and kept they cost ~25 MB on a 50,000-event
    game (the review reads each about once). Untracked by the cyclic collector (``gc=False``):
    tuples of dice hold no cycle.
    """

    columns: tuple[tuple[MarkedDie, ...], ...]

    @property
    def has_separators(self) -> bool:
        """Whether the writer split the dice into battle-board columns with ``/``."""
        return len(self.columns) > 1

    @property
    def dice(self) -> tuple[MarkedDie, ...]:
        """Every die in the order written."""
        columns = self.columns
        if len(columns) == 1:  # most lines: the one column is the flat view
            return columns[0]
        return tuple([die for column in columns for die in column])

    @property
    def values(self) -> tuple[int, ...]:
        """The faces in the order written."""
        columns = self.columns
        if len(columns) == 1:
            return tuple([die.value for die in columns[0]])
        return tuple([die.value for column in columns for die in column])

    @property
    def marks(self) -> tuple[bool, ...]:
        """Whether each die carries a ``*``, in the order written."""
        columns = self.columns
        if len(columns) == 1:
            return tuple([die.marked for die in columns[0]])
        return tuple([die.marked for column in columns for die in column])

    @property
    def marked_hits(self) -> int:
        """How many dice carry a ``*``."""
        return sum(1 for die in self.dice if die.marked)

    def __len__(self) -> int:
        return sum(map(len, self.columns))

    def format(self) -> str:
        """Canonical text: no spaces, ``*`` after marked dice, ``/`` between columns."""
        return "/".join("".join(f"{die.value}{'*' if die.marked else ''}" for die in column)
                        for column in self.columns)

    def __str__(self) -> str:
        return self.format()


def parse_dice(text: str) -> DiceText:
    """Parse dice: one digit 1-6 per die, ``*`` right after a die marks a claimed hit, ``/``
    separates battle-board columns, whitespace between dice is ignored.

    Errors name the 1-based line within ``text`` (dice may be wrapped) and quote that line.
    """
    lines = text.split("\n")
    columns: list[tuple[MarkedDie, ...]] = []
    current: list[MarkedDie] = []
    line = 1
    previous = ""

    def fail(message: str) -> InvalidNotationError:
        return InvalidNotationError(message, line=line, text=lines[line - 1].strip())

    for char in text:
        die = _FACES.get(char)
        if die is not None:
            current.append(die)
        elif char == "\n":
            line += 1
        elif char.isspace():
            pass
        elif char == "*":
            if not previous or previous not in "123456":
                raise fail("expected a die 1-6 before '*'")
            current[-1] = _DIE[current[-1].value, True]
        elif char == "/":
            if not current:
                raise fail("expected dice before '/' (a column holds at least one die)")
            columns.append(tuple(current))
            current = []
        elif char in "0789":
            raise fail(f"die {char!r} is not 1-6")
        else:
            raise fail(f"expected dice (digits 1-6, '*' after a hit, '/' between columns), "
                       f"found {char!r}")
        previous = char
    if not current:
        line = len(lines)
        raise fail("expected a die 1-6" + (" after '/'" if columns else ""))
    columns.append(tuple(current))
    return DiceText(tuple(columns))


#: An unmarked die by its digit (one of the twelve dice of :data:`_DIE`).
_FACES = {str(face): _DIE[face, False] for face in range(1, 7)}


# ------------------------------------------------------------------------------ log lines
class _Line(msgspec.Struct, frozen=True, array_like=True, eq=False, gc=False):
    """A parsed line: equal to another when they mean the same (``lineno`` and ``raw`` aside).

    Untracked by the cyclic collector (``gc=False``): a game holds tens of thousands of lines,
    and immutable values of strings, numbers and tuples can hold no reference cycle.
    """

    #: Fields that say where and how the line was written, not what it means.
    _WRITTEN: ClassVar[frozenset[str]] = frozenset({"lineno", "raw"})

    def _meaning(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__struct_fields__ if name not in self._WRITTEN)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._meaning() == other._meaning()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._meaning()))


class BattleHeader(_Line, frozen=True, tag="header"):
    """``E Europe(AA, 2 INF, 2 FTR, 3 ARM)``: the battle's territory and its defenders."""

    territory: str
    units: Units
    lineno: int = 0
    raw: str = ""

    def format(self) -> str:
        """Canonical text, as the dice server prints it."""
        return f"{self.territory}({format_units(self.units)})"


class AttackLine(_Line, frozen=True, tag="attack"):
    """``9 INF,1 ARM,2 FTRs from Karelia land Russia``: attackers, origin, aircraft landing."""

    units: Units
    origin: str
    landing: str | None = None
    lineno: int = 0
    raw: str = ""

    def format(self) -> str:
        """Canonical text."""
        land = f" land {self.landing}" if self.landing is not None else ""
        return f"{format_units(self.units)} from {self.origin}{land}"


class ShotLine(_Line, frozen=True, tag="shot"):
    """``AA rolls 1*1* = 2 hits`` or ``BB rolls 4* = 1 hit``: shots before round 1.

    IAAPA Part 13 (1999) step 2: AA guns and BB support shots are rolled first.
    """

    kind: Literal["AA", "BB"]
    dice: DiceText
    stated_hits: int | None = None
    lineno: int = 0
    raw: str = ""

    def format(self) -> str:
        """Canonical text."""
        return f"{self.kind} rolls {self.dice.format()}{_stated(self.stated_hits)}"


class RoundMarker(_Line, frozen=True, tag="round"):
    """``R1`` / ``R 2`` / ``Round 3``: the side lines that follow belong to this round."""

    number: int
    lineno: int = 0
    raw: str = ""

    def format(self) -> str:
        """Canonical text."""
        return f"R{self.number}"


class SideLine(_Line, frozen=True, tag="side"):
    """One side's dice in a round.

    ``A(9 INF,1 ARM) 52461*5654/3* = 2 hits`` (units listed) or the short form of IAAPA Part 13
    (1999) ``A1 1*2*3*1*2*5 5 Hits`` (side and round number, no units). ``round`` is the number
    written after the side letter, ``None`` when absent (then a preceding :class:`RoundMarker`
    tells the round).
    """

    side: Literal["A", "D"]
    round: int | None
    units: Units | None
    dice: DiceText
    stated_hits: int | None = None
    lineno: int = 0
    raw: str = ""

    def format(self) -> str:
        """Canonical text."""
        head = _side_head(self.side, self.round, self.units)
        return f"{head} {self.dice.format()}{_stated(self.stated_hits)}"


class FirstStrikeLine(_Line, frozen=True, tag="first_strike"):
    """Attacking submarines' first strike: ``A(2 SUB) first strike 2*5 = 1 hit``.

    IAAPA Part 13 (1999) step 3 and 2008 "Using the Dice Server" (the attacker may roll the sub
    first). The dice server has no notation for it; this project writes it as a side line of the
    attacker (optional round number and unit list, like :class:`SideLine`) with the words
    ``first strike`` before the dice.
    """

    round: int | None
    units: Units | None
    dice: DiceText
    stated_hits: int | None = None
    lineno: int = 0
    raw: str = ""

    def format(self) -> str:
        """Canonical text."""
        head = _side_head("A", self.round, self.units)
        return f"{head} first strike {self.dice.format()}{_stated(self.stated_hits)}"


class Comment(_Line, frozen=True, tag="comment"):
    """A line starting with ``#`` or ``--``, kept as written (stripped)."""

    text: str
    lineno: int = 0
    raw: str = ""

    def format(self) -> str:
        """The comment as written."""
        return self.text


LogLine = BattleHeader | AttackLine | ShotLine | RoundMarker | SideLine | FirstStrikeLine | Comment


class BattleLog(msgspec.Struct, frozen=True, array_like=True, eq=False, gc=False):
    """A parsed battle log: its non-blank lines in order.

    ``typos`` lists unit names read under the typo rule (2008 Section VI), each prefixed with
    its line ("line 3: 'ing' read as INF"); it is not part of equality.
    """

    lines: tuple[LogLine, ...]
    typos: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BattleLog) and self.lines == other.lines

    def __hash__(self) -> int:
        return hash(self.lines)

    @property
    def header(self) -> BattleHeader | None:
        """The first battle header, if any."""
        return next((line for line in self.lines if isinstance(line, BattleHeader)), None)

    def as_read(self) -> BattleLog:
        """The log without its lines' text as written (``raw``): equal to it, and what a Game
        keeps (the text stays in the record; a 50,000-event game's lines hold ~10 MB of it).
        Itself when no line holds its text (a log minister recorded is stored so)."""
        if not any(line.raw for line in self.lines):
            return self
        return BattleLog(tuple([msgspec.structs.replace(line, raw="") if line.raw else line
                                for line in self.lines]), self.typos)

    def format(self) -> str:
        """Canonical text; see :func:`format_log`."""
        return format_log(self)


def _side_head(side: str, round_number: int | None, units: Units | None) -> str:
    """``A``, ``A1`` or ``A(9 INF, 1 ARM)``: the start of a side line as printed."""
    head = side + (str(round_number) if round_number is not None else "")
    return head + (f"({format_units(units)})" if units is not None else "")


def _stated(hits: int | None) -> str:
    return "" if hits is None else f" = {format_hits(hits)}"


def _hits(match: re.Match[str]) -> int | None:
    text = match.group("hits") or match.group("hits2")
    if text is None:
        return None
    return 0 if text.lower() == "no" else int(text)


_COMMENT = re.compile(r"^(?:#|--)")
_ROUND = re.compile(rf"^(?i:round|rnd|r)\s*(?P<number>{NUMBER})\s*:?$")
_SHOT = re.compile(rf"^(?P<kind>(?i:AA|BB))(?:\s+(?i:rolls?))?\s*:?\s+{_DICE}{_HITS}$")
_FIRST_STRIKE = re.compile(
    rf"^A(?P<round>{NUMBER})?(?:\s*\((?P<units>[^()]*)\))?\s*(?i:first\s+strike)\s*:?\s+{_DICE}{_HITS}$")
_SIDE = re.compile(
    rf"^(?P<side>[AD])(?P<round>{NUMBER})?(?:\s*\((?P<units>[^()]*)\)\s*|\s+){_DICE}{_HITS}$")
_HEADER = re.compile(rf"^(?P<territory>{NAME})\s*\((?P<units>[^()]*)\)\s*:?$")
_LANDING = (rf"(?:\s+(?i:land)\s+(?P<landing>{NAME})"
            rf"|\s*\(\s*(?i:land)\s+(?P<landing2>{NAME})\s*\))?")
_ATTACK = re.compile(rf"^(?P<units>[^()=]+?)\s+(?i:from)\s+(?P<origin>{NAME}){_LANDING}\s*$")

# Hints for lines that fit no kind: what the line most likely tried to be.
_SIDE_HINT = re.compile(r"^[AD][0-9]*(?:\s*\(|\s)")
_SHOT_HINT = re.compile(r"^(?i:AA|BB)\b")
_FROM_HINT = re.compile(r"\s(?i:from)\s")


def parse_log_line(text: str, *, lineno: int = 1, raw: str | None = None,
                   typos: list[str] | None = None) -> LogLine:
    """Parse one non-blank battle-log line; ``raw`` defaults to ``text`` as given."""
    raw = text if raw is None else raw
    text = text.strip()
    # Each kind is tried in turn, but not where the line's first character rules it out (a
    # line fits one kind in ~4, and most fit one of the last two: attack lines and headers).
    first = text[:1]
    if first in "#-" and _COMMENT.match(text):
        return Comment(text, lineno=lineno, raw=raw)
    if first in "Rr" and (match := _ROUND.match(text)):
        return RoundMarker(int(match.group("number")), lineno=lineno, raw=raw)
    if first in "AaBb" and (match := _SHOT.match(text)):
        kind: Literal["AA", "BB"] = "AA" if match.group("kind").upper() == "AA" else "BB"
        return ShotLine(kind, _dice(match, lineno, text), _hits(match), lineno=lineno, raw=raw)
    if first == "A" and (match := _FIRST_STRIKE.match(text)):
        number = match.group("round")
        return FirstStrikeLine(int(number) if number else None, _units(match, lineno, text, typos),
                               _dice(match, lineno, text), _hits(match), lineno=lineno, raw=raw)
    if first in "AD" and (match := _SIDE.match(text)):
        number = match.group("round")
        side: Literal["A", "D"] = "A" if match.group("side") == "A" else "D"
        return SideLine(side, int(number) if number else None, _units(match, lineno, text, typos),
                        _dice(match, lineno, text), _hits(match), lineno=lineno, raw=raw)
    if match := _ATTACK.match(text):
        parsed = _units(match, lineno, text, typos)
        assert parsed is not None
        landing = match.group("landing") or match.group("landing2")
        return AttackLine(parsed, match.group("origin"), landing, lineno=lineno, raw=raw)
    if match := _HEADER.match(text):
        territory = match.group("territory")
        if territory in ("A", "D"):
            raise InvalidNotationError(
                f"expected dice after '{territory}(...)' (a side line such as "
                "'A(9 INF, 1 ARM) 52461*/3* = 2 hits')", line=lineno, text=text)
        parsed = _units(match, lineno, text, typos)
        assert parsed is not None
        return BattleHeader(territory, parsed, lineno=lineno, raw=raw)
    raise InvalidNotationError(_hint(text), line=lineno, text=text)


def _dice(match: re.Match[str], lineno: int, text: str) -> DiceText:
    """The dice a line's match holds (module-level, as :func:`_units`: no closure made a line)."""
    try:
        return parse_dice(match.group("dice"))
    except InvalidNotationError as exc:
        raise InvalidNotationError(exc.message, line=lineno, text=text) from exc


def _units(match: re.Match[str], lineno: int, text: str, typos: list[str] | None) -> Units | None:
    """The unit list a line's match holds, if it has one."""
    group = match.group("units")
    return None if group is None else parse_unit_list(group, line=lineno, raw=text, typos=typos)


def _hint(text: str) -> str:
    """What a line that fits no kind was expected to be."""
    if _SIDE_HINT.match(text):
        return ("expected a side line: 'A' or 'D', optional round number and '(units)', then dice "
                "(digits 1-6, '*' after a hit, '/' between columns) and optional '= N hits'")
    if _SHOT_HINT.match(text):
        return "expected 'AA rolls <dice> = N hits' (or 'BB rolls <dice> = N hits')"
    if _FROM_HINT.search(text):
        return "expected an attack line 'units from origin' with optional 'land <territory>'"
    return ("expected a battle header 'Territory(units)', an attack line 'units from origin', "
            "'AA rolls <dice>', a round marker 'R1' or a side line 'A(units) <dice> = N hits'")


def parse_log(text: str) -> BattleLog:
    """Parse a battle log; blank lines are skipped, line numbers count every line of ``text``."""
    lines: list[LogLine] = []
    typos: list[str] = []
    for lineno, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.strip()
        check_length(stripped, lineno)
        if stripped:
            lines.append(parse_log_line(stripped, lineno=lineno, raw=raw.rstrip("\r"), typos=typos))
    return BattleLog(tuple(lines), tuple(typos))


def format_log(log: BattleLog) -> str:
    """Canonical text of a log, one line per parsed line; ``parse_log`` reads it back equal."""
    return "\n".join(line.format() for line in log.lines)
