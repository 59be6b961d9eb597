"""The timeline's text: each point of a battle as tagged spans, and the layout of a round's columns.

Spans are ``(text, tag)`` pairs; the tags (:data:`Tag`) say what a piece of text is (a hit, voided
dice, a re-roll mark …) and the renderers choose the styles. Every mark also shows in the text
itself (``4*`` a hit, ``✗(…)`` voided dice, ``+(…)`` added dice, ``↻`` a re-rolled round), so the
timeline reads without colour. Pure Python: no Textual here.
"""

from __future__ import annotations

from typing import Literal

from domain.battle.columns import hit_value
from domain.battle.model import Column
from domain.review.views import (
    BattleStatus,
    BattleView,
    DiceEntry,
    DiceStatus,
    RoundView,
    SideRound,
    VoidedDice,
)
from domain.rules.forces import Force
from projections.luck import entry_hits

SideName = Literal["attacker", "defender"]
#: Span tags the renderers map to styles: plain text, headings, dice and marks.
Tag = Literal["text", "title", "dim", "hit", "miss", "voided", "added", "reroll", "finding", "variation"]
Span = tuple[str, Tag]
ColumnKey = tuple[SideName, Column, bool]


def column_order(key: ColumnKey) -> tuple[int, int]:
    """The order a round rolls its dice: AA guns and support shots, the attacking submarines'
    first strike, the attacker's columns ascending, the defender's ascending
    (spec/replay-format.md, dice queue order)."""
    side, column, first_strike = key
    if column == "AA":
        return (0, 0)
    if column == "BB":
        return (1, 0)
    number = column if isinstance(column, int) else 9
    if side == "attacker":
        return (2 if first_strike else 3, number)
    return (4, number)


#: The rolling order of every usual column, looked up rather than computed when laying out.
_ORDER: dict[ColumnKey, tuple[int, int]] = {
    (side, column, first_strike): column_order((side, column, first_strike))
    for side in ("attacker", "defender") for column in (1, 2, 3, 4, 5, "AA", "BB")
    for first_strike in (False, True)}


def round_voided(battle: BattleView, rnd: RoundView, side: SideName) -> list[VoidedDice]:
    """Original dice of this round and side that no longer count (the round was re-rolled)."""
    if rnd.origin != "rerolled":
        return []
    return [v for v in battle.voided if v.round == rnd.round and v.side == side]


def voided_first_strike(side_round: SideRound, column: Column) -> bool:
    """Whether voided originals of ``column`` belong to its first-strike run: only when the
    re-rolled round has a first strike in that column and no regular dice there."""
    kinds = {e.first_strike for e in side_round.dice if e.column == column}
    return kinds == {True}


def round_columns(battle: BattleView, rnd: RoundView) -> list[ColumnKey]:
    """The columns a round rolled (and the voided columns it replaces), in rolling order."""
    # This runs for every round of the game when the timeline is laid out: kept lean.
    keys: dict[ColumnKey, None] = {}
    for entry in rnd.attacker.dice:
        keys["attacker", entry.column, entry.first_strike] = None
    for entry in rnd.defender.dice:
        keys["defender", entry.column, entry.first_strike] = None
    if battle.voided and rnd.origin == "rerolled":
        sides: tuple[tuple[SideName, SideRound], ...] = (("attacker", rnd.attacker),
                                                         ("defender", rnd.defender))
        for name, side_round in sides:
            for voided in round_voided(battle, rnd, name):
                keys[name, voided.column, voided_first_strike(side_round, voided.column)] = None
    return sorted(keys, key=_ORDER.__getitem__) if all(k in _ORDER for k in keys) \
        else sorted(keys, key=column_order)



def battle_spans(battle: BattleView) -> list[Span]:
    """A battle's heading: territory, kind, status, result, re-roll."""
    spans: list[Span] = [(battle.battle, "title"), (f" ({battle.kind}) · {battle.status}", "text")]
    if battle.resume_round is not None:
        spans.append((f" · re-rolled from round {battle.resume_round}", "reroll"))
    spans.append((" · " + result_text(battle), "dim"))
    if battle.finding_ids:
        count = len(battle.finding_ids)
        spans.append((f" · {count} finding{'s' if count != 1 else ''}", "finding"))
    return spans


def result_text(battle: BattleView) -> str:
    """Who won, briefly."""
    outcome = battle.result
    unfought = {BattleStatus.VOID: "void", BattleStatus.NOT_FOUGHT: "not fought",
                BattleStatus.AWAITING: "awaiting"}
    if battle.status in unfought and not battle.rounds:
        text = unfought[battle.status]
        return text + (f" ({awaiting_text(battle)})" if battle.awaiting is not None else "")
    if outcome is None or outcome.winner is None:
        return "unfinished"
    if outcome.retreated:
        return "attacker retreated"
    if outcome.winner.value == "none":
        return "both destroyed"
    return f"{outcome.winner.value} wins"


def awaiting_text(battle: BattleView) -> str:
    """"awaiting UK's election (the attacker): reroll or not_fight (F1)"."""
    wait = battle.awaiting
    if wait is None:
        return ""
    return (f"awaiting {wait.by}'s election (the {wait.side}): {' or '.join(wait.elections)} "
            f"({wait.finding})")


def round_spans(battle: BattleView, rnd: RoundView) -> list[Span]:
    """A round's heading: number, re-roll mark, both sides at its start."""
    spans: list[Span] = [(f"Round {rnd.round}", "title")]
    if rnd.origin == "rerolled":
        begins = battle.resume_round == rnd.round
        spans.append((" ↻ re-roll begins" if begins else " ↻ re-rolled", "reroll"))
    spans.append((f" · {force_text(rnd.attacker.units)} v {force_text(rnd.defender.units)}", "text"))
    return spans


def casualty_spans(rnd: RoundView) -> list[Span]:
    """The round's losses, side by side."""
    spans: list[Span] = [("Casualties", "title")]
    if rnd.aa_losses:
        spans.append((f" · AA took {rnd.aa_losses}", "text"))
    spans.append((" · Att " + (f"−{rnd.attacker_losses}" if rnd.attacker_losses else "none"), "text"))
    spans.append((" · Def " + (f"−{rnd.defender_losses}" if rnd.defender_losses else "none"), "text"))
    return spans


def column_name(side: SideName, column: Column, first_strike: bool = False) -> str:
    """"Att col 3", "Def AA guns", "Att BB support", "Att col 2 first strike"."""
    who = "Att" if side == "attacker" else "Def"
    if column == "AA":
        return f"{who} AA guns"
    if column == "BB":
        return f"{who} BB support"
    return f"{who} col {column}" + (" first strike" if first_strike else "")


def column_spans(battle: BattleView, rnd: RoundView, side: SideName, column: Column,
                 first_strike: bool) -> list[Span]:
    """One column of one side in one round: its dice, voided and added runs marked, and hits."""
    side_round = rnd.attacker if side == "attacker" else rnd.defender
    spans: list[Span] = [(column_name(side, column, first_strike), "title"), (": ", "text")]
    spans.extend(column_dice_spans(battle, rnd, side, column, first_strike))
    hits = sum(entry_hits(e) for e in column_entries(side_round, column, first_strike)
               if e.status != DiceStatus.VOIDED)
    spans.append((f" = {hits} hit{'s' if hits != 1 else ''}", "dim"))
    return spans


def column_entries(side_round: SideRound, column: Column, first_strike: bool) -> list[DiceEntry]:
    """The dice entries of one column (one per run of equal status)."""
    return [e for e in side_round.dice if e.column == column and e.first_strike == first_strike]


def column_dice_spans(battle: BattleView, rnd: RoundView, side: SideName, column: Column,
                      first_strike: bool) -> list[Span]:
    """The dice of a column as tagged text: ``4*`` hits, ``✗`` voided runs, ``+`` added runs.

    Voided originals of a re-rolled round (``battle.voided``) come first, struck through, unless
    the round already lists them as a voided entry.
    """
    side_round = rnd.attacker if side == "attacker" else rnd.defender
    entries = column_entries(side_round, column, first_strike)
    spans: list[Span] = []
    listed = {e.values for e in entries if e.status == DiceStatus.VOIDED}
    if voided_first_strike(side_round, column) == first_strike:
        for voided in round_voided(battle, rnd, side):
            if voided.column == column and voided.values not in listed:
                spans.extend(_dice_run(voided.values, None, column, DiceStatus.VOIDED))
                if entries:
                    spans.append(("→ ", "dim"))  # the re-rolled dice replace them
    for entry in entries:
        spans.extend(_dice_run(entry.values, entry.hits, column, entry.status))
    if spans and spans[-1] == (" ", "text"):
        spans.pop()
    if not spans:
        spans.append(("no dice", "dim"))
    return spans


def _dice_run(values: tuple[int, ...], hits: tuple[bool, ...] | None, column: Column,
              status: DiceStatus) -> list[Span]:
    threshold = hit_value(column)
    marks = hits if hits is not None and len(hits) == len(values) else tuple(v <= threshold for v in values)
    faces = [f"{v}*" if m else str(v) for v, m in zip(values, marks, strict=True)]
    if status == DiceStatus.VOIDED:
        return [("✗(" + " ".join(faces) + ")", "voided"), (" ", "text")]
    if status == DiceStatus.ADDED:
        return [("+(" + " ".join(faces) + ")", "added"), (" ", "text")]
    spans: list[Span] = []
    for face, mark in zip(faces, marks, strict=True):
        spans.append((face, "hit" if mark else "miss"))
        spans.append((" ", "text"))
    return spans


def force_text(force: Force) -> str:
    """A force as notation, or "nothing"."""
    return str(force) or "nothing"
