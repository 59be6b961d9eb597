"""A battle's findings settled: the remedies that hold planned and applied, each finding's final
status (corrected, open awaiting dice or an election, superseded by a void), and what a void
turn does to the battles and findings in it.

The review (:mod:`domain.review.game_review`) judges each issue (:mod:`domain.review.decisions`)
and hands the battle's judged issues here; every rule applied cites its edition and section.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from msgspec.structs import replace as with_fields

from domain.record.entries import Election
from domain.record.game import BattleRecord
from domain.review.corrections import correct
from domain.review.decisions import ELECTIONS, HOLDS_BATTLE, Decision, WaitingFor, elector
from domain.review.impact import has_impact, impact
from domain.review.refight import Context, Plan, setup_of
from domain.review.rolling_errors import Issue
from domain.review.views import (
    Awaiting,
    BattleStatus,
    BattleView,
    DiceStatus,
    Finding,
    Impact,
    VoidedDice,
    awaiting_note,
)
from domain.rules.editions import DECLARATION_ERRORS, Edition
from domain.rules.findings import FindingKind, FindingStatus

#: Remedies that find nothing to change: a forgotten shot that misses stands, a ghost that
#: missed is ignored (2008 Section III; 1999 Part 14 AA guns 1a/2.1, BB 3.2.1).
_NO_CHANGE: dict[FindingKind, FindingStatus] = {
    FindingKind.AA_FORGOTTEN: FindingStatus.STANDS, FindingKind.BB_FORGOTTEN: FindingStatus.STANDS,
    FindingKind.AA_GHOST: FindingStatus.IGNORED, FindingKind.BB_GHOST: FindingStatus.IGNORED,
    FindingKind.AA_TOO_MANY: FindingStatus.IGNORED, FindingKind.BB_TOO_MANY: FindingStatus.IGNORED}


@dataclass
class Judged:
    """An issue, the decision on it, and the finding's id."""

    issue: Issue
    decision: Decision
    finding_id: str
    #: The finding's identity (views.finding_key).
    key: str = ""


def correction(ctx: Context, judged: list[Judged]) -> tuple[BattleView, list[Judged],
                                                               list[tuple[int, str, tuple[int, ...]]],
                                                               Impact | None]:
    """A battle corrected: its view, its settled findings, the dice it drew and its impact."""
    view, settled = _corrected(ctx, judged)
    # The battle as the engine fights it is made only for odds there are to give.
    effect = impact(setup_of(ctx), ctx.as_rolled, view) if has_impact(ctx.as_rolled, view) else None
    return view, settled, list(ctx.dice.from_source), effect


def _corrected(ctx: Context, judged: list[Judged]) -> tuple[BattleView, list[Judged]]:
    """Apply the remedies that hold and settle each finding's final status."""
    plan = _plan(ctx, judged)
    view, changed = correct(ctx, plan)
    settled = _superseded([_settle(item, view, changed) for item in judged], plan)
    open_items = [j for j in settled
                  if j.decision.status == FindingStatus.OPEN and j.decision.waiting_for in HOLDS_BATTLE]
    if open_items and view.status in (BattleStatus.STANDS, BattleStatus.CORRECTED):
        view = with_fields(view, status=BattleStatus.AWAITING)
    awaiting = next((_awaiting(j, ctx.record) for j in settled
                     if j.decision.status in (FindingStatus.OPEN, FindingStatus.VOID)
                     and j.decision.waiting_for is WaitingFor.ELECTION), None)
    if awaiting is not None:
        view = with_fields(view, awaiting=awaiting)
    return view, settled


def _plan(ctx: Context, judged: list[Judged]) -> Plan:
    """What the applied remedies ask of the battle."""
    plan = Plan()
    for item in (j for j in judged if j.decision.apply):
        kind, election = item.issue.kind, item.decision.election
        if kind in DECLARATION_ERRORS:
            if election == Election.REROLL:
                plan.refight_from_start = True
            elif election == Election.NOT_FIGHT:
                plan.not_fought = True
        elif kind == FindingKind.BATTLE_ORDER and item.issue.until is not None:
            plan.truncate_at = item.issue.until
        elif kind in (FindingKind.BATTLE_ORDER, FindingKind.RETREAT_UNDECLARED):
            plan.refight_from_start = True
        elif kind == FindingKind.WRONG_GAME_NUMBER:
            start = item.issue.round or 1
            plan.resume_at = start if plan.resume_at is None else min(plan.resume_at, start)
        elif (kind == FindingKind.AA_TOO_MANY and ctx.edition.aa_too_many == "reroll_battle") or \
                (kind in (FindingKind.BB_TOO_MANY, FindingKind.BB_GHOST)
                 and ctx.edition.bb_too_many == "reroll_battle"
                 and not _missed_ghost_ignored(item.issue, ctx.edition)):
            # 1999 Part 14, AA 1 and BB 3.1: too many shots (a ghost BB shot is one too many).
            plan.refight_from_start = True  # 1999 Part 14: "the entire battle is to be re-rolled"
        elif kind == FindingKind.PAUSE_SKIPPED:
            # 2008 Orders of Loss, exceptions: "accept the defending rolls as is, applied to the
            # units now shown" leaves the record as it is, whatever casualties the defender
            # named since; only "either of the last two options" re-rolls what follows.
            if election != Election.ACCEPT:
                plan.pause_round, plan.pause_election = item.issue.round, election
        else:
            plan.rolling.append(item.issue)
    if any(j.issue.kind in DECLARATION_ERRORS and j.decision.status == FindingStatus.VOID for j in judged) \
            and not plan.refight_from_start and not plan.not_fought:
        plan.void = True
    plan.declaration_void = next((j.finding_id for j in judged if j.issue.kind in DECLARATION_ERRORS
                                  and j.decision.status in (FindingStatus.VOID, FindingStatus.CORRECTED)),
                                 None)
    return plan


def _missed_ghost_ignored(issue: Issue, policy: Edition) -> bool:
    """A 1999 ghost or left-on support shot that missed, under an edition that ignores it."""
    return issue.kind == FindingKind.BB_GHOST and not issue.hits and policy.bb_ghost_miss == "ignore"


def _settle(item: Judged, view: BattleView, changed: bool) -> Judged:
    """A finding's status once the remedies are applied: one that changed nothing stands; one
    whose correction waits for dice stays open until they are recorded."""
    decision = item.decision
    if decision.apply and decision.status == FindingStatus.CORRECTED and view.needed is not None:
        # Not corrected until its dice are recorded: say exactly which are awaited.
        decision = replace(decision, status=FindingStatus.OPEN, waiting_for=WaitingFor.DICE,
                           note=_join(decision.note, awaiting_note(view)))
    elif decision.apply and decision.status == FindingStatus.CORRECTED:
        issue = item.issue
        if not changed:
            decision = replace(decision, status=_NO_CHANGE.get(issue.kind, FindingStatus.STANDS))
        elif (view.resume_round is not None and issue.round is not None
              and issue.round >= view.resume_round and issue.kind not in DECLARATION_ERRORS):
            decision = replace(decision, note=_join(decision.note, f"its round was re-rolled from round "
                                                    f"{view.resume_round}"))
    return Judged(item.issue, decision, item.finding_id, item.key)


#: Statuses a finding inside a battle voided by a declaration error no longer keeps.
_MOOT = frozenset({FindingStatus.CORRECTED, FindingStatus.OPEN, FindingStatus.STANDS})


def _superseded(settled: list[Judged], plan: Plan) -> list[Judged]:
    """Rolling findings of a battle a declaration error made null and void: "no portion of the
    results may stand" (2008 Section II; 1999 Part 14, Sending Errors), so none of them is
    corrected or open; each says which finding superseded it."""
    cause = plan.declaration_void
    if cause is None or not (plan.void or plan.not_fought or plan.refight_from_start):
        return settled
    fate = ("the battle is not fought" if plan.not_fought else
            "the battle is re-fought from round 1" if plan.refight_from_start else
            "the battle is null and void")
    out = []
    for item in settled:
        if item.issue.kind not in DECLARATION_ERRORS and item.decision.status in _MOOT:
            moot = replace(item.decision, status=FindingStatus.SUPERSEDED, apply=False,
                           note=f"superseded by {cause}: {fate}")
            out.append(Judged(item.issue, moot, item.finding_id, item.key))
        else:
            out.append(item)
    return out


def _awaiting(item: Judged, record: BattleRecord) -> Awaiting:
    """Whose election the battle waits for, and the options the rule gives."""
    side = elector(item.issue.kind)
    by = record.defender_power if side == "defender" else record.attacker_power
    return Awaiting(finding=item.finding_id, by=by, side=side, elections=ELECTIONS[item.issue.kind])


def void_turn(view: BattleView, causes: list[str] | None) -> BattleView:
    """2008 Section VII: a turn rolled before a reported error was corrected "is void and must
    be re-done": none of its dice count and its battles have no result."""
    if not causes:
        return view
    voided = [*view.voided, *(VoidedDice(rv.round, side, entry.column, entry.values)
                              for rv in view.rounds
                              for side, seen in (("attacker", rv.attacker), ("defender", rv.defender))
                              for entry in seen.dice if entry.status != DiceStatus.VOIDED)]
    return with_fields(view, status=BattleStatus.VOID, rounds=(), result=None, resume_round=None, impact=None,
                       voided=tuple(voided), finding_ids=(*view.finding_ids, *causes))


def moot_in_void_turn(finding: Finding, voided_turns: dict[str, list[str]]) -> Finding:
    """2008 Section VII: a turn rolled before a reported error was corrected "is void and must be
    re-done", so what was found in it (its declarations, its dice) is superseded by the error
    that voided it: it is neither open nor corrected, the turn is made again."""
    causes = voided_turns.get(finding.turn or "")
    if not causes or finding.id in causes or finding.status not in _MOOT:
        return finding
    return with_fields(finding, status=FindingStatus.SUPERSEDED, waiting=None, detail=_join(
        finding.detail, f"superseded by {', '.join(causes)}: {finding.turn} is void and must be "
                        f"re-done (2008 Section VII)"))


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


def as_finding(judged: Judged, policy: Edition, turn: str, record: BattleRecord | None) -> Finding:
    """The finding a judged issue makes: where, what, the rule cited and what became of it."""
    issue, decision = judged.issue, judged.decision
    detail = _join(issue.detail, decision.note)
    waiting = decision.waiting_for if decision.status in (FindingStatus.OPEN, FindingStatus.VOID) else None
    return Finding(id=judged.finding_id, key=judged.key, kind=issue.kind, status=decision.status,
                   rule=policy.cite(issue.kind), detail=detail, turn=turn,
                   battle=record.territory if record is not None else None,
                   round=issue.round, side=issue.side.value if issue.side is not None else None,
                   column=issue.column, ruling=decision.ruling or (f"election {decision.election}"
                                                                   if decision.election else None),
                   at=issue.at, what=issue.detail, waiting=waiting.value if waiting is not None else None)
