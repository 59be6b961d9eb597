"""What every use case of the desk checks first: the time given, the battle named."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.errors import InvalidNotationError, MinisterError
from domain.record.claimed import claimed_time_problem, game_start
from domain.record.entries import BattleRecord
from domain.record.events import GameEvent
from domain.record.game import Game, parse_turn, turn_label
from domain.record.references import BadReference, named_battle

#: A clock a little ahead of the Minister's is not an error.
_SKEW = timedelta(minutes=5)


def record_time(game: Game, now: datetime | None) -> datetime:
    """When a record made now is recorded: the clock, never before the game's last record."""
    # Events are recorded in order (time travel searches by recording time), so a clock behind
    # the last record never puts a record before it.
    moment = now if now is not None else datetime.now(UTC)
    return max(moment, game.modified_on, game.stamps[-1] if game.stamps else game.modified_on)


def checked_time(game: Game, at: datetime | None, now: datetime | None,
                 battle: BattleRecord | None = None) -> tuple[datetime, datetime]:
    """(recorded, claimed): when the record is stored (now, in record order) and the time it
    claims, ``--at`` (the e-mail's or dice server's time, which the rules use), else the same.

    ``--at`` may be earlier than the game's last record (an e-mail entered after later rolls),
    but not in the future, before the game's start, or before ``battle`` was rolled
    (domain.record.claimed)."""
    recorded = record_time(game, now)
    if at is None:
        return recorded, recorded
    if at.tzinfo is None:
        raise MinisterError(f"--at {at.isoformat()}: expected a time with its zone "
                            "(2008-03-01T11:00:00Z)")
    clock = now if now is not None else datetime.now(UTC)
    rolled = battle.rolls[0].at if battle is not None and battle.rolls else None
    problem = claimed_time_problem(at, max(clock, recorded), start=game_start(game), skew=_SKEW,
                                   rolled=rolled,
                                   battle=f"{battle.territory} ({battle.turn})" if battle else None)
    if problem is not None:
        raise MinisterError(f"--at {problem}")
    return recorded, at


def parse_at(text: str | None) -> datetime | None:
    """``--at`` as given on the command line (RFC 3339 with zone)."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise MinisterError(f"--at {text!r}: expected an RFC 3339 time with zone, such as "
                            "2008-03-01T11:00:00Z") from None
    if moment.tzinfo is None:
        raise MinisterError(f"--at {text!r}: expected a time with its zone (Z or +01:00)")
    return moment


def battle_of(game: Game, name: str, turn: str | None = None) -> BattleRecord:
    """The game's battle called ``name`` (in ``turn`` when given); else an error naming the
    option at fault and listing the battles it may be (domain.record.references: two battles
    in one territory need ``--turn``)."""
    try:
        return named_battle(game, name, turn)
    except BadReference as error:
        raise MinisterError(f"--{error.part} {error.message}") from None


def turn_given(turn: str, option: str = "--turn") -> str:
    """The canonical label of a turn given as ``option`` ("uk 2" -> "UK 2"), else an error."""
    try:
        return turn_label(*parse_turn(turn))
    except InvalidNotationError:
        raise MinisterError(f"{option} {turn!r}: expected a turn such as 'USSR 3' (power and game "
                            "round)") from None


def event_dict(event: GameEvent) -> dict[str, Any]:
    """An event as the desk's JSON shows it: its number, kind and own fields (times as RFC 3339)."""
    data: dict[str, Any] = {"event": event.originator_version, "kind": type(event).__name__}
    for name, value in msgspec.to_builtins(event, enc_hook=_plain_time).items():
        if name not in _INTERNAL and value is not None:
            data[name] = value
    if event.at is not None and event.at != event.timestamp:
        # Entered after it happened: ``at`` is the claimed time, this when it was stored.
        data["entered"] = _plain_time(event.timestamp)
    return data


def _plain_time(value: Any) -> Any:
    """A ``datetime`` subclass (a test clock's) as RFC 3339 text, as msgspec writes a datetime."""
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


_INTERNAL = frozenset({"originator_id", "originator_version", "timestamp", "chain", "source_line"})
