"""A stored game's two reviewed histories as the timeline and the desk read them, from the
stored rows.

The two histories are mostly the same battles (only what a correction changed differs), so the
record as rolled shares the corrected history's battle wherever the stored bytes of the two are
the same, and each territory's board history likewise: on a 50,000-event game that is ~175 MB
the timeline does not hold twice. The rows and their freshness are
:mod:`application.usecases.review_model`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from application.adapters.review_store import head_of
from application.usecases.review_model import (
    AS_ROLLED,
    CORRECTED,
    VIEW_AS_ROLLED,
    VIEW_CORRECTED,
    VIEW_OPENING,
    made_whole,
    product,
    review_histories,
    store_review,
    stored,
    stored_view,
    stored_view_rows,
)
from domain.memory import no_gc
from domain.review.views import BattleView, DiceNeed, Finding, GameView
from domain.rules.forces import Force

if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication
    from domain.record.game import Game


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
_VIEW = msgspec.msgpack.Decoder(GameView)
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


def _battle(data: bytes, forces: dict[Force, Force]) -> BattleView:
    """Decode a battle view with each of its forces one object per value: decoded, every force
    is an object of its own (~350,000 in a 50,000-event game's view, a few thousand values:
    ~50 MB more). The view was just decoded: nothing else holds it while its fields are set."""
    battle = _BATTLE.decode(data)
    _share(battle, ("attacker_start", "defender_start"), forces)
    for rnd in battle.rounds:
        _share(rnd, ("attacker_losses", "defender_losses", "aa_losses"), forces)
        _share(rnd.attacker, _SIDE_FORCES, forces)
        _share(rnd.defender, _SIDE_FORCES, forces)
    if battle.result is not None:
        _share(battle.result, ("attacker_left", "defender_left", "attacker_retreated", "defender_withdrew"),
               forces)
    if battle.declared is not None:
        _share(battle.declared, ("defenders",), forces)
        for move in battle.declared.moves:
            _share(move, ("units",), forces)
    return battle


_SIDE_FORCES = ("units", "typed_units")
_SET = msgspec.structs.force_setattr


def _share(value: msgspec.Struct, names: tuple[str, ...], forces: dict[Force, Force]) -> None:
    """Set each named force field of a struct just decoded to the force of that value kept."""
    for name in names:
        force = getattr(value, name)
        if force is not None:
            kept = forces.setdefault(force, force)
            if kept is not force:
                _SET(value, name, kept)


class StoredGame:
    """One stored game's reviews as the timeline reads them: both of the same events (the
    head there was when it was opened)."""

    def __init__(self, game_id: str, store: str | None, app: MinisterApplication | None = None) -> None:
        """Open ``store`` (or read ``app``, a store already open)."""
        from application.adapters.stores import open_store

        self.game_id = game_id
        self.app = app if app is not None else open_store(store)
        self.head = head_of(self.app, game_id)
        if self.head is None:
            self.app.game(game_id)  # raises UnknownGameError, naming the game
        #: The corrected history's battles as decoded and the digests of their stored rows, until
        #: the record as rolled has been read against them (the digests, not the rows' ~28 MB on
        #: a 50,000-event game: a battle row's digest is its bytes').
        self._corrected: tuple[list[bytes], tuple[BattleView, ...]] | None = None
        #: The corrected history's board history, territory -> (as stored, as decoded), until then.
        self._places: dict[str, tuple[msgspec.Raw, PlaceHistory]] = {}
        #: Every force of the board histories read, one object per value.
        self._forces: dict[Force, Force] = {}

    def opening(self) -> GameView | None:
        """The opening part as its rows keep it, if they are fresh (None: stale, missing or
        unreadable: the caller reads the whole review, which makes them again). Never made here:
        the timeline reads it before its first frame, and a review is seconds of a big game."""
        data = stored(self.app, self.game_id, VIEW_OPENING, self.head)
        if data is None:
            return None
        try:
            with no_gc():
                return _VIEW.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None

    def view(self, kind: str) -> GameView:
        """One of the ``VIEW_*`` products, as of the events there were when opened."""
        if kind not in (VIEW_CORRECTED, VIEW_AS_ROLLED):
            return stored_view(self.app, self.game_id, kind, self.head)
        found: tuple[bytes, list[bytes] | None, list[bytes] | None] | None
        found = stored_view_rows(self.app, self.game_id, kind, self.head)
        if found is None:  # stale: made now and stored, then read from its rows
            covered, views = store_review(self.app, self.game_id)
            if views is None:
                found = stored_view_rows(self.app, self.game_id, kind, covered)
            if found is None:  # refused by the store, or moved on meanwhile: the view in one piece
                found = (made_whole(self.app, self.game_id, kind, covered, views), None, None)
        try:
            return self._decoded(kind, *found)
        except (msgspec.DecodeError, msgspec.ValidationError):
            # Rows that put together no view (edited in the database): the review made again.
            self._corrected, self._places, self._forces = None, {}, {}
            return stored_view(self.app, self.game_id, kind, self.head)

    def _decoded(self, kind: str, data: bytes, rows: list[bytes] | None,
                 digests: list[bytes] | None) -> GameView:
        """A view decoded: ``data`` with its battles, or without them and ``rows`` its battle
        rows' views, ``digests`` their digests (None: not read from rows)."""
        with no_gc():
            split = msgspec.msgpack.decode(data, type=_SPLIT)
            raw: Sequence[bytes] = split.battles if rows is None else rows  # type: ignore[attr-defined]
            if kind == VIEW_AS_ROLLED and self._corrected is not None and digests is not None:
                listed, shared = self._corrected
                self._corrected = None
                battles = tuple(shared[i] if i < len(shared) and listed[i] == digests[i]
                                else _battle(one, self._forces) for i, one in enumerate(raw))
            else:
                battles = tuple(_battle(one, self._forces) for one in raw)
                if kind == VIEW_CORRECTED:
                    self._corrected = (digests, battles) if digests is not None else None
            places: dict[str, msgspec.Raw] = split.board_history  # type: ignore[attr-defined]
            history = _board_history(places, self._places, self._forces)
            if kind == VIEW_CORRECTED:
                self._places = {territory: (places[territory], history[territory]) for territory in places}
            else:
                self._places, self._forces = {}, {}
            rest = {name: getattr(split, name) for name in split.__struct_fields__
                    if name not in ("battles", "board_history")}
            return GameView(**rest, battles=battles, board_history=history)


def reviewed_views(app: MinisterApplication, game_id: str, game: Game, *,
                   as_rolled: bool = True) -> dict[str, GameView]:
    """The reviewed histories of a stored game read at its last event, by name (the corrected
    one, and the record as rolled unless not ``as_rolled``): the stored review's (the record as
    rolled sharing what it has in common with the corrected one, as the timeline reads them),
    made now and stored if stale; ``game`` reviewed if an event was recorded since it was read.
    Reading the rows costs a fraction of a review: the desk's ``letter``, ``bundle`` and the
    ``dice`` note read them."""
    stored = StoredGame(game_id, None, app)
    if stored.head is None or stored.head.version != game.version:
        return review_histories(game)
    views = {CORRECTED: stored.view(VIEW_CORRECTED)}
    if as_rolled:
        views[AS_ROLLED] = stored.view(VIEW_AS_ROLLED)
    return views


class BattleAwaiting(msgspec.Struct, frozen=True):
    """A battle of the corrected history as the desk's dice note reads it: which battle, and
    the next throw it awaits (None: none)."""

    turn: str
    battle: str
    needed: DiceNeed | None = None


class AwaitedDice(msgspec.Struct, frozen=True):
    """What the desk's dice note reads of a game's corrected history: its findings and what each
    battle awaits, decoded alone from the stored view (the whole view is ~150 MB of objects on a
    50,000-event game, for a few fields the note reads)."""

    findings: tuple[Finding, ...]
    battles: tuple[BattleAwaiting, ...]


_AWAITED = msgspec.msgpack.Decoder(AwaitedDice)


def awaited_dice(app: MinisterApplication, game_id: str, game: Game) -> AwaitedDice:
    """The findings and awaited dice of a stored game's corrected history read at its last
    event, as :func:`reviewed_views` reads the view."""
    stored = StoredGame(game_id, None, app)
    if stored.head is None or stored.head.version != game.version:
        return _awaited(review_histories(game)[CORRECTED])
    data = product(app, game_id, VIEW_CORRECTED, stored.head)
    try:
        with no_gc():
            return _AWAITED.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        # Rows that put together no view (edited in the database): the review made again.
        return _awaited(stored_view(app, game_id, VIEW_CORRECTED, stored.head))


def _awaited(view: GameView) -> AwaitedDice:
    return AwaitedDice(view.findings, tuple(BattleAwaiting(b.turn, b.battle, b.needed) for b in view.battles))
