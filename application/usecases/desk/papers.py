"""Reports and rulings as the rules use them: timed, signed, checked against the game, and
amended or withdrawn by new events that point at the old one (history kept; the review uses the
latest in force).

A report's time decides whether an error is still correctable (2008 Section VII), so ``--at``
records the e-mail's time. Every check runs before anything is stored: a report naming a battle
the game does not have, a ruling on a finding it does not have, or an election the finding's
rule does not offer is bad input.
"""

from __future__ import annotations

from datetime import datetime

from application.adapters.app import MinisterApplication
from application.usecases.desk.common import battle_of, checked_time, turn_given
from domain.errors import MinisterError
from domain.record.entries import BattleRecord, ReportEntry, Ruling, RulingEntry
from domain.record.events import (
    EntryWithdrawn,
    GameEvent,
    ReportAmended,
    ReportFiled,
    RulingGiven,
)
from domain.record.game import Game
from domain.record.references import BadReference, entry_version, live_entry
from domain.review.decisions import offered, ruled_finding, ruling_problem
from domain.review.game_review import review
from domain.review.views import Finding
from domain.rules.findings import finding_ref

DECISIONS = tuple(r.value for r in Ruling)


def _report_checks(game: Game, by: str, text: str, battle: str | None,
                   turn: str | None) -> BattleRecord | None:
    if not by.strip() or not text.strip():
        raise MinisterError("a report needs --by (who asks) and --text (what is wrong)")
    if turn is not None and battle is None:
        raise MinisterError("--turn names the battle's turn: give --battle too")
    return battle_of(game, battle, turn) if battle is not None else None


def report(app: MinisterApplication, game_id: str, by: str, text: str, battle: str | None = None,
           *, turn: str | None = None, at: datetime | None = None,
           now: datetime | None = None) -> ReportFiled:
    """Record a correction request, at ``at`` (the e-mail's time) or now."""

    def build(game: Game) -> list[GameEvent]:
        named = _report_checks(game, by, text, battle, turn)
        recorded, claimed = checked_time(game, at, now, named)
        return [ReportFiled(originator_id=game.id, originator_version=game.version + 1,
                            timestamp=recorded, at=claimed, by=by, text=text, battle=battle,
                            turn=named.turn if named is not None else None)]

    [event] = app.append(game_id, build)
    assert isinstance(event, ReportFiled)
    return event


def _findings_now(app: MinisterApplication, game: Game) -> tuple[Finding, ...]:
    """The game's findings as corrected at its current events: the stored review's when it covers
    them (a ruling is checked without reviewing the game: the refresh after it is the command's
    one review), else a review."""
    from application.usecases.review_model import stored_findings

    found = stored_findings(app, game.game_id)
    return found if found is not None else review(game).findings


def _ruling_checks(game: Game, everything: tuple[Finding, ...], finding: str, decision: str,
                   election: str | None, turn: str | None = None,
                   battle: BattleRecord | None = None) -> Finding:
    """The one finding the ruling names, checked: MinisterError naming the option at fault."""
    if decision not in DECISIONS:
        raise MinisterError(f"expected --decision one of {', '.join(DECISIONS)}, found {decision!r}")
    try:
        ref = finding_ref(finding)
    except ValueError as error:
        raise MinisterError(f"--finding {error}") from None
    findings = [f for f in everything if ref in (f.id, f.kind)]
    if not findings:
        known = ", ".join(f"{f.id} ({f.kind})" for f in everything) or "none"
        raise MinisterError(f"--finding {finding!r}: game {game.game_id!r} has no such finding "
                            f"(its findings: {known})")
    territory = battle.territory if battle is not None else None
    problem = ruling_problem(everything, finding, None, turn=turn, territory=territory)
    if problem is not None:
        raise MinisterError(f"--{problem.part} {problem.message}")
    found = ruled_finding(everything, finding, turn=turn, territory=territory)
    assert found is not None  # ruling_problem accepted it: it names one finding
    options = offered(found.kind)
    if election is not None and election not in options:
        expected = f"one of {', '.join(options)}" if options else "none (its rule offers no election)"
        raise MinisterError(f"--election {election!r} does not fit {found.id} ({found.kind}, "
                            f"{found.rule}): expected {expected}")
    return found


def rule(app: MinisterApplication, game_id: str, finding: str, decision: str, *,
         election: str | None = None, text: str = "", by: str = "", at: datetime | None = None,
         now: datetime | None = None, amends: int | None = None, turn: str | None = None,
         battle: str | None = None) -> RulingGiven:
    """Record a ruling or election on one of the game's findings (``amends``: the ruling it
    replaces; ``turn`` and ``battle``: the finding's, to name one among several of a kind)."""

    def build(game: Game) -> list[GameEvent]:
        if amends is not None:
            _live(game, amends, RulingEntry)
        # Any turn may have findings (a treasury's, a map update's): the findings decide.
        label = turn_given(turn) if turn is not None else None
        named = battle_of(game, battle, turn) if battle is not None else None
        ruled = _ruling_checks(game, _findings_now(app, game), finding, decision, election, label, named)
        recorded, claimed = checked_time(game, at, now)
        # Bound to the finding's identity: later events that add or renumber findings never
        # move the ruling to another one (views.finding_key).
        return [RulingGiven(originator_id=game.id, originator_version=game.version + 1,
                            timestamp=recorded, at=claimed, finding=finding, decision=decision,
                            election=election, by=by, text=text, amends=amends, turn=label,
                            battle=battle, finding_key=ruled.key or None)]

    [event] = app.append(game_id, build)
    assert isinstance(event, RulingGiven)
    return event


def amend_report(app: MinisterApplication, game_id: str, amends: int, by: str, text: str,
                 battle: str | None = None, *, turn: str | None = None, at: datetime | None = None,
                 now: datetime | None = None) -> ReportAmended:
    """Restate the report recorded as event ``amends`` (the old one stays in the history)."""

    def build(game: Game) -> list[GameEvent]:
        _live(game, amends, ReportEntry)
        named = _report_checks(game, by, text, battle, turn)
        recorded, claimed = checked_time(game, at, now, named)
        return [ReportAmended(originator_id=game.id, originator_version=game.version + 1,
                              timestamp=recorded, at=claimed, amends=amends, by=by, text=text, battle=battle,
                              turn=named.turn if named is not None else None)]

    [event] = app.append(game_id, build)
    assert isinstance(event, ReportAmended)
    return event


def withdraw(app: MinisterApplication, game_id: str, target: int, by: str, text: str = "", *,
             at: datetime | None = None, now: datetime | None = None) -> EntryWithdrawn:
    """Withdraw the report or ruling recorded as event ``target``."""

    def build(game: Game) -> list[GameEvent]:
        _live(game, target, ReportEntry, RulingEntry)
        recorded, claimed = checked_time(game, at, now)
        return [EntryWithdrawn(originator_id=game.id, originator_version=game.version + 1,
                               timestamp=recorded, at=claimed, withdraws=target, by=by, text=text)]

    [event] = app.append(game_id, build)
    assert isinstance(event, EntryWithdrawn)
    return event


def _live(game: Game, version: int, *kinds: type[ReportEntry] | type[RulingEntry]) -> None:
    """Event ``version`` must be a report or ruling (of ``kinds``) still in force."""
    try:
        live_entry(game, version, "event", reports=ReportEntry in kinds, rulings=RulingEntry in kinds)
    except BadReference as error:
        raise MinisterError(error.message) from None


def kind_of(app: MinisterApplication, game_id: str, version: int) -> str:
    """"report" or "ruling": what event ``version`` of the game is (it must be in force)."""
    game = app.game(game_id)
    if any(entry_version(game, e.seq) == version for e in game.live_reports):
        return "report"
    if any(entry_version(game, e.seq) == version for e in game.live_rulings):
        return "ruling"
    _live(game, version, ReportEntry, RulingEntry)  # raises, listing what can be named
    raise AssertionError("unreachable")
