"""How the fold files the desk's papers: reports and rulings (with their amendments and
withdrawals), and the Minister's dice commitments and reveals. Each is an entry of its own list
on the Game, carrying its record number, so time travel (``Game.at``) keeps exactly the papers
filed by then; the review reads them (:mod:`domain.review.decisions`, :mod:`domain.review.papers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from domain.record.entries import (
    CommitmentEntry,
    ReportEntry,
    RevealEntry,
    Ruling,
    RulingEntry,
    WithdrawalEntry,
)
from domain.record.events import (
    DiceCommitted,
    DiceRevealed,
    EntryWithdrawn,
    GameEvent,
    ReportAmended,
    ReportFiled,
    RulingGiven,
    RulingIssued,
)
from domain.record.intake import known_territory


class _Game(Protocol):
    """What filing a paper needs of the Game (domain.record.game, which merges :data:`FILERS`)."""

    seq: int
    reports: list[ReportEntry]
    rulings: list[RulingEntry]
    withdrawals: list[WithdrawalEntry]
    commitments: list[CommitmentEntry]
    reveals: list[RevealEntry]


def _place(name: str | None) -> str | None:
    """A record's ``battle`` as its canonical territory (None: none named, or no territory)."""
    return known_territory(name) if name is not None else None


def _file_report(game: _Game, event: ReportFiled) -> None:
    game.reports.append(ReportEntry(game.seq, event.by, event.text, event.battle, event.at,
                                    event.source_line, _place(event.battle), turn=event.turn))


def _file_ruling(game: _Game, event: RulingIssued) -> None:
    game.rulings.append(RulingEntry(game.seq, event.finding, Ruling(event.decision), event.election,
                                    event.text, event.at, event.source_line, turn=event.turn,
                                    territory=_place(event.battle), key=event.finding_key))


def _seq_of(game: _Game, event: GameEvent, version: int) -> int:
    """The record number of the event ``version`` (``event`` is being filed as ``game.seq``)."""
    return version - (event.originator_version - game.seq)


def _file_report_amended(game: _Game, event: ReportAmended) -> None:
    game.reports.append(ReportEntry(game.seq, event.by, event.text, event.battle, event.at,
                                    event.source_line, _place(event.battle),
                                    amends=_seq_of(game, event, event.amends), turn=event.turn))


def _file_ruling_given(game: _Game, event: RulingGiven) -> None:
    amends = _seq_of(game, event, event.amends) if event.amends is not None else 0
    game.rulings.append(RulingEntry(game.seq, event.finding, Ruling(event.decision), event.election,
                                    event.text, event.at, event.source_line, by=event.by, amends=amends,
                                    turn=event.turn, territory=_place(event.battle),
                                    key=event.finding_key))


def _file_withdrawal(game: _Game, event: EntryWithdrawn) -> None:
    game.withdrawals.append(WithdrawalEntry(game.seq, _seq_of(game, event, event.withdraws), event.by,
                                            event.text, event.at))


def _file_commitment(game: _Game, event: DiceCommitted) -> None:
    game.commitments.append(CommitmentEntry(game.seq, event.commitment, event.scheme, event.by, event.at))


def _file_reveal(game: _Game, event: DiceRevealed) -> None:
    game.reveals.append(RevealEntry(game.seq, event.commitment, event.secret, event.at))


#: Event type -> how the fold files it (merged into domain.record.game's table).
FILERS: dict[type[Any], Callable[[Any, Any], None]] = {
    ReportFiled: _file_report, RulingIssued: _file_ruling, ReportAmended: _file_report_amended,
    RulingGiven: _file_ruling_given, EntryWithdrawn: _file_withdrawal, DiceCommitted: _file_commitment,
    DiceRevealed: _file_reveal,
}
