"""The desk's papers as the reviewed game shows them: every report, ruling and dice commitment
in full, with what became of it (in force, withdrawn, replaced; dice provisional or checkable)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.record.club_filing import APPROVED, conceded, side_of
from domain.record.entries import BoardNote, CommitmentEntry, DrawnEntry, RulingEntry
from domain.record.game import Game
from domain.review.views import Finding, Paper, counted


def papers_of(game: Game, findings: Sequence[Finding] = ()) -> tuple[Paper, ...]:
    """Reports, rulings and commitments in record order, each with its status; a ruling names
    the finding it was made on as the review numbers it now (``findings``), or says that
    finding no longer exists (a later correction removed it: the ruling is never moved)."""
    by_key = {finding.key: finding for finding in findings if finding.key}
    off = game.version - game.seq
    withdrawn = {w.target: w.seq + off for w in game.withdrawals}
    replaced = {e.amends: e.seq + off for e in game.reports if e.amends}
    replaced.update({e.amends: e.seq + off for e in game.rulings if e.amends})

    def status(seq: int) -> str:
        if seq in withdrawn:
            return f"withdrawn (event {withdrawn[seq]})"
        if seq in replaced:
            return f"replaced by event {replaced[seq]}"
        return "in force"

    def entered(seq: int, at: datetime | None) -> datetime | None:
        stamp = game.stamps[seq] if seq < len(game.stamps) else None
        return stamp if at is not None and stamp is not None and stamp != at else None

    found: list[tuple[int, Paper]] = []
    for report in game.reports:
        found.append((report.seq, Paper(report.seq + off, "report", report.at, report.by,
                                        report.battle or "the game", report.text, status(report.seq),
                                        entered(report.seq, report.at))))
    for ruling in game.rulings:
        about = f"{_ruled(ruling, by_key)}: {ruling.decision}" + (f", election {ruling.election}"
                                                                   if ruling.election else "")
        found.append((ruling.seq, Paper(ruling.seq + off, "ruling", ruling.at, ruling.by, about,
                                        ruling.text, status(ruling.seq),
                                        entered(ruling.seq, ruling.at))))
    for c, standing, draws in commitment_standing(game):
        count = sum(len(d.dice) for d in draws)
        if standing == REVEALED:
            state = "revealed: its dice can be checked (minister verify --dice)"
        elif standing == ABANDONED:
            state = f"abandoned unrevealed: its {counted(count, 'die', 'dice')} can never be checked"
        else:
            verb = "is" if count == 1 else "are"
            state = (f"open: {counted(count, 'die', 'dice')} drawn {verb} provisional until the secret is "
                     "revealed")
        found.append((c.seq, Paper(c.seq + off, "commitment", c.at, c.by, c.scheme, c.commitment, state)))
    found += [(note.seq, paper) for note, paper in _closing(game, off)]
    return tuple(paper for _, paper in sorted(found, key=lambda pair: pair[0]))


def _ruled(ruling: RulingEntry, by_key: dict[str, Finding]) -> str:
    """The finding a ruling is on, as the review numbers it now."""
    if ruling.key is None:
        return ruling.finding  # a record made before identities were kept: as it named it
    found = by_key.get(ruling.key)
    if found is None:
        kind, turn, battle = [*ruling.key.split("|"), "", "", ""][:3]
        where = ", ".join(part for part in (turn, battle) if part)
        return (f"{ruling.finding} as it stood when ruled ({kind}{', ' + where if where else ''}): that "
                "finding no longer exists")
    if found.id == ruling.finding:
        return found.id
    return f"{found.id} (named {ruling.finding} when ruled)"


#: 2008 Game Commitments: a player who quits forfeits the game.
_QUIT = ("2008 Game Commitments: \"If you quit at any time after the bid submission you will forfeit "
         "the game\"")


def _closing(game: Game, off: int) -> list[tuple[BoardNote, Paper]]:
    """Forfeit requests, the Minister's decisions on them, and concessions, with what each did."""
    found: list[tuple[BoardNote, Paper]] = []
    request: BoardNote | None = None
    closed = conceded(game.board_log)
    for note in game.board_log:
        if note.kind == "forfeit_request":
            answer = next((n for n in game.board_log if n.seq > note.seq
                           and n.kind in ("forfeit_request", "forfeit_decision")), None)
            status = ("awaiting the Minister of Law's decision (2008 Forfeits)"
                      if answer is None or answer.kind != "forfeit_decision" else
                      f"{answer.result.replace('_', ' ')} (event {answer.seq + off})")
            found.append((note, Paper(note.seq + off, "forfeit_request", note.at, note.by,
                                      f"a forfeit victory for the {side_of(note.by)}", note.text, status)))
            request = note
        elif note.kind == "forfeit_decision" and request is not None:
            if note.result == APPROVED:
                status = (f"approved: a forfeit victory for the {side_of(request.by)}, the game is closed "
                          "(2008 Forfeits)")
            else:
                status = "not approved: the game goes on (2008 Forfeits)"
            found.append((note, Paper(note.seq + off, "forfeit_decision", note.at, note.by,
                                      f"the forfeit request of event {request.seq + off}", note.text,
                                      status)))
            request = None
        elif note.kind == "concession":
            winner = "Allies" if side_of(note.by) == "Axis" else "Axis"
            status = (f"the game is over, won by the {winner} ({_QUIT})" if closed and closed[0] is note
                      else "the game was over already")
            found.append((note, Paper(note.seq + off, "concession", note.at, note.by, "the game",
                                      note.text, status)))
    return found


#: What became of a dice commitment: its secret revealed (its dice can be checked), still open
#: (they cannot be checked yet), or abandoned unrevealed by a later commitment (never).
REVEALED, OPEN, ABANDONED = "revealed", "open", "abandoned"


def commitment_standing(game: Game) -> list[tuple[CommitmentEntry, str, list[DrawnEntry]]]:
    """Each commitment, what became of it, and the draws made under it (until the next one)."""
    revealed = {r.commitment for r in game.reveals}
    drawn = [d for b in (*game.battles, *game.withdrawn) for d in b.draws]
    ends = [*(c.seq for c in game.commitments[1:]), game.seq + 1]
    found = []
    for c, end in zip(game.commitments, ends, strict=False):  # ends has one more: the end of the game
        draws = sorted((d for d in drawn if c.seq < d.seq < end), key=lambda d: d.seq)
        if c.commitment in revealed:
            standing = REVEALED
        elif end <= game.seq:
            standing = ABANDONED
        else:
            standing = OPEN
        found.append((c, standing, draws))
    return found
