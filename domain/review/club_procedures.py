"""The club's procedures the Minister of Law rules on (2008 2nd Edition Unabridged Rules):
bids, Magic 84, forfeit eligibility, game completion and annulment.

Each is a finding with the rule cited. Bids placed illegally are errors; the others state the
game's status (the game is over, a forfeit may be requested, the finish was posted too early by
the loser, the game is annulled) and are never remedies of their own.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from operator import itemgetter

from domain.record.board.walk import BoardAt, BoardWalk
from domain.record.club_filing import conceded
from domain.record.entries import BoardNote, allied
from domain.record.game import Game
from domain.record.treasury import cost_of
from domain.review.rolling_errors import Issue
from domain.review.views import time_text
from domain.rules.board import Board
from domain.rules.findings import FindingKind
from domain.rules.forces import Force
from domain.rules.turns import turn_of
from domain.rules.units import AXIS

#: 2008 Rules Clarifications, Magic 84: the Axis IPC count that ends the game.
MAGIC_84 = 84
#: 2008 Forfeits: a player who has not submitted his turn within 5 days may be forfeited.
FORFEIT_AFTER = timedelta(days=5)
#: 2008 Game Completion: the loser may enter the finish 7 days after the game ended.
LOSER_MAY_POST_AFTER = timedelta(days=7)
#: Who may post an annulment: both players, by mutual agreement.
MUTUAL = ("both", "mutual")


def audit_procedures(game: Game, walk: BoardWalk, board: Board | None = None) -> list[tuple[str, Issue]]:
    """Every club-procedure finding of the game, each with the turn it belongs to."""
    board = board or Board.classic()
    found: list[tuple[str, Issue]] = []
    for note in game.board_log:
        if note.kind == "bid":
            found += [("USSR 1", issue) for issue in _bid(note, walk.before(note.seq), board)]
    ended = _magic_84(walk, board, found)
    # A concession or an approved forfeit ends the game too (2008 Game Commitments; Forfeits):
    # the loser may post its finish only 7 days after (Game Completion).
    closed = conceded(game.board_log)
    if closed is not None and closed[0].at is not None and (ended is None or closed[0].at < ended):
        ended = closed[0].at
    found += _forfeits(game)
    for note in game.board_log:
        if note.kind == "finish":
            found += _finish(note, ended, game)
    return found


# -- bids -----------------------------------------------------------------------------------------
def _bid(note: BoardNote, state: BoardAt, board: Board) -> list[Issue]:
    """2008 Bidding: where bid units may go, and negative bids not mixed with additions."""
    found = [Issue(FindingKind.BID_ILLEGAL, f"{entry.units} for {entry.power} in {entry.territory}: {why} "
                   "(2008 Bidding)", at=note.at, place=(entry.territory, entry.power),
                   where=f"{entry.territory}/{entry.power}")
             for entry in note.holdings if (why := _misplaced(entry.power, entry.territory, entry.units,
                                                              state, board))]
    added = note.holdings or any(extra > 0 for _, extra in note.ipcs)
    if note.removed and added:
        found.append(Issue(FindingKind.BID_ILLEGAL,
                           "the bid removes units and adds units or IPCs: negative bids "
                           "may not be combined with additions (2008 Bidding)", at=note.at))
    return found + _bid_total(note)


#: 2008 How to Start a Game (the Challenge), said of sending and of accepting a challenge alike.
BID_TOTAL_RULE = ("2008 How to Start a Game (the Challenge): \"If there is a discrepancy between these the "
                  "bid that you entered in the 'Your Bid (IPC Total Value)' block will take precedence. "
                  "You will then simply adjust the bid details to match the bid.\"")


def _bid_total(note: BoardNote) -> list[Issue]:
    """The bid total against what its details are worth: the units added at their cost (2008
    Bidding: "Bids are compared by IPC value"; ICs and AA guns count as land units), the extra
    IPCs, less the units a negative bid removes. ``total`` not stated: nothing to compare."""
    if note.total is None:
        return []
    parts = [(f"{entry.units} for {entry.power} in {entry.territory}", cost_of(entry.units))
             for entry in note.holdings]
    parts += [(f"{extra} IPCs for {power}", extra) for power, extra in note.ipcs]
    parts += [(f"{entry.units} of {entry.power} removed from {entry.territory}", -cost_of(entry.units))
              for entry in note.removed]
    worth = sum(value for _, value in parts)
    if worth == note.total:
        return []
    listed = "; ".join(f"{what}: {value}" for what, value in parts) or "none"
    return [Issue(FindingKind.BID_TOTAL_MISMATCH,
                  f"the bid details are worth {worth} IPCs ({listed}), the bid total entered is "
                  f"{note.total}: the total takes precedence and the details are to be adjusted to "
                  f"match it ({BID_TOTAL_RULE})", at=note.at)]


def _misplaced(power: str, territory: str, units: Force, state: BoardAt, board: Board) -> str:
    """Why a bid placement is illegal ("" when it is legal)."""
    if power not in AXIS:
        return "bids give units to the Axis powers only"
    place = board.territory(territory)
    if not place.sea:
        if any(u.is_sea for u in units.types):
            return "naval units are placed in sea zones"
        holder = state.control_of(territory)
        if holder != power:
            return f"land units go in a territory {power} controls ({territory} is {holder or 'neutral'}'s)"
        return ""
    if any(u.is_air for u in units.types):
        return "fighters cannot be placed on existing or bid carriers"
    if any(u.is_land for u in units.types):
        return "land units go in a territory, not a sea zone"
    if not any(state.control_of(t.name) == power for t in board.neighbours(territory) if not t.sea):
        return f"the sea zone is not next to a territory {power} controls"
    if any(force and not allied(owner, power) for owner, force in state.holders(territory).items()):
        return "Allied units occupy the sea zone"
    return ""


# -- Magic 84 -------------------------------------------------------------------------------------
def _magic_84(walk: BoardWalk, board: Board, found: list[tuple[str, Issue]]) -> datetime | None:
    """2008 Rules Clarifications, Magic 84: counted immediately after the United States' turn.
    Returns when the game ended by it (None: it did not)."""
    if not walk.from_setup:
        return None  # a record that starts mid-game does not know every territory's holder
    for turn, at, seq in walk.round_ends:
        axis = _axis_ipcs(walk, seq)
        if axis >= MAGIC_84:
            found.append((turn, Issue(FindingKind.MAGIC_84, f"after {turn} the Axis IPC count is {axis} "
                                      f"(at least {MAGIC_84}): the game is over, won by the Axis "
                                      "(2008 Rules Clarifications, Magic 84)", at=at, effective=False)))
            return at
    return None


def _axis_ipcs(walk: BoardWalk, seq: int) -> int:
    """The IPC value of every territory the Axis controls before record ``seq``."""
    return walk.before(seq).side_ipcs(AXIS)


# -- forfeits -------------------------------------------------------------------------------------
def _turn_times(game: Game) -> list[tuple[str, datetime, datetime]]:
    """(turn, when its first record happened, when its last did) of every turn with a timed
    record, turns in the order they began (at the same time, by name)."""
    times: list[tuple[str, datetime]] = []
    times += [(d.turn, d.at) for d in game.declarations if d.at is not None]
    times += [(n.turn, n.at) for n in game.board_log if n.turn and n.at is not None]
    times += [(n.turn, n.at) for n in game.noncombat if n.at is not None]
    times += [(b.turn, r.at) for b in game.battles for r in b.rolls if r.at is not None]
    times.sort(key=_AT)
    # (Made in C, not a loop over every roll: a later time of a turn replaces an earlier one.)
    last, first = dict(times), dict(reversed(times))
    return [(turn, at, last[turn]) for at, turn in sorted([(at, turn) for turn, at in first.items()])]


#: A time's when.
_AT = itemgetter(1)


def _forfeits(game: Game) -> list[tuple[str, Issue]]:
    """2008 Forfeits: no turn submitted within 5 days: the opponent may request a forfeit."""
    found: list[tuple[str, Issue]] = []
    for (before, _, done), (turn, begun, _) in pairwise(_turn_times(game)):
        gap = begun - done
        if gap > FORFEIT_AFTER:
            power = turn_of(turn).power
            opponent = "Allies" if power in AXIS else "Axis"
            found.append((turn, Issue(
                FindingKind.FORFEIT_ELIGIBLE, f"{turn} was begun {gap.days} days after {before} ended: from "
                f"{time_text(done + FORFEIT_AFTER)} the {opponent} player could request a forfeit "
                "(2008 Forfeits)", at=begun, effective=False)))
    return found


# -- completion and annulment ---------------------------------------------------------------------
def _finish(note: BoardNote, ended: datetime | None, game: Game) -> list[tuple[str, Issue]]:
    """2008 Game Completion (the victor posts; the loser after 7 days) and Annulments (by mutual
    agreement)."""
    noted = [n.turn for n in game.board_log if n.turn and n.seq < note.seq]
    turn = noted[-1] if noted else next(reversed(game.turns), "USSR 1")
    if note.result == "annulled":
        if note.by.lower() in MUTUAL:
            return [(turn, Issue(FindingKind.ANNULLED,
                                 "the game is annulled by mutual agreement: not a draw, no "
                                 "ranking or rating points (2008 Annulments)", at=note.at, effective=False))]
        return [(turn, Issue(FindingKind.ANNULLED,
                             f"an annulment posted by {note.by} alone: a game is annulled only "
                             "by mutual agreement (2008 Annulments)", at=note.at))]
    side = "Axis" if note.by in AXIS or note.by == "Axis" else "Allies"
    if side == note.result or ended is None or note.at is None:
        return []
    waited = note.at - ended
    if waited >= LOSER_MAY_POST_AFTER:
        return []
    return [(turn, Issue(FindingKind.FINISH_EARLY,
                         f"the {side} (the loser) posted the finish {waited.days} days after "
                         "the game ended: the loser may post it only after 7 days (2008 Game Completion)",
                         at=note.at))]
