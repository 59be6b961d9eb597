"""TripleA's MARTI dice server mails (the PHP server at dice.tripleawarclub.org).

The TripleA client posts the roll with the subject ``<game>:<annotation>``, and the annotation
is TripleA's own dice title: ``<Player> roll dice for <units> in <Territory>, round <n>``
(``MyGame:Germans roll dice for 3 armour and 2 infantry in Eastern Europe, round 1``). The server
mails it back to both players with the body::

    Your dice are: 3,5,1,6
    Have a nice day.
    ...
    Verification Info: Follow this link to check if your dice are authentic
    https://dice.tripleawarclub.org/MARTI_verify.php?iv=...&enc=...

The verification data is the roll (subject, addresses, time, dice) encrypted under a key only
the server holds: it can be checked only online, by the server. The link is kept as evidence
and the draft says so. The mail's time is its Date header (the body states none).

The dice are given to the units in the order the subject lists them (TripleA rolls a die per
unit); :mod:`application.intake.mail.matching` writes them in the battle log's columns.
"""

from __future__ import annotations

import re

from application.intake.mail.model import DiceRoll, Found, Problem, Segment, Source
from application.intake.mail.recognise.context import Reading, at_of, bare_subject, power_of
from domain.errors import InvalidNotationError
from domain.rules.forces import parse_units
from domain.rules.names import resolve

SERVER = "MARTI"
_DICE = re.compile(r"^\s*your dice are\s*:\s*(?P<dice>[0-9,\s]*?)\s*$", re.IGNORECASE)
_SUBJECT = re.compile(r"^(?:(?P<game>[^:]{0,200}):)?\s*(?P<player>[A-Za-z][\w .'-]*?)\s+roll(?:s|ed)?"
                      r"\s+dice\s+for\s+"
                      r"(?P<units>.+?)\s+in\s+(?P<territory>.+?),\s*round\s*(?P<round>\d{1,3})\s*$",
                      re.IGNORECASE)
_VERIFY = re.compile(r"\S*MARTI_verify\.php\?\S+", re.IGNORECASE)
_ENC = re.compile(r"[?&]enc=([^&\s]+)")
#: The most dice one mail may hold (a real roll is a few dozen at most).
MAX_DICE = 1000


def units_of(text: str) -> tuple[tuple[str, int], ...] | None:
    """TripleA's unit list ("1 fighter and 7 infantry", "3 armour, 2 infantry") as
    (unit type, count) pairs in the written order; None when it does not read."""
    try:
        return tuple((unit.value, count) for unit, count in
                     parse_units(re.sub(r"\s+and\s+", ", ", text.strip())))
    except (InvalidNotationError, ValueError):
        return None


def recognise(segment: Segment, reading: Reading) -> Found:
    """A MARTI mail's dice, with the battle, round and player its subject names."""
    found = Found()
    for line in segment.lines:
        match = _DICE.match(line.text)
        if match:
            _roll(segment, reading, line.number, match.group("dice"), found)
    return found


def _roll(segment: Segment, reading: Reading, number: int, written: str, found: Found) -> None:
    source = Source(segment.origin, number)
    at = at_of(source, reading.fallback)
    subject = bare_subject(segment.origin.subject)
    faces = [int(d) for d in re.split(r"[,\s]+", written.strip()) if d]
    if at is None or not faces or len(faces) > MAX_DICE or any(not 1 <= d <= 6 for d in faces):
        why = ("no date: the roll's time is unknown" if at is None else
               "no dice" if not faces else f"more than {MAX_DICE} dice" if len(faces) > MAX_DICE
               else "a die that is not 1-6 (the roll was not made with six-sided dice)")
        found.problems.append(Problem(at, source, f"MARTI dice not read: {why}", f"Your dice are: {written}",
                                      ("problem", SERVER, subject, written)))
        return
    text = "\n".join(line.text for line in segment.lines)
    link = _VERIFY.search(text)
    notes = [f"MARTI dice {','.join(map(str, faces))}" + (f" ({subject})" if subject else "")]
    if link:
        notes.append(f"verification (only MARTI can check it, online: its key is secret): {link.group(0)}")
    else:
        notes.append("no MARTI verification link in the mail: the dice cannot be checked")
    if "marti@" not in segment.origin.sender.lower() and segment.origin.carried != "quoted":
        notes.append(f"not sent from MARTI's address (From: {segment.origin.sender or 'none'})")
    enc = _ENC.search(link.group(0)) if link else None
    key = (SERVER, enc.group(1)) if enc else (SERVER, subject, ",".join(map(str, faces)))
    match = _SUBJECT.match(subject)
    territory = power = None
    units: tuple[tuple[str, int], ...] = ()
    round_number = None
    if match:
        power = power_of(match.group("player"))
        try:
            found_territory = resolve(match.group("territory"))
            territory = None if found_territory.typo else found_territory.territory.name
        except (InvalidNotationError, ValueError):
            territory = None
        units = units_of(match.group("units")) or ()
        round_number = int(match.group("round"))
    found.dice.append(DiceRoll(tuple(faces), at, source, SERVER, key, territory=territory,
                               round=round_number, power=power, units=units, context=subject,
                               notes=tuple(notes)))
