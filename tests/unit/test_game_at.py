"""Game.at: any earlier state derived from a later one is exactly what the fold built then.

Random records of every kind (map updates, declarations and their amendments, late declarations,
rolls, orders, casualties, repeated retreats, correction dice, drawn dice, reports, rulings,
weapons development, non-combat moves) are folded; for every version, the derived state must
encode byte for byte as folding that many events, and derived states must stay independent of
the state they came from.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.notation.battle_log import parse_log
from domain.record.events import (
    BattleFacts,
    BidFacts,
    BidRecorded,
    CasualtiesChosen,
    DeclarationRecorded,
    DiceDrawn,
    DiceSupplied,
    GameEvent,
    GameFinished,
    GameStarted,
    Holding,
    MapCount,
    MapFacts,
    MapUpdateRecorded,
    Move,
    NonCombatRecorded,
    OrdersRecorded,
    Placed,
    PlacementRecorded,
    PositionRecorded,
    PurchaseRecorded,
    ReportFiled,
    RetreatDeclared,
    RollRecorded,
    RulingIssued,
    TechRolled,
)
from domain.record.game import Game, project_game, start_game
from domain.rules.forces import Force

LAND = ("Karelia S.S.R.", "Ukraine S.S.R.", "West Europe", "East Europe", "Caucasus")
SEA = ("Baltic Sea Zone",)
POWERS = ("USSR", "Germany", "UK", "Japan", "USA")
TURNS = ("USSR 1", "Germany 1", "UK 1", "USSR 2")
FORCES = tuple(Force.parse(text) for text in ("1 INF", "2 INF, 1 ARM", "1 FTR", "3 INF, AA", "1 BB, 1 TRN"))
KINDS = ("position", "declaration", "roll", "roll", "orders", "casualties", "retreat", "dice",
         "drawn", "report", "ruling", "tech", "noncombat", "purchase", "placement", "map_update",
         "bid", "finish")
START = datetime(2008, 1, 1, 10, 0, tzinfo=UTC)


def _encoded(game: Game | None) -> bytes:
    return msgspec.msgpack.encode(game)


class _Record:
    """Draws one valid event of a kind, given the game so far (records name declared battles)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.id = uuid4()
        self.events: list[GameEvent] = [GameStarted(
            originator_id=self.id, originator_version=1, timestamp=START, at=START,
            game_id="property", edition="iaapa-2008")]
        self.game = start_game(self.events[0])  # type: ignore[arg-type]

    def draw(self, strategy: st.SearchStrategy[Any]) -> Any:
        return self.data.draw(strategy)

    def add(self, kind: str) -> None:
        version = len(self.events) + 1
        stamp = START + timedelta(minutes=version)
        common: dict[str, Any] = {"originator_id": self.id, "originator_version": version,
                                  "timestamp": stamp,
                                  "at": self.draw(st.sampled_from((stamp, stamp, None))),
                                  "source_line": self.draw(st.sampled_from((None, version)))}
        fields = self._fields(kind)
        if fields is None:
            return
        cls, values = fields
        event = cls(**common, **values)
        self.events.append(event)
        self.game.apply(event)

    def _battle(self) -> tuple[str, str] | None:
        if not self.game.battles:
            return None
        record = self.draw(st.sampled_from(self.game.battles))
        return record.territory, record.turn

    def _fields(self, kind: str) -> tuple[type[GameEvent], dict[str, Any]] | None:
        draw = self.draw
        if kind == "position":
            holdings = tuple(Holding(power=draw(st.sampled_from(POWERS)),
                                     territory=draw(st.sampled_from(LAND + SEA)),
                                     units=draw(st.sampled_from(FORCES)))
                             for _ in range(draw(st.integers(1, 4))))
            return PositionRecorded, {"holdings": holdings}
        if kind == "declaration":
            battles = tuple(self._facts(i) for i in range(draw(st.integers(1, 3))))
            return DeclarationRecorded, {"turn": draw(st.sampled_from(TURNS)), "text": "as declared",
                                         "battles": battles}
        if kind == "tech":
            return TechRolled, {"turn": draw(st.sampled_from(TURNS)), "dice": (6, 2),
                                "declared": draw(st.sampled_from((None, 2)))}
        if kind == "report":
            return ReportFiled, {"by": "UK", "text": "recheck", "battle": draw(st.sampled_from((None, "x")))}
        if kind == "ruling":
            return RulingIssued, {"finding": "F1", "decision": "apply", "election": None}
        if kind == "noncombat":
            move = Move(origin=draw(st.sampled_from(LAND)), units=draw(st.sampled_from(FORCES)),
                        landing=draw(st.sampled_from(LAND)), raw="as listed")
            return NonCombatRecorded, {"turn": draw(st.sampled_from(TURNS)), "moves": ("as listed",),
                                       "parsed": (move,)}
        board = self._board_record(kind)
        if board is not None:
            return board
        found = self._battle()
        if found is None:
            return None
        territory, turn = found
        named = {"battle": territory, "territory": territory}
        if kind == "roll":
            return RollRecorded, {**named, "log": f"R{draw(st.integers(1, 3))}",
                                  "round_number": draw(st.sampled_from((None, 1)))}
        if kind == "orders":
            return OrdersRecorded, {**named, "turn": turn, "side": "attacker", "text": "retreat after R2"}
        if kind == "casualties":
            return CasualtiesChosen, {**named, "round": draw(st.integers(1, 3)),
                                      "side": draw(st.sampled_from(("attacker", "defender"))),
                                      "units": draw(st.sampled_from(FORCES))}
        if kind == "retreat":
            return RetreatDeclared, {**named, "after_round": draw(st.integers(1, 3)),
                                     "to": draw(st.sampled_from(LAND))}
        if kind == "dice":
            return DiceSupplied, {**named, "dice": (draw(st.integers(1, 6)), 3)}
        return DiceDrawn, {**named, "sequence": len(self.events), "purpose": "correction", "dice": (4,)}

    def _board_record(self, kind: str) -> tuple[type[GameEvent], dict[str, Any]] | None:
        """The board's records (purchases, placements, map updates, bids, finishes)."""
        draw = self.draw
        turn = draw(st.sampled_from(TURNS))
        holding = Holding(power=draw(st.sampled_from(POWERS)), territory=draw(st.sampled_from(LAND + SEA)),
                          units=draw(st.sampled_from(FORCES)))
        if kind == "purchase":
            return PurchaseRecorded, {"turn": turn, "units": "2 INF", "parsed": Force.parse("2 INF")}
        if kind == "placement":
            return PlacementRecorded, {"turn": turn, "place": ("x",), "parsed": (
                Placed(territory=draw(st.sampled_from(LAND)), units=draw(st.sampled_from(FORCES))),)}
        if kind == "map_update":
            count = draw(st.sampled_from((None, MapCount("UK", 17, 30, "UK 17/$30"))))
            return MapUpdateRecorded, {"turn": turn, "parsed": MapFacts((holding,), count)}
        if kind == "bid":
            return BidRecorded, {"parsed": BidFacts(add=(holding,), ipcs=(("Japan", 1),))}
        if kind == "finish":
            return GameFinished, {"result": "annulled", "by": "both"}
        return None

    def _facts(self, index: int) -> BattleFacts:
        draw = self.draw
        territory = draw(st.sampled_from(LAND + SEA))
        moves = tuple(Move(origin=draw(st.sampled_from(LAND + SEA)), units=draw(st.sampled_from(FORCES)),
                           transports=draw(st.sampled_from((0, 0, 1))), raw="as declared")
                      for _ in range(draw(st.integers(1, 2))))
        return BattleFacts(territory=territory, written=territory, number=index + 1,
                           defenders=draw(st.sampled_from((None, *FORCES))), moves=moves, line=index + 2,
                           typos=draw(st.sampled_from(((), ("'ing' read as INF",)))))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_earlier_state_is_the_fold_of_that_many_events(data: st.DataObject) -> None:
    record = _Record(data)
    for _ in range(data.draw(st.integers(1, 45))):
        record.add(data.draw(st.sampled_from(KINDS)))
    events = record.events
    full = project_game(None, events)
    assert full is not None
    before = _encoded(full)
    for version in range(1, len(events) + 1):
        derived = full.at(version)
        assert _encoded(derived) == _encoded(project_game(None, events[:version])), version
        # A derived state is a state like any other: earlier ones derive from it, and folding
        # the later events into it gives the full game back, leaving the full game untouched.
        earlier = data.draw(st.integers(1, version))
        assert _encoded(derived.at(earlier)) == _encoded(full.at(earlier))
        assert _encoded(project_game(derived, events[version:])) == before
    assert _encoded(full) == before


GAME = uuid4()


def _event(cls: type[GameEvent], version: int, **fields: Any) -> Any:
    stamp = START + timedelta(minutes=version)
    return cls(originator_id=GAME, originator_version=version, timestamp=stamp, at=stamp, **fields)


def _declaration(version: int, origin: str) -> DeclarationRecorded:
    facts = BattleFacts(territory="Ukraine S.S.R.", written="Ukraine", number=1, defenders=None,
                        moves=(Move(origin=origin, units=Force.parse("2 INF")),))
    result: DeclarationRecorded = _event(DeclarationRecorded, version, turn="USSR 1", text="...",
                                         battles=(facts,))
    return result


def _small_game() -> list[GameEvent]:
    return [_event(GameStarted, 1, game_id="amended", edition="iaapa-2008"),
            _event(PositionRecorded, 2, holdings=(
                Holding(power="Germany", territory="Ukraine S.S.R.", units=Force.parse("1 INF")),)),
            _declaration(3, "Karelia S.S.R."), _declaration(4, "Caucasus"),
            _event(RollRecorded, 5, battle="Ukraine", territory="Ukraine S.S.R.", log="R1"),
            _event(RetreatDeclared, 6, battle="Ukraine", territory="Ukraine S.S.R.", after_round=1,
                   to="Caucasus"),
            _event(RetreatDeclared, 7, battle="Ukraine", territory="Ukraine S.S.R.", after_round=2,
                   to="Karelia S.S.R.")]


def test_amended_battles_come_back_before_the_amendment() -> None:
    """Battles an amendment replaced are kept aside, so the game before it shows them."""
    events = _small_game()
    full = project_game(None, events)
    assert full is not None
    [replaced] = full.withdrawn
    assert (replaced.withdrawn_seq, replaced.moves[0].origin) == (3, "Karelia S.S.R.")
    assert [b.moves[0].origin for b in full.at(3).battles] == ["Karelia S.S.R."]
    assert full.at(3).battles[0].withdrawn_seq == 0 and full.at(3).withdrawn == []
    assert [b.moves[0].origin for b in full.at(4).battles] == ["Caucasus"]
    for version in range(1, len(events) + 1):
        assert _encoded(full.at(version)) == _encoded(project_game(None, events[:version]))


def test_the_retreat_in_force_is_the_one_declared_by_then() -> None:
    full = project_game(None, _small_game())
    assert full is not None
    assert full.battles[0].retreat == (2, "Karelia S.S.R.")
    assert full.at(6).battles[0].retreat == (1, "Caucasus")
    assert full.at(5).battles[0].retreat is None and full.at(5).battles[0].rolls[0].parsed == parse_log("R1")


def test_a_version_outside_the_game_is_refused() -> None:
    full = project_game(None, _small_game()[:2])
    assert full is not None
    assert full.at(1).holdings == {} and full.at(2).holdings != {}
    for version in (0, 3):
        with pytest.raises(ValueError, match="expected a version from 1 to 2"):
            full.at(version)
