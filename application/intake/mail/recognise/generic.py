"""The generic dice line: ``dice: 6 6 1 4``, the fallback a club can ask its players to use.

Any dice server, or none the reader knows: the player copies the faces onto a line of their
own, after the words that say what they are for::

    E Europe round 1 attack dice: 1 5 2 6
    Karelia correction dice: 4
    dice: 3 4                       (the line above, the subject or the forwarding note says)

Faces are 1 to 6, separated by spaces or commas. The words before ``dice:`` (else the line
above, the subject and the words around a forwarded mail) name the battle, the round, the side
and whether the dice are for a correction; :mod:`application.intake.mail.matching` reads them.
The line's time is its e-mail's Date.
"""

from __future__ import annotations

import re

from application.intake.mail.model import DiceRoll, Found, Problem, Segment, Source
from application.intake.mail.recognise.context import Reading, at_of, bare_subject, hints

SERVER = "dice line"
_LINE = re.compile(r"^(?P<context>.{0,200}?)\bdice\s*:\s*(?P<dice>[1-6](?:[\s,]+[1-6]){0,999})\s*\.?\s*$",
                   re.IGNORECASE)


def recognise(segment: Segment, reading: Reading) -> Found:
    """Every ``dice:`` line of a segment, with the words that say what it is for."""
    found = Found()
    previous = ""
    for line in segment.lines:
        match = _LINE.match(line.text.strip())
        if not match:
            if line.text.strip():
                previous = line.text.strip()
            continue
        source = Source(segment.origin, line.number)
        at = at_of(source, reading.fallback)
        faces = tuple(int(d) for d in re.findall(r"[1-6]", match.group("dice")))
        own = match.group("context").strip(" -:")
        context = " ".join(p for p in (own or previous, segment.context,
                                       bare_subject(segment.origin.subject)) if p)
        if at is None:
            found.problems.append(Problem(None, source, "dice line not read: no date (its time is unknown)",
                                          line.text.strip(), ("problem", SERVER, line.text.strip())))
            continue
        said = hints(own or previous)
        found.dice.append(DiceRoll(faces, at, source, SERVER, (SERVER, " ".join(own.lower().split()),
                                                               "".join(map(str, faces))),
                                   round=said.round, side=said.side, purpose=said.purpose,
                                   context=context, notes=(f"dice line: {line.text.strip()}",)))
        previous = line.text.strip()
    return found
