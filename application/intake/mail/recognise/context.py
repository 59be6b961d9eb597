"""What the recognisers share: the powers' names, a turn named in a subject or a line, the
game's header (number, rules, the players' addresses), and the hints a dice mail gives about
its battle (a round, a side, a correction).

Turn e-mails name their turn in the subject ("Game 2231 - USSR 1", TripleA's "Russians - round
1") or on a line of their own ("USSR 1", "Turn: Germany 2", "USA #13"); a game's first e-mail
states the game ("Game 2231"), its rules ("Rules: IAAPA 2008") and its players ("Axis: Hans
<hans@example.de>"), as the IAAPA's own logs head a game (Havoc, 1999: "Game 5836 / Axis: ... /
Allies: ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from application.intake.mail.model import Side, Source

#: Names players and TripleA give the five powers (TripleA's Classic map calls them Russians,
#: Germans, British, Japanese, Americans).
POWER_NAMES: dict[str, str] = {}
for _power, _names in {
    "USSR": ("ussr", "russia", "russians", "russian", "soviet", "soviets", "soviet union", "urss"),
    "Germany": ("germany", "germans", "german", "ger"),
    "UK": ("uk", "britain", "british", "united kingdom", "england", "english", "great britain"),
    "Japan": ("japan", "japanese", "jap"),
    "USA": ("usa", "us", "america", "americans", "american", "united states"),
}.items():
    for _name in _names:
        POWER_NAMES[_name] = _power

#: The powers of each side.
SIDES = {"Axis": ("Germany", "Japan"), "Allies": ("USSR", "UK", "USA")}

_TURN_LINE = re.compile(r"^(?:game\s*(?:#|no\.?)?\s*\d+\s*[-:\u2013\u2014]\s*)?(?:turn\s*:?\s*)?"
                        r"(?P<power>[A-Za-z][A-Za-z. ]{1,20}?)\s*(?:#|turn\s*|-\s*round\s*|round\s*)?"
                        r"(?P<round>\d{1,3})(?:\s+turn)?\s*[:.]?$", re.IGNORECASE)
_TURN_IN = re.compile(r"(?P<power>\b[A-Za-z][A-Za-z.]*(?: [A-Za-z][A-Za-z.]*)?)\s*"
                      r"(?:#|turn\s*|-\s*round\s*|round\s*)?(?P<round>\d{1,3})\b")
_GAME = re.compile(r"\bgame\s*(?:#|no\.?|nr\.?|number)?\s*:?\s*(?P<number>\d{1,9})\b", re.IGNORECASE)
_RULES = re.compile(r"^\s*(?:rules|edition)\s*:\s*(?P<rules>.+?)\s*$", re.IGNORECASE)
_PLAYER = re.compile(r"^\s*(?P<side>axis|allies)\s*:\s*(?P<who>.+?)\s*$", re.IGNORECASE)
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ROUND = re.compile(r"\b(?:R|round|rnd)\s*(?P<round>\d{1,2})\b", re.IGNORECASE)
_ATTACK = re.compile(r"\b(?:attack(?:er|ers|ing)?|offen[cs]e)\b", re.IGNORECASE)
_DEFENCE = re.compile(r"\b(?:defen[cs]e|defender|defenders|defending)\b", re.IGNORECASE)
_CORRECTION = re.compile(r"\b(?:correction|corrected|re-?rolls?|extra|missing|forgotten)\b", re.IGNORECASE)
_AA = re.compile(r"\bAA\b")
_PREFIXES = re.compile(r"^\s*(?:(?:re|fwd?|aw|wg|tr)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)


def power_of(name: str) -> str | None:
    """The power a name means ("Russians" -> "USSR"), or None."""
    return POWER_NAMES.get(" ".join(name.lower().replace(".", " ").split()))


def bare_subject(subject: str) -> str:
    """A subject without its "Re:", "Fwd:" ... prefixes."""
    return _PREFIXES.sub("", subject).strip()


def turn_line(text: str) -> str | None:
    """The turn a line of its own names ("USSR 1", "Turn: Germany 2", "USA #13"), or None."""
    match = _TURN_LINE.match(text.strip())
    if not match:
        return None
    power = power_of(match.group("power"))
    number = int(match.group("round"))
    return f"{power} {number}" if power and number > 0 else None


def turn_in(text: str) -> str | None:
    """The first turn named anywhere in a text such as a subject ("Re: Game 2231 - USSR 1")."""
    for match in _TURN_IN.finditer(text):
        words = match.group("power").split()
        # "Game 2231 - USSR 1": try the last word alone too ("Re USSR" is no power).
        for candidate in (" ".join(words), words[-1]):
            power = power_of(candidate)
            number = int(match.group("round"))
            if power and number > 0:
                return f"{power} {number}"
    return None


@dataclass
class GameFacts:
    """What the e-mails say about the game itself, with the first e-mail that said it."""

    number: str | None = None
    number_source: Source | None = None
    rules: str | None = None
    rules_source: Source | None = None
    #: e-mail address (lower case) -> "Axis" / "Allies"; and who the header names.
    sides: dict[str, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)

    def read_line(self, text: str, source: Source) -> None:
        """Note a game header line (number, rules, a player)."""
        if self.number is None and (match := _GAME.search(text)) and text.strip().lower().startswith("game"):
            self.number, self.number_source = match.group("number"), source
        if self.rules is None and (match := _RULES.match(text)):
            self.rules, self.rules_source = match.group("rules"), source
        if match := _PLAYER.match(text):
            side = match.group("side").capitalize()
            self.players.setdefault(side, match.group("who"))
            for address in _ADDRESS.findall(match.group("who")):
                self.sides.setdefault(address.lower(), side)

    def read_subject(self, subject: str, source: Source) -> None:
        """Note the game number a subject states ("Game 2231 - USSR 1", MARTI's "Game2231:...")."""
        if self.number is None and (match := _GAME.search(subject)):
            self.number, self.number_source = match.group("number"), source

    def side_of(self, sender: str) -> str | None:
        """The side ("Axis" / "Allies") a sender's address plays, when the header said."""
        for address in _ADDRESS.findall(sender):
            if address.lower() in self.sides:
                return self.sides[address.lower()]
        return None


def edition_of(rules: str) -> str | None:
    """The edition a "Rules:" line names: the 1999 texts (Parts 13 and 14) or the 2008 ones."""
    text = rules.lower()
    if re.fullmatch(r"iaapa-(?:1999|2008)\S*", text.strip()):
        return rules.strip()
    if "2008" in text or "unabridged" in text or "2nd edition" in text:
        return "iaapa-2008"
    if "1999" in text or "part 13" in text or "part 14" in text:
        return "iaapa-1999"
    return None


@dataclass(frozen=True)
class Hints:
    """What a dice mail's words say about its battle."""

    round: int | None
    side: Side | None
    purpose: str


def hints(text: str) -> Hints:
    """The round ("R2", "round 2"), side ("attack", "defence") and purpose ("correction",
    "AA") a text names."""
    found = _ROUND.search(text)
    side: Side | None = None
    if _ATTACK.search(text) and not _DEFENCE.search(text):
        side = "attacker"
    elif _DEFENCE.search(text) and not _ATTACK.search(text):
        side = "defender"
    purpose = "correction" if _CORRECTION.search(text) else "aa" if _AA.search(text) else "battle"
    return Hints(int(found.group("round")) if found else None, side, purpose)


def names_battle(text: str, names: tuple[str, ...]) -> bool:
    """Whether a text names a battle by one of its names (whole words, any case)."""
    lowered = f" {' '.join(re.sub(r'[^a-z0-9.]+', ' ', text.lower()).split())} "
    for name in names:
        key = " ".join(re.sub(r"[^a-z0-9.]+", " ", name.lower()).split())
        if key and f" {key} " in lowered:
            return True
    return False


class SignatureCheck(Protocol):
    """Checks the newer TripleA dice server's RSA signatures (:mod:`.signature` builds one)."""

    def check(self, payload: bytes, signature: str) -> tuple[bool | None, str]:
        """Whether the signature holds (None: not checked), and a sentence saying so and why."""



@dataclass(frozen=True)
class Reading:
    """What a recogniser is given besides the segment."""

    #: The carrying message's date (for a quote that states none).
    fallback: datetime | None
    game: GameFacts
    #: Checks a dice-server token's signature: (payload, signature) -> what can be said.
    signature: SignatureCheck | None = None


def at_of(source: Source, fallback: datetime | None) -> datetime | None:
    """A record's time: its e-mail's date, else the carrying message's."""
    return source.origin.date or fallback
