"""Turns as values: the order of play and the correction window of 2008 Section VII."""

from __future__ import annotations

import pytest

from application.intake.replayfile import load_replay
from domain.rules.turns import Power, Turn, turn_of
from tests.conftest import REPLAYS


def test_a_label_names_a_power_and_a_round() -> None:
    assert turn_of("USSR 3") == Turn(Power.USSR, 3)
    assert turn_of(" germany 12 ") == Turn(Power.GERMANY, 12)
    assert turn_of("Japan 2").label == "Japan 2"


@pytest.mark.parametrize("label", ["", "USSR", "Italy 2", "USA x", "USA ３"])
def test_a_label_that_names_no_turn_is_refused(label: str) -> None:
    with pytest.raises(ValueError, match="expected a turn"):
        turn_of(label)


def test_the_order_of_play_wraps_to_the_next_round() -> None:
    assert turn_of("UK 1").next() == Turn(Power.JAPAN, 1)
    assert turn_of("USA 1").next() == Turn(Power.USSR, 2)


def test_the_usa_and_the_following_ussr_turn_count_as_one() -> None:
    # 2008 Section VII: an error in a turn is correctable until the next turn's first die;
    # the USA-USSR turn is one turn, so after USA 1 the window closes with Germany 2.
    assert turn_of("UK 1").following() == Turn(Power.JAPAN, 1)
    assert turn_of("USA 1").following() == Turn(Power.GERMANY, 2)
    assert turn_of("USSR 2").following() == Turn(Power.GERMANY, 2)


def test_a_battle_record_reads_its_turn_as_a_value_and_keeps_the_label_as_its_key() -> None:
    game = load_replay(REPLAYS / "games" / "two-turns-board-moves-on-2008.toml").game
    battle = game.battles[0]
    assert battle.turn_value == turn_of(battle.turn)
    assert battle.turn_value.label == battle.turn
    assert battle.key.startswith(f"{battle.turn} / ")
    assert {b.turn_value.power for b in game.battles} >= {Power.USSR}
