"""What an earlier review of the same game worked out, reused while its inputs are unchanged.

A new report, ruling or dice event changes little of a game: the battle it names, the decisions
it settles, and what those change downstream (later battles on the same board through the
corrected result, the dice the verifiable source gives later corrections, the finding numbers).
:func:`domain.review.game_review.review` given a :class:`ReviewMemo` asks it for each battle's
expensive parts — reading the record, the as-rolled analysis, the rolling audit, the correction
and its impact — under a key made of *every* input of that part (what it reads of the board as a
digest of that, :meth:`ReviewMemo.board_key`); a part whose key is unchanged is reused, any other
is computed afresh. A battle without any finding is reused whole (most battles of a game):
reports and rulings cannot touch it. The bookkeeping of the others
(decisions, finding numbers, flows, void turns) always runs, so an incremental review is the
full review by construction; ``tests/unit/test_review_memo.py`` checks it on random event
sequences (and fails if a new input of the review is not in a key).

A memo belongs to one game's history (its events only grow); keys name records by their place
in that history (turn, territory, declaration and last record numbers).

The dependency rule: what a desk event on battle B makes the review compute again
------------------------------------------------------------------------------------
Each clause is a key below; a part whose key is unchanged is reused, so the rule *is* the keys.

- **A report or a ruling** names findings (or a battle's findings by kind). It decides their fate
  (2008 Section VII; 1999 Part 11: reported in time, ruled by the Minister), so it changes only
  the battles that have findings: a battle without any is reused whole (:meth:`quiet`), and the
  audits (:meth:`audit`: the record, the board, the forces) are reused for the others too; each
  battle with findings is corrected again only if its judged findings changed
  (:meth:`correction`: the decisions are in its key).
- **If the decision changes B's corrected result**, the board changes from B on (rules matrix,
  Consequences: "a corrected battle's result flows into later positions"): the walk of the board
  is keyed by every battle's record and result (:meth:`walk_token`), so the walk and the
  treasury are made again, and of the turn audit (declarations, defenders, order of battles:
  they read the board) the parts the change reaches (by the walk's lineage: see dice below).
  A battle's parts are not keyed by the walk's token but by what the battle reads of the
  board (:meth:`board_key`: what stood in its territory and its origins when it was declared,
  whether the walk knows it, the turn audit's findings on it and whether its intent was clear,
  and the treasury just after it), worked out once per walk (:meth:`boards`): a battle the
  changed result does not reach reads the same board and is reused. If B's result is unchanged,
  the token is unchanged and nothing of the board is read again. Within the corrected history, a
  battle in B's territory also reads B's corrected holder (``flows`` in :meth:`quiet`'s key).
- **Dice supplied or drawn for B** are filed into B's record and end it later (its last record
  number is the dice's: ``record_key``), so B is read and reviewed again, and, since the walk
  places B's result at its last record, the walk's token changes too: the walk and the treasury
  are made again, the walk resumed from an earlier walk at B's old place (:meth:`walk`: the
  steps before it read the same; domain/record/board_resume.py). The new walk is compared once
  with the latest walk before it
  (:meth:`lineage`, domain/review/walk_prefix.py): the record up to which every look at the
  board (and at the purses) reads the same in both. A part that reads the board only before a
  record is keyed by the *name* of the first walk that board belongs to, so it is reused:
  each turn's part of the audit (:meth:`turn_part`: the edition, the stamp, the turn's records
  and the board before its last declaration) and each battle's board key (:meth:`battle_board`:
  its turn's part's key, its record and the treasury before the record after its last). Of the
  game-wide part of the turn audit, Magic 84's count after each round is keyed by the name
  before that round's end and the forfeits by the stamp alone (:meth:`game_part`); the rest
  (weapons development, map updates and counts, bids, the treasury audit: cheap) is made again
  on every new walk. A treasury equal to the earlier walk's takes its purses (most dice events
  leave it so: ``TreasuryWalk.take_caches``). A battle is reviewed again
  only if what it reads of the board changed or its findings were renumbered (their numbers
  are in its correction's key); the others are reused.
- **The turn's findings** (declarations, map, order of battles: :func:`audit_key`) are made
  again whenever an event they read is added (the stamp) or the board before the turn changed
  (the walk's lineage); reports, rulings and dice are not such events.
- **What the game view takes from the records alone** (each battle's places and record numbers,
  the board's record names, each turn's records: :meth:`ReviewMemo.game_parts`) is assembled
  again when a record is added or a battle's last record changes; each battle's roles are made
  again only when its record changed, the board's record names only when the stamp did, each
  turn's records (one sort of every record's number) every time; reports and rulings leave it
  all.

The stored review applies the same rule to its rows: a battle's row is rewritten when its
reviewed view changed (tui/reviewed.py), and the game-level parts (findings, papers, the report
heads) are made again on every refresh (they are small).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, overload

import msgspec

from domain.review.walk_prefix import EVERY, Lineage, descend, name_before, treasury_agrees, walk_agrees

if TYPE_CHECKING:
    from domain.record.board_state import BattleResult, BoardWalk
    from domain.record.game import BattleRecord, Game
    from domain.record.recorded_battle import RecordedBattle
    from domain.record.treasury import TreasuryWalk
    from domain.review.declaration_errors import TurnAudit, TurnPart
    from domain.review.rolling_errors import BattleAudit, Issue
    from domain.review.views import BattleView, Purse

_T = TypeVar("_T")
#: The first item of a lineage's key in the walks table (a walk's key starts with its stamp).
_LINEAGE = "lineage"
#: Deterministic bytes for the walk token (keys survive the process: the memo may be stored).
_TOKEN_ENCODER = msgspec.msgpack.Encoder(order="deterministic")


def record_key(record: BattleRecord) -> tuple[str, str, int, int]:
    """A battle record within one game's history: the same key is the same record."""
    return (record.turn, record.territory, record.declared_seq, record.last_seq)


def audit_key(game: Game) -> tuple[int, int]:
    """The events the turn audit reads: all but reports, rulings and dice for corrections.

    The audit (declarations, map, order of battles, tech) never reads those; so within one
    history, the number of other events filed names the audit's whole input.
    """
    desk = len(game.reports) + len(game.rulings) + sum(
        len(b.supplied) + len(b.draws) for records in (game.battles, game.withdrawn) for b in records)
    return (game.seq - desk, len(game.battles))


class ReviewMemo:
    """Per-battle parts of a game's review, keyed by their inputs (both histories share it)."""

    def __init__(self) -> None:
        #: Walks by (stamp, token), and each walk's :class:`Lineages` by ("lineage", stamp, role,
        #: token): how far it reads as the walks before it (a small table: found by a scan).
        self.walks: dict[Any, Any] = {}
        #: The whole turn audit on one walk (with the keys of its turns' parts), and each turn's
        #: part (:meth:`turn_part`) by ("turn", ...) keys.
        self.turn_audits: dict[Any, Any] = {}
        self.treasuries: dict[tuple[tuple[int, int], str], TreasuryWalk] = {}
        #: Every battle's :meth:`board_key` on one walk, in declaration order (by the history's
        #: stamp and the walk's token): a review on a walk it had before reads no board again.
        #: Each battle's own, by ("battle", ...) keys (:meth:`battle_board`).
        self.board_keys: dict[Any, Any] = {}
        self.reads: dict[tuple[str, str, int, int], tuple[RecordedBattle, BattleView]] = {}
        #: Each read's result as rolled (:func:`~domain.review.board_review.outcomes_of`'s key and
        #: value), by the same key: the board's first walk needs only these, not the reads.
        self.outcomes: dict[tuple[str, str, int, int], tuple[str, BattleResult]] = {}
        self.audits: dict[tuple[Any, ...], BattleAudit] = {}
        self.corrections: dict[tuple[Any, ...], Any] = {}
        #: Battles without findings, whole: (view, flow) by every input of the battle's review.
        self.quiet_battles: dict[tuple[Any, ...], tuple[BattleView, Any]] = {}
        #: What the stored review names a quiet battle's view by (its digest, by the same key as
        #: :attr:`quiet_battles`): a refresh that reuses the view reuses its digest too, without
        #: encoding the view again. Filled and read by the store's side (tui/reviewed.py).
        self.view_digests: dict[tuple[Any, ...], bytes] = {}
        #: The game view's parts made from the records alone (:meth:`game_parts`), by
        #: :func:`audit_key` and the battle records' keys.
        self.game_views: dict[Any, Any] = {}
        #: How many parts were computed and how many reused (for benchmarks and tests).
        self.computed = 0
        self.reused = 0
        self._used: set[tuple[int, Any]] = set()
        #: Whether the parts a review uses are noted (:meth:`prune` needs them). A refresh that
        #: only appends what it added to the stored memo never prunes: it notes none (noting
        #: costs a tuple and a set entry per battle and table; without them, prune keeps all).
        self.track_use = True
        #: The game under review and what every key names it by (:meth:`begin`): worked out once
        #: per review, not once per table (each a pass over every battle of the game).
        self._game: Game | None = None
        self._seq = -1  # the game's record count when its keys were worked out
        self._stamp: tuple[int, int] = (0, 0)
        self._keys: list[tuple[str, str, int, int]] = []
        self._records: bytes = b""
        #: The results as rolled of the last battles asked for (:meth:`rolled_outcomes`).
        self._rolled: tuple[Sequence[BattleRecord], dict[str, BattleResult]] | None = None

    def begin(self, game: Game) -> None:
        """A review of ``game`` begins: its stamp and its battles' keys, worked out once for the
        whole review (the game is not changed while it is reviewed)."""
        if game is self._game and game.seq == self._seq:
            return  # the other history of the same game: the same keys
        self._game, self._seq, self._rolled = game, game.seq, None
        self._stamp = audit_key(game)
        self._keys = [record_key(b) for b in game.battles]
        self._records = _TOKEN_ENCODER.encode(self._keys)

    def _stamp_of(self, game: Game) -> tuple[int, int]:
        return self._stamp if game is self._game else audit_key(game)

    def _records_of(self, game: Game) -> bytes:
        if game is self._game:
            return self._records
        return _TOKEN_ENCODER.encode([record_key(b) for b in game.battles])

    def key_of(self, index: int, record: BattleRecord) -> tuple[str, str, int, int]:
        """:func:`record_key` of the review's ``index``-th battle (``record``), worked out once."""
        keys = self._keys
        if index < len(keys) and self._game is not None and self._game.battles[index] is record:
            return keys[index]
        return record_key(record)

    def stamp(self, game: Game) -> tuple[int, int]:
        """What names the turn audit's input (:func:`audit_key`)."""
        return self._stamp_of(game)

    def quiet(self, key: tuple[Any, ...]) -> tuple[BattleView, Any] | None:
        """A battle reviewed whole before under the same inputs, found without any finding.

        ``key``: the history, the record, the turn audit's stamp and the corrected result
        flowing into its territory. Reports and rulings are not in it:
        they only decide findings, and such a battle has none (its findings come from the
        record, the turn audit and the forces, all in the key).
        """
        if self.track_use:
            self._used.add((id(self.quiet_battles), key))
        found = self.quiet_battles.get(key)
        if found is not None:
            self.reused += 1
        return found

    def keep_quiet(self, key: tuple[Any, ...], battle: tuple[BattleView, Any]) -> None:
        """Remember a battle reviewed without any finding (see :meth:`quiet`)."""
        self.quiet_battles[key] = battle

    def turn_audit(self, game: Game, walk_token: str, make: Callable[[], TurnAudit],
                   parts: Callable[[], Sequence[Any]] = tuple) -> TurnAudit:
        """The game's turn audit on one walk of the board, made again only when an event it
        reads was added or the walk changed (``walk_token``: :meth:`walk_token`); ``parts``:
        the keys of its turns' parts (:meth:`turn_part`), kept with it while it is used."""
        made = self.computed
        found: tuple[TurnAudit, Sequence[Any]] = self._get(
            self.turn_audits, (game.edition, self._stamp_of(game), walk_token), lambda: (make(), parts()))
        if self.computed == made:  # reused whole: its parts are used too (else they were asked)
            self._keep(self.turn_audits, found[1])
        return found[0]

    def turn_part(self, key: tuple[Any, ...], make: Callable[[], TurnPart]) -> TurnPart:
        """One turn's part of the audit; ``key`` (:meth:`turn_keys`) names all it reads."""
        return self._get(self.turn_audits, key, make)

    def game_part(self, game: Game, lineages: Lineages, kind: str, seq: int, make: Callable[[], _T],
                  used: list[Any]) -> _T:
        """A game-wide part of the turn audit: ``kind`` "axis" reads the board before record
        ``seq`` (keyed by the walk's name before it), any other reads only the records other than
        reports, rulings and dice (keyed by the stamp alone). Its key is added to ``used``."""
        stamp = self._stamp_of(game)
        key = ("axis", stamp, name_before(lineages.walk, seq), seq) if kind == "axis" else (kind, stamp)
        used.append(key)
        return self._get(self.turn_audits, key, make)

    def turn_keys(self, game: Game, lineages: Lineages) -> dict[str, tuple[Any, ...]]:
        """What names each turn's part of the audit (declaration_errors.audit_turn): the edition,
        the history's stamp (the other records, the last known holdings), the turn, its battles'
        records (their keys, in declaration order) and the board before its last declaration
        (:func:`~domain.review.walk_prefix.name_before`: it looks at no later record)."""
        by_turn: dict[str, list[tuple[str, str, int, int]]] = {}
        for index, record in enumerate(game.battles):
            by_turn.setdefault(record.turn, []).append(self.key_of(index, record))
        head = ("turn", game.edition, self._stamp_of(game))
        walk = lineages.walk
        return {turn: (*head, turn, tuple(keys), name_before(walk, max(key[2] for key in keys)))
                for turn, keys in by_turn.items()}

    def lineage(self, game: Game, role: int, walk_token: str, walk: BoardWalk,
                treasury: TreasuryWalk) -> Lineages | None:
        """How far the walk ``walk_token`` names (and its treasury) reads as the walks before it
        (:mod:`domain.review.walk_prefix`): compared once with the latest earlier walk of the
        same ``role`` (0: as rolled, then each walk as corrected) and the same stamp."""
        stamp = self._stamp_of(game)
        key = (_LINEAGE, stamp, role, walk_token)
        self._used.add((id(self.walks), key))
        found: Lineages | None = self.walks.get(key)
        if found is not None:
            return found
        parent: tuple[str, Lineages] | None = None
        for other, value in self.walks.items():
            if len(other) == 4 and other[0] == _LINEAGE and other[1] == stamp and other[2] == role \
                    and (parent is None or value.seq > parent[1].seq) \
                    and (stamp, other[3]) in self.walks and (stamp, other[3]) in self.treasuries:
                parent = (other[3], value)
        if parent is None:
            found = Lineages(game.seq, descend(None, 0, walk_token), descend(None, 0, walk_token))
        else:
            token, earlier = parent
            agrees = walk_agrees(self.walks[(stamp, token)], walk)
            earlier_money = self.treasuries[(stamp, token)]
            # The same treasury (most dice events): its purses need not be made again either, and
            # the memo keeps the earlier one under both tokens (stored once: memo_codec).
            same = treasury.take_caches(earlier_money)
            if same:
                self.treasuries[(stamp, walk_token)] = earlier_money
            money = EVERY if same else treasury_agrees(earlier_money, treasury)
            found = Lineages(game.seq, descend(earlier.walk, agrees, walk_token),
                             descend(earlier.treasury, money, walk_token))
        self.walks[key] = found
        return found

    def treasury(self, game: Game, walk_token: str,
                 make: Callable[[Sequence[TreasuryWalk] | None], TreasuryWalk]) -> TreasuryWalk:
        """Each power's IPCs on one walk of the board: made from the records :func:`audit_key`
        counts and the walk (``walk_token``), so made again only when one of them changed;
        ``make`` is given the treasuries of the same stamp this memo holds, to resume one from
        the first record whose step reads something new (domain.record.treasury_resume)."""
        stamp = self._stamp_of(game)
        # The treasuries of the walks a new walk may resume from (read back through ``[]``: a
        # stored memo's table holds parts not read yet, application/adapters/memo_codec.py).
        treasuries = self.treasuries
        return self._get(treasuries, (stamp, walk_token), lambda: make(
            [treasuries[key] for key in self._resumable() if key[0] == stamp and key in treasuries]))

    def game_parts(self, game: Game, make: Callable[[Callable[[BattleRecord], Any], Any], _T],
                   records: Callable[[Game], Any], roles: Callable[[BattleRecord], Any]) -> _T:
        """The game view's parts made from the records alone (both histories and every walk
        share them): made again only when a record other than a report, ruling or dice was
        added (:func:`audit_key`) or a battle's records changed (their keys). Then each battle's
        roles are made again only for a battle whose record changed (by its key), and the board's
        record names (``records``) only when the stamp did: ``make(roles, board_records)``."""
        digest = hashlib.blake2b(self._records_of(game), digest_size=16)
        stamp = self._stamp_of(game)
        def made() -> _T:
            def role_of(record: BattleRecord) -> Any:
                return self._get(self.game_views, ("roles", record_key(record)), lambda: roles(record))
            return make(role_of, self._get(self.game_views, ("board_records", stamp), lambda: records(game)))

        before = self.computed
        found = self._get(self.game_views, (stamp, digest.hexdigest()), made)
        if self.computed == before and self.track_use:  # reused whole: its parts are used too
            self._used.add((id(self.game_views), ("board_records", stamp)))
            self._keep(self.game_views, [("roles", key) for key in self._keys] if game is self._game
                       else [("roles", record_key(b)) for b in game.battles])
        return found

    def walk(self, game: Game, walk_token: str,
             make: Callable[[Sequence[BoardWalk] | None], BoardWalk]) -> BoardWalk:
        """A walk of the board (``walk_token``: its results, :meth:`walk_token`), made again only
        when an event it reads was added or a result changed; ``make`` is given the walks this
        memo holds, to resume one from where its steps read something new (dice added to a
        battle move its result: domain.record.board_resume)."""
        key = (self._stamp_of(game), walk_token)
        if self.track_use:
            self._used.add((id(self.walks), key))
        found: BoardWalk | None = self.walks.get(key)
        if found is not None:
            self.reused += 1
            return found
        self.computed += 1
        made = self.walks[key] = make([self.walks[name] for name in self._resumable()])
        return made

    def _resumable(self) -> list[Any]:
        """The keys of the walks a new walk may resume from: the latest walk of each role (by
        their lineages, the latest walk of a role is the next one's parent), or every walk when
        none has a lineage. A stored memo reads a walk back only when asked for (memo_codec):
        the walks the dice events since it was written whole superseded are not read."""
        walks = self.walks
        latest: dict[Any, tuple[int, Any]] = {}
        for name, value in dict.items(walks):
            if name[0] == _LINEAGE and (name[1], name[3]) in walks:
                role = name[2]
                if role not in latest or value.seq > latest[role][0]:
                    latest[role] = (value.seq, (name[1], name[3]))
        if latest:
            return list(dict.fromkeys(found for _, found in latest.values()))
        # (The table also keeps each walk's lineage, under keys of their own: not walks.)
        return [name for name in walks if name[0] != _LINEAGE]

    def walk_token(self, game: Game, outcomes: Mapping[str, BattleResult],
                   rolled: Mapping[str, BattleResult] | None) -> str:
        """What names a walk of the board within one history, the same in every process: the
        battle records (their places in the history) and the results it moves the board by
        (``rolled``: the results as rolled too, for a walk as corrected). With
        :func:`audit_key` (the other records) these are every input of the walk."""
        digest = hashlib.blake2b(self._records_of(game), digest_size=16)
        digest.update(_TOKEN_ENCODER.encode(sorted(outcomes.items())))
        if rolled is not None:
            digest.update(_TOKEN_ENCODER.encode(sorted(rolled.items())))
        return digest.hexdigest()

    def boards(self, stamp: tuple[int, int], walk_token: str,
               make: Callable[[], tuple[tuple[bytes, ...], Sequence[Any]]]) -> Sequence[bytes]:
        """Every battle's :meth:`board_key` on the walk ``walk_token`` names: made from the
        records (their keys are in the token), the walk, the turn audit and the treasury, all
        keyed by ``stamp`` (:meth:`stamp`) and the token; ``make`` gives the keys and the keys
        each was made under (:meth:`battle_board`), kept with them while they are used."""
        made = self.computed
        found: tuple[tuple[bytes, ...], Sequence[Any]] = self._get(self.board_keys, (stamp, walk_token), make)
        if self.computed == made:  # reused whole: its parts are used too (else they were asked)
            self._keep(self.board_keys, found[1])
        return found[0]

    def battle_board(self, key: tuple[Any, ...], make: Callable[[], bytes]) -> bytes:
        """One battle's :meth:`board_key`, by ``key``: the turn's part's key (:meth:`turn_keys`:
        its record, its turn's findings and the board before its declaration), the battle's
        record and the treasury before the record after its last (``name_before`` the treasury's
        lineage): all it reads."""
        return self._get(self.board_keys, key, make)

    def board_key(self, record: BattleRecord, known: bool, found: Sequence[Issue], intent_clear: bool,
                  purses: Sequence[Purse]) -> bytes:
        """What a battle reads of the board, the same in every process: the places its
        declaration checks (``record`` as :func:`~domain.review.board_review.on_board` gives it:
        what stood in its territory and its origins when it was declared, and whether the walk
        knows it), the turn audit's findings on it and whether its intent was clear, and the
        treasury just after it. With the record's own key, the history's stamp and the holder
        flowing into its territory, these are every input of the battle's parts that the walk of
        the board gives; a walk made again by another battle's new result or last record leaves
        them, and so the battle, as they were unless they changed."""
        digest = hashlib.blake2b(digest_size=16)
        digest.update(_TOKEN_ENCODER.encode((
            record.position, record.available, record.defenders_known, known,
            [(i.kind, i.detail, i.round, i.side, i.column, i.at, i.effective, i.hits, i.until)
             for i in found], intent_clear, purses)))
        return digest.digest()

    def read(self, record: BattleRecord,
             make: Callable[[], tuple[RecordedBattle, BattleView]]) -> tuple[RecordedBattle, BattleView]:
        """The record read into rounds and analysed as rolled."""
        return self._get(self.reads, record_key(record), make)

    def reads_of(self, records: Sequence[BattleRecord],
                 make: Callable[[BattleRecord], tuple[RecordedBattle, BattleView]]) -> Reads:
        """Every battle's record read and analysed as rolled (:meth:`read`), each only when
        asked for: a battle the review reuses whole never needs its read."""
        return Reads(self, records, make)

    def rolled_outcomes(self, reads: Reads) -> dict[str, BattleResult]:
        """The result as rolled of every battle (:func:`~domain.review.board_review.outcomes_of`
        of the reads), each read again only when its record is new."""
        from domain.review.board_review import outcomes_of

        if self._rolled is not None and self._rolled[0] is reads.records and \
                len(self._rolled[1]) == len(reads.records):
            return self._rolled[1]  # the other history of the same game: the same results
        found: dict[str, BattleResult] = {}
        track, used = self.track_use, self._used
        for index, record in enumerate(reads.records):
            key = self.key_of(index, record)
            if track:
                used.add((id(self.outcomes), key))
            known = self.outcomes.get(key)
            if known is None:
                known = next(iter(outcomes_of([reads[index][1]]).items()))
                self.outcomes[key] = known
            elif track:
                used.add((id(self.reads), key))  # the read stays with its outcome
            found[known[0]] = known[1]
        self._rolled = (reads.records, found)
        return found

    def audit(self, key: tuple[Any, ...], make: Callable[[], BattleAudit]) -> BattleAudit:
        """A rolling audit (``key``: the record's key, the edition and both forces)."""
        return self._get(self.audits, key, make)

    def correction(self, key: tuple[Any, ...], make: Callable[[], _T]) -> _T:
        """A battle's correction and its impact (``key``: every input of the correction)."""
        return self._get(self.corrections, key, make)

    def prune(self) -> None:
        """Forget the parts no review used since the last prune (superseded by newer events);
        nothing when the use was not noted (:attr:`track_use`)."""
        if not self.track_use:
            return
        for table in (self.walks, self.turn_audits, self.treasuries, self.board_keys, self.reads,
                      self.outcomes, self.audits, self.corrections, self.quiet_battles,
                      self.game_views):
            for key in [key for key in table if (id(table), key) not in self._used]:
                del table[key]
        for key in [key for key in self.view_digests if key not in self.quiet_battles]:
            del self.view_digests[key]
        self._used.clear()

    def _keep(self, table: dict[Any, Any], keys: Sequence[Any]) -> None:
        """The parts under ``keys`` are used (a whole made of them was reused)."""
        if not self.track_use:
            return
        used, name = self._used, id(table)
        for key in keys:
            used.add((name, key))

    def _get(self, table: dict[Any, Any], key: Any, make: Callable[[], _T]) -> _T:
        if self.track_use:
            self._used.add((id(table), key))
        found: _T | None = table.get(key)
        if found is not None:
            self.reused += 1
            return found
        self.computed += 1
        found = make()
        table[key] = found
        return found


@dataclass(frozen=True)
class Lineages:
    """A walk's lineage and its treasury's (:mod:`domain.review.walk_prefix`), and the game's
    record count when they were made (the latest walk of a role is the next one's parent)."""

    seq: int
    walk: Lineage
    treasury: Lineage


class Reads(Sequence[tuple["RecordedBattle", "BattleView"]]):
    """The battles' reads, each made (or taken from the memo) when first asked for."""

    def __init__(self, memo: ReviewMemo, records: Sequence[BattleRecord],
                 make: Callable[[BattleRecord], tuple[RecordedBattle, BattleView]]) -> None:
        self.memo, self.records, self.make = memo, records, make
        self.made: dict[int, tuple[RecordedBattle, BattleView]] = {}

    @overload
    def __getitem__(self, index: int) -> tuple[RecordedBattle, BattleView]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[RecordedBattle, BattleView]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self.records))[index]]
        found = self.made.get(index)
        if found is None:
            record = self.records[index]
            found = self.memo.read(record, lambda: self.make(record))
            self.made[index] = found
        return found

    def __len__(self) -> int:
        return len(self.records)


class NoMemo(ReviewMemo):
    """Every part computed afresh (a review without a memo)."""

    def begin(self, game: Game) -> None:
        """Nothing to work out: nothing is reused."""

    def stamp(self, game: Game) -> tuple[int, int]:
        """Not needed: nothing is reused."""
        return (0, 0)

    def quiet(self, key: tuple[Any, ...]) -> tuple[BattleView, Any] | None:
        """Never anything."""
        return None

    def keep_quiet(self, key: tuple[Any, ...], battle: tuple[BattleView, Any]) -> None:
        """Nothing kept."""

    def walk_token(self, game: Game, outcomes: Mapping[str, BattleResult],
                   rolled: Mapping[str, BattleResult] | None) -> str:
        """Not needed: nothing is reused."""
        return ""

    def game_parts(self, game: Game, make: Callable[[Callable[[BattleRecord], Any], Any], _T],
                   records: Callable[[Game], Any], roles: Callable[[BattleRecord], Any]) -> _T:
        """Made afresh (no key worked out)."""
        return make(roles, records(game))

    def lineage(self, game: Game, role: int, walk_token: str, walk: BoardWalk,
                treasury: TreasuryWalk) -> Lineages | None:
        """None: no part is keyed by it (nothing is reused)."""
        return None

    def walk(self, game: Game, walk_token: str,
             make: Callable[[Sequence[BoardWalk] | None], BoardWalk]) -> BoardWalk:
        """Walked from the start (no earlier walk kept)."""
        return make(None)  # (no memo: no later walk resumes it)

    def treasury(self, game: Game, walk_token: str,
                 make: Callable[[Sequence[TreasuryWalk] | None], TreasuryWalk]) -> TreasuryWalk:
        """Walked from the start (no earlier treasury kept)."""
        return make(None)  # (no memo: no later treasury resumes it)

    def boards(self, stamp: tuple[int, int], walk_token: str,
               make: Callable[[], tuple[tuple[bytes, ...], Sequence[Any]]]) -> Sequence[bytes]:
        """Not needed (nothing is reused): an empty key for every battle."""
        return _NoKeys()

    def read(self, record: BattleRecord,
             make: Callable[[], tuple[RecordedBattle, BattleView]]) -> tuple[RecordedBattle, BattleView]:
        """Made afresh (no key to work out: nothing is reused)."""
        return make()

    def rolled_outcomes(self, reads: Reads) -> dict[str, BattleResult]:
        """Every read made (each once: :class:`Reads` keeps them for the review)."""
        from domain.review.board_review import outcomes_of

        return outcomes_of(reads[index][1] for index in range(len(reads)))

    def _get(self, table: dict[Any, Any], key: Any, make: Callable[[], _T]) -> _T:
        return make()


class _NoKeys(Sequence[bytes]):
    """An empty board key for every battle (:meth:`NoMemo.boards`)."""

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[bytes]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return b"" if isinstance(index, int) else []

    def __len__(self) -> int:
        return 0
