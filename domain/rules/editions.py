"""Editions of the IAAPA error-correction rules as policies behind one interface.

An edition is data: which remedy it applies where the texts differ, and the section it cites
for each finding kind. The detection and correction engine reads only this interface, so a
club's house rules are one more :class:`Edition` value (see :func:`register`), not new code.

Where the texts differ (rules matrix "Findings and remedies"):
- too many units: 1999 re-rolls the whole column; 2008 keeps the first N dice of the type;
- forgotten AA hits: 1999 re-rolls round 1's 3s column; 2008 removes aircraft right to left;
- too many AA shots / support shots: 1999 re-rolls the entire battle; 2008 keeps the first N
  (AA) or applies the ghost rule to each extra shot (BB);
- several battles over-drawing one origin: 1999 voids by country, 2008 by origin;
- time limits: 1999 none, 2008 one subsequent turn (Section VII);
- wrong game number: 1999 the rolls count, 2008 the roll is void.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Literal, get_args, get_type_hints

from domain.rules.findings import FindingKind

TooManyUnits = Literal["reroll_column", "keep_first"]
CasualtyError = Literal["reroll_next_round", "wrong_units", "apply_to_corrected_units"]
ReportDeadline = Literal["first_roll", "turn_finished"]
JapanAfterUsa = Literal["fixed", "open"]
TechCost = Literal["declared", "rolled"]
GhostMiss = Literal["reroll_battle", "ignore"]
ExtraShotMissed = Literal["ignore", "reroll_next_round"]
AaVictims = Literal["order_of_loss", "right_to_left"]
SubFirstStrike = Literal["every_round", "round_1_only"]
AppliedRolls = Literal["faces_to_new_columns", "hits_as_rolled"]
AaForgotten = Literal["reroll_threes_column", "remove_right_to_left"]
ExtraShots = Literal["reroll_battle", "keep_first"]
OvercommitScope = Literal["country", "origin"]

#: Every finding kind of the rules matrix.
KINDS: tuple[FindingKind, ...] = tuple(FindingKind)

K = FindingKind  # short: the sets and citation tables below name many kinds
#: Declaration errors: the battle is null and void (1999 "Sending Errors"; 2008 Section II).
DECLARATION_ERRORS = frozenset({
    K.UNITS_NOT_AVAILABLE, K.OVERCOMMITTED_UNITS, K.NOT_ENOUGH_TRANSPORTS, K.TRANSPORTS_NOT_DECLARED,
    K.UNLOADING_ZONE_UNCLEAR, K.DEFENDERS_MISDECLARED,
})
#: 2008 Section VII's "non-combat errors": its time limit "will apply to CDEs, rolling errors,
#: and non-combat errors only". Parts 13 and 14 (1999) have no non-combat rule: the kinds are
#: defined under 2008 only.
NONCOMBAT_ERRORS = frozenset({
    K.MOVED_AFTER_COMBAT, K.NONCOMBAT_INTO_ENEMY, K.AIRCRAFT_LANDING, K.AA_GUN_MOVED, K.CAPACITY_EXCEEDED,
})
#: Header slips that are ignored and corrected as soon as possible.
IGNORED_KINDS = frozenset({K.WRONG_ROUND_NUMBER, K.WRONG_TURN_NUMBER, K.WRONG_COUNTRY, K.TYPO,
                           K.DECLARATION_AFTER_DICE})
#: Casualties taken wrong (a wrong type or number, or hits miscounted): the kinds whose remedy
#: ``Edition.casualty_error`` chooses.
CASUALTY_ERRORS = frozenset({K.WRONG_CASUALTIES, K.MISCOUNTED_HITS})


@dataclass(frozen=True)
class Edition:
    """One edition's choices where the texts differ, and its citation for every kind."""

    name: str
    too_many_units: TooManyUnits
    aa_forgotten: AaForgotten
    aa_too_many: ExtraShots
    bb_too_many: ExtraShots
    overcommit_scope: OvercommitScope
    #: 2008 Section VII: errors are correctable only until one subsequent turn is rolled.
    time_limit: bool
    wrong_game_number_voids_roll: bool
    #: Kinds this edition's texts define at all (others are not detected under it).
    kinds: frozenset[FindingKind]
    citations: dict[FindingKind, str] = field(default_factory=dict)
    # -- readings the texts leave open (docs/rulings.md gives each one's argument) -------------
    #: A casualty error seen in the next round's units: re-roll from the next round (Part 14),
    #: correct the next round in place as wrong units (2008 Section III, Wrong Units), or keep
    #: every later round's dice applied to the corrected units (2008 Orders of Loss, the pause
    #: rule's "applying the actual rolls to corrected units"; miscounted hits too).
    casualty_error: CasualtyError = "reroll_next_round"
    #: 2008 Section VII: a subsequent turn voided by a late correction stays void even when the
    #: error then becomes fixed (True), or the record stands whole once it is fixed (False).
    fixed_error_voids_turn: bool = False
    #: 2008 Section VII: "before the next turn is rolled" ends at its first die, or when it is
    #: finished rolling.
    report_deadline: ReportDeadline = "first_roll"
    #: An error in Japan's turn reported after USA rolled but before USSR: fixed (the USA-USSR
    #: turn has been rolled) or open for the Minister of Law.
    japan_error_after_usa: JapanAfterUsa = "fixed"
    #: 2008 Section IV: tech dice cost the dice declared (extra ones are ignored) or the dice rolled.
    tech_cost: TechCost = "declared"
    #: 1999: a ghost or left-on support shot that missed re-rolls the battle (Part 14 BB 3.1,
    #: "too many bb shots") or is ignored (as the ghost AA gun of 1a).
    bb_ghost_miss: GhostMiss = "reroll_battle"
    #: 2008: an extra AA or support die that missed is ignored (the ghost rule) or, as too many
    #: units, re-rolls the battle from the next round.
    extra_shot_missed: ExtraShotMissed = "ignore"
    #: 1999: "the entire column will be re-rolled" even when its extra dice changed nothing.
    reroll_unchanged_column: bool = True
    #: Which aircraft AA hits remove when fighters and bombers are mixed: the attacker's order of
    #: loss (FTR before BMB) or right to left (the bombers' column first).
    aa_victims: AaVictims = "order_of_loss"
    #: Attacking submarines strike first in every round at sea, or in round 1 only.
    sub_first_strike: SubFirstStrike = "every_round"
    #: The pause rule's "applying the actual rolls to corrected units": the faces go to the
    #: corrected units' columns (hits recomputed), or the hits as rolled stand.
    applied_rolls: AppliedRolls = "faces_to_new_columns"

    def cite(self, kind: FindingKind) -> str:
        """"iaapa-2008 Section III, Too many units": the edition and section applied."""
        return f"{self.name} {self.citations[kind]}"

    def defines(self, kind: FindingKind) -> bool:
        """Whether this edition has a rule for ``kind``."""
        return kind in self.kinds


_1999_SENDING = "Part 14, Sending Errors"
_1999_GM = "Part 14, GM Errors"
_1999_CALC = "Part 14, IAAPA Battle Calculator correction guidelines"

IAAPA_1999 = Edition(
    name="iaapa-1999",
    too_many_units="reroll_column",
    aa_forgotten="reroll_threes_column",
    aa_too_many="reroll_battle",
    bb_too_many="reroll_battle",
    overcommit_scope="country",
    time_limit=False,
    wrong_game_number_voids_roll=False,
    kinds=frozenset({
        K.UNITS_NOT_AVAILABLE, K.OVERCOMMITTED_UNITS, K.NOT_ENOUGH_TRANSPORTS, K.TRANSPORTS_NOT_DECLARED,
        K.DEFENDERS_MISDECLARED, K.TOO_FEW_UNITS, K.TOO_MANY_UNITS, K.WRONG_UNITS, K.MISCOUNTED_HITS,
        K.WRONG_CASUALTIES, K.AA_TOO_MANY, K.AA_GHOST, K.AA_FORGOTTEN, K.BB_TOO_MANY, K.BB_GHOST,
        K.BB_FORGOTTEN, K.WRONG_GAME_NUMBER, K.WRONG_ROUND_NUMBER, K.WRONG_TURN_NUMBER, K.WRONG_COUNTRY,
        K.TYPO, K.RESTS_ON_VOID,
    }),
    citations={
        K.UNITS_NOT_AVAILABLE: _1999_SENDING,
        K.OVERCOMMITTED_UNITS: f"{_1999_SENDING} (several battles: every battle of the affected units)",
        K.NOT_ENOUGH_TRANSPORTS: _1999_SENDING,
        K.TRANSPORTS_NOT_DECLARED: _1999_SENDING,
        K.DEFENDERS_MISDECLARED: _1999_SENDING,
        K.TOO_FEW_UNITS: f"{_1999_GM} (too few units rolled)",
        K.TOO_MANY_UNITS: f"{_1999_GM} (too many units: the entire column is re-rolled)",
        K.WRONG_UNITS: f"{_1999_GM} (incorrectly rolled battles)",
        K.MISCOUNTED_HITS: f"{_1999_GM} (incorrect number of casualties)",
        K.WRONG_CASUALTIES: f"{_1999_GM} (incorrect number of casualties)",
        K.AA_TOO_MANY: f"{_1999_GM}, AA guns 1 (entire battle re-rolled)",
        K.AA_GHOST: f"{_1999_GM}, AA guns 1a (ghost AA)",
        K.AA_FORGOTTEN: f"{_1999_GM}, AA guns 2 (too few fired: Rnd 1 3s column re-rolled)",
        K.BB_TOO_MANY: f"{_1999_GM}, BB support shot 3.1 (entire battle re-rolled)",
        K.BB_GHOST: f"{_1999_GM}, BB support shot 3.1 (shot with no battleship)",
        K.BB_FORGOTTEN: f"{_1999_GM}, BB support shot 3.2 (too few fired)",
        K.WRONG_GAME_NUMBER: f"{_1999_CALC} 1 (the rolls still count)",
        K.WRONG_ROUND_NUMBER: f"{_1999_CALC} 2 (continue the sequence; the time stamp orders rounds)",
        K.WRONG_TURN_NUMBER: f"{_1999_CALC} 3 (ignore it, correct it as soon as possible)",
        K.WRONG_COUNTRY: f"{_1999_CALC} 3 (by analogy: ignore it)",
        K.TYPO: "(Part 14 sets no rule; a misspelling is not an error, cf. 2008 Section VI)",
        K.RESTS_ON_VOID: f"{_1999_SENDING} (a voided battle; silent on the later battles that rest on "
                         "it: the Minister of Law rules)",
    },
)

_2008_CDE = "Section II (Combat Declaration Errors)"
_2008_ROLL = "Section III (Rolling Errors)"
_2008_NCM = "Rules Clarifications"

IAAPA_2008 = Edition(
    name="iaapa-2008",
    too_many_units="keep_first",
    aa_forgotten="remove_right_to_left",
    aa_too_many="keep_first",
    bb_too_many="keep_first",
    overcommit_scope="origin",
    time_limit=True,
    wrong_game_number_voids_roll=True,
    kinds=frozenset(KINDS),
    citations={
        K.UNITS_NOT_AVAILABLE: f"{_2008_CDE}: incorrect number or type of attacking units",
        K.OVERCOMMITTED_UNITS: f"{_2008_CDE}: more than the available units from one territory",
        K.NOT_ENOUGH_TRANSPORTS: f"{_2008_CDE}: not enough transports",
        K.TRANSPORTS_NOT_DECLARED: f"{_2008_CDE}: transports not in the sea zone clearing battle",
        K.UNLOADING_ZONE_UNCLEAR: f"{_2008_CDE}: unloading sea zone not disclosed",
        K.DEFENDERS_MISDECLARED: f"{_2008_CDE}.3: listed defending units not 100% correct",
        K.DECLARATION_AFTER_DICE: "Amendments and Special Orders (no changes once combat dice are rolled)",
        K.TOO_FEW_UNITS: f"{_2008_ROLL}, Too few units",
        K.TOO_MANY_UNITS: f"{_2008_ROLL}, Too many units (first N dice kept, left to right)",
        K.WRONG_UNITS: f"{_2008_ROLL}, Wrong Units",
        K.MISCOUNTED_HITS: f"{_2008_ROLL} (general principles: unaffected rolls stand)",
        K.WRONG_CASUALTIES: f"{_2008_ROLL} (general principles) and Default Orders of Loss",
        K.AA_TOO_MANY: f"{_2008_ROLL}, AA Guns (treated as too many units)",
        K.AA_GHOST: f"{_2008_ROLL}, AA Guns (AA rolled in error)",
        K.AA_FORGOTTEN: f"{_2008_ROLL}, AA Guns (forgotten: aircraft removed right to left)",
        K.BB_TOO_MANY: f"{_2008_ROLL}, BB Support Shots (ghost rule per extra shot)",
        K.BB_GHOST: f"{_2008_ROLL}, BB Support Shots (shot rolled in error or left on)",
        K.BB_FORGOTTEN: f"{_2008_ROLL}, BB Support Shots (forgotten)",
        K.PAUSE_SKIPPED: "Orders of Loss, exceptions (the attacker MUST pause)",
        K.BATTLE_ORDER: "Combat Resolution and Order of Battles",
        K.RETREAT_UNDECLARED: "Rules Clarifications, Retreats (Minister of Law's discretion)",
        K.TECH_DICE_TOO_MANY: "Section IV (Tech Rolls): extra dice ignored",
        K.TECH_DICE_TOO_FEW: "Section IV (Tech Rolls): missing dice rolled",
        K.TECH_OVERSPENT: "Section IV (Tech Rolls): a declaration error",
        K.WRONG_GAME_NUMBER: "Using the Dice Server (wrong Game Number: the roll is void)",
        K.WRONG_ROUND_NUMBER: "Using the Dice Server (wrong Round Number: continue the sequence)",
        K.WRONG_TURN_NUMBER: "Using the Dice Server (wrong Turn Number: ignore it)",
        K.WRONG_COUNTRY: "Using the Dice Server (wrong country: ignore it)",
        K.MAP_DISCREPANCY: "Section V (non-combat moves take precedence over the map)",
        K.TYPO: "Section VI (typographical errors are not errors)",
        K.MAP_COUNT_WRONG: "Post Combat Orders (territory and IPC count, e.g. UK 30/$32)",
        K.BID_ILLEGAL: "Bidding (where bid units may be placed; negative bids not mixed)",
        K.BID_TOTAL_MISMATCH: "How to Start a Game (the Challenge): the bid total entered takes precedence; "
                              "the bid details are adjusted to match it",
        K.MAGIC_84: "Rules Clarifications, Magic 84 (Axis IPC count after the United States' turn)",
        K.FORFEIT_ELIGIBLE: "Forfeits and Annulments, Forfeits (no turn within 5 days)",
        K.FINISH_EARLY: "Game Completion (the loser may post the finish 7 days after the end)",
        K.ANNULLED: "Forfeits and Annulments, Annulments (by mutual agreement)",
        K.PURCHASE_OVERSPENT: "Rules Clarifications, Income Collection and Spending; Classic rulebook, "
                              "Purchase Units (no more than the IPCs on hand)",
        K.TREASURY_WRONG: "Rules Clarifications, Income Collection and Spending; Classic rulebook, Collect "
                          "Income (the IPCs a power has)",
        K.PLACEMENT_UNPURCHASED: "Post Combat Orders (placements) and the Classic rulebook, Place New Units "
                                 "(the units purchased this turn)",
        K.PLACEMENT_ILLEGAL: "Rules Clarifications, Placement of New Units (ICs owned at the start of the "
                             "turn; shipping next to them; no fighter on a carrier); Bidding (bid IC limit)",
        K.UNITS_UNPLACED: "Post Combat Orders (placements) and the Classic rulebook, Place New Units "
                          "(units bought are placed at the end of the turn)",
        K.MAP_UPDATE_INCOMPLETE: "Post Combat Orders (the map update lists all territories the country has "
                                 "units in and/or possesses)",
        K.MOVED_AFTER_COMBAT: f"{_2008_NCM}, Combat/Non-Combat Movement (\"With the exception of air units "
                              "(which land during non-combat), no units may engage in both combat and "
                              "non-combat during the same turn\"); Transport Unloading; Section VII",
        K.NONCOMBAT_INTO_ENEMY: "Abbreviations, WI (entering an enemy or neutral territory \"happens during "
                                f"the combat phase of the turn\"); {_2008_NCM}, Transport Unloading "
                                "(non-combat unloading into friendly land territories); Section VII",
        K.AIRCRAFT_LANDING: f"{_2008_NCM}, Fighters (\"A fighter may only move a total of 4 spaces on any "
                            "given turn\") and Combat/Non-Combat Movement (air units land during "
                            "non-combat); Classic rulebook (MB 2nd edition), Non-Combat Move (bombers move "
                            "6; aircraft land in a territory friendly at the start of the turn, fighters "
                            "on a friendly carrier); Section VII",
        K.AA_GUN_MOVED: f"{_2008_NCM}, AA Guns (\"You may move an AA Gun into but not out of a newly "
                        "captured territory\") and Rocket Technology (\"A rocket may not accompany any "
                        "units in a combat attack\"); Section VII",
        K.CAPACITY_EXCEEDED: "Classic rulebook (MB 2nd edition): a transport carries 2 INF or 1 INF and 1 "
                             "other land unit, a carrier 2 fighters; Rules Clarifications, Transport "
                             "Unloading; Section VII",
        K.RESTS_ON_VOID: "Sections II and VII (a void battle, a void turn; silent on the later battles "
                         "that rest on it: the Minister of Law rules)",
    },
)

_EDITIONS: dict[str, Edition] = {IAAPA_1999.name: IAAPA_1999, IAAPA_2008.name: IAAPA_2008}


def edition(name: str) -> Edition:
    """The edition called ``name``; KeyError naming the known ones otherwise.

    A name may add readings to a registered edition, each ``+field=value``:
    ``"iaapa-2008+casualty_error=apply_to_corrected_units"`` is iaapa-2008 with that reading
    (a replay's ``[game] readings``; the name says every choice, so a stored game keeps it).
    """
    found = _EDITIONS.get(name)
    if found is not None:
        return found
    base, plus, rest = name.partition("+")
    if not plus or base not in _EDITIONS:
        raise KeyError(f"unknown edition {name!r} (known: {', '.join(sorted(_EDITIONS))})")
    pairs = [part.partition("=") for part in rest.split("+")]
    if any(not eq for _, eq, _ in pairs):
        raise KeyError(f"edition {name!r}: expected each reading as +field=value")
    try:
        return with_readings(_EDITIONS[base], {key: value for key, _, value in pairs}, name=name)
    except ValueError as error:
        raise KeyError(f"edition {name!r}: {error}") from None


def readings() -> dict[str, tuple[str, ...]]:
    """The readings an edition may choose (docs/rulings.md) and the values each allows."""
    hints = get_type_hints(Edition)
    out: dict[str, tuple[str, ...]] = {}
    for spec in fields(Edition):
        if spec.default is MISSING or spec.name == "citations":
            continue
        kind = hints[spec.name]
        out[spec.name] = ("true", "false") if kind is bool else tuple(str(v) for v in get_args(kind))
    return out


def with_readings(base: Edition, chosen: Mapping[str, str], *, name: str | None = None) -> Edition:
    """``base`` with some readings chosen (values as text: ``"true"``/``"false"`` for yes/no
    readings); ValueError naming the reading or value not offered."""
    offered = readings()
    changes: dict[str, object] = {}
    for key, value in chosen.items():
        if key not in offered:
            raise ValueError(f"no reading {key!r} (readings: {', '.join(offered)})")
        if value not in offered[key]:
            raise ValueError(f"reading {key} expects one of {', '.join(offered[key])}, found {value!r}")
        changes[key] = value == "true" if offered[key] == ("true", "false") else value
    label = name or base.name + "".join(f"+{key}={value}" for key, value in sorted(chosen.items()))
    return replace(base, name=label, **changes)  # type: ignore[arg-type]


def register(policy: Edition) -> None:
    """Add an edition (a club's house rules): every kind it defines must have a citation."""
    missing = sorted(k for k in policy.kinds if k not in policy.citations)
    if missing:
        raise ValueError(f"edition {policy.name!r} cites no section for: {', '.join(missing)}")
    unknown = sorted(k for k in policy.kinds if k not in KINDS)
    if unknown:
        raise ValueError(f"edition {policy.name!r} defines unknown kinds: {', '.join(unknown)}")
    _EDITIONS[policy.name] = policy


def known_editions() -> tuple[str, ...]:
    """Names of the registered editions."""
    return tuple(sorted(_EDITIONS))
