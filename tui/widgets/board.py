"""The battle board at the current point of the timeline.

For a round: both sides' units by column (1-5, AA guns, support shots, first strike, the units
that do not fire), the dice each column threw with hits marked, voided dice struck through, added
dice marked, and the casualty area. For a battle: the units at the start of each round. For a
turn: its battles.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from domain.battle.model import Column
from domain.review.views import BattleView, Chances, Impact, RoundView, SideRound
from domain.rules.forces import Force
from domain.rules.units import UnitType, combat_value
from projections.board_text import declared_lines, start_spans
from projections.timeline import (
    SideName,
    Timeline,
    column_dice_spans,
    column_entries,
    column_order,
    force_text,
    result_text,
    round_columns,
)
from tui.widgets.lines import Grid, LinesPanel
from tui.widgets.repaint import set_title
from tui.widgets.styles import TAG_STYLES, spans_text

#: Most battles listed on a turn's board (a big game has turns of many battles).
MAX_TURN_ROWS = 40
_CURRENT = Style(reverse=True)
_DIFFERS = Style(bold=True, color="red")


@dataclass(frozen=True)
class BoardRow:
    """One row of the battle board: a column of both sides."""

    key: str
    label: str
    attacker_units: str
    attacker_dice: Text
    defender_units: str
    defender_dice: Text
    #: Which side's cells are the timeline's current point ("" for none, "both").
    current: str = ""

    def signature(self) -> str:
        """The row as plain text, to compare two boards."""
        return "|".join((self.attacker_units, self.attacker_dice.plain, self.defender_units,
                         self.defender_dice.plain))


def round_rows(timeline: Timeline, index: int) -> list[BoardRow]:
    """The board rows of the round node ``index`` belongs to."""
    node = timeline.nodes[index]
    battle = timeline.battle(index)
    rnd = timeline.round(index)
    if battle is None or rnd is None:
        return []
    att = _unit_rows(rnd.attacker.units, attacking=True)
    dfn = _unit_rows(rnd.defender.units, attacking=False)
    # One row per board column, both sides on it: the columns 1-4 always, 5, AA guns, support
    # shots and first strikes when units or dice are there.
    row_keys: set[tuple[Column, bool]] = {(column, False) for column in (1, 2, 3, 4)}
    row_keys.update((column, first_strike) for _, column, first_strike in round_columns(battle, rnd))
    row_keys.update((column, False) for column in (*att, *dfn) if column != 0)
    rows: list[BoardRow] = []
    for column, first_strike in sorted(row_keys, key=_row_order):
        current = ""
        if node.kind == "column" and node.column == column and node.first_strike == first_strike:
            current = node.side or ""
        label = _row_label(column, first_strike)
        rows.append(BoardRow(
            key=label, label=label,
            attacker_units="" if first_strike else force_text_or_blank(att.get(column)),
            attacker_dice=_dice_cell(battle, rnd, "attacker", column, first_strike),
            defender_units="" if first_strike else force_text_or_blank(dfn.get(column)),
            defender_dice=_dice_cell(battle, rnd, "defender", column, first_strike),
            current=current))
    if 0 in att or 0 in dfn:
        rows.append(BoardRow(key="none", label="no fire", attacker_units=force_text_or_blank(att.get(0)),
                             attacker_dice=Text(), defender_units=force_text_or_blank(dfn.get(0)),
                             defender_dice=Text()))
    # The hits in the units column, what is odd about them (wasted, stated) in the dice column.
    attacker_hits, attacker_note = _hits_cell(rnd.attacker, rnd.defender.units)
    defender_hits, defender_note = _hits_cell(rnd.defender, rnd.attacker.units)
    rows.append(BoardRow(key="hits", label="hits", attacker_units=attacker_hits, attacker_dice=attacker_note,
                         defender_units=defender_hits, defender_dice=defender_note))
    attacker_losses = rnd.attacker_losses + rnd.aa_losses
    rows.append(BoardRow(
        key="casualties", label="losses", attacker_units=force_text_or_blank(attacker_losses),
        attacker_dice=Text(), defender_units=force_text_or_blank(rnd.defender_losses),
        defender_dice=Text(), current="both" if node.kind == "casualties" else ""))
    return rows


def force_text_or_blank(force: Force | None) -> str:
    """A force as notation, or nothing at all."""
    return str(force) if force else ""


def _row_order(key: tuple[Column, bool]) -> tuple[int, int]:
    column, first_strike = key
    return column_order(("attacker", column, first_strike))


def _row_label(column: Column, first_strike: bool) -> str:
    if column == "AA":
        return "AA guns"
    if column == "BB":
        return "support"
    return f"{column} first" if first_strike else f"{column}"


def _unit_rows(force: Force, *, attacking: bool) -> dict[Column, Force]:
    """Units by board row: their column, "AA" for AA guns, 0 for units that do not fire."""
    rows: dict[Column, dict[UnitType, int]] = {}
    for unit, count in force:
        column: Column = "AA" if unit is UnitType.AA and not attacking else combat_value(unit, attacking)
        rows.setdefault(column, {})[unit] = count
    return {column: Force.of(units) for column, units in rows.items()}


def _dice_cell(battle: BattleView, rnd: RoundView, side: SideName, column: Column,
               first_strike: bool) -> Text:
    side_round = rnd.attacker if side == "attacker" else rnd.defender
    voided = [v for v in battle.voided if v.round == rnd.round and v.side == side and v.column == column]
    if not column_entries(side_round, column, first_strike) and not (voided and rnd.origin == "rerolled"):
        return Text()
    # On the board the re-rolled dice go under the voided ones they replace.
    spans = [("\n→ ", tag) if (text, tag) == ("→ ", "dim") else (text, tag)
             for text, tag in column_dice_spans(battle, rnd, side, column, first_strike)]
    return spans_text(spans)


def _hits_cell(side: SideRound, targets: Force) -> tuple[str, Text]:
    """A side's hits, and a note on them: hits with no target left, a different stated count."""
    note = Text()
    over = side.hits - len(targets.combatants())
    if over > 0:
        note.append(f"{over} wasted", TAG_STYLES["dim"])
    if side.stated_hits is not None and side.stated_hits != side.hits:
        note.append((" · " if note else "") + f"record said {side.stated_hits}", TAG_STYLES["finding"])
    return f"{side.hits} hit{'s' if side.hits != 1 else ''}", note


def round_board(timeline: Timeline, index: int, *, compact: bool = False,
                compare: dict[str, str] | None = None) -> RenderableType:
    """The battle board of the round at ``index``; rows that differ from ``compare`` marked ≠
    (``compact``: a diff's board, without the units at the start)."""
    battle = timeline.battle(index)
    rnd = timeline.round(index)
    assert battle is not None and rnd is not None
    heading = Text.assemble((battle.battle, "bold"), f" ({battle.kind}) · ",
                            (f"Round {rnd.round}", "bold"), f" of {len(battle.rounds)}")
    if timeline.nodes[index].variation:
        view = "as rolled" if timeline.view_of(index).as_rolled else "as corrected"
        heading.append(f" · {view} (the variation)", TAG_STYLES["variation"])
    if rnd.origin == "rerolled":
        begins = battle.resume_round == rnd.round
        heading.append(" · ↻ the re-roll begins here" if begins else " · ↻ re-rolled", TAG_STYLES["reroll"])
    start = spans_text([("At the start: ", "dim"), ("attacker ", "dim"), *start_spans(rnd, attacking=True),
                        (" · defender ", "dim"), *start_spans(rnd, attacking=False)])
    # Every label has a three-cell slot for the marks (≠ differs, ▶ the current point), so a marked
    # row keeps the width, and the alignment, of the others. Each side's units and dice have a
    # column of their own, headed by the side, on every board (the diff's too: its boards are
    # stacked, each as wide as one board).
    grid = Grid(("   column", "attacker", "its dice", "defender", "its dice"), (2, 3, 2, 3),
                label_width=10, short=("   col", "attacker", "dice", "defender", "dice"),
                whole=(True, False, True, False))
    for row in round_rows(timeline, index):
        name = row.label
        differs = compare is not None and compare.get(row.key) != row.signature()
        label = Text.assemble(("≠" if differs else " ", _DIFFERS), "▶ " if row.current else "  ", name)
        att_style = _CURRENT if row.current in ("attacker", "both") else Style()
        def_style = _CURRENT if row.current in ("defender", "both") else Style()
        grid.add_row(label, Text(row.attacker_units, att_style), _styled(row.attacker_dice, att_style),
                     Text(row.defender_units, def_style), _styled(row.defender_dice, def_style))
    # A diff's boards share the room: the units at the start are in the rows (the AA's victims
    # in the losses).
    return Group(heading, grid) if compact else Group(heading, start, grid)


def _styled(text: Text, style: Style) -> Text:
    if not style:
        return text
    copy = text.copy()
    copy.stylize(style)
    return copy


def battle_board(timeline: Timeline, index: int) -> RenderableType:
    """A battle at a glance: declared forces, the units at the start of each round, the result."""
    battle = timeline.battle(index)
    assert battle is not None
    head = Text.assemble((battle.battle, "bold"), f" ({battle.kind}) · {battle.turn} · {battle.status}")
    if battle.resume_round is not None:
        head.append(f" · re-rolled from round {battle.resume_round}", TAG_STYLES["reroll"])
    declared = [spans_text(line) for line in declared_lines(battle)]
    # Each side's cell: its units at the round's start, the aircraft the AA guns shot down,
    # and its losses in the round, a line each (units are never cut in two).
    table = Grid(("round", "attacker", "defender", "hits A/D"), (3, 3, 1), label_width=15,
                 fit_label=True, whole=(True, True, True))
    for view, rounds in _rounds_with_variation(timeline, index):
        for rnd in rounds:
            label = Text(f"{rnd.round}")
            if rnd.origin == "rerolled":
                label.append(" ↻", TAG_STYLES["reroll"])
            if view is not None:
                label = Text(f"({view}) ", TAG_STYLES["variation"]) + label
            table.add_row(label, _side_cell(rnd, rnd.attacker_losses, attacking=True),
                          _side_cell(rnd, rnd.defender_losses, attacking=False),
                          Text(f"{rnd.attacker.hits}/{rnd.defender.hits}"))
    result = Text.assemble(("Result: ", "bold"), result_text(battle))
    if battle.result is not None:
        result.append(f" · attacker left {force_text(battle.result.attacker_left)}"
                      f" · defender left {force_text(battle.result.defender_left)}", TAG_STYLES["dim"])
    units = Text("Each round: the units at its start, their losses:", TAG_STYLES["dim"])
    parts: list[RenderableType] = [head, *declared, units, table, result]
    if battle.impact is not None:
        parts.append(impact_text(battle.impact))
    return Group(*parts)


def _side_cell(rnd: RoundView, losses: Force, *, attacking: bool) -> Text:
    """A side's units at a round's start (the AA's victims marked) and, under them, its losses."""
    cell = spans_text(start_spans(rnd, attacking=attacking, cell=True))
    cell.append(f"\n−{losses}" if losses else "\nno loss", TAG_STYLES["dim"])
    return cell


def impact_text(impact: Impact) -> Text:
    """What the error cost: the attacker's chances from the round the histories part."""
    def chances(c: Chances) -> str:
        return f"{c.attacker_win:.1%}" + (f" (+{c.retreat:.1%} retreats)" if c.retreat else "")

    return Text.assemble(("What the error cost: ", "bold"),
                         f"from round {impact.from_round} the attacker wins "
                         f"{chances(impact.as_rolled)} as rolled, "
                         f"{chances(impact.as_corrected)} as corrected")


def _rounds_with_variation(timeline: Timeline,
                           index: int) -> list[tuple[str | None, tuple[RoundView, ...]]]:
    node = timeline.nodes[index]
    main = timeline.main_battle(index)
    assert main is not None
    out: list[tuple[str | None, tuple[RoundView, ...]]] = [(None, main.rounds)]
    start, end = timeline.battle_range(node.battle)
    variation = [timeline.round(i) for i in range(start, end)
                 if timeline.nodes[i].variation and timeline.nodes[i].kind == "round"]
    if variation:
        name = "as rolled" if timeline.as_rolled is False else "as corrected"
        out.append((name, tuple(r for r in variation if r is not None)))
    return out


def turn_board(timeline: Timeline, index: int) -> RenderableType:
    """A turn: its battles, each with status, result and findings (a turn without battles: what
    its records are; the map shows what they did)."""
    node = timeline.nodes[index]
    turn = timeline.turns[node.turn]
    if not timeline.turn_battles(index):
        records = timeline.turn_records(index)
        what = ", ".join(records.kinds) if records is not None and records.kinds else "no records"
        return Group(Text.assemble((turn, "bold"), " · no battle"),
                     Text(f"Its records: {what} (m: the map after them).", TAG_STYLES["dim"]))
    table = Grid(("battle", "kind", "status", "result", "findings"), (2, 2, 3, 2), label_width=18)
    shown = total = 0
    following = timeline.nodes[index + 1] if index + 1 < len(timeline) else None
    b = following.battle if following is not None and following.kind == "battle" else -1
    while 0 <= b < len(timeline.main.battles) and timeline.main.battles[b].turn == turn:
        battle = timeline.main.battles[b]
        total += 1
        if shown < MAX_TURN_ROWS:
            table.add_row(Text(battle.battle), Text(battle.kind), Text(battle.status),
                          Text(result_text(battle)),
                          Text(str(len(battle.finding_ids)) if battle.finding_ids else ""))
            shown += 1
        b += 1
    plural = "s" if total != 1 else ""
    parts: list[RenderableType] = [Text.assemble((turn, "bold"), f" · {total} battle{plural}"), table]
    if total > shown:
        parts.append(Text(f"… and {total - shown} more", TAG_STYLES["dim"]))
    return Group(*parts)


def after_combat_board(timeline: Timeline, index: int) -> RenderableType:
    """A turn's records after its last battle (2008 Post Combat Orders): what they are; the map
    shows what they did."""
    turn = timeline.turns[timeline.nodes[index].turn]
    records = timeline.turn_records(index)
    what = ", ".join(records.after) if records is not None else "no records"
    return Group(Text.assemble((turn, "bold"), " · after combat"),
                 Text(f"Its records after its battles: {what} (m: the map after them).", TAG_STYLES["dim"]))


def board_for(timeline: Timeline, index: int, *, compact: bool = False,
              compare: dict[str, str] | None = None) -> RenderableType:
    """What the board shows at node ``index``."""
    if not len(timeline):
        return Text("This game has no battles.", TAG_STYLES["dim"])
    kind = timeline.nodes[index].kind
    if kind == "turn":
        return turn_board(timeline, index)
    if kind == "records":
        return after_combat_board(timeline, index)
    if kind == "battle":
        return battle_board(timeline, index)
    return round_board(timeline, index, compact=compact, compare=compare)


def signatures(timeline: Timeline, index: int) -> dict[str, str]:
    """Each board row's plain text at ``index`` (to mark the rows another board differs in)."""
    if not len(timeline) or timeline.nodes[index].kind in ("turn", "battle", "records"):
        return {}
    return {row.key: row.signature() for row in round_rows(timeline, index)}


class BattleBoard(LinesPanel):
    """The battle board panel."""

    DEFAULT_CSS = """
    BattleBoard {
        border: round $primary;
        border-title-style: bold;
        padding: 0 1;
    }
    """

    def show(self, timeline: Timeline, index: int, *, title: str, compact: bool = False,
             compare: dict[str, str] | None = None, relayout: bool = False) -> None:
        """Show the board at node ``index`` (``relayout``: the panel is about to change size)."""
        set_title(self, title)
        self.set_content(board_for(timeline, index, compact=compact, compare=compare), relayout=relayout)
