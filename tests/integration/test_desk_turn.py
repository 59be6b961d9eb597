"""``--turn`` on the desk's commands (issue 27, item 10; issue 28, item 6), on every store: where
two battles of a game were fought in one territory, ``dice``, ``report``, ``roll`` and ``rule``
refuse the territory alone (exit 2, the candidates listed, nothing stored) and take the battle
by its turn and territory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from application.adapters.app import MinisterApplication
from application.adapters.stores import open_store
from application.intake.replayfile import load_replay, parse_replay
from application.usecases.desk.dice import enter_dice
from application.usecases.desk.papers import report, rule
from application.usecases.transfer import import_replay
from domain.errors import MinisterError
from domain.review.game_review import review
from tests.conftest import REPLAYS
from tests.integration.store_helpers import postgres_schema
from tests.unit.test_replay_strict import TWO_BATTLES
from tui.cli import main

GAME = "two-caucasus"


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MinisterApplication]:
    if request.param == "postgres":
        with postgres_schema() as spec:
            store = open_store(spec)
            yield store
            store.close()
        return
    store = open_store("memory:" if request.param == "memory" else f"sqlite:{tmp_path / 's.sqlite3'}")
    yield store
    store.close()


def test_a_territory_fought_over_twice_needs_the_turn(app: MinisterApplication) -> None:
    import_replay(app, parse_replay(TWO_BATTLES, "two.toml"))
    before = app.game(GAME).version
    for attempt in (lambda: enter_dice(app, GAME, "Caucasus", "3 4"),
                    lambda: report(app, GAME, "USSR", "wrong dice", "Cauc")):
        with pytest.raises(MinisterError) as caught:
            attempt()
        assert str(caught.value).startswith("--battle 'Cauc") and "names 2 battles" in str(caught.value)
        assert "Caucasus (Germany 2), Caucasus (USSR 3); name its turn too" in str(caught.value)
    with pytest.raises(MinisterError, match="--turn 'UK 2': game 'two-caucasus' has no such turn"):
        report(app, GAME, "USSR", "wrong dice", "Caucasus", turn="UK 2")
    assert app.game(GAME).version == before  # nothing stored
    dice = enter_dice(app, GAME, "Caucasus", "3 4", turn="germany 2")
    filed = report(app, GAME, "USSR", "wrong dice", "Caucasus", turn="USSR 3")
    assert (dice.turn, filed.turn) == ("Germany 2", "USSR 3")
    game = app.game(GAME)
    assert [len(b.supplied) for b in game.battles] == [1, 0]
    assert [(r.territory, r.turn) for r in game.reports] == [("Caucasus", "USSR 3")]


def test_a_ruling_names_its_finding_by_turn(app: MinisterApplication) -> None:
    replay = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml")
    import_replay(app, replay)
    with pytest.raises(MinisterError, match="--turn no finding 'treasury_wrong' in Germany 2"):
        rule(app, replay.game_id, "treasury_wrong", "dismiss", turn="Germany 2")
    given = rule(app, replay.game_id, "treasury_wrong", "dismiss", turn="UK 2")
    assert given.turn == "UK 2"
    ruled = {f.turn: f.ruling for f in review(app.game(replay.game_id)).findings
             if f.kind == "treasury_wrong"}
    assert ruled["USSR 2"] is None and ruled["UK 2"] is not None


def test_the_command_line_refuses_and_lists_the_candidates(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.toml"
    path.write_text(TWO_BATTLES, encoding="utf-8")
    store = f"sqlite:{tmp_path / 's.sqlite3'}"
    assert main(["import", str(path), "--store", store]) == 0
    capsys.readouterr()
    assert main(["dice", GAME, "--battle", "Caucasus", "3", "4", "--store", store]) == 2
    err = capsys.readouterr().err
    assert "minister: --battle 'Caucasus' names 2 battles" in err and "Caucasus (USSR 3)" in err
    assert main(["dice", GAME, "--battle", "Caucasus", "--turn", "USSR 3", "3", "4",
                 "--store", store, "--json"]) == 0
    assert '"turn": "USSR 3"' in capsys.readouterr().out
