"""What becomes of each issue: reports, time limits, elections and rulings.

- A ``report`` makes an error correctable; under 2008 Section VII only if it comes before the
  next turn's first die. Reported in time but not corrected before the next turn was rolled:
  that turn is void and must be re-done; still not corrected when yet another turn is rolled
  (corrected later, or never): the error is fixed.
  The USA and the following USSR turn count as one, and an error in the USA part is for the
  Minister of Law. Part 14 (1999) sets no time limit.
- A non-combat error (2008 Section VII names them beside CDEs and rolling errors) has the same
  time limit, and no remedy the record could apply: the player re-does the move. Reported in
  time it stays ``open`` until a ruling ``apply`` records the correction; corrected after the
  next turn was rolled, that turn is void; never corrected by the turn after, it is fixed.
- Where the rules give a side a choice (void battle: re-roll or not fight; pause skipped: the
  defender's three options) or leave it to the Minister of Law, the issue is ``open`` until a
  ``ruling`` decides. Mutual agreements stand (2008 Section I).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from domain.record.club_filing import ends_game
from domain.record.entries import Election, Ruling
from domain.record.game import BattleRecord, Game, ReportEntry, RulingEntry
from domain.review.rolling_errors import Issue
from domain.review.views import Finding
from domain.rules.editions import (
    CASUALTY_ERRORS,
    DECLARATION_ERRORS,
    IGNORED_KINDS,
    NONCOMBAT_ERRORS,
    Edition,
)
from domain.rules.findings import FindingKind, FindingStatus, finding_ref
from domain.rules.turns import Power, turn_of

#: Elections the rules give, by the kind of issue they answer: a void battle's (2008 Section II,
#: every declaration error) and a skipped pause's (2008 Orders of Loss).
ELECTIONS: dict[FindingKind, tuple[Election, ...]] = {
    **dict.fromkeys(sorted(DECLARATION_ERRORS), (Election.REROLL, Election.NOT_FIGHT)),
    FindingKind.PAUSE_SKIPPED: (Election.ACCEPT, Election.APPLY_TO_CORRECTED_UNITS, Election.REROLL_DEFENCE),
}
OPEN_FOR_MINISTER = frozenset({FindingKind.RETREAT_UNDECLARED, FindingKind.BID_ILLEGAL,
                               FindingKind.BID_TOTAL_MISMATCH})
#: Errors the time limit of 2008 Section VII does not reach: it "will apply to CDEs, rolling
#: errors, and non-combat errors only. All other errors will be adjudicated on a case by case
#: basis by the Minister of Law." A bid is placed before the first turn (2008 Bidding): none of
#: those, so it never becomes fixed by a turn rolled after it.
NOT_TIME_LIMITED = frozenset({FindingKind.BID_ILLEGAL, FindingKind.BID_TOTAL_MISMATCH})


class WaitingFor(enum.StrEnum):
    """Who or what an open finding (or a void battle) waits for before it can be settled."""

    #: A side's election, where the rules give it a choice (void battle, pause skipped).
    ELECTION = "election"
    #: The Minister of Law, where the rules leave the case to him.
    MINISTER = "minister"
    #: A report: the error is correctable once reported (through the dice roller, 2008 Section
    #: VII), and not reported yet.
    REPORT = "report"
    #: The dice its correction needs (the battle says which throw).
    DICE = "dice"


#: What makes a battle wait (its status ``awaiting``): a side or the Minister of Law must act.
#: A report not made yet, or dice, leave the battle as it is until they come.
HOLDS_BATTLE = frozenset({WaitingFor.ELECTION, WaitingFor.MINISTER})


def offered(kind: FindingKind) -> tuple[str, ...]:
    """The elections the rules give on a finding of this kind (none for most kinds)."""
    return ELECTIONS.get(kind, ())


@dataclass(frozen=True)
class RulingProblem:
    """Why a ruling cannot be recorded: which of its parts is wrong, and what was expected."""

    #: The ruling's part at fault: ``"finding"`` (no such finding) or ``"election"`` (not offered).
    part: str
    message: str

    def __str__(self) -> str:
        return self.message


def ruled_finding(findings: Sequence[Finding], finding: str, *, turn: str | None = None,
                  territory: str | None = None) -> Finding | None:
    """The one finding a ruling names (by id or kind, of ``turn`` and in ``territory`` when it
    names them), as :func:`ruling_problem` accepts it; None when it names none or several."""
    try:
        ref = finding_ref(finding)
    except ValueError:
        return None
    named = [f for f in findings if ref in (f.id, f.kind) and turn in (None, f.turn)
             and territory in (None, f.battle)]
    return named[0] if len(named) == 1 else None


def ruling_problem(findings: Sequence[Finding], finding: str, election: str | None,
                   decision: str = "apply", *, turn: str | None = None,
                   territory: str | None = None) -> RulingProblem | None:
    """Why a ruling cannot be recorded on the game's findings (None when it can): it must name
    one of them (by id or kind; of ``turn`` and in ``territory`` when it names them), and an
    election it applies must be one the rule offers on it (a dismissal applies none: the record
    stands whatever it names)."""
    try:
        ref = finding_ref(finding)
    except ValueError as error:
        return RulingProblem("finding", f"finding {error}")
    named = [f for f in findings if ref in (f.id, f.kind)]
    if not named:
        known = ", ".join(f"{f.id} ({f.kind})" for f in findings) or "none"
        return RulingProblem("finding", f"the game has no finding {finding!r} (its findings: {known})")
    narrowed = [f for f in named if turn in (None, f.turn) and territory in (None, f.battle)]
    if not narrowed:
        part = "turn" if turn is not None and all(f.turn != turn for f in named) else "battle"
        where = " ".join(w for w in (turn and f"in {turn}", territory and f"in {territory}") if w)
        known = ", ".join(f"{f.id} ({f.turn or 'the game'}, {f.battle or 'no battle'})" for f in named)
        return RulingProblem(part, f"no finding {finding!r} {where} (the game's: {known})")
    named = narrowed
    if len(named) > 1:
        # One ruling, one finding: a kind that names several would decide findings the Minister
        # did not look at (and findings made later), so it is refused, the candidates listed.
        listed = ", ".join(f"{f.id} ({f.turn or 'the game'}{', ' + f.battle if f.battle else ''})"
                           for f in named)
        return RulingProblem("finding", f"{finding!r} names {len(named)} findings: {listed}; name one "
                                        "by its id (or give its turn and battle)")
    if election is not None and decision != Ruling.DISMISS:
        choices = sorted({e for f in named for e in offered(f.kind)})
        if election not in choices:
            given = f"the rule offers: {', '.join(choices)}" if choices else "the rule offers no election"
            return RulingProblem("election", f"election {election!r} is not one the rule gives on "
                                             f"{finding} ({given})")
    return None


@dataclass(frozen=True)
class Decision:
    """An issue's status, whether its remedy is applied, and the ruling or election behind it."""

    status: FindingStatus
    apply: bool = False
    election: str | None = None
    ruling: str | None = None
    note: str = ""
    #: The turn made void because the correction came after it was rolled (2008 Section VII).
    voids_turn: str | None = None
    #: Who must act before the finding is settled (None: nobody, or only a report is missing).
    waiting_for: WaitingFor | None = None


def next_turn(turn: str) -> str:
    """The turn after ``turn`` in the order of play (USSR, Germany, UK, Japan, USA)."""
    return turn_of(turn).next().label


def following_turn(turn: str) -> str:
    """The turn whose first die ends the correction window (USA and USSR count as one,
    2008 Section VII)."""
    return turn_of(turn).following().label


def decide(issue: Issue, record: BattleRecord | None, turn: str, game: Game, edition: Edition,
           finding_id: str, key: str = "") -> Decision:
    """The fate of one issue under the edition, the reports and the rulings of the game.

    A ruling the rules leave no room for (an error not reported yet, or fixed) is named in the
    finding all the same, with why it changes nothing: the Minister of Law sees that it was
    read, not a finding that ignores it."""
    if issue.kind in IGNORED_KINDS or (issue.kind == FindingKind.WRONG_GAME_NUMBER
                                       and not edition.wrong_game_number_voids_roll):
        return Decision(FindingStatus.IGNORED)
    ruling = ruling_of(game, issue.kind, issue.at, finding_id, key, record, turn)
    decision = _decide(issue, record, turn, game, edition, ruling)
    if ruling is None or decision.ruling is not None or decision.election is not None:
        return decision
    if decision.status == FindingStatus.FIXED:
        why = "a fixed error is not subject to correction (2008 Section VII)"
    elif decision.status == FindingStatus.OPEN and decision.waiting_for is WaitingFor.REPORT:
        why = ("the error must first be reported, through the dice roller (2008 Section VII: it "
               "proves when the error was recognized)")
    else:  # it waits for an election, say: the ruling stands beside the note that says so
        return replace(decision, ruling=_describe(ruling))
    return replace(decision, ruling=_describe(ruling),
                   note=_join(decision.note, f"the ruling on record changes nothing: {why}"))


def _decide(issue: Issue, record: BattleRecord | None, turn: str, game: Game, edition: Edition,
            ruling: RulingEntry | None) -> Decision:
    if ruling is not None and ruling.decision is Ruling.MUTUAL:
        return Decision(FindingStatus.STANDS, ruling=_describe(ruling), note="settled by mutual agreement")
    if ruling is not None and ruling.decision is Ruling.DISMISS:
        return Decision(FindingStatus.STANDS, ruling=_describe(ruling))
    if not issue.effective:
        return Decision(FindingStatus.STANDS)
    if issue.kind is FindingKind.RESTS_ON_VOID:
        # The texts void the erring battle or turn and are silent on what rests on it: no
        # time limit, no remedy the program could apply; the Minister of Law's ruling is kept.
        if ruling is None:
            return Decision(FindingStatus.OPEN, note="the rules give no remedy for a battle that rests "
                            "on a voided one: left to the Minister of Law", waiting_for=WaitingFor.MINISTER)
        return Decision(FindingStatus.STANDS, ruling=_describe(ruling),
                        note="ruled by the Minister of Law; the record stands as rolled on the board")
    if issue.kind in NOT_TIME_LIMITED and edition.time_limit:
        if ruling is None or ruling.decision is not Ruling.APPLY:
            return Decision(FindingStatus.OPEN, note="not a CDE, rolling or non-combat error: no time "
                            "limit, adjudicated by the Minister of Law case by case (2008 Section VII)",
                            waiting_for=WaitingFor.MINISTER)
        # Section VII's time limit does not reach it: the Minister's ruling decides, whenever
        # given. An illegal bid placement comes off the board as corrected (2008 Bidding says
        # where bid units may go; they cannot stand elsewhere); a bid that mixes removals with
        # additions has no such remedy: the ruling is on record, the bid stands as placed.
        if issue.kind == FindingKind.BID_TOTAL_MISMATCH:
            # The total takes precedence and the bidder adjusts the details (2008 How to Start a
            # Game): which details is his choice, not one the record can make for him.
            return Decision(FindingStatus.STANDS, ruling=_describe(ruling),
                            note="ruled by the Minister of Law (2008 Section VII: case by case); the "
                            "bid total stands; the adjusted details are for the ruling to state: the bid "
                            "placed on the board is not changed")
        if issue.place is None:
            return Decision(FindingStatus.STANDS, ruling=_describe(ruling),
                            note="ruled by the Minister of Law (2008 Section VII: case by case); the "
                            "rules give no remedy on the board: the bid stands as placed")
        return Decision(FindingStatus.CORRECTED, apply=True, ruling=_describe(ruling),
                        note="ruled by the Minister of Law (2008 Section VII: case by case): the "
                        "units come off the board as corrected")
    applied = ruling.at if ruling is not None and ruling.decision is Ruling.APPLY else None
    noncombat = issue.kind in NONCOMBAT_ERRORS
    window = _window(issue, record, turn, game, edition, ruling, applied if noncombat else None)
    if window is not None and window.status != FindingStatus.CORRECTED:
        return window
    if issue.kind == FindingKind.TECH_OVERSPENT:
        # 2008 Section IV: "it will be considered a declaration error and will need to be
        # re-declared and re-rolled": the tech roll is void.
        return Decision(FindingStatus.VOID, apply=True)
    kind = issue.kind
    voids = window.voids_turn if window is not None else None
    usa_part = turn_of(turn).power is Power.USA
    if usa_part and edition.time_limit and (ruling is None or ruling.decision is not Ruling.APPLY):
        return Decision(FindingStatus.OPEN,
                        note="an error in the USA part of the USA-USSR turn is adjudicated by the "
                        "Minister of Law case by case (2008 Section VII)", waiting_for=WaitingFor.MINISTER)
    if noncombat:
        return _noncombat(window, ruling, turn)
    if kind in ELECTIONS:
        election = ruling.election if ruling is not None else None
        if election not in ELECTIONS[kind]:
            status: FindingStatus = FindingStatus.VOID if kind in DECLARATION_ERRORS else FindingStatus.OPEN
            return Decision(status, note=f"awaiting the election of the {_elector(kind, record)}: "
                            + " or ".join(ELECTIONS[kind]), voids_turn=voids, waiting_for=WaitingFor.ELECTION)
        status = (FindingStatus.CORRECTED if election not in (Election.NOT_FIGHT, Election.ACCEPT) else
                  FindingStatus.VOID if election == Election.NOT_FIGHT else FindingStatus.STANDS)
        return Decision(status, apply=True, election=election,
                        ruling=_describe(ruling) if ruling else None, voids_turn=voids)
    if kind in OPEN_FOR_MINISTER and (ruling is None or ruling.decision is not Ruling.APPLY):
        return Decision(FindingStatus.OPEN,
                        note="left to the Minister of Law", waiting_for=WaitingFor.MINISTER)
    note = window.note if window is not None else ""
    if issue.kind in CASUALTY_ERRORS and edition.casualty_error == "apply_to_corrected_units":
        # An edition's reading (docs/rulings.md, casualty_error), named in the finding.
        note = _join(note, "the later rounds' dice stand, applied to the corrected units (2008 Orders "
                     "of Loss: \"applying the actual rolls to corrected units\")")
    return Decision(FindingStatus.CORRECTED,
                    apply=True, ruling=_describe(ruling) if ruling else None, voids_turn=voids,
                    note=note)


def _noncombat(window: Decision | None, ruling: RulingEntry | None, turn: str) -> Decision:
    """A non-combat error reported in time (``window``: None before the next turn is rolled, else
    what the time limit makes of it). The texts give it no remedy the record could apply: the
    player re-does the move (2008 Amendments and Special Orders: he "may modify his non-combat or
    unit placements"; Rules Clarifications, Sub Withdrawal: "will resubmit the affected unit's
    non-combat movement"). A ruling ``apply`` records that correction; until then it is open,
    and Section VII's limit runs: "it must be corrected before the next turn is rolled. If it is
    not, then the subsequent turn is void and must be re-done"."""
    voids = window.voids_turn if window is not None else None
    if ruling is not None and ruling.decision is Ruling.APPLY:
        return Decision(FindingStatus.CORRECTED, apply=True, ruling=_describe(ruling), voids_turn=voids,
                        note=window.note if window is not None else "")
    if window is None:
        return Decision(FindingStatus.OPEN, waiting_for=WaitingFor.MINISTER,
                        note=f"reported in time: the move must be corrected before {following_turn(turn)} is "
                        "rolled (2008 Section VII); the rules give no correction the record could make (the "
                        "player re-does the move): a ruling apply records it")
    return Decision(FindingStatus.OPEN, voids_turn=voids, waiting_for=WaitingFor.MINISTER,
                    note=f"reported in time, not corrected before {voids} was rolled: {voids} is void and "
                    f"must be re-done; fixed if {following_turn(voids or turn)} is rolled first (2008 "
                    "Section VII)")


def elector(kind: FindingKind) -> str:
    """Whose election answers an issue: the attacker's for a void battle (2008 Section II:
    "The attacker may then elect"), the defender's for a skipped pause (2008 Orders of Loss:
    "the defender shall have the option")."""
    return "defender" if kind == FindingKind.PAUSE_SKIPPED else "attacker"


def _elector(kind: FindingKind, record: BattleRecord | None) -> str:
    side = elector(kind)
    if record is None:
        return side
    return f"{side} ({record.defender_power if side == 'defender' else record.attacker_power})"


def _window(issue: Issue, record: BattleRecord | None, turn: str, game: Game,
            edition: Edition, ruling: RulingEntry | None = None,
            corrected: datetime | None = None) -> Decision | None:
    """Reported, and in time? ``None`` when a report makes the error correctable. ``ruling``:
    the one on record (a Japan error left to the Minister is corrected by his ``apply``);
    ``corrected``: when a ruling made the correction of an error that has no battle (a
    non-combat error)."""
    report = report_of(game, issue.at, record, turn)
    if not edition.time_limit:
        if report is None:
            return Decision(FindingStatus.OPEN, waiting_for=WaitingFor.REPORT,
                            note="not reported: correctable once reported (Part 14: no time limit)")
        return None
    later = following_turn(turn)
    later_start = rolled_at(game, later)
    deadline = report_deadline(game, turn, edition)
    if report is None:
        if later_start is not None:
            return Decision(FindingStatus.FIXED,
                            note=f"not reported before {later} was rolled ({_time(later_start)}; 2008 "
                            "Section VII)")
        return Decision(FindingStatus.OPEN, waiting_for=WaitingFor.REPORT,
                        note=f"not reported yet: correctable until {later} is rolled")
    if deadline is not None and report.at is not None and report.at > deadline:
        if turn_of(turn).power is Power.JAPAN and edition.japan_error_after_usa == "open":
            ussr = rolled_at(game, next_turn(later))
            if ussr is None or report.at < ussr:
                if ruling is not None and ruling.decision is Ruling.APPLY:
                    return None  # the Minister of Law ruled it corrected
                return Decision(FindingStatus.OPEN, waiting_for=WaitingFor.MINISTER,
                                note=f"reported after {later} was rolled but before the USSR part "
                                "of the USA-USSR turn: left to the Minister of Law (2008 Section VII)")
        return Decision(FindingStatus.FIXED, note=f"reported {_time(report.at)}, after {later} was rolled "
                        f"({_time(deadline)}; 2008 Section VII)")
    # Reported in time; corrected when its dice were entered or a ruling named the battle
    # (never, if neither is on record).
    done = corrected_at(game, record) if record is not None else corrected
    after_that = rolled_at(game, following_turn(later))
    if later_start is not None and (done is None or done > later_start):
        if after_that is not None and (done is None or done > after_that):
            # "If, however, another turn is rolled and the error is still not corrected, it
            # becomes fixed" (2008 Section VII): corrected too late, or never corrected at all.
            # Whether the turn it made void stays void is an edition's reading.
            voided = later if edition.fixed_error_voids_turn else None
            how = "never corrected" if done is None else "not corrected"
            return Decision(FindingStatus.FIXED, voids_turn=voided,
                            note=f"reported in time but {how} before {following_turn(later)} was rolled: "
                            "it becomes fixed (2008 Section VII)"
                            + (f"; {later}, rolled before the correction, stays void" if voided else ""))
        if done is None:
            # "it must be corrected before the next turn is rolled. If it is not, then the
            # subsequent turn is void and must be re-done" (2008 Section VII).
            return Decision(FindingStatus.CORRECTED, apply=True, voids_turn=later,
                            note=f"reported in time, not corrected before {later} was rolled: {later} is "
                            f"void and must be re-done; fixed if {following_turn(later)} is rolled first "
                            "(2008 Section VII)")
        return Decision(FindingStatus.CORRECTED, apply=True, voids_turn=later,
                        note=f"corrected after {later} was rolled: {later} is void and must be re-done "
                        "(2008 Section VII)")
    return None


def report_deadline(game: Game, turn: str, edition: Edition) -> datetime | None:
    """When the time to report an error of ``turn`` ran out (2008 Section VII: "before the next
    turn is rolled"): the following turn's first die, or its last (Edition.report_deadline);
    None while that turn is not rolled."""
    later = following_turn(turn)
    return rolled_at(game, later) if edition.report_deadline == "first_roll" else _last_roll_at(game, later)


def _last_roll_at(game: Game, turn: str) -> datetime | None:
    """When a turn's last die was rolled (None: not rolled yet)."""
    times = [roll.at for battle in game.battles if battle.turn == turn for roll in battle.rolls
             if roll.at is not None]
    return max(times) if times else rolled_at(game, turn)


def rolled_at(game: Game, turn: str) -> datetime | None:
    """When a turn "has been rolled" (2008 Section VII's time limit): its first die; a turn
    played without combat (no battle declared) when its first record was posted, once a later
    turn has begun (docs/rulings.md, "A turn without combat"). None: not rolled yet."""
    first = game.first_roll_at.get(turn)
    if first is not None or turn in game.turns:
        return first
    return _posted_without_combat(game).get(turn)


#: The last game :func:`_posted_without_combat` was asked of, at which record, and its answer
#: (asked for every finding of a review: worked out once per game and record).
_POSTED: list[tuple[Game, int, dict[str, datetime]]] = []


def _posted_without_combat(game: Game) -> dict[str, datetime]:
    """Each turn without a battle that is over (a later turn has begun, or the game's finish
    was posted) -> when its first record (a purchase, a placement, non-combat moves, a map
    update) was posted."""
    if _POSTED and _POSTED[0][0] is game and _POSTED[0][1] == game.seq:
        return _POSTED[0][2]
    first: dict[str, tuple[int, datetime | None]] = {}
    records = [(n.seq, n.turn, n.at) for n in game.board_log if n.turn]
    records += [(e.seq, e.turn, e.at) for e in game.noncombat if e.turn]
    records += [(seq, turn, None) for turn, seq in game.turns.items()]
    for seq, turn, at in sorted(records, key=lambda record: record[0]):
        if turn not in first:
            first[turn] = (seq, at)
    last = max((seq for seq, _ in first.values()), default=0)
    if any(ends_game(note) for note in game.board_log):
        last = game.seq + 1  # the game is over (finished, conceded, forfeit): so is every turn of it
    found = {turn: at for turn, (seq, at) in first.items()
             if at is not None and turn not in game.turns and last > seq}
    _POSTED[:] = [(game, game.seq, found)]
    return found


def corrected_at(game: Game, record: BattleRecord | None) -> datetime | None:
    """When a battle's correction was made: its dice or its ruling, whichever came last (None:
    neither is on record)."""
    times = [t for t in (record.dice_times if record is not None else []) if t is not None]
    if record is not None:
        times += [r.at for r in game.live_rulings if r.at is not None and _names_battle(r, record)]
    return max(times) if times else None


def _names_battle(ruling: RulingEntry, record: BattleRecord) -> bool:
    """Whether a ruling is about the battle: its ``battle`` (and ``turn``) name it, or its words do."""
    if ruling.territory is not None:
        return ruling.territory == record.territory and ruling.turn in (None, record.turn)
    text = ruling.text.lower()
    return record.territory.lower() in text or record.written.lower() in text


def report_of(game: Game, at: datetime | None, record: BattleRecord | None,
              turn: str) -> ReportEntry | None:
    """The report that makes an error of ``turn`` made at ``at`` (in ``record``'s battle, if
    any) correctable: the first at or after the error that names its battle, or names no
    battle."""
    for report in game.live_reports:
        if at is not None and report.at is not None and report.at < at:
            continue
        if report.battle is None:
            if record is None or record.turn == turn:
                return report
            continue
        if record is not None and report.territory == record.territory \
                and report.turn in (None, record.turn):
            return report
    return None



def ruling_of(game: Game, kind: FindingKind, at: datetime | None, finding_id: str, key: str,
              record: BattleRecord | None, turn: str) -> RulingEntry | None:
    """The ruling that decides a finding (of ``kind``, its error made ``at``, numbered
    ``finding_id``): the last one made on it (bound to its identity,
    ``key``, when it was recorded: findings added or renumbered later never move it). A record
    made before identities were kept names it as it then stood: by id, else by kind (a ruling
    by kind decides every finding of that kind made before it); one that names a turn or a
    battle decides only the findings of that turn and battle."""
    here = [r for r in game.live_rulings if r.turn in (None, turn)
            and r.territory in (None, record.territory if record is not None else None)]
    bound = [r for r in here if r.key is not None and r.key == key]
    unbound = [r for r in here if r.key is None]
    by_id = [r for r in unbound if r.finding == finding_id]
    by_kind = [r for r in unbound if r.finding == kind and (at is None or r.at is None or r.at >= at)]
    found = [r for r in (*bound, *(by_id or by_kind)) if r is not None]
    return max(found, key=lambda r: r.seq) if found else None


def _time(moment: datetime | None) -> str:
    """A time as the letter and the report give it: "2008-09-04 09:05 UTC" (no microseconds)."""
    if moment is None:
        return "time not known"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


def _describe(ruling: RulingEntry) -> str:
    parts: list[str] = [ruling.decision]
    if ruling.election:
        parts.append(f"election {ruling.election}")
    text = f": {ruling.text}" if ruling.text else ""
    when = f" ({ruling.at.isoformat()})" if ruling.at else ""
    return " ".join(parts) + text + when
