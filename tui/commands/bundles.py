"""Evidence bundles as the commands read them: the letter a bundle holds, and a bundle, a replay
file or a stored game named on the command line opened read-only (a bundle after its own checks).
Shared by ``letter``, ``bundle``, ``export``, ``replay``, ``chart`` and the timeline."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from application.usecases.desk.bundle import OpenedBundle
    from domain.record.game import Game


def letter_text(game: Game) -> str:
    """The whole game's letter as plain text, signed and dated by default (what a bundle holds),
    made from the events: never from the stored review's rows (a cache, never evidence)."""
    from domain.review.game_review import review_both
    from projections.letter import build_letter, render

    corrected, rolled = review_both(game)
    return render(build_letter(game, corrected, rolled))


def bundled(ref: str) -> OpenedBundle | None:
    """The evidence bundle ``ref`` names, read only once its own checks hold (exit 1 naming the
    first part at fault otherwise); None when ``ref`` is no bundle."""
    from application.usecases.desk.bundle import open_bundle

    path = Path(ref)
    return open_bundle(path, letter_text) if path.is_file() else None


def open_ref(ref: str, store: str | None) -> Game:
    """The game a command names: an evidence bundle (read only), a replay file, or a stored
    game (its record checked first: a damaged one is refused, exit 1)."""
    opened = bundled(ref)
    if opened is not None:
        return opened.game
    if Path(ref).exists() or Path(ref).suffix == ".toml":
        from application.usecases.services import open_game

        return open_game(ref, store=store)  # a replay file (or an id that looks like one)
    from application.adapters.stores import open_store

    app = open_store(store)
    try:
        return app.game(ref)
    finally:
        app.close()


