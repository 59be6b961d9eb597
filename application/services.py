"""The service layer: the few use cases the interfaces call, over replay files and stores.

A game reference is a path to a replay file or the id of a game in the store.
"""

from __future__ import annotations

from pathlib import Path

from application.replayfile import load_replay
from domain.record.game import Game


def open_game(ref: str, *, store: str | None = None) -> Game:
    """The Game a reference names: a replay file read afresh, else a stored game by id."""
    path = Path(ref)
    if path.suffix == ".toml" or path.exists():
        return load_replay(path).game
    from application.stores import open_store  # the store is only needed for stored games

    return open_store(store).game(ref)
