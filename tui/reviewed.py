"""A stored game's review and reports, kept in the store so opening a game does not review it.

What the commands and the timeline show of a stored game is made once, when its events are
recorded (``minister import``, ``report``, ``rule``, ``roll``), and kept in the store as products
(:mod:`application.adapters.review_store`): both reviewed histories, the opening part the timeline
paints first, and the JSON and text reports, as corrected and as rolled. Reading one back is a
row and a msgspec decode; when a product is missing or stale (newer events, a new engine), the
game is reviewed afresh and its products stored again.

This lives in ``tui/`` because it is the one layer that sees both the store (application) and
the reports (projections).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from application.adapters.review_store import Head, head_of, load, load_earlier, save
from application.adapters.timetravel import no_gc
from domain.review.views import BattleView, GameView

if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication
    from domain.record.game import Game
    from domain.review.memo import ReviewMemo

_VIEW = msgspec.msgpack.Decoder(GameView)
_ENCODER = msgspec.msgpack.Encoder()
#: The products kept per game (``view:*`` are msgpack GameViews; ``json``/``text`` the reports).
VIEW_CORRECTED, VIEW_AS_ROLLED, VIEW_OPENING = "view:corrected", "view:as_rolled", "view:opening"
#: The review memo of the stored review (application/adapters/memo_codec.py): never shown, read
#: by the next review of the same history.
MEMO = "memo"


def is_stored(ref: str) -> bool:
    """Whether a game reference names a stored game (else a replay file, as ``open_game`` reads it)."""
    from pathlib import Path

    return not (Path(ref).suffix == ".toml" or Path(ref).exists())


def report_kind(*, json: bool, as_rolled: bool) -> str:
    """The product name of a report: ``json`` or ``text``, ``:as_rolled`` for the record."""
    return ("json" if json else "text") + (":as_rolled" if as_rolled else "")


def products(game: Game, memo: ReviewMemo | None = None) -> dict[str, bytes]:
    """Every product of a game: its two reviews, the opening part, and the four reports
    (``memo``: what an earlier review of the same history worked out, reused where its inputs
    are unchanged; the result is the same)."""
    from domain.review.game_review import review
    from domain.review.memo import ReviewMemo
    from projections.report import report_json, report_text
    from projections.timeline import opening_part

    made: dict[str, bytes] = {}
    if memo is None:
        memo = ReviewMemo()  # the record as rolled reuses what the corrected review read and audited
    with no_gc():
        for as_rolled in (False, True):
            view = review(game, as_rolled=as_rolled, memo=memo)
            made[VIEW_AS_ROLLED if as_rolled else VIEW_CORRECTED] = _ENCODER.encode(view)
            made[report_kind(json=True, as_rolled=as_rolled)] = report_json(view)
            made[report_kind(json=False, as_rolled=as_rolled)] = report_text(view).encode()
            if not as_rolled:
                made[VIEW_OPENING] = _ENCODER.encode(opening_part(view))
    return made


def _review_now(app: MinisterApplication, game_id: str) -> tuple[Head, dict[str, bytes]]:
    """A stored game's products made from its current events, and the head they cover.

    The review memo stored with the last review of the same history (a desk command's new
    event only adds to it) is carried on: only what the new events touch is reviewed again,
    and the memo is stored back with the products (:data:`MEMO`)."""
    from application.adapters.memo_codec import MemoUnreadable, dump_memo, extend_memo, known_keys, load_memo

    head = head_of(app, game_id)
    if head is None:
        app.game(game_id)  # raises UnknownGameError, naming the game
        raise AssertionError("unreachable")
    game = app.game(game_id, version=head.version)
    earlier = load_earlier(app, game_id, MEMO, head)
    memo: ReviewMemo | None = None
    if earlier is not None:
        try:
            with no_gc():
                memo = load_memo(earlier[1])
        except MemoUnreadable:
            memo = None
    if memo is None or earlier is None:
        from domain.review.memo import ReviewMemo

        memo = ReviewMemo()
        made = products(game, memo)
        made[MEMO] = dump_memo(memo)
    else:
        known = known_keys(memo)
        made = products(game, memo)
        made[MEMO] = extend_memo(memo, earlier[1], known)
    return head, made
    known = known_keys(memo)
    made = products(game, memo)
    made[MEMO] = extend_memo(memo, earlier[1], known)
    return head, made


def keep(app: MinisterApplication, game_id: str) -> dict[str, bytes]:
    """Review a stored game at its current events and store its products; returns them."""
    head, made = _review_now(app, game_id)
    save(app, game_id, head, made)
    return made


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

    found = load(app, game_id, kind, head)
    if found is not None:
        return found
    covered, made = _review_now(app, game_id)
    try:
        save(app, game_id, covered, made)
    except Exception as error:  # a read-only store, say: show the review all the same
        warnings.warn(f"the review of {game_id} was not stored: {error}", stacklevel=2)
    return made[kind]


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
    """GameView with its battles left as raw msgpack (each decoded on its own, or shared)."""
    fields: list[tuple[str, object, object] | tuple[str, object]] = []
    for field in msgspec.structs.fields(GameView):
        kind = tuple[msgspec.Raw, ...] if field.name == "battles" else field.type
        fields.append((field.name, kind) if field.required else (field.name, kind, field.default))
    split: type[msgspec.Struct] = msgspec.defstruct("SplitGameView", fields, frozen=True)
    return split


_SPLIT = _split_type()
_BATTLE = msgspec.msgpack.Decoder(BattleView)


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
            rest = {name: getattr(split, name) for name in split.__struct_fields__ if name != "battles"}
            return GameView(**rest, battles=battles)
