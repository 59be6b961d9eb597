"""How the projections' span tags look on screen (fixed styles: the same on every run)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text

from projections.plain import visible
from projections.timeline import Span, Tag

TAG_STYLES: dict[Tag, Style] = {
    "text": Style(),
    "title": Style(bold=True),
    "dim": Style(dim=True),
    "hit": Style(bold=True, color="green"),
    "miss": Style(),
    # Voided dice no longer count: struck through (and marked ✗ in the text itself).
    "voided": Style(strike=True, color="red", dim=True),
    # Added dice were rolled by a correction: underlined (and marked + in the text itself).
    "added": Style(bold=True, color="yellow", underline=True),
    "reroll": Style(bold=True, color="magenta"),
    "finding": Style(bold=True, color="red"),
    "variation": Style(italic=True, color="cyan"),
}


def spans_text(spans: Iterable[Span]) -> Text:
    """Tagged spans as styled Rich text."""
    text = Text()
    for part, tag in spans:
        text.append(visible(part, lines=True), TAG_STYLES[tag])  # shown, never obeyed
    return text
