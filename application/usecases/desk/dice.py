"""Dice for corrections, honestly: the dice server's entered as they are, or the Minister's own
drawn by commit–reveal (``minister-dice/2``, :mod:`domain.battle.dice`).

``commit`` records the hash of a fresh secret before any die is drawn (the secret goes to the
Minister's key file, :mod:`application.usecases.desk.keys`); ``roll`` draws the dice a battle awaits from
the secret, each roll bound by its MAC to the game, its sequence number, battle, purpose and
count; ``reveal`` records the secret, after which anyone re-checks every die offline
(:func:`check_events`, ``minister verify --dice``). Old records with a clear ``dice_seed``
(``minister-dice/1``) are still checked, with the scheme's weakness said.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from application.adapters.app import MinisterApplication
from application.intake.replayschema import MAX_DICE
from application.usecases.desk.common import battle_of, checked_time, record_time
from application.usecases.desk.keys import load_secret, save_secret
from domain.battle.dice import (
    SCHEME_2,
    RollKey,
    commitment_2,
    new_secret,
    opens,
    roll_committed,
    roll_dice,
    verify_commitment,
    verify_roll,
)
from domain.errors import MinisterError
from domain.record.entries import CommitmentEntry
from domain.record.events import (
    DiceCommitted,
    DiceDrawn,
    DiceRevealed,
    DiceSupplied,
    GameEvent,
    GameStarted,
)
from domain.record.game import Game
from domain.record.intake import battle_territory
from domain.review.game_review import review
from domain.review.views import DiceNeed

_DICE = re.compile(r"^[1-6\s,*]+$")
#: Draws ``roll`` makes at most without --count (a battle never needs more throws).
MAX_THROWS = 60


def open_commitment(game: Game) -> CommitmentEntry | None:
    """The game's last commitment not yet revealed (dice can be drawn from it)."""
    # Only the last one can be open: an earlier unrevealed one was abandoned (--abandon).
    last = game.commitments[-1] if game.commitments else None
    revealed = {r.commitment for r in game.reveals}
    return last if last is not None and last.commitment not in revealed else None


def next_sequence(game: Game) -> int:
    """The sequence number the game's next roll takes (one count for all its rolls)."""
    numbers = [entry.sequence for battle in (*game.battles, *game.withdrawn) for entry in battle.draws]
    return max(numbers, default=-1) + 1


def commit(app: MinisterApplication, game_id: str, keys: Path, *, by: str = "",
           now: datetime | None = None, abandon: bool = False) -> DiceCommitted:
    """Record the commitment to a fresh secret; the secret goes to the key file, never the record.

    ``abandon``: commit although one is open (its key file was lost: its dice stay unchecked)."""
    game = app.game(game_id)
    if open_commitment(game) is not None and not abandon:
        raise MinisterError(f"game {game_id!r} has an open dice commitment: reveal it first "
                            "(`minister reveal`), then commit again (if its key file is lost, "
                            "--abandon it: its dice can then never be checked)")
    secret = new_secret()
    sealed = commitment_2(secret)
    save_secret(keys, game_id, sealed, secret)

    def build(game: Game) -> list[GameEvent]:
        if open_commitment(game) is not None and not abandon:
            raise MinisterError(f"game {game_id!r} got another open dice commitment meanwhile")
        at = record_time(game, now)
        return [DiceCommitted(originator_id=game.id, originator_version=game.version + 1,
                              timestamp=at, at=at, commitment=sealed, scheme=SCHEME_2, by=by)]

    [event] = app.append(game_id, build)
    assert isinstance(event, DiceCommitted)
    return event


def awaited(game: Game, territory: str) -> DiceNeed | None:
    """The throw the battle's correction waits for, if it waits for one."""
    for view in review(game).battles:
        if view.battle == territory and view.needed is not None:
            return view.needed
    return None


def roll(app: MinisterApplication, game_id: str, battle: str, keys: Path, *, count: int | None = None,
         purpose: str | None = None, now: datetime | None = None) -> list[DiceDrawn]:
    """Draw from the open commitment: ``count`` dice, or (without it) each throw the battle
    awaits until it awaits none. Every throw is its own recorded roll."""
    if count is not None and not 1 <= count <= 1000:
        raise MinisterError(f"expected --count from 1 to 1000, found {count}")
    game = app.game(game_id)
    territory = battle_of(game, battle).territory
    sealed = open_commitment(game)
    if sealed is None:
        raise MinisterError(f"game {game_id!r} has no open dice commitment: record one first "
                            f"(`minister commit {game_id}`): its hash is shown before any die is drawn")
    secret = load_secret(keys, game_id, sealed.commitment)
    if count is None and awaited(game, territory) is None:
        raise MinisterError(f"battle {territory!r} awaits no dice; give --count to draw anyway")
    drawn: list[DiceDrawn] = []
    while len(drawn) < (1 if count is not None else MAX_THROWS):

        def build(game: Game) -> list[GameEvent]:
            if open_commitment(game) != sealed:
                raise MinisterError(f"game {game_id!r}: the commitment changed meanwhile")
            need = awaited(game, territory) if count is None else None
            many = count if count is not None else need.count if need is not None else 0
            what = purpose or (need.purpose if need is not None else "roll")
            key = RollKey(sealed.commitment, game_id, next_sequence(game), territory, what, many)
            at = record_time(game, now)
            return [DiceDrawn(originator_id=game.id, originator_version=game.version + 1,
                              timestamp=at, at=at, battle=battle, territory=territory,
                              sequence=key.sequence, purpose=what,
                              dice=tuple(roll_committed(secret, key)))] if many else []

        events = app.append(game_id, build)
        if not events:
            break
        assert isinstance(events[0], DiceDrawn)
        drawn.append(events[0])
    return drawn


def reveal(app: MinisterApplication, game_id: str, keys: Path, *,
           now: datetime | None = None) -> DiceRevealed:
    """Record the secret of the open commitment: from now on anyone can check its dice."""
    game = app.game(game_id)
    sealed = open_commitment(game)
    if sealed is None:
        raise MinisterError(f"game {game_id!r} has no open dice commitment to reveal")
    secret = load_secret(keys, game_id, sealed.commitment)

    def build(game: Game) -> list[GameEvent]:
        if open_commitment(game) != sealed:
            raise MinisterError(f"game {game_id!r}: the commitment changed meanwhile")
        at = record_time(game, now)
        return [DiceRevealed(originator_id=game.id, originator_version=game.version + 1, timestamp=at,
                             at=at, commitment=sealed.commitment, secret=secret)]

    [event] = app.append(game_id, build)
    assert isinstance(event, DiceRevealed)
    return event


def parse_dice(text: str) -> tuple[int, ...]:
    """``"6 6 1 4"`` (or ``"6614"``; a ``*`` may mark a hit) as faces: at least one, at most
    :data:`~application.intake.replayschema.MAX_DICE` (what a replay file's ``dice`` holds, so
    the game can always be exported and imported again)."""
    if not _DICE.match(text or ""):
        raise MinisterError(f"DICE {text!r}: expected faces 1-6 such as \"6 6 1 4\"")
    faces = tuple(int(ch) for ch in text if ch.isdigit())
    if not faces:
        raise MinisterError(f"DICE {text!r}: no die given; expected faces 1-6 such as \"6 6 1 4\"")
    if len(faces) > MAX_DICE:
        raise MinisterError(f"DICE: {len(faces)} dice given; expected at most {MAX_DICE} in one entry")
    return faces


def enter_dice(app: MinisterApplication, game_id: str, battle: str, text: str, *,
               at: datetime | None = None, now: datetime | None = None) -> DiceSupplied:
    """Record dice rolled on the club's dice server for a battle's correction, as they are."""
    faces = parse_dice(text)

    def build(game: Game) -> list[GameEvent]:
        record = battle_of(game, battle)
        recorded, claimed = checked_time(game, at, now, record)
        return [DiceSupplied(originator_id=game.id, originator_version=game.version + 1,
                             timestamp=recorded, at=claimed, battle=battle, territory=record.territory,
                             dice=faces, written=" ".join(map(str, faces)))]

    [event] = app.append(game_id, build)
    assert isinstance(event, DiceSupplied)
    return event


@dataclass(frozen=True)
class DiceCheck:
    """What ``verify --dice`` found: rolls checked, rolls awaiting a reveal, and every problem."""

    game_id: str
    rolls: int
    problems: list[str] = field(default_factory=list)
    #: Rolls drawn from a commitment not yet revealed (they cannot be checked yet).
    pending: int = 0
    #: Rolls of the legacy scheme (minister-dice/1: count, battle and purpose not covered).
    legacy: int = 0
    checked: int = 0

    @property
    def ok(self) -> bool:
        """Whether every checkable roll reproduced and no sequence number is repeated or missing."""
        return not self.problems


def check_events(game_id: str, events: Sequence[GameEvent]) -> DiceCheck:
    """Re-check every drawn die of a game's events, offline, against the revealed secrets."""
    if not events or not isinstance(events[0], GameStarted):
        raise MinisterError(f"game {game_id!r} does not start with GameStarted")
    started = events[0]
    problems: list[str] = []
    commitments: set[str] = set()
    secrets: dict[str, str] = {}
    current: str | None = None
    draws: list[tuple[DiceDrawn, str | None]] = []
    for event in events:
        if isinstance(event, DiceCommitted):
            commitments.add(event.commitment)
            current = event.commitment
        elif isinstance(event, DiceRevealed):
            if event.commitment not in commitments:
                problems.append(f"event {event.originator_version} reveals a secret for commitment "
                                f"{event.commitment[:16]}…, which was never committed")
            elif not opens(event.secret, event.commitment):
                problems.append(f"event {event.originator_version}: the revealed secret does not "
                                f"open commitment {event.commitment[:16]}…")
            else:
                secrets[event.commitment] = event.secret
            current = None if current == event.commitment else current
        elif isinstance(event, DiceDrawn):
            draws.append((event, current))
    problems += _sequence_problems([d for d, _ in draws])
    pending = legacy = checked = 0
    for event, sealed in draws:
        if sealed is None:
            legacy += 1
            problems += _legacy_problems(game_id, started, event)
        elif sealed not in secrets:
            pending += 1
        else:
            checked += 1
            problems += _committed_problems(game_id, sealed, secrets[sealed], event)
    return DiceCheck(game_id, len(draws), list(dict.fromkeys(problems)), pending=pending,
                     legacy=legacy, checked=checked)


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


def _committed_problems(game_id: str, sealed: str, secret: str, event: DiceDrawn) -> list[str]:
    try:
        territory = battle_territory(event.battle)
    except ValueError:
        territory = ""
    if territory != event.territory:
        return [f"{_where(event)} names battle {event.battle!r} but is filed under {event.territory!r}"]
    key = RollKey(sealed, game_id, event.sequence, event.territory, event.purpose, len(event.dice))
    expected = roll_committed(secret, key)
    if list(event.dice) == expected:
        return []
    return [f"{_where(event)} does not reproduce: recorded {' '.join(map(str, event.dice))}, the "
            f"revealed secret gives {' '.join(map(str, expected))} for {len(event.dice)} dice "
            f"(the MAC covers the count, battle and purpose)"]


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
    events = app.game_events(game_id)
    if not events:
        app.game(game_id)  # raises UnknownGameError naming the game
    return check_events(game_id, events)
