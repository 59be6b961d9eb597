"""Reading the board records once, when they are recorded: purchases, placements, map updates
with their territory/IPC count, and bids (extensions of format 1, docs/format-extensions.md).

They are written in the notation IAAPA players already use (2008 Declaration and Battle
Resolution Procedures, Post Combat Orders): a holding "Germany Ukraine: 3 INF", a placement
"Germany 3 INF" (where, then what), a count "UK 30/$32" (territories, then IPCs).
"""

from __future__ import annotations

import re
from functools import lru_cache

from domain.errors import InvalidNotationError
from domain.record.events import BidFacts, Holding, MapCount, MapFacts, Placed
from domain.rules.forces import Force
from domain.rules.names import resolve

#: How records name the powers (a holding's first word, a count's power).
POWER_NAMES = {"ussr": "USSR", "russia": "USSR", "soviet": "USSR", "germany": "Germany",
               "ger": "Germany", "uk": "UK", "britain": "UK", "japan": "Japan", "jap": "Japan",
               "usa": "USA", "us": "USA"}

_HOLDING = re.compile(r"^\s*(\S+)\s+(.+?)\s*:\s*(.*)$")
_PLACED = re.compile(r"^\s*(?P<where>[^\d]+?)\s+(?P<units>\d.*?)\s*$")
_COUNT = re.compile(r"^\s*(?P<power>[A-Za-z]+)\s+(?P<territories>\d+)\s*/\s*\$?\s*(?P<ipcs>\d+)\s*$")
_IPCS = re.compile(r"^\s*(?P<power>[A-Za-z]+)\s+(?P<ipcs>[+-]?\d+)\s*(?:IPCs?)?\s*$", re.IGNORECASE)


def power_named(word: str, text: str) -> str:
    """The canonical power a record names ("Ger" -> "Germany")."""
    power = POWER_NAMES.get(word.lower())
    if power is None:
        raise InvalidNotationError("expected a power (USSR, Germany, UK, Japan, USA)", text=text)
    return power


@lru_cache(maxsize=4096)
def holding(entry: str) -> Holding:
    """``"Germany Ukraine: 3 INF"``: a power's units in a territory (names resolved)."""
    match = _HOLDING.match(entry)
    if not match:
        raise InvalidNotationError('expected "Power Territory: units"', text=entry)
    power = power_named(match.group(1), entry)
    territory = resolve(match.group(2)).territory.name
    return Holding(power=power, territory=territory, units=Force.parse(match.group(3)), written=entry)


@lru_cache(maxsize=4096)
def placed(entry: str) -> Placed:
    """``"Germany 3 INF"`` / ``"Baltic SZ 1 TRN"``: new units placed in a territory or sea zone."""
    match = _PLACED.match(entry)
    if not match:
        raise InvalidNotationError("expected a placement such as 'Germany 3 INF' (where, then units)",
                                   text=entry)
    territory = resolve(match.group("where")).territory.name
    return Placed(territory=territory, units=Force.parse(match.group("units")), raw=entry)


@lru_cache(maxsize=1024)
def map_count(text: str) -> MapCount:
    """``"UK 30/$32"``: the territory count, then the IPC count (2008 Post Combat Orders)."""
    match = _COUNT.match(text)
    if not match:
        raise InvalidNotationError("expected a territory and IPC count such as 'UK 30/$32'", text=text)
    return MapCount(power=power_named(match.group("power"), text),
                    territories=int(match.group("territories")), ipcs=int(match.group("ipcs")),
                    written=text)


def map_facts(units: tuple[str, ...], count: str) -> MapFacts:
    """A map update's holdings and count, read once."""
    return MapFacts(holdings=tuple(holding(entry) for entry in units),
                    count=map_count(count) if count.strip() else None)


def bid_facts(units: tuple[str, ...], remove: tuple[str, ...], ipcs: tuple[str, ...]) -> BidFacts:
    """A bid's units added and removed ("Germany Ukraine: 3 INF") and extra IPCs ("Japan 1")."""
    extra = []
    for entry in ipcs:
        match = _IPCS.match(entry)
        if not match:
            raise InvalidNotationError("expected extra IPCs such as 'Japan 1'", text=entry)
        extra.append((power_named(match.group("power"), entry), int(match.group("ipcs"))))
    return BidFacts(add=tuple(holding(e) for e in units), remove=tuple(holding(e) for e in remove),
                    ipcs=tuple(extra))
