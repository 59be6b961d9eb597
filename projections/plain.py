"""Text from the record shown on a terminal: control characters made visible, never obeyed.

A game's ids, titles, player names and report or ruling texts come from e-mails and old stores
(written before ids were validated). Sent raw to a terminal, an ESC starts an escape sequence (a
screen clear, a window title through OSC, a colour that hides text), a CR or a newline forges a
row, a BEL rings. Every plain-text output (the text report, the letter, the games table, verify
and error messages) and the timeline pass such text through :func:`visible`; JSON keeps the
exact strings (JSON escapes them itself).
"""

from __future__ import annotations

import re

__all__ = ["visible"]

# C0 controls, DEL and the C1 controls (8-bit CSI, OSC, ... in some terminals).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ESC -> U+241B, CR -> U+240D
    if code == 0x7F:
        return "\u2421"
    return f"\\x{code:02x}"  # C1 controls have no picture: written as Python writes them


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with every control character shown as a visible sign (ESC as U+241B, ...).

    ``lines``: keep line feeds and tabs (a whole output made of lines); otherwise a field is
    kept on one row (a newline in a title becomes U+240A, never a fake row).
    """
    pattern = _CONTROL_BUT_LINES if lines else _CONTROL
    return pattern.sub(_picture, text) if pattern.search(text) else text
