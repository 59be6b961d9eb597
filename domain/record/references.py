"""What a record names, resolved against the game as it stands when the record is made.

A report, a ruling, dice for a correction name a battle by its territory and, where the
territory alone is ambiguous (two battles of the game were fought there), by its turn too; an
amendment or a withdrawal names an earlier report or ruling still in force. The desk's commands
(``minister report``, ``rule``, ``dice``, ``roll``) and the replay file's records ask the same
questions here, so a reference the command line refuses is refused in the file as well, and
neither ever falls back silently on the latest battle of a territory.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass

from domain.errors import InvalidNotationError, MinisterError
from domain.record.entries import BattleRecord, ReportEntry, RulingEntry
from domain.record.game import Game, parse_turn, turn_label
from domain.record.intake import battle_territory


class BadReference(MinisterError):
    """A record names something the game does not have, or names it ambiguously.

    ``part`` is the record's key (or the command's option without its dashes) at fault:
    ``battle``, ``turn``, ``amends``, ``withdraws``."""

    def __init__(self, message: str, part: str) -> None:
        super().__init__(message)
        self.message = message
        self.part = part


def turn_named(game: Game, text: str) -> str:
    """The canonical label of a turn the game has (``"uk 1"`` -> ``"UK 1"``)."""
    try:
        label = turn_label(*parse_turn(text))
    except InvalidNotationError:
        raise BadReference(f"{text!r}: expected a turn such as 'USSR 3' (power and game round)",
                           "turn") from None
    if label not in game.turns:
        raise BadReference(f"{text!r}: game {game.game_id!r} has no such turn (its turns with "
                           f"battles: {', '.join(game.turns) or 'none'})", "turn")
    return label


def candidates(battles: list[BattleRecord]) -> str:
    """Battles as a message lists them: "Karelia S.S.R. (Germany 1), Karelia S.S.R. (UK 3)"."""
    return ", ".join(f"{b.territory} ({b.turn})" for b in battles) or "none"


def named_battle(game: Game, name: str, turn: str | None = None, *,
                 several: bool = False) -> BattleRecord:
    """The battle in force a record names: its territory, and its turn when given.

    Refused (:class:`BadReference`) when no battle of the game matches, and when the territory
    alone names several (two turns fought there): the turn must then be named, the candidates
    are listed. ``several``: a record that may be about any battle of its territory (a report
    in a replay file without ``turn``) is not refused then; the latest is returned."""
    label = turn_named(game, turn) if turn is not None else None
    try:
        territory = battle_territory(name)
    except InvalidNotationError as error:
        raise BadReference(f"{name!r}: game {game.game_id!r} has no such battle ({error.message})",
                           "battle") from None
    if several:
        # The latest battle there (of the turn): found from the territory's latest battle
        # back, not by reading every battle of the game (a replay file's reports would make
        # reading it quadratic). None: said below, with the game's battles listed.
        with suppress(KeyError):
            return game.battle(name, label, territory=territory)
    here = [b for b in game.battles if b.territory == territory]
    found = [b for b in here if label is None or b.turn == label]
    if not found:
        where = f" in {label}" if label else ""
        raise BadReference(f"{name!r}: game {game.game_id!r} has no such battle: none in {territory}{where} "
                           f"(its battles: {candidates(sorted_battles(game))})",
                           "turn" if here else "battle")
    if len(found) > 1 and not several:
        raise BadReference(f"{name!r} names {len(found)} battles of game {game.game_id!r}: "
                           f"{candidates(found)}; name its turn too", "battle")
    return found[-1]


def sorted_battles(game: Game) -> list[BattleRecord]:
    """The game's battles in force, by territory then declaration (for messages)."""
    return sorted(game.battles, key=lambda b: (b.territory, b.declared_seq))


@dataclass(frozen=True)
class Live:
    """What an event number names among the reports and rulings in force."""

    report: ReportEntry | None = None
    ruling: RulingEntry | None = None


def entry_version(game: Game, seq: int) -> int:
    """The event version of the record numbered ``seq``."""
    return seq + game.version - game.seq


def live_entry(game: Game, version: int, part: str, *, reports: bool = True,
               rulings: bool = True) -> Live:
    """The report or ruling in force recorded as event ``version`` (``reports``/``rulings``: the
    kinds it may be); :class:`BadReference` (on ``part``) listing the ones that may be named."""
    live: list[ReportEntry | RulingEntry] = []
    if reports:
        live += game.live_reports
    if rulings:
        live += game.live_rulings
    for entry in live:
        if entry_version(game, entry.seq) == version:
            return Live(report=entry) if isinstance(entry, ReportEntry) else Live(ruling=entry)
    names = " or ".join(name for name, wanted in (("report", reports), ("ruling", rulings)) if wanted)
    known = ", ".join(str(entry_version(game, e.seq)) for e in sorted(live, key=lambda e: e.seq)) or "none"
    raise BadReference(f"event {version} of game {game.game_id!r} is not a {names} in force "
                       f"(expected one of: {known})", part)
