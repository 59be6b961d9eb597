"""Dice mails given their battle: by what they name, else by time and dice count.

A roll belongs to the turn in play when it was rolled: the last declaration at or before its
time (a roll that names its territory looks for the last declaration of that territory). Then:

1. a roll that names its territory (MARTI's subject) takes that battle, its round, and its
   side from the player who rolled (the declaring power attacks);
2. otherwise the words around it (the dice line's own words, a forwarding note, the subject)
   may name one of the turn's battles, a round ("R2") and a side ("defence");
3. otherwise its dice count picks the battle: of the turn's first-round throws not yet rolled
   (the AA gun's shots, each side's dice), the one that needs exactly that many dice. A battle
   whose log was pasted whole (IAAPA notation) is not a candidate.

A roll for a correction (the words say "correction", "re-roll", "missing" ...) becomes a
``dice`` record of its battle: the review draws the correction's dice from it. Any roll that
none of this places becomes a :class:`~application.intake.mail.model.Problem` with the record
it could be, and the draft says so at that line for the Minister to fill in.

The dice become a battle-log line: ``A1(2 INF, 2 ARM) 15/26`` when the mail names the units
rolled (MARTI: the dice go to the units in the order the subject lists them, then into the
battle board's columns), else the short form ``A1 1526`` (the review gives the dice to the
units column by column, INF first), or ``AA rolls 11`` for AA shots.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from application.intake.mail.model import DiceRoll, DraftRecord, Problem, Side, Value
from application.intake.mail.recognise.context import names_battle
from domain.errors import InvalidNotationError
from domain.record.intake import declaration_facts
from domain.rules.forces import Force
from domain.rules.names import resolve
from domain.rules.units import UnitType


@dataclass
class Battle:
    """A declared battle, and which of its throws the record already holds."""

    turn: str
    at: datetime
    written: str
    territory: str
    attackers: Force
    defenders: Force | None
    names: tuple[str, ...]
    #: An IAAPA log of it was pasted: its dice come from there.
    logged: bool = False
    #: (throw, round) already rolled: throw is "attacker", "defender" or "aa".
    rolled: set[tuple[str, int]] = field(default_factory=set)

    @property
    def power(self) -> str:
        """The attacking power (the turn's)."""
        return self.turn.rsplit(" ", 1)[0]

    def needs(self, throw: str) -> set[int]:
        """How many dice the first round's ``throw`` may take (empty: unknown)."""
        air = sum(n for unit, n in self.attackers if unit.is_air)
        has_aa = self.defenders is not None and self.defenders[UnitType.AA] > 0
        if throw == "aa":
            return {air} if has_aa and air else set()
        if throw == "attacker":
            dice = sum(n * unit.profile.attack_dice for unit, n in self.attackers.combatants()
                       if unit.profile.attack > 0)
            # The AA gun may have shot some aircraft down before the round.
            return {dice - shot for shot in range(air + 1 if has_aa else 1)} - {0}
        if self.defenders is None:
            return set()
        return {sum(n for unit, n in self.defenders.combatants() if unit.profile.defence > 0)} - {0}


def declared_battles(records: list[DraftRecord]) -> list[Battle]:
    """The battles the draft's declarations declare (a later declaration of a turn amends it)."""
    latest: dict[str, DraftRecord] = {}
    for record in sorted((r for r in records if r.kind == "declaration"), key=lambda r: r.at):
        latest[str(record.get("turn"))] = record
    battles: list[Battle] = []
    for turn, record in latest.items():
        try:
            facts = declaration_facts(str(record.get("text")))
        except InvalidNotationError:
            continue
        for fact in facts:
            attackers = Force.of({})
            for move in fact.moves:
                attackers = attackers + move.units
            place = resolve(fact.territory).territory
            names = (fact.written, place.name, *place.abbreviations,
                     *([place.source_name] if place.source_name else []))
            battles.append(Battle(turn, record.at, fact.written, place.name, attackers, fact.defenders,
                                  names))
    for record in records:
        if record.kind == "roll":
            territory = _canonical(str(record.get("battle")))
            same = [b for b in battles if b.territory == territory]
            earlier = [b for b in same if b.at <= record.at]
            if earlier or same:
                (max(earlier, key=lambda b: b.at) if earlier else same[0]).logged = True
    return battles


def _canonical(name: str) -> str | None:
    try:
        return resolve(name).territory.name
    except (InvalidNotationError, ValueError):
        return None


@dataclass
class Matched:
    """What matching made: records (rolls, correction dice) and the rolls it could not place."""

    records: list[DraftRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def match_dice(rolls: list[DiceRoll], battles: list[Battle]) -> Matched:
    """Place every roll (in time order) in its battle, or say why it cannot be."""
    out = Matched()
    for roll in sorted(rolls, key=lambda r: r.at):
        placed = _place(roll, battles)
        if isinstance(placed, str):
            out.problems.append(Problem(roll.at, roll.source, f"{roll.server} roll {_digits(roll.dice)} "
                                        f"not matched to a battle: {placed}", "", roll.key,
                                        _record(roll, "?", roll.side or "attacker", roll.round or 1)))
        else:
            out.records.append(placed)
    return out


def _turn_battles(roll: DiceRoll, battles: list[Battle]) -> list[Battle]:
    """The battles of the turn in play when the roll was made."""
    before = [b for b in battles if b.at <= roll.at]
    if roll.territory is not None:
        named = [b for b in before if b.territory == roll.territory] or \
            [b for b in battles if b.territory == roll.territory][:1]
        if named:
            latest = max(named, key=lambda b: b.at)
            return [b for b in battles if b.turn == latest.turn and b.at == latest.at]
        return []
    if not before:
        return []
    latest = max(before, key=lambda b: b.at)
    return [b for b in battles if b.turn == latest.turn and b.at == latest.at]


def _place(roll: DiceRoll, battles: list[Battle]) -> DraftRecord | str:
    turn = _turn_battles(roll, battles)
    if not turn:
        return ("no declaration of that battle in the e-mails" if roll.territory else
                "no declaration before it in the e-mails")
    if roll.territory is not None:
        chosen = [b for b in turn if b.territory == roll.territory]
        how = "the territory its subject names"
    else:
        chosen = [b for b in turn if names_battle(roll.context, b.names)]
        how = "the battle its words name"
    if len(chosen) > 1:
        return "its words name several battles: " + ", ".join(b.written for b in chosen)
    if roll.purpose == "correction":
        if not chosen and len(turn) == 1:
            chosen, how = turn, f"the only battle of {turn[0].turn}"
        if not chosen:
            return f"dice for a correction, and no battle of {turn[0].turn} named"
        battle = chosen[0]
        return DraftRecord("dice", roll.at, (("battle", battle.written), ("dice", _digits(roll.dice))),
                           roll.source, roll.key, (*roll.notes, f"correction dice for {battle.written} "
                                                                 f"({battle.turn}), by {how}"))
    if chosen:
        battle = chosen[0]
        side = _side(roll, battle)
        throw: str | None = "aa" if roll.purpose == "aa" else side
        number = roll.round or 1
        if throw is None:
            options = [t for t in ("aa", "attacker", "defender")
                       if (t, number) not in battle.rolled and len(roll.dice) in battle.needs(t)]
            if len(options) != 1 or number != 1:
                return f"{battle.written}: neither the side nor the dice count says who rolled"
            throw = options[0]
        battle.rolled.add((throw, number))
        return _roll(roll, battle, throw, number, how)
    return _by_count(roll, turn)


def _side(roll: DiceRoll, battle: Battle) -> Side | None:
    if roll.side is not None:
        return roll.side
    if roll.power is not None:
        return "attacker" if roll.power == battle.power else "defender"
    return None


def _by_count(roll: DiceRoll, turn: list[Battle]) -> DraftRecord | str:
    if roll.round not in (None, 1):
        return f"round {roll.round} and no battle named: only first rounds are matched by dice count"
    throws = ("aa",) if roll.purpose == "aa" else \
        (roll.side,) if roll.side else ("aa", "attacker", "defender")
    fits = [(b, t) for b in turn if not b.logged for t in throws
            if (t, 1) not in b.rolled and len(roll.dice) in b.needs(t)]
    if len(fits) != 1:
        count = f"{len(roll.dice)} dice"
        if not fits:
            return f"no battle of {turn[0].turn} still needs {count} in round 1"
        return f"{count} fit several throws of {turn[0].turn}: " + \
            ", ".join(f"{b.written} {t}" for b, t in fits)
    battle, throw = fits[0]
    battle.rolled.add((throw, 1))
    return _roll(roll, battle, throw, 1, f"time and dice count ({len(roll.dice)} dice)")


def _roll(roll: DiceRoll, battle: Battle, throw: str, number: int, how: str) -> DraftRecord:
    said = "AA shots" if throw == "aa" else f"round {number} {throw}"
    record = _record(roll, battle.written, throw, number)
    return replace(record, notes=(*roll.notes, f"{battle.written} ({battle.turn}) {said}, by {how}"))


def _record(roll: DiceRoll, battle: str, throw: str, number: int) -> DraftRecord:
    fields: tuple[tuple[str, Value], ...] = (("battle", battle),
                                             ("log", log_line(roll, throw, number) + "\n"))
    return DraftRecord("roll", roll.at, fields, roll.source, roll.key, roll.notes)


def log_line(roll: DiceRoll, throw: str, number: int) -> str:
    """The battle-log line of a roll (see the module docstring)."""
    if throw == "aa":
        return f"AA rolls {_digits(roll.dice)}"
    letter = "A" if throw == "attacker" else "D"
    units = [(UnitType(name), count) for name, count in roll.units]
    if not units or sum(count for _, count in units) != len(roll.dice):
        return f"{letter}{number} {_digits(roll.dice)}"
    # The dice in the subject's unit order, regrouped into the board's columns.
    per_unit: list[tuple[int, UnitType, tuple[int, ...]]] = []
    at = 0
    for order, (unit, count) in enumerate(units):
        value = unit.profile.attack if letter == "A" else unit.profile.defence
        per_unit.append((value * 1000 + order, unit, roll.dice[at:at + count]))
        at += count
    per_unit.sort(key=lambda item: item[0])
    listed = ", ".join(f"{len(dice)} {unit.value}" for _, unit, dice in per_unit)
    columns: dict[int, str] = {}
    for key, _, dice in per_unit:
        columns[key // 1000] = columns.get(key // 1000, "") + _digits(dice)
    return f"{letter}{number}({listed}) " + "/".join(columns[c] for c in sorted(columns))


def _digits(dice: tuple[int, ...]) -> str:
    return "".join(str(d) for d in dice)
