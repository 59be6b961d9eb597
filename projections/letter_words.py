"""The letter's plain words: what a club member reads instead of the program's names.

Times without seconds' fractions, counts with their nouns ("1 die", "2 dice"), every finding
kind, status, decision and election said in words, dice by battle-board column ("1s", "3s",
"AA"), a round as the dice server showed it. Nothing here reads the record: these are the
words the letter (:mod:`projections.letter`) puts around it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from domain.battle.model import Outcome, Winner
from domain.review.views import (
    BattleStatus,
    BattleView,
    DiceEntry,
    DiceNeed,
    DiceStatus,
    RoundView,
    SideRound,
    time_text,
)
from domain.rules.findings import FindingKind
from domain.rules.forces import Force

K = FindingKind

#: Each finding kind in words (the report's ``kind`` is the program's name for it).
TITLES: dict[FindingKind, str] = {
    K.UNITS_NOT_AVAILABLE: "attacking units declared that were not there",
    K.OVERCOMMITTED_UNITS: "more units sent than their territory held",
    K.NOT_ENOUGH_TRANSPORTS: "not enough transports",
    K.TRANSPORTS_NOT_DECLARED: "transports left out of the sea zone battle",
    K.UNLOADING_ZONE_UNCLEAR: "unloading sea zone not given",
    K.DEFENDERS_MISDECLARED: "defending units listed wrong",
    K.DECLARATION_AFTER_DICE: "declaration changed after the dice",
    K.TOO_FEW_UNITS: "too few units rolled",
    K.TOO_MANY_UNITS: "too many units rolled",
    K.WRONG_UNITS: "wrong units rolled",
    K.MISCOUNTED_HITS: "hits miscounted",
    K.WRONG_CASUALTIES: "wrong casualties taken",
    K.AA_TOO_MANY: "too many AA shots",
    K.AA_GHOST: "AA gun rolled where there was none",
    K.AA_FORGOTTEN: "AA gun forgotten",
    K.BB_TOO_MANY: "too many support shots",
    K.BB_GHOST: "support shot with no battleship to fire it",
    K.BB_FORGOTTEN: "support shot forgotten",
    K.PAUSE_SKIPPED: "no pause for the defender's casualties",
    K.BATTLE_ORDER: "a battle begun before the last one ended",
    K.RETREAT_UNDECLARED: "retreat not declared",
    K.TECH_DICE_TOO_MANY: "too many tech dice",
    K.TECH_DICE_TOO_FEW: "too few tech dice",
    K.TECH_OVERSPENT: "tech dice beyond the IPCs on hand",
    K.WRONG_GAME_NUMBER: "wrong game number on the dice server",
    K.WRONG_ROUND_NUMBER: "wrong round number on the dice server",
    K.WRONG_TURN_NUMBER: "wrong turn number on the dice server",
    K.WRONG_COUNTRY: "wrong country on the dice server",
    K.MAP_DISCREPANCY: "map update differs from the moves",
    K.TYPO: "typographical slip",
    K.MAP_COUNT_WRONG: "territory or IPC count wrong",
    K.BID_ILLEGAL: "illegal bid placement",
    K.BID_TOTAL_MISMATCH: "bid total differs from its details",
    K.MAGIC_84: "Magic 84 reached",
    K.FORFEIT_ELIGIBLE: "a turn more than 5 days late",
    K.FINISH_EARLY: "game finish posted early",
    K.ANNULLED: "game annulled",
    K.PURCHASE_OVERSPENT: "purchase beyond the IPCs on hand",
    K.TREASURY_WRONG: "IPCs on hand stated wrong",
    K.PLACEMENT_UNPURCHASED: "units placed that were not bought",
    K.PLACEMENT_ILLEGAL: "units placed where they may not be",
    K.UNITS_UNPLACED: "units bought and not placed",
    K.MAP_UPDATE_INCOMPLETE: "map update incomplete",
    K.RESTS_ON_VOID: "a battle resting on a voided one",
    K.MOVED_AFTER_COMBAT: "units that fought moved again in non-combat",
    K.NONCOMBAT_INTO_ENEMY: "a non-combat move into enemy territory",
    K.AIRCRAFT_LANDING: "aircraft beyond their range or with no place to land",
    K.AA_GUN_MOVED: "an AA gun moved where it may not",
    K.CAPACITY_EXCEEDED: "more units than the transports or carriers hold",
}

#: The elections the rules give, in words (2008 Section II; Orders of Loss).
ELECTIONS: dict[str, str] = {
    "reroll": "to re-roll the entire battle with the correct units",
    "not_fight": "not to fight the battle at all",
    "accept": "to accept the defending rolls as they are, applied to the units shown",
    "apply_to_corrected_units": "to accept the defending rolls, applied to the corrected units",
    "reroll_defence": "to correct the defending units and re-roll the affected defending rolls",
}

#: What a ruling decided, in words.
DECISIONS: dict[str, str] = {
    "apply": "the correction the rule gives is made",
    "dismiss": "the record stands as rolled",
    "mutual": "the players agreed that the record stands as rolled",
}

#: An edition's name (with any readings chosen) in words.
_EDITIONS = {"iaapa-1999": "the IAAPA rules of 1999 (Part 13, Battle Resolution, and Part 14, Error "
                           "Correction)",
             "iaapa-2008": "the IAAPA 2008 2nd Edition Unabridged Rules"}
_SHORT = {"iaapa-1999": "IAAPA 1999", "iaapa-2008": "IAAPA 2008"}


def title(kind: str) -> str:
    """A finding kind in words ("too few units rolled")."""
    try:
        return TITLES[FindingKind(kind)]
    except ValueError:
        return kind.replace("_", " ")


def edition_words(name: str) -> str:
    """"the IAAPA 2008 2nd Edition Unabridged Rules", with the readings a game chose."""
    base, _, readings = name.partition("+")
    words = _EDITIONS.get(base, f"the rules of the edition {base}")
    if readings:
        chosen = [r.replace("=", ": ").replace("_", " ") for r in readings.split("+")]
        words += f", read as the game chose ({'; '.join(chosen)})"
    return words


def edition_short(name: str) -> str:
    """"IAAPA 2008": how a citation names its edition."""
    base = name.partition("+")[0]
    return _SHORT.get(base, base)


def when(moment: datetime | None) -> str:
    """A time as the letter gives it: "2008-09-04 09:10 UTC" ("09:10:12" when the seconds
    count), never its fractions; "(no time recorded)" for none."""
    return "(no time recorded)" if moment is None else time_text(moment)


class Quotes:
    """The rule texts one letter has quoted: each sentence in full the first time, then named
    as quoted above (a letter on many findings under one rule quotes it once)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def first(self, text: str) -> bool:
        """Whether ``text`` is quoted for the first time (and note that it is now)."""
        new = text not in self.seen
        self.seen.add(text)
        return new

    def cite(self, section: str, text: str) -> str:
        """"(2008 Section VII: “...”)", or "(2008 Section VII, quoted above)"."""
        return f"({section}: “{text}”)" if self.first(text) else f"({section}, quoted above)"


def clauses(text: str) -> list[str]:
    """``text`` cut at each "; " outside parentheses (a note's clauses, each whole)."""
    found, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and text.startswith("; ", index):
            found.append(text[start:index])
            start = index + 2
    found.append(text[start:])
    return [part.strip() for part in found if part.strip()]


def counted(number: int, one: str, many: str | None = None) -> str:
    """"1 die", "2 dice", "0 hits"."""
    return f"{number} {one if number == 1 else (many or one + 's')}"


def force(units: Force) -> str:
    """Units as the records write them ("6 INF, 3 ARM"), or "nothing"."""
    return str(units) or "nothing"


def joined(items: Iterable[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    listed = [item for item in items if item]
    if len(listed) < 2:
        return "".join(listed)
    return f"{', '.join(listed[:-1])} {last} {listed[-1]}"


def column(value: object, first_strike: bool = False) -> str:
    """A battle-board column: "1s" ... "4s", "AA", "support shot"."""
    if value == "AA":
        return "AA"
    if value == "BB":
        return "support shot"
    return f"{value}s" + (" (first strike)" if first_strike else "")


def faces(values: Iterable[int]) -> str:
    """Dice faces as thrown: "5 2 4 6"."""
    return " ".join(map(str, values))


def side_dice(side: SideRound, *, only: frozenset[DiceStatus] | None = None, mark: bool = False) -> str:
    """A side's dice by column ("1s 5 2 4, 3s 3"); ``only``: the runs of those statuses;
    ``mark``: name each run added or not counted."""
    runs = []
    for entry in side.dice:
        if only is not None and entry.status not in only:
            continue
        runs.append(_run(entry, mark))
    return ", ".join(runs) or "no dice"


def _run(entry: DiceEntry, mark: bool) -> str:
    label = {DiceStatus.ADDED: " "
                               "added", DiceStatus.VOIDED: " not "
                                                           "counted"}.get(entry.status, "") if mark else ""
    return f"{column(entry.column, entry.first_strike)}{label} {faces(entry.values)}"


def round_line(view: RoundView, *, mark: bool = False) -> str:
    """One round as thrown: each side's units, dice by column and hits."""
    parts = []
    for name, side in (("attacker", view.attacker), ("defender", view.defender)):
        dice = side_dice(SideRound(side.units, side.hits, tuple(e for e in side.dice if e.column != "AA")),
                         mark=mark)
        parts.append(f"{name} ({force(side.units.combatants())}) {dice}: {counted(side.hits, 'hit')}")
    aa = [e for e in view.defender.dice if e.column == "AA"]
    lead = ""
    if aa:
        shot = f", {force(view.aa_losses)} shot down" if view.aa_losses else ", none shot down"
        lead = f"AA guns {' '.join(faces(e.values) for e in aa)}{shot}; "
    return f"round {view.round}: {lead}{'; '.join(parts)}"


def outcome(result: Outcome | None) -> str:
    """How a battle ended, in words."""
    if result is None or result.winner is None:
        if result is None:
            return "it has no result"
        return (f"it is unfinished, the attacker with {force(result.attacker_left)} and the defender with "
                f"{force(result.defender_left)}")
    if result.retreated:
        return f"the attacker retreats with {force(result.attacker_left)}"
    if result.winner is Winner.NONE:
        return "both sides are destroyed"
    if result.winner is Winner.ATTACKER:
        return f"the attacker wins with {force(result.attacker_left)} left; nothing of the defender is left"
    return f"the defender holds with {force(result.defender_left)} left; nothing of the attacker is left"


def battle_result(view: BattleView) -> str:
    """A battle's result as corrected, or why it has none."""
    if view.status == BattleStatus.VOID:
        return "the battle is null and void: none of its dice count and it has no result"
    if view.status == BattleStatus.NOT_FOUGHT:
        return ("the battle is not fought (the attacker's election): none of its dice count, and the units "
                "assigned to it may move during non-combat")
    if view.status == BattleStatus.AWAITING:
        return "no result yet: the battle awaits " + (need_words(view.needed) if view.needed is not None
                                                     else "a ruling or an election")
    return outcome(view.result)


def need_words(need: DiceNeed) -> str:
    """The next throw a correction waits for, in words."""
    where = []
    if need.round is not None:
        where.append(f"round {need.round}")
    if need.side:
        where.append(f"the {need.side}")
    if need.column:
        where.append(f"the {column(int(need.column) if need.column.isdigit() else need.column)}")
    units = f" for {need.units}" if need.units else ""
    place = f" ({', '.join(where)})" if where else ""
    have = f"; {counted(need.on_hand, 'die', 'dice')} of it already recorded" if need.on_hand else ""
    then = f"; then {need.then}" if need.then else ""
    return f"{counted(need.count, 'die', 'dice')}{units}{place}{have}{then}"


def percent(value: float) -> str:
    """A chance: "93.7%"."""
    return f"{value:.1%}"
