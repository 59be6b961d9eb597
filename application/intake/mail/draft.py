"""The draft replay file: ``minister-replay/1`` text, every record under the e-mail it came from.

The draft is an ordinary replay file, so every command reads it unchanged. Above each
``[[event]]`` a comment names its e-mail (subject, sender, Date, Message-ID, where it is in the
mailbox) and the body line where it starts, then the evidence (a dice server's verification
link, what its signature check said, how a dice mail was matched to its battle). What could not
be made a record is written where it happened, commented out, under ``# NEEDS THE MINISTER``;
the e-mails that hold no game record, the duplicates and what was skipped are listed at the end.
The text is a pure function of the mailbox (no time of writing, no absolute path), so the same
mailbox always gives the same draft.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import tomli_w

from application.intake.mail.model import DraftRecord, Problem, Value
from application.intake.mail.read import MailRead

FORMAT = "minister-replay/1"
#: The comment line every draft's e-mail list starts with (what follows it is comments only).
LISTS = "# -- the e-mails"


@dataclass(frozen=True)
class GameHeader:
    """The ``[game]`` table of the draft and where each value came from."""

    id: str
    edition: str
    title: str | None
    number: str | None
    #: Lines saying where the id and edition came from (written as comments).
    said: tuple[str, ...] = ()


def toml_time(value: datetime) -> str:
    """An RFC 3339 time with its zone as written in the e-mail (``Z`` for UTC)."""
    text = value.isoformat(timespec="milliseconds" if value.microsecond else "seconds")
    return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text


def _value(value: Value) -> str:
    if isinstance(value, datetime):
        return toml_time(value)
    return tomli_w.dumps({"x": value}, multiline_strings=True).removeprefix("x = ").rstrip("\n")


def comment(text: str) -> str:
    """One or more ``#`` lines holding ``text`` (control characters made spaces)."""
    lines = [line if line.isprintable() else "".join(c if c.isprintable() or c == "\t" else " " for c in line)
             for line in text.split("\n")]
    return "\n".join(f"# {line}".rstrip() for line in lines)


def _record(record: DraftRecord) -> list[str]:
    out = [comment(f"e-mail: {record.source.describe()}")]
    out += [comment(f"  {note}") for note in record.notes]
    out += ["[[event]]", f'type = "{record.kind}"', f"at = {toml_time(record.at)}"]
    out += [f"{key} = {_value(value)}" for key, value in record.fields]
    return out


def _problem(problem: Problem) -> list[str]:
    out = [comment(f"NEEDS THE MINISTER: {problem.message}"),
           comment(f"  e-mail: {problem.source.describe()}")]
    if problem.text.strip():
        out += [comment(f"  | {line}") for line in problem.text.rstrip("\n").split("\n")]
    if problem.record is not None:
        out.append(comment("  fill in and remove the '# ' to keep it:"))
        out += ["# " + line for line in _record(problem.record)[1 + len(problem.record.notes):]
                for line in line.split("\n")]
    return out


#: A record's lines in the draft (first, last) and the record.
Span = tuple[int, int, DraftRecord]


def write_draft(read: MailRead, header: GameHeader) -> tuple[str, list[Span]]:
    """The draft's text, and the lines each record takes in it."""
    kept = sum(1 for m in read.messages if m.status == "records")
    duplicates = sum(1 for m in read.messages if m.status == "duplicate")
    head = [
        comment(f"Draft of game {header.id}, read by `minister mail` from {read.path.name} "
                f"({read.kind}): {len(read.messages)} messages, {kept} with records, "
                f"{len(read.messages) - kept - duplicates} not recognised, {duplicates} duplicates "
                f"dropped, {len(read.skipped)} skipped."),
        comment("Each record names its e-mail and line. '# NEEDS THE MINISTER' marks what could not "
                "be made a record."),
        *[comment(line) for line in header.said],
        f'format = "{FORMAT}"',
        "",
        "[game]",
        f"id = {_value(header.id)}",
        f"edition = {_value(header.edition)}",
    ]
    if header.title:
        head.append(f"title = {_value(header.title)}")
    if header.number:
        head.append(f"number = {_value(header.number)}")
    lines = "\n".join(head).split("\n")
    problems = [p for p in read.problems if p.at is not None]
    index = 0
    spans: list[Span] = []
    for record in read.records:
        while index < len(problems) and (at := problems[index].at) is not None and at < record.at:
            lines += ["", *"\n".join(_problem(problems[index])).split("\n")]
            index += 1
        block = "\n".join(_record(record)).split("\n")
        spans.append((len(lines) + 2, len(lines) + 1 + len(block), record))
        lines += ["", *block]
    for problem in [*problems[index:], *(p for p in read.problems if p.at is None)]:
        lines += ["", *_problem(problem)]
    lines += ["", *_listing(read)]
    return "\n".join(lines) + "\n", spans


def _listing(read: MailRead) -> list[str]:
    """The comment block listing the e-mails without records, duplicates, skips and notes."""
    out = [LISTS + " " + "-" * 80]
    unread = [m for m in read.messages if m.status == "not recognised"]
    out.append(comment(f"not recognised ({len(unread)}): no game record in them"))
    out += [comment(f"  {m.origin.describe()}" + (f": {m.note}" if m.note else "")) for m in unread]
    duplicates = [m for m in read.messages if m.status == "duplicate"]
    if duplicates:
        out.append(comment(f"duplicates dropped ({len(duplicates)}):"))
        out += [comment(f"  {m.origin.describe()}: {m.note}") for m in duplicates]
    if read.skipped:
        out.append(comment(f"skipped ({len(read.skipped)}):"))
        out += [comment(f"  {s.where}: {s.reason}") for s in read.skipped]
    noted = [(m, n) for m in read.messages for n in m.notes]
    if noted:
        out.append(comment("noticed while reading:"))
        out += [comment(f"  {m.origin.where}: {n}") for m, n in noted]
    ignored = [(m, a) for m in read.messages for a in m.ignored]
    if ignored:
        out.append(comment("attachments not read (not text, not a message):"))
        out += [comment(f"  {m.origin.where}: {a}") for m, a in ignored]
    return out
