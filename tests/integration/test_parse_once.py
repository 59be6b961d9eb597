"""Text is parsed once, where it enters: the review and the report work on typed records only.

Every notation parser is replaced by one that fails, after the replay has been read and folded;
the review (as corrected and as rolled) and the reports must still come out, and equal to what
they are with the parsers in place.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from application.intake.replayfile import parse_replay
from benchmarks.gen_game import generate_replay
from domain.notation import battle_log, declarations, special_orders
from domain.record import intake
from domain.record.game import Game, parse_turn
from domain.review.game_review import review
from domain.rules import forces, names
from projections.report import report_json, report_text

REPLAYS = sorted((Path(__file__).resolve().parents[2] / "replays").rglob("*.toml"))

PARSERS: tuple[Callable[..., Any], ...] = (
    battle_log.parse_log, battle_log.parse_log_line, battle_log.parse_dice, battle_log.parse_unit_list,
    special_orders.parse_special_orders, declarations.parse_declaration, forces.parse_units,
    # The unit-list readers behind parse_units, Force.parse and parse_unit_list (remembered per text).
    forces._parsed_units, battle_log._unit_list,
    names.resolve, intake.resolved, parse_turn,
)


def _forbid_parsers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every module-level binding of a notation parser (or of the name reader) in domain/
    and projections/ fail."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a notation parser was called after intake with {args[:1]!r}")

    patched = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(("domain.", "projections.")) or module is None:
            continue
        for attribute, value in list(vars(module).items()):
            if any(value is parser for parser in PARSERS):
                monkeypatch.setattr(module, attribute, refuse)
                patched.append(f"{name}.{attribute}")
    return patched


def _reports(game: Game) -> tuple[bytes, bytes, str]:
    return (report_json(review(game)), report_json(review(game, as_rolled=True)),
            report_text(review(game)))


def _game(text: str, source: str) -> Game:
    replay = parse_replay(text, source)
    assert replay.game is not None
    return replay.game


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_the_review_of_a_replay_parses_no_notation(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(path.read_text(encoding="utf-8"), str(path))
    expected = _reports(game)
    patched = _forbid_parsers(monkeypatch)
    assert "domain.notation.battle_log.parse_log" in patched
    assert _reports(game) == expected


def test_the_review_of_a_generated_game_parses_no_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(generate_replay(600, seed=3), "<generated>")
    expected = _reports(game)
    _forbid_parsers(monkeypatch)
    assert _reports(game) == expected


def test_the_guard_catches_a_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    # The guard itself: a parser called after it is in place fails.
    _forbid_parsers(monkeypatch)
    from domain.rules.forces import Force

    with pytest.raises(AssertionError, match="notation parser"):
        Force.parse("2 INF")


def test_events_stored_before_the_parsed_form_fold_to_the_same_game() -> None:
    # Roll and orders events stored before they carried their parsed text have no such key:
    # they still decode, and the fold reads their text once.
    from application.adapters.mapper import decode_event, encode_event
    from domain.record.game import project_game

    replay = parse_replay(generate_replay(300, seed=5), "<generated>")
    legacy = []
    for event in replay.events:
        tree = msgspec.msgpack.decode(encode_event(event))
        assert isinstance(tree, dict)
        tree.pop("parsed", None)
        legacy.append(decode_event(type(event).TOPIC, msgspec.msgpack.encode(tree)))
    assert any(getattr(e, "parsed", 0) is None for e in legacy)
    game = project_game(None, legacy)
    assert game is not None and replay.game is not None
    assert msgspec.msgpack.encode(game) == msgspec.msgpack.encode(replay.game)


def test_a_sub_withdrawal_zone_is_resolved_at_intake(monkeypatch: pytest.MonkeyPatch) -> None:
    """The zone a defender's orders withdraw his subs to ("Kar SZ") is resolved when the orders
    are filed; the board walk of the review moves the withdrawn sub there with every parser and
    the name reader refusing (2008 Rules Clarifications, Sub Withdrawal)."""
    from domain.record.board.walk import walk_board
    from domain.review.board_review import outcomes_of
    from domain.rules.forces import Force

    path = next(p for p in REPLAYS if p.name == "sub-withdrawal-refight-2008.toml")
    game = _game(path.read_text(encoding="utf-8"), str(path))
    [orders] = game.battles[0].orders
    assert orders.withdraw_territory == "Karelia Sea Zone"
    expected = _reports(game)
    one_sub = Force.parse("1 SUB")
    _forbid_parsers(monkeypatch)
    outcome = outcomes_of(review(game).battles)["UK 2 / Baltic Sea Zone"]
    assert outcome is not None and outcome.defender_withdrew == one_sub
    board = walk_board(game, {"UK 2 / Baltic Sea Zone": outcome}).final
    assert board.holders("Karelia Sea Zone") == {"Germany": one_sub}
    assert _reports(game) == expected
