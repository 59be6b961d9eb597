"""A record entered late keeps its claimed time apart from when it was recorded (issue 12):
the replay file's ``entered`` key, and the bounds a claimed time must keep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from application.intake.replayfile import parse_replay
from domain.errors import ReplayError
from domain.record.claimed import claimed_time_problem
from domain.record.events import DiceSupplied, ReportFiled
from tests.e2e.test_late_entry import LATER

T = datetime(2008, 7, 7, 10, 0, tzinfo=UTC)


def late(record: str) -> str:
    return LATER + "[[event]]\n" + record


def test_a_report_entered_after_later_rolls_claims_the_emails_time() -> None:
    replay = parse_replay(late('type = "report"\nat = 2008-07-05T20:00:00Z\nentered = 2008-07-07T10:00:00Z\n'
                               'by = "Germany"\nbattle = "W Europe"\ntext = "1 ARM"\n'))
    event = replay.events[-1]
    assert isinstance(event, ReportFiled)
    assert event.at == datetime(2008, 7, 5, 20, tzinfo=UTC) and event.timestamp == T
    assert replay.game.reports[-1].at == event.at and replay.game.stamps[-1] == T
    # Time travel by recording: the report is not there the hour before it was entered.
    assert replay.game.version_at(T - timedelta(hours=1)) == len(replay.events) - 1


def test_dice_entered_late_claim_the_dice_servers_time() -> None:
    replay = parse_replay(late('type = "dice"\nat = 2008-07-05T19:00:00Z\nentered = 2008-07-07T10:00:00Z\n'
                               'battle = "W Europe"\ndice = "6 6"\n'))
    event = replay.events[-1]
    assert isinstance(event, DiceSupplied) and event.at == datetime(2008, 7, 5, 19, tzinfo=UTC)


@pytest.mark.parametrize(("record", "expected", "key"), [
    # Without ``entered`` a record earlier than the one before it is out of order, as before.
    ('type = "report"\nat = 2008-07-05T20:00:00Z\nby = "G"\ntext = "t"\n',
     "events must be in the order they happened", "at"),
    ('type = "report"\nat = 2008-07-05T20:00:00Z\nentered = 2008-07-06T00:00:00Z\nby = "G"\ntext = "t"\n',
     "before the previous event's", "entered"),
    ('type = "report"\nat = 2008-07-08T00:00:00Z\nentered = 2008-07-07T10:00:00Z\nby = "G"\ntext = "t"\n',
     "is in the future of its entry", "at"),
    ('type = "ruled"\nat = 2008-07-01T00:00:00Z\nentered = 2008-07-07T10:00:00Z\nfinding = "F1"\n'
     'decision = "apply"\n', "before the game's start", "at"),
    ('type = "report"\nat = 2008-07-06T18:00:00Z\nentered = 2008-07-07T10:00:00Z\nby = "G"\n'
     'battle = "SFE"\ntext = "t"\n', "before the battle Soviet Far East (Japan 2) was rolled", "at"),
])
def test_an_impossible_entry_names_its_line(record: str, expected: str, key: str) -> None:
    text = late(record)
    with pytest.raises(ReplayError, match=expected.replace("(", r"\(").replace(")", r"\)")) as error:
        parse_replay(text, "late.toml")
    lines = text.splitlines()
    assert error.value.line is not None and lines[error.value.line - 1].startswith(f"{key} = ")


def test_the_bounds_of_a_claimed_time() -> None:
    start = T - timedelta(days=5)
    assert claimed_time_problem(T, T, start=start) is None
    assert claimed_time_problem(T + timedelta(minutes=4), T, start=start, skew=timedelta(minutes=5)) is None
    assert "future" in (claimed_time_problem(T + timedelta(seconds=1), T, start=start) or "")
    assert "game's start" in (claimed_time_problem(start - timedelta(seconds=1), T, start=start) or "")
    assert "was rolled" in (claimed_time_problem(T - timedelta(days=1), T, start=start, battle="X",
                                                 rolled=T - timedelta(hours=1)) or "")
