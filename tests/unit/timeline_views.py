"""GameView values for the timeline's tests, made by the engine from a shipped replay.

``replays/battles/disputed-game-2008.toml``: IAAPA Part 14's worked example (2 ARM declared but
not rolled; the missing dice added in round 1 and the battle re-rolled from round 2), 7 ARM
entered for 4 in Manchuria (the last three dice voided inside the round, re-rolled from round 2)
and a battle that stands. The views are ``review(load_replay(...))``: whatever the timeline shows
is what the engine reports, never a hand-built view the rules would not produce.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import msgspec

from application.intake.replayfile import load_replay
from domain.battle.model import Column
from domain.review.game_review import review
from domain.review.views import BattleView, DiceEntry, Finding, GameView, RoundView, SideRound
from domain.rules.forces import EMPTY, Force


# -- small values for the unit tests of pure functions (luck, column layout) ---------------------
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


# -- the engine's views of a shipped replay ------------------------------------------------------
DISPUTED = Path(__file__).resolve().parents[2] / "replays" / "battles" / "disputed-game-2008.toml"


@lru_cache(maxsize=2)
def disputed_game(*, as_rolled: bool) -> GameView:
    """The disputed game as corrected (default main line) or as rolled."""
    return review(load_replay(DISPUTED).game, as_rolled=as_rolled)


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
    return GameView(game_id="test-big", edition=base.edition, title="A big game (test)", as_rolled=as_rolled,
                    findings=tuple(findings), battles=tuple(battles))
