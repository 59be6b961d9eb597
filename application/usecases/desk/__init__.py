"""The Minister of Law's desk: dice, reports, rulings, the letter and the evidence bundle.

``keys`` keeps the Minister's dice secrets out of the record; ``dice`` commits, draws, reveals and
checks dice, and enters the dice server's; ``papers`` records reports and rulings, amends and
withdraws them, each checked against the game first; ``bundle`` writes and verifies the evidence.
"""
