"""Every drawn die of a game checked again, offline (``minister verify --dice``, and the bundle's
check): against the revealed secret, the commitment recorded before it, and the throw the game
awaited when it was drawn.

What each roll comes out as:

* **checked**: its commitment was revealed, the secret opens it, the roll is the throw the
  battle awaited at that point (derived again, :mod:`application.usecases.desk.throws`) and its
  dice are what the secret gives for it;
* a **problem** (the record was changed, or not made by minister): another throw than the one
  awaited under ``minister-dice/3``, dice the secret does not give, a sequence number repeated
  or missing, a secret that does not open its commitment;
* **unverified**: dice nobody can check, named one by one: drawn under a commitment not revealed
  yet (pending) or abandoned unrevealed (never), or under ``minister-dice/2`` for a purpose or a
  count the game did not await (its purpose was free text: the holder of the secret could have
  chosen those dice). ``verify`` fails on them unless ``--allow-unverified``;
* **legacy**: ``minister-dice/1`` rolls from the game's clear ``dice_seed`` (tests and demos).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from application.adapters.app import MinisterApplication
from application.usecases.desk.throws import awaited_throw
from domain.battle.dice import (
    COMMIT_SCHEMES,
    SCHEME_2,
    SCHEME_3,
    RollKey,
    opens,
    roll_committed,
    roll_dice,
    roll_throw,
    verify_commitment,
    verify_roll,
)
from domain.errors import MinisterError
from domain.record.events import DiceCommitted, DiceDrawn, DiceRevealed, GameEvent, GameStarted
from domain.record.game import Game
from domain.record.intake import battle_territory


@dataclass
class DiceCheck:
    """What ``verify --dice`` found: rolls checked, rolls nobody can check, and every problem."""

    game_id: str
    rolls: int
    problems: list[str] = field(default_factory=list)
    #: Rolls drawn from a commitment not yet revealed (they cannot be checked yet).
    pending: int = 0
    #: Rolls of the legacy scheme (minister-dice/1: count, battle and purpose not covered).
    legacy: int = 0
    checked: int = 0
    #: Rolls drawn from a commitment abandoned unrevealed (they can never be checked).
    abandoned: int = 0
    #: Each roll that cannot be checked, and why (pending, abandoned, or a free purpose).
    unverified: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every checkable roll reproduced and no sequence number is repeated or missing."""
        return not self.problems

    @property
    def verified(self) -> bool:
        """Whether every roll was checked: no problem and none that cannot be checked."""
        return not self.problems and not self.unverified


@dataclass
class _Commitment:
    """A commitment as the events give it: its scheme, its secret once revealed, and whether a
    later commitment abandoned it unrevealed."""

    scheme: str
    secret: str | None = None
    abandoned: bool = False


def check_events(game_id: str, events: Sequence[GameEvent], game: Game) -> DiceCheck:
    """Re-check every drawn die of a game's events, offline; ``game`` is the game they fold
    into (the game before each roll is derived from it)."""
    if not events or not isinstance(events[0], GameStarted):
        raise MinisterError(f"game {game_id!r} does not start with GameStarted")
    started = events[0]
    problems: list[str] = []
    commitments: dict[str, _Commitment] = {}
    current: str | None = None
    draws: list[tuple[DiceDrawn, str | None]] = []
    for event in events:
        if isinstance(event, DiceCommitted):
            if current is not None:
                commitments[current].abandoned = True
            commitments[event.commitment] = _Commitment(event.scheme)
            current = event.commitment
        elif isinstance(event, DiceRevealed):
            problems += _reveal_problems(event, commitments)
            current = None if current == event.commitment else current
        elif isinstance(event, DiceDrawn):
            draws.append((event, current))
    problems += _sequence_problems([d for d, _ in draws])
    check = DiceCheck(game_id, len(draws))
    for event, sealed in draws:
        if sealed is None:
            check.legacy += 1
            problems += _legacy_problems(game_id, started, event)
            continue
        made = commitments[sealed]
        if made.secret is None:
            if made.abandoned:
                check.abandoned += 1
                check.unverified.append(f"{_where(event)}: drawn under commitment {sealed[:16]}…, "
                                        "abandoned unrevealed: it can never be checked")
            else:
                check.pending += 1
                check.unverified.append(f"{_where(event)}: drawn under commitment {sealed[:16]}…, "
                                        "not revealed yet: it cannot be checked until it is")
            continue
        found, unverified = _committed_problems(game_id, sealed, made, event, game)
        problems += found
        check.unverified.extend(unverified)
        if not found and not unverified:
            check.checked += 1
    check.problems.extend(dict.fromkeys(problems))
    return check


def _reveal_problems(event: DiceRevealed, commitments: dict[str, _Commitment]) -> list[str]:
    made = commitments.get(event.commitment)
    if made is None:
        return [f"event {event.originator_version} reveals a secret for commitment "
                f"{event.commitment[:16]}…, which was never committed"]
    if made.scheme not in COMMIT_SCHEMES:
        return [f"commitment {event.commitment[:16]}… names the dice scheme {made.scheme!r}, which "
                f"minister does not know (expected one of {', '.join(COMMIT_SCHEMES)})"]
    if not opens(event.secret, event.commitment, made.scheme):
        return [f"event {event.originator_version}: the revealed secret does not open commitment "
                f"{event.commitment[:16]}…"]
    made.secret = event.secret
    return []


def _sequence_problems(drawn: list[DiceDrawn]) -> list[str]:
    problems = []
    counts = Counter(event.sequence for event in drawn)
    for sequence, times in sorted(counts.items()):
        if times > 1:
            versions = ", ".join(str(e.originator_version) for e in drawn if e.sequence == sequence)
            problems.append(f"roll #{sequence} is recorded {times} times (events {versions})")
    top = max(counts) if counts else -1
    missing = [n for n in range(top + 1) if n not in counts]
    if missing:
        problems.append("rolls missing: " + ", ".join(f"#{n}" for n in missing))
    return problems


def _where(event: DiceDrawn) -> str:
    return f"roll #{event.sequence} (event {event.originator_version}, {event.battle}, {event.purpose})"


def _committed_problems(game_id: str, sealed: str, made: _Commitment, event: DiceDrawn,
                        game: Game) -> tuple[list[str], list[str]]:
    """(problems, reasons it cannot be checked) of a roll whose commitment was revealed."""
    assert made.secret is not None
    try:
        territory = battle_territory(event.battle)
    except ValueError:
        territory = ""
    if territory != event.territory:
        return [f"{_where(event)} names battle {event.battle!r} but is filed under {event.territory!r}"], []
    count = len(event.dice)
    before = game.at(event.originator_version - 1)
    try:
        awaited = awaited_throw(before, event.territory, event.turn)
    except MinisterError as error:
        return [f"{_where(event)}: {error}"], []
    if made.scheme == SCHEME_3:
        if awaited is None:
            return [f"{_where(event)}: {event.territory} awaited no dice when it was drawn"], []
        need, throw = awaited
        if (event.purpose, count) != (need.purpose, throw.count):
            return [f"{_where(event)} was drawn for {event.purpose!r} ({count} dice), but the battle "
                    f"awaited {need.purpose!r} ({throw.count} dice): under minister-dice/3 the throw "
                    "is derived by the program, never chosen"], []
        expected = roll_throw(made.secret, sealed, game_id, event.sequence, event.territory, throw)
    else:  # minister-dice/2 (the scheme was checked when the secret was revealed)
        assert made.scheme == SCHEME_2
        key = RollKey(sealed, game_id, event.sequence, event.territory, event.purpose, count)
        expected = roll_committed(made.secret, key)
    if list(event.dice) != expected:
        return [f"{_where(event)} does not reproduce: recorded {' '.join(map(str, event.dice))}, the "
                f"revealed secret gives {' '.join(map(str, expected))} for {count} dice (the MAC "
                f"covers the count, battle and purpose)"], []
    if made.scheme == SCHEME_2 and (awaited is None or (event.purpose, count)
                                    != (awaited[0].purpose, awaited[1].count)):
        wanted = (f"{awaited[0].purpose!r} ({awaited[1].count} dice)" if awaited is not None
                  else "no dice")
        return [], [f"{_where(event)}: drawn under minister-dice/2 for {event.purpose!r} ({count} "
                    f"dice) while the battle awaited {wanted}: that scheme's purpose was free "
                    "text, so whoever held the secret could have chosen these dice"]
    return [], []


def _legacy_problems(game_id: str, started: GameStarted, event: DiceDrawn) -> list[str]:
    seed = started.dice_seed
    if seed is None:
        return [f"{_where(event)} was drawn from no commitment (nothing to check it against)"]
    problems = []
    if started.dice_commitment is not None and not verify_commitment(seed, started.dice_commitment):
        problems.append(f"the revealed dice_seed does not match the published commitment "
                        f"{started.dice_commitment}")
    if not verify_roll(game_id, seed, event.sequence, len(event.dice), event.dice):
        expected = roll_dice(game_id, seed, event.sequence, len(event.dice))
        problems.append(f"{_where(event)} does not reproduce: recorded "
                        f"{' '.join(map(str, event.dice))}, the seed gives {' '.join(map(str, expected))}")
    return problems


def check_dice(app: MinisterApplication, game_id: str) -> DiceCheck:
    """Re-check every roll of a stored game (``minister verify --dice``)."""
    game = app.game(game_id)  # raises UnknownGameError, or TamperedError for a broken chain
    return check_events(game_id, app.game_events(game_id), game)
