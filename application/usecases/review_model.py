"""The stored review: what the commands and the timeline show of a stored game, kept as rows.

A game's review is made when its events are recorded (``minister import``, ``report``,
``rule``, ``dice``, ``roll``) and kept in the store beside the events
(:mod:`application.adapters.review_store`), so opening a game, printing its report or checking
a ruling against its findings does not review it again. The rows, each typed and encoded with
msgspec (never pickled):

- one **battle row** per reviewed battle and history: its msgpack :class:`BattleView`, its
  JSON and text report fragments, and a digest of the view (every input of those fragments);
- per history, the **history part** (:class:`HistoryPart`): the msgpack of the view around its
  battles, the report heads, and the digests of its battle rows in order;
- per history, the **findings** (a msgpack tuple of :class:`Finding`): what a ruling is checked
  against, read without the rest;
- the **opening part** (:class:`OpeningPart`) the timeline paints first: the corrected view cut
  to its first battles (their rows are the corrected history's first rows).

Every row is written with the version and hash-chain link of the game's last event it covers and
the engine that made it (:func:`~application.adapters.review_store.engine_version`: a digest of
every module that shapes the rows); a reader serves them only when both match what the store
gives now, and a battle row only with the digest its history part lists. Anything missing,
stale or undecodable is made again from the events: the rows are a cache, never evidence.

A refresh reviews the game in full (:class:`~domain.review.game_review.GameReview`: both
histories in one pass over what they share), encodes each battle, and writes only the battle
rows whose digest changed, with the small game-level rows.
"""

from __future__ import annotations

import hashlib
import warnings
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgspec

from application.adapters.review_store import (
    battle_digests,
    forget,
    head_of,
    load,
    load_latest,
    load_parts,
    save,
)
from application.adapters.review_tables import BattleRow, Head, HistoryRows
from domain.memory import no_gc
from domain.record.events import game_uuid
from domain.review.views import Finding, GameView

if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication
    from domain.record.game import Game

#: What a reader asks for (``view:*`` are msgpack GameViews; ``json``/``text`` the reports, the
#: JSON without its final newline: ``minister replay`` writes that apart, not a copy of ~58 MB on
#: the 50,000-event generated game to add one byte).
VIEW_CORRECTED, VIEW_AS_ROLLED, VIEW_OPENING = "view:corrected", "view:as_rolled", "view:opening"
#: Every product a reader can ask for (:func:`stored`).
KINDS = (VIEW_CORRECTED, VIEW_AS_ROLLED, VIEW_OPENING, "json", "json:as_rolled", "text", "text:as_rolled")
#: The two histories, as battle rows and game-level rows are named.
CORRECTED, AS_ROLLED = "corrected", "as_rolled"
#: The game-level rows: each history's part and findings, and the opening part.
HISTORY, FINDINGS, OPENING = "history:", "findings:", "opening"
_DIGEST_SIZE = 16
_T = TypeVar("_T")
_ENCODER = msgspec.msgpack.Encoder()
_FIELDS = GameView.__struct_fields__
_BATTLES_AT = _FIELDS.index("battles")


class HistoryPart(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A history's game-level row: everything of its view and reports but the battles."""

    view_head: bytes  # the msgpack GameView up to the battles' array
    view_tail: bytes  # ... and after it
    digests: bytes  # each battle row's digest, in order (16 bytes each)
    json_head: bytes
    json_tail: bytes
    text_head: bytes


class OpeningPart(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """The opening row: its first ``count`` battles are the corrected history's rows, with the
    digests listed (what the first paint reads them by, without the history's part)."""

    count: int
    view_head: bytes
    view_tail: bytes
    digests: bytes  # the digests of those battle rows, in order (16 bytes each)


_HISTORY = msgspec.msgpack.Decoder(HistoryPart)
_OPENING = msgspec.msgpack.Decoder(OpeningPart)
_FINDINGS = msgspec.msgpack.Decoder(tuple[Finding, ...])
_VIEW = msgspec.msgpack.Decoder(GameView)


def is_stored(ref: str) -> bool:
    """Whether a game reference names a stored game (else a replay file, as ``open_game`` reads it)."""
    return not (Path(ref).suffix == ".toml" or Path(ref).exists())


def report_kind(*, json: bool, as_rolled: bool) -> str:
    """The product name of a report: ``json`` or ``text``, ``:as_rolled`` for the record."""
    return ("json" if json else "text") + (":as_rolled" if as_rolled else "")


def review_histories(game: Game) -> dict[str, GameView]:
    """Both reviewed histories of a game, by name."""
    from domain.review.game_review import review_both

    corrected, rolled = review_both(game)
    return {CORRECTED: corrected, AS_ROLLED: rolled}


def products(game: Game) -> dict[str, bytes]:
    """Every product of a game whole, as a reader gets it: its two reviews, the opening part,
    and the four reports (what the stored rows must put back together)."""
    from projections.report import report_json_body, report_text
    from projections.timeline import opening_part

    views = review_histories(game)
    made: dict[str, bytes] = {}
    for history, view in views.items():
        as_rolled = history == AS_ROLLED
        made[VIEW_AS_ROLLED if as_rolled else VIEW_CORRECTED] = _ENCODER.encode(view)
        made[report_kind(json=True, as_rolled=as_rolled)] = report_json_body(view)
        made[report_kind(json=False, as_rolled=as_rolled)] = report_text(view).encode()
    made[VIEW_OPENING] = _ENCODER.encode(opening_part(views[CORRECTED]))
    return made


# -- writing ----------------------------------------------------------------------------------------
def _array_header(count: int) -> bytes:
    if count < 16:
        return bytes((0x90 | count,))
    if count < 1 << 16:
        return b"\xdc" + count.to_bytes(2, "big")
    return b"\xdd" + count.to_bytes(4, "big")


def _map_header(count: int) -> bytes:
    """A msgpack map's header (a fixmap holds 15 entries at most; a GameView has more fields)."""
    return bytes((0x80 | count,)) if count < 16 else b"\xde" + count.to_bytes(2, "big")


def _view_parts(view: GameView, shared: dict[int, bytes]) -> tuple[bytes, bytes]:
    """The msgpack of a GameView before its battles' array and after it (a struct is a map of
    its fields in order: :func:`_join_view` gives the bytes of encoding it whole). ``shared``:
    fields already encoded, by the id of their value (kept alive meanwhile by the views): both
    histories share the game's parts, and the board's history when no correction moved it."""
    encode = _ENCODER.encode

    def field(name: str) -> bytes:
        value = getattr(view, name)
        data = shared.get(id(value))
        if data is None:
            data = shared[id(value)] = encode(value)
        return encode(name) + data

    head = b"".join(field(name) for name in _FIELDS[:_BATTLES_AT])
    tail = b"".join(field(name) for name in _FIELDS[_BATTLES_AT + 1:])
    return _map_header(len(_FIELDS)) + head + encode("battles"), tail


def _join_view(head: bytes, battles: list[bytes], tail: bytes) -> bytes:
    return b"".join((head, _array_header(len(battles)), *battles, tail))


def _listed_digests(app: MinisterApplication, game_id: str, history: str) -> dict[int, bytes]:
    """Position -> digest of each battle row of a history as its stored part lists them
    (written with the rows in one transaction; one row to read where the rows are thousands),
    else as the rows themselves say."""
    found = load_latest(app, game_id, HISTORY + history)
    part = _decoded(_HISTORY, found)
    if part is None:
        return battle_digests(app, game_id, history)
    listed = part.digests
    return {position: listed[at:at + _DIGEST_SIZE]
            for position, at in enumerate(range(0, len(listed), _DIGEST_SIZE))}


def _rows(app: MinisterApplication, game_id: str, views: dict[str, GameView], *, listed: bool = True
          ) -> tuple[dict[str, bytes], dict[str, HistoryRows]]:
    """What storing a review writes: the game-level rows, and per history the battle rows whose
    view is not the one stored (the others are left as they are). ``listed``: the stored rows
    are taken to be those the stored part lists; else each row's digest is read (what a reader
    that found a row out of step with the list uses: the refresh writes it again)."""
    from projections.report import battle_fragments, json_head, text_head
    from projections.timeline import opening_part

    made: dict[str, bytes] = {}
    battles: dict[str, HistoryRows] = {}
    in_order: dict[str, list[bytes]] = {}  # each history's battle row digests, in order
    encode, blake2b, compress = _ENCODER.encode, hashlib.blake2b, zlib.compress
    shared: dict[int, bytes] = {}
    # A battle's parts by its digest: a battle the correction left alone encodes to the same
    # bytes in both histories, so its report and text (a function of those bytes) are made once.
    parts_of: dict[bytes, tuple[bytes, bytes, bytes]] = {}
    for history, view in views.items():
        stored = (_listed_digests if listed else battle_digests)(app, game_id, history)
        rows: dict[int, BattleRow] = {}
        digests: list[bytes] = []
        for position, battle in enumerate(view.battles):
            data = encode(battle)
            digest = blake2b(data, digest_size=_DIGEST_SIZE).digest()
            digests.append(digest)
            if stored.get(position) != digest:
                parts = parts_of.get(digest)
                if parts is None:
                    # Compressed as made: a big game's rows are hundreds of megabytes uncompressed
                    # (all but the JSON report's: review_tables.COMPRESSED says why).
                    json, text = battle_fragments(battle)
                    parts = parts_of[digest] = (compress(data, 1), json, compress(text.encode(), 1))
                rows[position] = BattleRow(digest, parts)
        battles[history] = HistoryRows(len(view.battles), rows)
        in_order[history] = digests
        view_head, view_tail = _view_parts(view, shared)
        json_start, json_end = json_head(view)
        made[HISTORY + history] = encode(HistoryPart(view_head, view_tail, b"".join(digests), json_start,
                                                     json_end, text_head(view).encode()))
        made[FINDINGS + history] = encode(view.findings)
    opening = opening_part(views[CORRECTED])  # the corrected history's first battles
    count = len(opening.battles)
    first = b"".join(in_order[CORRECTED][:count])
    made[OPENING] = encode(OpeningPart(count, *_view_parts(opening, shared), first))
    return made, battles


def _review_now(app: MinisterApplication, game_id: str) -> tuple[Head, dict[str, GameView]]:
    """A stored game reviewed at its current events, and the head they cover."""
    head = head_of(app, game_id)
    if head is None:
        app.game(game_id)  # raises UnknownGameError, naming the game
        raise AssertionError("unreachable")
    game = app.game(game_id, version=head.version)
    return head, review_histories(game)


def refresh(app: MinisterApplication, game_id: str) -> None:
    """Review a stored game at its current events and store what changed of its review."""
    head, views = _review_now(app, game_id)
    made, battles = _rows(app, game_id, views)
    save(app, game_id, head, made, battles)


def refresh_quietly(app: MinisterApplication, game_id: str) -> None:
    """:func:`refresh` after recording events: the events are stored whatever happens here, so
    a failure is a warning (the review is made on the game's next opening instead)."""
    try:
        refresh(app, game_id)
    except Exception as error:  # derived data: never fail the command that stored the events
        warnings.warn(f"the review of {game_id} was not stored: {error}", stacklevel=2)


# -- reading ----------------------------------------------------------------------------------------
def _decoded(decoder: msgspec.msgpack.Decoder[_T], data: bytes | None) -> _T | None:
    """A stored row decoded as its type; None when absent or not of that type (made again)."""
    if data is None:
        return None
    try:
        return decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def _digests_of(listed: bytes) -> list[bytes] | None:
    """A row's list of battle row digests, one by one (None: not a list of them)."""
    if len(listed) % _DIGEST_SIZE:
        return None
    return [listed[at:at + _DIGEST_SIZE] for at in range(0, len(listed), _DIGEST_SIZE)]


def stored(app: MinisterApplication, game_id: str, kind: str, head: Head | None = None) -> bytes | None:
    """A product of a stored game put together from its rows, if they cover the game's current
    events (``head``) and were made by this engine; None otherwise."""
    if kind not in KINDS:
        raise ValueError(f"a stored review has no product {kind!r} (one of {', '.join(KINDS)})")
    if kind == VIEW_OPENING:  # by the digests it lists: the history's part is ~4.5 MB on a 50,000-event game
        opening = _decoded(_OPENING, load(app, game_id, OPENING, head))
        listed = _digests_of(opening.digests) if opening is not None else None
        if opening is None or listed is None or len(listed) != opening.count:
            return None
        views = load_parts(app, game_id, CORRECTED, "view", listed)
        return None if views is None else _join_view(opening.view_head, views, opening.view_tail)
    history = AS_ROLLED if kind.endswith("as_rolled") else CORRECTED
    part = _decoded(_HISTORY, load(app, game_id, HISTORY + history, head))
    digests = _digests_of(part.digests) if part is not None else None
    if part is None or digests is None:
        return None
    if kind.startswith("view:"):
        views = load_parts(app, game_id, history, "view", digests)
        return None if views is None else _join_view(part.view_head, views, part.view_tail)
    if kind.startswith("json"):
        from projections.report import join_json

        fragments = load_parts(app, game_id, history, "json", digests)
        return None if fragments is None else join_json(part.json_head, fragments, part.json_tail)
    texts = load_parts(app, game_id, history, "text", digests)
    return None if texts is None else b"".join((part.text_head, *texts, b"\n"))


def stored_view_rows(app: MinisterApplication, game_id: str, kind: str, head: Head | None = None
                     ) -> tuple[bytes, list[bytes], list[bytes]] | None:
    """A history's view (``VIEW_CORRECTED`` or ``VIEW_AS_ROLLED``) from its rows, not put together:
    the view with no battles (an empty array where they go), then each battle row's view and
    digest, in order (two histories' battles with the same digest are the same bytes: told apart
    without holding them; a 50,000-event game's battles are ~28 MB); None as :func:`stored` says."""
    if kind not in (VIEW_CORRECTED, VIEW_AS_ROLLED):
        raise ValueError(f"expected {VIEW_CORRECTED!r} or {VIEW_AS_ROLLED!r}, found {kind!r}")
    history = AS_ROLLED if kind == VIEW_AS_ROLLED else CORRECTED
    part = _decoded(_HISTORY, load(app, game_id, HISTORY + history, head))
    digests = _digests_of(part.digests) if part is not None else None
    if part is None or digests is None:
        return None
    views = load_parts(app, game_id, history, "view", digests)
    return None if views is None else (_join_view(part.view_head, [], part.view_tail), views, digests)


def product(app: MinisterApplication, game_id: str, kind: str, head: Head | None = None) -> bytes:
    """A product of a stored game: from the store when fresh, else made (and stored) now."""
    found = stored(app, game_id, kind, head)
    if found is not None:
        return found
    covered, views = store_review(app, game_id)
    if views is None:
        found = stored(app, game_id, kind, covered)
    return found if found is not None else made_whole(app, game_id, kind, covered, views)


def store_review(app: MinisterApplication, game_id: str) -> tuple[Head, dict[str, GameView] | None]:
    """Review a stored game at its current events and store its rows whole, each stored row
    read one by one: the head the rows cover, and the reviews only if the store refused them
    (the caller shows them as made). Stored, the reviews and the game's state kept for them are
    let go, so that what reads the rows next does not hold them beside it: on a 50,000-event
    game the state is ~200 MB, the reviews ~110 MB and the JSON report put together ~80 MB
    (a first ``replay --json`` after an upgrade peaked at 458 MB)."""
    covered, views = _review_now(app, game_id)
    if not _store_whole(app, game_id, covered, views):
        return covered, views
    app.latest_games.forget(game_uuid(game_id))
    return covered, None


def made_whole(app: MinisterApplication, game_id: str, kind: str, covered: Head,
               views: dict[str, GameView] | None) -> bytes:
    """A product in one piece when its rows cannot give it back: made from ``views`` (what the
    store refused), else from a review at ``covered`` (rows another writer moved on meanwhile)."""
    return _whole(views or review_histories(app.game(game_id, version=covered.version)), kind)


def _store_whole(app: MinisterApplication, game_id: str, head: Head, views: dict[str, GameView]) -> bool:
    """Store a review made afresh, each stored row read one by one (a row out of step with its
    list is written again); False, with a warning, when the store refuses (a read-only store,
    say: the review is shown all the same)."""
    try:
        made, battles = _rows(app, game_id, views, listed=False)
        save(app, game_id, head, made, battles)
    except Exception as error:  # derived data: never fail the command that reads it
        warnings.warn(f"the review of {game_id} was not stored: {error}", stacklevel=2)
        return False
    return True


def _whole(views: dict[str, GameView], kind: str) -> bytes:
    """A product made from the views in hand (when the store cannot give it back)."""
    from projections.report import report_json_body, report_text
    from projections.timeline import opening_part

    view = views[AS_ROLLED if kind.endswith("as_rolled") else CORRECTED]
    if kind == VIEW_OPENING:
        return _ENCODER.encode(opening_part(view))
    if kind.startswith("view:"):
        return _ENCODER.encode(view)
    return report_json_body(view) if kind.startswith("json") else report_text(view).encode()


def stored_findings(app: MinisterApplication, game_id: str, head: Head | None = None,
                    history: str = CORRECTED) -> tuple[Finding, ...] | None:
    """A history's findings as stored, if they cover the game's current events (``head``) and
    were made by this engine; None otherwise (the caller reviews the game)."""
    return _decoded(_FINDINGS, load(app, game_id, FINDINGS + history, head))


def stored_view(app: MinisterApplication, game_id: str, kind: str = VIEW_CORRECTED,
                head: Head | None = None) -> GameView:
    """A reviewed history of a stored game (``kind``: one of the ``VIEW_*`` products)."""
    data = product(app, game_id, kind, head)
    with no_gc():
        view = _decoded(_VIEW, data)
    if view is None:  # rows that put together no view (edited in the database): made again
        view = _VIEW.decode(_whole(remake(app, game_id), kind))
    return view


def check_stored_review(app: MinisterApplication, game_id: str) -> list[str]:
    """What ``verify --integrity`` says of the stored review: each product the rows give (while
    they cover the game's events) compared with the review of the events made now. Rows that
    differ were edited: they are named, dropped and made again (the rows are a cache, never
    evidence); stale or missing rows are nothing to compare."""
    head = head_of(app, game_id)
    if head is None:
        return []
    found = {kind: stored(app, game_id, kind, head) for kind in KINDS}
    if all(data is None for data in found.values()):
        return []
    fresh = products(app.game(game_id, version=head.version))
    differ = [kind for kind, data in found.items() if data is not None and data != fresh[kind]]
    if not differ:
        return []
    remake(app, game_id)
    return [f"the stored review's {', '.join(differ)} differ from the review of the events (its rows "
            "were edited after they were made): they are dropped and made again from the events"]


def remake(app: MinisterApplication, game_id: str) -> dict[str, GameView]:
    """Drop a game's stored review and store it made afresh (rows that cannot be read, or that
    put together no view: their digests cannot be trusted to say which to rewrite)."""
    forget(app, game_id)
    head, views = _review_now(app, game_id)
    _store_whole(app, game_id, head, views)
    return views


def stored_report(store: str | None, game_id: str, *, json: bool, as_rolled: bool) -> bytes:
    """The report ``minister replay GAME`` prints, from the store when fresh (JSON without its
    final newline)."""
    from application.adapters.stores import open_store

    app = open_store(store)
    try:
        return product(app, game_id, report_kind(json=json, as_rolled=as_rolled))
    finally:
        app.close()
