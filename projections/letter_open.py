"""What remains open in the whole game, whatever the letter is about: every open finding, every
void battle awaiting its attacker's election, every battle awaiting dice or a ruling, each with
what it waits for and until when the rules let it wait (2008 Section VII; Part 14 sets no time
limit; a bid is for the Minister of Law whenever he rules)."""

from __future__ import annotations

from domain.record.game import Game
from domain.review.decisions import NOT_TIME_LIMITED
from domain.review.finding_facts import TimeLimit, time_limit_of
from domain.review.views import BattleStatus, Finding, GameView
from domain.rules.editions import Edition
from domain.rules.findings import FindingKind, FindingStatus
from domain.rules.turns import Power, turn_of
from projections.letter_papers import election_due, waiting_words
from projections.letter_render import Para, Section
from projections.letter_words import need_words, title


def is_open(finding: Finding) -> bool:
    """Whether a finding is not settled: open, or a void battle awaiting an election."""
    return finding.status == FindingStatus.OPEN or (finding.status == FindingStatus.VOID
                                                    and finding.waiting == "election")


def still_open(game: Game, view: GameView, policy: Edition) -> Section:
    """The "Still open" part: one item per open finding or awaiting battle of the game."""
    battles = {(b.turn, b.battle): b for b in view.battles}
    items: list[str] = []
    listed: set[tuple[str | None, str | None]] = set()
    for f in view.findings:
        if not is_open(f):
            continue
        battle = battles.get((f.turn or "", f.battle or "")) if f.battle else None
        where = ", ".join(part for part in (f.turn, f.battle) if part) or "the game"
        if f.status == FindingStatus.VOID:
            what = f"the battle is null and void until {election_due(game, f)}"
        else:
            what = waiting_words(game, f, battle)
        items.append(f"{f.id}, {title(f.kind)} ({where}): "
                     f"{what}{_until(f, time_limit_of(game, f, policy), policy)}.")
        listed.add((f.turn, f.battle))
    for b in view.battles:
        if b.status == BattleStatus.AWAITING and (b.turn, b.battle) not in listed:
            need = need_words(b.needed) if b.needed is not None else "a ruling or an election"
            items.append(f"{b.turn}, {b.battle}: the battle awaits {need}.")
    if not items:
        settled = ": every finding is settled" if view.findings else ""
        return Section("Still open", 1, [Para(f"Nothing remains open{settled}.")])
    return Section("Still "
                   "open", 1, [Para("These wait for a report, a ruling, an election or dice:", "", items)])


def _until(finding: Finding, limit: TimeLimit, policy: Edition) -> str:
    """Until when the rules let an open finding wait, and what happens after."""
    kind = FindingKind(finding.kind)
    if kind == FindingKind.RESTS_ON_VOID:
        return "; the texts set it no time limit"
    if not limit.applies:
        if policy.time_limit and kind in NOT_TIME_LIMITED:
            return ("; the time limit does not reach it (2008 Section VII): the Minister of Law adjudicates "
                    "it case by case, whenever he rules")
        return "; Part 14 (1999) sets no time limit" if not policy.time_limit else ""
    later, then = limit.next_turn, limit.then_turn
    if finding.waiting == "report":
        return f"; it is correctable only if reported before {later} is rolled (2008 Section VII)"
    if finding.waiting == "minister" and limit.in_time is False:
        return (f"; reported after {later} was rolled but before the USSR part of the USA-USSR turn: the "
                "Minister of Law decides whether it is still correctable (2008 Section VII)")
    if finding.waiting == "minister" and turn_of(finding.turn or "").power is Power.USA:
        return ("; an error of the USA part of the USA-USSR turn: the Minister of Law adjudicates it case by "
                "case (2008 Section VII)")
    if limit.next_rolled is None:
        return (f"; it must be corrected before {later} is rolled, else {later} is void and must be re-done "
                "(2008 Section VII)")
    return (f"; {later} was rolled before it was corrected, so {later} is void and must be re-done, and the "
            f"error becomes fixed if {then} is rolled before it is corrected (2008 Section VII)")
