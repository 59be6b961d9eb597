"""What a walk of the board keeps so that a later walk may resume it (see
:mod:`domain.record.board_resume`): its marks and what its steps read. Data only: the walk's
result (:class:`~domain.record.board_walk.BoardWalk`) carries them, the resume reads them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from domain.rules.forces import Force


@dataclass(frozen=True)
class Mark:
    """What the walker held just before record ``seq`` (no step of it walked yet) that its
    history does not tell; never changed once taken (a resumed walk shares the marks before its
    resume point)."""

    seq: int
    started: bool
    turn: str | None
    turn_at: datetime | None
    updated: bool
    listed: bool
    bid_seq: int | None
    treasury: dict[str, int]
    pending: dict[str, Force]
    #: The aircraft put back whose entries changed since the mark before (the marks of a walk
    #: make its whole ``unlanded`` when merged in order: see rebuild).
    unlanded: dict[tuple[str, str], tuple[tuple[str, Force], ...]]
    #: The logs' lengths then: discrepancies, counts, round ends, control log, known, adopted.
    lengths: tuple[int, int, int, int, int, int]


@dataclass
class WalkInputs:
    """What a walk's steps read (see the module docstring), and its marks."""

    #: Whether the walk is as corrected (it reads the walk as rolled's adopted units).
    corrected: bool
    from_setup: bool
    #: Each battle's (declaration, last record number), in the game's order.
    places: list[tuple[int, int]]
    #: A digest of the results the walk was told for each block of battles in a row
    #: (domain.record.board_resume.BLOCK).
    results: list[bytes]
    #: How many board records and non-combat moves were walked, and the last one's number.
    notes: tuple[int, int]
    noncombat: tuple[int, int]
    #: (bid record number, key asked, whether it was ruled off) for every bid placement.
    asked: list[tuple[int, str, bool]]
    #: The walk as rolled's adopted units read at positions (a walk as corrected), else None.
    written: dict[tuple[int, str, str], Force] | None
    marks: list[Mark]
