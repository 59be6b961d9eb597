"""Battle views with their equal parts made one object, so a stored memo holds each once.

A review memo keeps every quiet battle's view (:mod:`application.adapters.memo_codec`); reading
it back makes every object the pickle names, and a 10,000-event game's views are about 130,000
objects: most of what a desk command's refresh spends reading the memo back and freeing it at
the end. Many are equal: a column of one infantry that rolled a 5 and missed is the same dice
entry in hundreds of battles, and a turn's battles show the same treasuries. Pickle writes an
object it has seen once as a reference, so views whose equal dice entries, sides and purses are
one object are stored smaller and read back with about a third fewer objects.

The views keep their value: each field is replaced only by an equal object of the same type
(a dice entry by an equal dice entry, a side by one with the same units, hits and the very
dice entries), and a view that changes nothing is kept as it is.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.review.views import BattleView, DiceEntry, Purse, SideRound


class ViewSharing:
    """Equal parts of the views given to :meth:`view` made one object, for one pickle."""

    def __init__(self) -> None:
        self._entries: dict[DiceEntry, DiceEntry] = {}
        self._sides: dict[tuple[Any, ...], SideRound] = {}
        self._purses: dict[Purse, Purse] = {}
        self._treasuries: dict[tuple[Purse, ...], tuple[Purse, ...]] = {}

    def view(self, view: BattleView) -> BattleView:
        """``view`` with its dice entries, sides and treasury shared with the views before it."""
        rounds = []
        changed = False
        for given in view.rounds:
            attacker, defender = self._side(given.attacker), self._side(given.defender)
            if attacker is given.attacker and defender is given.defender:
                rounds.append(given)
            else:
                rounds.append(replace(given, attacker=attacker, defender=defender))
                changed = True
        treasury = view.treasury
        if treasury:
            found = self._treasuries.get(treasury)
            if found is None:
                purses = self._purses
                found = self._treasuries[treasury] = tuple([purses.setdefault(p, p) for p in treasury])
            changed = changed or found is not treasury
            treasury = found
        return replace(view, rounds=tuple(rounds), treasury=treasury) if changed else view

    def _side(self, side: SideRound) -> SideRound:
        dice = side.dice
        if not dice:
            return side
        entries = self._entries
        shared = tuple([entries.setdefault(entry, entry) for entry in dice])
        # The dice entries are shared already: the side is named by their identities.
        key = (side.units, side.hits, side.stated_hits, side.typed_units, *map(id, shared))
        found = self._sides.get(key)
        if found is None:
            same = all(a is b for a, b in zip(shared, dice, strict=True))
            found = self._sides[key] = side if same else replace(side, dice=shared)
        return found
