"""The values the mail reader passes between its steps: where a text came from, what was found.

Every record, dice roll and problem carries its :class:`Source`: the e-mail (sender, date,
subject, Message-ID, where it sits in the mailbox) and the line of the message body where it
starts, so the draft, the summary and every error name the e-mail and the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

#: A value a draft record holds (as TOML writes it).
Value = str | int | datetime | list[str]

Side = Literal["attacker", "defender"]


@dataclass(frozen=True)
class Origin:
    """The e-mail a text belongs to: the message itself, or one quoted, forwarded or attached."""

    #: Where it sits: "message 3 (line 120)", "03-turn.eml", then "> attachment 'dice.eml'" ...
    where: str
    sender: str = ""
    #: The Date header as written (or the date an attribution / forward header states).
    date_text: str = ""
    #: The date read, with its zone; None when the mail states none that can be read.
    date: datetime | None = None
    subject: str = ""
    message_id: str = ""
    #: How it was carried: "" (the message), "quoted", "forwarded", "attached".
    carried: str = ""

    def describe(self) -> str:
        """One line naming the e-mail: subject, sender, date, Message-ID and where it is."""
        parts = [f'"{self.subject}"' if self.subject else "(no subject)",
                 f"from {self.sender or '(no sender)'}", self.date_text or "(no date)"]
        if self.message_id:
            parts.append(self.message_id)
        return ", ".join(parts) + f" [{self.where}]"


@dataclass(frozen=True)
class Source:
    """An origin and the line of the carrying message's body text where something starts."""

    origin: Origin
    line: int

    def describe(self) -> str:
        """The e-mail and the line, as the draft's comments and the summary write them."""
        return f"{self.origin.describe()}, body line {self.line}"


@dataclass(frozen=True)
class Line:
    """A line of a segment and its number in the carrying message's body text."""

    number: int
    text: str


@dataclass(frozen=True)
class Segment:
    """A run of text from one e-mail: the sender's own words, or a quote or forward unwrapped."""

    origin: Origin
    lines: tuple[Line, ...]
    #: How many quotes, forwards and attachments deep it sits (0: the message's own text).
    depth: int = 0
    #: The words around it in the mail that carries it (subject, a forwarding note).
    context: str = ""

    @property
    def text(self) -> str:
        """The segment's text."""
        return "\n".join(line.text for line in self.lines)


@dataclass(frozen=True)
class DraftRecord:
    """One ``[[event]]`` of the draft: its type, its time, its fields in order, where it came from."""

    kind: str
    at: datetime
    fields: tuple[tuple[str, Value], ...]
    source: Source
    #: What makes two records the same (a log quoted in a reply is the log read once).
    key: tuple[str, ...]
    #: Comment lines written above the record (evidence: a verification link, a signature).
    notes: tuple[str, ...] = ()

    def get(self, name: str) -> Value | None:
        """A field's value, or None."""
        for key, value in self.fields:
            if key == name:
                return value
        return None


@dataclass(frozen=True)
class DiceRoll:
    """Dice a dice server (or a ``dice:`` line) reported, before they are given a battle."""

    dice: tuple[int, ...]
    at: datetime
    source: Source
    #: "MARTI", "dice server" (the newer TripleA server) or "dice line".
    server: str
    key: tuple[str, ...]
    #: The canonical territory the mail names, if any.
    territory: str | None = None
    round: int | None = None
    side: Side | None = None
    #: The power that rolled, when the mail says (MARTI's subject names the player).
    power: str | None = None
    #: The units rolled for, as the mail lists them (MARTI), in the dice's order.
    units: tuple[tuple[str, int], ...] = ()
    #: "battle" (a round's dice), "aa" (AA shots) or "correction" (dice for a correction).
    purpose: str = "battle"
    #: Text to look for a battle's name in (the subject, the forwarding note, the line).
    context: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Problem:
    """Something that looks like game content and could not be made a record: for the Minister."""

    at: datetime | None
    source: Source
    message: str
    #: The text concerned, carried into the draft as a comment.
    text: str = ""
    key: tuple[str, ...] = ()
    #: The record it could be, for the Minister to complete (written commented out).
    record: DraftRecord | None = None


@dataclass
class Found:
    """What the recognisers found in a segment."""

    records: list[DraftRecord] = field(default_factory=list)
    dice: list[DiceRoll] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def extend(self, other: Found) -> None:
        """Add what another recogniser found."""
        self.records.extend(other.records)
        self.dice.extend(other.dice)
        self.problems.extend(other.problems)

    def __bool__(self) -> bool:
        return bool(self.records or self.dice or self.problems)
