"""The service layer: the few use cases the interfaces call, over replay files and stores.

A game reference is a path to a replay file or the id of a game in the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from domain.errors import ReplayError

if TYPE_CHECKING:  # the engine loads only when a game is opened, not for check_stored
    from domain.record.game import Game


def open_game(ref: str, *, store: str | None = None) -> Game:
    """The Game a reference names: a replay file read afresh, else a stored game by id.

    An existing file wins; a name ending in ``.toml`` that is no file may still be a game id
    (ids are the players' choice), and is looked up in the store before the file is reported
    missing.
    """
    from application.intake.replayfile import load_replay

    path = Path(ref)
    if path.exists():
        return load_replay(path).game
    from application.adapters.app import UnknownGameError
    from application.adapters.stores import open_store  # the store is only needed for stored games

    if path.suffix == ".toml":
        try:
            return open_store(store).game(ref)
        except UnknownGameError:
            raise ReplayError("cannot read the file (no such file, and no game with that id "
                              "in the store)", source=ref) from None
    return open_store(store).game(ref)


def check_stored(game_id: str, *, store: str | None = None) -> None:
    """Refuse a stored game whose record fails its own checks, before anything of it is shown:
    its hash chain recomputed from the stored bytes and every event decoded
    (:class:`application.adapters.integrity.TamperedError`, exit 1, names the first event that
    fails). A game the store does not hold passes: the caller says it is unknown."""
    from application.adapters.eventstore import read_states
    from application.adapters.integrity import walk_stored
    from application.adapters.stores import open_store
    from domain.record.events import game_uuid

    app = open_store(store)
    try:
        states = read_states(app, game_uuid(game_id))
        if states:
            walk_stored(game_id, states)
    finally:
        app.close()
