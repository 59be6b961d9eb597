"""The claimed time of a record entered late: when the e-mail was sent or the dice server rolled,
kept apart from when minister stored it.

A report, ruling or dice record may be entered after later records (the e-mail read days later),
so its claimed time (``at``) may be earlier than the records before it; time travel and the
timeline go by the recording time (the event's ``timestamp``, always in record order), the rules
by the claimed one (2008 Section VII: a report is in time by when it was sent). A claimed time is
refused when no such e-mail can have been sent then.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from domain.errors import MinisterError
from domain.record.game import Game

__all__ = ["battle_rolled", "claimed_time_problem", "game_start"]


def claimed_time_problem(claimed: datetime, recorded: datetime, *, start: datetime | None,
                         battle: str | None = None, rolled: datetime | None = None,
                         skew: timedelta = timedelta(0)) -> str | None:
    """What is wrong with ``claimed`` for a record stored at ``recorded`` in a game that started
    at ``start`` (None: nothing).

    A record cannot claim a time after it was stored (``skew``: a clock ahead of the Minister's),
    before the game's first record, or, naming a battle, before that battle's dice were rolled
    (there was nothing to report and nothing to re-roll).
    """
    if claimed > recorded + skew:
        return (f"{_iso(claimed)} is in the future of its entry ({_iso(recorded)}): expected the "
                "e-mail's or dice server's time, at or before its entry")
    if start is not None and claimed < start:
        return (f"{_iso(claimed)} is before the game's start ({_iso(start)}): expected a time at "
                "or after the game's first record")
    if battle is not None and rolled is not None and claimed < rolled:
        return (f"{_iso(claimed)} is before the battle {battle} was rolled ({_iso(rolled)}): "
                "expected a time at or after its first dice-server record")
    return None


def game_start(game: Game) -> datetime | None:
    """When the game started: its first record's recording time."""
    return game.stamps[0] if game.stamps else None


def battle_rolled(game: Game, name: str, territory: str = "",
                  turn: str | None = None) -> tuple[str, datetime | None] | None:
    """The battle a record names (in ``turn`` when it names one), as ``"territory (turn)"``, and
    when its first dice were rolled (None: the game has no such battle; the fold says so)."""
    try:
        record = game.battle(name, turn, territory=territory)
    except (KeyError, ValueError, MinisterError):
        return None
    return f"{record.territory} ({record.turn})", record.rolls[0].at if record.rolls else None


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")
