"""Tagged text wrapped to a width: where a timeline row too long for its column breaks.

:func:`breaks` finds the lines of a plain text (at spaces, a word longer than a line cut where it
must); :func:`cut` takes the same characters out of the tagged spans, so the row's height is
known from its text alone and its look from its spans. Pure Python: no Textual here.
"""

from __future__ import annotations

from projections.timeline_text import Span


def breaks(text: str, first: int, rest: int) -> list[tuple[int, int]]:
    """The (start, end) character ranges of ``text`` on each line: ``first`` characters on the
    first line, ``rest`` on the others; lines break after a space, the space left at the end of
    the line it ends (never at the start of the next)."""
    first, rest = max(1, first), max(1, rest)
    lines: list[tuple[int, int]] = []
    start, size = 0, len(text)
    room = first
    while size - start > room:
        end = start + room
        space = text.rfind(" ", start, end + 1)
        if space > start:
            lines.append((start, space))
            start = space + 1
        else:
            lines.append((start, end))
            start = end
        room = rest
    lines.append((start, size))
    return lines


def cut(spans: list[Span], start: int, end: int) -> list[Span]:
    """The spans' characters from ``start`` to ``end``, each piece with its tag."""
    pieces: list[Span] = []
    at = 0
    for text, tag in spans:
        following = at + len(text)
        if following > start and at < end:
            pieces.append((text[max(0, start - at):min(len(text), end - at)], tag))
        at = following
        if at >= end:
            break
    return pieces
