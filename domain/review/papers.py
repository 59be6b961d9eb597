"""The desk's papers as the reviewed game shows them: every report, ruling and dice commitment
in full, with what became of it (in force, withdrawn, replaced; dice provisional or checkable)."""

from __future__ import annotations

from datetime import datetime

from domain.record.entries import CommitmentEntry, DrawnEntry
from domain.record.game import Game
from domain.review.views import Paper


def papers_of(game: Game) -> tuple[Paper, ...]:
    """Reports, rulings and commitments in record order, each with its status."""
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
        about = f"{ruling.finding}: {ruling.decision}" + (f", election {ruling.election}"
                                                          if ruling.election else "")
        found.append((ruling.seq, Paper(ruling.seq + off, "ruling", ruling.at, ruling.by, about,
                                        ruling.text, status(ruling.seq),
                                        entered(ruling.seq, ruling.at))))
    for c, standing, draws in commitment_standing(game):
        count = sum(len(d.dice) for d in draws)
        if standing == REVEALED:
            state = "revealed: its dice can be checked (minister verify --dice)"
        elif standing == ABANDONED:
            state = f"abandoned unrevealed: its {count} dice can never be checked"
        else:
            state = f"open: {count} dice drawn are provisional until the secret is revealed"
        found.append((c.seq, Paper(c.seq + off, "commitment", c.at, c.by, c.scheme, c.commitment, state)))
    return tuple(paper for _, paper in sorted(found, key=lambda pair: pair[0]))


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
