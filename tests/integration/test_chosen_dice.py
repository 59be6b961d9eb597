"""Whoever holds the dice secret cannot choose the dice (issue 26 item 3), on every store.

The audit turned [4, 6] (no hits) into [2, 3] (two hits) in 7 tries by varying the free-text
``--purpose`` inside the MAC. Now the throw a roll is bound to is derived by the program and
derived again by the check: the holder of the secret tries every other purpose, round, side,
column and count offline, records the dice of one he likes (the chain recomputed: he writes the
store), reveals the secret, and ``verify --dice`` refuses it; the honest roll alone verifies.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

from application.adapters.app import MinisterApplication
from application.adapters.stores import open_store
from application.intake.replayfile import parse_replay
from application.usecases.desk import dice as desk_dice
from application.usecases.desk.dice import commit, reveal, roll
from application.usecases.desk.dice_check import check_dice
from application.usecases.desk.papers import report, rule
from application.usecases.desk.throws import awaited_throw
from application.usecases.transfer import import_replay
from domain.battle.dice import PURPOSES, Throw, roll_throw
from domain.record.events import DiceDrawn
from tests.e2e.test_desk import GAME, GAME_ID
from tests.integration.store_helpers import MemorySpec, PostgresSpec, SQLiteSpec

SECRET = "5e" * 32
TERRITORY = "West Europe"


def alternatives(honest: Throw) -> Iterator[Throw]:
    """Every other throw within reach: each purpose, round, side, column and count."""
    for purpose in PURPOSES:
        for round_ in range(1, 4):
            for side in ("attacker", "defender"):
                for column in ("1", "2", "3", "4"):
                    for count in range(1, 5):
                        other = Throw(honest.turn, round_, side, column, purpose, count)
                        if other != honest:
                            yield other


class ChosenDiceContract:
    """The desk's dice on one store; subclasses provide ``spec``."""

    @pytest.fixture
    def spec(self, tmp_path: Path) -> Iterator[str]:
        raise NotImplementedError

    @pytest.fixture
    def app(self, spec: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[MinisterApplication]:
        monkeypatch.setattr(desk_dice, "new_secret", lambda: SECRET)  # the same secret each run
        app = open_store(spec)
        replay = parse_replay(GAME, "game.toml")
        import_replay(app, replay)
        start = replay.game.modified_on
        report(app, GAME_ID, "Germany", "West Europe also holds 1 ARM", "W Europe",
               at=start + timedelta(minutes=20), now=start + timedelta(minutes=21))
        rule(app, GAME_ID, "F1", "apply", election="reroll", by="UK", at=start + timedelta(minutes=30),
             now=start + timedelta(minutes=31))
        yield app
        app.close()

    def test_the_honest_roll_alone_verifies(self, app: MinisterApplication, tmp_path: Path) -> None:
        keys = tmp_path / "keys"
        sealed = commit(app, GAME_ID, keys)
        need, throw = awaited_throw(app.game(GAME_ID), TERRITORY) or pytest.fail("awaits no dice")
        drawn = roll(app, GAME_ID, "W Europe", keys)
        # The first roll is the derived throw's dice, whatever the battle was called.
        assert drawn[0].purpose == need.purpose and list(drawn[0].dice) == roll_throw(
            SECRET, sealed.commitment, GAME_ID, 0, TERRITORY, throw)
        reveal(app, GAME_ID, keys)
        check = check_dice(app, GAME_ID)
        assert check.verified and check.checked == len(drawn) > 0, check

    def test_dice_chosen_by_trying_throws_never_verify(self, app: MinisterApplication,
                                                       tmp_path: Path) -> None:
        keys = tmp_path / "keys"
        sealed = commit(app, GAME_ID, keys)
        game = app.game(GAME_ID)
        need, throw = awaited_throw(game, TERRITORY) or pytest.fail("awaits no dice")
        honest = roll_throw(SECRET, sealed.commitment, GAME_ID, 0, TERRITORY, throw)
        # Offline, the holder of the secret tries other throws until one gives other dice...
        chosen = next(dice[:throw.count] for other in alternatives(throw)
                      if len(dice := roll_throw(SECRET, sealed.commitment, GAME_ID, 0, TERRITORY, other))
                      >= throw.count and dice[:throw.count] != honest)
        # ... and records them as the awaited throw (he writes the store: the chain is made anew).
        at = game.modified_on + timedelta(minutes=1)
        app.record([DiceDrawn(originator_id=game.id, originator_version=game.version + 1, timestamp=at,
                              at=at, battle="W Europe", territory=TERRITORY, sequence=0,
                              purpose=need.purpose, dice=tuple(chosen))])
        reveal(app, GAME_ID, keys)
        check = check_dice(app, GAME_ID)
        assert not check.ok and check.problems[0].startswith("roll #0") and "does not reproduce" in \
            check.problems[0], check


    def test_a_secret_that_does_not_open_its_commitment_is_refused(self, app: MinisterApplication,
                                                                    tmp_path: Path) -> None:
        """The reveal must open the commitment recorded before the dice: another secret (one that
        gives the dice someone wants) is named, and no roll under it counts as checked."""
        from domain.record.events import DiceRevealed

        keys = tmp_path / "keys"
        sealed = commit(app, GAME_ID, keys)
        drawn = roll(app, GAME_ID, "W Europe", keys)
        game = app.game(GAME_ID)
        at = game.modified_on + timedelta(minutes=1)
        app.record([DiceRevealed(originator_id=game.id, originator_version=game.version + 1, timestamp=at,
                                 at=at, commitment=sealed.commitment, secret="00" * 32)])
        check = check_dice(app, GAME_ID)
        assert not check.ok and check.checked == 0 and len(drawn) > 0
        assert f"the revealed secret does not open commitment {sealed.commitment[:16]}" in check.problems[0]


    def test_an_open_commitment_of_the_older_scheme_is_revealed_not_rolled(
            self, app: MinisterApplication, tmp_path: Path) -> None:
        """A store written by an earlier minister holds an open ``minister-dice/2`` commitment:
        its key file still reveals it; ``roll`` refuses to draw under it (its rolls would not
        bind the throw) and says to reveal and commit again."""
        from application.usecases.desk.keys import save_secret
        from domain.battle.dice import SCHEME_2, commitment_2
        from domain.errors import MinisterError
        from domain.record.events import DiceCommitted

        keys = tmp_path / "keys"
        sealed = commitment_2(SECRET, SCHEME_2)
        save_secret(keys, GAME_ID, sealed, SECRET)
        game = app.game(GAME_ID)
        at = game.modified_on + timedelta(minutes=1)
        app.record([DiceCommitted(originator_id=game.id, originator_version=game.version + 1,
                                  timestamp=at, at=at, commitment=sealed, scheme=SCHEME_2)])
        with pytest.raises(MinisterError, match="is minister-dice/2, whose rolls do not bind the throw"):
            roll(app, GAME_ID, "W Europe", keys)
        assert reveal(app, GAME_ID, keys).secret == SECRET
        commit(app, GAME_ID, keys)
        assert roll(app, GAME_ID, "W Europe", keys)


class TestMemoryChosenDice(MemorySpec, ChosenDiceContract):
    """In memory."""


class TestSQLiteChosenDice(SQLiteSpec, ChosenDiceContract):
    """In an SQLite file."""


class TestPostgresChosenDice(PostgresSpec, ChosenDiceContract):
    """On PostgreSQL."""


def test_no_purpose_and_no_count_can_be_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``roll --purpose TEXT`` and ``roll --count N`` no longer exist: exit 2, nothing drawn."""
    from tui.cli import main

    for option in (["--purpose", "R9 attacker column 1"], ["--count", "3"]):
        with pytest.raises(SystemExit) as done:
            main(["roll", GAME_ID, "--battle", "W Europe", *option, "--store", f"sqlite:{tmp_path}/s.db"])
        assert done.value.code == 2
        assert "unrecognized arguments" in capsys.readouterr().err


def test_every_other_throw_is_refused_by_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of throws tried offline, each recorded as the roll (its purpose text and its dice,
    or the honest purpose with its dice): not one verifies."""
    from application.usecases.desk.dice_check import check_events
    from domain.record.events import DiceRevealed
    from domain.record.game import project_game

    monkeypatch.setattr(desk_dice, "new_secret", lambda: SECRET)
    app = open_store("memory:")
    replay = parse_replay(GAME, "game.toml")
    import_replay(app, replay)
    start = replay.game.modified_on
    report(app, GAME_ID, "Germany", "holds 1 ARM", "W Europe", at=start + timedelta(minutes=20),
           now=start + timedelta(minutes=21))
    rule(app, GAME_ID, "F1", "apply", election="reroll", by="UK", at=start + timedelta(minutes=30),
         now=start + timedelta(minutes=31))
    sealed = commit(app, GAME_ID, tmp_path / "keys")
    events = app.game_events(GAME_ID)
    game = app.game(GAME_ID)
    need, throw = awaited_throw(game, TERRITORY) or pytest.fail("awaits no dice")
    at = game.modified_on + timedelta(minutes=1)
    opened = DiceRevealed(originator_id=game.id, originator_version=game.version + 2, timestamp=at,
                          at=at, commitment=sealed.commitment, secret=SECRET)
    tried = 0
    for other in alternatives(throw):
        dice = tuple(roll_throw(SECRET, sealed.commitment, GAME_ID, 0, TERRITORY, other))
        text = f"R{other.round} {other.side} column {other.column}" + (
            ": correction" if other.purpose == "correction" else "")
        for purpose, faces in ((text, dice), (need.purpose, dice)):
            if faces == tuple(roll_throw(SECRET, sealed.commitment, GAME_ID, 0, TERRITORY, throw)):
                continue  # the honest dice, by chance: nothing chosen
            forged = DiceDrawn(originator_id=game.id, originator_version=game.version + 1, timestamp=at,
                               at=at, battle="W Europe", territory=TERRITORY, sequence=0,
                               purpose=purpose, dice=faces)
            folded = project_game(None, [*events, forged, opened])
            assert folded is not None
            check = check_events(GAME_ID, [*events, forged, opened], folded)
            assert not check.verified, (other, purpose, faces)
            tried += 1
    assert tried > 400
    app.close()


def test_an_old_roll_with_a_free_purpose_is_not_verified() -> None:
    """A ``minister-dice/2`` record (before the throw was derived) whose purpose is not the throw
    the battle awaited: its dice reproduce, but whoever held the secret could have chosen them,
    so the check names the roll as unverified, never as checked."""
    from application.usecases.desk.dice_check import check_events
    from domain.battle.dice import SCHEME_2, RollKey, commitment_2, roll_committed
    from domain.record.events import DiceCommitted, DiceRevealed
    from domain.record.game import project_game

    replay = parse_replay(GAME, "game.toml")
    events = list(replay.events)
    game = replay.game
    at = game.modified_on + timedelta(minutes=1)
    sealed = commitment_2(SECRET, SCHEME_2)

    def next_version(offset: int) -> dict[str, object]:
        return {"originator_id": game.id, "originator_version": game.version + offset,
                "timestamp": at, "at": at}

    purpose = "tried until it hit"
    dice = tuple(roll_committed(SECRET, RollKey(sealed, GAME_ID, 0, TERRITORY, purpose, 2)))
    record = [*events, DiceCommitted(**next_version(1), commitment=sealed, scheme=SCHEME_2),  # type: ignore[arg-type]
              DiceDrawn(**next_version(2), battle="W Europe", territory=TERRITORY, sequence=0,  # type: ignore[arg-type]
                        purpose=purpose, dice=dice),
              DiceRevealed(**next_version(3), commitment=sealed, secret=SECRET)]  # type: ignore[arg-type]
    folded = project_game(None, record)
    assert folded is not None
    check = check_events(GAME_ID, record, folded)
    assert check.ok and not check.verified and check.checked == 0
    assert "that scheme's purpose was free text" in check.unverified[0], check


def test_the_closed_set_of_purposes() -> None:
    """A throw's purpose is one of three words; anything else cannot even be made."""
    assert PURPOSES == ("volley", "first strike", "correction")
    for bad in ("R1 attacker column 3", "", "volley ", "anything"):
        with pytest.raises(ValueError, match="not a throw's purpose"):
            Throw("UK 2", 1, "attacker", "3", bad, 2)
    assert json.loads(json.dumps(msgspec.to_builtins(Throw("UK 2", 1, "attacker", "3", "volley", 2))))
