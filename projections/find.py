"""Find in the timeline: every point that names what a player typed.

A player names things the way the records do: a territory or sea zone by any name or abbreviation
the notation accepts ("Kar", "E Eur", "Kar SZ", even a readily decipherable typo: resolved by
:func:`domain.rules.names.resolve`), a power ("Ger", "Russia"), a unit type ("tank", "FTRs"), a
finding kind ("misdeclared", "map discrepancy") or a turn ("Germany 2"). :func:`find` reads the
query as each of these it can be and gathers the points of each reading:

- a territory or sea zone: the battles fought there or touching it (an origin, a landing, a
  retreat, a transports' zone: the review's ``board_roles``), the records of a turn that moved
  units there (its line, or its "after combat" line), and the findings that name it;
- a power: its turns; a turn: that turn's line; a finding kind: its findings;
- a unit type: the lines whose forces list it (the notation's own abbreviation, "ARM");

and, whatever it reads as, every line whose text contains the query. The points are sorted, so
``n`` / ``N`` go through them in the order of the game. Pure Python: no Textual here.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from domain.errors import UnknownTerritoryError
from domain.record.board_intake import POWER_NAMES
from domain.review.views import TurnRecords
from domain.rules.board import Board
from domain.rules.findings import FindingKind
from domain.rules.names import name_key, resolve
from domain.rules.units import ALIASES, POWERS, UnitType, unit_from_name
from projections.timeline import Timeline

_TURN = re.compile(r"^\s*([A-Za-z]+)\s*(\d+)\s*$")
_WORDS = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Found:
    """The points a query names, in timeline order, and how the query was read."""

    query: str
    #: How the query was read: "Karelia S.S.R.", "Germany's turns", "ARM" … (none: as text)
    readings: tuple[str, ...]
    #: Node indexes, sorted, each once.
    nodes: tuple[int, ...]
    #: The territory or sea zone the query names, if it names one.
    place: str | None = None

    def __bool__(self) -> bool:
        return bool(self.nodes)

    def after(self, i: int) -> int | None:
        """The first match after node ``i``, round the end to the start (None: no match)."""
        if not self.nodes:
            return None
        at = bisect_right(self.nodes, i)
        return self.nodes[at] if at < len(self.nodes) else self.nodes[0]

    def before(self, i: int) -> int | None:
        """The last match before node ``i``, round the start to the end (None: no match)."""
        if not self.nodes:
            return None
        at = bisect_left(self.nodes, i) - 1
        return self.nodes[at] if at >= 0 else self.nodes[-1]

    def ordinal(self, i: int) -> int:
        """Which match node ``i`` is (1-based; 0 when it is none)."""
        at = bisect_left(self.nodes, i)
        return at + 1 if at < len(self.nodes) and self.nodes[at] == i else 0

    @property
    def summary(self) -> str:
        """What was found: the readings ("United Kingdom / UK's turns"), else the text quoted."""
        return " / ".join(self.readings) if self.readings else f"“{self.query}”"


def find(timeline: Timeline, query: str, board: Board | None = None) -> Found:
    """Every point of ``timeline`` naming ``query`` (see the module docstring)."""
    text = query.strip()
    if not text or not len(timeline):
        return Found(text, (), ())
    board = board or Board.classic()
    readings: list[str] = []
    nodes: set[int] = set()
    place = place_named(text, board)
    if place is not None:
        readings.append(place)
        nodes.update(_place_nodes(timeline, place))
    power = POWER_NAMES.get(text.casefold())
    if power is not None:
        readings.append(f"{power}'s turns")
        nodes.update(i for turn in timeline.turns if turn.rpartition(" ")[0] == power
                     for i in (timeline.turn_node(turn),) if i is not None)
    turn = _turn_named(text, timeline)
    if turn is not None:
        readings.append(turn)
        nodes.update(i for i in (timeline.turn_node(turn), timeline.records_node(turn)) if i is not None)
    kinds = kinds_named(text)
    if kinds:
        readings.append(", ".join(kind.value.replace("_", " ") for kind in kinds))
        nodes.update(i for f in timeline.main.findings if f.kind in kinds
                     for i in (timeline.finding_node(f.id),) if i is not None)
    unit = unit_from_name(text) if text.replace(" ", "").isalpha() else None
    word = re.compile(rf"\b{re.escape(unit.value)}\b") if unit is not None else None
    if unit is not None:
        readings.append(unit.value)
    # Read as a name, the text must stand as a word ("UK" is not in "Ukraine").
    whole = re.compile(rf"(?<!\w){re.escape(text)}(?!\w)", re.IGNORECASE) if readings else None
    needle = text.casefold()
    for i in range(len(timeline)):
        label = timeline.label(i)
        if (whole.search(label) if whole is not None else needle in label.casefold()) or \
                (word is not None and word.search(label)):
            nodes.add(i)
    return Found(text, tuple(readings), tuple(sorted(nodes)), place)


def place_named(text: str, board: Board | None = None) -> str | None:
    """The territory or sea zone ``text`` names: any name, abbreviation or typo the notation
    accepts, else the only one whose name begins so ("Kare"); None when it names none."""
    board = board or Board.classic()
    try:
        return resolve(text, board).name
    except UnknownTerritoryError:
        pass
    key = name_key(text)
    if len(key) < 3:
        return None
    starting = {t.name for t in board if name_key(t.name).startswith(key)}
    return starting.pop() if len(starting) == 1 else None


def unknown_place(text: str, board: Board | None = None) -> str:
    """Why ``text`` names no territory or sea zone, with the nearest names."""
    try:
        resolve(text, board or Board.classic())
    except UnknownTerritoryError as error:
        return f"“{text.strip()}”: {error.message}"
    return f"“{text.strip()}”: not a place on the map"


def kinds_named(text: str) -> tuple[FindingKind, ...]:
    """The finding kinds whose name holds every word of ``text`` ("misdeclared", "map update")."""
    words = [w for w in _WORDS.split(text.casefold()) if w]
    if not words or len("".join(words)) < 4:
        return ()
    return tuple(kind for kind in FindingKind if all(w in kind.value.split("_") or
                                                       (len(w) >= 4 and w in kind.value) for w in words))


def _turn_named(text: str, timeline: Timeline) -> str | None:
    match = _TURN.match(text)
    if match is None:
        return None
    power = POWER_NAMES.get(match.group(1).casefold())
    turn = f"{power} {int(match.group(2))}" if power is not None else None
    return turn if turn in timeline.turns else None


def _place_nodes(timeline: Timeline, place: str) -> set[int]:
    """The battles fought in or touching ``place``, the turns' records that moved units there,
    and the findings naming it."""
    view = timeline.main
    found: set[int] = set()
    for b, battle in enumerate(view.battles):
        if battle.battle == place or (b < len(view.board_roles)
                                      and any(name == place for name, _ in view.board_roles[b])):
            found.add(timeline.battle_node(b))
    turns = view.turn_records
    firsts = [records.first for records in turns]
    for seq, _, _ in view.board_history.get(place, ()):
        at = bisect_right(firsts, seq) - 1
        node = _records_node(timeline, turns[at], seq) if at >= 0 else None
        if node is not None:
            found.add(node)
    # A finding's words name a place, unless the place is named for a power ("before Japan 1").
    lowered = place.casefold() if place not in POWERS else None
    for finding in view.findings:
        if finding.battle == place or (lowered is not None and lowered in finding.detail.casefold()):
            node = timeline.finding_node(finding.id)
            if node is not None:
                found.add(node)
    return found


def _records_node(timeline: Timeline, records: TurnRecords, seq: int) -> int | None:
    """The line of record ``seq`` of a turn, when it is not a battle's: the turn's "after
    combat" line for a record after its last battle, the turn's own line for a turn without
    battles (a battle's records are found by the battle)."""
    if seq > records.last:
        return None
    if not records.combat_end:
        return timeline.turn_node(records.turn)
    return timeline.records_node(records.turn) if seq > records.combat_end else None


def names(timeline: Timeline | None, board: Board | None = None) -> list[str]:
    """What the find prompt completes: places, powers, turns, unit types and finding kinds."""
    board = board or Board.classic()
    found = [t.name for t in board]
    found += list(POWERS)
    found += list(timeline.turns) if timeline is not None else []
    found += [unit.value for unit in UnitType] + [alias.title() for alias in ALIASES if len(alias) > 3]
    found += [kind.value.replace("_", " ") for kind in FindingKind]
    return list(dict.fromkeys(found))
