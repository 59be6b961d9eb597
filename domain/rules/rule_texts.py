"""The rule texts themselves, quoted where each edition's citation points: what the letter puts
before the players beside the section it cites (domain.rules.editions gives the citations).

Every quotation is copied word for word from the club's texts (IAAPA Part 14, Error Correction,
1999; the 2008 2nd Edition Unabridged Rules), their spelling kept ("accidently", "bb"); " … "
marks words left out between two quoted parts. A kind whose rule is the Classic rulebook's
alone (purchases, placements bought) has no quotation here: the club's texts do not hold it,
and the letter then gives the citation only. A club's own edition (editions.register) quotes
nothing unless it is named after one of these.
"""

from __future__ import annotations

from domain.rules.findings import FindingKind

K = FindingKind

# -- 2008 2nd Edition Unabridged Rules -------------------------------------------------------------
_CDE_VOID = ("If any of this information is incorrect, it is considered a CDE, and the entire battle is "
             "null and void and no portion of the results may stand.")
_CDE_ELECT = ("The attacker may then elect to re-roll the entire battle with the correct number and type of "
              "units or he may elect not to fight the battle at all. He may not add additional attacking "
              "units to the battle.")
_CDE_LISTED = ("The exact number and type of attacking units, along with their country/territory or sea "
               "zone of origin, must be listed for each declared combat.")
_TOO_MANY = ("If a player incorrectly enters too many units, for any given unit type, simply start with the "
             "first listed die roll and sequentially, from left to right, take the correct number of dice. "
             "… Then re-roll the remainder of the battle beginning with the next Round.")
_UNAFFECTED = "In all cases, unaffected rolls will stand."
_BB_GHOST = ("If a BB shot is rolled in error and the ghost BB hits, simply ignore the roll and adjust the "
             "counts if necessary", "If a BB shot is rolled in error and the ghost BB missed, then the "
             "battle will stand as is.")
_MAP_UPDATE = ("The attacker will then send a final e-mail indicating the results of combat, his non-combat "
               "moves, a map update (This is a list that contains all territories that said country has "
               "units in and/or possesses), and give a territory and IPC count.")
_IGNORE_SLIP = "simply ignore it and correct it as soon as possible."

_2008: dict[FindingKind, tuple[str, ...]] = {
    K.UNITS_NOT_AVAILABLE: (_CDE_LISTED, _CDE_VOID, _CDE_ELECT),
    K.NOT_ENOUGH_TRANSPORTS: ("Possible examples of a CDE would include, but are not limited to: … not "
                              "enough transports", _CDE_VOID, _CDE_ELECT),
    K.TRANSPORTS_NOT_DECLARED: ("Possible examples of a CDE would include, but are not limited to: … "
                                "failure to include transports in the sea zone clearing portion of an "
                                "amphibious assault", _CDE_VOID, _CDE_ELECT),
    K.UNLOADING_ZONE_UNCLEAR: ("Possible examples of a CDE would include, but are not limited to: … "
                               "failure to disclose the unloading sea zone if more than one potential zone "
                               "exists in an amphibious assault", _CDE_VOID, _CDE_ELECT),
    K.OVERCOMMITTED_UNITS: ("If a player makes a CDE by sending more than the available number of attacking "
                            "units from the same territory into multiple battles, ALL battles involving the "
                            "affected units from that attacking territory will be considered null and void "
                            "and no portion of the results may stand.", _CDE_ELECT),
    K.DEFENDERS_MISDECLARED: ("If any defending units are listed, then they must be 100% correct.", _CDE_VOID,
                              "The attacker may then elect to re-roll the entire battle with the correct "
                              "number and type of defending units or he may elect not to fight the battle "
                              "at all."),
    K.DECLARATION_AFTER_DICE: ("The attacker may modify his combat moves provided that he sends an updated "
                               "pre-combat turn before rolling any dice. No changes will be allowed once any "
                               "combat dice are rolled.",),
    K.TOO_FEW_UNITS: ("If a player incorrectly enters too few units, simply roll for the missing units and "
                      "then re-roll the remainder of the battle beginning with the next round.", _UNAFFECTED),
    K.TOO_MANY_UNITS: (_TOO_MANY, _UNAFFECTED),
    K.WRONG_UNITS: ("If a player enters the wrong type of unit then its roll will be ignored and the correct "
                    "unit will be rolled for, regardless of whether the attack/defense values are "
                    "equivalent.", _UNAFFECTED),
    K.MISCOUNTED_HITS: ("Valid dice rolls will be preserved as much as possible.", _UNAFFECTED),
    K.WRONG_CASUALTIES: ("If a defender does not send in any special orders of loss prior to the attacker "
                         "rolling the battle then the Association defaults will be used.", _UNAFFECTED),
    K.AA_TOO_MANY: (_TOO_MANY,),
    K.AA_GHOST: ("If an AA gun is rolled in error (i.e., there is no AA gun present) and the ghost AA gun "
                 "scored a hit, then roll for the missing attacking aircraft, adjust the counts, and then "
                 "re-roll the rest of the battle, starting with the next round.",
                 "If an AA gun is rolled in error (i.e., there is no AA gun present) and the ghost AA gun "
                 "missed, then the ghost gun roll will be ignored and the battle will stand as is."),
    K.AA_FORGOTTEN: ("If an AA gun is forgotten, roll for the missing shots. If the AA gun hits, remove the "
                     "attacking aircraft, adjust the counts for round 2 and the remainder of the battle is "
                     "to "
                     "be re-rolled starting with round 2. Aircraft are removed from right to left.",
                     "If the AA gun misses, then the original battle stands."),
    K.BB_TOO_MANY: _BB_GHOST,
    K.BB_GHOST: (*_BB_GHOST, "If a player leaves the BB support shot on in round 2, or turns it on in any "
                 "subsequent round, then the generic ghost rule will apply, i.e., for every round it misses, "
                 "it is ignored."),
    K.BB_FORGOTTEN: ("If a BB support shot was forgotten, simply roll for the missing shot. If it hits, "
                     "adjust for the extra defending casualty and re-roll the remainder of the battle, "
                     "starting with round 2.",),
    K.PAUSE_SKIPPED: ("If the attacker rolls both attacker AND defender in these cases without pausing and "
                      "allowing the defender to declare his OOL, and if following the OOL correctly MAY have "
                      "resulted in a DIFFERENT battle outcome for the dice ACTUALLY ROLLED, the attacking "
                      "rolls shall stand, and the defender shall have the option to: … accept the defending "
                      "rolls as is, applied to the units now shown, … to accept the defending rolls, "
                      "applying the actual rolls to corrected units, or, … to adjust the defending units to "
                      "suit the correct OOL and re-roll the affected defending rolls.",),
    K.BATTLE_ORDER: ("However, once a battle begins it must be resolved completely before the next battle "
                     "can "
                     "begin. Once the next battle begins it is assumed that the previous battle has finished "
                     "and any surviving attacking units are retreating. If the attacking units cannot "
                     "retreat, then the battle will need to be finished and all subsequent battles "
                     "rerolled.",),
    K.RETREAT_UNDECLARED: ("Land and naval units retreat during combat; therefore, if you wish to retreat "
                           "these units you must declare the retreat location before you roll the next "
                           "battle.", "If this is not done, then any subsequent battles may, at the "
                           "discretion of the Minister of Law, be voided and subject to re-rolling."),
    K.TECH_DICE_TOO_MANY: ("if more dice are rolled, then the extra dice are ignored similar to a combat "
                           "rolling error.",),
    K.TECH_DICE_TOO_FEW: ("if too few dice are rolled, the extra dice will be rolled to make up the total "
                          "purchased.",),
    K.TECH_OVERSPENT: ("if the number of dice rolled costs more than the available ipcs, then it will be "
                       "considered a declaration error and will need to be re-declared and re-rolled with "
                       "the correct number of dice.",),
    K.WRONG_GAME_NUMBER: ("If you choose the wrong Game Number the roll will be void.",),
    K.WRONG_ROUND_NUMBER: ("If you enter the wrong Round Number, simply continue the sequence with the next "
                           "number.",),
    K.WRONG_TURN_NUMBER: (f"If you enter the wrong Turn Number, {_IGNORE_SLIP}",),
    K.WRONG_COUNTRY: (f"If you enter the wrong country, {_IGNORE_SLIP}",),
    K.MAP_DISCREPANCY: ("If there is a dispute between listed non-combat moves and the map update the listed "
                        "non-combat moves will take precedence.",),
    K.TYPO: ("Typographical mistakes are not considered errors.",),
    K.MAP_COUNT_WRONG: (_MAP_UPDATE, "Please use units to distinguish between territory count and IPC "
                        "count, i.e. UK 30/$32"),
    K.BID_ILLEGAL: ("Land units may be placed in any territory controlled by the appropriate Axis power. "
                    "Naval "
                    "units may be placed in any sea zone adjacent to a land territory controlled by the "
                    "appropriate Axis power provided no Allied units occupy that sea zone. Ftrs cannot be "
                    "placed on existing or bid carriers.",
                    "Negative value bids are allowed (removing Axis units and/or IPCs) but may not be "
                    "combined with the addition of additional units or IPCs."),
    K.BID_TOTAL_MISMATCH: ("If there is a discrepancy between these the bid that you entered in the \"Your "
                           "Bid (IPC Total Value)\" block will take precedence. You will then simply adjust "
                           "the bid details to match the bid.",),
    K.MAGIC_84: ("If after the United States' turn the total combined Axis IPC Count is 84 or higher the "
                 "game "
                 "is over.",),
    K.FORFEIT_ELIGIBLE: ("If a player has not submitted his turn within 5 days and has not complied with the "
                         "turn submission guidelines then you may initiate a forfeit.",),
    K.FINISH_EARLY: ("Game finishes are to be entered by the victor. If, after 7 days have elapsed since the "
                     "game officially ended and the game finish has not been posted, the loser may enter the "
                     "game finish.",),
    K.ANNULLED: ("By mutual agreement a game may be annulled.", "Annulled games are not 'draws' and have no "
                 "affect on Association ranking or rating points."),
    K.TREASURY_WRONG: ("Any country that ends its turn with possession of its capital collects income.",),
    K.PLACEMENT_ILLEGAL: ("You must have owned the IC at the beginning of your turn and you must still "
                          "control "
                          "the industrial complex at the time of the placement of new units.",
                          "Shipping may be placed in any water area on the board that is adjacent to a land "
                          "territory possessing an IC.",
                          "A newly purchased fighter may not be placed on an aircraft carrier."),
    K.MAP_UPDATE_INCOMPLETE: (_MAP_UPDATE,),
    K.RESTS_ON_VOID: (_CDE_VOID, "If it is not, then the subsequent turn is void and must be re-done."),
    K.MOVED_AFTER_COMBAT: ("With the exception of air units (which land during non-combat), no units may "
                           "engage in both combat and non-combat during the same turn.",),
    # The Classic rulebook (not among the club's texts) says land units move into friendly
    # territory only in non-combat; the club's texts say only which errors the time limit takes.
    K.NONCOMBAT_INTO_ENEMY: ("This will apply to CDEs, rolling errors, and non-combat errors only.",),
    K.AIRCRAFT_LANDING: ("A fighter may only move a total of 4 spaces on any given turn.",),
    K.AA_GUN_MOVED: ("You may move an AA Gun into but not out of a newly captured territory.",),
    K.CAPACITY_EXCEEDED: ("During combat movement, only those units that will actually participate in "
                          "combat may be moved onto a transport.",),
}

# -- 1999 Part 14, Error Correction -----------------------------------------------------------------
_SENDING = ("A sending error is anything that is incorrectly sent to the GM, such as the wrong number of "
            "units, or too many units and not enough transports, etc. If a player makes a sending error, the "
            "entire battle is null and void and no portion of the results may stand. The attacker may then "
            "elect to have the GM re-roll the entire battle with the correct number and type of units or he "
            "may elect not to fight the battle at all.")
_NEXT_ROUND = ("After the round is corrected, then starting with the next round, the remainder of the battle "
               "will be re-rolled with the correct number of units.")
_TOO_FEW_SHOTS = ("If too few were fired then roll for the missing shots and: … If there were no additional "
                  "hits scored, then the battle will stand as originally rolled.")
_CASUALTIES = ("If the GM rolls for the correct number of units but counts an incorrect number of "
               "casualties, "
               "then the correct number of casualties will be taken and the rest of the battle would be "
               "re-rolled starting with the next round.")

_1999: dict[FindingKind, tuple[str, ...]] = {
    **dict.fromkeys((K.UNITS_NOT_AVAILABLE, K.NOT_ENOUGH_TRANSPORTS, K.TRANSPORTS_NOT_DECLARED,
                     K.DEFENDERS_MISDECLARED), (_SENDING,)),
    K.OVERCOMMITTED_UNITS: ("If a player makes an incorrect send concerning a territory that is involved in "
                            "multiple battles, ALL battles involving the affected units of that particular "
                            "country will be considered null and void and no portion of the results may "
                            "stand.",),
    K.TOO_FEW_UNITS: ("If too few units were rolled for the GM will simply roll for the forgotten units and "
                      "adjust the defenders casualties "
                      "accordingly.", "Columns not affected will stand as is.",
                      _NEXT_ROUND),
    K.TOO_MANY_UNITS: ("If too many units were rolled for, then the entire column will be re-rolled.",
                       "Columns not affected will stand as is.", _NEXT_ROUND),
    K.WRONG_UNITS: ("Incorrectly rolled battles will be corrected in the round they occurred and will then "
                    "be "
                    "re-rolled from the round following the round of the error.",),
    K.MISCOUNTED_HITS: (_CASUALTIES,),
    K.WRONG_CASUALTIES: (_CASUALTIES,),
    K.AA_TOO_MANY: ("If too many AA Guns were fired, then the entire battle is to be re-rolled.",),
    K.AA_GHOST: ("If the aa is turned on accidently (ie there was no aa gun present) when using the IAAPA "
                 "dice "
                 "roller, then simply ignore it. If the \"ghost\" aa had scored a hit, then roll for the "
                 "missing attacking aircraft, adjust the counts, and then the entire battle is to be "
                 "re-rolled "
                 "starting with the next round.",),
    K.AA_FORGOTTEN: (_TOO_FEW_SHOTS, "If there were additional hit/s scored, then go to Rnd 1 Column 3, "
                     "remove the additional ftr/s, re-roll the 3's column with the correct number of units, "
                     "adjust the defender's casualties if needed, and then the battle will be re-rolled "
                     "starting with Rnd 2 as stated above."),
    K.BB_TOO_MANY: ("If too many bb shots were fired, then the entire battle is to be re-rolled.",),
    K.BB_GHOST: ("If too many bb shots were fired, then the entire battle is to be re-rolled.",),
    K.BB_FORGOTTEN: (_TOO_FEW_SHOTS, "If there were additional hit/s scored, then remove the additional "
                     "casualties, adjust the counts, and then the battle will be re-rolled starting with Rnd "
                     "2 "
                     "as stated above."),
    K.WRONG_GAME_NUMBER: ("If you enter the wrong game number, the rolls still count.",),
    K.WRONG_ROUND_NUMBER: ("If you enter the wrong Round number, simply continue the sequence with the next "
                           "number.",),
    K.WRONG_TURN_NUMBER: (f"If you enter the wrong turn number, {_IGNORE_SLIP}",),
    K.WRONG_COUNTRY: (f"If you enter the wrong turn number, {_IGNORE_SLIP}",),
    K.RESTS_ON_VOID: ("If a player makes a sending error, the entire battle is null and void and no portion "
                      "of "
                      "the results may stand.",),
}

#: Each shipped edition's quotations, by its name.
QUOTES: dict[str, dict[FindingKind, tuple[str, ...]]] = {"iaapa-1999": _1999, "iaapa-2008": _2008}

#: 2008 Section VII, Time Limit for Error Corrections: the sentences the letter cites when it
#: says why a report was in time or too late, and where the limit does not reach.
TIME_LIMIT = ("If an error is recognized before the next turn is rolled, it must be corrected before the "
              "next "
              "turn is rolled. If it is not, then the subsequent turn is void and must be re-done. If, "
              "however, another turn is rolled and the error is still not corrected, it becomes fixed and "
              "not subject to correction.")
TIME_LIMIT_LATE = ("Errors are correctable only within a time period of 1 subsequent turn; if they are not "
                   "identified and corrected within that time, they become fixed.")
TIME_LIMIT_SCOPE = ("This will apply to CDEs, rolling errors, and non-combat errors only. All other errors "
                    "will be adjudicated on a case by case basis by the Minister of Law.")
TIME_LIMIT_USA = ("For the purpose of error correction, the USA-USSR turn will be considered as one turn, "
                  "and "
                  "errors that occur in the USA portion of the turn will be adjudicated on a case by case "
                  "basis by the Minister of Law.")
#: 2008 Section I: what the players may settle themselves.
MUTUAL = ("Whenever possible, players are encouraged to seek their own solutions to error correction; any "
          "solution is acceptable as long as there is mutual agreement between the players.")


def quoted(edition_name: str, kind: FindingKind) -> tuple[str, ...]:
    """The sentences of the rule an edition applies to ``kind`` (empty: none to quote). An
    edition with readings (``iaapa-2008+...``) quotes its base edition's texts."""
    return QUOTES.get(edition_name.partition("+")[0], {}).get(kind, ())


def all_quotations() -> list[tuple[str, str]]:
    """(edition, sentence) of every quotation here: what a test checks against the texts."""
    found = [(name, text) for name, table in QUOTES.items() for texts in table.values() for text in texts]
    found += [("iaapa-2008", text) for text in (TIME_LIMIT, TIME_LIMIT_LATE, TIME_LIMIT_SCOPE, TIME_LIMIT_USA,
                                                MUTUAL)]
    return found
