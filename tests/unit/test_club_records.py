"""What else a real game records (issue 28, item 6): strategic bombing raids, rockets, IPCs paid
to enter a neutral, forfeit requests and decisions, concessions. Read from a replay file (bad
input refused at its line), filed in record order, and what each takes from a treasury
(domain.record.ipc_changes: the hook the treasury calls)."""

from __future__ import annotations

import dataclasses

import pytest

from application.intake.replayfile import load_replay, parse_replay
from application.usecases.transfer import write_replay
from domain.errors import ReplayError
from domain.record.board.walk import walk_board
from domain.record.entries import BoardNote
from domain.record.game import Game
from domain.record.ipc_changes import IPC_KINDS, ipc_change, pay
from domain.review.board_review import outcomes_of
from domain.review.game_review import review
from tests.conftest import ROOT

IPC_LOSSES = ROOT / "replays" / "procedures" / "ipc-losses-2008.toml"
TEXT = IPC_LOSSES.read_text(encoding="utf-8").split("\n[expect]")[0]


class Purse:
    """A treasury being walked, as the hook hands it: each power's IPCs now."""

    def __init__(self, **ipcs: int) -> None:
        self.ipcs = dict(ipcs)
        self.changes: list[tuple[int, str, int]] = []

    def of(self, power: str) -> int:
        return self.ipcs.get(power, 0)

    def add(self, seq: int, power: str, amount: int) -> None:
        self.changes.append((seq, power, amount))
        self.ipcs[power] = self.of(power) + amount


def _notes(game: Game) -> dict[str, BoardNote]:
    return {n.kind: n for n in game.board_log if n.kind in IPC_KINDS}


def test_the_records_are_filed_in_record_order_and_survive_an_export() -> None:
    replay = parse_replay(TEXT, "losses.toml")
    notes = _notes(replay.game)
    assert (notes["neutral"].territory, notes["neutral"].turn) == ("Turkey", "Germany 1")
    assert (notes["bombing"].territory, notes["bombing"].dice) == ("United Kingdom", (5,))
    assert (notes["rocket"].origin, notes["rocket"].territory, notes["rocket"].dice) == \
        ("Germany", "Russia", (4,))
    again = parse_replay(write_replay(replay.events), "exported.toml")
    assert again.game.board_log == replay.game.board_log
    assert [e.chain for e in again.events] == [e.chain for e in replay.events]


def test_what_each_record_takes_and_from_whom() -> None:
    game = parse_replay(TEXT).game
    walk = walk_board(game, outcomes_of(review(game).battles))
    notes = _notes(game)
    purse = Purse(USSR=24, Germany=26, UK=30)
    taken = {kind: pay(note, walk.before(note.seq), purse) for kind, note in notes.items()}
    assert {kind: (c.power, c.amount, c.due) for kind, c in taken.items() if c is not None} == {
        "neutral": ("Germany", -3, 3), "bombing": ("UK", -5, 5), "rocket": ("USSR", -4, 4)}
    assert purse.ipcs == {"USSR": 20, "Germany": 23, "UK": 25}
    assert "Milton Bradley 2nd edition rules booklet" in taken["bombing"].rule  # type: ignore[union-attr]
    assert "Rocket Technology" in taken["rocket"].rule  # type: ignore[union-attr]


def test_a_power_never_loses_more_than_it_has() -> None:
    game = parse_replay(TEXT.replace('dice = "5"', 'dice = "6 6"')).game
    walk = walk_board(game, outcomes_of(review(game).battles))
    note = _notes(game)["bombing"]
    change = ipc_change(note, walk.before(note.seq), Purse(UK=7))
    assert change is not None and (change.amount, change.due) == (-7, 12)
    assert ipc_change(note, walk.before(note.seq), Purse(UK=0)) is not None
    assert pay("not a record", walk.before(note.seq), Purse()) is None


@pytest.mark.parametrize("target", ["Ukraine", "Germany"])
def test_a_raid_without_an_enemy_industrial_complex_takes_nothing(target: str) -> None:
    # Ukraine: the USSR's (an enemy's) but no industrial complex; Germany: the raider's own.
    game = parse_replay(TEXT.replace('target = "United Kingdom"', f'target = "{target}"')).game
    walk = walk_board(game, outcomes_of(review(game).battles))
    note = _notes(game)["bombing"]
    assert ipc_change(note, walk.before(note.seq), Purse(USSR=24, Germany=26)) is None


def test_a_void_turn_takes_nothing() -> None:
    game = parse_replay(TEXT).game
    walk = dataclasses.replace(walk_board(game, outcomes_of(review(game).battles)),
                               void=frozenset({"Germany 1"}))
    for note in _notes(game).values():
        assert ipc_change(note, walk.before(note.seq), Purse(USSR=24, Germany=26, UK=30)) is None


RECORD = '\n[[event]]\nat = 2008-04-05T09:00:00Z\n'


@pytest.mark.parametrize(("record", "key", "words"), [
    ('type = "rocket"\nturn = "Germany 2"\nlauncher = "Germany"\ntarget = "Russia"\ndice = "4 2"\n',
     "dice", "expected dice = one die (a rocket is one shot"),
    ('type = "bombing"\nturn = "Germany 2"\ntarget = "North Sea"\ndice = "4"\n',
     "target", "expected target = a land territory"),
    ('type = "neutral"\nturn = "Germany 2"\nneutral = "Ukraine"\n',
     "neutral", "expected neutral = a neutral territory of the board, found 'Ukraine S.S.R.'"),
    ('type = "forfeit_request"\nby = "Italy"\ntext = "late"\n', "by", "expected by = a side (Axis, Allies)"),
    ('type = "forfeit_decision"\ndecision = "granted"\n', "decision",
     "expected decision = one of approved, not_approved"),
    ('type = "forfeit_decision"\ndecision = "approved"\n', "decision",
     "expected a forfeit_request before this forfeit_decision"),
    ('type = "concession"\nby = "Axis"\nttext = "gg"\n', "ttext", "did you mean 'text'?"),
])
def test_bad_records_are_refused_at_their_line(record: str, key: str, words: str) -> None:
    text = TEXT + RECORD + record
    with pytest.raises(ReplayError) as caught:
        parse_replay(text, "game.toml")
    assert caught.value.line == next(i for i, line in enumerate(text.splitlines(), 1)
                                     if line.startswith(f"{key} ") and i > len(TEXT.splitlines()))
    assert words in caught.value.message


def test_the_shipped_forfeit_records() -> None:
    replay = load_replay(ROOT / "replays" / "procedures" / "forfeit-request-2008.toml")
    kinds = [(n.kind, n.by, n.result) for n in replay.game.board_log if n.kind.startswith("forfeit")]
    assert kinds == [("forfeit_request", "Axis", ""), ("forfeit_decision", "Minister of Law", "not_approved"),
                     ("forfeit_request", "Allies", ""), ("forfeit_decision", "Minister of Law", "approved")]
    # Time travel keeps exactly the records filed by then.
    before = replay.game.at(10)
    assert [n.kind for n in before.board_log][-1] == "forfeit_request"


def test_the_timeline_names_them_on_their_turns_line() -> None:
    turns = {t.turn: t.kinds for t in review(parse_replay(TEXT).game).turn_records}
    assert turns["Germany 1"] == ("purchase", "neutral entered", "bombing raid", "rocket", "map update")
