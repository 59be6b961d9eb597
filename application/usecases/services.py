"""The service layer: the few use cases the interfaces call, over replay files and stores.

A game reference is a path to a replay file or the id of a game in the store.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
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


def check_stored_aside(game_id: str, *, store: str | None = None) -> Callable[[], None]:
    """:func:`check_stored` begun in a child process, so the caller loads what it will show
    meanwhile; the function returned waits for the child and raises what :func:`check_stored`
    raises. Nothing may be shown before it returns.

    On two cores the check (~0.3 s on the stored 50,000-event generated game) runs beside the
    timeline's start (Textual's ~0.15 s) instead of before it. The child says only pass or fail
    (its exit status: nothing crosses from it but that), and a failure is checked again here,
    so the error raised is the check's own, naming the event. Where the system cannot fork, or
    threads run (a fork would copy them half-way), the check runs here at once.
    """
    if not hasattr(os, "fork") or threading.active_count() > 1:
        check_stored(game_id, store=store)
        return lambda: None
    child = os.fork()
    if child == 0:  # the child: the check and its verdict, then gone, nothing of the parent's run
        try:
            check_stored(game_id, store=store)
        except BaseException:
            os._exit(1)
        os._exit(0)

    def verdict() -> None:
        if os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) != 0:
            check_stored(game_id, store=store)  # raises the check's own error, naming the event

    return verdict
