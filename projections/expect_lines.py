"""Where each part of a replay file's ``[expect]`` table is written: path -> line number.

tomllib gives values without positions, so the file's text is read again for its table headers
(``[expect]``, ``[[expect.battles]]``, ``[[expect.battles.rounds]]``) and ``key = value`` lines.
Values written inline (``result = { winner = ... }``) are located at their key's line; anything
not found falls back to the nearest enclosing table or key that was.
"""

from __future__ import annotations

import re
from pathlib import Path

from projections.expect import Path as ExpectPath

_HEADER = re.compile(r"""^\s*(\[\[?)\s*([A-Za-z0-9_.\-"' ]+?)\s*\]\]?\s*(?:#.*)?$""")
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
_KEY = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _dotted(text: str) -> tuple[str, ...]:
    parts = re.findall(_PART, text)
    return tuple(part.strip("\"'") for part in parts)


class ExpectLines:
    """The line numbers of an ``[expect]`` table's parts in one replay file."""

    def __init__(self, text: str) -> None:
        self.lines: dict[ExpectPath, int] = {}
        #: how many items each array of tables has so far, by its path
        counts: dict[ExpectPath, int] = {}
        current: ExpectPath | None = None
        in_multiline = False
        for number, line in enumerate(text.splitlines(), start=1):
            if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
                in_multiline = not in_multiline
                if not in_multiline:
                    continue
            elif in_multiline:
                continue
            header = _HEADER.match(line)
            if header and not _KEY.match(line):
                current = self._table(_dotted(header.group(2)), header.group(1) == "[[", counts, number)
                continue
            key = _KEY.match(line)
            if key and current is not None:
                dotted = _dotted(key.group(1))
                for end in range(1, len(dotted) + 1):  # a.b = 1 also writes the table a
                    self.lines.setdefault((*current, *dotted[:end]), number)

    def _table(self, keys: tuple[str, ...], array: bool, counts: dict[ExpectPath, int],
               number: int) -> ExpectPath | None:
        """The expectation path a table header opens, or None outside ``[expect]``."""
        if not keys or keys[0] != "expect":
            return None
        path: ExpectPath = ()
        for depth, key in enumerate(keys[1:], start=1):
            path = (*path, key)
            last = depth == len(keys) - 1
            if last and array:
                index = counts.get(path, 0)
                counts[path] = index + 1
                path = (*path, index)
            elif path in counts:
                # An outer array of tables: its last item holds what follows (TOML's rule).
                path = (*path, counts[path] - 1)
        self.lines.setdefault(path, number)
        return path

    def line_of(self, path: ExpectPath) -> int | None:
        """The line of the deepest part of ``path`` that is written in the file."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(path[:end])
            if line is not None:
                return line
        return None

    @classmethod
    def read(cls, source: str | Path) -> ExpectLines:
        """The lines of the ``[expect]`` table of the replay file ``source``."""
        return cls(Path(source).read_text(encoding="utf-8"))
