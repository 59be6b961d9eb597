"""Random battles with one injected rolling error, corrected.

The engine fights a random land battle; its log is written out, then one error is injected in
round 1 (a unit forgotten, or an extra die entered). After a timely report and enough supplied
dice, the corrected battle must: never count a voided die, keep every die the remedy preserves,
take the dice it adds from the supply, and end legally.
"""

from __future__ import annotations

import random
import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from application.intake.replayfile import parse_replay
from domain.battle.dice import RandomDice
from domain.battle.engine import fight, provider_from
from domain.battle.model import BattleSetup
from domain.review.game_review import review
from domain.review.views import BattleView
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import UnitType as U
from tests.support.battle_logs import replay_text, write_log

REPORT = '''[[event]]
type = "report"
at = 2008-01-01T10:30:00Z
by = "Germany"
text = "round 1 was rolled wrong"
[[event]]
type = "dice"
at = 2008-01-01T10:40:00Z
battle = "East Europe"
dice = "{dice}"
'''

A_LINE = re.compile(r"^A\((?P<units>[^)]*)\) (?P<dice>\S+)$")


@st.composite
def land_battles(draw: st.DrawFn) -> tuple[BattleSetup, int, str, str]:
    ground = (U.INF, U.ARM)
    attacker = Force.from_units(draw(st.lists(st.sampled_from(ground), min_size=2, max_size=6)))
    defender = Force.from_units(draw(st.lists(st.sampled_from((U.INF, U.ARM, U.FTR)), min_size=1,
                                              max_size=6)))
    mistake = draw(st.sampled_from(("too_few", "too_many")))
    edition = draw(st.sampled_from(("iaapa-1999", "iaapa-2008")))
    setup = BattleSetup(kind=BattleKind.LAND, attacker=attacker, defender=defender)
    return setup, draw(st.integers(0, 2**32)), mistake, edition


def inject(log: str, mistake: str) -> tuple[str, int, int] | None:
    """Forget the last unit of round 1's first column, or enter one die too many there.

    Returns the new log, the column and the number of original dice in that column.
    """
    lines = log.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("A("))
    match = A_LINE.match(lines[index])
    assert match is not None
    units = Force.parse(match.group("units"))
    columns = match.group("dice").split("/")
    first = columns[0]
    count = len(re.findall(r"\d", first))
    unit = U.INF if units[U.INF] else U.ARM
    column = 1 if unit is U.INF else 3
    if mistake == "too_few":
        if units[unit] < 2:
            return None
        units = units - Force.of({unit: 1})
        columns[0] = re.sub(r"\d\*?$", "", first)
    else:
        units = units + Force.of({unit: 1})
        columns[0] = first + "6"
    lines[index] = f"A({units}) {'/'.join(columns)}"
    return "\n".join(lines), column, count


def _counted(view: BattleView) -> None:
    """Hits are the hits of the dice that count; losses never exceed hits; nothing is created."""
    previous = None
    for rv in view.rounds:
        for side in (rv.attacker, rv.defender):
            counted = [e for e in side.dice if e.status != "voided" and e.column != "AA"]
            assert side.hits == sum(sum(e.hits) for e in counted)
        assert len(rv.defender_losses) <= rv.attacker.hits
        assert len(rv.attacker_losses) <= rv.defender.hits
        if previous is not None:
            assert rv.attacker.units == previous.attacker.units.minus_available(previous.attacker_losses)
            assert rv.defender.units.combatants() == previous.defender.units.minus_available(
                previous.defender_losses).combatants()
        previous = rv


@settings(max_examples=60, deadline=None)
@given(land_battles())
def test_a_corrected_battle_keeps_valid_dice_and_ends_legally(
        case: tuple[BattleSetup, int, str, str]) -> None:
    setup, seed, mistake, edition = case
    fought = fight(setup, provider_from(RandomDice(random.Random(seed))), max_rounds=8)
    assume(fought.rounds and fought.outcome.winner is not None)
    injected = inject(write_log(setup, fought, "East Europe", "Karelia"), mistake)
    assume(injected is not None)
    assert injected is not None
    log, column, original = injected
    dice_rng = random.Random(seed + 1)
    supply = "".join(str(dice_rng.randint(1, 6)) for _ in range(400))
    text = replay_text(setup, log, False, REPORT.format(dice=supply), edition=edition)
    view = review(parse_replay(text).game)
    battle = view.battles[0]
    kinds = [f.kind for f in view.findings]
    assert ("too_few_units" if mistake == "too_few" else "too_many_units") in kinds
    assert battle.status == "corrected"
    assert battle.result is not None and battle.result.winner is not None
    first = battle.rounds[0]
    dice = [e for e in first.attacker.dice if e.column == column]
    kept = [v for e in dice if e.status == "kept" for v in e.values]
    voided = [v for e in dice if e.status == "voided" for v in e.values]
    added = [v for e in dice if e.status == "added" for v in e.values]
    if mistake == "too_few":
        # Too few units: every die rolled stands; the forgotten unit's die is added.
        assert len(kept) == original - 1 and not voided and len(added) == 1
    elif edition == "iaapa-2008":
        # 2008: the first N dice of the type are kept, the extra one ignored.
        assert len(kept) == original and len(voided) == 1 and not added
    else:
        # 1999: the entire column is re-rolled with the right count.
        assert not kept and len(voided) == original + 1 and len(added) == original
    assert supply.startswith("".join(str(v) for v in added))
    _counted(battle)
    # Every original die after round 1 no longer counts, and no re-rolled round keeps one.
    assert all(v.round >= 2 for v in battle.voided)
    assert all(e.status == "added" for rv in battle.rounds[1:] for side in (rv.attacker, rv.defender)
               for e in side.dice)
    left = battle.result
    if left.winner.value == "attacker":
        assert not left.defender_left and left.attacker_left
    elif left.winner.value == "defender":
        assert left.defender_left and not left.attacker_left
