"""Every reference a replay file's record makes, resolved at intake, as the desk's commands
resolve it (docs/replay-format.md, "Errors").

Each record is checked against the game as it stands just before it (the fold so far): a report,
a ruling or dice name a battle the game has (with its ``turn`` where the territory alone names
two battles: :mod:`domain.record.references`); a ruling names a finding the game has then, and an
election its rule offers; an amendment or a withdrawal names a report or ruling in force; a record
entered late claims no time before the battle it names was rolled. Once the whole file is read,
each battle's retreat must come after the last round its log fights. Any failure is bad input
(exit 2) at the line of the key at fault, and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.errors import ReplayError
from domain.record.claimed import battle_rolled, claimed_time_problem
from domain.record.events import (
    DiceSupplied,
    EntryWithdrawn,
    ForfeitDecided,
    GameEvent,
    ReportAmended,
    ReportFiled,
    RulingGiven,
    RulingIssued,
)
from domain.record.game import Game
from domain.record.intake import known_territory
from domain.record.recorded_battle import read_record
from domain.record.references import BadReference, live_entry, named_battle
from domain.review.decisions import ruled_finding, ruling_problem
from domain.review.game_review import review

#: The line of a key of the record being checked (its [[event]] table's line when absent).
LineOf = Callable[[str], int | None]


def check_record(game: Game, event: GameEvent, source: str, line_of: LineOf) -> GameEvent:
    """Refuse a record whose references the game (as it stands before it) cannot resolve; the
    record as it is to be stored (a ruling bound to the identity of the finding it names then,
    as ``minister rule`` binds it)."""
    # By exact class: a replay file's events are of these classes, not subclasses (isinstance
    # of a tuple of msgspec classes cost ~0.5 us an event, asked of every event of the file).
    if type(event) in _REFERRING:
        event = _check_references(game, event, source, line_of)
    if event.at is not None and event.at != event.timestamp:
        _check_claimed(game, event, source, line_of("at"))
    return event


#: The records that name something the game must hold (a battle, a finding, a report or ruling,
#: a request): one test lets every other record (most of a file: rolls, positions) straight by.
_REFERRING = (DiceSupplied, RulingIssued, RulingGiven, ReportFiled, ReportAmended, EntryWithdrawn,
              ForfeitDecided)


def _check_references(game: Game, event: GameEvent, source: str, line_of: LineOf) -> GameEvent:
    """:func:`check_record` of a record that names something (one of :data:`_REFERRING`)."""
    try:
        if isinstance(event, DiceSupplied):
            named_battle(game, event.battle, event.turn)  # dice go to one battle
        elif isinstance(event, RulingIssued | RulingGiven) and event.battle is not None:
            named_battle(game, event.battle, event.turn)  # as ``minister rule --battle``
        elif isinstance(event, ReportFiled | ReportAmended):
            _report_battle(game, event.battle, event.turn)
        if isinstance(event, ReportAmended):
            live_entry(game, event.amends, "amends", rulings=False)
        elif isinstance(event, RulingGiven) and event.amends is not None:
            live_entry(game, event.amends, "amends", reports=False)
        elif isinstance(event, EntryWithdrawn):
            live_entry(game, event.withdraws, "withdraws")
    except BadReference as error:
        raise ReplayError(f"{error.part} {error.message}", source=source,
                          line=line_of(error.part)) from None
    if isinstance(event, RulingIssued | RulingGiven):
        event = _check_ruling(game, event, source, line_of)
    if isinstance(event, ForfeitDecided):
        asked = [n.kind for n in game.board_log if n.kind in ("forfeit_request", "forfeit_decision")]
        if not asked or asked[-1] != "forfeit_request":
            raise ReplayError("expected a forfeit_request before this forfeit_decision (no request "
                              "awaits the Minister of Law's decision: 2008 Forfeits)", source=source,
                              line=line_of("decision"))
    return event


def _report_battle(game: Game, battle: str | None, turn: str | None) -> None:
    """A report names a battle the game has (with its turn when it gives one). Without ``turn``,
    a report on a territory fought over twice is about either battle (decisions._report takes it
    for each finding there it follows); ``minister report`` asks for ``--turn`` then."""
    if battle is not None:
        named_battle(game, battle, turn, several=True)
    elif turn is not None:
        raise BadReference(f"{turn!r} names a battle's turn: expected battle = ... too", "turn")


def _check_ruling(game: Game, event: RulingIssued | RulingGiven, source: str,
                  line_of: LineOf) -> RulingIssued | RulingGiven:
    """A ruling must name one finding the game has when it is made (of its ``turn`` and
    ``battle`` when it names them), and an election the rule offers on it: as ``minister rule``
    refuses. It is bound to that finding's identity (a record exported with its identity keeps
    it: the finding it was made on, whatever the game holds now)."""
    territory = None
    if event.battle is not None:
        territory = known_territory(event.battle)
        if territory is None:
            raise ReplayError(f"battle {event.battle!r}: expected a territory or sea zone of the board",
                              source=source, line=line_of("battle"))
    findings = review(game).findings
    if event.finding_key is not None:
        if not any(f.key == event.finding_key for f in findings):
            raise ReplayError(f"finding_key {event.finding_key!r} names no finding the game has when the "
                              "ruling is made", source=source, line=line_of("finding_key"))
        return event
    problem = ruling_problem(findings, event.finding, event.election, event.decision,
                             turn=event.turn, territory=territory)
    if problem is not None:
        raise ReplayError(problem.message, source=source, line=line_of(problem.part))
    found = ruled_finding(findings, event.finding, turn=event.turn, territory=territory)
    return msgspec.structs.replace(event, finding_key=found.key) if found is not None and found.key else event


def _check_claimed(game: Game, event: GameEvent, source: str, line: int | None) -> None:
    """A record entered late (``entered``) cannot claim a time before the battle it names was
    rolled (its other bounds are checked as it is read)."""
    name = getattr(event, "battle", None)
    found = battle_rolled(game, name, getattr(event, "territory", ""), getattr(event, "turn", None)) \
        if name else None
    if found is None or event.at is None:
        return
    problem = claimed_time_problem(event.at, event.timestamp, start=None, battle=found[0],
                                   rolled=found[1])
    if problem is not None:
        raise ReplayError(f"at {problem}", source=source, line=line or event.source_line)


def check_retreats(game: Game, source: str, line_of: Callable[[int, str], int | None]) -> None:
    """A battle's retreat comes after the last round its log fights: a log that goes on after
    the round the retreat names, or stops before it, contradicts it. ``line_of(seq, key)``: the
    line of a key of the record numbered ``seq``."""
    for record in game.battles:
        if not record.retreats:
            continue
        retreat = record.retreats[-1]  # a later retreat replaces an earlier one
        fought = len(read_record(record).rounds)
        if retreat.after_round == fought:
            continue
        where = f"{record.territory} ({record.turn})"
        if fought > retreat.after_round:
            why = f"its log fights {fought} rounds, so the battle went on after round {retreat.after_round}"
        else:
            why = f"its log fights {fought} round{'s' if fought != 1 else ''}"
        raise ReplayError(f"expected after_round = the last round the log of {where} fights ({fought}): "
                          f"found a retreat after round {retreat.after_round}, but {why}",
                          source=source, line=line_of(retreat.seq, "after_round"))
