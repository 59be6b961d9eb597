"""The whole game reviewed: findings, their fate, and every battle as rolled or as corrected.

This is the one entry point the projections call. For each battle, in declaration order: read
the record, find what is wrong (declarations, rolls, headers), decide each finding's fate
(edition, reports and time limits, elections and rulings), and apply the remedies that hold.
The as-rolled record is never altered: ``as_rolled=True`` lists the findings beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import msgspec
from msgspec.structs import replace as with_fields

from domain.battle.model import Side
from domain.memory import no_gc
from domain.record.board.walk import BID_DROPPED, BattleResult, BoardWalk, bid_drop_key, walk_board
from domain.record.entries import Election
from domain.record.game import BattleRecord, Game
from domain.record.recorded_battle import RecordedBattle, read_record
from domain.record.treasury import TreasuryWalk, walk_treasury
from domain.review.as_rolled import Readings, analyse_as_rolled, orders_of
from domain.review.board_review import board_knows, game_parts, on_board, outcomes_of
from domain.review.correction_dice import CorrectionDice
from domain.review.decisions import decide
from domain.review.declaration_errors import TurnAudit, audit_declarations
from domain.review.papers import papers_of
from domain.review.refight import Context, aa_order_of
from domain.review.result_flow import Flow
from domain.review.rolling_errors import BattleAudit, Issue, audit_rolls
from domain.review.settlement import Judged, as_finding, correction, moot_in_void_turn, void_turn
from domain.review.treasury_review import purses
from domain.review.views import (
    BattleStatus,
    BattleView,
    DrawnDice,
    Finding,
    GameView,
    Purse,
    finding_key,
)
from domain.rules.editions import DECLARATION_ERRORS, Edition, edition
from domain.rules.findings import FindingKind, FindingStatus
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind
from domain.rules.turns import Power, turn_of
from domain.rules.units import UnitType

#: New objects above which the review promotes what it made (see domain.memory.no_gc): a
#: review of a few hundred events stays below it (and skips the walk of frozen objects).
_PROMOTE_OVER = 50_000


def review(game: Game, *, as_rolled: bool = False) -> GameView:
    """Analyse every declared battle of the game, in declaration order: the game as corrected,
    or (``as_rolled``) the record untouched with its findings listed.

    The board moves on with the battles' results: first as rolled; as corrected, when a
    correction changes the board, every battle is reviewed again on the corrected board (a
    corrected result flows into every later check; rules matrix, Consequences).
    """
    reviewer = GameReview(game)
    return reviewer.as_rolled() if as_rolled else reviewer.corrected()


def review_both(game: Game) -> tuple[GameView, GameView]:
    """Both histories of the game: (as corrected, as rolled), made as :class:`GameReview` makes
    them (what they read alike, made once)."""
    reviewer = GameReview(game)
    rolled = reviewer.as_rolled()
    return reviewer.corrected(), rolled


class GameReview:
    """One game's review, each history made when first asked for. The two histories share
    what they read alike (:class:`_Shared`): each battle's record read and analysed as rolled,
    the board walked on the results as rolled with its treasury and turn audit, and each battle
    read on that board (its purses, forces, rolling audit and issues: :class:`_Reading`); the
    second history asked for costs what it does not share."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._shared: _Shared | None = None
        self._views: dict[bool, GameView] = {}

    def corrected(self) -> GameView:
        """The game as corrected."""
        return self._view(as_rolled=False)

    def as_rolled(self) -> GameView:
        """The record as rolled, its findings listed beside it."""
        return self._view(as_rolled=True)

    def _view(self, *, as_rolled: bool) -> GameView:
        view = self._views.get(as_rolled)
        if view is None:
            # A review makes many small objects and no reference cycles; a big one is promoted
            # whole rather than scanned by the young collection re-enabling the collector triggers.
            with no_gc(promote_over=_PROMOTE_OVER):
                if self._shared is None:
                    self._shared = _Shared(self.game)
                view = (_review_rolled if as_rolled else _review_corrected)(self._shared)
            self._views[as_rolled] = view
        return view


def _review_rolled(shared: _Shared) -> GameView:
    """The record as rolled: every battle on the board the record's own results give."""
    return _review_on(_Review(shared, shared.rolled_board, as_rolled=True))


def _review_corrected(shared: _Shared) -> GameView:
    """The game as corrected: the board walked again on the corrected results until it settles."""
    game = shared.game
    state = _Review(shared, shared.rolled_board, as_rolled=False)
    view = _review_on(state)
    outcomes, board = shared.rolled_outcomes, shared.rolled_board
    for _ in range(3):  # a correction changes the board, which may change another battle
        corrected = outcomes_of(view.battles, view.void_turns) | state.bid_drops
        if corrected == outcomes:
            break
        again = walk_board(game, corrected, rolled=shared.rolled_board.walk)
        outcomes = corrected
        if again.same_board(board.walk):
            break
        board = _Board.of(shared, again)
        state = _Review(shared, board, as_rolled=False, voids=_voids(shared, view))
        view = _review_on(state)
    return view


@dataclass(frozen=True)
class _Void:
    """A battle fought as rolled and void as corrected: where it was fought, what it was, and
    the findings that voided it."""

    seq: int
    what: str
    ids: tuple[str, ...]


def _voids(shared: _Shared, view: GameView) -> tuple[_Void, ...]:
    """The battles a review as corrected made void (or not fought) that were fought as rolled."""
    unfought = (BattleStatus.VOID, BattleStatus.NOT_FOUGHT)
    return tuple(_Void(record.fought_seq, f"{battle.turn}'s battle in {battle.battle}", battle.finding_ids)
                 for record, battle in zip(shared.game.battles, view.battles, strict=True)
                 if battle.status in unfought and shared.rolled_outcomes.get(record.key) is not None)


@dataclass
class _Board:
    """One walk of the board and what reads it whole: the treasury walked beside it, the turn
    audit (declarations, map updates, club procedures) on it, and each battle read on it (by the
    battle's index), made once for both histories when they read this board."""

    walk: BoardWalk
    treasury: TreasuryWalk
    turn_audit: TurnAudit
    readings: dict[int, _Reading]

    @classmethod
    def of(cls, shared: _Shared, walk: BoardWalk) -> _Board:
        """The walk read whole."""
        treasury = walk_treasury(shared.game, walk)
        audit = audit_declarations(shared.game, shared.policy, walk=walk, rolled_walk=shared.rolled_walk,
                                   treasury=treasury)
        return cls(walk, treasury, audit, {})


class _Reading(msgspec.Struct, frozen=True):
    """A battle read on one board, before any history's remedies: the purses before it,
    whether the board knows its territory, its record with the board its declaration was made
    on, its records read and analysed as rolled, the forces it should have been fought with,
    their rolling audit, and the issues of the battle the edition defines. A pure function of
    the board and the battle, so both histories read it alike."""

    purse: tuple[Purse, ...]
    known: bool
    record: BattleRecord
    recorded: RecordedBattle
    rolled: BattleView
    attackers: Force
    defenders: Force
    audit: BattleAudit
    issues: list[Issue]


def _read_on(shared: _Shared, board: _Board, index: int, filed: BattleRecord) -> _Reading:
    """The ``index``-th battle read on ``board``, kept there (made once: both histories ask)."""
    walk, policy = board.walk, shared.policy
    recorded, rolled = shared.read[index]
    record = on_board(filed, walk)
    # The record as rolled reads the map only for defenders neither declared nor typed.
    if record.declared_defenders is None and record.position != filed.position \
            and recorded.typed_defenders is None:
        rolled = analyse_as_rolled(record, readings_of(policy), recorded)
    attackers, defenders = correct_forces(record, recorded, board.turn_audit)
    audit = audit_rolls(record, recorded, rolled, policy, attackers, defenders)
    reading = board.readings[index] = _Reading(
        purses(board.treasury, walk, filed.fought_seq + 1), board_knows(filed, walk), record, recorded,
        rolled, attackers, defenders, audit, _issues(shared.game, policy, board.turn_audit, record, recorded,
                                                     audit))
    return reading


def _issues(game: Game, policy: Edition, turn_audit: TurnAudit, record: BattleRecord,
            recorded: RecordedBattle, audit: BattleAudit) -> list[Issue]:
    """A battle's issues the edition defines: its declaration's, its rolls', its headers'."""
    found = [*turn_audit.battles.get(record.key, ()), *audit.issues, *_game_number(game, record, recorded)]
    return [i for i in found if policy.defines(i.kind)] if found else found  # (most battles: none)


class _Shared:
    """What both histories of one game's review read alike: the edition, each battle's record
    read and analysed as rolled, the results as rolled, the board walked on them, and the game
    view's parts made from the records alone."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.policy = edition(game.edition)
        readings = readings_of(self.policy)
        self.read = [_read(record, readings) for record in game.battles]
        self.rolled_outcomes = outcomes_of([rolled for _, rolled in self.read])
        self.rolled_walk = walk_board(game, self.rolled_outcomes)
        self.rolled_board = _Board.of(self, self.rolled_walk)
        self.parts = game_parts(game)


def _review_on(state: _Review) -> GameView:
    """One review of every battle, on the board the state's walk gives. Findings are numbered
    in game order: a turn's battles, then what is found of the turn as a whole (its purchase,
    placements, map update), before the next turn's."""
    game, as_rolled = state.game, state.as_rolled
    findings: list[Finding] = []
    by_turn: dict[str, list[Issue]] = {}
    for turn, issue in state.turn_audit.turn:
        by_turn.setdefault(turn, []).append(issue)

    voided_turns: dict[str, list[str]] = {}

    def voids(judged: Judged) -> None:
        """2008 Section VII: a correction made (or fixed) after the next turn was rolled voids
        that turn, whether the error was a battle's or the turn's (a non-combat move)."""
        decision = judged.decision
        if decision.voids_turn and (decision.apply or decision.status == FindingStatus.FIXED):
            voided_turns.setdefault(decision.voids_turn, []).append(judged.finding_id)

    def turn_findings(before: str | None) -> None:
        """The turn-wide findings of every turn before ``before`` (all: None), in game order."""
        limit = _place_in_play(before) if before is not None else None
        for turn in sorted(by_turn, key=_place_in_play):
            if limit is not None and _place_in_play(turn) >= limit:
                continue
            for issue in by_turn.pop(turn):
                fid, key = state.identify(issue, turn, None)
                judged = Judged(issue, decide(issue, None, turn, game, state.policy, fid, key), fid, key)
                voids(judged)
                findings.append(as_finding(judged, state.policy, turn, None))
                if judged.decision.apply and issue.place is not None and not as_rolled:
                    # A bid placement ruled illegal comes off the board as corrected (decisions.decide).
                    state.bid_drops[bid_drop_key(*issue.place)] = BID_DROPPED

    battles: list[BattleView] = []
    for index, record in enumerate(game.battles):
        if by_turn:  # (most turns have no turn-wide finding left to number)
            turn_findings(record.turn)
        view, judged_list = state.battle(index, record)
        for judged in judged_list:
            voids(judged)
            findings.append(as_finding(judged, state.policy, record.turn, record))
        battles.append(view)
    turn_findings(None)
    if not as_rolled:
        battles = [void_turn(view, voided_turns.get(view.turn)) for view in battles]
        findings = [moot_in_void_turn(finding, voided_turns) for finding in findings]
    parts = state.shared.parts
    return GameView(game_id=game.game_id, edition=game.edition, title=game.title,
                    as_rolled=as_rolled, findings=tuple(findings), battles=tuple(battles),
                    drawn=tuple(state.from_source), papers=papers_of(game, findings),
                    treasury=purses(state.treasury, state.walk, game.seq + 1),
                    # The map reads the walk's own history (shared, never changed after the walk).
                    board_history=state.walk.history,
                    board_known=state.walk.known_since,
                    void_turns=() if as_rolled else tuple(voided_turns),
                    board_points=parts.board_points, board_records=parts.board_records,
                    board_roles=parts.board_roles, turn_records=parts.turn_records)


def _place_in_play(turn: str) -> tuple[int, int]:
    """A turn's place in the order of play: (game round, power in the order of play)."""
    try:
        found = turn_of(turn)
    except ValueError:
        return (-1, -1)  # not a turn label: before any turn
    return (found.round, _POWERS.index(found.power))


_POWERS = list(Power)


class _Review:
    """What reviewing a game carries from battle to battle: finding numbers, the dice source,
    units already sent from each origin, and corrected results that flow into later battles."""

    def __init__(self, shared: _Shared, board: _Board, *, as_rolled: bool,
                 voids: tuple[_Void, ...] = ()) -> None:
        self.shared, self.game, self.policy = shared, shared.game, shared.policy
        self.as_rolled = as_rolled
        self.board = board
        #: Battles voided as corrected (the board this review reads is walked without them).
        self.voids = voids
        self.walk, self.treasury, self.turn_audit = board.walk, board.treasury, board.turn_audit
        self.number = 0
        #: How many findings alike in all but their number each identity's base has had.
        self.seen: dict[tuple[object, ...], int] = {}
        self.used: dict[tuple[str, str], Force] = {}
        self.flows: dict[str, Flow] = {}
        self.from_source: list[DrawnDice] = []
        #: Bid placements the Minister of Law ruled off the board (the walk as corrected's input).
        self.bid_drops: dict[str, BattleResult] = {}

    def identify(self, issue: Issue, turn: str, territory: str | None) -> tuple[str, str]:
        """The next finding's id ("F1", "F2", ... in the order findings are made: game order)
        and its identity (views.finding_key), which later events cannot move."""
        self.number += 1
        side = issue.side.value if issue.side is not None else None
        base = (issue.kind, turn, territory, issue.round, side, issue.column, issue.where)
        occurrence = self.seen.get(base, 0)
        self.seen[base] = occurrence + 1
        return f"F{self.number}", finding_key(issue.kind, turn, territory, issue.round, side, issue.column,
                                              issue.where, occurrence)

    def battle(self, index: int, filed: BattleRecord) -> tuple[BattleView, list[Judged]]:
        """One battle (the ``index``-th): its findings judged, and its view as rolled or as
        corrected, on the board as the record moved it on."""
        rests = self._rests_on_void(filed, on_board(filed, self.walk)) if self.voids else []
        # Resting on a voided battle, it is judged on the board it was fought on (what its
        # players saw), the flag beside it: the corrected board's contradictions are not
        # theirs, and the texts give no remedy to apply.
        board = self.shared.rolled_board if rests else self.board
        reading = board.readings.get(index)
        if reading is None:
            reading = _read_on(self.shared, board, index, filed)
        record, recorded, rolled, known = reading.record, reading.recorded, reading.rolled, reading.known
        purse = purses(self.treasury, self.walk, filed.fought_seq + 1) if rests else reading.purse
        attackers, defenders = reading.attackers, reading.defenders
        audit, issues = reading.audit, reading.issues
        if not self.as_rolled and record.territory in self.flows and not known and not rests:
            defenders = self.flows[record.territory].defenders_for(record, defenders)
            if defenders != reading.defenders:  # a corrected result flowed in: audited on it
                audit = audit_rolls(record, recorded, rolled, self.policy, attackers, defenders)
                issues = _issues(self.game, self.policy, self.board.turn_audit, record, recorded, audit)
        if rests:
            issues = issues + [i for i in rests if self.policy.defines(i.kind)]
        judged_list = []
        for issue in sorted(issues, key=_order) if issues else ():
            fid, key = self.identify(issue, record.turn, record.territory)
            judged_list.append(Judged(issue, decide(issue, record, record.turn, self.game, self.policy, fid,
                                                    key), fid, key))
        if self.as_rolled:
            return (with_fields(rolled, finding_ids=tuple(j.finding_id for j in judged_list),
                                treasury=purse), judged_list)
        if judged_list and any(j.issue.kind in DECLARATION_ERRORS and j.decision.election == Election.REROLL
                               for j in judged_list):
            # A void battle re-rolled: "the correct number and type of units" (2008 Section
            # II), never more than were declared ("He may not add additional attacking units").
            attackers = corrected_attackers(record, self.used)
        if not judged_list:
            # Nothing found, no remedy: the battle stands as rolled, draws nothing, has no odds
            # to give and changes no result (what correction makes of no findings, without the plan).
            return with_fields(rolled, treasury=purse), judged_list
        ctx = Context(record, recorded, rolled, audit, self.policy, attackers, defenders,
                      orders_of(record),
                      # Only recorded dice count: entered from the dice server or drawn by the
                      # Minister (a clear dice_seed never draws one: anyone could predict it).
                      CorrectionDice(record.dice + [d for _, _, ds in record.drawn for d in ds]))
        view, judged_list, draws, effect = correction(ctx, judged_list)
        if draws:
            self.from_source.extend(DrawnDice(record.territory, seq, purpose, faces)
                                    for seq, purpose, faces in draws)
        flow = Flow.of(record, rolled, view)
        if flow is not None:
            self.flows[record.territory] = flow
        view = with_fields(view, finding_ids=tuple([j.finding_id for j in judged_list]), impact=effect,
                           treasury=purse)
        return view, judged_list


    def _rests_on_void(self, filed: BattleRecord, record: BattleRecord) -> list[Issue]:
        """A battle declared after a battle voided as corrected, on a board that differs from
        the one it was declared on as rolled (what stood in its territory or its origins): the
        texts void the erring battle (2008 Section II, VII; 1999 Part 14, Sending Errors) and are
        silent on what rests on it, so it is flagged for the Minister of Law, never left to
        stand in silence and never given an invented remedy."""
        causes = [void for void in self.voids if void.seq < filed.declared_seq]
        if not causes:
            return []
        rolled = on_board(filed, self.shared.rolled_walk)
        if rolled.position == record.position and rolled.available == record.available:
            return []
        what = "; ".join(void.what + (f" ({', '.join(void.ids)})" if void.ids else "") for void in causes)
        return [Issue(FindingKind.RESTS_ON_VOID,
                      f"declared on a board the corrected history does not have: {record.territory} held "
                      f"{_holders(rolled.position)} as rolled, {_holders(record.position)} as corrected, "
                      f"after {what} was voided; judged on the board it was fought on",
                      at=filed.declared_at)]


def _holders(position: Mapping[str, Force]) -> str:
    """Every power's units in a place ("Germany 2 INF, 1 ARM; UK 1 INF"), or "nothing"."""
    return "; ".join(f"{power} {units}" for power, units in position.items() if units) or "nothing"


def _read(record: BattleRecord, readings: Readings) -> tuple[RecordedBattle, BattleView]:
    """A battle's records cut into rounds, and analysed as rolled (under the edition's readings)."""
    recorded = read_record(record)
    return recorded, analyse_as_rolled(record, readings, recorded)


def correct_forces(record: BattleRecord, recorded: RecordedBattle,
                   turn_audit: TurnAudit) -> tuple[Force, Force]:
    """The forces the battle should have been fought with: the declared attackers, and the
    defenders on the map (else as declared, else as the first roll typed them)."""
    attackers = record.attackers or recorded.typed_attackers or EMPTY
    clear = turn_audit.intent_clear  # (most games have none: no battle's key made to look)
    if clear and record.declared_defenders is not None and record.key in clear:
        defenders = record.declared_defenders
    elif record.defenders_known:
        defenders = record.position_defenders
    elif record.declared_defenders is not None:
        defenders = record.declared_defenders
    else:
        defenders = recorded.typed_defenders or EMPTY
    return attackers, defenders


def corrected_attackers(record: BattleRecord, used: dict[tuple[str, str], Force]) -> Force:
    """The declared attackers cut to what their origins held, after the turn's earlier battles
    took theirs, and to what the declared transports can carry."""
    total = EMPTY
    for move in record.moves:
        key = (record.turn, move.origin)
        if move.origin in record.available:
            left = record.available[move.origin].minus_available(used.get(key, EMPTY))
            units = Force.of({u: min(n, left[u]) for u, n in move.units.items})
        else:
            units = move.units
        if move.transports:
            units = _carried(units, move.transports)
        used[key] = used.get(key, EMPTY) + units
        total = total + units
    return total.where(lambda u: u is not UnitType.BB) if record.kind is not BattleKind.SEA else total


def _carried(units: Force, transports: int) -> Force:
    """What ``transports`` can carry of these land units (2 INF, or 1 INF and 1 other, each)."""
    land = units.where(lambda u: u.is_land and u.is_combatant)
    others = min(len(land) - land[UnitType.INF], transports)
    infantry = min(land[UnitType.INF], 2 * transports - others)
    kept_others: dict[UnitType, int] = {}
    budget = others
    for unit, count in land.items:
        if unit is not UnitType.INF and budget:
            kept_others[unit] = min(count, budget)
            budget -= kept_others[unit]
    return units.where(lambda u: not (u.is_land and u.is_combatant)) + Force.of(
        {UnitType.INF: infantry, **kept_others})


def _order(issue: Issue) -> tuple[int, int, int]:
    declaration = 0 if issue.kind in DECLARATION_ERRORS or issue.round is None else 1
    side = 0 if issue.side in (None, Side.ATTACKER) else 1
    return (declaration, issue.round or 0, side)


def _game_number(game: Game, record: BattleRecord, recorded: RecordedBattle) -> list[Issue]:
    """Rolls whose header named another game than this one."""
    if game.game_number is None:
        return []
    found = []
    for roll in record.rolls:
        if roll.game_number is not None and roll.game_number != game.game_number:
            first = next((rnd.index for rnd in recorded.rounds if roll in rnd.rolls), None)
            found.append(Issue(FindingKind.WRONG_GAME_NUMBER,
                               f"game number typed as {roll.game_number}, this game is "
                               f"{game.game_number}", round=first, at=roll.at))
    return found


def audit_of(record: BattleRecord, game: Game) -> BattleAudit:
    """The rolling audit of one battle (for tools and tests)."""
    policy = edition(game.edition)
    recorded = read_record(record)
    attackers, defenders = correct_forces(record, recorded, audit_declarations(game, policy))
    return audit_rolls(record, recorded, analyse_as_rolled(record, readings_of(policy), recorded), policy,
                       attackers, defenders)


def readings_of(policy: Edition) -> Readings:
    """The edition's readings the as-rolled analysis follows."""
    return Readings(aa_order=aa_order_of(policy), subs_every_round=policy.sub_first_strike == "every_round")
