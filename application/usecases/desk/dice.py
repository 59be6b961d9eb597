"""Dice for corrections, honestly: the dice server's entered as they are, or the Minister's own
drawn by commit–reveal (``minister-dice/3``, :mod:`domain.battle.dice`).

``commit`` records the hash of a fresh secret before any die is drawn (the secret goes to the
Minister's key file, :mod:`application.usecases.desk.keys`); ``roll`` draws each throw a battle
awaits from the secret, each roll bound by its MAC to the game, its sequence number, the battle
and the throw the program derives (turn, round, side, column, purpose, count:
:mod:`application.usecases.desk.throws`), none of it typed by anyone; ``reveal`` records the
secret, after which anyone re-checks every die offline
(:mod:`application.usecases.desk.dice_check`, ``minister verify --dice``).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from application.adapters.app import MinisterApplication
from application.intake.replayschema import MAX_DICE
from application.usecases.desk.common import battle_of, checked_time, record_time
from application.usecases.desk.keys import key_path, load_secret, save_secret
from application.usecases.desk.throws import awaited_throw
from application.usecases.stored_game import awaited_dice
from domain.battle.dice import SCHEME_3, commitment_2, new_secret, roll_throw
from domain.errors import MinisterError
from domain.record.entries import CommitmentEntry
from domain.record.events import DiceCommitted, DiceDrawn, DiceRevealed, DiceSupplied, GameEvent
from domain.record.game import Game
from domain.review.finding_facts import why_no_dice
from domain.review.game_review import review

_DICE = re.compile(r"^[1-6\s,*]+$")
#: Throws ``roll`` draws at most in one command (a battle never awaits more).
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
           now: datetime | None = None, abandon: bool = False, force: bool = False) -> DiceCommitted:
    """Record the commitment to a fresh secret; the secret goes to the key file, never the record.

    ``abandon``: commit although one is open, when its key file is lost (its dice stay unchecked
    for ever). While the open commitment's key file is still in ``keys`` that is refused unless
    ``force``: the Minister can reveal it, and abandoning it would leave its dice unchecked."""
    game = app.game(game_id)
    sealed = open_commitment(game)
    if sealed is not None and not abandon:
        raise MinisterError(f"game {game_id!r} has an open dice commitment: reveal it first "
                            "(`minister reveal`), then commit again (if its key file is lost, "
                            "--abandon it: its dice can then never be checked)")
    if sealed is not None and not force and key_path(keys, game_id, sealed.commitment).exists():
        raise MinisterError(f"--abandon: the key file of the open commitment {sealed.commitment[:16]}… "
                            f"is still in {keys}: reveal it (`minister reveal {game_id}`) so its dice "
                            "can be checked; --force abandons it anyway (its dice can then never be "
                            "checked, and the letter says so)")
    secret = new_secret()
    made = commitment_2(secret, SCHEME_3)
    save_secret(keys, game_id, made, secret)

    def build(game: Game) -> list[GameEvent]:
        if open_commitment(game) != sealed:
            raise MinisterError(f"game {game_id!r} got another dice commitment meanwhile")
        at = record_time(game, now)
        return [DiceCommitted(originator_id=game.id, originator_version=game.version + 1,
                              timestamp=at, at=at, commitment=made, scheme=SCHEME_3, by=by)]

    [event] = app.append(game_id, build)
    assert isinstance(event, DiceCommitted)
    return event


def roll(app: MinisterApplication, game_id: str, battle: str, keys: Path, *,
         now: datetime | None = None, turn: str | None = None) -> list[DiceDrawn]:
    """Draw from the open commitment each throw the battle awaits, until it awaits none. Every
    throw is its own recorded roll, for the throw the program derives: nothing about it is
    chosen (no purpose, no count), so the secret's holder cannot choose its dice. ``turn``: the
    battle's, where its territory alone names two battles."""
    game = app.game(game_id)
    named = battle_of(game, battle, turn)
    territory = named.territory
    label = named.turn  # recorded always: a later battle there cannot make it ambiguous
    sealed = open_commitment(game)
    if sealed is None:
        raise MinisterError(f"game {game_id!r} has no open dice commitment: record one first "
                            f"(`minister commit {game_id}`): its hash is shown before any die is drawn")
    if sealed.scheme != SCHEME_3:
        raise MinisterError(f"the open commitment {sealed.commitment[:16]}… is {sealed.scheme}, whose "
                            "rolls do not bind the throw the game awaits: reveal it "
                            f"(`minister reveal {game_id}`) and commit again")
    secret = load_secret(keys, game_id, sealed.commitment, sealed.scheme)
    if awaited_throw(game, territory, named.turn) is None:
        raise MinisterError(f"battle {territory!r} ({named.turn}) awaits no dice: "
                            f"{why_no_dice(game, review(game).findings, named)}")
    drawn: list[DiceDrawn] = []
    while len(drawn) < MAX_THROWS:

        def build(game: Game) -> list[GameEvent]:
            if open_commitment(game) != sealed:
                raise MinisterError(f"game {game_id!r}: the commitment changed meanwhile")
            awaited = awaited_throw(game, territory, named.turn)
            if awaited is None:
                return []
            need, throw = awaited
            sequence = next_sequence(game)
            at = record_time(game, now)
            return [DiceDrawn(originator_id=game.id, originator_version=game.version + 1,
                              timestamp=at, at=at, battle=battle, territory=territory,
                              sequence=sequence, purpose=need.purpose,
                              dice=tuple(roll_throw(secret, sealed.commitment, game_id, sequence,
                                                    territory, throw)), turn=label)]

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
    secret = load_secret(keys, game_id, sealed.commitment, sealed.scheme)

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


def dice_note(app: MinisterApplication, game_id: str, battle: str, turn: str | None = None) -> str:
    """Why the battle awaits no dice now ("" when it awaits some): dice entered for it anyway
    are kept (a report or an election may yet make them needed) and the desk says why they are
    not used yet."""
    game = app.game(game_id)
    record = battle_of(game, battle, turn)
    awaited = awaited_dice(app, game_id, game)  # the refresh after reviews it
    if any(b.battle == record.territory and b.turn == record.turn and b.needed is not None
           for b in awaited.battles):
        return ""
    return f"{record.territory} ({record.turn}) awaits no dice: {why_no_dice(game, awaited.findings, record)}"


def enter_dice(app: MinisterApplication, game_id: str, battle: str, text: str, *,
               at: datetime | None = None, now: datetime | None = None,
               turn: str | None = None) -> DiceSupplied:
    """Record dice rolled on the club's dice server for a battle's correction, as they are
    (``turn``: the battle's, where its territory alone names two battles)."""
    faces = parse_dice(text)

    def build(game: Game) -> list[GameEvent]:
        record = battle_of(game, battle, turn)
        recorded, claimed = checked_time(game, at, now, record)
        return [DiceSupplied(originator_id=game.id, originator_version=game.version + 1,
                             timestamp=recorded, at=claimed, battle=battle, territory=record.territory,
                             dice=faces, written=" ".join(map(str, faces)),
                             turn=record.turn)]

    [event] = app.append(game_id, build)
    assert isinstance(event, DiceSupplied)
    return event
