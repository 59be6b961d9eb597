"""The whole game reviewed: every battle as rolled or as corrected, with its findings.

This is the one entry point the projections call. Corrections (the edition's remedies) plug
in here; a battle with no finding stands as rolled.
"""

from __future__ import annotations

from domain.analysis import analyse_as_rolled
from domain.game import Game
from domain.views import BattleView, GameView


def review(game: Game, *, as_rolled: bool = False) -> GameView:
    """Analyse every declared battle of the game, in declaration order."""
    battles: list[BattleView] = [analyse_as_rolled(record) for record in game.battles]
    return GameView(game_id=game.game_id, edition=game.edition, title=game.title,
                    as_rolled=as_rolled, findings=(), battles=tuple(battles))
