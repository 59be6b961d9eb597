"""The map's read model (projections/board_map.py): the board at a point of the timeline, folded
from the battles' places, in both histories, with what the turn changed and where they part."""

from __future__ import annotations

import msgspec

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from domain.rules.board import Board
from projections.board_map import BoardMaps, HistoryBoard, MapPoint, Square, battle_places, units_text
from projections.timeline import Timeline, opening_part
from tests.conftest import REPLAYS


def _timeline(path: str, *, as_rolled: bool = False) -> Timeline:
    game = load_replay(REPLAYS / path).game
    corrected, rolled = review(game), review(game, as_rolled=True)
    return Timeline(rolled, corrected) if as_rolled else Timeline(corrected, rolled)


def _point(timeline: Timeline, turn: str, battle: str | None = None) -> MapPoint:
    index = timeline.turn_node(turn)
    assert index is not None
    if battle is not None:
        index = next(timeline.battle_node(b) for b, view in enumerate(timeline.main.battles)
                     if (view.turn, view.battle) == (turn, battle))
    point = BoardMaps(timeline).at(index)
    assert point is not None
    return point


def _units(square: Square) -> str:
    return f"{square.holder}: {units_text(square.units)}"


def test_the_board_moves_on_from_battle_to_battle() -> None:
    """The two-turn game: USSR takes East Europe from Karelia; Germany then takes Karelia back."""
    timeline = _timeline("games/two-turns-board-moves-on-2008.toml")
    taken = _point(timeline, "USSR 1", "East Europe")
    assert taken.title == "USSR 1 · after the battle in East Europe"
    assert _units(taken.squares["East Europe"]) == "USSR: USSR 2 INF, 2 ARM"
    assert _units(taken.squares["Karelia S.S.R."]) == "USSR: USSR 1 INF, AA, IC"
    assert dict(taken.roles) == {"East Europe": ("battle",), "Karelia S.S.R.": ("origin",)}
    assert taken.changed == {"East Europe", "Karelia S.S.R."}
    karelia = _point(timeline, "Germany 1", "Karelia S.S.R.")
    assert _units(karelia.squares["Karelia S.S.R."]) == "Germany: Germany 3 INF, 1 ARM, AA, IC"
    # East Europe is the turn's next battle: touched, not changed yet, still as USSR left it.
    assert _units(karelia.squares["East Europe"]) == "USSR: USSR 2 INF, 2 ARM"
    assert karelia.touched == {"East Europe", "Finland Norway", "Germany", "Karelia S.S.R."}
    # The turn's combat moves are made together: Germany's FTR has left for East Europe already.
    assert karelia.changed == {"Finland Norway", "Germany", "Karelia S.S.R."}
    assert karelia.squares["Karelia S.S.R."].seen == "after the battle in Karelia S.S.R. (Germany 1)"


def test_a_turn_shows_the_board_as_its_battles_were_declared() -> None:
    timeline = _timeline("games/two-turns-board-moves-on-2008.toml")
    start = _point(timeline, "Germany 1")
    assert start.title == "Germany 1 · as its battles were declared"
    assert start.battle is None and not start.roles and not start.changed
    assert _units(start.squares["Karelia S.S.R."]) == "USSR: USSR 1 INF, AA, IC"
    assert start.squares["Karelia S.S.R."].seen == "after USSR 1's combat moves"
    assert start.since == "after the last battle"


def test_a_place_no_record_touched_shows_the_classic_setup_and_says_so() -> None:
    point = _point(_timeline("games/full-game-three-rounds-2008.toml"), "Japan 1", "China")
    canada = point.squares["East Canada"]
    setup = Board.classic().setup["UK"]["East Canada"]
    assert (canada.holder, canada.units, canada.seen) == ("UK", (("UK", setup),), "")
    assert point.squares["Sweden"].holder is None  # a neutral
    assert point.squares["North Sea Zone"].holder is None  # a sea zone


def test_the_bid_placements_and_non_combat_moves_show_where_they_happen() -> None:
    """Not only battles move the board: the bid before the first turn, USSR 1's placement and
    non-combat move after its battle show from the next turn's line, marked changed since the
    last battle, in both histories."""
    for as_rolled in (False, True):
        timeline = _timeline("games/full-game-three-rounds-2008.toml", as_rolled=as_rolled)
        first = _point(timeline, "USSR 1")
        assert first.since == "at the start of the record"
        assert _units(first.squares["Ukraine S.S.R."]) == "Germany: Germany 4 INF, 2 ARM, 1 FTR"
        assert first.squares["Ukraine S.S.R."].seen == "after the bid"
        assert first.changed == {"Caroline Islands Sea Zone", "Ukraine S.S.R."}
        germany = _point(timeline, "Germany 1")
        assert germany.since == "after the last battle"
        # Russia: 3 INF placed, 2 ARM moved to Karelia (USSR 1's Post Combat Orders).
        assert _units(germany.squares["Russia"]) == "USSR: USSR 7 INF, 1 FTR, AA, IC"
        assert _units(germany.start["Russia"]) == "USSR: USSR 4 INF, 2 ARM, 1 FTR, AA, IC"
        assert germany.squares["Russia"].seen == "after USSR 1's non-combat moves"
        assert _units(germany.squares["Karelia S.S.R."]) == "USSR: USSR 2 ARM, 1 FTR, AA, IC"
        assert germany.changed == {"Karelia S.S.R.", "Russia"}
        assert germany.differs == frozenset()
        china = _point(timeline, "Japan 1", "China")
        assert _units(china.squares["United Kingdom"]) == "UK: UK 4 INF, 1 ARM, 2 FTR, 1 BMB, AA, IC"
        assert china.squares["United Kingdom"].seen == "after UK 1's placements"


def test_a_battle_awaiting_dice_shows_its_attackers_in_it_not_back_home() -> None:
    """Awaiting a correction die, USSR 3's Ukraine battle is begun and not resolved: as corrected
    its attackers stand in Ukraine beside Germany's defenders (contested), not in Karelia; as
    rolled the USSR took it."""
    point = _point(_timeline("fidelity/void-turn-findings-superseded-2008.toml"), "Germany 3")
    ukraine = point.squares["Ukraine S.S.R."]
    assert _units(ukraine) == "Germany: Germany 2 INF; USSR 3 INF, 1 ARM"
    assert ukraine.seen == "after the battle in Ukraine S.S.R. (USSR 3) (begun, awaiting dice)"
    assert point.contested == {"Ukraine S.S.R."}
    assert _units(point.squares["Karelia S.S.R."]) == "USSR: USSR 1 INF"
    assert point.other is not None and _units(point.other["Ukraine S.S.R."]) == "USSR: USSR 3 INF"
    assert point.differs == {"Ukraine S.S.R."}


def test_where_the_histories_part_the_other_board_is_given() -> None:
    """A correction that turns the battle: as corrected USSR takes East Europe, as rolled it stands."""
    timeline = _timeline("part14/east-europe-forgotten-armour.toml")
    point = _point(timeline, "USSR 3", "East Europe")
    assert point.differs == {"Caucasus", "East Europe", "Karelia S.S.R."}
    assert point.other is not None
    assert _units(point.squares["East Europe"]) == "USSR: USSR 6 INF, 3 ARM, AA"
    assert _units(point.other["East Europe"]) == "Germany: Germany 2 INF, 3 ARM, 2 FTR, AA"
    assert not point.as_rolled
    rolled = _point(_timeline("part14/east-europe-forgotten-armour.toml", as_rolled=True), "USSR 3",
                    "East Europe")
    assert rolled.as_rolled and rolled.differs == point.differs
    assert rolled.squares["East Europe"] == point.other["East Europe"]


def test_before_the_battle_the_histories_agree() -> None:
    timeline = _timeline("part14/east-europe-forgotten-armour.toml")
    assert _point(timeline, "USSR 3").differs == frozenset()


def test_without_the_other_history_nothing_is_compared() -> None:
    game = load_replay(REPLAYS / "part14" / "east-europe-forgotten-armour.toml").game
    timeline = Timeline(review(game))
    point = BoardMaps(timeline).at(timeline.battle_node(0))
    assert point is not None and point.other is None and point.differs == frozenset()


def test_a_battles_places_are_what_the_walk_gives_around_it() -> None:
    """The places the board panel lists, read from the view's history when shown, are the
    walk's own board before the declaration and after the battle's last record."""
    from domain.record.board.walk import walk_board
    from domain.review.board_review import outcomes_of

    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    view = review(game)
    walk = walk_board(game, outcomes_of(view.battles))
    for b, record in enumerate(game.battles):
        places = battle_places(view, b)
        assert [p.territory for p in places] == [name for name, _ in view.board_roles[b]]
        for place in places:
            before, after = walk.at_declaration(record), walk.before(record.last_seq + 1)
            assert (place.holder_before, dict(place.before)) == (before.control_of(place.territory),
                                                                  before.holders(place.territory))
            assert (place.holder_after, dict(place.after)) == (after.control_of(place.territory),
                                                                after.holders(place.territory))


def test_a_game_without_battles_or_turns_has_no_board_point() -> None:
    view = review(load_replay(REPLAYS / "games" / "two-turns-board-moves-on-2008.toml").game)
    assert BoardMaps(Timeline(msgspec.structs.replace(view, battles=(), turn_records=()))).at(0) is None


def test_a_turn_without_battles_shows_the_board_after_its_records() -> None:
    """Rounds 2 and 3 of the full game have no battle: each turn's line shows the board after
    its purchase, placements, non-combat moves and map update, and what they changed, in both
    histories (before, the map never got past Japan 1's battle in China)."""
    for as_rolled in (False, True):
        timeline = _timeline("games/full-game-three-rounds-2008.toml", as_rolled=as_rolled)
        ussr = _point(timeline, "USSR 2")
        assert ussr.title == ("USSR 2 · no battle · after its purchase, placements, non-combat moves, "
                              "map update")
        assert ussr.battle is None and not ussr.roles and ussr.since == "at the turn's start"
        # 3 INF placed in Russia, 3 INF moved on to Karelia: Russia ends as it began.
        assert _units(ussr.squares["Karelia S.S.R."]) == "USSR: USSR 3 INF, 2 ARM, 1 FTR, AA, IC"
        assert _units(ussr.start["Karelia S.S.R."]) == "USSR: USSR 2 ARM, 1 FTR, AA, IC"
        assert ussr.squares["Karelia S.S.R."].seen == "after USSR 2's non-combat moves"
        assert ussr.changed == {"Karelia S.S.R."}
        assert ussr.other is not None and ussr.differs == frozenset()
        uk = _point(timeline, "UK 3")
        assert uk.changed == {"India"} and uk.squares["India"].seen == "after UK 3's placements"
        # The map moves on from turn to turn: Karelia as USSR 2 left it, still, at the end.
        last = _point(timeline, "USA 3")
        assert last.squares["Karelia S.S.R."] == ussr.squares["Karelia S.S.R."]


def test_the_opening_part_keeps_the_board_up_to_its_last_battle() -> None:
    view = review(load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game)
    opening = opening_part(view, battles=2)  # through the first battle with a finding (UK 1)
    count = len(opening.battles)
    assert count < len(view.battles) and len(opening.board_points) == count
    part, whole = HistoryBoard(opening), HistoryBoard(view)
    assert part.after(count) == whole.after(count) and part.turn_start(1) == whole.turn_start(1)


def test_a_turn_ends_with_the_board_after_its_records_after_combat() -> None:
    """USSR 1 places 3 INF in Russia and moves 2 ARM to Karelia after its battle in Ukraine (2008
    Post Combat Orders): its "after combat" line shows the board after them, changed from the
    board its battle left, and the same board Germany 1's battles were declared on."""
    for as_rolled in (False, True):
        timeline = _timeline("games/full-game-three-rounds-2008.toml", as_rolled=as_rolled)
        index = timeline.records_node("USSR 1")
        assert index is not None
        maps = BoardMaps(timeline)
        point = maps.at(index)
        assert point is not None
        assert point.title == "USSR 1 · after combat · after its placements, non-combat moves, map update"
        assert point.since == "after its last battle" and point.battle is None
        battle = _point(timeline, "USSR 1", "Ukraine S.S.R.")
        assert point.start == battle.squares
        assert point.changed == {"Karelia S.S.R.", "Russia"}
        assert _units(point.squares["Karelia S.S.R."]) == "USSR: USSR 2 ARM, 1 FTR, AA, IC"
        assert point.squares["Russia"].seen == "after USSR 1's non-combat moves"
        assert point.squares == _point(timeline, "Germany 1").squares


def test_a_record_taken_up_mid_game_shows_only_what_it_names() -> None:
    """Part 14's example starts in USSR 3 with a position naming three places: the rest of the
    board is not known (neither units nor holder), never the Classic setup shown as fact; a game
    recorded from the setup knows every place."""
    timeline = _timeline("part14/east-europe-forgotten-armour.toml")
    point = _point(timeline, "USSR 3", "East Europe")
    ukraine = point.squares["Ukraine S.S.R."]
    assert not ukraine.known and ukraine.units == () and ukraine.holder is None
    assert ukraine.ipc == 3
    assert point.squares["Karelia S.S.R."].known and point.squares["East Europe"].known
    assert {name for name, square in point.squares.items() if square.known} == {
        "Karelia S.S.R.", "Caucasus", "East Europe"}  # (Russia, where the aircraft land, is not)
    full = _point(_timeline("games/full-game-three-rounds-2008.toml"), "USSR 1", "Ukraine S.S.R.")
    assert all(square.known for square in full.squares.values())
    assert _units(full.squares["Japan"]) == "Japan: Japan 3 INF, 1 ARM, 1 FTR, 1 BMB, AA, IC"
