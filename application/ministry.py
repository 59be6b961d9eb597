"""The Minister of Law's desk: correction requests and rulings recorded on a stored game.

A report's time decides whether an error is still correctable (2008 Section VII), so both are
recorded at the time they are made (the clock, never earlier than the game's last record).
A ruling names a finding by its id ("F2") or kind, and is checked against the game's findings
and the elections the rules give before it is recorded.
"""

from __future__ import annotations

from datetime import datetime

from application.app import MinisterApplication
from application.dicecmd import file_report, record_time
from domain.errors import MinisterError
from domain.record.entries import Ruling
from domain.record.events import GameEvent, ReportFiled, RulingIssued
from domain.record.game import Game
from domain.review.decisions import ELECTIONS, ruling_problem
from domain.review.game_review import review

DECISIONS = tuple(Ruling)


def report(app: MinisterApplication, game_id: str, by: str, text: str, battle: str | None = None,
           *, now: datetime | None = None) -> ReportFiled:
    """Record a correction request on a stored game."""
    if not by.strip() or not text.strip():
        raise MinisterError("a report needs --by (who asks) and --text (what is wrong)")
    return file_report(app, game_id, by, text, battle, now=now)


def rule(app: MinisterApplication, game_id: str, finding: str, decision: str, *,
         election: str | None = None, text: str = "", now: datetime | None = None) -> RulingIssued:
    """Record a ruling or election on one of the game's findings."""
    if decision not in DECISIONS:
        raise MinisterError(f"expected --decision one of {', '.join(DECISIONS)}, found {decision!r}")
    elections = sorted({e for options in ELECTIONS.values() for e in options})
    if election is not None and election not in elections:
        raise MinisterError(f"expected --election one of {', '.join(elections)}, found {election!r}")

    def build(game: Game) -> list[GameEvent]:
        problem = ruling_problem(review(game).findings, finding, election, decision)
        if problem is not None:
            raise MinisterError(f"game {game_id!r}: {problem}")
        at = record_time(game, now)
        return [RulingIssued(originator_id=game.id, originator_version=game.version + 1, timestamp=at,
                             at=at, finding=finding, decision=decision, election=election, text=text)]

    [event] = app.append(game_id, build)
    assert isinstance(event, RulingIssued)
    return event
