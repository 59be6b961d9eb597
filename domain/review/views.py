"""What the analysis of a game produces: findings and battles round by round.

These values are the contract between the domain (analysis, corrections) and the projections
(JSON report, text report, timeline). Field names follow spec/replay-format.md's report.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

import msgspec

from domain.battle.model import Column, Outcome
from domain.rules.findings import FindingKind, FindingStatus
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind


class DiceStatus(StrEnum):
    """Whether a run of dice counts: as rolled, no longer (re-rolled or extra), or added by a
    correction."""

    KEPT = "kept"
    VOIDED = "voided"
    ADDED = "added"


class BattleStatus(StrEnum):
    """What became of a battle: as rolled, corrected, null and void, not fought (the attacker's
    election), or awaiting dice or an election."""

    STANDS = "stands"
    CORRECTED = "corrected"
    VOID = "void"
    NOT_FOUGHT = "not_fought"
    AWAITING = "awaiting"

RoundOrigin = Literal["as_rolled", "rerolled"]


class DiceEntry(msgspec.Struct, frozen=True):
    """A run of dice of one column with one status, in the order thrown."""

    column: Column
    values: tuple[int, ...]
    status: DiceStatus = DiceStatus.KEPT
    first_strike: bool = False
    #: Hit marks as the record typed them (a claim; hits are recomputed from the dice).
    marked: tuple[bool, ...] | None = None
    #: Whether each die hits its column (recomputed).
    hits: tuple[bool, ...] = ()


class SideRound(msgspec.Struct, frozen=True):
    """One side in one round: units at the round's start, hits scored, dice thrown."""

    units: Force
    hits: int
    dice: tuple[DiceEntry, ...] = ()
    #: The total the record stated ("= 2 hits"), if any.
    stated_hits: int | None = None
    #: The units the record typed for this side this round, if any (a claim).
    typed_units: Force | None = None


class RoundView(msgspec.Struct, frozen=True):
    """One round of a battle as the report shows it."""

    round: int
    origin: RoundOrigin
    attacker: SideRound
    defender: SideRound
    attacker_losses: Force
    defender_losses: Force
    pause_required: bool = False
    #: The round number the record typed (R1, A2 …), when it typed one.
    typed_number: int | None = None
    #: Aircraft the AA guns shot down before round 1 (not in ``attacker.units``).
    aa_losses: Force = EMPTY


class VoidedDice(msgspec.Struct, frozen=True):
    """Original dice that no longer count because their round is re-rolled."""

    round: int
    side: str
    column: Column
    values: tuple[int, ...]


class Finding(msgspec.Struct, frozen=True):
    """Something wrong in the record, the rule that applies, and what became of it."""

    id: str
    kind: FindingKind
    status: FindingStatus
    rule: str
    detail: str
    turn: str | None = None
    battle: str | None = None
    round: int | None = None
    side: str | None = None
    column: Column | None = None
    #: The ruling or election that decided it, if any.
    ruling: str | None = None
    #: What the finding is about, whatever else the record holds: its kind, turn, battle,
    #: round, side, column and what in the turn it names (:func:`finding_key`). A ruling is
    #: bound to it when recorded, so findings added or renumbered later never move it.
    key: str = ""
    #: When the erring record was made (its roll's, declaration's or post's time): a report
    #: made before it is not about it.
    at: datetime | None = None
    #: What the record got wrong, in words (``detail`` without what became of it).
    what: str = ""
    #: What an open finding, or a void battle's, waits for: "election", "minister", "report" or
    #: "dice" (domain.review.decisions.WaitingFor); None when it waits for nothing.
    waiting: str | None = None


def finding_key(kind: str, turn: str | None, battle: str | None, round_number: int | None,
                side: str | None, column: object, where: str, occurrence: int) -> str:
    """A finding's identity: ``kind|turn|battle|round|side|column|where|n`` (``n`` tells apart
    findings alike in everything else, in the order the review makes them)."""
    parts = (kind, turn or "", battle or "", "" if round_number is None else str(round_number), side or "",
             "" if column is None else str(column), where, str(occurrence))
    return "|".join(parts)


class Chances(msgspec.Struct, frozen=True):
    """A battle's exact outcome probabilities from a given round."""

    attacker_win: float
    defender_win: float
    draw: float
    retreat: float


class Impact(msgspec.Struct, frozen=True):
    """What an error cost: the odds at the start of the error round, in both timelines."""

    from_round: int
    as_rolled: Chances
    as_corrected: Chances

    @property
    def swing(self) -> float:
        """How much the attacker's chance of winning moved (corrected minus rolled)."""
        return round(self.as_corrected.attacker_win - self.as_rolled.attacker_win, 12)


class PlaceView(msgspec.Struct, frozen=True):
    """A territory a battle touched (where it was fought, where its units came from or went):
    who held it and what stood there when the battle was declared, and after it."""

    territory: str
    ipc: int
    holder_before: str | None
    holder_after: str | None
    before: tuple[tuple[str, Force], ...]
    after: tuple[tuple[str, Force], ...]
    #: What the battle did there: "battle", "origin", "zone" (transports), "landing", "retreat".
    roles: tuple[str, ...] = ()


class Awaiting(msgspec.Struct, frozen=True):
    """An election the rules give a side, not made yet: whose it is and what it may be."""

    finding: str
    by: str
    side: str
    elections: tuple[str, ...]


class DiceNeed(msgspec.Struct, frozen=True):
    """The dice a correction waits for: how many, for which round, side, column and units.

    Only the next throw is known exactly: later rounds depend on what it shows.
    """

    count: int
    purpose: str
    round: int | None = None
    side: str | None = None
    column: str | None = None
    units: str = ""
    #: Dice already recorded for the battle but not enough for this throw.
    on_hand: int = 0
    #: What follows once they are in ("rounds from 2 on are re-rolled if ...").
    then: str = ""


class Purse(msgspec.Struct, frozen=True):
    """A power's treasury at a point of the game: its IPCs, and the income it would collect on
    the board then (0 while an enemy holds its capital)."""

    power: str
    ipcs: int
    income: int


class DeclaredMove(msgspec.Struct, frozen=True, array_like=True):
    """A move into a battle as its declaration stated it (names resolved): from where, which
    units, where its aircraft land, by which transports' sea zone."""

    origin: str
    units: Force
    landing: str | None = None
    transport_zone: str | None = None


class Declaration(msgspec.Struct, frozen=True):
    """A battle as its declaration stated it (2008 Section II: the attack and the defenders
    listed), whatever was then rolled or corrected: the board panel shows it as written."""

    #: The defenders the declaration listed ("Attack #1 - Anglo Egypt (1 INF, 1 ARM)"); None
    #: when it listed none.
    defenders: Force | None
    #: Every move into the battle, in the order written.
    moves: tuple[DeclaredMove, ...] = ()

    @property
    def attackers(self) -> Force:
        """Every unit the moves bring (battleships' support shots among them)."""
        total = EMPTY
        for move in self.moves:
            total = total + move.units
        return total


class BattleView(msgspec.Struct, frozen=True):
    """A battle's effective history (or its record as rolled)."""

    turn: str
    battle: str
    kind: BattleKind
    status: BattleStatus
    rounds: tuple[RoundView, ...]
    result: Outcome | None
    resume_round: int | None = None
    voided: tuple[VoidedDice, ...] = ()
    attacker_start: Force = EMPTY
    defender_start: Force = EMPTY
    finding_ids: tuple[str, ...] = ()
    #: For a corrected battle: the odds from the error round as rolled and as corrected.
    impact: Impact | None = None
    #: The election the battle waits for (a void battle: the attacker's; a skipped pause: the
    #: defender's), if any.
    awaiting: Awaiting | None = None
    #: For a battle awaiting dice: the next throw the correction needs.
    needed: DiceNeed | None = None
    #: Each power's treasury and income after the battle (empty: the record does not know them).
    treasury: tuple[Purse, ...] = ()
    #: The battle as declared (None: not known, e.g. a view stored before it was kept).
    declared: Declaration | None = None


class DrawnDice(msgspec.Struct, frozen=True):
    """Dice the verifiable source drew for a correction (to be recorded as events)."""

    battle: str
    sequence: int
    purpose: str
    dice: tuple[int, ...]


class Paper(msgspec.Struct, frozen=True, omit_defaults=True):
    """A report, a ruling, a dice commitment, a forfeit request or decision or a concession as
    recorded, in full (the timeline's panel and the text report show these; the letter reads
    the record itself)."""

    event: int
    kind: Literal["report", "ruling", "commitment", "forfeit_request", "forfeit_decision", "concession"]
    at: datetime | None
    by: str
    #: What it is about: the battle, or the finding with the decision and election.
    about: str
    text: str
    #: "in force", "withdrawn (event N)", "replaced by event N", or for a commitment whether
    #: its dice are provisional (drawn, not yet revealed) or checkable; for a forfeit request,
    #: decision or concession what it did to the game.
    status: str
    #: When minister stored it, if that is not ``at`` (an e-mail entered late: ``at`` is the
    #: e-mail's time, which the rules use; domain.record.claimed).
    entered: datetime | None = None


class TurnRecords(msgspec.Struct, frozen=True, array_like=True):
    """A turn's records in the game (its battles' and the rest), for the timeline: a turn with no
    battle still has a point, the board after its purchase, moves, placements and map update."""

    turn: str
    #: The record numbers of its first and last records.
    first: int
    last: int
    #: What its records other than battles are, in record order ("purchase", "non-combat moves",
    #: "placements", "map update", "weapons development").
    kinds: tuple[str, ...] = ()
    #: The record number of its last battle record (0: no battle): its combat is over after it.
    combat_end: int = 0
    #: What its records after its last battle record are, in record order (its non-combat moves,
    #: placements and map update: 2008 Post Combat Orders), each kind once.
    after: tuple[str, ...] = ()


class GameView(msgspec.Struct, frozen=True):
    """The whole analysed game: what ``minister replay`` reports."""

    game_id: str
    edition: str
    title: str | None
    as_rolled: bool
    findings: tuple[Finding, ...]
    battles: tuple[BattleView, ...]
    #: Dice the corrections took from the verifiable source, in the order drawn.
    drawn: tuple[DrawnDice, ...] = ()
    #: The desk's reports, rulings and dice commitments, in record order.
    papers: tuple[Paper, ...] = ()
    #: Each power's treasury and income after the last record (empty: not known).
    treasury: tuple[Purse, ...] = ()
    #: The board as this history's walk moved it (domain.record.board.history: territory -> (record
    #: number, every power's units, holder) after each record that changed it; 0: the start), for
    #: the map at any point of the timeline: battles, non-combat moves, placements, the bid.
    board_history: dict[str, list[tuple[int, dict[str, Force], str | None]]] = msgspec.field(
        default_factory=dict)
    #: (declaration's record number, last record's number) of each battle, as ``battles``.
    board_points: tuple[tuple[int, int], ...] = ()
    #: (record number, what it was: "USSR 1's non-combat moves", "the bid" ...) of each record
    #: other than a battle's that moves the board (where a place on the map was last seen).
    board_records: tuple[tuple[int, str], ...] = ()
    #: Each battle's places and what it did there ("battle", "origin", "zone", "landing",
    #: "retreat"), as ``battles``: the board around a battle is read from the history when shown
    #: (projections.board_map.battle_places), not made for every battle by the review.
    board_roles: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ()
    #: territory -> the record number from which the record lets us know it (0: the start).
    board_known: dict[str, int] = msgspec.field(default_factory=dict)
    #: Turns void under 2008 Section VII (rolled before a reported error was corrected): "the
    #: subsequent turn is void and must be re-done", its moves undone on the board as corrected.
    void_turns: tuple[str, ...] = ()
    #: Every turn with records, in the order its first record came (the timeline's turns).
    turn_records: tuple[TurnRecords, ...] = ()


def counted(number: int, one: str, many: str | None = None) -> str:
    """A count with its noun as people write it: "1 die", "2 dice", "1 hit", "0 hits"."""
    return f"{number} {one if number == 1 else (many or one + 's')}"


def time_text(moment: datetime | None) -> str:
    """A time as findings and papers give it to people: "2008-09-04 09:10 UTC" (its seconds when
    they count: "09:10:12"), never a fraction of a second."""
    if moment is None:
        return "time not known"
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC" if moment.second else "%Y-%m-%d %H:%M UTC")


def awaiting_note(view: BattleView) -> str:
    """"awaiting 2 dice: R1 attacker column 3 (2 ARM)…" for a battle waiting for dice."""
    need = view.needed
    if need is None:
        return ""
    what = need.purpose.removesuffix(": correction")
    units = f" ({need.units})" if need.units else ""
    have = f"; {need.on_hand} already recorded" if need.on_hand else ""
    then = f"; then {need.then}" if need.then else ""
    return f"awaiting {need.count} {'die' if need.count == 1 else 'dice'}: {what}{units}{have}{then}"
