"""Territory names as IAAPA records write them, resolved against the board.

``resolve("Kar SZ")`` -> Karelia Sea Zone; ``resolve("E.US")`` -> East US; ``resolve("Karelai")`` ->
Karelia S.S.R. as a typo. Matching ignores case, punctuation, spacing and an "S.S.R." suffix;
abbreviations come from the board data. Unknown names raise :class:`UnknownTerritoryError`,
quoting the input and suggesting the nearest names.

2008 Section VI, Typos: "Simple typographical misspellings are ignored and not considered errors
(10 inf Moscoq instead of Moscow). If a typographical error results in the wrong territory being
listed, i.e., E.US instead of W.US, this will be considered an error, not a typo. In all cases, the
correct word must be readily decipherable." Hence a name that is a real territory's name or
abbreviation always means that territory, and a misspelling is accepted only when it is close to
one territory and clearly closer to it than to any other (see ``_Index._typo``).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import msgspec

from domain.errors import UnknownTerritoryError
from domain.rules.board import Board, Territory

_SEPARATORS = re.compile(r"[\W_]+")
_SEA_ZONE = "seazone"
_SZ = "sz"
_SUGGESTIONS = 3
_CACHE_LIMIT = 4096
_SUGGEST_CHARS = 24  # nearest-name search only looks this far: long junk needs no ranking


class Resolution(msgspec.Struct, frozen=True):
    """How a written name was read: the territory, whether as a typo, and why."""

    territory: Territory
    typo: bool
    written: str
    note: str = ""
    """Empty for a canonical name; otherwise how it was read ("abbreviation of ...")."""

    @property
    def name(self) -> str:
        """The canonical name."""
        return self.territory.name


def name_key(text: str) -> str:
    """The comparison form of a name: case-folded letters and digits, "S.S.R." dropped.

    ``"Karelia S.S.R."``, ``"karelia ssr"`` and ``"KARELIA"`` share the key ``"karelia"``;
    ``"E.US"``, ``"E US"`` and ``"EUS"`` share ``"eus"``.
    """
    tokens = [t for t in _SEPARATORS.split(text.casefold()) if t]
    kept: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] == "ssr":
            i += 1
        elif tokens[i:i + 3] == ["s", "s", "r"]:
            i += 3
        else:
            kept.append(tokens[i])
            i += 1
    return _strip_ssr("".join(kept))


def _strip_ssr(key: str) -> str:
    # "KareliaSSR" written solid: the suffix is optional however it is spelt.
    return key[:-3] if key.endswith("ssr") and len(key) > 3 else key


def typo_allowance(key: str) -> int:
    """Edits a misspelling of ``key`` may hold and still be "readily decipherable" (2008 VI).

    None under four letters: three-letter abbreviations sit one edit from each other (Kar, Kaz,
    Man, Mad, Per, Pan), so a misspelt "Kaz" is not decipherable. One edit up to seven letters
    ("Germny", "Karelai"); two from eight, where two slips still leave most of the word
    ("Caucasas", "Novosbirsk"). A key with a digit is never a typo (replay-format: "a number is
    never a typo"; 2008 VI's example misspells the name, not the count).
    """
    if any(ch.isdigit() for ch in key) or len(key) < 4:
        return 0
    return 1 if len(key) < 8 else 2


def resolve(name: str, board: Board | None = None) -> Resolution:
    """Read a written territory or sea zone name; see the module docstring for the rules.

    "<name> SZ" (also "S.Z.", "Sea Zone", "sz <name>") means that territory's sea zone: the one
    named for it, else the only sea zone it borders.
    """
    read = _index(board if board is not None else Board.classic()).cached_read(name)
    if isinstance(read, _Failure):
        raise UnknownTerritoryError(read.message, text=name)
    return read


def resolve_many(names: Iterable[str], board: Board | None = None) -> list[Resolution]:
    """:func:`resolve` each name, in order."""
    chosen = board if board is not None else Board.classic()
    return [resolve(name, chosen) for name in names]


def canonical_name(name: str, board: Board | None = None) -> str:
    """The canonical name a written name resolves to."""
    return resolve(name, board).territory.name


# -- the per-board index ---------------------------------------------------------------------

@dataclass(frozen=True)
class _Found:
    territory: Territory
    typo: bool
    note: str


@dataclass(frozen=True)
class _Failure:
    message: str


@dataclass
class _Index:
    """Keys of every name and abbreviation, plus a cache of outcomes by key."""

    board: Board
    exact: dict[str, Territory] = field(default_factory=dict)
    abbreviation: set[str] = field(default_factory=set)
    #: :meth:`lookup` behind an LRU: records repeat a few hundred names; junk must not grow it.
    cached_lookup: Callable[[str], _Found | _Failure] = field(init=False, repr=False)
    #: :meth:`read` behind an LRU: the same written names recur all game long (a Resolution is
    #: immutable, so one object serves every record that writes the name).
    cached_read: Callable[[str], Resolution | _Failure] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.cached_lookup = lru_cache(maxsize=_CACHE_LIMIT)(self.lookup)
        self.cached_read = lru_cache(maxsize=_CACHE_LIMIT)(self.read)
        for terr in self.board:
            self._add(name_key(terr.name), terr, abbreviation=False)
            for other in (*terr.abbreviations, *([terr.source_name] if terr.source_name else [])):
                self._add(name_key(other), terr, abbreviation=True)

    def _add(self, key: str, terr: Territory, *, abbreviation: bool) -> None:
        have = self.exact.get(key)
        if have is not None and have is not terr:
            # A shared abbreviation would let one real name stand for two territories.
            raise ValueError(f"board data: {key!r} names both {have.name!r} and {terr.name!r}")
        if not key:
            raise ValueError(f"board data: empty name for {terr.name!r}")
        self.exact[key] = terr
        if abbreviation and have is None:
            self.abbreviation.add(key)

    # -- lookup -------------------------------------------------------------------------------
    def read(self, name: str) -> Resolution | _Failure:
        """How a written name reads (:func:`resolve`), or why it does not."""
        outcome = self.cached_lookup(_resolver_key(name))
        if isinstance(outcome, _Failure):
            return outcome
        note = f"{name.strip()!r}: {outcome.note}" if outcome.typo and outcome.note else outcome.note
        return Resolution(outcome.territory, outcome.typo, name, note)

    def lookup(self, key: str) -> _Found | _Failure:
        if not key:
            return _Failure("empty territory name")
        found = self.exact.get(key)
        if found is not None:
            note = f"abbreviation of {found.name}" if key in self.abbreviation else ""
            return _Found(found, False, note)
        stem = _sea_zone_stem(key)
        if stem:
            outcome = self._sea_zone_of(stem)
            if outcome is not None:
                return outcome
        typo = self._typo(key)
        if typo is not None:
            return _Found(typo, True, f"typo for {typo.name}")
        return _Failure(self._unknown_message(key))

    def _sea_zone_of(self, stem: str) -> _Found | _Failure | None:
        """The sea zone "<stem> SZ" means; None when the stem names nothing."""
        named = self.exact.get(stem + _SEA_ZONE)
        if named is not None and named.sea:
            return _Found(named, False, f"read as {named.name}")
        land = self.exact.get(stem)
        typo = False
        if land is None:
            land = self._typo(stem)
            typo = land is not None
        if land is None:
            return None
        prefix = f"typo for {land.name}; " if typo else ""
        if land.sea:
            return _Found(land, typo, f"{prefix}read as {land.name}")
        named = self.exact.get(name_key(land.name) + _SEA_ZONE)
        if named is not None and named.sea:
            return _Found(named, typo, f"{prefix}the sea zone named for {land.name}")
        seas = self.board.adjacent_sea_zones(land)
        if len(seas) == 1:
            return _Found(seas[0], typo, f"{prefix}the only sea zone bordering {land.name}")
        if not seas:
            return _Failure(f"{land.name} borders no sea zone")
        listed = ", ".join(sea.name for sea in seas)
        return _Failure(f"ambiguous sea zone: {land.name} borders {listed}; name one")

    def _typo(self, key: str) -> Territory | None:
        """The one territory ``key`` is a readily decipherable misspelling of (2008 VI)."""
        allowed = typo_allowance(key)
        if not allowed:
            return None
        # "Clearly closer": the nearest territory is unique and every other is at least twice as
        # far, so "Eastt Europe" (1 from East, 2 from West Europe) reads as East Europe, while
        # "Est Europe" (1 from both) and "Wst Eurpe" (2 from West, 3 from East) do not resolve.
        best: dict[str, tuple[int, Territory]] = {}
        for other, terr in self.exact.items():
            dist = _distance(key, other, 2 * allowed)
            if dist <= 2 * allowed and dist < best.get(terr.name, (dist + 1, terr))[0]:
                best[terr.name] = (dist, terr)
        ranked = sorted(best.values(), key=lambda pair: pair[0])
        if not ranked or ranked[0][0] > allowed:
            return None
        nearest, found = ranked[0]
        if len(ranked) > 1 and ranked[1][0] < 2 * nearest:
            return None
        return found

    def _unknown_message(self, key: str) -> str:
        short = key[:_SUGGEST_CHARS]
        best: dict[str, int] = {}
        for other, terr in self.exact.items():
            dist = _distance(short, other, len(short) + len(other))
            if dist < best.get(terr.name, dist + 1):
                best[terr.name] = dist
        nearest = sorted(best, key=lambda name: (best[name], name))[:_SUGGESTIONS]
        return f"unknown territory or sea zone (nearest: {', '.join(nearest)})"


def _resolver_key(text: str) -> str:
    """:func:`name_key`, with a leading "sz"/"S.Z."/"Sea Zone" word moved to the end.

    Only a separate word counts as the prefix ("sz UK"), so "Szlomon Islands" stays a misspelling.
    (Recurring names are remembered whole, by :attr:`_Index.cached_read`.)
    """
    words = [w for w in _SEPARATORS.split(text.casefold()) if w]
    for marker in (["sz"], ["s", "z"], ["sea", "zone"]):
        if len(words) > len(marker) and words[:len(marker)] == marker:
            return name_key(" ".join(words[len(marker):] + marker))
    return name_key(text)


def _sea_zone_stem(key: str) -> str:
    """``"uk"`` for ``"uksz"`` or ``"ukseazone"``; empty if there is no sea-zone marker."""
    for suffix in (_SEA_ZONE, _SZ):
        if key.endswith(suffix) and len(key) > len(suffix):
            return _strip_ssr(key[:-len(suffix)])
    return ""


def _distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein distance (optimal string alignment); ``limit + 1`` once beyond limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            value = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, before[j - 2] + 1)
            cur[j] = value
        if min(cur) > limit:
            # Row minima never fall again, so the distance is already past the limit.
            return limit + 1
        before, prev = prev, cur
    return prev[-1]


_INDEXES: weakref.WeakKeyDictionary[Board, _Index] = weakref.WeakKeyDictionary()


def _index(board: Board) -> _Index:
    index = _INDEXES.get(board)
    if index is None:
        index = _INDEXES[board] = _Index(board)
    return index
