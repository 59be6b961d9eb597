"""The ruling letter: the document the Minister of Law signs and sends both players.

Built from the record (declarations, dice, reports, rulings, commitments, draws, reveals) and
both reviews (the game as corrected, the record as rolled). A head (from, to, date, subject), a
greeting, then "Findings" until something is ruled and "Ruling" after: each battle in question
as it was declared and thrown, and each finding on it in plain words (the rule quoted with its
edition and section, why the report was in time or too late, the decision and any election);
then the correction round by round, the result as corrected and what the error cost. After the
findings, what remains open in the whole game, the reports and rulings on record, the dice and
how to verify them, and the signature. No event numbers and no program names: the players read
it. Rendered by :mod:`projections.letter_render` (text, Markdown, HTML, JSON).
"""

from __future__ import annotations

from datetime import datetime

from domain.record.club_filing import side_of
from domain.record.game import BattleRecord, Game
from domain.review.finding_facts import battle_of, ruling_on, time_limit_of
from domain.review.views import BattleStatus, BattleView, DiceStatus, Finding, GameView
from domain.rules.editions import Edition, edition
from domain.rules.findings import FindingKind, FindingStatus
from domain.rules.rule_texts import quoted
from domain.rules.units import AXIS, POWERS
from projections.letter_open import still_open
from projections.letter_papers import claimed, decision, dice_section, papers_section, time_limit
from projections.letter_render import FORMATS, Letter, Para, Section, letter_dict, markdown_text, render
from projections.letter_words import (
    Quotes,
    battle_result,
    column,
    counted,
    edition_short,
    edition_words,
    faces,
    force,
    joined,
    need_words,
    outcome,
    percent,
    round_line,
    side_dice,
    title,
    when,
)

__all__ = ["DEFAULT_BY", "FORMATS", "Letter", "Para", "Section", "build_letter", "letter_dict",
           "markdown_text", "render"]

#: A battle's place in the record: (turn, territory).
Where = tuple[str | None, str | None]

#: Who signs the letter when ``--by`` does not say.
DEFAULT_BY = "Minister of Law"


def build_letter(game: Game, view: GameView, rolled: GameView, finding: str | None = None, *,
                 by: str = DEFAULT_BY, date: datetime | None = None) -> Letter:
    """The letter on the whole game, or on one finding (id or kind), signed by ``by`` and dated
    ``date`` (default: the latest ruling's time; with none, the game's last record's)."""
    policy = edition(game.edition)
    covered = [f for f in view.findings if f.status != FindingStatus.IGNORED
               and (finding is None or finding in (f.id, f.kind))]
    ruled = any(ruling_on(game, f) is not None for f in covered)
    heading = "Ruling" if ruled else "Findings"
    subject = (f"{heading} of the Minister of Law on game {game.game_id}"
               + (f": {game.title}" if game.title else ""))
    sections = [Section(heading, 1, [Para(_opening(game, view, covered, finding, policy))])]
    sections += _findings(game, view, rolled, covered, policy, Quotes())
    sections.append(still_open(game, view, policy))
    sections.append(papers_section(game, view, covered if finding is not None else None))
    shown: set[Where] = {(f.turn, f.battle) for f in covered if f.battle}
    dice = dice_section(game, shown if finding is not None else None)
    if dice is not None:
        sections.append(dice)
    return Letter(game.game_id, by, _addressees(game), when(date or _dated(game)), subject,
                  "Dear players,", sections, "Yours sincerely,", by)


def _dated(game: Game) -> datetime | None:
    """The letter's date: the latest ruling in force, else the game's latest record."""
    ruled = [r.at for r in game.live_rulings if r.at is not None]
    if ruled:
        return max(ruled)
    return max(game.moments) if game.moments else game.modified_on


def _addressees(game: Game) -> str:
    """The game's two players, by the powers each plays (Classic: the Axis and the Allies)."""
    axis = [p for p in POWERS if p in AXIS]
    allies = [p for p in POWERS if side_of(p) == "Allies"]
    return (f"the Axis player ({', '.join(axis)}) and the Allies player ({', '.join(allies)}) of game "
            f"{game.game_id}")


_STATUS_WORDS = {
    FindingStatus.CORRECTED: ("is corrected", "are corrected"),
    FindingStatus.OPEN: ("is still open", "are still open"),
    FindingStatus.VOID: ("makes its battle void", "make their battles void"),
    FindingStatus.STANDS: ("stands as the record has it", "stand as the record has them"),
    FindingStatus.FIXED: ("is fixed (not corrected within the time limit)",
                          "are fixed (not corrected within the time limit)"),
    FindingStatus.SUPERSEDED: ("is superseded by another", "are superseded by others"),
}


def _opening(game: Game, view: GameView, covered: list[Finding], finding: str | None, policy: Edition) -> str:
    """What the letter is about: the game, the edition, the findings and what became of them."""
    start = f"I have reviewed the record of game {game.game_id} under {edition_words(policy.name)}."
    if finding is not None:
        named = ", ".join(f"{f.id} ({title(f.kind)})" for f in covered) or finding
        return (f"{start} This letter concerns {named} alone; what remains open in the whole game is "
                "listed under \"Still open\".")
    if not covered:
        return f"{start} I found nothing in it to correct."
    counts: dict[FindingStatus, int] = {}
    for f in covered:
        counts[FindingStatus(f.status)] = counts.get(FindingStatus(f.status), 0) + 1
    parts = [f"{n} {_STATUS_WORDS[s][n != 1]}" for s, n in counts.items() if s in _STATUS_WORDS]
    if len(covered) == 1:
        return f"{start} It holds one finding, which {_STATUS_WORDS[FindingStatus(covered[0].status)][0]}."
    return f"{start} It holds {len(covered)} findings: {joined(parts)}."


def _findings(game: Game, view: GameView, rolled: GameView, covered: list[Finding],
              policy: Edition, quotes: Quotes) -> list[Section]:
    """A part for each battle in question (its findings within it, then the battle as
    corrected), and one for each finding of a turn or of the game."""
    battles: dict[Where, BattleView] = {(b.turn, b.battle): b for b in view.battles}
    as_rolled: dict[Where, BattleView] = {(b.turn, b.battle): b for b in rolled.battles}
    sections: list[Section] = []
    done: set[Where] = set()
    for f in covered:
        where = (f.turn, f.battle)
        battle = battles.get(where) if f.battle else None
        if battle is None:
            sections.append(Section(f"{f.id}: {title(f.kind)} ({f.turn or 'the game'})", 2,
                                    [Para(_sentence(f.what or f.detail), "What happened."),
                                     *_finding_paras(game, f, None, policy, quotes)]))
            continue
        if where in done:
            continue
        done.add(where)
        record = battle_of(game, f)
        sections.append(Section(f"{battle.turn}: the battle of {battle.battle}", 2,
                                _happened(battle, as_rolled.get(where), record)))
        for same in (g for g in covered if (g.turn, g.battle) == where):
            sections.append(Section(f"{same.id}: {title(same.kind)}{_place(same)}", 3,
                                    [Para(_sentence(same.what or same.detail), "The error."),
                                     *_finding_paras(game, same, battle, policy, quotes)]))
        sections.append(Section(f"{battle.battle}: the result stands" if battle.status == BattleStatus.STANDS
                                else f"{battle.battle} as corrected", 3,
                                _as_corrected(game, battle, as_rolled.get(where), record)))
    return sections


def _place(finding: Finding) -> str:
    where = [f"round {finding.round}" if finding.round else "", f"the {finding.side}" if finding.side else "",
             f"the {column(finding.column)}" if finding.column is not None else ""]
    listed = [w for w in where if w]
    return f" ({', '.join(listed)})" if listed else ""


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _finding_paras(game: Game, finding: Finding, battle: BattleView | None, policy: Edition,
                   quotes: Quotes) -> list[Para]:
    """The rule quoted, the time limit and the decision on one finding."""
    paras = [_rule(finding, policy, quotes)]
    limit = time_limit(game, finding, time_limit_of(game, finding, policy), policy, quotes)
    if limit:
        paras.append(Para(limit, "Time limit."))
    paras.append(Para(decision(game, finding, battle), "Decision."))
    return paras


def _rule(finding: Finding, policy: Edition, seen: Quotes) -> Para:
    """The section the edition applies, and its words (quoted once in a letter)."""
    section = finding.rule.removeprefix(policy.name).strip()
    cited = f"{edition_short(policy.name)}, {section}"
    quotes = quoted(policy.name, FindingKind(finding.kind))
    if not quotes:
        return Para(f"{cited}.", "The rule.")
    if not [q for q in quotes if seen.first(q)]:
        return Para(f"{cited}, quoted above.", "The rule.")
    return Para(f"{cited}: " + " ".join(f"“{q}”" for q in quotes), "The rule.")


def _happened(battle: BattleView, rolled: BattleView | None, record: BattleRecord | None) -> list[Para]:
    """The battle as declared and as thrown: the declaration, every round's dice, its result."""
    declared = battle.declared
    at = f" at {when(record.declared_at)}" if record is not None and record.declared_at else ""
    attacker = record.attacker_power if record is not None else "The attacker"
    if declared is not None:
        listed = (f", listing the defenders as {force(declared.defenders)}" if declared.defenders is not None
                  else ", listing no defenders")
        moves = [_move(m.units, m.origin, m.landing, m.transport_zone) for m in declared.moves]
    else:
        listed = ""
        moves = [_move(m.units, m.origin, m.landing, m.transport_zone) for m in record.moves] \
            if record is not None else []
    paras = [Para(f"{attacker} declared the attack on {battle.battle}{at}{listed}, with:", "What happened.",
                  moves)]
    if rolled is None or not rolled.rounds:
        paras.append(Para("No dice were rolled for it."))
        return paras
    first = record.rolls[0].at if record is not None and record.rolls else None
    paras.append(Para(f"It was rolled on the dice server{' at ' + when(first) if first else ''}:", "",
                      [round_line(rv) for rv in rolled.rounds]))
    paras.append(Para(f"As rolled, {outcome(rolled.result)}."))
    return paras


def _move(units: object, origin: str, landing: str | None, zone: str | None) -> str:
    text = f"{units} from {origin}"
    if zone:
        text += f", by sea through {zone}"
    if landing:
        text += f", the aircraft to land in {landing}"
    return text


def _as_corrected(game: Game, battle: BattleView, rolled: BattleView | None,
                  record: BattleRecord | None) -> list[Para]:
    """The correction round by round, its dice, the result as corrected and the odds."""
    paras: list[Para] = []
    steps = _correction_steps(battle)
    if steps:
        paras.append(Para("Round by round:", "The correction.", steps))
    sources = _dice_sources(game, record)
    if sources:
        paras.append(Para("The correction's dice, in the order they were used:", "", sources))
    result = _sentence(battle_result(battle))
    if rolled is not None and rolled.result is not None and rolled.result != battle.result \
            and battle.result is not None:
        result += f" (As rolled, {outcome(rolled.result)}.)"
    paras.append(Para(result, "Result as corrected."))
    if battle.impact is not None:
        imp = battle.impact
        paras.append(Para(f"From round {imp.from_round}, the attacker's chance to win was "
                          f"{percent(imp.as_rolled.attacker_win)} as rolled and "
                          f"{percent(imp.as_corrected.attacker_win)} as corrected; the defender's "
                          f"{percent(imp.as_rolled.defender_win)} and "
                          f"{percent(imp.as_corrected.defender_win)}.",
                          "What the error cost."))
    return paras


def _correction_steps(battle: BattleView) -> list[str]:
    """Each round the correction touched: dice added or not counted in a round as rolled, every
    round fought again, the original dice no longer counted, the throw still awaited."""
    steps: list[str] = []
    changed = frozenset({DiceStatus.ADDED, DiceStatus.VOIDED})
    for rv in battle.rounds:
        if rv.origin == "rerolled":
            steps.append(f"re-rolled {round_line(rv)}")
            continue
        touched = [f"the {name} {side_dice(side, only=changed, mark=True)}, {counted(side.hits, 'hit')} in "
                   f"all"
                   for name, side in (("attacker", rv.attacker), ("defender", rv.defender))
                   if any(e.status in changed for e in side.dice)]
        if touched:
            steps.append(f"round {rv.round} as rolled, corrected: {'; '.join(touched)}")
    rounds = sorted({v.round for v in battle.voided})
    for number in rounds:
        runs = [f"the {v.side} {column(v.column)} "
                f"{faces(v.values)}" for v in battle.voided if v.round == number]
        steps.append(f"round {number}'s original dice no longer count: {joined(runs)}")
    if battle.needed is not None:
        steps.append(f"still to be rolled: {need_words(battle.needed)}")
    return steps


def _dice_sources(game: Game, record: BattleRecord | None) -> list[str]:
    """Where the correction's dice came from: the dice server's, entered; the Minister's rolls."""
    if record is None:
        return []
    # The dice server's first (as entered), then the Minister's rolls: the order the review
    # takes them in (domain.review.game_review, CorrectionDice).
    found = [f"from the dice server, entered for {record.territory} at {claimed(game, s.seq, s.at)}: "
             f"{faces(s.dice)}" for s in record.supplied]
    found += [f"the Minister's roll #{d.sequence} ({d.purpose}) at "
              f"{when(game.moments[d.seq] if d.seq < len(game.moments) else None)}: {faces(d.dice)}"
              for d in record.draws]
    return found
