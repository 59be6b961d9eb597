"""The mechanical battle engine: a battle fought round by round from a dice provider.

Pure and deterministic: the same set-up and the same dice give the same battle. The order of a
round follows IAAPA Part 13 (1999) steps 2-5 and the 2008 "Declaration and Battle Resolution
Procedures"; dice are drawn strictly in the order the replay format fixes ("Supplied dice form
one queue per battle"): AA guns and support shots (round 1), attacking submarines' first strike
(sea battles), the attacker's columns ascending, the defender's columns ascending; a column that
is not rolled draws no dice.

Conventions (documented choices where the texts are silent):

* Several AA guns in one territory fire once per attacking aircraft, as one gun does (MB 2nd
  edition: the AA gun fires at every attacking aircraft); AA fire is skipped at sea.
* AA casualties follow the attacker's order of loss among its aircraft.
* A volley with no defending combatant left to hit is not rolled (Part 13 step 4); the same holds
  for support shots and a first strike, and the defender does not roll when AA fire left no
  attacker.
* Defending fire is simultaneous (Part 13 step 5): its hits are allocated together, submarine
  hits to non-aircraft first, and then attributed to the defending volleys.
* ``Outcome.attacker_left`` / ``defender_left`` are the combatants still in the battle at its
  end (AA guns and ICs are not listed); units that retreated or withdrew are in
  ``attacker_retreated`` / ``defender_withdrew`` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import msgspec

from domain.battle.columns import layout, make_dice, sub_hits
from domain.battle.model import (
    BattleSetup,
    Column,
    DiceRequest,
    DiceSource,
    Outcome,
    RoundResult,
    Side,
    Volley,
    Winner,
)
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind, OrderOfLoss
from domain.rules.units import UnitType

__all__ = [
    "DiceProvider",
    "Resolution",
    "fight",
    "layout",
    "play_round",
    "provider_from",
]

#: Gives the dice one volley needs (``request.count`` faces 1-6, in the order thrown).
DiceProvider = Callable[[DiceRequest], Sequence[int]]


def provider_from(source: DiceSource) -> DiceProvider:
    """A provider drawing every request from ``source`` (one ``draw`` per volley)."""

    def provide(request: DiceRequest) -> Sequence[int]:
        return source.draw(request.count, request.purpose)

    return provide


class Resolution(msgspec.Struct, frozen=True):
    """A battle fought by the engine: every round played and how it ended."""

    rounds: tuple[RoundResult, ...]
    outcome: Outcome


# -- one round ------------------------------------------------------------------------------


def play_round(setup: BattleSetup, number: int, attacker: Force, defender: Force,
               provide: DiceProvider) -> RoundResult:
    """Round ``number`` of the battle, with ``attacker`` and ``defender`` as they start it.

    ``defender`` may hold AA guns and ICs (never casualties). Casualties follow
    ``setup.order_of(side)`` unless ``setup.chosen`` names a valid choice for that round and
    side (see :func:`_chosen_for_defender` and :func:`_chosen_for_attacker`).
    """
    attacker_order = setup.order_of(Side.ATTACKER)
    defender_order = setup.order_of(Side.DEFENDER)
    volleys: list[Volley] = []

    # IAAPA Part 13 (1999) step 2: AA guns fire before round 1; their victims leave the game.
    aa = _aa_volley(setup, number, attacker, defender, provide=provide,
                    order=setup.aa_order or attacker_order)
    firing_attackers = attacker
    if aa is not None:
        volleys.append(aa)
        firing_attackers = attacker - aa.casualties

    # Part 13 steps 2-4: support shots, submarines' first strike, then the attacker's columns.
    attack = _attacker_fire(setup, number, firing_attackers, defender, provide=provide,
                            order=defender_order)
    chosen = _chosen(setup, number, Side.DEFENDER)
    if chosen is not None:
        attack = _chosen_for_defender(attack, chosen, defender_order, defender) or attack
    volleys.extend(attack)

    # Part 13 step 3: first-strike victims leave the game without firing; casualty-area units
    # (including support-shot casualties) fire back (step 5).
    sunk = _sum(v.casualties for v in attack if v.first_strike)
    defence = _defender_fire(number, defender - sunk, firing_attackers, provide, attacker_order)
    chosen = _chosen(setup, number, Side.ATTACKER)
    if chosen is not None and defence:
        aa_losses = aa.casualties if aa is not None else EMPTY
        defence = _chosen_for_attacker(defence, chosen, aa_losses, attacker_order,
                                       firing_attackers) or defence
    volleys.extend(defence)

    attacker_losses = _sum(v.casualties for v in volleys if v.side is Side.DEFENDER)
    defender_losses = _sum(v.casualties for v in volleys if v.side is Side.ATTACKER)
    after = _end_of_round(setup, number, attacker - attacker_losses, defender - defender_losses)
    return RoundResult(
        number=number,
        attacker_units=attacker,
        defender_units=defender,
        volleys=tuple(volleys),
        attacker_losses=attacker_losses,
        defender_losses=defender_losses,
        pause_required=_pause_required(setup, defender, defender - defender_losses, after),
    )


def _aa_volley(setup: BattleSetup, number: int, attacker: Force, defender: Force, *,
               provide: DiceProvider, order: OrderOfLoss) -> Volley | None:
    """AA fire before round 1: one die per attacking aircraft, hits on 1.

    MB 2nd edition / rules matrix "AA": "one die per attacking aircraft before round 1, hits on
    1"; a territory's several AA guns still fire once per aircraft (documented choice). AA guns
    stand on land, so only land battles and amphibious assaults have AA fire.
    """
    if number != 1 or setup.kind.at_sea or not defender[UnitType.AA]:
        return None
    aircraft = attacker.combatants().where(lambda unit: unit.is_air)
    if not aircraft:
        return None
    request = DiceRequest(number, Side.DEFENDER, "AA", (UnitType.AA,) * len(aircraft))
    dice = make_dice(request, provide(request))
    volley = Volley(Side.DEFENDER, "AA", dice)
    # Rules matrix step 2: AA hits fall on aircraft only, in the attacker's order of loss.
    casualties = order.choose(aircraft, volley.hits, air_only_hits=volley.hits)
    return msgspec.structs.replace(volley, casualties=casualties)


def _attacker_fire(setup: BattleSetup, number: int, attacker: Force, defender: Force, *,
                   provide: DiceProvider, order: OrderOfLoss) -> list[Volley]:
    """Support shots (round 1), first strike (sea), then the attacker's columns ascending."""
    volleys: list[Volley] = []
    struck = EMPTY  # every defending casualty so far: casualty area and first-strike victims

    def targets() -> Force:
        return (defender - struck).combatants()

    def fire(column: Column, units: tuple[UnitType, ...], first_strike: bool) -> None:
        nonlocal struck
        request = DiceRequest(number, Side.ATTACKER, column, units, first_strike)
        dice = make_dice(request, provide(request))
        hits = sum(1 for die in dice if die.hit)
        # Part 13 "Miscellaneous" 2: only as many units as there are hits; the rest is overkill.
        casualties = order.choose(targets(), hits, sub_hits=sub_hits(dice))
        struck = struck + casualties
        volleys.append(Volley(Side.ATTACKER, column, dice, first_strike, casualties))

    # IAAPA Part 13 (1999) step 2: each battleship gives one support shot before round 1
    # (amphibious assaults; the caller lists them in ``setup.support``).
    battleships = setup.support[UnitType.BB]
    if number == 1 and battleships and targets():
        fire("BB", (UnitType.BB,) * battleships, False)

    # Part 13 step 3 / step 4 exception: in a naval battle attacking submarines fire first,
    # every round (2008: "the attacker MAY ... roll for the sub first"; the engine always does).
    subs_first = setup.kind.at_sea and (number == 1 or setup.subs_strike_every_round)
    if subs_first:
        for column, units in layout(attacker.where(lambda unit: unit.is_sub), True):
            if not targets():
                break
            fire(column, units, True)

    regular = attacker.where(lambda unit: not unit.is_sub) if subs_first else attacker
    # Part 13 step 4: column by column "until all attacking units have fired their shots or
    # there are no defending units left" (outside the casualty area).
    for column, units in layout(regular, True):
        if not targets():
            break
        fire(column, units, False)
    return volleys


def _defender_fire(number: int, firing: Force, targets: Force, provide: DiceProvider,
                   order: OrderOfLoss) -> list[Volley]:
    """Part 13 step 5: every defending column from the 1s on, casualty area included.

    The hits are simultaneous: they are allocated together (submarine hits never on aircraft)
    and then attributed to the volleys that scored them.
    """
    present = targets.combatants()
    if not present:
        return []
    volleys: list[Volley] = []
    for column, units in layout(firing, False):
        request = DiceRequest(number, Side.DEFENDER, column, units)
        volleys.append(Volley(Side.DEFENDER, column, make_dice(request, provide(request))))
    hits = sum(v.hits for v in volleys)
    from_subs = sum(sub_hits(v.dice) for v in volleys)
    return _attribute(volleys, order.choose(present, hits, sub_hits=from_subs), order)


def _attribute(volleys: list[Volley], casualties: Force, order: OrderOfLoss) -> list[Volley]:
    """Split ``casualties`` (valid for the volleys' hits together) among the volleys.

    Submarine hits take non-aircraft first, then every other hit takes the rest in the order
    of loss; this always places every casualty because the total respects the restrictions.
    """
    remaining = order.ranked(casualties)
    taken: list[list[UnitType]] = [[] for _ in volleys]
    for index, volley in enumerate(volleys):
        for _ in range(sub_hits(volley.dice)):
            unit = next((u for u in remaining if not u.is_air), None)
            if unit is None:
                break
            remaining.remove(unit)
            taken[index].append(unit)
    for index, volley in enumerate(volleys):
        for _ in range(volley.hits - sub_hits(volley.dice)):
            if not remaining:
                break
            taken[index].append(remaining.pop(0))
    if remaining:
        raise AssertionError(f"casualties {casualties} exceed the hits that could take them")
    return [msgspec.structs.replace(volley, casualties=Force.from_units(units))
            for volley, units in zip(volleys, taken, strict=True)]


# -- chosen casualties ------------------------------------------------------------------------


def _chosen(setup: BattleSetup, number: int, side: Side) -> Force | None:
    """The casualties ``side`` named for round ``number`` (a later record amends an earlier)."""
    found: Force | None = None
    for entry in setup.chosen:
        if entry.round == number and entry.side is side:
            found = entry.units
    return found


def _chosen_for_defender(volleys: list[Volley], chosen: Force, order: OrderOfLoss,
                         defender: Force) -> list[Volley] | None:
    """The attacker's volleys with the defender's named casualties, or None if not valid.

    2008 OOL exceptions: the defender may name its casualties. A choice is valid when it can be
    spread over the round's attacking volleys so that each takes as many units as its hits take
    under the order of loss (the count is fixed by the dice) and no submarine hit falls on an
    aircraft. Each volley, in the order rolled, takes the named units that rank first in the
    order of loss (so a first strike takes the earliest-ranked named non-aircraft). An invalid
    choice is ignored: the order of loss stands and nothing is recorded.
    """
    if not defender.combatants().contains(chosen):
        return None
    pool = chosen
    result: list[Volley] = []
    for volley in volleys:
        count = len(volley.casualties)
        free_hits = volley.hits - sub_hits(volley.dice)
        # Casualties beyond the volley's non-submarine hits must be non-aircraft.
        taken = order.choose(pool, count, sub_hits=max(0, count - free_hits))
        if len(taken) != count:
            return None
        pool = pool - taken
        result.append(msgspec.structs.replace(volley, casualties=taken))
    return None if pool else result


def _chosen_for_attacker(volleys: list[Volley], chosen: Force, aa_losses: Force,
                         order: OrderOfLoss, attackers: Force) -> list[Volley] | None:
    """The defender's volleys with the attacker's named casualties, or None if not valid.

    The choice may list the round's AA victims or not (AA victims always follow the order of
    loss among aircraft, before round 1). The rest is valid when it has exactly as many units as
    the defender's hits take, all present, and no more aircraft than the non-submarine hits.
    """
    if aa_losses and chosen.contains(aa_losses):
        chosen = chosen - aa_losses
    default = _sum(v.casualties for v in volleys)
    free_hits = sum(v.hits - sub_hits(v.dice) for v in volleys)
    aircraft = len(chosen.where(lambda unit: unit.is_air))
    if (not attackers.combatants().contains(chosen) or len(chosen) != len(default)
            or aircraft > free_hits):
        return None
    return _attribute(volleys, chosen, order)


# -- end of a round ---------------------------------------------------------------------------


class _After(msgspec.Struct, frozen=True):
    """The battle after a round's casualties, retreats and withdrawals."""

    attacker: Force
    defender: Force
    winner: Winner | None
    retreated: bool = False
    attacker_retreated: Force = EMPTY
    defender_withdrew: Force = EMPTY


def _ground_stays(setup: BattleSetup) -> bool:
    """2008 AMPHIBIOUS ASSAULTS: "If units are unloaded from a transport then the attacker may
    not retreat any ground units"; without units from transports it is a plain land battle."""
    return setup.kind is BattleKind.AMPHIBIOUS or bool(setup.amphibious)


def _end_of_round(setup: BattleSetup, number: int, attacker: Force, defender: Force) -> _After:
    """Part 13 step 6: the battle goes on until the attacker withdraws or a side is destroyed."""
    attacking = bool(attacker.combatants())
    defending = bool(defender.combatants())
    if not (attacking and defending):
        winner = (Winner.ATTACKER if attacking else Winner.DEFENDER if defending else Winner.NONE)
        return _After(attacker, defender, winner)

    if setup.retreat is not None and setup.retreat.met(number, attacker.combatants()):
        leaving = attacker.combatants()
        if _ground_stays(setup):
            # Only aircraft may leave an amphibious assault; the ground units fight on.
            leaving = leaving.where(lambda unit: unit.is_air)
        staying = attacker - leaving
        if not staying.combatants():
            return _After(staying, defender, Winner.DEFENDER, retreated=True,
                          attacker_retreated=leaving)
        attacker = staying
        retreated_now = leaving
    else:
        retreated_now = EMPTY

    withdrew = EMPTY
    # 2008 OOL exceptions / Rules Clarifications, SUB WITHDRAWAL: defending subs leave after
    # the round the defender named.
    if (setup.kind.at_sea and setup.sub_withdrawal_after is not None
            and number >= setup.sub_withdrawal_after):
        withdrew = defender.where(lambda unit: unit.is_sub)
        defender = defender - withdrew
        if not defender.combatants():
            return _After(attacker, defender, Winner.ATTACKER,
                          attacker_retreated=retreated_now, defender_withdrew=withdrew)
    return _After(attacker, defender, None, attacker_retreated=retreated_now,
                  defender_withdrew=withdrew)


def _pause_required(setup: BattleSetup, defender_start: Force, defender_end: Force,
                    after: _After) -> bool:
    """2008 OOL exceptions: the defender must name casualties before the next round.

    Sea: a defending SUB, an AC while defending aircraft were present (taken as loaded) or a
    TRN while ``setup.loaded_transports`` is set survived the round. Land: a defending BMB
    survived the round. Only when the battle goes on.
    """
    if after.winner is not None:
        return False
    if setup.kind.at_sea:
        if any(unit.is_sub for unit in defender_end.types):
            return True
        loaded_carrier = any(unit.is_air for unit in defender_start.types)
        if defender_end[UnitType.AC] and loaded_carrier:
            return True
        return bool(defender_end[UnitType.TRN] and setup.loaded_transports > 0)
    return any(unit.base is UnitType.BMB for unit in defender_end.types)


# -- a whole battle -------------------------------------------------------------------------------


def fight(setup: BattleSetup, provide: DiceProvider, *, start_round: int = 1,
          attacker: Force | None = None, defender: Force | None = None,
          max_rounds: int = 200) -> Resolution:
    """Fight the battle from round ``start_round`` until it ends (or ``max_rounds`` are played).

    ``attacker``/``defender`` default to the set-up's forces; pass the forces at the start of
    ``start_round`` to re-fight a battle "from round N" (AA guns and support shots fire only in
    round 1). Retreats and withdrawals before ``start_round`` are the caller's to remember.
    A battle stopped by ``max_rounds`` has ``winner`` None.
    """
    if start_round < 1:
        raise ValueError(f"round numbers start at 1, not {start_round!r}")
    current_attacker = setup.attacker if attacker is None else attacker
    current_defender = setup.defender if defender is None else defender
    rounds: list[RoundResult] = []
    retreated = EMPTY
    withdrew = EMPTY
    number = start_round
    while True:
        attacking = bool(current_attacker.combatants())
        defending = bool(current_defender.combatants())
        # AA guns alone still fire before round 1 at attacking aircraft (documented choice).
        aa_only = (number == 1 and attacking and not setup.kind.at_sea
                   and bool(current_defender[UnitType.AA])
                   and any(unit.is_air for unit in current_attacker.types))
        if not (attacking and (defending or aa_only)):
            winner = Winner.ATTACKER if attacking else Winner.DEFENDER if defending else Winner.NONE
            return _resolution(rounds, winner, current_attacker, current_defender,
                               retreated=retreated, withdrew=withdrew)
        if len(rounds) >= max_rounds:
            return _resolution(rounds, None, current_attacker, current_defender,
                               retreated=retreated, withdrew=withdrew)
        result = play_round(setup, number, current_attacker, current_defender, provide)
        rounds.append(result)
        after = _end_of_round(setup, number, current_attacker - result.attacker_losses,
                              current_defender - result.defender_losses)
        current_attacker, current_defender = after.attacker, after.defender
        retreated = retreated + after.attacker_retreated
        withdrew = withdrew + after.defender_withdrew
        if after.winner is not None:
            return _resolution(rounds, after.winner, current_attacker, current_defender,
                               retreated=retreated, withdrew=withdrew, retreat=after.retreated)
        number += 1


def _resolution(rounds: list[RoundResult], winner: Winner | None, attacker: Force,
                defender: Force, *, retreated: Force, withdrew: Force,
                retreat: bool = False) -> Resolution:
    outcome = Outcome(
        winner=winner,
        attacker_left=attacker.combatants(),
        defender_left=defender.combatants(),
        retreated=retreat,
        attacker_retreated=retreated,
        defender_withdrew=withdrew,
    )
    return Resolution(tuple(rounds), outcome)


def _sum(forces: Iterable[Force]) -> Force:
    total = EMPTY
    for force in forces:
        total = total + force
    return total
