"""The battle board's statements of the record, as tagged spans (pure: no Textual here).

The board states what the record says before what became of it: the battle as declared (the
defenders the declaration listed, every move into it with its origin and where its aircraft
land: :class:`~domain.review.views.Declaration`), then the forces it was fought with where they
differ (the map's defenders for a misdeclared battle, 2008 Section II.3), and each round's units
at its start with the aircraft the AA guns shot down before round 1 counted and marked (they are
not among the round's units: ``RoundView.aa_losses``).
"""

from __future__ import annotations

from domain.review.views import BattleView, RoundView
from domain.rules.orders_of_loss import BattleKind
from domain.rules.units import UnitType
from projections.timeline_text import Span, force_text


def declared_lines(battle: BattleView) -> list[list[Span]]:
    """"Declared: attacker … · defender …", a line per move ("from Karelia S.S.R. 3 INF, 1 ARM,
    1 FTR, landing in Karelia S.S.R."), and "Fought with: …" where the forces differ."""
    declared = battle.declared
    if declared is None:
        return [[("Declared: ", "dim"), ("not known", "dim"), (" · fought with attacker ", "dim"),
                 (force_text(battle.attacker_start), "text"), (" · defender ", "dim"),
                 (force_text(battle.defender_start), "text")]]
    defenders = force_text(declared.defenders) if declared.defenders is not None else "not listed"
    lines: list[list[Span]] = [[("Declared: attacker ", "dim"), (force_text(declared.attackers), "text"),
                                (" · defender ", "dim"), (defenders, "text")]]
    for move in declared.moves:
        line: list[Span] = [("  from ", "dim"), (move.origin, "title"), (" ", "text"),
                            (force_text(move.units), "text")]
        if move.transport_zone:
            line += [(", by sea from ", "dim"), (move.transport_zone, "text")]
        if move.landing:
            line += [(", landing in ", "dim"), (move.landing, "text")]
        lines.append(line)
    # The forces fought with, where they are not the declaration's (a misdeclared defence is
    # fought with the map's units; a battleship's support is not among the attackers).
    attackers = declared.attackers
    if battle.kind is not BattleKind.SEA:
        attackers = attackers.where(lambda u: u is not UnitType.BB)
    attackers_differ = battle.attacker_start != attackers
    defenders_differ = declared.defenders is not None and battle.defender_start != declared.defenders
    if attackers_differ or defenders_differ:
        fought: list[Span] = [("Fought with: ", "dim")]
        if attackers_differ:
            fought += [("attacker ", "dim"), (force_text(battle.attacker_start), "finding")]
        if defenders_differ:
            fought += [(" · " if attackers_differ else "", "dim"), ("defender ", "dim"),
                       (force_text(battle.defender_start), "finding")]
        lines.append(fought)
    return lines


def start_spans(rnd: RoundView, *, attacking: bool, cell: bool = False) -> list[Span]:
    """A side's units at the start of a round; the attacker's in round 1 with the aircraft the
    AA guns shot down counted and marked ("9 INF, 3 ARM, 2 FTR (✗ 2 FTR shot down by AA)";
    in a table's ``cell``, the mark on a line of its own: "✗ AA shot 2 FTR")."""
    side = rnd.attacker if attacking else rnd.defender
    if not attacking or not rnd.aa_losses:
        return [(force_text(side.units), "text")]
    mark = f"\n✗ AA shot {rnd.aa_losses}" if cell else f" (✗ {rnd.aa_losses} shot down by AA)"
    return [(force_text(side.units + rnd.aa_losses), "text"), (mark, "hit")]
