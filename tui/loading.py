"""Where the timeline app gets its game: the two reviews, made in a worker thread.

The corrected history comes first so the timeline can open on it; the record as rolled (the
variations, the ``v`` switch and the diff) follows while the user already looks around.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import msgspec

from domain.review.views import GameView

if TYPE_CHECKING:
    from application.usecases.stored_game import StoredGame
    from domain.review.game_review import GameReview

#: ``progress(stage, fraction done)`` as a source works.
ProgressFn = Callable[[str, float], None]


class GameSource(Protocol):
    """Both reviews of one game, in the order the app needs them."""

    def corrected(self, progress: ProgressFn) -> GameView:
        """The history as corrected (read the game first if needed)."""
        ...

    def as_rolled(self, progress: ProgressFn) -> GameView:
        """The record as rolled (called after :meth:`corrected`)."""
        ...


class FileSource:
    """A replay file or a stored game id, read and reviewed on demand."""

    def __init__(self, ref: str, *, store: str | None = None) -> None:
        self.ref = ref
        self.store = store
        self._game: object | None = None
        self._stored: StoredGame | None = None
        self._review: GameReview | None = None
        #: The stored opening read ahead (:meth:`read_opening`), for the first frame to take once.
        self._opening: GameView | None = None

    def _stored_game(self, progress: ProgressFn) -> StoredGame | None:
        """The stored game (opened on first use; None for a replay file)."""
        from application.usecases.review_model import is_stored
        from application.usecases.stored_game import StoredGame

        if not is_stored(self.ref):
            return None
        if self._stored is None:
            progress(f"Reading {self.ref}", 0.0)
            self._stored = StoredGame(self.ref, self.store)
        return self._stored

    def _stored_view(self, kind: str, progress: ProgressFn) -> GameView | None:
        """The stored review of a stored game (None for a replay file): no review to wait for."""
        stored = self._stored_game(progress)
        return stored.view(kind) if stored is not None else None

    def _reviewer(self, progress: ProgressFn) -> GameReview:
        """One review for both histories: the record as rolled reuses what the first one read."""
        from domain.record.game import Game
        from domain.review.game_review import GameReview

        if self._review is None:
            game = self._read(progress)
            assert isinstance(game, Game)
            self._review = GameReview(game)
        return self._review

    def _read(self, progress: ProgressFn) -> object:
        if self._game is None:
            from tui.commands.bundles import open_ref  # a bundle too: read only, after its checks

            progress(f"Reading {self.ref}", 0.0)
            self._game = open_ref(self.ref, self.store)
        return self._game

    def opening(self, progress: ProgressFn) -> GameView | None:
        """The first battles of a stored game's corrected history, as the store keeps them for
        the first paint, if its rows are fresh (None for a replay file, or stale rows: then the
        whole review is read, or made, behind the progress bar)."""
        ahead, self._opening = self._opening, None
        if ahead is not None:
            return ahead
        stored = self._stored_game(progress)
        return stored.opening() if stored is not None else None

    def read_opening(self) -> None:
        """Read a stored game's opening now, for the first frame to take: what ``minister show``
        does while the record is checked, before anything is shown. Whatever goes wrong here is
        left for the first frame, which reads again and says it, or for the check's verdict."""
        try:
            self._opening = self.opening(lambda stage, fraction: None)
        except Exception:  # a damaged store: the check (or the app's own read) names the fault
            self._opening = None

    def corrected(self, progress: ProgressFn) -> GameView:
        """Read the game and review it as corrected."""
        stored = self._stored_view("view:corrected", progress)
        if stored is not None:
            return stored
        # The engine only for a replay file: a stored game's review is read, not made.
        reviewer = self._reviewer(progress)
        progress("Reviewing the record: the history as corrected", 0.5)
        return reviewer.corrected()

    def as_rolled(self, progress: ProgressFn) -> GameView:
        """Review the game as rolled."""
        stored = self._stored_view("view:as_rolled", progress)
        if stored is not None:
            return stored
        # The engine only for a replay file: a stored game's review is read, not made.
        reviewer = self._reviewer(progress)
        progress("Reviewing the record as rolled", 0.0)
        return reviewer.as_rolled()


class ViewsSource:
    """Views already made (tests, benchmarks)."""

    def __init__(self, corrected: GameView, as_rolled: GameView | None = None) -> None:
        self._corrected = corrected
        self._as_rolled = as_rolled if as_rolled is not None else msgspec.structs.replace(
            corrected, as_rolled=True)

    def corrected(self, progress: ProgressFn) -> GameView:
        """The corrected view given."""
        return self._corrected

    def as_rolled(self, progress: ProgressFn) -> GameView:
        """The as-rolled view given (the corrected one marked as rolled, when none was)."""
        return self._as_rolled
