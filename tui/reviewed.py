"""A stored game's review and reports, kept in the store so opening a game does not review it.

What the commands and the timeline show of a stored game is made when its events are recorded
(``minister import``, ``report``, ``rule``, ``roll``) and kept in the store
(:mod:`application.adapters.review_store`), cut where a refresh can leave most of it alone:

- one row per reviewed battle and history: the battle's msgpack view and its JSON and text
  report fragments, with a digest of the view (every input of those fragments);
- per history, the game-level part (:data:`VIEW_CORRECTED` ...'s bytes around the battles, the
  findings, papers and treasury, the report heads) with the digests of its battle rows; the
  opening part the timeline paints first (a count of battles and its own head); the review memo.

A refresh after a new event reviews the game with the stored memo (only the battles whose inputs
changed are reviewed again: :mod:`domain.review.memo` states the rule), then renders and writes
only the battle rows whose digest changed and the small game-level parts. A reader puts the rows
back together: the bytes are those of encoding the whole view or report
(``tests/integration/test_stored_rows.py``). When anything is missing or stale (newer events, a
new engine or layout), the game is reviewed afresh and stored again.

This lives in ``tui/`` because it is the one layer that sees both the store (application) and
the reports (projections).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from application.adapters.review_store import (
    MAX_CHUNKS,
    Chunks,
    ChunkWrite,
    battle_digests,
    chunk_kinds,
    head_of,
    load,
    load_chunks,
    load_latest,
    load_named,
    load_parts,
    save,
    stored_kinds,
)
from application.adapters.review_tables import BattleRow, Head, HistoryRows
from application.adapters.timetravel import no_gc
from domain.review.views import BattleView, GameView
from domain.rules.forces import Force

if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication
    from domain.record.game import Game
    from domain.review.memo import ReviewMemo

_VIEW = msgspec.msgpack.Decoder(GameView)
_ENCODER = msgspec.msgpack.Encoder()
#: What a reader asks for (``view:*`` are msgpack GameViews; ``json``/``text`` the reports).
VIEW_CORRECTED, VIEW_AS_ROLLED, VIEW_OPENING = "view:corrected", "view:as_rolled", "view:opening"
#: Every product a reader can ask for (:func:`stored`).
KINDS = (VIEW_CORRECTED, VIEW_AS_ROLLED, VIEW_OPENING, "json", "json:as_rolled", "text", "text:as_rolled")
#: The two histories, as battle rows and game-level products are named.
CORRECTED, AS_ROLLED = "corrected", "as_rolled"
#: The game-level product of a history (:class:`_History`) and of the opening part.
_HISTORY, _OPENING = "history:", "opening"
#: The review memo of the stored review (application/adapters/memo_codec.py): never shown, read
#: by the next review of the same history; kept in chunks (review_store.load_chunks), each
#: refresh appending what it added.
MEMO = "memo"
#: The rows of products stored as they are: the memo's chunks (their lazy parts are compressed
#: one by one already: memo_codec).
MEMO_ROWS = frozenset(chunk_kinds(MEMO))
_DIGEST_SIZE = 16
_FIELDS = GameView.__struct_fields__
_BATTLES_AT = _FIELDS.index("battles")


class _History(msgspec.Struct, array_like=True):
    """A history's game-level part: everything of its view and reports but the battles."""

    view_head: bytes  # the msgpack GameView up to the battles' array
    view_tail: bytes  # ... and after it
    digests: bytes  # each battle row's digest, in order
    json_head: bytes
    json_tail: bytes
    text_head: bytes
    #: The view's tail fields kept in rows of their own: (offset in ``view_tail``, digest).
    holes: tuple[tuple[int, bytes], ...] = ()


class _Opening(msgspec.Struct, array_like=True):
    """The opening part: its first ``count`` battles are the corrected history's rows."""

    count: int
    view_head: bytes
    view_tail: bytes
    #: As :attr:`_History.holes`.
    holes: tuple[tuple[int, bytes], ...] = ()


_HISTORY_CODEC = msgspec.msgpack.Decoder(_History)
_OPENING_CODEC = msgspec.msgpack.Decoder(_Opening)


def is_stored(ref: str) -> bool:
    """Whether a game reference names a stored game (else a replay file, as ``open_game`` reads it)."""
    from pathlib import Path

    return not (Path(ref).suffix == ".toml" or Path(ref).exists())


def report_kind(*, json: bool, as_rolled: bool) -> str:
    """The product name of a report: ``json`` or ``text``, ``:as_rolled`` for the record."""
    return ("json" if json else "text") + (":as_rolled" if as_rolled else "")


def _array_header(count: int) -> bytes:
    if count < 16:
        return bytes((0x90 | count,))
    if count < 1 << 16:
        return b"\xdc" + count.to_bytes(2, "big")
    return b"\xdd" + count.to_bytes(4, "big")


def _view_parts(view: GameView, shared: dict[int, bytes] | None = None) -> tuple[bytes, bytes]:
    """The msgpack of a GameView before its battles' array and after it (a struct is a map of
    its fields in order: :func:`_join_view` gives the bytes of encoding it whole). ``shared``:
    fields already encoded, by the id of their value (alive meanwhile): both histories share
    the game's parts, and the board's history when no correction moved it (half a megabyte on
    a big game)."""
    encode = _ENCODER.encode
    known = {} if shared is None else shared

    def field(name: str) -> bytes:
        value = getattr(view, name)
        data = known.get(id(value))
        if data is None:
            data = known[id(value)] = encode(value)
        return encode(name) + data

    head = b"".join(field(name) for name in _FIELDS[:_BATTLES_AT])
    tail = b"".join(field(name) for name in _FIELDS[_BATTLES_AT + 1:])
    return _map_header(len(_FIELDS)) + head + encode("battles"), tail


#: A field of a view's tail at least this big is kept in a row of its own, named by the digest
#: of its bytes (``part:<hex>``): the board's history (half a megabyte on a big game) is the
#: same in both histories and from one refresh to the next until the board moves, and each
#: refresh compressed and wrote it twice.
_OWN_ROW_FROM = 16_384
_PART = "part:"


def _tail_parts(view: GameView, shared: dict[int, bytes], parts: dict[str, bytes]
                ) -> tuple[bytes, bytes, tuple[tuple[int, bytes], ...]]:
    """:func:`_view_parts` with the tail's big fields taken out: (head, the tail without them,
    where each goes back and its digest); ``parts`` gets each one's row (kind -> bytes)."""
    head, _ = _view_parts(view, shared)
    encode = _ENCODER.encode
    tail: list[bytes] = []
    holes: list[tuple[int, bytes]] = []
    at = 0
    for name in _FIELDS[_BATTLES_AT + 1:]:
        data = shared[id(getattr(view, name))]  # encoded by _view_parts just now
        key = encode(name)
        tail.append(key)
        at += len(key)
        if len(data) >= _OWN_ROW_FROM:
            digest = hashlib.blake2b(data, digest_size=_DIGEST_SIZE).digest()
            parts[_PART + digest.hex()] = data
            holes.append((at, digest))
        else:
            tail.append(data)
            at += len(data)
    return head, b"".join(tail), tuple(holes)


def _filled(tail: bytes, holes: tuple[tuple[int, bytes], ...], parts: dict[bytes, bytes]) -> bytes:
    """A view's tail with its fields kept in rows of their own put back."""
    if not holes:
        return tail
    pieces, at = [], 0
    for offset, digest in holes:
        pieces += [tail[at:offset], parts[digest]]
        at = offset
    pieces.append(tail[at:])
    return b"".join(pieces)


def _map_header(count: int) -> bytes:
    """A msgpack map's header (a fixmap holds 15 entries at most; a GameView has more fields)."""
    return bytes((0x80 | count,)) if count < 16 else b"\xde" + count.to_bytes(2, "big")


def _join_view(head: bytes, battles: list[bytes], tail: bytes) -> bytes:
    return b"".join((head, _array_header(len(battles)), *battles, tail))


@dataclass
class Reviewed:
    """A game's two reviewed histories as made now, and the memo they were made with."""

    views: dict[str, GameView]
    memo: ReviewMemo
    #: The memo's chunks as stored before this review (None: none could be read, the memo is
    #: written whole).
    earlier: Chunks | None = None
    #: How many keys the memo's tables held before this review (memo_codec.known_keys: what
    #: storing it again appends to ``earlier`` comes after them).
    known: dict[str, int] | None = None

    def memo_write(self) -> ChunkWrite | None:
        """What storing the memo writes: one chunk of what this review added after the earlier
        ones, or the whole memo (none earlier, or as many chunks as a memo keeps: written whole
        again, superseded parts pruned); None when the review added nothing."""
        from application.adapters.memo_codec import MemoShrank, added_chunk, dump_memo

        earlier = self.earlier
        if earlier is None or self.known is None or len(earlier.data) >= MAX_CHUNKS:
            return ChunkWrite(0, dump_memo(self.memo))
        try:
            added = added_chunk(self.memo, self.known)
        except MemoShrank:  # a chunk only adds: a memo that lost parts is stored whole
            return ChunkWrite(0, dump_memo(self.memo))
        return None if added is None else ChunkWrite(len(earlier.data), added, earlier.last_id)


def review_histories(game: Game, memo: ReviewMemo | None = None) -> dict[str, GameView]:
    """Both reviewed histories of a game (``memo``: what an earlier review of the same history
    worked out, reused where its inputs are unchanged; the result is the same)."""
    from domain.review.game_review import review
    from domain.review.memo import ReviewMemo

    if memo is None:
        memo = ReviewMemo()  # the record as rolled reuses what the corrected review read and audited
    with no_gc():
        return {history: review(game, as_rolled=history == AS_ROLLED, memo=memo)
                for history in (CORRECTED, AS_ROLLED)}


def products(game: Game, memo: ReviewMemo | None = None) -> dict[str, bytes]:
    """Every product of a game whole, as a reader gets it: its two reviews, the opening part,
    and the four reports."""
    from projections.report import report_json, report_text
    from projections.timeline import opening_part

    views = review_histories(game, memo)
    made: dict[str, bytes] = {}
    for history, view in views.items():
        as_rolled = history == AS_ROLLED
        made[VIEW_AS_ROLLED if as_rolled else VIEW_CORRECTED] = _ENCODER.encode(view)
        made[report_kind(json=True, as_rolled=as_rolled)] = report_json(view)
        made[report_kind(json=False, as_rolled=as_rolled)] = report_text(view).encode()
    made[VIEW_OPENING] = _ENCODER.encode(opening_part(views[CORRECTED]))
    return made


def _review_now(app: MinisterApplication, game_id: str) -> tuple[Head, Reviewed]:
    """A stored game reviewed at its current events, and the head they cover.

    The review memo stored with the last review of the same history (a desk command's new
    event only adds to it) is carried on: only what the new events touch is reviewed again,
    and the memo is stored back (:data:`MEMO`)."""
    from application.adapters.memo_codec import MemoUnreadable, known_keys, load_memo
    from domain.review.memo import ReviewMemo

    head = head_of(app, game_id)
    if head is None:
        app.game(game_id)  # raises UnknownGameError, naming the game
        raise AssertionError("unreachable")
    game = app.game(game_id, version=head.version)
    earlier = load_chunks(app, game_id, MEMO, head)
    memo: ReviewMemo | None = None
    if earlier is not None:
        try:
            with no_gc():
                memo = load_memo(earlier.data)
        except MemoUnreadable:
            memo = None
    if memo is None or earlier is None:
        memo = ReviewMemo()
        return head, Reviewed(review_histories(game, memo), memo)
    known = known_keys(memo)
    # Appending what this review adds prunes nothing: the parts it uses need not be noted.
    memo.track_use = len(earlier.data) >= MAX_CHUNKS
    try:
        return head, Reviewed(review_histories(game, memo), memo, earlier, known)
    except MemoUnreadable:  # a part read back only now (memo_codec.LAZY) was not one
        memo = ReviewMemo()
        return head, Reviewed(review_histories(game, memo), memo)


def _listed_digests(app: MinisterApplication, game_id: str, history: str) -> dict[int, bytes]:
    """Position -> digest of each battle row of a history as its stored game-level part lists
    them: written with the rows in one transaction, under the same rule (a later version wins),
    and one row to read where the rows themselves are thousands (their blobs beside them)."""
    found = load_latest(app, game_id, _HISTORY + history)
    if found is None:
        return battle_digests(app, game_id, history)
    listed = _HISTORY_CODEC.decode(found).digests
    return {position: listed[at:at + _DIGEST_SIZE]
            for position, at in enumerate(range(0, len(listed), _DIGEST_SIZE))}


def _rows(app: MinisterApplication, game_id: str, reviewed: Reviewed, *, listed: bool = True) -> tuple[
        dict[str, bytes], dict[str, HistoryRows], dict[str, ChunkWrite], list[str]]:
    """What storing a review writes: the game-level products, per history the battle rows
    whose view is not the one stored (the others are left as they are), the memo's chunk, and
    the rows of big fields no longer named (to drop). ``listed``: the stored rows are taken to
    be those the stored part lists (:func:`_listed_digests`); else each row is read (what a
    reader that found a row out of step with the list uses: the refresh writes it again)."""
    from projections.report import battle_json, battle_text, json_head, text_head
    from projections.timeline import opening_part

    made: dict[str, bytes] = {}
    battles: dict[str, HistoryRows] = {}
    encode, blake2b = _ENCODER.encode, hashlib.blake2b
    memo = reviewed.memo
    # A battle the review reused whole from the memo (the same object) has the digest it had.
    reused = {id(view): key for key, (view, _) in memo.quiet_battles.items()}
    shared: dict[int, bytes] = {}  # fields both histories' views share, encoded once
    parts: dict[str, bytes] = {}  # the tails' big fields, each in a row of its own
    for history, view in reviewed.views.items():
        stored = (_listed_digests if listed else battle_digests)(app, game_id, history)
        rows: dict[int, BattleRow] = {}
        digests: list[bytes] = []
        for position, battle in enumerate(view.battles):
            key = reused.get(id(battle))
            digest = memo.view_digests.get(key) if key is not None else None
            if digest is None:
                data = encode(battle)
                digest = blake2b(data, digest_size=_DIGEST_SIZE).digest()
                if key is not None:
                    memo.view_digests[key] = digest
            digests.append(digest)
            if stored.get(position) != digest:
                data = encode(battle)
                rows[position] = BattleRow(digest, (data, battle_json(battle), battle_text(battle).encode()))
        battles[history] = HistoryRows(len(view.battles), rows)
        view_head, view_tail, holes = _tail_parts(view, shared, parts)
        json_start, json_end = json_head(view)
        made[_HISTORY + history] = encode(_History(view_head, view_tail, b"".join(digests), json_start,
                                                   json_end, text_head(view).encode(), holes))
    opening = opening_part(reviewed.views[CORRECTED])
    made[_OPENING] = encode(_Opening(len(opening.battles), *_tail_parts(opening, shared, parts)))
    # Each big field's row once: written if not stored yet, dropped when no longer named.
    stored_parts = stored_kinds(app, game_id, _PART)
    made.update((kind, data) for kind, data in parts.items() if kind not in stored_parts)
    drop = [kind for kind in stored_parts if kind not in parts]
    chunk = reviewed.memo_write()  # last: with the digests worked out above
    # None (a report or a ruling on battles reused whole): the stored chunks stay. They cover an
    # earlier head of the same history, which the next refresh reads as well.
    return made, battles, {} if chunk is None else {MEMO: chunk}, drop


def keep(app: MinisterApplication, game_id: str) -> None:
    """Review a stored game at its current events and store what changed of its review."""
    head, reviewed = _review_now(app, game_id)
    made, battles, memo, drop = _rows(app, game_id, reviewed)
    save(app, game_id, head, made, battles, chunks=memo, drop=drop)


def stored(app: MinisterApplication, game_id: str, kind: str, head: Head | None = None) -> bytes | None:
    """A product of a stored game put together from its rows, if they cover the game's current
    events (``head``) and were made by this engine; None otherwise."""
    if kind not in KINDS:
        raise ValueError(f"a stored review has no product {kind!r} (one of {', '.join(KINDS)})")
    history = AS_ROLLED if kind.endswith("as_rolled") else CORRECTED
    found = load(app, game_id, _HISTORY + history, head)
    if found is None:
        return None
    part = _HISTORY_CODEC.decode(found)
    digests = [part.digests[at:at + _DIGEST_SIZE] for at in range(0, len(part.digests), _DIGEST_SIZE)]
    if kind == VIEW_OPENING:
        opened = load(app, game_id, _OPENING, head)
        if opened is None:
            return None
        opening = _OPENING_CODEC.decode(opened)
        views = load_parts(app, game_id, history, "view", digests[:opening.count])
        tail = _tail_of(app, game_id, opening.view_tail, opening.holes)
        return None if views is None or tail is None else _join_view(opening.view_head, views, tail)
    if kind.startswith("view:"):
        views = load_parts(app, game_id, history, "view", digests)
        tail = _tail_of(app, game_id, part.view_tail, part.holes)
        return None if views is None or tail is None else _join_view(part.view_head, views, tail)
    if kind.startswith("json"):
        from projections.report import join_json

        fragments = load_parts(app, game_id, history, "json", digests)
        return None if fragments is None else join_json(part.json_head, fragments, part.json_tail) + b"\n"
    texts = load_parts(app, game_id, history, "text", digests)
    return None if texts is None else b"".join((part.text_head, *texts, b"\n"))


def keep_quietly(app: MinisterApplication, game_id: str) -> None:
    """:func:`keep` after recording events: the events are stored whatever happens here, so a
    failure is a warning (the review is made on the game's next opening instead)."""
    import warnings

    try:
        keep(app, game_id)
    except Exception as error:  # derived data: never fail the command that stored the events
        warnings.warn(f"the review of {game_id} was not stored: {error}", stacklevel=2)


def product(app: MinisterApplication, game_id: str, kind: str, head: Head | None = None) -> bytes:
    """A product of a stored game: from the store when fresh, else made (and stored) now."""
    import warnings

    found = stored(app, game_id, kind, head)
    if found is not None:
        return found
    covered, reviewed = _review_now(app, game_id)
    try:
        # The stored rows read one by one: a row out of step with its list is written again.
        made, battles, memo, drop = _rows(app, game_id, reviewed, listed=False)
        save(app, game_id, covered, made, battles, chunks=memo, drop=drop)
    except Exception as error:  # a read-only store, say: show the review all the same
        warnings.warn(f"the review of {game_id} was not stored: {error}", stacklevel=2)
    else:
        found = stored(app, game_id, kind, covered)
        if found is not None:
            return found
    return _whole(reviewed, kind)


def _tail_of(app: MinisterApplication, game_id: str, tail: bytes,
             holes: tuple[tuple[int, bytes], ...]) -> bytes | None:
    """A stored view's tail with its big fields read back from their rows (None: one is not
    there, the stored review is stale)."""
    if not holes:
        return tail
    found = load_named(app, game_id, [_PART + digest.hex() for _, digest in holes])
    if found is None:
        return None
    return _filled(tail, holes, {bytes.fromhex(kind[len(_PART):]): data for kind, data in found.items()})


def _whole(reviewed: Reviewed, kind: str) -> bytes:
    """A product made from the views in hand (when the store cannot give it back)."""
    from projections.report import report_json, report_text
    from projections.timeline import opening_part

    view = reviewed.views[AS_ROLLED if kind.endswith("as_rolled") else CORRECTED]
    if kind == VIEW_OPENING:
        return _ENCODER.encode(opening_part(view))
    if kind.startswith("view:"):
        return _ENCODER.encode(view)
    return report_json(view) if kind.startswith("json") else report_text(view).encode()


def stored_view(app: MinisterApplication, game_id: str, kind: str = VIEW_CORRECTED,
                head: Head | None = None) -> GameView:
    """A reviewed history of a stored game (``kind``: one of the ``VIEW_*`` products)."""
    data = product(app, game_id, kind, head)
    with no_gc():
        return _VIEW.decode(data)


def stored_report(store: str | None, game_id: str, *, json: bool, as_rolled: bool) -> bytes:
    """The report ``minister replay GAME`` prints, from the store when fresh."""
    from application.adapters.stores import open_store

    app = open_store(store)
    try:
        return product(app, game_id, report_kind(json=json, as_rolled=as_rolled))
    finally:
        app.close()


def _split_type() -> type[msgspec.Struct]:
    """GameView with its battles left as raw msgpack (each decoded on its own, or shared) and its
    board history as raw msgpack per territory (each decoded once, or shared)."""
    fields: list[tuple[str, object, object] | tuple[str, object]] = []
    for field in msgspec.structs.fields(GameView):
        kind = {"battles": tuple[msgspec.Raw, ...], "board_history": dict[str, msgspec.Raw]}.get(
            field.name, field.type)
        if field.required:
            fields.append((field.name, kind))
        elif field.default_factory is not msgspec.NODEFAULT:  # a dict or list default, made per view
            fields.append((field.name, kind, msgspec.field(default_factory=field.default_factory)))
        else:
            fields.append((field.name, kind, field.default))
    split: type[msgspec.Struct] = msgspec.defstruct("SplitGameView", fields, frozen=True)
    return split


_SPLIT = _split_type()
_BATTLE = msgspec.msgpack.Decoder(BattleView)
#: A territory's board history (GameView.board_history): (record number, every power's units,
#: holder) after each record that changed it.
PlaceHistory = list[tuple[int, dict[str, Force], str | None]]
_PLACE_HISTORY = msgspec.msgpack.Decoder(PlaceHistory)


def _board_history(raw: dict[str, msgspec.Raw], shared: dict[str, tuple[msgspec.Raw, PlaceHistory]],
                   forces: dict[Force, Force]) -> dict[str, PlaceHistory]:
    """Decode a board history, territory by territory: a territory whose stored bytes are those of
    the other history's is that history's list (the walk as corrected is mostly the walk as
    rolled), and each force is one object per value (a few hundred forces make up ~60,000
    entries on a 50,000-event game: ~47 MB decoded as they are, ~21 MB so, ~11 MB shared)."""
    history: dict[str, PlaceHistory] = {}
    for territory, one in raw.items():
        found = shared.get(territory)
        if found is not None and found[0] == one:
            history[territory] = found[1]
            continue
        entries: PlaceHistory = _PLACE_HISTORY.decode(one)
        for _, units, _ in entries:
            for power, force in units.items():
                units[power] = forces.setdefault(force, force)
        history[territory] = entries
    return history


class StoredGame:
    """One stored game's reviews as the timeline reads them: both of the same events.

    The two histories are mostly the same battles (only what a correction changed differs), so
    the record as rolled shares the corrected history's battle wherever the stored bytes of the
    two are the same: on a 50,000-event game that is ~175 MB the timeline does not hold twice.
    """

    def __init__(self, game_id: str, store: str | None) -> None:
        from application.adapters.stores import open_store

        self.game_id = game_id
        self.app = open_store(store)
        self.head = head_of(self.app, game_id)
        if self.head is None:
            self.app.game(game_id)  # raises UnknownGameError, naming the game
        #: The corrected history's battles as stored and as decoded, until the record as rolled
        #: has been read against them.
        self._corrected: tuple[tuple[msgspec.Raw, ...], tuple[BattleView, ...]] | None = None
        #: The corrected history's board history, territory -> (as stored, as decoded), until then.
        self._places: dict[str, tuple[msgspec.Raw, PlaceHistory]] = {}
        #: Every force of the board histories read, one object per value.
        self._forces: dict[Force, Force] = {}

    def view(self, kind: str) -> GameView:
        """One of the ``VIEW_*`` products, as of the events there were when opened."""
        if kind not in (VIEW_CORRECTED, VIEW_AS_ROLLED):
            return stored_view(self.app, self.game_id, kind, self.head)
        data = product(self.app, self.game_id, kind, self.head)
        with no_gc():
            split = msgspec.msgpack.decode(data, type=_SPLIT)
            raw: tuple[msgspec.Raw, ...] = split.battles  # type: ignore[attr-defined]
            if kind == VIEW_AS_ROLLED and self._corrected is not None:
                shared_raw, shared = self._corrected
                self._corrected = None
                battles = tuple(shared[i] if i < len(shared) and shared_raw[i] == one else _BATTLE.decode(one)
                                for i, one in enumerate(raw))
            else:
                battles = tuple(_BATTLE.decode(one) for one in raw)
                if kind == VIEW_CORRECTED:
                    self._corrected = (raw, battles)
            places: dict[str, msgspec.Raw] = split.board_history  # type: ignore[attr-defined]
            history = _board_history(places, self._places, self._forces)
            if kind == VIEW_CORRECTED:
                self._places = {territory: (places[territory], history[territory]) for territory in places}
            else:
                self._places, self._forces = {}, {}
            rest = {name: getattr(split, name) for name in split.__struct_fields__
                    if name not in ("battles", "board_history")}
            return GameView(**rest, battles=battles, board_history=history)
