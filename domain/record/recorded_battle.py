"""A battle's dice-server records read as rounds: what was typed, round by round.

The dice server prints one battle as a run of lines (header, attack lines, AA and support
shots, round markers, attacker and defender lines); players paste them into several ``roll``
records. This module joins them and cuts them into rounds, keeping every claim (units typed,
hit marks, stated hits, round numbers typed) for comparison with what the dice say.

Rounds are counted in the order their lines were recorded, not by the numbers typed: 1999
"IAAPA Battle Calculator correction guidelines" 2 and 2008 "Using the Dice Server": "the time
stamped on the Round by the website is the order in which the rounds are considered rolled".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.notation.battle_log import (
    AttackLine,
    BattleHeader,
    Comment,
    FirstStrikeLine,
    RoundMarker,
    ShotLine,
    SideLine,
)
from domain.record.game import BattleRecord, RollEntry
from domain.rules.forces import Force, of_typed


@dataclass(slots=True)
class RecordedRound:
    """One round's lines as recorded."""

    index: int
    #: The roll record each line came from (for time stamps and header fields).
    rolls: list[RollEntry] = field(default_factory=list)
    typed_number: int | None = None
    first_strike: FirstStrikeLine | None = None
    #: The attacker's and the defender's line (None: no line), put in by :meth:`place` only.
    attacker: SideLine | None = field(default=None, init=False)
    defender: SideLine | None = field(default=None, init=False)
    #: The units the attacker's and the defender's line typed (None where a line typed none
    #: or there is no line), read once: the as-rolled reading and the audit both ask for them.
    #: Kept with the lines by :meth:`place` (the only way lines are put in a round).
    attacker_typed: Force | None = field(default=None, init=False, compare=False, repr=False)
    defender_typed: Force | None = field(default=None, init=False, compare=False, repr=False)
    #: How many dice each line rolled (0: no line), counted as the line is put in the round,
    #: while it is at hand: the audit compares them with its units' dice round after round.
    attacker_dice: int = field(default=0, init=False, compare=False, repr=False)
    defender_dice: int = field(default=0, init=False, compare=False, repr=False)

    def place(self, line: SideLine) -> None:
        """Put an A or D line in the round (it replaces the side's line, if any)."""
        units = line.units
        typed = of_typed(units) if units is not None else None
        count = 0
        for column in line.dice.columns:  # (len(line.dice), without its calls)
            count += len(column)
        if line.side == "A":
            self.attacker, self.attacker_typed, self.attacker_dice = line, typed, count
        else:
            self.defender, self.defender_typed, self.defender_dice = line, typed, count


@dataclass
class RecordedBattle:
    """A battle's records, joined: header, attack lines, shots before round 1, rounds."""

    header: BattleHeader | None = None
    attack_lines: list[AttackLine] = field(default_factory=list)
    aa: ShotLine | None = None
    #: Support shots with the round they were rolled in (1 before any round marker).
    bb: list[tuple[int, ShotLine]] = field(default_factory=list)
    rounds: list[RecordedRound] = field(default_factory=list)
    typos: list[str] = field(default_factory=list)

    def support_shots(self, round_index: int) -> list[ShotLine]:
        """The support-shot lines rolled in a round."""
        return [line for index, line in self.bb if index == round_index]

    @property
    def typed_attackers(self) -> Force | None:
        """The attackers the attack lines typed, if any were typed."""
        lines = self.attack_lines
        if not lines:
            return None
        if len(lines) == 1:  # one attack line (most battles): its units as typed
            return of_typed(lines[0].units)
        # As a tuple: Force.of remembers unit lists as typed (they recur all game long).
        return Force.of(tuple([pair for line in lines for pair in line.units]))

    @property
    def typed_defenders(self) -> Force | None:
        """The defenders the battle header typed, if there was one."""
        return of_typed(self.header.units) if self.header is not None else None


def read_record(record: BattleRecord) -> RecordedBattle:
    """Join a battle's roll records (their logs as read when recorded) and cut them into rounds."""
    battle = RecordedBattle()
    rounds = battle.rounds
    # Rounds are opened with positional arguments (index, rolls, number typed): a keyword
    # would make a dictionary for the constructor, round after round.
    current: RecordedRound | None = None
    for roll in record.rolls:
        log = roll.parsed
        if log.typos:
            battle.typos.extend(log.typos)
        pending_marker: int | None = roll.round_number
        for line in log.lines:
            # The line kinds are distinct classes: the commonest are tested first.
            if isinstance(line, SideLine):
                # A line opens the next round unless the open one has room for it: a second line
                # for a side that already rolled belongs to the next round, and so does a
                # short-form line naming another round ("A2" after "D1").
                if (current is None or current.defender is not None
                        or (line.side == "A" and current.attacker is not None)
                        or (line.round is not None and current.typed_number is not None
                            and line.round != current.typed_number and not _empty(current))):
                    current = RecordedRound(len(rounds) + 1, [roll], line.round if line.round is not None
                                            else pending_marker)
                    rounds.append(current)
                else:
                    assert current is not None
                    if current.typed_number is None:
                        current.typed_number = line.round if line.round is not None else pending_marker
                    if roll is not current.rolls[-1] and roll not in current.rolls:
                        current.rolls.append(roll)
                current.place(line)
                pending_marker = None
            elif isinstance(line, RoundMarker):
                # A marker opens a round unless the open round has no dice yet (from this roll).
                if current is not None and current.rolls[-1] is roll and _empty(current):
                    current.typed_number = line.number
                else:
                    current = RecordedRound(len(rounds) + 1, [roll], line.number)
                    rounds.append(current)
                pending_marker = None
            elif isinstance(line, Comment):
                continue
            elif isinstance(line, BattleHeader):
                battle.header = battle.header or line
            elif isinstance(line, AttackLine):
                battle.attack_lines.append(line)
            elif isinstance(line, ShotLine):
                if line.kind == "AA":
                    battle.aa = battle.aa or line
                else:
                    battle.bb.append((_shot_round(current), line))
            elif isinstance(line, FirstStrikeLine):
                if current is None or current.attacker or current.first_strike or current.defender:
                    current = RecordedRound(len(rounds) + 1, [roll], line.round if line.round is not None
                                            else pending_marker)
                    rounds.append(current)
                current.first_strike = line
    return battle


def _shot_round(current: RecordedRound | None) -> int:
    """The round a support shot belongs to: the open round, or round 1 before any."""
    return 1 if current is None else current.index


def _empty(current: RecordedRound) -> bool:
    return current.attacker is None and current.defender is None and current.first_strike is None
