"""Verifiable dice for stored games: ``minister roll`` and ``minister verify --dice``.

A game's commit–reveal source (:mod:`domain.battle.dice`, ``minister-dice/1``) is seeded by the
``dice_seed`` of its record; ``GameStarted.dice_commitment`` publishes the seed's commitment
before any die is drawn. Every roll takes the game's next sequence number (0, 1, 2, …) and is
recorded as a :class:`domain.record.events.DiceDrawn` event, so a repeated or missing roll shows as a
repeated or missing sequence number. Two processes rolling at once clash on the event version;
the loser reads the game afresh and rolls the next sequence number (:meth:`append`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from application.app import MinisterApplication
from domain.battle.dice import roll_dice, verify_commitment, verify_roll
from domain.errors import MinisterError
from domain.record.events import DiceDrawn, GameEvent, GameStarted, ReportFiled, game_uuid
from domain.record.game import Game
from domain.record.intake import battle_territory


def _drawn_events(app: MinisterApplication, game_id: str) -> list[DiceDrawn]:
    """The game's DiceDrawn events in record order (only those rows are decoded)."""
    rows: Any = app.recorder.select_events(game_uuid(game_id))
    found = []
    for row in rows:
        if row.topic == DiceDrawn.TOPIC:
            event = app.mapper.to_domain_event(row)
            assert isinstance(event, DiceDrawn)
            found.append(event)
    return found


def next_sequence(app: MinisterApplication, game_id: str) -> int:
    """The sequence number the game's next roll takes."""
    drawn = _drawn_events(app, game_id)
    return max(event.sequence for event in drawn) + 1 if drawn else 0


def record_time(game: Game, now: datetime | None) -> datetime:
    """When a record made now is recorded: the clock, never before the game's last record."""
    # A game's events happen in order (time travel searches by time), so a clock behind the
    # last record never puts a roll before it.
    moment = now if now is not None else datetime.now(UTC)
    return max(moment, game.modified_on)


def draw(app: MinisterApplication, game_id: str, battle: str, count: int, purpose: str = "roll",
         *, now: datetime | None = None) -> DiceDrawn:
    """Roll ``count`` dice for ``battle`` from the game's verifiable source and record them."""
    if count < 1:
        raise MinisterError(f"expected --count of at least 1 die, found {count!r}")

    def build(game: Game) -> list[GameEvent]:
        if game.dice_seed is None:
            raise MinisterError(f"game {game_id!r} has no dice_seed: its record sets no verifiable "
                                "dice source")
        try:
            game.battle(battle)
        except (KeyError, MinisterError):
            raise MinisterError(f"game {game_id!r} has no declared battle {battle!r}") from None
        sequence = next_sequence(app, game_id)
        at = record_time(game, now)
        return [DiceDrawn(originator_id=game.id, originator_version=game.version + 1, timestamp=at,
                          at=at, battle=battle, territory=battle_territory(battle),
                          sequence=sequence, purpose=purpose,
                          dice=tuple(roll_dice(game_id, game.dice_seed, sequence, count)))]

    [event] = app.append(game_id, build)
    assert isinstance(event, DiceDrawn)
    return event


def file_report(app: MinisterApplication, game_id: str, by: str, text: str,
                battle: str | None = None, *, now: datetime | None = None) -> ReportFiled:
    """Record a correction request (a report) at the end of a stored game."""

    def build(game: Game) -> list[GameEvent]:
        at = record_time(game, now)
        return [ReportFiled(originator_id=game.id, originator_version=game.version + 1,
                            timestamp=at, at=at, by=by, text=text, battle=battle)]

    [event] = app.append(game_id, build)
    assert isinstance(event, ReportFiled)
    return event


@dataclass(frozen=True)
class DiceCheck:
    """What ``verify --dice`` found: rolls checked and every problem, in record order."""

    game_id: str
    rolls: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every roll reproduced and no sequence number is repeated or missing."""
        return not self.problems


def check_dice(app: MinisterApplication, game_id: str) -> DiceCheck:
    """Re-check every DiceDrawn of a stored game against its revealed seed, offline."""
    first: Any = list(app.events.get(game_uuid(game_id), lte=1))
    if not first or not isinstance(first[0], GameStarted):
        app.game(game_id)  # raises UnknownGameError naming the game
        raise MinisterError(f"game {game_id!r} does not start with GameStarted")
    started: GameStarted = first[0]
    drawn = _drawn_events(app, game_id)
    problems: list[str] = []
    seed = started.dice_seed
    if started.dice_commitment is not None and seed is not None \
            and not verify_commitment(seed, started.dice_commitment):
        problems.append(f"the revealed dice_seed does not match the published commitment "
                        f"{started.dice_commitment}")
    if drawn and seed is None:
        problems.append(f"{len(drawn)} rolls cannot be checked: the game reveals no dice_seed")
        return DiceCheck(game_id, len(drawn), problems)
    counts = Counter(event.sequence for event in drawn)
    for sequence, times in sorted(counts.items()):
        if times > 1:
            versions = ", ".join(str(e.originator_version) for e in drawn if e.sequence == sequence)
            problems.append(f"roll #{sequence} is recorded {times} times (events {versions})")
    top = max(counts) if counts else -1
    missing = [n for n in range(top + 1) if n not in counts]
    if missing:
        problems.append("rolls missing: " + ", ".join(f"#{n}" for n in missing))
    for event in drawn:
        assert seed is not None
        if not verify_roll(game_id, seed, event.sequence, len(event.dice), event.dice):
            expected = roll_dice(game_id, seed, event.sequence, len(event.dice))
            problems.append(
                f"roll #{event.sequence} (event {event.originator_version}, {event.battle}, "
                f"{event.purpose}) does not reproduce: recorded "
                f"{' '.join(map(str, event.dice))}, the seed gives {' '.join(map(str, expected))}")
    return DiceCheck(game_id, len(drawn), problems)
