"""Replay documents for tests: one battle (a position, its declaration and its roll) written once.

The tests that need a small game to run (the desk's commands, the edition choices, the battle-log
properties, the replay reader) build it here instead of each writing the same TOML by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

#: When the position, the declaration and the roll are stamped (each a minute apart).
TIMES = ("2008-01-01T10:00:00Z", "2008-01-01T10:01:00Z", "2008-01-01T10:02:00Z")


def one_battle(game_id: str, *, units: Sequence[str], turn: str, declaration: str, battle: str,
               log: str, edition: str = "iaapa-2008", game_extra: str = "",
               times: Sequence[str] = TIMES, extra: str = "") -> str:
    """A ``minister-replay/1`` document of one battle: ``units`` placed, ``declaration`` made in
    ``turn``, ``log`` rolled for ``battle``; ``game_extra`` adds lines to [game] (a title, a dice
    seed), ``extra`` tables after the roll."""
    position, declared, rolled = times
    listed = ", ".join(f'"{line}"' for line in units)
    game_lines = f"\n{game_extra}" if game_extra else ""
    return f'''format = "minister-replay/1"
[game]
id = "{game_id}"
edition = "{edition}"{game_lines}
[[event]]
type = "position"
at = {position}
units = [{listed}]
[[event]]
type = "declaration"
at = {declared}
turn = "{turn}"
text = """
{declaration}
"""
[[event]]
type = "roll"
at = {rolled}
battle = "{battle}"
log = """
{log}
"""
{extra}'''
