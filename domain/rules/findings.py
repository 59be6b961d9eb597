"""What a finding is: its kind (the rule it falls under) and what became of it.

Values, not strings: a kind or status is compared and stored as a member; msgspec and JSON carry
its text (``"wrong_units"``), so the report and stored reviews read as before. The kinds live
with the rules (the editions cite a section per kind); the review detects and decides them.
Each kind names the section of IAAPA 2008 (and Part 14 1999 where it has one) it belongs to.
"""

from __future__ import annotations

import re
from enum import StrEnum


class FindingKind(StrEnum):
    """Every finding kind of the rules matrix (the rules matrix, "Findings and remedies")."""

    # -- declaration errors: the battle is null and void -----------------------------------------
    #: 2008 Section II (Combat Declaration Errors); 1999 Part 14, Sending Errors.
    UNITS_NOT_AVAILABLE = "units_not_available"
    #: 2008 Section II, more than the available units from one territory; 1999 Sending Errors.
    OVERCOMMITTED_UNITS = "overcommitted_units"
    #: 2008 Section II, not enough transports; 1999 Sending Errors.
    NOT_ENOUGH_TRANSPORTS = "not_enough_transports"
    #: 2008 Section II, transports not in the sea zone clearing battle; 1999 Sending Errors.
    TRANSPORTS_NOT_DECLARED = "transports_not_declared"
    #: 2008 Section II, unloading sea zone not disclosed.
    UNLOADING_ZONE_UNCLEAR = "unloading_zone_unclear"
    #: 2008 Section II.3, listed defending units not 100% correct; 1999 Sending Errors.
    DEFENDERS_MISDECLARED = "defenders_misdeclared"
    #: 2008 Amendments and Special Orders (no changes once combat dice are rolled).
    DECLARATION_AFTER_DICE = "declaration_after_dice"
    # -- rolling errors ------------------------------------------------------------------------
    #: 2008 Section III, Too few units; 1999 Part 14, GM Errors.
    TOO_FEW_UNITS = "too_few_units"
    #: 2008 Section III, Too many units; 1999 GM Errors (the entire column re-rolled).
    TOO_MANY_UNITS = "too_many_units"
    #: 2008 Section III, Wrong Units; 1999 GM Errors (incorrectly rolled battles).
    WRONG_UNITS = "wrong_units"
    #: 2008 Section III (general principles); 1999 GM Errors (incorrect number of casualties).
    MISCOUNTED_HITS = "miscounted_hits"
    #: 2008 Section III and Default Orders of Loss; 1999 GM Errors (incorrect number of casualties).
    WRONG_CASUALTIES = "wrong_casualties"
    #: 2008 Section III, AA Guns (as too many units); 1999 GM Errors, AA guns 1.
    AA_TOO_MANY = "aa_too_many"
    #: 2008 Section III, AA Guns (AA rolled in error); 1999 GM Errors, AA guns 1a.
    AA_GHOST = "aa_ghost"
    #: 2008 Section III, AA Guns (forgotten); 1999 GM Errors, AA guns 2.
    AA_FORGOTTEN = "aa_forgotten"
    #: 2008 Section III, BB Support Shots (extra shots); 1999 GM Errors, BB support shot 3.1.
    BB_TOO_MANY = "bb_too_many"
    #: 2008 Section III, BB Support Shots (rolled in error or left on); 1999 BB support shot 3.1.
    BB_GHOST = "bb_ghost"
    #: 2008 Section III, BB Support Shots (forgotten); 1999 GM Errors, BB support shot 3.2.
    BB_FORGOTTEN = "bb_forgotten"
    #: 2008 Orders of Loss, exceptions (the attacker MUST pause).
    PAUSE_SKIPPED = "pause_skipped"
    #: 2008 Combat Resolution and Order of Battles.
    BATTLE_ORDER = "battle_order"
    #: 2008 Rules Clarifications, Retreats (Minister of Law's discretion).
    RETREAT_UNDECLARED = "retreat_undeclared"
    # -- tech rolls ----------------------------------------------------------------------------
    #: 2008 Section IV (Tech Rolls): extra dice ignored.
    TECH_DICE_TOO_MANY = "tech_dice_too_many"
    #: 2008 Section IV (Tech Rolls): missing dice rolled.
    TECH_DICE_TOO_FEW = "tech_dice_too_few"
    #: 2008 Section IV (Tech Rolls): overspending is a declaration error.
    TECH_OVERSPENT = "tech_overspent"
    # -- dice server headers and slips ---------------------------------------------------------
    #: 2008 Using the Dice Server (the roll is void); 1999 Battle Calculator guidelines 1.
    WRONG_GAME_NUMBER = "wrong_game_number"
    #: 2008 Using the Dice Server (continue the sequence); 1999 Battle Calculator guidelines 2.
    WRONG_ROUND_NUMBER = "wrong_round_number"
    #: 2008 Using the Dice Server (ignore it); 1999 Battle Calculator guidelines 3.
    WRONG_TURN_NUMBER = "wrong_turn_number"
    #: 2008 Using the Dice Server (wrong country: ignore it); 1999 guidelines 3 by analogy.
    WRONG_COUNTRY = "wrong_country"
    #: 2008 Section V (non-combat moves take precedence over the map).
    MAP_DISCREPANCY = "map_discrepancy"
    #: 2008 Section VI (typographical errors are not errors).
    TYPO = "typo"
    # -- the board and the club's procedures ---------------------------------------------------
    #: 2008 Post Combat Orders (territory and IPC count).
    MAP_COUNT_WRONG = "map_count_wrong"
    #: 2008 Bidding (where bid units may be placed; negative bids not mixed).
    BID_ILLEGAL = "bid_illegal"
    #: 2008 How to Start a Game (the Challenge): the bid total entered takes precedence over its
    #: details, which are adjusted to match it.
    BID_TOTAL_MISMATCH = "bid_total_mismatch"
    #: 2008 Rules Clarifications, Magic 84 (Axis IPC count after the United States' turn).
    MAGIC_84 = "magic_84"
    #: 2008 Forfeits and Annulments, Forfeits (no turn within 5 days).
    FORFEIT_ELIGIBLE = "forfeit_eligible"
    #: 2008 Game Completion (the loser may post the finish 7 days after the end).
    FINISH_EARLY = "finish_early"
    #: 2008 Forfeits and Annulments, Annulments (by mutual agreement).
    ANNULLED = "annulled"

    # -- the treasury and new units -------------------------------------------------------------
    #: Classic rulebook, Purchase Units; 2008 Rules Clarifications, Income Collection and Spending.
    PURCHASE_OVERSPENT = "purchase_overspent"
    #: Classic rulebook, Collect Income; 2008 Rules Clarifications, Income Collection and Spending.
    TREASURY_WRONG = "treasury_wrong"
    #: Classic rulebook, Place New Units (the units purchased this turn); 2008 Post Combat Orders.
    PLACEMENT_UNPURCHASED = "placement_unpurchased"
    #: 2008 Rules Clarifications, Placement of New Units; Bidding (bid IC limit).
    PLACEMENT_ILLEGAL = "placement_illegal"
    #: Classic rulebook, Place New Units (units bought are placed at the end of the turn).
    UNITS_UNPLACED = "units_unplaced"
    #: 2008 Post Combat Orders (the map update lists every territory held or with units).
    MAP_UPDATE_INCOMPLETE = "map_update_incomplete"
    # -- non-combat errors (2008 Section VII names them; 1999 Parts 13 and 14 have no rule) --------
    #: 2008 Rules Clarifications, Combat/Non-Combat Movement: units other than aircraft that took
    #: part in combat move again in non-combat (a transport that unloaded: Transport Unloading).
    MOVED_AFTER_COMBAT = "moved_after_combat"
    #: 2008 Abbreviations, WI: entering an enemy or neutral territory happens in the combat phase;
    #: a land unit moved (or routed) into one in non-combat.
    NONCOMBAT_INTO_ENEMY = "noncombat_into_enemy"
    #: 2008 Rules Clarifications, Fighters (4 spaces a turn, the combat move counted); Classic
    #: rulebook, Non-Combat Move (bombers 6; land where friendly at the start of the turn, a
    #: fighter on a friendly carrier).
    AIRCRAFT_LANDING = "aircraft_landing"
    #: 2008 Rules Clarifications, AA Guns (into but not out of a newly captured territory) and
    #: Rocket Technology (no AA gun in a combat attack).
    AA_GUN_MOVED = "aa_gun_moved"
    #: Classic rulebook: a transport carries 2 INF or 1 INF and 1 other land unit, a carrier 2
    #: fighters (where the record gives the route a move's cargo went by).
    CAPACITY_EXCEEDED = "capacity_exceeded"
    # -- what the texts leave to the Minister ---------------------------------------------------
    #: A battle declared on a board an earlier voided battle or void turn changed: 2008 Section
    #: VII and II and 1999 Part 14 void the erring battle or turn and say nothing of the later
    #: ones that rest on it (the Minister of Law rules; no remedy is invented).
    RESTS_ON_VOID = "rests_on_void"


class FindingStatus(StrEnum):
    """What became of a finding (spec/replay-format.md's report ``status``)."""

    #: The error was corrected (dice re-rolled, units fixed).
    CORRECTED = "corrected"
    #: The battle or roll is null and void.
    VOID = "void"
    #: The record stands as rolled.
    STANDS = "stands"
    #: The rules say to ignore it.
    IGNORED = "ignored"
    #: Awaiting the Minister of Law's ruling or an election.
    OPEN = "open"
    #: Reported too late: the record is fixed as rolled.
    FIXED = "fixed"
    #: Another finding's remedy took its place.
    SUPERSEDED = "superseded"


#: A finding's id in a review: ``F`` and its number.
_FINDING_ID = re.compile(r"F[0-9]+")


def finding_ref(text: str) -> str | FindingKind:
    """A finding named by its id (``"F2"``, kept as text) or by its kind (a member); ValueError
    naming the allowed kinds when ``text`` is neither (a ruling's ``finding``, ``--finding``)."""
    if _FINDING_ID.fullmatch(text):
        return text
    try:
        return FindingKind(text)
    except ValueError:
        allowed = ", ".join(kind.value for kind in FindingKind)
        raise ValueError(f"{text!r} is neither a finding id (F1, F2 …) nor a finding kind "
                         f"(allowed kinds: {allowed})") from None
