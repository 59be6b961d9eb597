"""Evidence bundles as the commands read them: the letter a bundle holds, and a bundle, a replay
file or a stored game named on the command line opened read-only (a bundle after its own checks).
Shared by ``letter``, ``bundle``, ``export``, ``replay``, ``chart`` and the timeline."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication
    from application.usecases.desk.bundle import LetterWriter, OpenedBundle
    from domain.record.game import Game
    from domain.review.views import GameView


def letter_text(game: Game) -> str:
    """The whole game's letter as plain text, signed and dated by default (what a bundle holds)."""
    from domain.review.game_review import review_both

    return _letter(game, *review_both(game))


def stored_letter_text(app: MinisterApplication, game_id: str) -> LetterWriter:
    """:func:`letter_text` for a stored game: its reviews read from its stored review when that
    covers the game's events (the same views: the rows are what reviewing it gives)."""
    from application.usecases.review_model import AS_ROLLED, CORRECTED
    from application.usecases.stored_game import reviewed_views

    def written(game: Game) -> str:
        views = reviewed_views(app, game_id, game)
        return _letter(game, views[CORRECTED], views[AS_ROLLED])

    return written


def _letter(game: Game, corrected: GameView, rolled: GameView) -> str:
    from projections.letter import build_letter, render

    return render(build_letter(game, corrected, rolled))


def reviewed_ref(ref: str, store: str | None) -> tuple[Game, GameView, GameView]:
    """The game a command names (as :func:`open_ref` opens it) and both its reviewed histories
    (corrected, as rolled): a stored game's from its stored review when that covers the game."""
    from application.usecases.review_model import is_stored

    if not is_stored(ref):
        from domain.review.game_review import review_both

        game = open_ref(ref, store)
        return (game, *review_both(game))
    from application.adapters.stores import open_store
    from application.usecases.review_model import AS_ROLLED, CORRECTED
    from application.usecases.stored_game import reviewed_views

    app = open_store(store)
    try:
        game = app.game(ref)
        views = reviewed_views(app, ref, game)
        return game, views[CORRECTED], views[AS_ROLLED]
    finally:
        app.close()


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


