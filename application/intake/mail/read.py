"""A mailbox read into the draft's parts: messages, records, dice placed, what was not read.

The steps of :mod:`application.intake.mail` in order. Duplicates are dropped twice over: whole
messages by Message-ID (the dice server, the CC and a forward deliver the same mail; a message
with no Message-ID by its bytes), then records by what they say, so a declaration or a log that
comes again in a quote is read once, from the earliest e-mail that holds it (the original when
it is in the mailbox). Every message ends up either with records or listed as not recognised.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from application.intake.mail.decode import decode_message
from application.intake.mail.mailbox import RawMessage, Skipped, kind_of, read_mailbox
from application.intake.mail.matching import declared_battles, match_dice
from application.intake.mail.model import DiceRoll, DraftRecord, Found, Origin, Problem, Segment, Source
from application.intake.mail.recognise import recognise
from application.intake.mail.recognise.context import GameFacts, Reading, SignatureCheck
from application.intake.mail.unwrap import origin_of, unwrap


@dataclass
class Message:
    """One message of the mailbox and what became of it."""

    origin: Origin
    #: "records", "not recognised", "duplicate"; with a note saying more.
    status: str = "not recognised"
    note: str = ""
    records: int = 0
    notes: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


@dataclass
class MailRead:
    """Everything read from a mailbox, ready to be written as a draft."""

    path: Path
    kind: str
    game: GameFacts
    records: list[DraftRecord]
    problems: list[Problem]
    messages: list[Message]
    skipped: list[Skipped]
    #: (server, how many rolls): dice mails read.
    dice: dict[str, int] = field(default_factory=dict)


def read_mail(path: Path, *, signature: SignatureCheck | None = None) -> MailRead:
    """Read the mailbox at ``path`` (raises :class:`~.mailbox.MailboxError` when it is not one)."""
    kind = kind_of(path)
    skipped: list[Skipped] = []
    messages: list[Message] = []
    segments: list[tuple[int, Segment]] = []
    seen: dict[str, str] = {}
    for raw in read_mailbox(path, skipped):
        message = _message(raw, seen, segments, len(messages))
        messages.append(message)
    game = GameFacts()
    for _, segment in segments:
        source = Source(segment.origin, segment.lines[0].number)
        game.read_subject(segment.origin.subject, source)
        for line in segment.lines:
            if line.text.strip():
                game.read_line(line.text, Source(segment.origin, line.number))
    found: list[tuple[int, int, Found]] = []
    for number, segment in segments:
        reading = Reading(messages[number].origin.date, game, signature)
        found.append((number, segment.depth, recognise(segment, reading)))
    records, rolls, problems, owners = _unique(found)
    matched = match_dice(rolls, declared_battles(records))
    roll_owner = {roll.key: owners[id(roll)] for roll in rolls}
    placed: list[DraftRecord | Problem] = [*matched.records, *matched.problems]
    for item in placed:
        owners[id(item)] = roll_owner[item.key]
    records += matched.records
    problems += matched.problems
    kept: list[DraftRecord | Problem] = [*records, *problems]
    for item in kept:
        messages[owners[id(item)]].records += 1
        messages[owners[id(item)]].status = "records"
    had_items = {number for number, _, items in found if items}
    for number, message in enumerate(messages):
        if message.status == "not recognised" and number in had_items:
            message.note = "only what other e-mails also hold (quotes, copies)"
    records.sort(key=lambda r: (r.at, owners[id(r)], r.source.line))
    problems.sort(key=lambda p: (p.at is None, p.at.timestamp() if p.at else 0.0, owners[id(p)],
                                 p.source.line))
    dice: dict[str, int] = {}
    for roll in rolls:
        dice[roll.server] = dice.get(roll.server, 0) + 1
    return MailRead(path, kind, game, records, problems, messages, skipped, dice)


def _message(raw: RawMessage, seen: dict[str, str], segments: list[tuple[int, Segment]],
             number: int) -> Message:
    mail = decode_message(raw.data)
    origin = origin_of(mail, raw.where, "")
    message = Message(origin, notes=list(mail.notes), ignored=list(mail.ignored))
    if raw.cut:
        message.notes.append(f"larger than the limit: the last {raw.cut // 1024} KB (attachments) not read")
    if raw.unterminated:
        message.notes.append("the mailbox ends inside this message: it may be cut short")
    identity = " ".join(mail.message_id.lower().split()) or "sha256:" + hashlib.sha256(raw.data).hexdigest()
    if identity in seen:
        message.status, message.note = "duplicate", f"the same message as {seen[identity]}"
        return message
    seen[identity] = raw.where
    found, notes = unwrap(mail, raw.where)
    message.notes.extend(notes)
    segments.extend((number, segment) for segment in found)
    return message


#: What a recogniser finds.
_Item = DraftRecord | DiceRoll | Problem


def _unique(found: list[tuple[int, int, Found]]) -> tuple[list[DraftRecord], list[DiceRoll], list[Problem],
                                                          dict[int, int]]:
    """Records, rolls and problems read once each: the earliest copy, the least nested on a tie."""
    best: dict[tuple[str, ...], tuple[tuple[bool, float, int, int], _Item, int]] = {}
    for number, depth, items in found:
        every: list[_Item] = [*items.records, *items.dice, *items.problems]
        for item in every:
            at = item.at
            rank = (at is None, at.timestamp() if at is not None else 0.0, depth, number)
            key = (type(item).__name__, *item.key)
            if key not in best or rank < best[key][0]:
                best[key] = (rank, item, number)
    owners: dict[int, int] = {}
    records: list[DraftRecord] = []
    rolls: list[DiceRoll] = []
    problems: list[Problem] = []
    for _, item, number in best.values():
        owners[id(item)] = number
        if isinstance(item, DraftRecord):
            records.append(item)
        elif isinstance(item, DiceRoll):
            rolls.append(item)
        elif isinstance(item, Problem):
            problems.append(item)
    return records, rolls, problems, owners
