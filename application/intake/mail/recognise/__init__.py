"""The recognisers: each reads one kind of content out of a segment of an e-mail.

:mod:`.iaapa` (IAAPA notation: declarations, logs, orders, the board's records, reports),
:mod:`.marti` (TripleA's MARTI dice server), :mod:`.dicejs` (the newer TripleA dice server) and
:mod:`.generic` (a ``dice: 6 6 1 4`` line). Each is a function from a segment and a
:class:`~.context.Reading` to what it found; :func:`recognise` runs them all.
"""

from __future__ import annotations

from application.intake.mail.model import Found, Segment
from application.intake.mail.recognise import dicejs, generic, iaapa, marti
from application.intake.mail.recognise.context import Reading

RECOGNISERS = (iaapa.recognise, marti.recognise, dicejs.recognise, generic.recognise)


def recognise(segment: Segment, reading: Reading) -> Found:
    """Everything every recogniser finds in the segment."""
    found = Found()
    for recogniser in RECOGNISERS:
        found.extend(recogniser(segment, reading))
    return found
