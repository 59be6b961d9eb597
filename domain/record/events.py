"""The Game's domain events: one frozen msgspec Struct per kind of record, with explicit topics.

Every declaration, die roll, correction request and ruling is recorded as one of these and never
changed. Topics are explicit strings ("minister/Roll@1"), not module paths, so stored events
survive renames and moves of the code. ``at`` is when the thing happened in the game (the
record's RFC 3339 time); ``timestamp`` is when minister stored it. ``source_line`` remembers the
line of the replay file the event came from, so an error found later can still name it.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar
from uuid import UUID, uuid5

import msgspec

from domain.notation.battle_log import BattleLog
from domain.notation.special_orders import SpecialOrders
from domain.rules.forces import Force

#: Game ids are strings chosen by people ("part14-east-europe"); aggregates use a UUID derived
#: from it, so the same game always gets the same aggregate id in every store.
GAME_NAMESPACE = UUID("8b0a1f6e-3c55-4a8e-9d6b-6d1f4e0f2a11")


def game_uuid(game_id: str) -> UUID:
    """The aggregate id of the game called ``game_id``."""
    return uuid5(GAME_NAMESPACE, game_id)


class GameEvent(msgspec.Struct, frozen=True, kw_only=True):
    """Fields every event has; subclasses add the record's own fields."""

    TOPIC: ClassVar[str] = "minister/GameEvent@1"

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    at: datetime | None = None
    source_line: int | None = None
    #: Hash chain link (application/adapters/integrity.py): sha256 over the previous event's link and
    #: this event's canonical encoding without it; set by the store when the event is recorded.
    chain: str | None = None


class GameStarted(GameEvent, frozen=True, kw_only=True):
    """A game record begins: its id, edition and the commitment of its verifiable dice."""

    TOPIC: ClassVar[str] = "minister/GameStarted@1"
    game_id: str
    edition: str
    title: str | None = None
    #: The seed of the verifiable dice source (revealed: a replay file states it).
    dice_seed: str | None = None
    #: sha256 commitment of the seed, published before any die is drawn.
    dice_commitment: str | None = None
    #: The dice server's game number (rolls naming another game are a finding).
    game_number: str | None = None


class Holding(msgspec.Struct, frozen=True):
    """One line of a map update: a power's units in a territory (canonical name)."""

    power: str
    territory: str
    units: Force
    written: str = ""


class PositionRecorded(GameEvent, frozen=True, kw_only=True):
    """A map update: replaces the named holdings."""

    TOPIC: ClassVar[str] = "minister/PositionRecorded@1"
    holdings: tuple[Holding, ...]


class Move(msgspec.Struct, frozen=True):
    """One declared move into a battle: origin (canonical), units, transport details."""

    origin: str
    units: Force
    transports: int = 0
    transport_zone: str | None = None
    unload_zone: str | None = None
    landing: str | None = None
    line: int | None = None
    raw: str = ""


class BattleFacts(msgspec.Struct, frozen=True):
    """A declared battle as read when the declaration was recorded (names resolved)."""

    territory: str
    written: str
    number: int | None
    defenders: Force | None
    moves: tuple[Move, ...]
    line: int | None = None
    typos: tuple[str, ...] = ()


class DeclarationRecorded(GameEvent, frozen=True, kw_only=True):
    """A power's pre-combat orders for a turn ("USSR 3"), in IAAPA notation.

    ``battles`` is the text read once, when it was recorded, so rebuilding the game never
    re-parses it; ``text`` stays the evidence.
    """

    TOPIC: ClassVar[str] = "minister/DeclarationRecorded@1"
    turn: str
    text: str
    battles: tuple[BattleFacts, ...] = ()


class OrdersRecorded(GameEvent, frozen=True, kw_only=True):
    """Special orders for one side of a battle (order of loss, retreat conditions, …)."""

    TOPIC: ClassVar[str] = "minister/OrdersRecorded@1"
    #: The battle territory, resolved when recorded (canonical name).
    territory: str = ""
    turn: str
    battle: str
    side: str
    text: str
    #: ``text`` read when recorded, so the review never parses it (None in events stored
    #: before it was kept: the fold reads the text then).
    parsed: SpecialOrders | None = None


class RollRecorded(GameEvent, frozen=True, kw_only=True):
    """One dice-server record: a run of lines of a battle log, with its header fields."""

    TOPIC: ClassVar[str] = "minister/RollRecorded@1"
    #: The battle territory, resolved when recorded (canonical name).
    territory: str = ""
    battle: str
    log: str
    game_number: str | None = None
    turn_number: int | None = None
    round_number: int | None = None
    country: str | None = None
    #: ``log`` read when recorded, so the review never parses it (None in events stored before
    #: it was kept: the fold reads the log then). Stored as read (:meth:`BattleLog.as_read`):
    #: each line's text is in ``log``, not repeated here (older events repeat it; both fold alike).
    parsed: BattleLog | None = None


class CasualtiesChosen(GameEvent, frozen=True, kw_only=True):
    """Casualties a side chose for a round where the rules let it choose."""

    TOPIC: ClassVar[str] = "minister/CasualtiesChosen@1"
    #: The battle territory, resolved when recorded (canonical name).
    territory: str = ""
    battle: str
    round: int
    side: str
    units: Force


class RetreatDeclared(GameEvent, frozen=True, kw_only=True):
    """The attacker's retreat after a round, to a territory or sea zone."""

    TOPIC: ClassVar[str] = "minister/RetreatDeclared@1"
    #: The battle territory, resolved when recorded (canonical name).
    territory: str = ""
    battle: str
    after_round: int
    to: str


class ReportFiled(GameEvent, frozen=True, kw_only=True):
    """A correction request: its time decides whether the error is still correctable."""

    TOPIC: ClassVar[str] = "minister/ReportFiled@1"
    by: str
    text: str
    battle: str | None = None
    #: The battle's turn, when the record names it ("UK 3"): a territory alone is ambiguous when
    #: two battles of the game were fought there (domain.record.references).
    turn: str | None = None


class RulingIssued(GameEvent, frozen=True, kw_only=True):
    """A decision on a finding, by the Minister of Law or by mutual agreement."""

    TOPIC: ClassVar[str] = "minister/RulingIssued@1"
    finding: str
    decision: str
    election: str | None = None
    text: str = ""
    #: The finding's turn and battle, when the ruling names them (they narrow ``finding``).
    turn: str | None = None
    battle: str | None = None
    #: The identity of the finding ``finding`` named when the ruling was made (views.finding_key):
    #: the ruling stays on it whatever findings are added or renumbered later. None: a record
    #: made before identities were kept (it is read by ``finding`` as it then stood).
    finding_key: str | None = None


class DiceSupplied(GameEvent, frozen=True, kw_only=True):
    """Dice rolled for a correction or re-roll, consumed in the order the correction needs."""

    TOPIC: ClassVar[str] = "minister/DiceSupplied@1"
    #: The battle territory, resolved when recorded (canonical name).
    territory: str = ""
    battle: str
    dice: tuple[int, ...]
    written: str = ""
    #: The battle's turn, when the record names it ("UK 3"): a territory alone is ambiguous when
    #: two battles of the game were fought there (domain.record.references).
    turn: str | None = None


class DiceDrawn(GameEvent, frozen=True, kw_only=True):
    """Dice the verifiable source drew for a battle (sequence number, purpose, faces)."""

    TOPIC: ClassVar[str] = "minister/DiceDrawn@1"
    #: The battle territory, resolved when recorded (canonical name).
    territory: str = ""
    battle: str
    sequence: int
    purpose: str
    dice: tuple[int, ...]
    #: The battle's turn, when the record names it ("UK 3"): a territory alone is ambiguous when
    #: two battles of the game were fought there (domain.record.references).
    turn: str | None = None


class TechRolled(GameEvent, frozen=True, kw_only=True):
    """Weapons-development dice rolled for a turn (an extension of format 1: ``type = "tech"``).

    ``declared`` is the number of dice the declaration bought (None: none was sent, so the
    number rolled is the number bought, 2008 Section IV); ``ipcs`` what the power had to spend.
    """

    TOPIC: ClassVar[str] = "minister/TechRolled@1"
    turn: str
    dice: tuple[int, ...]
    declared: int | None = None
    ipcs: int | None = None


class NonCombatRecorded(GameEvent, frozen=True, kw_only=True):
    """A power's listed non-combat moves (an extension of format 1: ``type = "noncombat"``).

    Each move is "Origin units to Destination"; ``parsed`` holds them read when recorded.
    A record whose moves state their routes is version 2, :class:`NonCombatRouted`.
    """

    TOPIC: ClassVar[str] = "minister/NonCombatRecorded@1"
    turn: str
    moves: tuple[str, ...]
    parsed: tuple[Move, ...] = ()


class NonCombatRouted(GameEvent, frozen=True, kw_only=True):
    """Version 2 of the non-combat record (``type = "noncombat"``): the same moves, some of
    which state the spaces they pass through, in order ("Kar 2 INF via Karelia SZ to Norway";
    ``routes`` holds each move's, canonical, empty where a move states none).

    It is written only when a move states a route: a record without one is still version 1
    (:class:`NonCombatRecorded`), byte for byte, so its hash-chain link and an export's
    ``[integrity]`` head stay what they were; a reader that knows only version 1 refuses this
    topic rather than drop the routes unseen.
    """

    TOPIC: ClassVar[str] = "minister/NonCombatRecorded@2"
    turn: str
    moves: tuple[str, ...]
    parsed: tuple[Move, ...] = ()
    routes: tuple[tuple[str, ...], ...] = ()


class GameSnapshot(GameEvent, frozen=True, kw_only=True):
    """A snapshot of the Game's state at ``originator_version`` (msgspec-encoded)."""

    TOPIC: ClassVar[str] = "minister/GameSnapshot@1"
    state: bytes
    topic: str = "minister/Game@1"


# -- the Minister of Law's desk ----------------------------------------------------------------
class DiceCommitted(GameEvent, frozen=True, kw_only=True):
    """The Minister's commitment to a secret, recorded before any die is drawn from it.

    Only the hash is recorded: the secret stays in the Minister's key file until
    :class:`DiceRevealed` (``minister-dice/2``, :mod:`domain.battle.dice`).
    """

    TOPIC: ClassVar[str] = "minister/DiceCommitted@1"
    commitment: str
    scheme: str = "minister-dice/2"
    by: str = ""


class DiceRevealed(GameEvent, frozen=True, kw_only=True):
    """The secret behind a commitment, revealed once its dice are drawn: every die can be checked."""

    TOPIC: ClassVar[str] = "minister/DiceRevealed@1"
    commitment: str
    secret: str


class ReportAmended(GameEvent, frozen=True, kw_only=True):
    """A report restated: ``amends`` is the version of the report it replaces (history kept)."""

    TOPIC: ClassVar[str] = "minister/ReportAmended@1"
    amends: int
    by: str
    text: str
    battle: str | None = None
    #: The battle's turn, when the record names it ("UK 3"): a territory alone is ambiguous when
    #: two battles of the game were fought there (domain.record.references).
    turn: str | None = None


class RulingGiven(GameEvent, frozen=True, kw_only=True):
    """A ruling or election with who gave it; ``amends`` names the ruling it replaces, if any."""

    TOPIC: ClassVar[str] = "minister/RulingGiven@1"
    finding: str
    decision: str
    election: str | None = None
    by: str = ""
    text: str = ""
    amends: int | None = None
    #: The finding's turn and battle, when the ruling names them (they narrow ``finding``).
    turn: str | None = None
    battle: str | None = None
    #: The identity of the finding ``finding`` named when the ruling was made (views.finding_key):
    #: the ruling stays on it whatever findings are added or renumbered later. None: a record
    #: made before identities were kept (it is read by ``finding`` as it then stood).
    finding_key: str | None = None


class EntryWithdrawn(GameEvent, frozen=True, kw_only=True):
    """A report or ruling withdrawn: ``withdraws`` is its event version (history kept)."""

    TOPIC: ClassVar[str] = "minister/EntryWithdrawn@1"
    withdraws: int
    by: str = ""
    text: str = ""


# -- the board moving on (extensions of format 1: docs/format-extensions.md) -----------------
class Placed(msgspec.Struct, frozen=True):
    """Units put on the board in one territory or sea zone (canonical name)."""

    territory: str
    units: Force
    raw: str = ""


class PurchaseRecorded(GameEvent, frozen=True, kw_only=True):
    """A power's purchase for a turn (``type = "purchase"``): units bought, placed later."""

    TOPIC: ClassVar[str] = "minister/PurchaseRecorded@1"
    turn: str
    units: str
    #: The IPCs the power had to spend, when the record states them.
    ipcs: int | None = None
    parsed: Force | None = None


class PlacementRecorded(GameEvent, frozen=True, kw_only=True):
    """Where a power placed its new units (``type = "placement"``): "Germany 3 INF"."""

    TOPIC: ClassVar[str] = "minister/PlacementRecorded@1"
    turn: str
    place: tuple[str, ...]
    parsed: tuple[Placed, ...] = ()


class MapCount(msgspec.Struct, frozen=True):
    """A territory and IPC count as Post Combat Orders write it: "UK 30/$32"."""

    power: str
    territories: int
    ipcs: int
    written: str = ""


class MapFacts(msgspec.Struct, frozen=True):
    """A map update read when recorded: its holdings and its count."""

    holdings: tuple[Holding, ...] = ()
    count: MapCount | None = None


class MapUpdateRecorded(GameEvent, frozen=True, kw_only=True):
    """A power's map update and territory/IPC count after its turn (``type = "map_update"``).

    A checkpoint: it is compared with the board as the record moved it, never copied onto it
    (2008 Post Combat Orders; Section V: the non-combat moves take precedence).
    """

    TOPIC: ClassVar[str] = "minister/MapUpdateRecorded@1"
    turn: str
    units: tuple[str, ...] = ()
    count: str = ""
    parsed: MapFacts | None = None


class BidFacts(msgspec.Struct, frozen=True):
    """A bid read when recorded: units added, units removed, extra IPCs per power."""

    add: tuple[Holding, ...] = ()
    remove: tuple[Holding, ...] = ()
    ipcs: tuple[tuple[str, int], ...] = ()


class BidRecorded(GameEvent, frozen=True, kw_only=True):
    """The winning bid placed before the first USSR turn (``type = "bid"``, 2008 Bidding)."""

    TOPIC: ClassVar[str] = "minister/BidRecorded@1"
    #: The bid total ("Your Bid (IPC Total Value)"), when stated.
    total: int | None = None
    units: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    ipcs: tuple[str, ...] = ()
    parsed: BidFacts | None = None


class GameFinished(GameEvent, frozen=True, kw_only=True):
    """A game finish or annulment as posted (``type = "finish"``; 2008 Game Completion,
    Forfeits and Annulments): ``result`` is "Axis", "Allies" or "annulled"."""

    TOPIC: ClassVar[str] = "minister/GameFinished@1"
    result: str
    by: str
    text: str = ""


# -- what else a real game records (extensions of format 1: docs/format-extensions.md) --------
class BombingRecorded(GameEvent, frozen=True, kw_only=True):
    """A strategic bombing raid (``type = "bombing"``): the dice of the bombers that reached the
    industrial complex in ``target``; its holder loses that many IPCs (domain.record.ipc_changes)."""

    TOPIC: ClassVar[str] = "minister/BombingRecorded@1"
    turn: str
    target: str
    dice: tuple[int, ...]
    text: str = ""
    #: ``target`` resolved when recorded (canonical name).
    territory: str = ""


class RocketFired(GameEvent, frozen=True, kw_only=True):
    """A rocket shot (``type = "rocket"``, Rocket Technology): an AA gun in ``launcher`` fires one
    die at the industrial complex in ``target``; its holder loses that many IPCs."""

    TOPIC: ClassVar[str] = "minister/RocketFired@1"
    turn: str
    launcher: str
    target: str
    dice: tuple[int, ...]
    text: str = ""
    #: ``target`` resolved when recorded (canonical name).
    territory: str = ""


class NeutralEntered(GameEvent, frozen=True, kw_only=True):
    """IPCs paid to enter a neutral territory (``type = "neutral"``)."""

    TOPIC: ClassVar[str] = "minister/NeutralEntered@1"
    turn: str
    neutral: str
    text: str = ""
    #: ``neutral`` resolved when recorded (canonical name).
    territory: str = ""


class ForfeitRequested(GameEvent, frozen=True, kw_only=True):
    """A forfeit request (``type = "forfeit_request"``, 2008 Forfeits): ``by`` asks the Minister
    of Law for a forfeit victory over a player who has not submitted his turn."""

    TOPIC: ClassVar[str] = "minister/ForfeitRequested@1"
    by: str
    text: str


class ForfeitDecided(GameEvent, frozen=True, kw_only=True):
    """The Minister of Law's answer to the last forfeit request (``type = "forfeit_decision"``):
    ``decision`` is "approved" (the game is closed) or "not_approved" (it goes on)."""

    TOPIC: ClassVar[str] = "minister/ForfeitDecided@1"
    decision: str
    by: str = ""
    text: str = ""


class GameConceded(GameEvent, frozen=True, kw_only=True):
    """A player concedes (``type = "concession"``): the game is over, won by the other side."""

    TOPIC: ClassVar[str] = "minister/GameConceded@1"
    by: str
    text: str = ""


RECORD_EVENTS: tuple[type[GameEvent], ...] = (
    GameStarted, PositionRecorded, DeclarationRecorded, OrdersRecorded, RollRecorded,
    CasualtiesChosen, RetreatDeclared, ReportFiled, RulingIssued, DiceSupplied, DiceDrawn,
    TechRolled, NonCombatRecorded, NonCombatRouted, DiceCommitted, DiceRevealed, ReportAmended,
    RulingGiven, EntryWithdrawn, PurchaseRecorded, PlacementRecorded, MapUpdateRecorded, BidRecorded,
    GameFinished, BombingRecorded, RocketFired, NeutralEntered, ForfeitRequested, ForfeitDecided,
    GameConceded,
)

#: Topic -> event class, for the mapper. Old topics stay here when an event is renamed.
_ALL_EVENTS: tuple[type[GameEvent], ...] = (*RECORD_EVENTS, GameSnapshot)
TOPICS: dict[str, type[GameEvent]] = {cls.TOPIC: cls for cls in _ALL_EVENTS}

AnyRecordEvent = (GameStarted | PositionRecorded | DeclarationRecorded | OrdersRecorded
                  | RollRecorded | CasualtiesChosen | RetreatDeclared | ReportFiled
                  | RulingIssued | DiceSupplied | DiceDrawn | TechRolled
                  | NonCombatRecorded | NonCombatRouted | DiceCommitted | DiceRevealed | ReportAmended
                  | RulingGiven | EntryWithdrawn | PurchaseRecorded | PlacementRecorded
                  | MapUpdateRecorded | BidRecorded | GameFinished | BombingRecorded | RocketFired
                  | NeutralEntered | ForfeitRequested | ForfeitDecided | GameConceded)
