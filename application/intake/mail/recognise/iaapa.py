"""IAAPA notation anywhere in an e-mail body: the turn e-mail's sections become records.

A turn e-mail is free text with sections in the notation docs/notation.md defines. A section
starts at a heading line and runs to the next blank line:

=========================================  ======================================================
``Position:`` / ``Setup:``                  ``position``: lines ``Power Territory: units``
``Combat Moves:`` or ``Attack #1 - X (..)``  ``declaration``: battle and move lines; blank lines
                                            inside are kept when the next line is a battle line
``Orders for X (defender):``                ``orders``: special orders, one per line
``Purchase: 3 INF, 1 ARM (24 IPCs)``        ``purchase`` (``with 24 IPCs`` also read)
``Placement:`` / ``Place:``                 ``placement``: ``Territory units`` per line or ``;``
``Non-combat moves:`` / ``NCM:``            ``noncombat``: ``Origin units to Destination``
``Map update:``                             ``map_update``: ``Power Territory: units`` lines and
                                            the count ``UK 30/$32``
``Casualties in X, round 1 (defender): ..`` ``casualties``
``Retreat from X after round 1 to Y``       ``retreat``
``Correction request by P about X: ...``    ``report`` (also ``Report`` / ``Dispute``)
``X(units)`` then log lines                 ``roll``: a battle log as the dice server prints it
=========================================  ======================================================

The turn of a section is the last turn line above it ("USSR 1", "Turn: Germany 2") or else the
one the subject names. A section whose notation does not read (the domain's readers say which
line and why) becomes a :class:`~application.intake.mail.model.Problem` naming the e-mail's
line, never a record: the draft carries it as a comment for the Minister.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from application.intake.mail.model import DraftRecord, Found, Problem, Segment, Side, Source, Value
from application.intake.mail.recognise.context import Reading, at_of, bare_subject, turn_in, turn_line
from domain.errors import InvalidNotationError
from domain.notation.battle_log import FirstStrikeLine, ShotLine, SideLine, parse_log_line
from domain.record.intake import battle_log, declaration_facts, special_orders
from domain.rules.names import resolve

_H = r"\s*:\s*"
_POSITION = re.compile(rf"^(?:position|setup|starting position|board){_H}$", re.I)
_MAP = re.compile(rf"^map(?:\s+update)?{_H}$", re.I)
_DECLARE = re.compile(rf"^(?:combat(?:\s+moves?|\s+movement|\s+orders?)?|declaration){_H}$", re.I)
_BATTLE = re.compile(r"^(?:(?:attack|battle)\s*#?\s*\d+\b|#\s*\d+\s*[-:\u2013]|total\s+\S.*\bv\.?\s)", re.I)
_ORDERS = re.compile(rf"^(?:special\s+)?orders?\s+(?:for\s+)?(?P<battle>[^()]+?)\s*"
                     rf"\((?P<side>attack(?:er)?|defen[cs]e|defender)\){_H}(?P<rest>.*)$", re.I)
_PURCHASE = re.compile(r"^purchases?(?:\s+with\s+\$?(?P<ipcs1>\d{1,6})(?:\s*IPCs?)?)?\s*:\s*"
                       r"(?P<units>.+?)(?:\s*[(\[]\s*\$?(?P<ipcs2>\d{1,6})\s*IPCs?\s*[)\]])?\s*\.?$", re.I)
_PLACE = re.compile(rf"^(?:placements?|place|placement of new units|new units){_H}(?P<rest>.*)$", re.I)
_NONCOMBAT = re.compile(rf"^(?:non-?\s?combat(?:\s+moves?|\s+movement)?|ncm){_H}(?P<rest>.*)$", re.I)
_CASUALTIES = re.compile(r"^casualties\s+(?:in\s+)?(?P<battle>[^,()]+?),?\s+(?:round|r)\s*(?P<round>\d{1,3})"
                         rf"\s*\((?P<side>attack(?:er)?|defen[cs]e|defender)\){_H}(?P<units>.+?)\.?$", re.I)
_RETREAT = re.compile(r"^retreat(?:s|ing)?\s+from\s+(?P<battle>.+?)\s+after\s+(?:round|r)\s*"
                      r"(?P<round>\d{1,3})\s+to\s+(?P<to>.+?)\.?$", re.I)
_REPORT = re.compile(r"^(?:correction\s+request|report|dispute|error\s+report)"
                     r"(?:\s+by\s+(?P<by>[^:]+?))?(?:\s+(?:about|on|for|re)\s+(?P<battle>[^:]+?))?"
                     rf"{_H}(?P<rest>.*)$", re.I)
_HOLDING = re.compile(r"^\S+\s+.+?:\s*\S")
_COUNT = re.compile(r"^\S+\s+\d{1,4}\s*/\s*\$\s*\d{1,5}$")
_LOG_HEADER = re.compile(r"^(?P<territory>[^()#]+?)\s*\((?P<units>[^()]*)\)\s*:?$")
#: Lines that start like a battle-log line (a typo in one is reported, not skipped).
_LOG_LINE = re.compile(r"^(?:(?:R|round|rnd)\s*\d{1,3}\s*:?$|[AD]\d*\s*\(|[AD]\d+\s+[0-9*]|"
                       r"(?:AA|BB)\s+rolls?\b|A\d*\s*(?:\([^()]*\))?\s*first\s+strike)")
_FROM = re.compile(r"\s(?:from)\s", re.I)


def _reads_as_log(text: str) -> bool:
    try:
        parse_log_line(text)
    except InvalidNotationError:
        return False
    return bool(text)


def _dice_line(text: str) -> bool:
    """A line of dice (a side, a shot, a first strike), read or at least started as one."""
    try:
        line = parse_log_line(text)
    except InvalidNotationError:
        return bool(_LOG_LINE.match(text)) and not re.match(r"^(?:R|round|rnd)\s*\d", text, re.I)
    return isinstance(line, SideLine | ShotLine | FirstStrikeLine)


def _side(text: str) -> Side:
    return "attacker" if text.lower().startswith("attack") else "defender"


def _territory(name: str) -> str | None:
    """The canonical territory a name is, read exactly (a typo is not taken from free text)."""
    try:
        found = resolve(name)
    except (InvalidNotationError, ValueError):
        return None
    return None if found.typo else found.territory.name


def _clean(text: str) -> str:
    return " ".join(text.split())


class _Reader:
    """Reads one segment's lines, section by section."""

    def __init__(self, segment: Segment, reading: Reading) -> None:
        self.lines = segment.lines
        self.origin = segment.origin
        self.fallback = reading.fallback
        self.game = reading.game
        self.turn = turn_in(bare_subject(segment.origin.subject))
        self.found = Found()

    # -- helpers ------------------------------------------------------------------------------
    def source(self, index: int) -> Source:
        return Source(self.origin, self.lines[min(index, len(self.lines) - 1)].number)

    def text(self, index: int) -> str:
        return self.lines[index].text.strip()

    def block(self, start: int, *, keep: Callable[[int], bool] | None = None) -> int:
        """The index after the section starting at ``start``: the next blank line, or later when
        ``keep`` says the text after a blank line still belongs to the section."""
        index = start + 1
        while index < len(self.lines):
            if not self.text(index):
                after = index
                while after < len(self.lines) and not self.text(after):
                    after += 1
                if keep is not None and after < len(self.lines) and keep(after):
                    index = after
                    continue
                break
            index += 1
        return index

    def record(self, kind: str, index: int, fields: list[tuple[str, Value]], key: str) -> None:
        source = self.source(index)
        at = at_of(source, self.fallback)
        if at is None:
            self.problem(index, f"a {kind} with no date: its time is unknown (the e-mail states no "
                                "Date that can be read)", key)
            return
        self.found.records.append(DraftRecord(kind, at, tuple(fields), source, (kind, key)))

    def problem(self, index: int, message: str, text: str) -> None:
        source = self.source(index)
        self.found.problems.append(Problem(at_of(source, self.fallback), source, message, text,
                                           ("problem", message, text)))

    def need_turn(self, index: int, kind: str, text: str) -> str | None:
        if self.turn is None:
            self.problem(index, f"a {kind} with no turn: name it in the subject or on a line such "
                                "as 'USSR 3'", text)
        return self.turn

    def notation(self, index: int, error: InvalidNotationError, text: str, what: str) -> None:
        """A section whose notation does not read: a problem at the segment's ``index``-th line
        (the line the reader named)."""
        quoted = f": {error.text!r}" if error.text else ""
        self.problem(min(index, len(self.lines) - 1), f"{what} not read: {error.message}{quoted}", text)

    def joined(self, start: int, end: int) -> str:
        return "\n".join(self.lines[i].text.strip() for i in range(start, end)) + "\n"

    # -- the sections ---------------------------------------------------------------------------
    def run(self) -> Found:
        index = 0
        handlers = (self.turn_line, self.position, self.map_update, self.declaration, self.orders,
                    self.purchase, self.placement, self.noncombat, self.casualties, self.retreat,
                    self.report, self.battle_log)
        while index < len(self.lines):
            if not self.text(index):
                index += 1
                continue
            for handler in handlers:
                after = handler(index)
                if after:
                    index = after
                    break
            else:
                index += 1
        return self.found

    def turn_line(self, index: int) -> int:
        turn = turn_line(self.text(index))
        if turn is None:
            return 0
        self.turn = turn
        return index + 1

    def position(self, index: int) -> int:
        if not _POSITION.match(self.text(index)):
            return 0
        end = self.block(index)
        units = [self.text(i) for i in range(index + 1, end) if _HOLDING.match(self.text(i))]
        if units:
            self.record("position", index, [("units", units)], "\n".join(units))
        return end

    def map_update(self, index: int) -> int:
        if not _MAP.match(self.text(index)):
            return 0
        end = self.block(index)
        body = [self.text(i) for i in range(index + 1, end)]
        units = [line for line in body if _HOLDING.match(line) and not _COUNT.match(line)]
        counts = [_clean(line) for line in body if _COUNT.match(line)]
        turn = self.need_turn(index, "map update", "\n".join(body))
        if turn is None or not (units or counts):
            return end
        fields: list[tuple[str, Value]] = [("turn", turn)]
        if units:
            fields.append(("units", units))
        if counts:
            fields.append(("count", counts[0]))
        self.record("map_update", index, fields, turn + "\n" + "\n".join(body))
        return end

    def declaration(self, index: int) -> int:
        text = self.text(index)
        if not (_DECLARE.match(text) or _BATTLE.match(text)):
            return 0
        end = self.block(index, keep=lambda i: bool(_BATTLE.match(self.text(i))))
        lines = [i for i in range(index, end) if self.text(i)]
        body = "\n".join(self.text(i) for i in lines) + "\n"
        if _DECLARE.match(text) and len(lines) == 1:
            return end  # a heading with nothing under it
        turn = self.need_turn(index, "declaration", body)
        if turn is None:
            return end
        try:
            declaration_facts(body)
        except InvalidNotationError as error:
            # The body is the section's non-blank lines: the reader's line n is lines[n - 1].
            named = lines[error.line - 1] if error.line and error.line <= len(lines) else index
            self.notation(named, error, body, "a declaration")
            return end
        self.record("declaration", index, [("turn", turn), ("text", body)], turn + "\n" + body)
        return end

    def orders(self, index: int) -> int:
        match = _ORDERS.match(self.text(index))
        if not match:
            return 0
        end = self.block(index)
        parts = [match.group("rest").strip()] + [self.text(i) for i in range(index + 1, end)]
        body = "\n".join(p for p in parts if p) + "\n"
        turn = self.need_turn(index, "set of special orders", body)
        if turn is None or not body.strip():
            return end
        try:
            special_orders(body)
        except InvalidNotationError as error:
            # The body's first line is the heading's rest when it has one, else the line under it.
            first = index if match.group("rest").strip() else index + 1
            self.notation(first + (error.line or 1) - 1, error, body, "special orders")
            return end
        battle, side = _clean(match.group("battle")), _side(match.group("side"))
        self.record("orders", index, [("turn", turn), ("battle", battle), ("side", side), ("text", body)],
                    f"{turn}\n{battle}\n{side}\n{body}")
        return end

    def purchase(self, index: int) -> int:
        match = _PURCHASE.match(self.text(index))
        if not match:
            return 0
        units = _clean(match.group("units"))
        turn = self.need_turn(index, "purchase", self.text(index))
        if turn is not None:
            fields: list[tuple[str, Value]] = [("turn", turn), ("units", units)]
            ipcs = match.group("ipcs1") or match.group("ipcs2")
            if ipcs is not None:
                fields.append(("ipcs", int(ipcs)))
            self.record("purchase", index, fields, f"{turn}\n{units}")
        return index + 1

    def _listed(self, index: int, rest: str) -> tuple[list[str], int]:
        end = self.block(index)
        items = [p.strip() for p in rest.split(";")] + [p.strip() for i in range(index + 1, end)
                                                        for p in self.text(i).split(";")]
        return [_clean(item) for item in items if item.strip()], end

    def placement(self, index: int) -> int:
        match = _PLACE.match(self.text(index))
        if not match:
            return 0
        place, end = self._listed(index, match.group("rest"))
        turn = self.need_turn(index, "placement", "\n".join(place))
        if turn is not None and place:
            self.record("placement", index, [("turn", turn), ("place", place)],
                        turn + "\n" + "\n".join(place))
        return end

    def noncombat(self, index: int) -> int:
        match = _NONCOMBAT.match(self.text(index))
        if not match:
            return 0
        moves, end = self._listed(index, match.group("rest"))
        turn = self.need_turn(index, "set of non-combat moves", "\n".join(moves))
        if turn is not None and moves:
            self.record("noncombat", index, [("turn", turn), ("moves", moves)],
                        turn + "\n" + "\n".join(moves))
        return end

    def casualties(self, index: int) -> int:
        match = _CASUALTIES.match(self.text(index))
        if not match:
            return 0
        battle, side = _clean(match.group("battle")), _side(match.group("side"))
        units = _clean(match.group("units"))
        self.record("casualties", index, [("battle", battle), ("round", int(match.group("round"))),
                                          ("side", side), ("units", units)],
                    f"{battle}\n{match.group('round')}\n{side}\n{units}")
        return index + 1

    def retreat(self, index: int) -> int:
        match = _RETREAT.match(self.text(index))
        if not match:
            return 0
        battle, to = _clean(match.group("battle")), _clean(match.group("to"))
        self.record("retreat", index, [("battle", battle), ("after_round", int(match.group("round"))),
                                       ("to", to)], f"{battle}\n{match.group('round')}\n{to}")
        return index + 1

    def report(self, index: int) -> int:
        match = _REPORT.match(self.text(index))
        if not match:
            return 0
        end = self.block(index)
        parts = [match.group("rest").strip()] + [self.text(i) for i in range(index + 1, end)]
        words = " ".join(p for p in parts if p)
        if not words:
            return end
        by = _clean(match.group("by") or "") or self.game.side_of(self.origin.sender) or \
            self.origin.sender or "unknown sender"
        fields: list[tuple[str, Value]] = [("by", by)]
        if match.group("battle"):
            fields.append(("battle", _clean(match.group("battle"))))
        fields.append(("text", words))
        self.record("report", index, fields, f"{by}\n{words}")
        return end

    def battle_log(self, index: int) -> int:
        text = self.text(index)
        header = _LOG_HEADER.match(text)
        territory = _territory(header.group("territory")) if header else None
        if territory is None and not _LOG_LINE.match(text):
            return 0
        end = index + 1
        while end < len(self.lines) and (_LOG_LINE.match(self.text(end)) or _FROM.search(self.text(end))
                                         or _reads_as_log(self.text(end))):
            end += 1
        if not any(_dice_line(self.text(i)) for i in range(index, end)):
            return 0
        body = self.joined(index, end)
        battle = header.group("territory").strip() if header and territory else self._battle_above(index)
        if battle is None:
            self.problem(index, "a battle log with no battle: start it with the battle's header "
                                "'Territory(units)' or a line naming the battle", body)
            return end
        try:
            battle_log(body)
        except InvalidNotationError as error:
            self.notation(index + (error.line or 1) - 1, error, body, "a battle log")
            return end
        canonical = _territory(battle) or battle
        self.record("roll", index, [("battle", battle), ("log", body)],
                    canonical + "\n" + "\n".join(_clean(line) for line in body.splitlines()))
        return end

    def _battle_above(self, index: int) -> str | None:
        """A battle named on the line above a log without a header ("E Europe:", "Battle: X")."""
        above = index - 1
        while above >= 0 and not self.text(above):
            above -= 1
        if above < 0:
            return None
        name = re.sub(r"^(?:battle|battle log|log)\s*:?\s*", "", self.text(above), flags=re.I).rstrip(" :")
        return name if name and _territory(name) else None


def recognise(segment: Segment, reading: Reading) -> Found:
    """The records a segment's IAAPA notation states, and the sections that do not read."""
    return _Reader(segment, reading).run()
