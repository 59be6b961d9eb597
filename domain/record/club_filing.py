"""How the fold files what else a real game records: strategic bombing raids, rockets, IPCs paid
to enter a neutral, forfeit requests and decisions, concessions (docs/format-extensions.md).

Each is one :class:`~domain.record.entries.BoardNote` in the game's ``board_log``, in record order
beside the purchases and map updates: the treasury reads the IPC losses from there
(:mod:`domain.record.ipc_changes`), the club's procedures the game's end
(:mod:`domain.review.club_procedures`), the papers the forfeits and concessions
(:mod:`domain.review.papers`). Like every entry, a note carries its record number, so time travel
(``Game.at``) keeps exactly the notes filed by then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from domain.record.entries import BoardNote
from domain.record.events import (
    BombingRecorded,
    ForfeitDecided,
    ForfeitRequested,
    GameConceded,
    NeutralEntered,
    RocketFired,
)
from domain.record.intake import known_territory
from domain.rules.units import AXIS


class Game(Protocol):
    """What filing a note needs of the Game (domain.record.game, which merges :data:`FILERS`):
    the record number being filed and the board log."""

    seq: int
    board_log: list[BoardNote]


def _place(name: str, resolved: str) -> str:
    """The canonical name the event carries, else the name read now (events stored earlier)."""
    return resolved or known_territory(name) or name


def _bombing(game: Game, event: BombingRecorded) -> None:
    game.board_log.append(BoardNote(game.seq, "bombing", event.turn, event.at, event.source_line,
                                    territory=_place(event.target, event.territory), dice=event.dice,
                                    text=event.text))


def _rocket(game: Game, event: RocketFired) -> None:
    game.board_log.append(BoardNote(game.seq, "rocket", event.turn, event.at, event.source_line,
                                    territory=_place(event.target, event.territory),
                                    origin=_place(event.launcher, ""), dice=event.dice,
                                    text=event.text))


def _neutral(game: Game, event: NeutralEntered) -> None:
    game.board_log.append(BoardNote(game.seq, "neutral", event.turn, event.at, event.source_line,
                                    territory=_place(event.neutral, event.territory), text=event.text))


def _forfeit_request(game: Game, event: ForfeitRequested) -> None:
    game.board_log.append(BoardNote(game.seq, "forfeit_request", "", event.at, event.source_line,
                                    by=event.by, text=event.text))


def _forfeit_decision(game: Game, event: ForfeitDecided) -> None:
    game.board_log.append(BoardNote(game.seq, "forfeit_decision", "", event.at, event.source_line,
                                    result=event.decision, by=event.by, text=event.text))


def _concession(game: Game, event: GameConceded) -> None:
    game.board_log.append(BoardNote(game.seq, "concession", "", event.at, event.source_line,
                                    by=event.by, text=event.text))


#: 2008 Forfeits: "If the forfeit request is approved the Minister of Law will notify both
#: parties, issue the forfeit victory and close out the game."
APPROVED = "approved"


def ends_game(note: BoardNote) -> bool:
    """Whether a record ends the game: a finish posted, a concession, a forfeit approved."""
    return note.kind in ("finish", "concession") or (note.kind == "forfeit_decision"
                                                     and note.result == APPROVED)


def side_of(party: str) -> str:
    """"Axis" or "Allies": the side a power or a side named belongs to."""
    return "Axis" if party in ("Axis", *AXIS) else "Allies"


def conceded(log: list[BoardNote]) -> tuple[BoardNote, str] | None:
    """The record's first concession or approved forfeit, and the side it gives the game to: the
    side that did not concede (2008 Game Commitments: "If you quit at any time after the bid
    submission you will forfeit the game"); the side that requested the forfeit (2008 Forfeits:
    the Minister of Law will "issue the forfeit victory and close out the game")."""
    request: BoardNote | None = None
    for note in log:
        if note.kind == "forfeit_request":
            request = note
        elif note.kind == "concession":
            return note, "Allies" if side_of(note.by) == "Axis" else "Axis"
        elif note.kind == "forfeit_decision" and note.result == APPROVED and request is not None:
            return note, side_of(request.by)
    return None


#: Event type -> how the fold files it (merged into domain.record.game's table).
FILERS: dict[type[Any], Callable[[Game, Any], None]] = {
    BombingRecorded: _bombing, RocketFired: _rocket, NeutralEntered: _neutral,
    ForfeitRequested: _forfeit_request, ForfeitDecided: _forfeit_decision, GameConceded: _concession,
}
