"""A review memo as bytes, so the next process can carry on where the last review left off.

Each desk command (``minister report``, ``rule``, ``dice``, ``roll`` ...) is a new process: the
:class:`~domain.review.memo.ReviewMemo` of the review the last command made lives only in that
process's memory. Stored beside the stored review (:mod:`application.adapters.review_store`,
kind ``memo``), it lets the next command review only what its new event touches.

The memo holds the review's own objects (records read into rounds, audits, corrections, walks of
the board), so it is pickled. Two things keep that safe and small:

- Reading back accepts only minister's domain types and a few standard value types
  (:class:`_Unpickler`): a row someone wrote into the store by hand cannot run code.
- The classic board is named, not copied (every walk shares it), and a walk's per-process cache
  (``BoardWalk.boarded``, keyed by object ids) is left out.

Most of the memo is parts a refresh after a report or a ruling never needs (each battle's read,
rolling audit and correction: the battles it reuses whole): those tables (:data:`LAZY`) are
pickled and compressed part by part and read back only when the review asks for one
(:class:`LazyTable`); the chunk itself is stored as it is, so reading the memo back costs the
keys and the parts every refresh uses. A memo is stored as chunks (the memo whole, then what each
later review added, :func:`added_chunk`), each a row of its own (``review_store.load_chunks``).

The bytes are only ever read by the same engine (the row's engine stamp) for the same game's
history (its hash-chain link at the version the memo covers): see :mod:`tui.reviewed`.
"""

from __future__ import annotations

import _datetime  # type: ignore[import-not-found]  # the C module: no stub
import copyreg
import dataclasses
import io
import pickle
import zlib
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any

from application.adapters.part_delta import PartDelta, big, part_delta
from application.adapters.view_sharing import ViewSharing
from application.adapters.walk_delta import WalkDelta, delta_of
from domain.record.board_state import BoardWalk
from domain.review.board_review import GameParts
from domain.review.memo import Lineages, ReviewMemo
from domain.rules.board import Board
from domain.rules.forces import Force

#: Modules whose classes a stored memo may name (anything else is refused on reading).
_ALLOWED_MODULES = ("domain.", "application.adapters.memo_codec", "application.adapters.walk_delta",
                    "application.adapters.part_delta")
_ALLOWED_GLOBALS = {("builtins", name) for name in ("set", "frozenset", "tuple", "list", "dict",
                                                      "getattr", "object")} | {
    ("copyreg", "_reconstructor"), ("copyreg", "__newobj__"), ("datetime", "datetime"),
    ("datetime", "timezone"), ("datetime", "timedelta"), ("datetime", "date"),
    ("collections", "OrderedDict"), ("collections", "defaultdict"), ("_codecs", "encode"),
    ("msgspec._core", "Struct"), ("msgspec.structs", "replace"), ("functools", "partial"),
    ("enum", "Enum"), ("uuid", "UUID")}


class MemoUnreadable(Exception):
    """The stored memo cannot be read back (another version, or not a memo): review in full."""


class MemoShrank(Exception):
    """A memo table lost parts since it was read: no chunk can carry that, so the memo is
    written whole (:func:`added_chunk`)."""


def classic_board() -> Board:
    """The shared classic board (what a pickled walk names instead of copying it)."""
    return Board.classic()


def walk_of(fields: dict[str, Any]) -> BoardWalk:
    """A walk of the board rebuilt from its stored fields (its per-process cache empty)."""
    return BoardWalk(**fields)


def datetime_of(*state: Any) -> Any:
    """A datetime from its pickled state (see :data:`_DISPATCH`)."""
    return _datetime.datetime(*state)


def _datetime_state(moment: Any) -> Any:
    return datetime_of, moment.__reduce__()[1]


def _board(board: Board) -> Any:
    if board is not Board.classic():
        raise pickle.PicklingError("only walks of the classic board are kept in a memo")
    return classic_board, ()


def _walk(walk: BoardWalk) -> Any:
    # Only the fields a walk is made from: its per-process cache is left out, and what
    # ``__post_init__`` derives (``init=False``) is derived again on reading.
    fields = {f.name: getattr(walk, f.name) for f in dataclasses.fields(walk)
              if f.init and f.name != "boarded"}
    return walk_of, (fields,)


#: Each force's units as first pickled, by value: equal forces name one tuple (a 10,000-event
#: game's memo holds tens of thousands of forces and only a few hundred different ones; a tuple
#: pickled once is read back once, where each force's own would be two or three objects more).
#: Grows with the different forces pickled by the process, a few thousand at most.
_FORCE_UNITS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _force(force: Force) -> Any:
    items = force.items
    return Force, (_FORCE_UNITS.setdefault(items, items),)


#: By type, looked up in C (a ``reducer_override`` would be a Python call per pickled object).
#: Datetimes by the C type itself: pickle names ``datetime.datetime``, which a frozen clock in a
#: test (freezegun) replaces with its own class, and pickling then refuses the real ones.
_DISPATCH: dict[type, Any] = {**copyreg.dispatch_table, Board: _board, BoardWalk: _walk,
                              _datetime.datetime: _datetime_state, Force: _force}


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, protocol: int) -> None:
        super().__init__(file, protocol)
        self.dispatch_table = _DISPATCH


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module.startswith(_ALLOWED_MODULES) or (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise MemoUnreadable(f"a stored review memo names {module}.{name}, which a memo never holds")


#: The memo's tables (attributes of :class:`ReviewMemo`), each key -> part.
TABLES = ("walks", "turn_audits", "treasuries", "board_keys", "reads", "outcomes", "audits", "corrections",
          "quiet_battles", "view_digests", "game_views")
#: Tables whose parts are pickled one by one and read back only when the review asks for one:
#: a refresh after a report or a ruling reuses most battles whole and never needs their reads,
#: audits or corrections (most of the memo's bytes).
LAZY = ("reads", "audits", "corrections")
#: Tables of few, big parts: a part an added chunk would pickle again is named instead
#: (:func:`added_chunk`; the chunk's :data:`_SAME` entry: table -> new key -> earlier key).
_SHARED = ("walks", "turn_audits", "treasuries", "board_keys", "game_views")
#: Tables whose parts an appended chunk pickles together, and which are read back when one of
#: them is first asked for (:class:`PackedTable`): a refresh after dice events never reads the
#: walks, turn audits, board keys and game views the chunks appended since supersede. (The whole
#: memo keeps them as they are: a refresh reads them all, and pickled with the rest of the memo
#: they share what they share in memory, stored and read once.)
PACKED = _SHARED
#: Tables whose big parts an appended chunk stores as what they change of an earlier one.
_CHANGED = ("turn_audits", "board_keys", "game_views")
_SAME = "same"
#: The chunks' layout (a memo of another layout is not read: the review is made in full).
_LAYOUT = 8


class LazyTable(dict[Any, Any]):
    """A memo table whose parts are read back from their bytes when first asked for.

    A part not read back yet is its pickled bytes (a part itself is never bytes: reads, audits
    and corrections are the review's objects), so a stored chunk's table is taken as it is."""

    def get(self, key: Any, default: Any = None) -> Any:
        """The part under ``key`` (read back now if it is still bytes)."""
        value = dict.get(self, key, default)
        if type(value) is bytes:
            value = _read_part(value)
            self[key] = value
        return value

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        if type(value) is bytes:
            value = _read_part(value)
            self[key] = value
        return value


class Packed:
    """Parts of a :data:`PACKED` table not read back yet, read on the first ask for any of them
    (:class:`PackedTable`)."""

    __slots__ = ("data", "keys")

    def __init__(self, data: bytes, keys: tuple[Any, ...]) -> None:
        #: The parts' pickle (a list, in the order of ``keys``: the keys are pickled once, with
        #: the table, not again with the parts).
        self.data, self.keys = data, keys

    def __reduce__(self) -> Any:
        return Packed, (self.data, self.keys)


class Same:
    """A part an appended chunk names as the earlier part under ``key`` (the same object)."""

    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key


class PackedTable(dict[Any, Any]):
    """A memo table whose big parts are read back when first asked for (:data:`PACKED`).

    A value not read back yet is a :class:`Packed` (shared by the keys it holds), a
    :class:`Same` or a :class:`~application.adapters.walk_delta.WalkDelta` (a walk stored as
    what it adds to an earlier one); the review reaches parts only through ``get`` and ``[]``,
    so a refresh pays only for the parts it asks for: after dice events, the superseded walks,
    turn audits and board keys of the chunks appended since are never read."""

    def get(self, key: Any, default: Any = None) -> Any:
        """The part under ``key`` (read back now if it is not yet)."""
        value = dict.get(self, key, default)
        return self._open(key, value) if type(value) in _UNREAD else value

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        return self._open(key, value) if type(value) in _UNREAD else value

    def _open(self, key: Any, value: Any) -> Any:
        try:
            if type(value) is Packed:
                for held, part in zip(value.keys, _unpickle(value.data), strict=True):
                    if dict.get(self, held) is value:
                        dict.__setitem__(self, held, part)
                value = dict.__getitem__(self, key)
            if type(value) is Same:
                value = self[value.key]
            elif type(value) is WalkDelta:
                value = value.walk(self)
            elif type(value) is PartDelta:
                value = value.part(self)
        except MemoUnreadable:
            raise
        except Exception as error:  # parts of another layout: review in full
            raise MemoUnreadable(f"a part of the stored review memo cannot be read: {error}") from error
        dict.__setitem__(self, key, value)
        return value

    def read_all(self) -> None:
        """Every part read back (before the table is written whole again); a part that
        cannot be read is left out (a later review makes it again)."""
        for key in list(self):
            try:
                self[key]
            except MemoUnreadable:
                del self[key]


_UNREAD = (Packed, Same, WalkDelta, PartDelta)


def _read_part(data: bytes) -> Any:
    """A lazy table's part from its bytes (:class:`MemoUnreadable` when they are not one)."""
    try:
        return _unpickle(zlib.decompress(data))
    except MemoUnreadable:
        raise
    except Exception as error:  # a part of another layout: review in full
        raise MemoUnreadable(f"a part of the stored review memo cannot be read: {error}") from error


def _pickled(value: Any) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def _unpickle(data: bytes) -> Any:
    return _Unpickler(io.BytesIO(data)).load()
#: After this many chunks the memo is written whole again (superseded parts pruned).
MAX_CHUNKS = 16
#: Every chunk's first bytes: the layout, so a row of another layout is refused before it is unpickled.
MEMO_HEADER = b"minister-memo:%d\n" % _LAYOUT


def _chunk(parts: dict[str, dict[Any, Any]], *, pack: bool = False) -> bytes:
    # Lazy tables: each part its own bytes (a part not read back yet keeps the bytes it had),
    # each compressed on its own. The chunk itself is not compressed: the rest (the keys and the
    # parts every refresh reads) is read back without inflating the lazy parts, and even a zlib
    # wrapper at level 0 costs tens of milliseconds on a big game's megabytes.
    parts = {name: {key: value if type(value) is bytes else zlib.compress(_pickled(value), 1)
                    for key, value in dict.items(table)} if name in LAZY else
             _packed(table) if pack and name in PACKED else table
             for name, table in parts.items()}
    return MEMO_HEADER + _pickled(parts)


def _packed(table: dict[Any, Any]) -> dict[Any, Any]:
    """A :data:`PACKED` table as it is stored: its parts in one :class:`Packed` (pickled
    together, they share what they share in memory), but for the few small ones every refresh
    reads (the lineages are scanned) and the parts stored as what they change (small, and
    opened before a whole write prunes their base: :func:`dump_memo`); every part given is read
    back already."""
    stored: dict[Any, Any] = {}
    packed: dict[Any, Any] = {}
    for key, part in dict.items(table):
        if type(part) in (Lineages, int, list, PartDelta):
            stored[key] = part
        else:
            packed[key] = part
    if packed:
        group = Packed(_pickled(list(packed.values())), tuple(packed))
        stored.update(dict.fromkeys(packed, group))
    return stored


def dump_memo(memo: ReviewMemo) -> bytes:
    """The whole memo as one chunk: the parts the last review used (the others are superseded:
    :meth:`ReviewMemo.prune`)."""
    walks = memo.walks
    if isinstance(walks, PackedTable):  # a walk stored as what it adds needs the earlier one
        walks.read_all()
    for name in _CHANGED:  # so does a part stored as what it changes (kept out of the packs)
        table = getattr(memo, name)
        if isinstance(table, PackedTable):
            for key in [key for key, value in dict.items(table) if type(value) is PartDelta]:
                try:
                    table.get(key)
                except MemoUnreadable:  # left out: a later review makes it again
                    del table[key]
    memo.prune()
    for name in PACKED:
        table = getattr(memo, name)
        if isinstance(table, PackedTable):
            table.read_all()
    parts = {name: getattr(memo, name) for name in TABLES}
    parts["quiet_battles"] = _one_view_each(memo, parts["quiet_battles"])
    parts["game_views"] = _one_roles_each(parts["game_views"])
    return _chunk(parts)


def _one_roles_each(table: dict[Any, Any]) -> dict[Any, Any]:
    """The game views' table with equal roles of battles one object (a battle's roles are
    names only, and a game's 2,700 battles have about 120 different ones; each held twice, by
    its own key and in the game parts): fewer objects to read back and free."""
    one: dict[Any, Any] = {}
    shared: dict[Any, Any] = {}
    for key, part in dict.items(table):
        kept = part
        if type(key) is tuple and key and key[0] == "roles" and type(part) is tuple:
            kept = one.setdefault(part, part)
        elif type(part) is GameParts:
            kept = dataclasses.replace(part, board_roles=tuple([one.setdefault(roles, roles)
                                                                for roles in part.board_roles]))
        shared[key] = kept
    return shared


def _one_view_each(memo: ReviewMemo, quiet: dict[Any, Any]) -> dict[Any, Any]:
    """The quiet battles with each view pickled once: a battle without findings has the same
    view in both histories (the same digest: the same bytes in the stored review), made twice
    by the review; as one object, pickle writes it once and reading the memo back makes it once
    (half of the memo's objects on a big game, most of the time it takes to read).

    Their equal parts are made one object too (:mod:`application.adapters.view_sharing`)."""
    digests = memo.view_digests
    seen: dict[bytes, Any] = {}
    sharing = ViewSharing()
    made: dict[int, Any] = {}  # by the id of a view given: each is made once
    shared = {}
    for key, (view, flow) in quiet.items():
        digest = digests.get(key)
        first = view if digest is None else seen.setdefault(digest, view)
        one = made.get(id(first))
        if one is None:
            one = made[id(first)] = sharing.view(first)
        shared[key] = (one, flow)
    return shared


def load_memo(chunks: Sequence[bytes]) -> ReviewMemo:
    """A memo from its stored chunks (a whole memo and the parts added since, in order; each
    chunk is stored on its own, see :mod:`tui.reviewed`); :class:`MemoUnreadable` when they are
    not one."""
    memo = ReviewMemo()
    for name in LAZY:
        setattr(memo, name, LazyTable())
    for name in PACKED:
        setattr(memo, name, PackedTable())
    try:
        for chunk in chunks:
            if not chunk.startswith(MEMO_HEADER):
                raise MemoUnreadable("the stored review memo is not a memo of this layout")
            parts = _Unpickler(io.BytesIO(memoryview(chunk)[len(MEMO_HEADER):])).load()
            if not isinstance(parts, dict):
                raise MemoUnreadable("the stored review memo is not a memo")
            for name in TABLES:
                found = parts.get(name, {})
                if name in LAZY and not set(map(type, found.values())) <= {bytes}:
                    raise MemoUnreadable("the stored review memo is not a memo")
                getattr(memo, name).update(found)
            for name, keys in parts.get(_SAME, {}).items():
                if name not in _SHARED:
                    raise MemoUnreadable(f"the stored review memo shares parts of {name!r}")
                table = getattr(memo, name)
                for key, earlier in keys.items():
                    table[key] = Same(earlier)
    except MemoUnreadable:
        raise
    except Exception as error:  # a truncated row, another Python's pickle: review in full
        raise MemoUnreadable(f"the stored review memo cannot be read: {error}") from error
    return memo


def known_keys(memo: ReviewMemo) -> dict[str, int]:
    """How many keys each table of a memo holds now (what :func:`added_chunk` leaves out): a
    review only adds keys (a dict keeps them in the order added, so the new ones come last)
    and deletes none (only :meth:`ReviewMemo.prune` does, when the memo is written whole)."""
    return {name: len(getattr(memo, name)) for name in TABLES}


def _known(table: dict[Any, Any], count: int) -> Iterator[tuple[Any, Any]]:
    """The first ``count`` items of a table, as stored (a part not read back yet as it is)."""
    return islice(dict.items(table), count)


def added_chunk(memo: ReviewMemo, known: dict[str, int]) -> bytes | None:
    """The parts added to ``memo`` since ``known`` (:func:`known_keys`), as one chunk to store
    after the others (None: nothing was added): writing a memo costs what the last review
    computed, not the whole game. :class:`MemoShrank` when a table holds fewer keys than it
    did (only a whole write prunes, so this is never expected): the caller writes it whole."""
    added: dict[str, dict[Any, Any]] = {}
    for name in TABLES:
        table = getattr(memo, name)
        if len(table) < known[name]:
            raise MemoShrank(f"the memo's {name} lost parts since it was read")
        added[name] = dict(islice(dict.items(table), known[name], None))
    if not any(added.values()):
        return None
    added["quiet_battles"] = _one_view_each(memo, added["quiet_battles"])
    # A big part the review took as it was (the very object an earlier chunk holds under another
    # key: a treasury a dice event left as it was) is stored as that key, not pickled again.
    same: dict[str, dict[Any, Any]] = {}
    for name in _SHARED:
        table = getattr(memo, name)
        earlier = {id(part): key for key, part in _known(table, known[name])}
        for key, part in list(added[name].items()):
            if id(part) in earlier:
                same.setdefault(name, {})[key] = earlier[id(part)]
                del added[name][key]
    # A walk resumed from an earlier one: what it adds to it (application/adapters/walk_delta.py).
    walks = memo.walks
    earlier_walks = dict(_known(walks, known["walks"]))
    for key, part in list(added["walks"].items()):
        if isinstance(part, BoardWalk):
            delta = delta_of(part, earlier_walks)
            if delta is not None:
                added["walks"][key] = delta
    # A big part made again on a new walk (the whole turn audit, every battle's board key): what
    # it changes of the earlier part it is nearest to (application/adapters/part_delta.py).
    for name in _CHANGED:
        table = getattr(memo, name)
        earlier_parts: dict[Any, Any] | None = None
        for key, part in list(added[name].items()):
            if not big(part):
                continue
            if earlier_parts is None:  # those read back: an unread one is not opened for this
                earlier_parts = {k: v for k, v in _known(table, known[name]) if type(v) not in _UNREAD}
            change = part_delta(part, earlier_parts)
            if change is not None:
                added[name][key] = change
    return _chunk({**added, _SAME: same} if same else added, pack=True)
