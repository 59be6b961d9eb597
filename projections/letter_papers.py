"""The letter's account of what the desk did: why a report was in time or too late, what each
finding's decision is, every report and ruling on record, and the Minister's dice with how
anyone checks them.

The time-limit sentences follow the finding's status and the edition's rules exactly as the
review applied them (:mod:`domain.review.decisions`, read back through
:mod:`domain.review.finding_facts`): a bid is never given a deadline the rules do not set, a
void battle is never said to keep its dice.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from domain.record.entries import ReportEntry, RulingEntry, WithdrawalEntry
from domain.record.game import Game
from domain.review.decisions import ELECTIONS, NOT_TIME_LIMITED, elector
from domain.review.finding_facts import TimeLimit, battle_of, ruling_on
from domain.review.papers import ABANDONED, REVEALED, commitment_standing
from domain.review.views import BattleView, Finding, GameView, awaiting_note
from domain.rules.editions import Edition
from domain.rules.findings import FindingKind, FindingStatus
from domain.rules.rule_texts import TIME_LIMIT, TIME_LIMIT_LATE, TIME_LIMIT_SCOPE, TIME_LIMIT_USA
from domain.rules.turns import Power, turn_of
from projections.letter_render import Para, Section
from projections.letter_words import DECISIONS, Quotes, clauses, faces, need_words, title, when
from projections.letter_words import ELECTIONS as ELECTION_WORDS

#: How anyone re-checks the Minister's dice once the secret is revealed (minister-dice/3).
HOW_TO_VERIFY = ("Each roll's dice are HMAC-SHA256(key = secret, message = JSON [\"minister-dice/3\", "
                 "commitment, game id, sequence, battle, turn, round, side, column, purpose, count, "
                 "block]) for blocks 0, 1, …, where the turn, round, side, column, purpose and count "
                 "are the throw the battle awaited (derived from the game, never chosen); each byte "
                 "below 252 gives the die byte % 6 + 1. The commitment is "
                 "SHA-256(\"minister-dice/3:\" + secret). `minister verify --dice GAME` (or "
                 "`minister verify BUNDLE`) does all of it offline.")
#: The same for an older record's ``minister-dice/2`` commitments.
HOW_TO_VERIFY_2 = ("Each roll's dice are HMAC-SHA256(key = secret, message = JSON [\"minister-dice/2\", "
                   "commitment, game id, sequence, battle, purpose, count, block]) for blocks 0, 1, …; "
                   "each byte below 252 gives the die byte % 6 + 1. The commitment is "
                   "SHA-256(\"minister-dice/2:\" + secret). `minister verify --dice GAME` (or "
                   "`minister verify BUNDLE`) does all of it offline, and says whether each roll's "
                   "purpose and count are the throw the battle awaited.")

#: The clauses of a finding's note the letter says in its own words (the time limit, what an
#: open finding waits for): the others (a superseding finding, a ruling that changes nothing,
#: a reading of the rules) are kept as the review wrote them.
_SAID_ELSEWHERE = ("not reported", "reported ", "corrected after", "fixed if", "awaiting ", "not a CDE",
                   "an error in the USA part", "left to the Minister of Law")


def claimed(game: Game, seq: int, at: datetime | None) -> str:
    """A record's time (the e-mail's: the rules use it), with when it was entered if later."""
    stamp = game.stamps[seq] if seq < len(game.stamps) else None
    if at is None or stamp is None or stamp == at:
        return when(at)
    return f"{when(at)} (entered {when(stamp)})"


def _reported(game: Game, report: ReportEntry) -> str:
    """"Germany reported it at 1999-07-20 19:00 UTC (“The 2 ARM ... round 1.”)"."""
    words = f" (“{report.text}”)" if report.text else ""
    return f"{report.by or 'A player'} reported it{words} at {claimed(game, report.seq, report.at)}"


def time_limit(game: Game, finding: Finding, limit: TimeLimit, policy: Edition, quotes: Quotes) -> str:
    """Why the error could (or could no longer) be corrected: the report, the limit and the
    times that decide; empty where the time limit has no part in the finding's fate."""
    kind = FindingKind(finding.kind)
    if kind == FindingKind.RESTS_ON_VOID:
        return ("No time limit: the texts void the erring battle or turn and say nothing of the battles that "
                "rest on it, so the Minister of Law rules on it whenever asked.")
    ruling = ruling_on(game, finding)
    if finding.status not in (FindingStatus.CORRECTED, FindingStatus.OPEN, FindingStatus.VOID,
                              FindingStatus.FIXED) or (ruling is not None and ruling.decision != "apply"):
        return ""
    report = limit.report
    if not limit.applies:
        said = f"{_reported(game, report)}. " if report is not None else ""
        if kind in NOT_TIME_LIMITED and policy.time_limit:
            return (f"{said}The time limit does not reach it "
                    f"{quotes.cite('2008 Section VII', TIME_LIMIT_SCOPE)}: "
                    "it stays with the Minister of Law until he rules, whenever that is.")
        if not policy.time_limit:
            if report is None:
                return ("Nobody has reported it. Part 14 (1999) sets no time limit: it becomes correctable "
                        "once it is reported.")
            return (f"{said}Part 14 (1999) sets no time limit: an error is correctable whenever it is "
                    "reported.")
        return said.strip()
    later = limit.next_turn
    if report is None:
        if limit.next_rolled is not None:
            return (f"Nobody reported it before {later} was rolled ({when(limit.next_rolled)}), so it is "
                    f"fixed "
                    f"and not subject to correction {quotes.cite('2008 Section VII', TIME_LIMIT_LATE)}.")
        return (f"Nobody has reported it yet. It can still be corrected if it is reported, through the dice "
                f"roller, before {later} is rolled (2008 Section VII).")
    said = _reported(game, report)
    if limit.in_time is False:
        if finding.status == FindingStatus.OPEN and finding.waiting == "minister":
            return (f"{said}, after {later} was rolled ({when(limit.deadline)}) but before the USSR part of "
                    f"the "
                    f"USA-USSR turn was: 2008 Section VII counts the USA-USSR turn as one, and the Minister "
                    f"of "
                    "Law decides whether it is still correctable.")
        return (f"{said}, after {later} was rolled ({when(limit.deadline)}): too late, so the error is fixed "
                f"and not subject to correction {quotes.cite('2008 Section VII', TIME_LIMIT_LATE)}.")
    before = (f"before {later} was rolled ({when(limit.deadline)})" if limit.deadline
              else f"and {later} has not been rolled yet")
    text = f"{said}, {before}: in time {quotes.cite('2008 Section VII', TIME_LIMIT)}."
    if turn_of(finding.turn or "").power is Power.USA and finding.waiting == "minister":
        # The Minister adjudicates it case by case: what the limit would do next is his to say.
        return text + (" The error is in the USA part of the USA-USSR turn, which the Minister of Law "
                       f"adjudicates case by case {quotes.cite('2008 Section VII', TIME_LIMIT_USA)}.")
    return text + _correction_time(finding, limit, policy)


def _correction_time(finding: Finding, limit: TimeLimit, policy: Edition) -> str:
    """When the correction was made, against the next turn's roll and the one after it."""
    later, then, done, rolled = limit.next_turn, limit.then_turn, limit.corrected, limit.next_rolled
    if finding.status == FindingStatus.FIXED:
        stays = (f" {later}, rolled before the correction, stays void." if policy.fixed_error_voids_turn
                 else "")
        how = "It was never corrected" if done is None else f"It was corrected only at {when(done)}, not"
        return f" {how} before {then} was rolled ({when(limit.then_rolled)}): it became fixed.{stays}"
    if rolled is not None and (done is None or done > rolled):
        if done is None:
            return (f" It was not corrected before {later} was rolled ({when(rolled)}): {later} is void and "
                    f"must "
                    f"be re-done, and if {then} is rolled before the correction the error becomes fixed.")
        return (f" It was corrected at {when(done)}, after {later} was rolled ({when(rolled)}): {later} is "
                f"void "
                "and must be re-done.")
    if done is not None:
        return f" It was corrected at {when(done)}, before {later} was rolled."
    return (f" It must be corrected before {later} is rolled; if {later} is rolled first, {later} is void "
            f"and "
            "must be re-done.")


def ruling_words(game: Game, ruling: RulingEntry, *, timed: bool = True,
                 finding: Finding | None = None) -> str:
    """A ruling or election in words: who, when (``timed``), what, and the words given. An
    election the record does not say who made is the elector's (``finding``: whose it is)."""
    at = f", at {claimed(game, ruling.seq, ruling.at)}," if timed else ""
    words = f": “{ruling.text}”" if ruling.text else ""
    end = "" if ruling.text.rstrip().endswith((".", "!", "?")) else "."
    if ruling.election:
        who = ruling.by or (_elector_words(game, finding) if finding is not None else "The side")
        return f"{who} elected{at} {ELECTION_WORDS.get(ruling.election, ruling.election)}{words}{end}"
    if ruling.decision == "mutual":
        return f"{ruling.by or 'The players'} agreed{at} that the record stands as rolled{words}{end}"
    who = "The Minister of Law" if ruling.by in ("", "Minister of Law", "the Minister of Law") else ruling.by
    return (f"{who} ruled{at} that "
            f"{DECISIONS.get(ruling.decision, ruling.decision)}{words}{end}")


def _elector_words(game: Game, finding: Finding) -> str:
    """"UK, the attacker,": whose election a finding's rule gives."""
    side = elector(FindingKind(finding.kind))
    record = battle_of(game, finding)
    power = (record.defender_power if side == "defender" else record.attacker_power) if record else ""
    return f"{power}, the {side}," if power else f"The {side}"


def decision(game: Game, finding: Finding, battle: BattleView | None) -> str:
    """What was decided on a finding, and what it waits for if it is open."""
    ruling = ruling_on(game, finding)
    parts = [ruling_words(game, ruling, finding=finding)] if ruling is not None else []
    parts.append(_status(game, finding, battle, ruling))
    parts += [_capital(clause) + "." for clause in _note_clauses(finding, battle)]
    return " ".join(part for part in parts if part)


def _status(game: Game, finding: Finding, battle: BattleView | None, ruling: RulingEntry | None) -> str:
    kind = FindingKind(finding.kind)
    status = finding.status
    if status == FindingStatus.CORRECTED:
        if kind == FindingKind.BID_ILLEGAL:
            return "The units placed against the rule come off the board as corrected."
        return "The error is corrected as the rule says" + (" (the battle as corrected follows)." if battle
                                                             else ".")
    if status == FindingStatus.OPEN:
        return "It is open: " + waiting_words(game, finding, battle) + "."
    if status == FindingStatus.VOID:
        if finding.waiting == "election":
            return ("The battle is null and void: no portion of its results may stand, until "
                    + election_due(game, finding) + ".")
        if ruling is not None and ruling.election == "not_fight":
            return "The battle is not fought: none of its dice count."
        return "It is void: it must be declared and rolled again."
    if status == FindingStatus.FIXED:
        return "The error is fixed: the record stands as rolled."
    if status == FindingStatus.STANDS:
        return "The record stands as rolled." if ruling is not None else \
            "Nothing is to be corrected: the record stands as it is."
    return ""


def waiting_words(game: Game, finding: Finding, battle: BattleView | None) -> str:
    """What an open finding waits for, in words."""
    if finding.waiting == "election":
        who = _elector_words(game, finding).rstrip(",")
        return f"it awaits the election of {who[0].lower() + who[1:] if who.startswith('The ') else who}: " \
            + _options(finding)
    if finding.waiting == "minister":
        return "it awaits the Minister of Law's ruling"
    if finding.waiting == "dice":
        if battle is not None and battle.needed is not None:
            return "its correction awaits its dice: " + need_words(battle.needed)
        return "its correction awaits its dice"
    if finding.waiting == "report":
        return "nothing is done until it is reported"
    return "it awaits a ruling"


def election_due(game: Game, finding: Finding) -> str:
    """"UK, the attacker, elects to re-roll ... or not to fight ...": the election the rule
    gives, as a clause."""
    return f"{_elector_words(game, finding)} elects {_options(finding)}"


def _options(finding: Finding) -> str:
    options = [ELECTION_WORDS.get(e, e) for e in ELECTIONS.get(FindingKind(finding.kind), ())]
    if len(options) > 2:
        return "; ".join(options[:-1]) + "; or " + options[-1]
    return " or ".join(options)


def _note_clauses(finding: Finding, battle: BattleView | None) -> list[str]:
    """The clauses of the finding's note the letter does not say itself."""
    # The note is what the review added to the error's words (a view stored before ``what`` was
    # kept cannot tell them apart: its words are shown whole under "The error").
    note = finding.detail[len(finding.what):].lstrip("; ") \
        if finding.what and finding.detail.startswith(finding.what) else ""
    if battle is not None and battle.needed is not None:
        note = note.replace(awaiting_note(battle), "")
    return [c for c in clauses(note) if not c.startswith(_SAID_ELSEWHERE) and "stays void" not in c]


def _capital(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def papers_section(game: Game, view: GameView, covered: Collection[Finding] | None) -> Section:
    """Every report and ruling on record (or those about the findings in ``covered``), with its
    time, author, words and whether it is still in force."""
    by_key = {f.key: f for f in view.findings if f.key}
    gone = {w.target: w for w in game.withdrawals}
    replaced: dict[int, ReportEntry | RulingEntry] = {e.amends: e for e in game.reports if e.amends}
    replaced.update({e.amends: e for e in game.rulings if e.amends})
    keys = {f.key for f in covered} if covered is not None else None
    places = {(f.turn, f.battle) for f in covered} if covered is not None else None
    items: list[tuple[int, str]] = []
    for report in game.reports:
        if places is not None and report.territory is not None and not any(
                battle == report.territory and report.turn in (None, turn) for turn, battle in places):
            continue
        about = f" about {report.territory}" + (f" ({report.turn})" if report.turn else "") \
            if report.territory else ""
        items.append((report.seq, f"{claimed(game, report.seq, report.at)}: {report.by or 'a player'} "
                                  f"reported{about}: "
                                  f"“{report.text}”" + _standing(game, report.seq, gone, replaced)))
    for ruling in game.rulings:
        found = by_key.get(ruling.key) if ruling.key else None
        if keys is not None and (found is None or found.key not in keys):
            continue
        said = ruling_words(game, ruling, timed=False, finding=found)
        standing = _standing(game, ruling.seq, gone, replaced)
        if standing:
            said = said.removesuffix(".") + standing + "."
        items.append((ruling.seq, f"{claimed(game, ruling.seq, ruling.at)}: {_ruled(ruling, found)}: {said}"))
    paras = [Para("In the order they were made:", "", [text for _, text in sorted(items)])] if items else \
        [Para("No report or ruling is on record.")]
    return Section("Reports and rulings on record", 1, paras)


def _ruled(ruling: RulingEntry, found: Finding | None) -> str:
    """The finding a ruling is on, as numbered now (never moved to another)."""
    if found is not None:
        return f"on {found.id} ({title(found.kind)})"
    if ruling.key is None:
        return f"on {ruling.finding}" if ruling.finding.startswith("F") else f"on the {title(ruling.finding)}"
    kind, turn, battle = [*ruling.key.split("|"), "", "", ""][:3]
    where = ", ".join(part for part in (turn, battle) if part)
    return (f"on a finding that no longer exists ({title(kind)}{', ' + where if where else ''}, numbered "
            f"{ruling.finding} when ruled)")


def _standing(game: Game, seq: int, gone: dict[int, WithdrawalEntry],
              replaced: dict[int, ReportEntry | RulingEntry]) -> str:
    """" (withdrawn by UK at ...: “why”)", " (restated at ...)", or nothing while in force."""
    withdrawal = gone.get(seq)
    if withdrawal is not None:
        by = f" by {withdrawal.by}" if withdrawal.by else ""
        why = f": “{withdrawal.text}”" if withdrawal.text else ""
        return f" (withdrawn{by} at {claimed(game, withdrawal.seq, withdrawal.at)}{why})"
    later = replaced.get(seq)
    if later is not None:
        return f" (restated at {claimed(game, later.seq, later.at)}: the later one is in force)"
    return ""


def dice_section(game: Game, shown: set[tuple[str | None, str | None]] | None) -> Section | None:
    """The Minister's dice: his commitments, each roll drawn under them and each secret revealed,
    and how to verify them (None: he drew none; the dice server's are given with their battle)."""
    revealed = {r.commitment: r for r in game.reveals}
    standing = {d.seq: (c, state) for c, state, draws in commitment_standing(game) for d in draws}
    items: list[str] = []
    unchecked: list[str] = []
    for c in game.commitments:
        by = f" by {c.by}" if c.by else ""
        items.append(f"{when(c.at)}: commitment{by} ({c.scheme}), recorded before its dice were drawn: "
                     f"{c.commitment}")
    for record in game.battles:
        if shown is not None and (record.turn, record.territory) not in shown:
            continue
        for drawn in record.draws:
            moment = game.moments[drawn.seq] if drawn.seq < len(game.moments) else None
            sealed, state = standing.get(drawn.seq, (None, REVEALED))
            warning = ""
            if sealed is not None and state != REVEALED:
                warning = (" — UNVERIFIABLE: its commitment was abandoned unrevealed, so nobody can ever "
                           "check these dice" if state == ABANDONED else
                           " — NOT VERIFIED: its commitment's secret is not revealed yet")
                unchecked.append(f"roll #{drawn.sequence} ({record.territory})")
            items.append(f"{when(moment)}: roll #{drawn.sequence}, {record.territory}, {drawn.purpose}: "
                         f"{faces(drawn.dice)}{warning}")
    for c in game.commitments:
        opened = revealed.get(c.commitment)
        if opened is not None:
            items.append(f"{when(opened.at)}: secret revealed for {c.commitment[:16]}…: {opened.secret}")
        elif c is game.commitments[-1]:
            items.append(f"The secret of commitment {c.commitment[:16]}… is not revealed yet: its dice "
                         f"cannot "
                         "be checked until it is.")
        else:
            items.append(f"Commitment {c.commitment[:16]}… was abandoned without its secret being revealed: "
                         f"the "
                         "dice drawn under it can never be checked.")
    if not items:
        return None
    paras = [Para("The Minister's commitments, the dice drawn under them and the secrets "
                  "revealed:", "", items)]
    if unchecked:
        paras.append(Para(f"These dice cannot be checked by anyone: {', '.join(unchecked)}. What they decide "
                          "rests on the Minister's word alone."))
    for scheme, how in (("minister-dice/2", HOW_TO_VERIFY_2), ("minister-dice/3", HOW_TO_VERIFY)):
        if any(c.scheme == scheme for c in game.commitments):
            paras.append(Para(how, "How to verify."))
    return Section("The dice", 1, paras)
