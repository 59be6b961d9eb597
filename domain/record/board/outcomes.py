"""What the board walk is told besides the records: each battle's result, and the rulings and
void turns that change the board as corrected (:func:`domain.record.board.walk.walk_board`'s
``outcomes``, keyed by battle, or by the keys below for what is not a battle)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from domain.battle.model import Outcome

#: A battle begun and not resolved: a correction awaits its dice (2008 Section III: the missing
#: dice are rolled, then the rest of the battle re-rolled). Its attackers made their combat move
#: into the battle and stay there until it is resolved (2008 Declaration and Battle Resolution
#: Procedures, Combat Resolution and Order of Battles: "once a battle begins it must be resolved
#: completely"); the defender still holds the place.
PENDING: Final = "pending"

#: A turn void under 2008 Section VII: "the subsequent turn is void and must be re-done". Its
#: battles have no result (their attackers stay home) and its non-combat moves, purchases and
#: placements are undone too; its map update is not checked (the turn is made again).
VOID_TURN: Final = "void turn"

#: An illegal bid placement the Minister of Law ruled off the board (2008 Bidding; Section VII:
#: such errors are adjudicated case by case): the walk as corrected does not place it.
BID_DROPPED: Final = "bid dropped"

#: What the walk is given for a battle: its result, None (void, not fought: no portion of the
#: results stands, 2008 Section II; its attackers stay where they came from), or PENDING; and,
#: under :func:`void_turn_key`, VOID_TURN for a void turn; under :func:`bid_drop_key`,
#: BID_DROPPED for a bid placement ruled off the board.
BattleResult = Outcome | None | Literal["pending", "void turn", "bid dropped"]


def void_turn_key(turn: str) -> str:
    """The key under which the walk is told a turn is void (no battle's key looks so)."""
    return turn + _VOID_SUFFIX


def bid_drop_key(territory: str, power: str) -> str:
    """The key under which the walk is told a power's bid placement in a territory is ruled off
    the board (no battle's key looks so)."""
    return f"{territory} / {power}{_BID_SUFFIX}"


_VOID_SUFFIX: Final = " / (the turn)"
_BID_SUFFIX: Final = " / (the bid)"


def void_turns(outcomes: Mapping[str, BattleResult]) -> set[str]:
    """The turns ``outcomes`` marks void (see :data:`VOID_TURN`)."""
    return {key.removesuffix(_VOID_SUFFIX) for key, result in outcomes.items()
            if isinstance(result, str) and result == VOID_TURN}
