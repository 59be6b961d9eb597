"""A decoded message cut into segments: the sender's own text, and each quote, inline forward
and attachment unwrapped into a segment of its own that names the e-mail it came from.

Written for this project (no quote-stripping library is a dependency). What is recognised:

- quoted replies: runs of ``>`` lines (blank lines inside a run belong to it), one level
  taken off per step, so a log quoted three times comes out three times, each naming its
  e-mail, and the reader keeps one (:mod:`application.intake.mail.read`). The attribution
  line above the run (``On <date>, <sender> wrote:``, wrapped on two lines or not) gives the
  quoted mail's sender and date;
- inline forwards and Outlook replies: a marker line (``---------- Forwarded message
  ---------``, ``-------- Forwarded Message --------``, ``Begin forwarded message:``,
  ``-----Original Message-----``) and the header block under it (From, Date or Sent, Subject,
  To, Message-ID); the rest of the text is the forwarded mail;
- attachments: a message attached to a message, and text attachments.

A date without a zone (Gmail writes "Sun, Jun 2, 2019 at 8:10 AM" in the forwarder's local
time) is read in the zone of the carrying mail's Date, and noted. Nesting is cut at
:data:`MAX_NESTING` levels (quotes, forwards and attachments together), noted, never followed
further: a mail bomb of nested forwards costs bounded time.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from application.intake.mail.decode import Decoded, parse_date
from application.intake.mail.model import Line, Origin, Segment

#: Quotes, forwards and attachments unwrapped at most this deep.
MAX_NESTING = 12
#: The most segments taken from one message.
MAX_SEGMENTS = 400

_FORWARD = re.compile(r"^\s*(?:-{2,}\s*(?:Forwarded|Original)\s+(?:message|Message)\s*-{2,}"
                      r"|Begin forwarded message:)\s*$", re.IGNORECASE)
_HEADER_LINE = re.compile(r"^\s*(From|Date|Sent|Subject|To|Cc|Message-ID|Reply-To)\s*:\s*(.*)$",
                          re.IGNORECASE)
_QUOTED = re.compile(r"^\s*>")
_WROTE = re.compile(r"(?:\bwrote|\bschrieb|\ba écrit|\bescribió|\bha scritto)\s*:\s*$", re.IGNORECASE)
_ON = re.compile(r"^\s*(?:On|Am|Le|El|Il)\s+(?P<rest>.*?)\s*$")
#: An RFC 5322 date inside an attribution line.
_RFC_DATE = re.compile(r"(?:\w{3},\s*)?\d{1,2}\s+\w{3}\s+\d{4}\s+\d{1,2}:\d{2}(?::\d{2})?"
                       r"\s*(?:[+-]\d{4}|GMT|UTC|UT)?")
_FORMATS = ("%a, %b %d, %Y at %I:%M %p", "%a, %b %d, %Y at %H:%M", "%A, %B %d, %Y %I:%M %p",
            "%A, %B %d, %Y at %I:%M %p", "%a, %b %d, %Y, %I:%M %p", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S",
            "%d %b %Y %H:%M", "%a %d %b %Y %H:%M")


class _Walk:
    """Collects the segments of one message and what was not followed."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.notes: list[str] = []

    def message(self, mail: Decoded, origin: Origin, depth: int, context: str = "") -> None:
        lines = tuple(Line(number, text) for number, text in enumerate(mail.body.split("\n"), 1))
        first = len(self.segments)
        self.text(lines, origin, depth, context)
        own = next((s.text for s in self.segments[first:] if s.origin is origin), "")
        around = _words(origin.subject, own)
        for name, text in mail.texts:
            inner = replace(origin, where=f"{origin.where} > attachment {name!r}", carried="attached")
            self.text(tuple(Line(n, t) for n, t in enumerate(text.split("\n"), 1)), inner, depth + 1,
                      around)
        for name, attached in mail.attached:
            inner = origin_of(attached, f"{origin.where} > attachment {name!r}", "attached")
            if depth + 1 > MAX_NESTING:
                self.notes.append(f"{inner.where}: nested more than {MAX_NESTING} deep: not read")
                continue
            self.notes.extend(f"{inner.where}: {note}" for note in attached.notes)
            self.message(attached, inner, depth + 1, around)

    def text(self, lines: tuple[Line, ...], origin: Origin, depth: int, context: str = "") -> None:
        """Split ``lines`` into the own text and the embedded mails, recursively; ``context``:
        the words around them in the carrying mail."""
        if depth > MAX_NESTING:
            self.notes.append(f"{origin.where}: quoted or forwarded more than {MAX_NESTING} deep: "
                              "not read")
            return
        own: list[Line] = []
        index = 0
        while index < len(lines):
            line = lines[index]
            if _FORWARD.match(line.text):
                inner, rest = _forwarded(lines, index, origin)
                self.text(rest, inner, depth + 1, _words(origin.subject, *(o.text for o in own)))
                break
            if _QUOTED.match(line.text):
                end = _quote_end(lines, index)
                attribution = _attribution(own)
                inner = _quoted_origin(origin, attribution)
                if attribution:
                    del own[len(own) - attribution[0]:]
                body = tuple(Line(q.number, re.sub(r"^\s*> ?", "", q.text, count=1))
                             for q in lines[index:end])
                self.text(body, inner, depth + 1, _words(origin.subject, *(o.text for o in own[-3:])))
                # The text around the quote does not run on across it.
                own.append(Line(lines[end - 1].number, ""))
                index = end
                continue
            own.append(line)
            index += 1
        if any(line.text.strip() for line in own):
            if len(self.segments) >= MAX_SEGMENTS:
                self.notes.append(f"{origin.where}: more than {MAX_SEGMENTS} quoted or forwarded "
                                  "parts: the rest not read")
                return
            self.segments.append(Segment(origin, tuple(own), depth, context))


def _words(*texts: str) -> str:
    """Text joined into one line of words, cut to a length a context needs."""
    return " ".join(" ".join(texts).split())[:500]


def unwrap(mail: Decoded, where: str) -> tuple[list[Segment], list[str]]:
    """The segments of a decoded message (own text first), and notes on what was not followed."""
    walk = _Walk()
    walk.message(mail, origin_of(mail, where, ""), 0)
    return walk.segments, walk.notes


def origin_of(mail: Decoded, where: str, carried: str) -> Origin:
    """The origin a decoded message names by its own headers."""
    return Origin(where=where, sender=mail.sender, date_text=mail.date_text, date=mail.date,
                  subject=mail.subject, message_id=mail.message_id, carried=carried)


def _quote_end(lines: tuple[Line, ...], start: int) -> int:
    """The end of a run of quoted lines; blank lines inside it belong to it."""
    end = start
    index = start
    while index < len(lines):
        text = lines[index].text
        if _QUOTED.match(text):
            end = index + 1
        elif text.strip():
            break
        index += 1
    return end


def _attribution(own: list[Line]) -> tuple[int, str] | None:
    """How many of the last own lines (blank lines included) are an attribution, and its text."""
    index = len(own) - 1
    while index >= 0 and not own[index].text.strip():
        index -= 1
    if index < 0 or not _WROTE.search(own[index].text):
        return None
    text = own[index].text.strip()
    first = index
    if not _ON.match(text) and index > 0 and _ON.match(own[index - 1].text):
        first = index - 1
        text = f"{own[index - 1].text.strip()} {text}"
    return len(own) - first, text


def _quoted_origin(origin: Origin, attribution: tuple[int, str] | None) -> Origin:
    where = f"{origin.where} > quoted"
    if attribution is None:
        return Origin(where=where, subject=origin.subject, carried="quoted")
    text = attribution[1]
    body = _WROTE.sub("", text).strip()
    matched = _ON.match(body)
    body = matched.group("rest") if matched else body
    date_text, sender = _date_and_sender(body)
    date, _ = loose_date(date_text, origin.date)
    return Origin(where=where, sender=sender, date_text=date_text, date=date,
                  subject=origin.subject, carried="quoted")


def _date_and_sender(text: str) -> tuple[str, str]:
    """Split an attribution's words into the date and the sender."""
    found = _RFC_DATE.search(text)
    if found:
        return found.group(0).strip(), text[found.end():].strip(" ,")
    gmail = re.match(r"^(?P<date>.*?\d{4}(?:,)?\s+(?:at\s+)?\d{1,2}:\d{2}(?:\s*[AP]M)?)[,\s]+(?P<who>.*)$",
                     text, re.IGNORECASE)
    if gmail:
        return gmail.group("date").strip(), gmail.group("who").strip()
    return "", text.strip(" ,")


def loose_date(text: str, carrier: datetime | None) -> tuple[datetime | None, str | None]:
    """A date as forwards and attributions write it. One without a zone is read in the zone of
    the carrying mail (its writer's clock); None when it cannot be read."""
    if not text:
        return None, None
    value, note = parse_date(text)
    if value is not None and note is None:
        return value, None
    cleaned = " ".join(text.replace("\u202f", " ").split())
    naive = None
    for form in _FORMATS:
        try:
            naive = datetime.strptime(cleaned, form)
            break
        except ValueError:
            continue
    if naive is None and value is not None:
        naive = value.replace(tzinfo=None)
    if naive is None or carrier is None:
        return None, f"date {text!r} cannot be read"
    return naive.replace(tzinfo=carrier.tzinfo), \
        f"date {text!r} has no zone: read in the zone of the mail that carries it"


def _forwarded(lines: tuple[Line, ...], index: int, origin: Origin) -> tuple[Origin, tuple[Line, ...]]:
    """The forwarded mail's origin (from the header block under the marker) and its lines."""
    fields: dict[str, str] = {}
    cursor = index + 1
    while cursor < len(lines) and not lines[cursor].text.strip():
        cursor += 1
    last = ""
    while cursor < len(lines):
        text = lines[cursor].text
        match = _HEADER_LINE.match(text)
        if match:
            last = match.group(1).lower()
            fields.setdefault(last, match.group(2).strip())
        elif last and text[:1] in (" ", "\t") and text.strip():
            fields[last] += " " + text.strip()
        else:
            break
        cursor += 1
    date_text = fields.get("date") or fields.get("sent") or ""
    date, _ = loose_date(date_text, origin.date)
    kind = "quoted" if "original" in lines[index].text.lower() else "forwarded"
    inner = Origin(where=f"{origin.where} > {kind}", sender=fields.get("from", ""),
                   date_text=date_text, date=date, subject=fields.get("subject", ""),
                   message_id=fields.get("message-id", ""), carried=kind)
    return inner, lines[cursor:]
