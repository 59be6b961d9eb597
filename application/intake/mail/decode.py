"""A raw message decoded with the standard library's ``email`` package (``policy.default``).

What a game's mail needs of it: the headers that name the e-mail (From, Date, Subject,
Message-ID), the body as text (plain preferred; an HTML-only body turned to text), and what is
attached: a message forwarded as an attachment (``message/rfc822``, or an ``.eml`` file sent as
bytes) decoded the same way, a text attachment kept as text, anything else (a save game, an
image) listed by name.

Everything read is untrusted. A charset Python does not know is read as UTF-8 when the bytes
are UTF-8, else as Windows-1252 (what mislabelled Western mail nearly always is), and noted; a
header the parser chokes on is read raw; attachments nest at most :data:`MAX_DEPTH` deep and a
message has at most :data:`MAX_PARTS` parts, so a mail bomb of nested forwards is cut and
listed, never followed down.
"""

from __future__ import annotations

import email
import email.errors
import email.utils
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.header import decode_header, make_header
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage, Message
from email.policy import EmailPolicy

from application.intake.mail.html_text import html_to_text

#: Messages inside messages (forwarded as attachments) read at most this deep.
MAX_DEPTH = 8
#: The most MIME parts looked at in one message (all its attachments together).
MAX_PARTS = 500
#: The longest text taken from one part.
MAX_TEXT = 2 * 2**20


class _Registry(HeaderRegistry):
    """The standard header registry with each header's class built once.

    ``HeaderRegistry.__getitem__`` builds a new class for every header it is asked for, and
    ``policy.default`` asks on every read of every header: most of the time a mailbox of small
    messages costs. The classes are the same ones, made once per header name here. From, Date
    and Message-ID are read as unstructured text (RFC 2047 words decoded): the e-mail is named
    by them as written, and :func:`parse_date` reads the date once.
    """

    def __init__(self) -> None:
        super().__init__()
        for name in ("from", "date", "message-id"):
            # The registry mixes BaseHeader into the classes it is given (as for its own).
            self.map_to_type(name, UnstructuredHeader)  # type: ignore[arg-type]
        self._classes: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        built = self._classes.get(key)
        if built is None:
            built = self._classes[key] = super().__getitem__(key)
        return built


#: Headers that only give the MIME structure: read as their text (see :class:`_Policy`).
_STRUCTURE = frozenset({"content-type", "content-transfer-encoding", "content-disposition", "mime-version"})


class _Policy(EmailPolicy):
    """``policy.default``, with the MIME structure headers read as their (unfolded) text.

    The message API reads those headers as text anyway (``get_content_type``, ``get_param``,
    ``get_filename`` split the string), but under ``policy.default`` every read first parses
    the header into an object: the parser and the body search read Content-Type about ten
    times a message, most of the time a mailbox of small messages costs. The headers that name
    the e-mail (From, Date, Subject, Message-ID) are parsed and decoded by ``policy.default``'s
    own header classes, built once each (:class:`_Registry`).
    """

    def header_fetch_parse(self, name: str, value: str) -> str:
        """The structure headers as text; every other header as ``policy.default`` reads it."""
        if name.lower() in _STRUCTURE and not hasattr(value, "name"):
            return "".join(value.splitlines())
        parsed: str = super().header_fetch_parse(name, value)
        return parsed


#: ``policy.default`` as :class:`_Policy` reads it, its header classes built once.
POLICY = _Policy(header_factory=_Registry())


@dataclass
class Decoded:
    """A decoded message: its headers, its body text and what it carries."""

    sender: str
    date_text: str
    date: datetime | None
    subject: str
    message_id: str
    body: str
    #: Messages attached to it (forwarded as attachments), decoded the same way.
    attached: list[tuple[str, Decoded]] = field(default_factory=list)
    #: Text attachments: (file name, text).
    texts: list[tuple[str, str]] = field(default_factory=list)
    #: Attachments not read (name and type), and what was noticed (charsets, defects, cuts).
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def decode_message(data: bytes, *, depth: int = 0, budget: list[int] | None = None) -> Decoded:
    """Decode a message's bytes. Never raises on bad input: problems become ``notes``."""
    budget = budget if budget is not None else [MAX_PARTS]
    try:
        message = email.message_from_bytes(data, policy=POLICY)
    except (RecursionError, ValueError, TypeError, IndexError) as error:
        empty = Decoded("", "", None, "", "", "")
        empty.notes.append(f"the message could not be parsed ({type(error).__name__})")
        return empty
    return _decode(message, depth, budget)


def _decode(message: Message, depth: int, budget: list[int]) -> Decoded:
    date_text = header(message, "Date")
    date, date_note = parse_date(date_text)
    found = Decoded(sender=header(message, "From"), date_text=date_text, date=date,
                    subject=header(message, "Subject"), message_id=header(message, "Message-ID"),
                    body="")
    if date_note:
        found.notes.append(date_note)
    defects = [type(d).__name__ for d in getattr(message, "defects", [])]
    if any("Boundary" in d or "Truncat" in d or "Missing" in d for d in defects):
        found.notes.append("the message is cut short or malformed (" + ", ".join(sorted(set(defects)))
                           + "): what could be read was read")
    try:
        _walk(message, found, depth, budget)
    except RecursionError:
        found.notes.append("parts nested too deeply: the rest not read")
    return found


def _walk(message: Message, found: Decoded, depth: int, budget: list[int]) -> None:
    kind = message.get_content_type()
    if not message.is_multipart():
        # Most game mail: one text part, read without a search for the body.
        if kind.startswith("text/"):
            found.body = _text(message, found.notes, kind)
        elif kind != "message/rfc822":
            found.ignored.append(f"{message.get_filename() or '(the whole message)'} ({kind})")
            return
    body_part = _body_part(message) if message.is_multipart() else None
    if body_part is not None:
        found.body = _text(body_part, found.notes)
    for part in _parts(message) if message.is_multipart() or kind == "message/rfc822" else ():
        if budget[0] <= 0:
            found.notes.append(f"more than {MAX_PARTS} parts: the rest not read")
            return
        budget[0] -= 1
        if part is body_part or (part.is_multipart() and part.get_content_maintype() != "message"):
            continue
        name = part.get_filename() or ""
        kind = part.get_content_type()
        if kind == "message/rfc822" or name.lower().endswith(".eml"):
            _attached_message(part, name or "forwarded message", found, depth, budget)
        elif part.get_content_maintype() == "text" and (name or _is_attachment(part)):
            found.texts.append((name or kind, _text(part, found.notes)))
        elif _is_attachment(part) or name:
            found.ignored.append(f"{name or '(no name)'} ({kind})")


def _parts(message: Message) -> list[Message]:
    """The leaf parts and attached messages of a message, not looking inside attached ones."""
    if message.get_content_type() == "message/rfc822":
        return [message]  # a message that is nothing but another message: read that one
    out: list[Message] = []
    stack = [message]
    while stack and len(out) <= MAX_PARTS:
        part = stack.pop()
        if part.get_content_type() == "message/rfc822" and part is not message:
            out.append(part)
            continue
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            stack.extend(reversed([p for p in payload if isinstance(p, Message)][:MAX_PARTS]))
        elif part is not message:
            out.append(part)
    return out


def _is_attachment(part: Message) -> bool:
    return (part.get_content_disposition() or "") == "attachment"


def _body_part(message: Message) -> Message | None:
    if isinstance(message, EmailMessage):
        try:
            body = message.get_body(preferencelist=("plain", "html"))
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            body = None
        if body is not None:
            return body
    if not message.is_multipart() and message.get_content_maintype() == "text":
        return message
    return None


def _attached_message(part: Message, name: str, found: Decoded, depth: int, budget: list[int]) -> None:
    if depth + 1 > MAX_DEPTH:
        found.notes.append(f"attachment {name!r}: messages nested more than {MAX_DEPTH} deep: not read")
        return
    inner: Message | None = None
    if part.get_content_type() == "message/rfc822":
        payload = part.get_payload()
        if isinstance(payload, list) and payload and isinstance(payload[0], Message):
            inner = payload[0]
    if inner is None:
        data = part.get_payload(decode=True)
        if not isinstance(data, bytes) or not data.strip():
            found.notes.append(f"attachment {name!r}: empty, not read")
            return
        found.attached.append((name, decode_message(data, depth=depth + 1, budget=budget)))
        return
    found.attached.append((name, _decode(inner, depth + 1, budget)))


def _text(part: Message, notes: list[str], kind: str | None = None) -> str:
    """A text part's content as text; HTML turned to text (``kind``: its type, when known)."""
    raw = part.get_payload(decode=True)
    if not isinstance(raw, bytes):
        raw = str(part.get_payload() or "").encode("utf-8", "replace")
    if len(raw) > MAX_TEXT:
        notes.append(f"a text part of {len(raw) // 1024} KB: only its first {MAX_TEXT // 1024} KB read")
        raw = raw[:MAX_TEXT]
    charset = str(part.get_content_charset() or "us-ascii")
    text = _charset_text(raw, charset, notes)
    if (kind or part.get_content_type()) == "text/html":
        try:
            text = html_to_text(text)
        except (RecursionError, AssertionError, ValueError):
            notes.append("an HTML part could not be read as HTML: kept as written")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _charset_text(raw: bytes, charset: str, notes: list[str]) -> str:
    try:
        return raw.decode(charset)
    except LookupError:
        try:
            text = raw.decode("utf-8")
            notes.append(f"unknown charset {charset!r}: read as UTF-8")
        except UnicodeDecodeError:
            text = raw.decode("windows-1252", errors="replace")
            notes.append(f"unknown charset {charset!r}: read as Windows-1252")
        return text
    except UnicodeDecodeError:
        notes.append(f"bytes that are not {charset}: shown as \ufffd")
        return raw.decode(charset, errors="replace")


def header(message: Message, name: str) -> str:
    """A header's value as text (RFC 2047 words decoded); the raw text when it cannot be parsed;
    control characters (a folded line, a forged row) made spaces."""
    try:
        value = message.get(name)
        text = "" if value is None else str(value)
    except (ValueError, TypeError, IndexError, AttributeError, LookupError,
            email.errors.HeaderParseError):
        raw = next((v for k, v in message.raw_items() if k.lower() == name.lower()), "")
        try:
            text = str(make_header(decode_header(str(raw))))
        except (ValueError, LookupError, UnicodeDecodeError, email.errors.HeaderParseError):
            text = str(raw)
    if not text.isprintable():
        text = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(text.split())[:500]


def parse_date(text: str) -> tuple[datetime | None, str | None]:
    """A date as e-mail headers write it, with its zone, and a note when it cannot be used as is.

    A date with no zone (``-0000`` or none written) is read as UTC and noted."""
    if not text:
        return None, "no Date header"
    try:
        value = email.utils.parsedate_to_datetime(text)
    except (ValueError, TypeError, IndexError, OverflowError):
        return None, f"Date {text!r} cannot be read"
    if value is None:
        return None, f"Date {text!r} cannot be read"
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC), f"Date {text!r} states no zone: read as UTC"
    try:
        value.astimezone(UTC)
    except OverflowError:
        return None, f"Date {text!r} is outside the calendar"
    return value, None
