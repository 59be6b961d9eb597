"""The treasury and the new units checked: purchases against the IPCs on hand, placements against
the purchases and the industrial complexes, map updates against the territories that changed hands.

Each is a finding with the rule cited (Classic rulebook, MB 2nd edition, and the 2008 2nd Edition
Unabridged Rules' Rules Clarifications, Bidding and Post Combat Orders):

- ``purchase_overspent``: units bought for more than the power's IPCs, or while an enemy holds its
  capital (2008 Income Collection and Spending);
- ``treasury_wrong``: the IPCs a purchase says the power had differ from the treasury as computed
  (digits transposed too: 2008 Section VI, "A number can never be a typographical error");
- ``placement_unpurchased``: units placed that were not bought that turn;
- ``placement_illegal``: land and air units placed where the power had no industrial complex at
  the start of its turn, naval units in a sea zone next to none, a fighter placed on a carrier,
  more units than a bid IC produces (2008 Placement of New Units; Bidding);
- ``units_unplaced``: units bought and not placed by the end of the turn (noted, not an error);
- ``map_update_incomplete``: a map update that leaves out a territory the power took that turn,
  or lists one the board shows an enemy holding (Post Combat Orders: the map update lists "all
  territories that said country has units in and/or possesses").
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from operator import itemgetter

from domain.record.board.walk import BoardAt, BoardWalk
from domain.record.entries import BoardNote, allied
from domain.record.game import Game
from domain.record.treasury import Spend, TreasuryWalk
from domain.review.rolling_errors import Issue
from domain.review.views import Purse
from domain.rules.board import Board
from domain.rules.findings import FindingKind as K
from domain.rules.forces import EMPTY, Force
from domain.rules.units import UnitType

_PLACEMENT = "2008 Rules Clarifications, Placement of New Units"
_SPENDING = "2008 Rules Clarifications, Income Collection and Spending"
_CLASSIC_PURCHASE = "Classic rulebook (MB 2nd edition), Purchase Units"
_CLASSIC_PLACE = "Classic rulebook (MB 2nd edition), Place New Units"


def audit_treasury(game: Game, walk: BoardWalk, rolled: BoardWalk,
                   treasury: TreasuryWalk) -> list[tuple[str, Issue]]:
    """Every treasury, placement and map-update finding of the game, each with its turn."""
    found: list[tuple[str, Issue]] = []
    for spend in treasury.spends:
        if spend.what == "purchase":
            found += [(spend.turn, issue) for issue in _purchase(spend)]
    if walk.from_setup:
        found += _placements(game, walk, treasury)
    found += _map_updates(game, walk, rolled, treasury)
    return found


def purses(treasury: TreasuryWalk, walk: BoardWalk, seq: int) -> tuple[Purse, ...]:
    """Each power's IPCs and income just before record ``seq`` (none when the record does not
    know the treasury), in turn order."""
    if not treasury.known:
        return ()
    # Asked for every battle: the purses of every stretch of records between two changes of
    # the treasury or the incomes are made once, in one pass over the changes (TreasuryWalk.marks).
    table: list[tuple[Purse, ...]] | None = treasury.purses.get("table")
    if table is None:
        table = treasury.purses["table"] = _purse_table(treasury, walk.board.powers)
    stretch = bisect_left(treasury.marks(), seq)
    if stretch:
        return table[stretch]
    # Before the first change (no record of a game precedes the start): as the records read.
    ipcs, income = treasury.before(seq), treasury.income_before(seq)
    return tuple(Purse(power, ipcs.get(power, 0), income[power]) for power in walk.board.powers)


def _purse_table(treasury: TreasuryWalk, powers: tuple[str, ...]) -> list[tuple[Purse, ...]]:
    """Stretch ``i`` (the records after the first ``i`` marks, up to the next) -> each power's
    purse then: the treasury and the incomes moved on mark by mark, a power's purse made again
    only where its IPCs or its income change (a change of control changes one or two incomes)."""
    marks = treasury.marks()
    ipcs_at: dict[int, list[tuple[str, int]]] = {}
    for power, entries in treasury.history.items():
        for seq, amount in entries:
            ipcs_at.setdefault(seq, []).append((power, amount))
    incomes_at = dict(treasury.income_steps)
    ipcs: dict[str, int] = {}
    income: dict[str, int] = {}
    purse: dict[str, Purse] = {}  # each power's purse in the stretch being made
    row = itemgetter(*powers)  # (its purses in turn order, as a tuple: one call)
    table: list[tuple[Purse, ...]] = [()]  # stretch 0: see purses
    for mark in marks:
        changed = ipcs_at.get(mark)
        if changed is not None:
            ipcs.update(changed)
        step = incomes_at.get(mark)
        if step is not None:
            # (The incomes that changed, found in C: most steps change one.)
            for power, amount in step.items() - income.items():
                purse[power] = Purse(power, ipcs.get(power, 0), amount)
            income = step
        if changed is not None:
            for power, amount in changed:
                purse[power] = Purse(power, amount, income[power])
        table.append(row(purse))
    return table


# -- purchases ------------------------------------------------------------------------------------
def _purchase(spend: Spend) -> list[Issue]:
    found: list[Issue] = []
    if spend.stated is not None and spend.stated != spend.available:
        # 2008 Section VI: "A number can never be a typographical error" (digits transposed too).
        found.append(Issue(K.TREASURY_WRONG, f"the purchase says {spend.power} had {spend.stated} IPCs, "
                           f"the treasury as the record moved it gives {spend.available} (starting "
                           "IPCs, income collected at the end of each turn, purchases spent; "
                           "Classic rulebook, Collect Income)", at=spend.at, where=spend.power))
    held = spend.capital_holder
    if held is not None and not allied(held, spend.power) and spend.cost:
        found.append(Issue(K.PURCHASE_OVERSPENT, f"{spend.power} bought {spend.units} while {held} holds its "
                           f"capital: no new units may be purchased then ({_SPENDING})", at=spend.at,
                           where=spend.power))
    elif spend.cost > spend.available:
        found.append(Issue(K.PURCHASE_OVERSPENT, f"{spend.power} bought {spend.units} for {spend.cost} IPCs "
                           f"with {spend.available} IPCs in its treasury ({_CLASSIC_PURCHASE}: no more "
                           "than the IPCs on hand)", at=spend.at, where=spend.power))
    return found


# -- placements -----------------------------------------------------------------------------------
def _placements(game: Game, walk: BoardWalk, treasury: TreasuryWalk) -> list[tuple[str, Issue]]:
    """Placements against the turn's purchases and the ICs the power had at the start of it."""
    found: list[tuple[str, Issue]] = []
    bought: dict[str, Force] = {}
    placed: dict[str, Force] = {}
    limits = _bid_ics(game, walk.board)
    listed = any(n.kind == "placement" for n in game.board_log)
    turns: list[str] = []
    for note in game.board_log:
        if note.kind not in ("purchase", "placement"):
            continue
        if note.turn not in turns:
            turns.append(note.turn)
        if note.kind == "purchase":
            bought[note.turn] = bought.get(note.turn, EMPTY) + note.units
            continue
        start = walk.before(treasury.turn_starts.get(note.turn, note.seq))
        now = walk.before(note.seq)
        power = note.turn.rsplit(" ", 1)[0]
        left = bought.get(note.turn, EMPTY).minus_available(placed.get(note.turn, EMPTY))
        for entry in note.placed:
            extra = entry.units.minus_available(left)
            left = left.minus_available(entry.units)
            placed[note.turn] = placed.get(note.turn, EMPTY) + entry.units
            if extra:
                found.append((note.turn, Issue(
                    K.PLACEMENT_UNPURCHASED, f"{power} placed {extra} in {entry.territory} that it did not "
                    f"buy in {note.turn} ({_CLASSIC_PLACE}: the units purchased this turn)", at=note.at,
                    where=entry.territory)))
            why = _misplaced(power, entry.territory, entry.units, start, now, limits)
            if why:
                found.append((note.turn, Issue(
                    K.PLACEMENT_ILLEGAL, f"{entry.units} placed in {entry.territory}: {why}", at=note.at,
                    where=entry.territory)))
    if listed:
        found += _unplaced(game, turns, bought, placed, treasury)
    return found


def _misplaced(power: str, territory: str, units: Force, start: BoardAt, now: BoardAt,
               limits: dict[str, int]) -> str:
    """Why a placement is illegal ("" when it is legal)."""
    board = start.walk.board
    place = board.territory(territory)
    if not place.sea:
        if any(u.is_sea for u in units.types):
            return f"naval units are placed in a sea zone next to an industrial complex ({_PLACEMENT})"
        if units.where(lambda u: u is UnitType.IC) == units:
            # A new IC goes in a territory the power controlled at the start of its turn.
            held = start.control_of(territory) == power
            return "" if held else f"{territory} was not {power}'s at the start of its turn " \
                f"({_CLASSIC_PLACE})"
        if not _ic_of(power, territory, start, now):
            return (f"{power} had no industrial complex there at the start of its turn, or no longer "
                    f"controls it ({_PLACEMENT})")
        limit = limits.get(territory)
        count = sum(n for u, n in units.items if u is not UnitType.IC)
        if limit is not None and count > limit:
            return (f"a bid IC produces no more than the territory's income ({limit}) a turn "
                    "(2008 Bidding: bid ICs are not original ICs)")
        return ""
    if any(u.is_air for u in units.types):
        return f"a newly purchased fighter may not be placed on an aircraft carrier ({_PLACEMENT})"
    if any(u.is_land for u in units.types):
        return f"land units are placed in a territory with an industrial complex ({_PLACEMENT})"
    if not any(_ic_of(power, t.name, start, now) for t in board.neighbours(territory) if not t.sea):
        return (f"the sea zone is not next to an industrial complex {power} controlled at the start of "
                f"its turn ({_PLACEMENT})")
    return ""


def _ic_of(power: str, territory: str, start: BoardAt, now: BoardAt) -> bool:
    """2008 Placement of New Units: the power owned the IC at the beginning of its turn and still
    controls it when placing."""
    if start.control_of(territory) != power or now.control_of(territory) != power:
        return False
    return any(units[UnitType.IC] for units in start.holders(territory).values())


def _bid_ics(game: Game, board: Board) -> dict[str, int]:
    """Territory -> the most units its bid IC may produce a turn (its IPC value; 2008 Bidding)."""
    limits: dict[str, int] = {}
    for note in game.board_log:
        if note.kind == "bid":
            for entry in note.holdings:
                if entry.units[UnitType.IC] and entry.territory in board:
                    limits[entry.territory] = board.territory(entry.territory).ipc
    return limits


def _unplaced(game: Game, turns: Iterable[str], bought: dict[str, Force], placed: dict[str, Force],
              treasury: TreasuryWalk) -> list[tuple[str, Issue]]:
    """Units bought and not placed once the turn is over (a later turn began, or its map update)."""
    found: list[tuple[str, Issue]] = []
    updated = {n.turn for n in game.board_log if n.kind == "map_update"}
    last = len(treasury.turn_starts) - 1
    place = {turn: index for index, turn in enumerate(treasury.turn_starts)}  # (no index() per turn)
    for turn in turns:
        over = turn in updated or place.get(turn, last) < last
        left = bought.get(turn, EMPTY).minus_available(placed.get(turn, EMPTY))
        if over and left:
            at = max((n.at for n in game.board_log if n.turn == turn and n.at is not None), default=None)
            found.append((turn, Issue(
                K.UNITS_UNPLACED, f"{left} bought in {turn} and not placed: the IPCs are spent and the units "
                f"are not on the board ({_CLASSIC_PLACE}: new units are placed at the end of the turn)",
                at=at, effective=False)))
    return found


# -- map updates ----------------------------------------------------------------------------------
def _map_updates(game: Game, walk: BoardWalk, rolled: BoardWalk,
                 treasury: TreasuryWalk) -> list[tuple[str, Issue]]:
    """Post Combat Orders: the map update lists every territory the power took that turn; it
    lists none that an enemy holds. Only what is wrong on the board both as rolled and as
    corrected is a finding (a line written before a correction is not in error)."""
    found: list[tuple[str, Issue]] = []
    if not walk.from_setup:
        return found
    for note in game.board_log:
        if note.kind != "map_update" or not note.holdings or not note.turn:
            continue
        power = note.turn.rsplit(" ", 1)[0]
        start = treasury.turn_starts.get(note.turn, note.seq)
        left_out = _left_out(note, power, walk, start) & _left_out(note, power, rolled, start)
        for territory in sorted(left_out):
            found.append((note.turn, Issue(
                K.MAP_UPDATE_INCOMPLETE, f"{power}'s map update leaves out {territory}, which {power} took "
                "this turn (Post Combat Orders: the map update lists every territory the country has "
                "units in or possesses)", at=note.at, where=territory)))
        claimed = _claimed(note, power, walk) & _claimed(note, power, rolled)
        for territory, holder in sorted(claimed):
            found.append((note.turn, Issue(
                K.MAP_UPDATE_INCOMPLETE, f"{power}'s map update lists {territory} as its own, the board "
                f"shows {holder} holding it: it did not change hands (Post Combat Orders)", at=note.at,
                where=territory)))
    return found


def _left_out(note: BoardNote, power: str, walk: BoardWalk, start: int) -> set[str]:
    before, now = walk.before(start), walk.before(note.seq)
    listed = {h.territory for h in note.holdings if h.power == power}
    return {t.name for t in walk.board.land
            if now.control_of(t.name) == power and before.control_of(t.name) != power
            and t.name not in listed}


def _claimed(note: BoardNote, power: str, walk: BoardWalk) -> set[tuple[str, str]]:
    now = walk.before(note.seq)
    found = set()
    for entry in note.holdings:
        if entry.power != power or not entry.units or walk.board.territory(entry.territory).sea:
            continue
        holder = now.control_of(entry.territory)
        if holder is not None and not allied(holder, power):
            found.add((entry.territory, holder))
    return found
