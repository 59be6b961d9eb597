"""Each power's treasury beside the board panel: IPCs on hand and income, after the current battle.

Pure (a :class:`~domain.review.views.BattleView` in, tagged spans out) so what the panel says is
tested without a terminal; the board panel (``m``) shows it under the territories.
"""

from __future__ import annotations

from domain.review.views import BattleView
from projections.timeline import Span


def treasury_lines(battle: BattleView, other: BattleView | None, other_name: str) -> list[list[Span]]:
    """"IPCs  USSR 15 (+24)  Germany 32 (+32) ...": each power's IPCs and the income it would
    collect on the board after the battle; the other history's figures where they differ."""
    if not battle.treasury:
        return []
    line: list[Span] = [("IPCs ", "dim")]
    for purse in battle.treasury:
        line += [(f" {purse.power} ", "text"), (str(purse.ipcs), "title"), (f" (+{purse.income})", "dim")]
    lines = [line]
    if other is not None and other.treasury and other.treasury != battle.treasury:
        alt: list[Span] = [(f"  {other_name}: ", "variation")]
        alt += [(f" {p.power} {p.ipcs} (+{p.income})", "variation")
                for p, q in zip(other.treasury, battle.treasury, strict=False) if p != q]
        lines.append(alt)
    return lines
