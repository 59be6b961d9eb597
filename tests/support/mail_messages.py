"""E-mails for the mail reader's tests: built with the standard library, written as bytes."""

from __future__ import annotations

import base64
import json
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from urllib.parse import quote

from application.intake.mail.model import Line, Origin, Segment
from application.intake.mail.recognise.context import GameFacts, Reading
from application.intake.mail.unwrap import loose_date

DATE = "Sat, 01 Jun 2019 10:00:00 +0200"


def message(body: str, *, subject: str = "Game 1 - USSR 1", sender: str = "Boris <boris@example.net>",
            date: str = DATE, message_id: str = "<m1@example.net>", html: bool = False,
            charset: str = "utf-8") -> EmailMessage:
    """A one-part message."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = "Hans <hans@example.de>"
    mail["Date"] = date
    mail["Subject"] = subject
    mail["Message-ID"] = message_id
    mail.set_content(body, subtype="html" if html else "plain", charset=charset,
                     cte="quoted-printable" if charset != "utf-8" else None)
    return mail


def raw(mail: EmailMessage) -> bytes:
    """The message's bytes, LF line ends."""
    return mail.as_bytes(policy=SMTP.clone(linesep="\n"))


def mbox(path: Path, *mails: EmailMessage | bytes) -> Path:
    """Write an mbox of ``mails`` (postmarks added, '>From ' escaped)."""
    out = []
    for mail in mails:
        data = mail if isinstance(mail, bytes) else raw(mail)
        lines = [b">" + line if line.startswith(b"From ") else line for line in data.split(b"\n")]
        postmark = b"From sender@example.net Sat Jun  1 08:00:00 2019\n"
        out.append(postmark + b"\n".join(lines).rstrip(b"\n") + b"\n\n")
    path.write_bytes(b"".join(out))
    return path


def segment(text: str, *, subject: str = "Game 1 - USSR 1", date: str = DATE, sender: str = "Boris <b@x.net>",
            context: str = "", carried: str = "", message_id: str = "<s@x>") -> Segment:
    """A segment of an e-mail, as the unwrapping makes them."""
    when, _ = loose_date(date, None)
    origin = Origin(where="message 1", sender=sender, date_text=date, date=when, subject=subject,
                    message_id=message_id, carried=carried)
    lines = tuple(Line(number, line) for number, line in enumerate(text.split("\n"), 1))
    return Segment(origin, lines, 0, context)


def reading(game: GameFacts | None = None) -> Reading:
    """What the recognisers are given, with no signature check."""
    return Reading(None, game or GameFacts())


def dice_token(dice: list[int], date_ms: int, *, signature: str = "c2ln" * 171, legacy: bool = False) -> str:
    """A dice-server verification token (URL-encoded base64 JSON)."""
    payload: dict[str, object] = {"dice": dice, "signature": signature, "date": date_ms}
    if not legacy:
        payload = {"v": 2, "dice": dice, "max": 6, "times": len(dice), "email1": "a@x.org",
                   "email2": "b@x.org", "date": date_ms, "signature": signature}
    return quote(base64.b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode(), safe="")


def dice_mail_text(dice: list[int], date_ms: int, *, results: list[int] | None = None,
                   legacy: bool = False) -> str:
    """The newer dice server's mail as text (its HTML turned to text); ``results``: what the
    mail's text says, when it is not the token's dice."""
    shown = json.dumps(dice if results is None else results, separators=(",", ":"))
    link = f"https://dice.example.org/verify?token={dice_token(dice, date_ms, legacy=legacy)}"
    return (f"The dice have been cast!\n\nRoll-Time: 6/1/2024, 9:10:00 AM\n\nResults: {shown}\n\n"
            f"You can click below to verify your results:\n\nVerify! <{link}>\n")
