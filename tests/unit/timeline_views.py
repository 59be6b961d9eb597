"""GameView values for the timeline's tests: a disputed game the correction engine would report.

Built by hand (the engine does not yet produce corrections): IAAPA Part 14's worked example shape
(2 ARM declared but not rolled; the attacker's missing dice added in round 1 and the battle
re-rolled from round 2), a battle with a voided run of dice inside a round, and a battle that
stands.
"""

from __future__ import annotations

import msgspec

from domain.battle.model import Column, Outcome, Winner
from domain.review.views import BattleView, DiceEntry, Finding, GameView, RoundView, SideRound, VoidedDice
from domain.rules.forces import EMPTY, Force


def dice(column: Column, values: str, status: str = "kept", *, first_strike: bool = False) -> DiceEntry:
    """A run of dice; hits recomputed from the column."""
    threshold = 1 if column == "AA" else 4 if column == "BB" else int(column)
    faces = tuple(int(v) for v in values)
    return DiceEntry(column=column, values=faces, status=status,  # type: ignore[arg-type]
                     first_strike=first_strike, hits=tuple(v <= threshold for v in faces))


def side(units: str, *entries: DiceEntry) -> SideRound:
    """A side's round; hits counted from the dice that count."""
    hits = sum(sum(e.hits) for e in entries if e.status != "voided")
    return SideRound(units=Force.parse(units), hits=hits, dice=entries)


def rnd(number: int, attacker: SideRound, defender: SideRound, attacker_losses: str, defender_losses: str,
        origin: str = "as_rolled") -> RoundView:
    """A round."""
    return RoundView(round=number, origin=origin, attacker=attacker, defender=defender,  # type: ignore[arg-type]
                     attacker_losses=Force.parse(attacker_losses) if attacker_losses else EMPTY,
                     defender_losses=Force.parse(defender_losses) if defender_losses else EMPTY)


F1 = Finding(id="F1", kind="too_few_units", status="corrected", rule="iaapa-1999 Part 14, GM Errors",
             detail="2 ARM declared from Caucasus were not rolled", turn="USSR 3", battle="East Europe",
             round=1, side="attacker", column=3, ruling="Minister of Law: apply; dice supplied")
F2 = Finding(id="F2", kind="too_many_units", status="corrected", rule="iaapa-1999 Part 14, GM Errors",
             detail="3 ARM rolled but only 4 of the 7 were declared", turn="USSR 3", battle="Ukraine",
             round=1, side="attacker", column=3)


def _east_europe_corrected() -> BattleView:
    r1 = rnd(1, side("9 INF, 3 ARM", dice(1, "524615654"), dice(3, "3"), dice(3, "26", "added")),
             side("2 INF, 3 ARM, 2 FTR", dice(2, "63431"), dice(4, "21")), "3 INF", "2 INF, 1 ARM")
    r2 = rnd(2, side("6 INF, 3 ARM", dice(1, "312564"), dice(3, "125")),
             side("2 ARM, 2 FTR", dice(2, "56"), dice(4, "46")), "1 INF", "2 ARM, 1 FTR", "rerolled")
    r3 = rnd(3, side("5 INF, 3 ARM", dice(1, "14462"), dice(3, "564")), side("1 FTR", dice(4, "6")),
             "", "1 FTR", "rerolled")
    return BattleView(turn="USSR 3", battle="East Europe", kind="land", status="corrected",
                      rounds=(r1, r2, r3), resume_round=2,
                      result=Outcome(winner=Winner.ATTACKER, attacker_left=Force.parse("5 INF, 3 ARM"),
                                     defender_left=EMPTY),
                      voided=(VoidedDice(round=2, side="attacker", column=1, values=(5, 2, 5, 5, 1, 3)),
                              VoidedDice(round=2, side="attacker", column=3, values=(6,)),
                              VoidedDice(round=2, side="defender", column=2, values=(2, 2, 4)),
                              VoidedDice(round=2, side="defender", column=4, values=(3, 5))),
                      attacker_start=Force.parse("9 INF, 3 ARM"),
                      defender_start=Force.parse("2 INF, 3 ARM, 2 FTR"), finding_ids=("F1",))


def _east_europe_as_rolled() -> BattleView:
    r1 = rnd(1, side("9 INF, 1 ARM", dice(1, "524615654"), dice(3, "3")),
             side("2 INF, 3 ARM, 2 FTR", dice(2, "63431"), dice(4, "21")), "3 INF", "2 INF")
    r2 = rnd(2, side("6 INF, 1 ARM", dice(1, "525513"), dice(3, "6")),
             side("3 ARM, 2 FTR", dice(2, "224"), dice(4, "35")), "5 INF", "2 ARM")
    return BattleView(turn="USSR 3", battle="East Europe", kind="land", status="stands",
                      rounds=(r1, r2), result=Outcome(winner=None, attacker_left=Force.parse("1 INF, 1 ARM"),
                                                      defender_left=Force.parse("1 ARM, 2 FTR")),
                      attacker_start=Force.parse("9 INF, 1 ARM"),
                      defender_start=Force.parse("2 INF, 3 ARM, 2 FTR"), finding_ids=("F1",))


def _ukraine(corrected: bool) -> BattleView:
    if corrected:
        attack = side("4 ARM", dice(3, "4136"), dice(3, "251", "voided"))
    else:
        attack = side("7 ARM", dice(3, "4136251"))
    r1 = rnd(1, attack, side("3 INF", dice(2, "512")), "1 ARM", "2 INF" if corrected else "3 INF")
    left_defender = Force.parse("1 INF") if corrected else EMPTY
    result = Outcome(winner=None if corrected else Winner.ATTACKER, defender_left=left_defender,
                     attacker_left=Force.parse("3 ARM" if corrected else "6 ARM"))
    return BattleView(turn="USSR 3", battle="Ukraine", kind="land",
                      status="corrected" if corrected else "stands", rounds=(r1,), result=result,
                      attacker_start=Force.parse("4 ARM" if corrected else "7 ARM"),
                      defender_start=Force.parse("3 INF"), finding_ids=("F2",))


def _caucasus() -> BattleView:
    r1 = rnd(1, side("6 ARM", dice(3, "123125")), side("2 INF", dice(2, "12")), "2 ARM", "2 INF")
    return BattleView(turn="Germany 3", battle="Caucasus", kind="land", status="stands", rounds=(r1,),
                      result=Outcome(winner=Winner.ATTACKER, attacker_left=Force.parse("4 ARM"),
                                     defender_left=EMPTY),
                      attacker_start=Force.parse("6 ARM"), defender_start=Force.parse("2 INF"))


def disputed_game(*, as_rolled: bool) -> GameView:
    """The disputed game as corrected (default main line) or as rolled."""
    battles = ((_east_europe_as_rolled(), _ukraine(False), _caucasus()) if as_rolled
               else (_east_europe_corrected(), _ukraine(True), _caucasus()))
    return GameView(game_id="test-disputed", edition="iaapa-1999", title="A disputed game (test)",
                    as_rolled=as_rolled, findings=(F1, F2), battles=battles)


def disputed_pair() -> tuple[GameView, GameView]:
    """(as corrected, as rolled)."""
    return disputed_game(as_rolled=False), disputed_game(as_rolled=True)


def big_game(turns: int, *, as_rolled: bool = False) -> GameView:
    """The disputed game's battles repeated over many turns (for the virtual view's tests)."""
    base = disputed_game(as_rolled=as_rolled)
    battles: list[BattleView] = []
    findings: list[Finding] = []
    for t in range(turns):
        label = f"USSR {t + 1}"
        for battle in base.battles:
            ids = tuple(f"{i}-{t}" for i in battle.finding_ids)
            battles.append(msgspec.structs.replace(battle, turn=label, finding_ids=ids))
        findings.extend(msgspec.structs.replace(f, id=f"{f.id}-{t}", turn=label) for f in base.findings)
    return GameView(game_id="test-big", edition="iaapa-1999", title="A big game (test)", as_rolled=as_rolled,
                    findings=tuple(findings), battles=tuple(battles))
