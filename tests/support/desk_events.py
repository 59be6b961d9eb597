"""Random desk events for property tests: reports, rulings and dice appended to a shipped game.

A spec is abstract (kind, battle pick, finding pick, choice, minutes, dice) so hypothesis can
shrink it; :func:`event_for` makes it a concrete event after the game's last one, naming a
battle and a finding the game has (or, now and then, one it does not).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from domain.record.events import DiceDrawn, DiceSupplied, GameEvent, ReportFiled, RulingIssued
from domain.record.game import Game
from domain.review.game_review import review

ROOT = Path(__file__).resolve().parents[2]
#: Every shipped replay, relative to the repository's root.
REPLAYS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "replays").rglob("*.toml"))
#: A game whose corrected result flows into a later battle on the same board.
FLOWS = "replays/consequences/corrected-result-flows-2008.toml"
DECISIONS = ("apply", "dismiss", "mutual")
ELECTIONS = (None, "reroll", "not_fight", "accept", "apply_to_corrected_units", "reroll_defence")

#: One desk event, abstractly: (kind, battle pick, finding pick, choice, minutes, dice).
desk_event = st.tuples(st.sampled_from(("report", "report_game", "ruling", "ruling_kind", "supplied",
                                        "drawn")),
                       st.integers(0, 50), st.integers(0, 50), st.integers(0, 20),
                       st.integers(-600, 3000), st.lists(st.integers(1, 6), min_size=1, max_size=6))


def event_for(game: Game, spec: tuple[Any, ...]) -> GameEvent:
    """A concrete event after ``game``'s last one, as ``spec`` describes it."""
    kind, battle_pick, finding_pick, choice, minutes, dice = spec
    when = game.moments[-1] + timedelta(minutes=minutes)
    base: dict[str, Any] = {"originator_id": game.id, "originator_version": game.version + 1,
                            "timestamp": when, "at": when}
    record = game.battles[battle_pick % len(game.battles)] if game.battles else None
    if kind in ("supplied", "drawn") and record is not None:
        where = {"battle": record.written or record.territory, "territory": record.territory}
        if kind == "supplied":
            return DiceSupplied(**base, **where, dice=tuple(dice))
        sequence = 1 + max((s for b in game.battles for s, _, _ in b.drawn), default=-1)
        return DiceDrawn(**base, **where, sequence=sequence, purpose="correction", dice=tuple(dice))
    if kind in ("ruling", "ruling_kind"):
        findings = review(game).findings
        finding = (f"F{finding_pick % (len(findings) + 1) + 1}" if kind == "ruling" or not findings
                   else findings[finding_pick % len(findings)].kind)
        return RulingIssued(**base, finding=finding, decision=DECISIONS[choice % 3],
                            election=ELECTIONS[choice % len(ELECTIONS)], text=f"ruling {choice}")
    battle = record.territory if kind == "report" and record is not None else None
    return ReportFiled(**base, by="USSR", text=f"report {choice}", battle=battle)
