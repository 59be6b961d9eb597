"""The newer TripleA dice server's mails (triplea-game/dice-server-js).

The server mails an HTML page to both players, subject ``The dice have been cast!``::

    The dice have been cast!
    Roll-Time: 6/1/2024, 9:10:00 AM        (the server's local time, no zone)
    Results: [3,5,1]
    Verify! <https://.../verify?token=...>

The token is base64 JSON holding the dice, the exact time (``date``, Unix milliseconds), in
newer tokens the die size, count and both addresses (``"v": 2``), and the server's RSA
signature. Everything is read offline from the token: the dice (checked against the mail's
``Results``), the time (the record's ``at``: the roll's own time, not the mail's), and the
signature, checked against the server's public key when one is given
(:mod:`application.intake.mail.recognise.signature`). The mail names no game and no battle:
:mod:`application.intake.mail.matching` finds the battle by the words around it (a forwarding
note, a subject), else by time and dice count.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from datetime import UTC, datetime
from typing import Annotated
from urllib.parse import unquote

import msgspec

from application.intake.mail.model import DiceRoll, Found, Problem, Segment, Source
from application.intake.mail.recognise.context import Reading, at_of, bare_subject, hints
from application.intake.mail.recognise.signature import signed_payload

SERVER = "dice server"
_CAST = re.compile(r"the dice have been cast", re.IGNORECASE)
_RESULTS = re.compile(r"^\s*results\s*:\s*(?P<dice>\[[^\]]{0,4000}\])\s*$", re.IGNORECASE)
_TIME = re.compile(r"^\s*roll-time\s*:\s*(?P<time>.+?)\s*$", re.IGNORECASE)
_TOKEN = re.compile(r"/verify\?token=(?P<token>[A-Za-z0-9%+/=_-]{8,20000})")
#: The most dice one roll may hold.
MAX_DICE = 1000


class Token(msgspec.Struct):
    """The verification token: what the server signed and the signature."""

    dice: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=2**31)]], msgspec.Meta(max_length=MAX_DICE)]
    date: Annotated[int, msgspec.Meta(ge=0, le=2**53)]
    signature: Annotated[str, msgspec.Meta(max_length=8192)]
    v: int | None = None
    max: int | None = None
    times: int | None = None
    email1: str | None = None
    email2: str | None = None


def read_token(text: str) -> Token:
    """A token as the link carries it (URL-encoded base64 JSON); ValueError saying what is wrong."""
    raw = unquote(text).strip()
    raw += "=" * (-len(raw) % 4)
    try:
        data = base64.b64decode(raw, altchars=b"-_" if "-" in raw or "_" in raw else None, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the token is not base64") from None
    try:
        return msgspec.json.decode(data, type=Token)
    except msgspec.DecodeError as error:
        raise ValueError(f"the token is not the dice server's JSON ({error})") from None


def recognise(segment: Segment, reading: Reading) -> Found:
    """A dice-server mail's dice and time, read from its token and checked against its text."""
    found = Found()
    text = segment.text
    token_match = _TOKEN.search(text)
    results = next((m for line in segment.lines if (m := _RESULTS.match(line.text))), None)
    if not (_CAST.search(text) or _CAST.search(segment.origin.subject)) or not (token_match or results):
        return found
    line = next((ln.number for ln in segment.lines if _RESULTS.match(ln.text) or _TOKEN.search(ln.text)),
                segment.lines[0].number)
    source = Source(segment.origin, line)
    mail_at = at_of(source, reading.fallback)
    written = results.group("dice") if results else ""

    def problem(message: str) -> Found:
        found.problems.append(Problem(mail_at, source, f"dice-server mail not read: {message}",
                                      written or (token_match.group(0)[:120] if token_match else ""),
                                      ("problem", SERVER, message, written)))
        return found

    stated: list[int] | None = None
    if results:
        try:
            stated = json.loads(results.group("dice"))
        except ValueError:
            return problem(f"'Results: {written}' is not a list of dice")
        if not isinstance(stated, list) or not all(isinstance(d, int) for d in stated):
            return problem(f"'Results: {written}' is not a list of dice")
    if token_match is None:
        return problem("no verification link (/verify?token=...): the dice and time cannot be checked")
    try:
        token = read_token(token_match.group("token"))
    except ValueError as error:
        return problem(str(error))
    if stated is not None and stated != token.dice:
        return problem(f"the mail says Results {stated}, its token holds {token.dice}: one was changed")
    if token.max not in (None, 6) or not token.dice or any(not 1 <= d <= 6 for d in token.dice):
        return problem(f"dice {token.dice} are not six-sided dice" if token.dice else "no dice")
    at = datetime.fromtimestamp(token.date / 1000, UTC)
    valid, said = (None, "signature not checked: no --dice-key given") if reading.signature is None else \
        reading.signature.check(signed_payload(msgspec.to_builtins(token)), token.signature)
    if valid is False:
        return problem(said)
    roll_time = next((m.group("time") for ln in segment.lines if (m := _TIME.match(ln.text))), "")
    notes = [f"dice server roll {token.dice} at {at.isoformat(timespec='milliseconds')} (from its token"
             + (f"; the mail says Roll-Time {roll_time}" if roll_time else "") + ")", said]
    if token.v is None:
        notes.append("an older token: its signature binds the dice and only the low byte of the time")
    if token.email1 or token.email2:
        notes.append(f"rolled for {', '.join(e for e in (token.email1, token.email2) if e)}")
    context = " ".join(part for part in (_note_above(segment), segment.context,
                                         bare_subject(segment.origin.subject)) if part)
    said_hints = hints(context)
    found.dice.append(DiceRoll(tuple(token.dice), at, source, SERVER, (SERVER, token.signature or
                                                                         f"{token.dice}{token.date}"),
                               round=said_hints.round, side=said_hints.side, purpose=said_hints.purpose,
                               context=context, notes=tuple(notes)))
    return found


def _note_above(segment: Segment) -> str:
    """Words of the segment that are not the server's own (a note a player typed above)."""
    own = [ln.text.strip() for ln in segment.lines if ln.text.strip() and not _CAST.search(ln.text)
           and not _RESULTS.match(ln.text) and not _TIME.match(ln.text) and not _TOKEN.search(ln.text)]
    return " ".join(own[:3])
