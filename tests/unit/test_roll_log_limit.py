"""The stated limit on roll-log lines in one file (issue 14, item 4: memory grows with them)."""

from __future__ import annotations

import pytest

from application.intake import record_events, replayfile
from application.intake.replayschema import MAX_LOG_LINES
from benchmarks.bench_roll_log import roll_log_game
from domain.errors import ReplayError


def test_roll_log_lines_have_a_stated_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_events, "MAX_LOG_LINES", 30)
    replayfile.parse_replay(roll_log_game(24))
    text = roll_log_game(36)
    with pytest.raises(ReplayError, match="expected at most 30 roll-log lines in one file") as error:
        replayfile.parse_replay(text, "long.toml")
    assert error.value.line is not None and text.splitlines()[error.value.line - 1].startswith("log = ")


def test_the_limit_is_far_above_a_real_game() -> None:
    assert MAX_LOG_LINES >= 100_000


def test_roll_log_dice_have_a_stated_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory grows with the dice of the logs too (a line may hold hundreds): a second limit."""
    from application.intake.replayschema import MAX_LOG_DICE

    monkeypatch.setattr(record_events, "MAX_LOG_DICE", 40)
    replayfile.parse_replay(roll_log_game(24))  # 16 side lines of 2 dice: 32
    text = roll_log_game(36)  # 48 dice
    with pytest.raises(ReplayError, match="expected at most 40 dice in the roll logs of one file, "
                                          "found 48 by this roll") as error:
        replayfile.parse_replay(text, "dice.toml")
    assert error.value.line is not None and text.splitlines()[error.value.line - 1].startswith("log = ")
    assert MAX_LOG_DICE >= 4 * 100_000
