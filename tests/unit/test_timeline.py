"""The timeline read model and the luck projection."""

from __future__ import annotations

import math
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.battle.model import Outcome, Winner
from domain.review.views import BattleView, GameView
from domain.rules.forces import EMPTY, Force
from projections.luck import battle_luck, side_luck, signed_bars
from projections.timeline import Timeline, column_order
from tests.unit.timeline_views import dice, disputed_game, disputed_pair, rnd, side

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corrected() -> Timeline:
    main, other = disputed_pair()
    return Timeline(main, other)


@pytest.fixture(scope="module")
def rolled() -> Timeline:
    main, other = disputed_pair()
    return Timeline(other, main)


def kinds(timeline: Timeline, start: int, end: int) -> list[str]:
    return [timeline.nodes[i].kind for i in range(start, end)]


# -- structure ---------------------------------------------------------------------------------
def test_turn_battle_round_column_casualties_in_rolling_order(corrected: Timeline) -> None:
    assert corrected.turns == ["USSR 3", "Germany 3"]
    assert corrected.nodes[0].kind == "turn" and corrected.nodes[1].kind == "battle"
    # East Europe round 1: the AA gun first (Part 13 step 2), attacker columns 1, 3, defender
    # columns 2, 4, then casualties.
    assert kinds(corrected, 2, 9) == ["round", "column", "column", "column", "column", "column",
                                      "casualties"]
    columns = [(corrected.nodes[i].side, corrected.nodes[i].column) for i in range(3, 8)]
    assert columns == [("defender", "AA"), ("attacker", 1), ("attacker", 3), ("defender", 2),
                       ("defender", 4)]
    assert [n.depth for n in corrected.nodes[:4]] == [0, 1, 2, 3]


def test_aa_support_and_first_strike_come_first() -> None:
    shots = rnd(1, side("2 SUB, 1 BB", dice(4, "5"), dice("BB", "3"), dice(2, "12", first_strike=True)),
                side("1 AC, 2 FTR", dice("AA", "16"), dice(1, "1"), dice(4, "35")), "", "")
    battle = BattleView(turn="Japan 1", battle="Sea Zone 5", kind="sea", status="stands", rounds=(shots,),
                        result=None)
    view = GameView(game_id="g", edition="iaapa-2008", title=None, as_rolled=False, findings=(),
                    battles=(battle,))
    timeline = Timeline(view)
    order = [(n.side, n.column, n.first_strike) for n in timeline.nodes if n.kind == "column"]
    assert order == [("defender", "AA", False), ("attacker", "BB", False), ("attacker", 2, True),
                     ("attacker", 4, False), ("defender", 1, False), ("defender", 4, False)]
    assert sorted(order, key=column_order) == order  # type: ignore[arg-type]
    assert timeline.label(timeline.step(2, 1)).startswith("Def AA guns: 1* 6 = 1 hit")
    assert timeline.label(4).startswith("Att BB support: 3* = 1 hit")
    assert timeline.label(5).startswith("Att col 2 first strike: 1* 2* = 2 hits")


def test_variations_follow_the_main_line_where_the_histories_part(corrected: Timeline,
                                                                  rolled: Timeline) -> None:
    start, end = corrected.battle_range(0)
    main_rounds = [i for i in range(start, end) if corrected.nodes[i].kind == "round"
                   and not corrected.nodes[i].variation]
    variation_rounds = [i for i in range(start, end) if corrected.nodes[i].kind == "round"
                        and corrected.nodes[i].variation]
    assert [corrected.round(i).round for i in main_rounds] == [1, 2, 3]  # type: ignore[union-attr]
    assert [corrected.round(i).round for i in variation_rounds] == [1, 2]  # type: ignore[union-attr]
    assert min(variation_rounds) > max(main_rounds)
    assert corrected.label(variation_rounds[0]).startswith("(as rolled) Round 1")
    # The battle that stands in both histories has no variation.
    c_start, c_end = corrected.battle_range(2)
    assert not any(corrected.nodes[i].variation for i in range(c_start, c_end))
    # As rolled, the corrected rounds are the variation.
    r_start, r_end = rolled.battle_range(0)
    assert next(rolled.label(i) for i in range(r_start, r_end) if rolled.nodes[i].variation
                and rolled.nodes[i].kind == "round").startswith("(as corrected) Round 1")


def test_no_other_view_means_no_variation() -> None:
    timeline = Timeline(disputed_game(as_rolled=False))
    assert not any(n.variation for n in timeline.nodes)
    # Two turns; East Europe: its battle, round 1 (AA, 2 + 2 columns, casualties), round 2 (4
    # columns), round 3 (2 columns: no defender left for the 3s); Manchuria's two rounds;
    # Caucasus' one.
    assert len(timeline) == 2 + (1 + 7 + 6 + 4) + (1 + 4 + 4) + (1 + 4)


def test_empty_game() -> None:
    timeline = Timeline(GameView(game_id="e", edition="iaapa-1999", title=None, as_rolled=False,
                                 findings=(), battles=()))
    assert len(timeline) == 0
    assert timeline.opening() == 0
    assert timeline.search("x", 0) is None
    assert timeline.next_battle(0) == 0


# -- labels ------------------------------------------------------------------------------------
def test_marks_voided_added_and_rerolled(corrected: Timeline) -> None:
    labels = [corrected.label(i) for i in range(len(corrected))]
    assert "Att col 3: 3* +(2* 6) = 2 hits" in labels
    assert "Round 2 ↻ re-roll begins · 6 INF, 3 ARM v 2 ARM, 2 FTR, AA" in labels
    assert "Round 3 ↻ re-rolled · 5 INF, 3 ARM v 1 FTR, AA" in labels
    assert "Att col 1: ✗(5 2 5 5 1* 3) → +(3 1* 2 5 6 4) = 1 hit" in labels
    assert "Att col 3: 4 1* 3* 6 ✗(2* 5 1*) = 2 hits" in labels  # voided inside the round
    assert "Casualties · Att none · Def −1 FTR" in labels
    assert labels[1] == ("East Europe (land) · corrected · re-rolled from round 2 · attacker wins"
                         " · 1 finding")
    tags = {tag for part, tag in corrected.spans(labels.index("Att col 3: 3* +(2* 6) = 2 hits"))}
    assert {"added", "hit"} <= tags


def test_path_names_the_point(corrected: Timeline) -> None:
    assert corrected.path(5) == "USSR 3 › East Europe (land) › Round 1 › Att col 3"
    assert corrected.path(0) == "USSR 3"
    variation = next(i for i, n in enumerate(corrected.nodes) if n.variation)
    assert corrected.path(variation) == "USSR 3 › East Europe (land) › Round 1 (as rolled)"


def test_a_real_replay() -> None:
    from application.usecases.services import open_game
    from domain.review.game_review import review

    game = open_game(str(ROOT / "replays" / "part13" / "overkill-6arm-v-2inf.toml"))
    timeline = Timeline(review(game), review(game, as_rolled=True))
    assert [timeline.label(i) for i in range(len(timeline))] == [
        "Germany 2 · 1 battle",
        "Caucasus (land) · stands · attacker wins",
        "Round 1 · 6 ARM v 2 INF",
        "Att col 3: 1* 2* 3* 1* 2* 5 = 5 hits",
        "Def col 2: 1* 2* = 2 hits",
        "Casualties · Att −2 ARM · Def −2 INF",
    ]
    assert timeline.opening() == 2


# -- jumps -------------------------------------------------------------------------------------
def test_jumps(corrected: Timeline) -> None:
    germany = corrected.turn_node("Germany 3")
    assert germany is not None
    assert corrected.next_turn(0) == germany
    assert corrected.next_turn(germany) == germany  # no further turn: stay
    assert corrected.prev_turn(germany) == 0
    assert corrected.prev_turn(germany + 3) == germany
    assert corrected.next_battle(0) == 1 == corrected.battle_node(0)
    assert corrected.next_battle(1) == corrected.battle_node(1)
    assert corrected.prev_battle(5) == 1
    rounds = [corrected.next_round(0)]
    while corrected.next_round(rounds[-1]) != rounds[-1]:
        rounds.append(corrected.next_round(rounds[-1]))
    assert all(corrected.nodes[i].kind == "round" and not corrected.nodes[i].variation for i in rounds)
    assert len(rounds) == 3 + 2 + 1  # East Europe's three, Manchuria's two and Caucasus' one
    assert corrected.prev_round(rounds[1]) == rounds[0]
    assert corrected.first() == 0 and corrected.last() == len(corrected) - 1
    assert corrected.step(0, -1) == 0 and corrected.step(corrected.last(), 5) == corrected.last()


def test_findings_are_anchored_on_their_column(corrected: Timeline) -> None:
    f1, f2 = corrected.finding_node("F1"), corrected.finding_node("F2")
    assert f1 == 5 and corrected.path(f1).endswith("Round 1 › Att col 3")
    assert f2 is not None and corrected.path(f2) == "USSR 3 › Manchuria (land) › Round 1 › Att col 3"
    assert [f.id for f in corrected.findings_at(f1)] == ["F1"]
    assert corrected.next_finding(0) == f1
    assert corrected.next_finding(f1) == f2
    assert corrected.next_finding(f2) == f2
    assert corrected.prev_finding(f2) == f1
    assert [f.id for f in corrected.findings_of(7)] == ["F1"]
    assert corrected.opening() == f1


def test_a_finding_without_a_round_sits_on_its_battle() -> None:
    corrected, _ = disputed_pair()
    finding = msgspec.structs.replace(corrected.findings[0], id="F9", round=None, side=None, column=None)
    view = msgspec.structs.replace(corrected, findings=(finding,))
    assert Timeline(view).finding_node("F9") == 1


def test_search_wraps_and_goes_backwards(corrected: Timeline) -> None:
    manchuria = corrected.battle_node(1)
    assert corrected.search("manchuria", 0) == manchuria
    assert corrected.search("MANCHURIA", manchuria) == manchuria  # wraps round to itself
    assert corrected.search("Round 3", len(corrected) - 1) == corrected.search("Round 3", 0)
    last_round_1 = corrected.search("Round 1", 0, backwards=True)
    assert last_round_1 is not None and corrected.label(last_round_1).startswith("Round 1")
    assert last_round_1 == max(i for i in range(len(corrected)) if corrected.label(i).startswith("Round 1"))
    assert corrected.search("zanzibar", 0) is None
    assert corrected.search("   ", 0) is None


def test_switching_keeps_the_point(corrected: Timeline, rolled: Timeline) -> None:
    f1 = corrected.finding_node("F1")
    assert f1 is not None
    key = corrected.key(f1)
    # The same history: the point itself, found among the as-rolled timeline's variations.
    same = rolled.locate(key)
    assert rolled.nodes[same].variation and rolled.path(same).endswith("Att col 3")
    # The other history at the same point: the record's own column 3 of round 1.
    other = rolled.locate(msgspec.structs.replace(key, as_rolled=True))
    assert not rolled.nodes[other].variation and rolled.path(other).endswith("Round 1 › Att col 3")
    # Round 3 exists only as corrected: the record falls back to the battle.
    round3 = corrected.search("Round 3", 0)
    assert round3 is not None
    back = rolled.locate(msgspec.structs.replace(corrected.key(round3), as_rolled=True))
    assert back == rolled.battle_node(0)
    assert corrected.locate(corrected.key(0)) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["next_turn", "prev_turn", "next_battle", "prev_battle", "next_round",
                                 "prev_round", "next_finding", "prev_finding"]), max_size=30),
       st.integers(min_value=0, max_value=45))
def test_jumps_stay_on_the_line_and_move_the_right_way(moves: list[str], start: int) -> None:
    main, other = disputed_pair()
    timeline = Timeline(main, other)
    i = start
    for move in moves:
        j = getattr(timeline, move)(i)
        assert 0 <= j < len(timeline)
        assert (j > i or j == i) if move.startswith("next") else (j < i or j == i)
        kind = move.split("_")[1]
        if j != i and kind != "finding":
            assert timeline.nodes[j].kind == kind
        i = j


# -- luck --------------------------------------------------------------------------------------
def test_expected_hits_are_column_over_six_and_voided_dice_do_not_count() -> None:
    luck = side_luck([side("4 ARM", dice(3, "4136"), dice(3, "251", "voided"))])
    assert luck.dice == 4 and luck.hits == 2
    assert luck.expected == pytest.approx(4 * 3 / 6)
    aa = side_luck([side("AA", dice("AA", "16"))])
    assert aa.expected == pytest.approx(2 / 6) and aa.hits == 1
    bb = side_luck([side("1 BB", dice("BB", "5"))])
    assert bb.expected == pytest.approx(4 / 6) and bb.hits == 0


def test_battle_luck_and_chances() -> None:
    battle = BattleView(turn="Germany 2", battle="Caucasus", kind="land", status="stands",
                        rounds=(rnd(1, side("6 ARM", dice(3, "123125")), side("2 INF", dice(2, "12")),
                                    "2 ARM", "2 INF"),),
                        result=Outcome(winner=Winner.ATTACKER, attacker_left=Force.parse("4 ARM"),
                                       defender_left=EMPTY))
    luck = battle_luck(battle)
    assert luck.attacker.hits == 5 and luck.attacker.expected == pytest.approx(3.0)
    assert luck.attacker.surplus == pytest.approx(2.0)
    # Five or more hits on six dice at 1/2: (6 + 1) / 64.
    assert luck.attacker.at_least() == pytest.approx(7 / 64)
    assert luck.defender.at_least() == pytest.approx(1 / 9)
    assert luck.side("defender") is luck.defender


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, 2, 3, 4, 5, "AA", "BB"]),
                          st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=6),
                          st.booleans()), max_size=6))
def test_side_luck_distribution_mean_and_percentile(runs: list[tuple[int | str, list[int], bool]]) -> None:
    entries = [dice(column, "".join(map(str, faces)), "voided" if void else "kept")  # type: ignore[arg-type]
               for column, faces, void in runs]
    luck = side_luck([side("1 INF", *entries)])
    counting = [(c, f) for c, f, void in runs if not void]
    assert luck.dice == sum(len(f) for _, f in counting)
    threshold: dict[int | str, int] = {"AA": 1, "BB": 4, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5}
    assert luck.hits == sum(1 for c, f in counting for v in f if v <= threshold[c])
    dist = luck.distribution()
    assert len(dist) == luck.dice + 1
    assert math.fsum(dist) == pytest.approx(1.0)
    assert math.fsum(k * p for k, p in enumerate(dist)) == pytest.approx(luck.expected)
    assert luck.at_most() + luck.at_least() == pytest.approx(1.0 + dist[luck.hits])
    if luck.dice:
        percentile = luck.percentile()
        assert percentile is not None
        assert percentile == pytest.approx(100 * (luck.at_most() - dist[luck.hits] / 2))
    else:
        assert luck.percentile() is None


def test_signed_bars() -> None:
    upper, lower = signed_bars([2.0, -2.0, 0.0, 1.0, -0.5])
    assert len(upper) == len(lower) == 5
    assert upper[0] == "█" and lower[0] == " "
    assert lower[1] == "█" and upper[1] == " "
    assert upper[2] == "·"
    assert upper[3] in "▃▄▅" and lower[4] in "▔▀"
    assert signed_bars([]) == ("", "")


# -- big games ---------------------------------------------------------------------------------
def test_opening_part_is_the_first_battles_through_the_first_finding() -> None:
    from projections.timeline import opening_part
    from tests.unit.timeline_views import big_game

    view = big_game(40)  # 120 battles, findings in every turn
    head = opening_part(view, battles=30)
    assert head.battles == view.battles[:30]
    assert {f.turn for f in head.findings} == {f"USSR {t}" for t in range(1, 11)}
    assert opening_part(view, battles=500) is view
    # The only finding far down the game: the opening part reaches it.
    late = msgspec.structs.replace(view, findings=(view.findings[-1],))
    late_head = opening_part(late, battles=30)
    named = [b for b, battle in enumerate(view.battles)
             if (battle.turn, battle.battle) == (late.findings[0].turn, late.findings[0].battle)]
    assert len(late_head.battles) == named[0] + 1 > 30
    timeline = Timeline(late_head)
    assert timeline.opening() == timeline.finding_node(late.findings[0].id)
    # Node indexes of the opening part are those of the whole game's.
    whole = Timeline(view)
    part = Timeline(opening_part(view, battles=30))
    assert whole.nodes[: len(part)] == part.nodes


def test_layout_reports_progress() -> None:
    from tests.unit.timeline_views import big_game

    seen: list[tuple[int, int]] = []
    Timeline(big_game(400), progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 1200) and seen[-1] == (1200, 1200)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_every_turn_with_records_has_a_point_even_without_a_battle() -> None:
    """The full game's rounds 2 and 3 have no battle: each turn is a line of its own, in record
    order, reached by the turn jumps (t / T) and by → / ←; a turn with battles keeps its line."""
    from application.intake.replayfile import load_replay
    from domain.review.game_review import review
    from tests.conftest import REPLAYS

    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    timeline = Timeline(review(game), review(game, as_rolled=True))
    assert timeline.turns == [f"{power} {n}" for n in (1, 2, 3)
                              for power in ("USSR", "Germany", "UK", "Japan", "USA")]
    uk = timeline.turn_node("UK 2")
    assert uk is not None and timeline.label(uk) == "UK 2 · no battle · purchase, placements, map update"
    assert timeline.turn_battles(uk) == 0 and timeline.path(uk) == "UK 2"
    assert timeline.label(timeline.turn_node("USSR 1") or 0) == "USSR 1 · 1 battle"
    # t from Japan 1's battle goes to USA 1 (no battle), then on turn by turn; → steps too.
    china = timeline.battle_node(3)
    usa = timeline.next_turn(china)
    assert timeline.label(usa).startswith("USA 1 · no battle")
    assert timeline.next_turn(usa) == timeline.step(usa, 1) == timeline.turn_node("USSR 2")
    assert timeline.prev_turn(usa) == timeline.turn_node("Japan 1")
    assert timeline.last() == timeline.turn_node("USA 3")
    # A finding of a turn without battles sits on its line (it sat at the start before).
    [discrepancy] = [f for f in timeline.main.findings if f.kind == "map_discrepancy"]
    assert timeline.finding_node(discrepancy.id) == timeline.turn_node("USSR 2")
    # Switching histories keeps the point.
    other = Timeline(timeline.other or timeline.main, timeline.main)
    assert other.locate(timeline.key(uk)) == other.turn_node("UK 2")


def test_a_turns_records_after_its_last_battle_have_a_point() -> None:
    """USSR 1's placements, non-combat moves and map update come after its battle: they are the
    turn's last line ("after combat"), reached by → from the battle's last point, outside the
    battle's range, kept on a switch of histories, and left out of an opening part that ends
    before them."""
    from application.intake.replayfile import load_replay
    from domain.review.game_review import review
    from projections.timeline import opening_part
    from tests.conftest import REPLAYS

    game = load_replay(REPLAYS / "games" / "full-game-three-rounds-2008.toml").game
    corrected, rolled = review(game), review(game, as_rolled=True)
    timeline = Timeline(corrected, rolled)
    after = timeline.records_node("USSR 1")
    assert after is not None
    assert timeline.label(after) == "after combat · placements, non-combat moves, map update"
    assert timeline.path(after) == "USSR 1 › After combat" and timeline.nodes[after].depth == 1
    _, end = timeline.battle_range(0)
    assert end == after and timeline.step(end - 1, 1) == after
    assert timeline.step(after, 1) == timeline.next_turn(after) == timeline.turn_node("Germany 1")
    assert timeline.prev_turn(after) == timeline.turn_node("USSR 1")
    # A turn without battles has no such line (its records are its turn's line).
    assert timeline.records_node("UK 2") is None
    other = Timeline(rolled, corrected)
    assert other.locate(timeline.key(after)) == other.records_node("USSR 1")
    # The opening part runs through the first battle with a finding (UK 1's): the board it keeps
    # ends with that battle, so UK 1's records after it have no line there; USSR 1's keep theirs.
    part = Timeline(opening_part(corrected, battles=1))
    assert [b.turn for b in part.main.battles] == ["USSR 1", "Germany 1", "UK 1"]
    assert timeline.records_node("UK 1") is not None and part.records_node("UK 1") is None
    assert part.records_node("USSR 1") is not None
