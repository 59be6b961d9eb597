"""What the record says of one finding, for the papers that explain it (the letter, the desk's
answers): the battle it is about, the ruling that decided it, the report that made it
correctable and the times the time limit compares.

Each is found exactly as the review found it (:mod:`domain.review.decisions`: the same report,
the same ruling, the same deadline), read back from the finding's own fields, so the words never
say something the status does not.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from domain.record.entries import Ruling
from domain.record.game import BattleRecord, Game, ReportEntry, RulingEntry
from domain.review.decisions import (
    ELECTIONS,
    NOT_TIME_LIMITED,
    corrected_at,
    elector,
    following_turn,
    report_deadline,
    report_of,
    rolled_at,
    ruling_of,
)
from domain.review.views import Finding, time_text
from domain.rules.editions import Edition, edition
from domain.rules.findings import FindingKind, FindingStatus


def battle_of(game: Game, finding: Finding) -> BattleRecord | None:
    """The battle record a finding is about (None: a finding of the turn or the game)."""
    if finding.battle is None or finding.turn is None:
        return None
    for record in reversed(game.battles):
        if record.territory == finding.battle and record.turn == finding.turn:
            return record
    return None


def ruling_on(game: Game, finding: Finding) -> RulingEntry | None:
    """The ruling (or election) in force that decides ``finding``, as the review applied it."""
    return ruling_of(game, FindingKind(finding.kind), finding.at, finding.id, finding.key,
                     battle_of(game, finding), finding.turn or "")


@dataclass(frozen=True)
class TimeLimit:
    """The times that decide whether an error could still be corrected.

    2008 Section VII: "Errors are correctable only within a time period of 1 subsequent turn";
    an error "recognized before the next turn is rolled ... must be corrected before the next
    turn is rolled. If it is not, then the subsequent turn is void and must be re-done. If,
    however, another turn is rolled and the error is still not corrected, it becomes fixed".
    Part 14 (1999) sets no time limit."""

    #: Whether the edition's time limit reaches this finding (False: Part 14, which sets none,
    #: or an error the limit does not apply to, such as a bid: 2008 Section VII "will apply to
    #: CDEs, rolling errors, and non-combat errors only").
    applies: bool
    #: When the erring record was made.
    error_at: datetime | None
    #: The report that made it correctable (the first at or after the error about it).
    report: ReportEntry | None
    #: The turn whose rolling ends the time to report it, when its first die was rolled, and
    #: when the time to report ran out (its first die, or its last: Edition.report_deadline;
    #: None: not rolled yet).
    next_turn: str | None = None
    next_rolled: datetime | None = None
    deadline: datetime | None = None
    #: The turn after that (a correction still missing when it is rolled: the error is fixed),
    #: and when it was first rolled.
    then_turn: str | None = None
    then_rolled: datetime | None = None
    #: When the correction was made (its dice or a ruling naming the battle), if it was.
    corrected: datetime | None = None

    @property
    def in_time(self) -> bool | None:
        """Whether the report came before the deadline (None: no report, or no time to compare)."""
        if self.report is None or self.report.at is None:
            return None
        if not self.applies or self.deadline is None:
            return True
        return self.report.at <= self.deadline


def is_turn(label: str) -> bool:
    """Whether ``label`` names a turn ("USSR 3")."""
    try:
        following_turn(label)
    except ValueError:
        return False
    return True


def time_limit_of(game: Game, finding: Finding, policy: Edition) -> TimeLimit:
    """The time limit's facts for ``finding`` under ``policy``."""
    record = battle_of(game, finding)
    turn = finding.turn or ""
    report = report_of(game, finding.at, record, turn) if turn else None
    limited = policy.time_limit and is_turn(turn) and FindingKind(finding.kind) not in NOT_TIME_LIMITED
    if not limited:
        return TimeLimit(False, finding.at, report, corrected=corrected_at(game, record))
    later = following_turn(turn)
    then = following_turn(later)
    return TimeLimit(True, finding.at, report, later, rolled_at(game, later),
                     report_deadline(game, turn, policy), then, rolled_at(game, then),
                     corrected_at(game, record))


def why_no_dice(game: Game, findings: Iterable[Finding], record: BattleRecord) -> str:
    """Why a battle awaits no dice, for the desk (``roll``, ``dice``): each of the corrected
    history's ``findings`` on it and what became of it, with the times that decided (a report
    too late, none at all), or that nothing was found in it."""
    policy = edition(game.edition)
    found = [f for f in findings if f.turn == record.turn and f.battle == record.territory]
    if not found:
        return "nothing was found wrong in it: its record stands as rolled"
    return "; ".join(f"{f.id} {f.kind} is {_fate(game, f, policy)}" for f in found)


def _fate(game: Game, finding: Finding, policy: Edition) -> str:
    """A finding's status and why, in the desk's words."""
    status = finding.status
    limit = time_limit_of(game, finding, policy)
    if status == FindingStatus.FIXED:
        report = limit.report
        if report is None:
            return (f"fixed: not reported before {limit.next_turn} was rolled "
                    f"({time_text(limit.next_rolled)}; "
                    "2008 Section VII)")
        if limit.in_time is False:
            return (f"fixed: reported {time_text(report.at)}, after {limit.next_turn} was rolled "
                    f"({time_text(limit.deadline)}; 2008 Section VII)")
        return (f"fixed: reported in time ({time_text(report.at)}) but not corrected before "
                f"{limit.then_turn} "
                f"was rolled ({time_text(limit.then_rolled)}; 2008 Section VII)")
    ruling = ruling_on(game, finding)
    if status == FindingStatus.STANDS:
        if ruling is not None and ruling.decision == Ruling.DISMISS:
            return (f"dismissed ({ruling.by or 'a ruling'}, {time_text(ruling.at)}): the record stands as "
                    "rolled")
        if ruling is not None and ruling.decision == Ruling.MUTUAL:
            return "settled by mutual agreement: the record stands as rolled"
        return "stands: its remedy changes nothing in the battle"
    how = f"minister rule {game.game_id} --finding {finding.id}"
    if status == FindingStatus.CORRECTED:
        return "corrected: its correction has every die it needs"
    if status == FindingStatus.OPEN and finding.waiting == "report":
        until = f"; correctable until {limit.next_turn} is rolled" if limit.applies else ""
        return f"not reported yet: a report comes first (minister report {game.game_id} --battle ...){until}"
    if finding.waiting == "election":
        choices = " or ".join(ELECTIONS.get(FindingKind(finding.kind), ()))
        return (f"{status}: the {elector(FindingKind(finding.kind))}'s election comes first ({choices}: "
                f"{how} --decision apply --election ...)")
    if finding.waiting == "minister":
        return f"open: the Minister of Law's ruling comes first ({how} --decision ...)"
    if status == FindingStatus.VOID:
        return "void: none of the battle's dice count"
    return str(status)
