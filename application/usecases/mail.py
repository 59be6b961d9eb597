"""``minister mail``: a game's mailbox read into a draft replay file, checked, and imported.

The draft is read back with the replay reader before anything else: a record the reader
refuses (a battle that was never declared, a unit that does not exist) is taken out of the
draft and put under ``# NEEDS THE MINISTER`` with the reader's message and its e-mail, and the
draft is read again, so the draft written always reads and nothing is dropped silently. The
draft's findings are then reviewed and each is traced to the e-mails of its records, so the
summary names the e-mail behind every finding. ``--import`` stores the draft with the import
use case (one atomic save) only when nothing needs the Minister: never half a game.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from application.intake.mail.draft import GameHeader, write_draft
from application.intake.mail.mailbox import MailboxError
from application.intake.mail.model import DraftRecord, Problem
from application.intake.mail.read import MailRead, Message, read_mail
from application.intake.mail.recognise.context import edition_of
from application.intake.mail.recognise.signature import KeyFileError, NoKey, PublicKey
from application.intake.replayfile import Replay, parse_replay
from domain.errors import MinisterError, ReplayError
from domain.rules.editions import edition as edition_named

if TYPE_CHECKING:  # the store is only opened for --import
    from application.adapters.app import MinisterApplication
    from application.usecases.transfer import ImportResult

#: The edition a mailbox gets when neither ``--edition`` nor a "Rules:" line names one.
DEFAULT_EDITION = "iaapa-2008"


@dataclass(frozen=True)
class FindingSource:
    """A finding of the draft and the e-mails its records came from."""

    finding: str
    emails: tuple[str, ...]


@dataclass
class MailDraft:
    """A mailbox's draft: the text, what was read, the draft read back, its findings' sources."""

    read: MailRead
    header: GameHeader
    text: str
    #: The draft read back (None when the e-mails hold no record: nothing to read back).
    replay: Replay | None
    findings: list[FindingSource] = field(default_factory=list)
    #: Records the replay reader refused, now problems (each with the reader's message).
    refused: int = 0

    @property
    def needs_minister(self) -> list[Problem]:
        """What could not be made a record."""
        return self.read.problems


def draft_mail(path: Path, *, game_id: str | None = None, edition: str | None = None,
               title: str | None = None, dice_key: Path | None = None, name: str | None = None) -> MailDraft:
    """Read the mailbox at ``path`` into a checked draft (MinisterError on bad input: exit 2).

    ``name``: the file the draft is written to (its reader's messages name it)."""
    try:
        signature = NoKey() if dice_key is None else PublicKey(dice_key)
    except KeyFileError as error:
        raise MinisterError(f"--dice-key {dice_key}: {error}") from None
    try:
        read = read_mail(path, signature=signature)
    except MailboxError as error:
        raise MinisterError(str(error)) from None
    if not any(m.status != "duplicate" for m in read.messages):
        skipped = "; ".join(f"{s.where}: {s.reason}" for s in read.skipped[:5])
        raise MinisterError(f"{path}: no message could be read" + (f" ({skipped})" if skipped else ""))
    header = _header(read, path, game_id, edition, title)
    source = name or f"{path.name} (draft)"
    refused = 0
    while True:
        text, spans = write_draft(read, header)
        if not read.records:
            return MailDraft(read, header, text, None, refused=refused)
        try:
            replay = parse_replay(text, source)
        except ReplayError as error:
            record = _record_at(spans, error.line)
            if record is None or refused >= len(spans):
                raise MinisterError(f"the draft of {path} cannot be read: {error}") from None
            read.records.remove(record)
            read.problems.append(Problem(record.at, record.source, f"the replay reader refused this "
                                         f"{record.kind}: {error.message}", "", record.key,
                                         replace(record, notes=())))
            read.problems.sort(key=lambda p: (p.at is None, p.at.timestamp() if p.at else 0.0))
            refused += 1
            continue
        break
    draft = MailDraft(read, header, text, replay, refused=refused)
    draft.findings = _finding_sources(replay, spans)
    return draft


def _header(read: MailRead, path: Path, game_id: str | None, edition: str | None,
            title: str | None) -> GameHeader:
    said: list[str] = []
    number = read.game.number
    if number and read.game.number_source:
        said.append(f"game number {number}: {read.game.number_source.describe()}")
    if edition is None and read.game.rules is not None:
        edition = edition_of(read.game.rules)
        if edition and read.game.rules_source:
            said.append(f"edition {edition}: 'Rules: {read.game.rules}' in "
                        f"{read.game.rules_source.describe()}")
    if edition is None:
        edition = DEFAULT_EDITION
        said.append(f"edition {edition}: no 'Rules:' line names one (choose with --edition)")
    try:
        edition_named(edition)
    except KeyError as error:
        raise MinisterError(f"--edition {edition!r}: {error.args[0]}") from None
    if game_id is None:
        stem = re.sub(r"[^A-Za-z0-9]+", "-", path.stem if path.is_file() else path.name)
        game_id = f"game-{number}" if number else stem.strip("-").lower() or "mail-game"
    if title is None and read.game.players:
        names = {side: re.sub(r"\s*<[^>]*>", "", who).strip() for side, who in read.game.players.items()}
        title = (f"Game {number}: " if number else "") + " v. ".join(
            f"{names[side]} ({side})" for side in ("Axis", "Allies") if side in names)
        title = "".join(c for c in title if c.isprintable())[:200]
    return GameHeader(game_id, edition, title, number, tuple(said))


def _record_at(spans: list[tuple[int, int, DraftRecord]], line: int | None) -> DraftRecord | None:
    """The record whose lines hold ``line`` (the spans are in line order)."""
    if line is None:
        return None
    index = bisect.bisect_right(spans, line, key=lambda span: span[0]) - 1
    if index >= 0 and spans[index][0] <= line <= spans[index][1]:
        return spans[index][2]
    return None


def _finding_sources(replay: Replay, spans: list[tuple[int, int, DraftRecord]]) -> list[FindingSource]:
    """Every finding of the draft (as corrected) with the e-mails of the records it concerns."""
    from domain.review.game_review import review

    view = review(replay.game)
    out = []
    for finding in view.findings:
        lines: list[int] = []
        for battle in replay.game.battles:
            if battle.territory == finding.battle and (finding.turn is None or battle.turn == finding.turn):
                lines += [roll.source_line for roll in battle.rolls if roll.source_line is not None]
                if battle.declaration_line is not None:
                    lines.append(battle.declaration_line)
        if finding.battle is None and finding.turn is not None:
            lines += [start for start, _, record in spans if record.get("turn") == finding.turn]
        emails: list[str] = []
        for line in sorted(set(lines)):
            record = _record_at(spans, line)
            text = f"{record.source.describe()} (draft line {line})" if record is not None else ""
            if text and text not in emails:
                emails.append(text)
        where = " ".join(f"{k} {v}" for k, v in (("turn", finding.turn), ("battle", finding.battle),
                                                  ("round", finding.round), ("side", finding.side)) if v)
        out.append(FindingSource(f"{finding.id} {finding.kind} [{finding.status}] {where}".rstrip(),
                                 tuple(emails)))
    return out


def import_draft(app: MinisterApplication, draft: MailDraft) -> ImportResult:
    """Store the draft's game (one atomic save) and its review (as ``minister import`` does);
    refused while anything needs the Minister."""
    from application.usecases.review_model import refresh_quietly
    from application.usecases.transfer import Outcome, import_replay

    if draft.replay is None:
        raise MinisterError(f"{draft.read.path}: the e-mails hold no game record: nothing was imported")
    if draft.needs_minister:
        raise MinisterError(f"{len(draft.needs_minister)} item(s) need the Minister (listed above): "
                            "nothing was imported. Complete the draft (-o FILE) and import it with "
                            "'minister import FILE'")
    result = import_replay(app, draft.replay)
    if result.outcome is Outcome.IMPORTED:
        refresh_quietly(app, result.game_id)  # opening the game will not have to review it
    return result


def summary(draft: MailDraft) -> list[str]:
    """The summary printed after a draft: what was read, placed, left for the Minister."""
    read = draft.read
    counts: dict[str, int] = {}
    for record in read.records:
        counts[record.kind] = counts.get(record.kind, 0) + 1
    kept = [m for m in read.messages if m.status == "records"]
    unread = [m for m in read.messages if m.status == "not recognised"]
    duplicates = [m for m in read.messages if m.status == "duplicate"]
    lines = [f"{read.path.name}: {len(read.messages)} messages: {len(kept)} with records, "
             f"{len(unread)} not recognised, {len(duplicates)} duplicates dropped, "
             f"{len(read.skipped)} skipped",
             f"game {draft.header.id} ({draft.header.edition})"
             + (f": {draft.header.title}" if draft.header.title else ""),
             *[f"  {said}" for said in draft.header.said],
             f"records: {len(read.records)} ("
             + ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())) + ")"]
    if read.dice:
        lines.append("dice mails: " + ", ".join(f"{server} {n}" for server, n in sorted(read.dice.items())))
    lines.append(f"needs the Minister: {len(read.problems) or 'nothing'}")
    lines += [f"  {p.message} -- {p.source.describe()}" for p in read.problems]
    lines.append(f"not recognised: {len(unread) or 'none'}")
    lines += [f"  {m.origin.describe()}" + (f" ({m.note})" if m.note else "") for m in unread]
    if read.skipped:
        lines.append(f"skipped: {len(read.skipped)}")
        lines += [f"  {s.where}: {s.reason}" for s in read.skipped]
    noted = [f"  {m.origin.where}: {n}" for m in read.messages for n in m.notes]
    if noted:
        lines += ["noticed:", *noted]
    if draft.replay is None:
        lines.append("the e-mails hold no game record: the draft has no [[event]] "
                     "(it reads once one is added)")
    lines.append(f"findings of the draft: {len(draft.findings) or 'none'}")
    for finding in draft.findings:
        lines.append(f"  {finding.finding}")
        lines += [f"    from {email}" for email in finding.emails]
    return lines


def summary_json(draft: MailDraft) -> dict[str, object]:
    """The summary as JSON (``minister mail --json``)."""
    read = draft.read

    def message(m: Message) -> dict[str, object]:
        origin = m.origin
        return {"where": origin.where, "from": origin.sender, "date": origin.date_text,
                "subject": origin.subject, "message_id": origin.message_id,
                "status": m.status, "note": m.note, "records": m.records,
                "notes": list(m.notes)}

    return {"format": "minister-mail/1", "mailbox": str(read.path), "game": draft.header.id,
            "edition": draft.header.edition, "records": len(read.records),
            "messages": [message(m) for m in read.messages],
            "skipped": [{"where": s.where, "reason": s.reason} for s in read.skipped],
            "needs_minister": [{"message": p.message, "email": p.source.describe(),
                                "at": p.at.isoformat() if p.at else None} for p in read.problems],
            "findings": [{"finding": f.finding, "emails": list(f.emails)} for f in draft.findings]}
