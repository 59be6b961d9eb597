"""Dice sources: supplied dice (a queue), verifiable dice (commit–reveal) and random dice.

Every source implements :class:`domain.battle.model.DiceSource`: ``draw(count, purpose)`` returns
``count`` faces 1-6. The battle engine asks for dice in the order the replay format fixes
("Supplied dice form one queue per battle ..."), so the same source gives the same battle.

Verifiable dice (``minister-dice/1``): the roller publishes ``commitment(seed)`` before any roll;
roll number ``sequence`` of game ``game_id`` takes its dice from
``HMAC-SHA256(key=seed, msg="minister-dice/1|{game_id}|{sequence}|{block}")`` for blocks 0, 1, …,
reading each output byte in turn and accepting a byte ``b < 252`` as the die ``b % 6 + 1``
(rejection sampling: 252 is the largest multiple of 6 not above 256, so no face is favoured).
Once the seed is revealed anyone can recompute every roll with :func:`verify_roll`.

``minister-dice/1`` covers neither the number of dice, nor the battle, nor the purpose: dropping
trailing dice or moving a roll to another battle still verifies. It is kept only to read old
records. ``minister-dice/2`` (:func:`roll_committed`): the secret is a random key the Minister
keeps out of the record until he reveals it; the commitment is ``sha256("minister-dice/2:" +
secret)``; roll ``sequence`` takes its dice from ``HMAC-SHA256(key=secret, msg=JSON [scheme,
commitment, game_id, sequence, territory, purpose, count, block])`` with the same rejection
sampling. Its ``purpose`` was free text: the holder of the secret could try purposes offline
until one gave the dice he wanted. It is kept to read old records (their check compares the
purpose with the throw the game awaited).

The desk draws by ``minister-dice/3`` (:func:`roll_throw`): the commitment is
``sha256("minister-dice/3:" + secret)``; the MAC message is JSON ``[scheme, commitment, game_id,
sequence, territory, turn, round, side, column, purpose, count, block]`` where every field after
the sequence is the :class:`Throw` the program derives from the game (the throw the battle's
correction awaits): the purpose is one of :data:`PURPOSES`, never text anyone types, and the
check derives the throw again and refuses a roll that names another. So the one who holds the
secret has nothing left to vary: the dice of each throw are fixed once the commitment is recorded.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections import deque
from collections.abc import Iterable, Sequence

import msgspec

from domain.battle.model import DiceExhausted

#: Version tag mixed into every commitment and HMAC message.
SCHEME = "minister-dice/1"

#: The earlier desk scheme: the MAC covers the roll's count, battle and a free-text purpose.
SCHEME_2 = "minister-dice/2"

#: The desk's scheme: the MAC covers the throw the program derives (turn, round, side, column,
#: purpose from a closed set, count) besides the game, battle and sequence.
SCHEME_3 = "minister-dice/3"

#: The commit–reveal schemes a commitment may name.
COMMIT_SCHEMES = (SCHEME_2, SCHEME_3)

#: What a ``minister-dice/3`` throw is for: a round's volley, a first strike, or the dice a
#: correction adds to a column (Part 14: the GM rolls the forgotten units' dice).
PURPOSES = ("volley", "first strike", "correction")

# The largest multiple of 6 not above 256: bytes at or above it are rejected (no modulo bias).
_ACCEPT_BELOW = 252


def _check_face(value: object) -> int:
    """A die face 1-6, or ValueError quoting the value."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise ValueError(f"not a die face (1-6): {value!r}")
    return value


def _check_count(count: int, purpose: str) -> None:
    if count < 0:
        raise ValueError(f"{purpose}: negative dice count {count!r}")


class SuppliedDice:
    """Dice given in advance (``dice`` events): a queue taken from the front.

    ``draw`` raises :class:`DiceExhausted` (taking nothing) when fewer dice remain than asked.
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._queue: deque[int] = deque(_check_face(value) for value in values)
        self._taken = 0

    def draw(self, count: int, purpose: str) -> list[int]:
        """The next ``count`` dice of the queue."""
        _check_count(count, purpose)
        if count > len(self._queue):
            raise DiceExhausted(purpose, count, len(self._queue))
        self._taken += count
        return [self._queue.popleft() for _ in range(count)]

    @property
    def remaining(self) -> int:
        """Dice still in the queue."""
        return len(self._queue)

    @property
    def taken(self) -> int:
        """Dice drawn so far."""
        return self._taken

    def rest(self) -> list[int]:
        """The dice not drawn, in queue order (left over after a battle: unused dice)."""
        return list(self._queue)


class Roll(msgspec.Struct, frozen=True):
    """One verifiable roll: its sequence number, what it was for, and its dice."""

    sequence: int
    purpose: str
    dice: tuple[int, ...]


def commitment(seed: str) -> str:
    """The published commitment to a seed: hex SHA-256 of ``"minister-dice/1:" + seed``."""
    return _commit(seed)


def _commit(seed: str) -> str:
    return hashlib.sha256(f"{SCHEME}:{seed}".encode()).hexdigest()


def verify_commitment(seed: str, commitment: str) -> bool:
    """Whether ``seed`` is the seed behind the published ``commitment`` (hex, any case)."""
    return hmac.compare_digest(_commit(seed), commitment.strip().lower())


def roll_dice(game_id: str, seed: str, sequence: int, count: int) -> list[int]:
    """The ``count`` dice of roll ``sequence`` of ``game_id`` under ``seed`` (the scheme above)."""
    if sequence < 0:
        raise ValueError(f"negative roll sequence {sequence!r}")
    if count < 0:
        raise ValueError(f"negative dice count {count!r}")
    key = seed.encode()
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        message = f"{SCHEME}|{game_id}|{sequence}|{block}".encode()
        for byte in hmac.new(key, message, hashlib.sha256).digest():
            if byte < _ACCEPT_BELOW:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    break
        block += 1
    return dice


def new_secret() -> str:
    """A fresh random secret for ``minister-dice/2`` (256 bits, hex)."""
    return secrets.token_hex(32)


def commitment_2(secret: str, scheme: str = SCHEME_2) -> str:
    """The published commitment to a commit–reveal secret (``minister-dice/2`` or ``/3``)."""
    if scheme not in COMMIT_SCHEMES:
        raise ValueError(f"unknown dice scheme {scheme!r} (expected one of {', '.join(COMMIT_SCHEMES)})")
    return hashlib.sha256(f"{scheme}:{secret}".encode()).hexdigest()


def opens(secret: str, commitment: str, scheme: str = SCHEME_2) -> bool:
    """Whether ``secret`` is the one behind a commitment of ``scheme``."""
    return hmac.compare_digest(commitment_2(secret, scheme), commitment.strip().lower())


class RollKey(msgspec.Struct, frozen=True):
    """Everything a ``minister-dice/2`` roll is bound to (besides the secret)."""

    commitment: str
    game_id: str
    sequence: int
    territory: str
    purpose: str
    count: int


def roll_committed(secret: str, key: RollKey) -> list[int]:
    """The dice of one ``minister-dice/2`` roll: count, battle and purpose are in every MAC."""
    if key.sequence < 0 or key.count < 0:
        raise ValueError(f"negative roll sequence or count: {key.sequence!r}, {key.count!r}")
    dice: list[int] = []
    block = 0
    while len(dice) < key.count:
        message = json.dumps([SCHEME_2, key.commitment, key.game_id, key.sequence, key.territory,
                              key.purpose, key.count, block], separators=(",", ":")).encode()
        for byte in hmac.new(secret.encode(), message, hashlib.sha256).digest():
            if byte < _ACCEPT_BELOW:
                dice.append(byte % 6 + 1)
                if len(dice) == key.count:
                    break
        block += 1
    return dice


class Throw(msgspec.Struct, frozen=True):
    """The throw a ``minister-dice/3`` roll is for, derived from the game by the program: the
    battle's turn, the round, the side, the column (a number, or the shots' unit), the purpose
    (one of :data:`PURPOSES`) and the number of dice."""

    turn: str
    round: int
    side: str
    column: str
    purpose: str
    count: int

    def __post_init__(self) -> None:
        if self.purpose not in PURPOSES:
            raise ValueError(f"not a throw's purpose: {self.purpose!r} (expected one of "
                             f"{', '.join(PURPOSES)})")
        if self.side not in ("attacker", "defender"):
            raise ValueError(f"not a side: {self.side!r}")
        if self.round < 1 or self.count < 1:
            raise ValueError(f"expected a round and a count of at least 1, found {self.round}, {self.count}")


def roll_throw(secret: str, commitment: str, game_id: str, sequence: int, territory: str,
               throw: Throw) -> list[int]:
    """The dice of one ``minister-dice/3`` roll: every field of the derived throw is in every MAC."""
    if sequence < 0:
        raise ValueError(f"negative roll sequence {sequence!r}")
    dice: list[int] = []
    block = 0
    while len(dice) < throw.count:
        message = json.dumps([SCHEME_3, commitment, game_id, sequence, territory, throw.turn,
                              throw.round, throw.side, throw.column, throw.purpose, throw.count, block],
                             separators=(",", ":")).encode()
        for byte in hmac.new(secret.encode(), message, hashlib.sha256).digest():
            if byte < _ACCEPT_BELOW:
                dice.append(byte % 6 + 1)
                if len(dice) == throw.count:
                    break
        block += 1
    return dice


def verify_roll(game_id: str, seed: str, sequence: int, count: int, dice: Sequence[int]) -> bool:
    """Whether ``dice`` are exactly what roll ``sequence`` of ``game_id`` gives under ``seed``."""
    return len(dice) == count and list(dice) == roll_dice(game_id, seed, sequence, count)


class VerifiableDice:
    """Commit–reveal dice: every ``draw`` is one roll with the next sequence number.

    Publish :attr:`commitment` before the first roll; :attr:`rolls` is the log to record as
    events. ``start_sequence`` resumes a game's sequence after rolls already recorded.
    """

    def __init__(self, game_id: str, seed: str, start_sequence: int = 0) -> None:
        if start_sequence < 0:
            raise ValueError(f"negative start sequence {start_sequence!r}")
        self.game_id = game_id
        self._seed = seed
        self._next = start_sequence
        self._rolls: list[Roll] = []

    @property
    def commitment(self) -> str:
        """The commitment to this source's seed (publish it before rolling)."""
        return commitment(self._seed)

    @property
    def next_sequence(self) -> int:
        """The sequence number the next draw will use."""
        return self._next

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll drawn from this source, in order."""
        return tuple(self._rolls)

    def draw(self, count: int, purpose: str) -> list[int]:
        """One roll of ``count`` dice; it is logged with its sequence number."""
        _check_count(count, purpose)
        dice = roll_dice(self.game_id, self._seed, self._next, count)
        self._rolls.append(Roll(self._next, purpose, tuple(dice)))
        self._next += 1
        return dice


class RandomDice:
    """Pseudo-random dice for simulations and odds (not verifiable, not for records)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()

    def draw(self, count: int, purpose: str) -> list[int]:
        """``count`` independent dice."""
        _check_count(count, purpose)
        return [self._rng.randint(1, 6) for _ in range(count)]
