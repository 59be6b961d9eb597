"""Dice sources: supplied queue, verifiable commit–reveal dice, random dice."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter

import pytest

from domain.battle.dice import (
    RandomDice,
    Roll,
    SuppliedDice,
    VerifiableDice,
    commitment,
    roll_dice,
    verify_commitment,
    verify_roll,
)
from domain.battle.model import DiceExhausted


class TestSuppliedDice:
    def test_draws_in_queue_order(self) -> None:
        dice = SuppliedDice([5, 2, 4, 6, 1])
        assert dice.draw(2, "R1 attacker column 1") == [5, 2]
        assert dice.draw(3, "R1 attacker column 3") == [4, 6, 1]
        assert dice.remaining == 0
        assert dice.taken == 5

    def test_exhaustion_takes_nothing_and_says_what_for(self) -> None:
        dice = SuppliedDice([3, 3])
        with pytest.raises(DiceExhausted) as caught:
            dice.draw(3, "R2 defender column 2")
        assert caught.value.needed == 3
        assert caught.value.available == 2
        assert caught.value.purpose == "R2 defender column 2"
        assert "R2 defender column 2" in str(caught.value)
        assert dice.remaining == 2
        assert dice.rest() == [3, 3]

    def test_refuses_a_face_out_of_range(self) -> None:
        with pytest.raises(ValueError, match="7"):
            SuppliedDice([1, 7])
        with pytest.raises(ValueError, match="0"):
            SuppliedDice([0])


class TestVerifiableDice:
    def test_commitment_is_sha256_of_the_tagged_seed(self) -> None:
        expected = hashlib.sha256(b"minister-dice/1:secret").hexdigest()
        assert commitment("secret") == expected
        assert VerifiableDice("g1", "secret").commitment == expected
        assert verify_commitment("secret", expected)
        assert verify_commitment("secret", expected.upper())
        assert not verify_commitment("secreT", expected)

    def test_first_die_follows_the_hmac_scheme(self) -> None:
        digest = hmac.new(b"seed", b"minister-dice/1|game|0|0", hashlib.sha256).digest()
        accepted = [b % 6 + 1 for b in digest if b < 252]
        assert roll_dice("game", "seed", 0, len(accepted)) == accepted

    def test_deterministic_and_sequenced(self) -> None:
        first = VerifiableDice("game-7", "seed")
        second = VerifiableDice("game-7", "seed")
        a = [first.draw(5, "R1 attacker column 1"), first.draw(3, "R1 defender column 2")]
        b = [second.draw(5, "x"), second.draw(3, "y")]
        assert a == b
        assert first.rolls == (Roll(0, "R1 attacker column 1", tuple(a[0])),
                               Roll(1, "R1 defender column 2", tuple(a[1])))
        assert first.next_sequence == 2

    def test_sequence_game_and_seed_change_the_dice(self) -> None:
        base = roll_dice("g", "s", 0, 40)
        assert roll_dice("g", "s", 1, 40) != base
        assert roll_dice("h", "s", 0, 40) != base
        assert roll_dice("g", "t", 0, 40) != base

    def test_start_sequence_resumes(self) -> None:
        resumed = VerifiableDice("g", "s", start_sequence=3)
        assert resumed.draw(6, "p") == roll_dice("g", "s", 3, 6)
        assert resumed.rolls[0].sequence == 3

    def test_long_rolls_take_further_blocks(self) -> None:
        dice = roll_dice("g", "s", 0, 200)  # a block gives at most 32 dice
        assert len(dice) == 200
        assert dice[:20] == roll_dice("g", "s", 0, 20)

    def test_faces_are_always_one_to_six(self) -> None:
        for sequence in range(300):
            assert set(roll_dice("g", "s", sequence, 30)) <= {1, 2, 3, 4, 5, 6}

    def test_rejection_sampling_skips_high_bytes(self) -> None:
        # Find a block with a rejected byte and check the die after it comes from the next byte.
        for sequence in range(500):
            digest = hmac.new(b"s", f"minister-dice/1|g|{sequence}|0".encode(),
                              hashlib.sha256).digest()
            if any(b >= 252 for b in digest):
                expected = [b % 6 + 1 for b in digest if b < 252]
                assert roll_dice("g", "s", sequence, len(expected)) == expected
                assert len(expected) < 32
                return
        pytest.fail("no rejected byte found in 500 blocks")

    def test_distribution_is_uniform(self) -> None:
        dice: list[int] = []
        for sequence in range(1000):
            dice.extend(roll_dice("chi", "square", sequence, 60))
        assert len(dice) == 60_000
        counts = Counter(dice)
        expected = len(dice) / 6
        chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
        # 5 degrees of freedom: P(chi2 > 25) < 0.0002.
        assert chi_square < 25, counts

    def test_verify_roll_detects_a_changed_die(self) -> None:
        source = VerifiableDice("g", "s")
        rolled = source.draw(8, "R1 attacker column 1")
        assert verify_roll("g", "s", 0, 8, rolled)
        changed = list(rolled)
        changed[3] = changed[3] % 6 + 1
        assert not verify_roll("g", "s", 0, 8, changed)
        assert not verify_roll("g", "s", 1, 8, rolled)
        assert not verify_roll("g", "other", 0, 8, rolled)
        assert not verify_roll("g", "s", 0, 7, rolled[:7] + rolled[7:])


class TestRandomDice:
    def test_seeded_rng_is_reproducible(self) -> None:
        a = RandomDice(random.Random(4)).draw(50, "p")
        b = RandomDice(random.Random(4)).draw(50, "p")
        assert a == b
        assert set(a) <= {1, 2, 3, 4, 5, 6}
        assert len(set(a)) > 1


def test_committed_dice_follow_the_published_scheme() -> None:
    """minister-dice/2 recomputed by hand from its description (docs/format-extensions.md)."""
    import json

    from domain.battle.dice import RollKey, commitment_2, new_secret, opens, roll_committed

    secret = new_secret()
    sealed = commitment_2(secret)
    assert sealed == hashlib.sha256(f"minister-dice/2:{secret}".encode()).hexdigest()
    assert opens(secret, sealed) and not opens(secret + "0", sealed)
    key = RollKey(sealed, "g", 3, "East Europe", "R1 attacker column 3", 40)
    by_hand: list[int] = []
    block = 0
    while len(by_hand) < 40:
        message = json.dumps(["minister-dice/2", sealed, "g", 3, "East Europe", "R1 attacker column 3",
                              40, block], separators=(",", ":")).encode()
        by_hand += [b % 6 + 1 for b in hmac.new(secret.encode(), message, hashlib.sha256).digest()
                    if b < 252]
        block += 1
    assert roll_committed(secret, key) == by_hand[:40]


def test_every_field_of_a_committed_roll_changes_its_dice() -> None:
    from domain.battle.dice import RollKey, roll_committed

    secret = "f" * 64
    base = RollKey("a" * 64, "g", 0, "East Europe", "R1 attacker column 1", 30)
    dice = roll_committed(secret, base)
    for changed in (RollKey("b" * 64, "g", 0, "East Europe", "R1 attacker column 1", 30),
                    RollKey("a" * 64, "h", 0, "East Europe", "R1 attacker column 1", 30),
                    RollKey("a" * 64, "g", 1, "East Europe", "R1 attacker column 1", 30),
                    RollKey("a" * 64, "g", 0, "Karelia S.S.R.", "R1 attacker column 1", 30),
                    RollKey("a" * 64, "g", 0, "East Europe", "R1 attacker column 3", 30)):
        assert roll_committed(secret, changed) != dice, changed
    # The count is bound too: the first 29 dice of a 29-dice roll are not those of a 30-dice roll.
    shorter = roll_committed(secret, RollKey("a" * 64, "g", 0, "East Europe", "R1 attacker column 1", 29))
    assert shorter != dice[:29]
    faces = Counter(roll_committed(secret, RollKey("a" * 64, "g", 9, "x", "y", 60_000)))
    assert set(faces) == set(range(1, 7)) and min(faces.values()) > 9_000  # about 10,000 each
