"""Where things are written in a replay file: the lines of its tables, [[event]] tables and keys.

tomllib gives values without positions, so every message that names a line (docs/replay-format.md,
"Errors") finds it here, in the file's text read once more.
"""

from __future__ import annotations

import re
from typing import Any

_TABLE = re.compile(r"^\s*\[\s*([A-Za-z_]+)\s*\]\s*$")


class FileLines:
    """Line numbers of a TOML document's tables, [[event]] tables and their keys."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.events: list[int] = []
        self.tables: dict[str, int] = {}
        for i, line in enumerate(self.lines, 1):
            if "[" not in line or not line.lstrip().startswith("["):
                continue  # most lines: a key, a roll log's line (one test, in C)
            if line.lstrip().startswith("[[event]]"):
                self.events.append(i)
            match = _TABLE.match(line)
            if match:
                self.tables.setdefault(match.group(1), i)
        #: [[event]] index -> the ``source_line`` an export states (0: none); see keep_line.
        self.stated: dict[int, int | None] = {}

    def state(self, records: list[Any]) -> None:
        """Note the ``source_line`` keys of the [[event]] tables (written by ``minister export``)."""
        for index, record in enumerate(records):
            line = record.get("source_line") if isinstance(record, dict) else None
            if isinstance(line, int) and not isinstance(line, bool) and 0 <= line <= len(self.lines):
                self.stated[index] = line or None

    def top_line(self, key: str) -> int | None:
        """The line of a top-level ``key = ...`` or ``[key]`` (before the first table)."""
        if key in self.tables:
            return self.tables[key]
        for lineno, line in enumerate(self.lines, 1):
            if line.lstrip().startswith("["):
                return None
            if re.match(rf"^\s*{re.escape(key)}\s*=", line):
                return lineno
        return None

    def any_line(self, key: str) -> int | None:
        """The line of a top-level ``key``: ``key = ...`` before the first table, or a ``[key]``,
        ``[[key]]`` or ``[key.sub]`` table header."""
        found = self.top_line(key)
        if found is not None:
            return found
        header = re.compile(rf"^\s*\[\[?\s*{re.escape(key)}\s*[\].]")
        return next((lineno for lineno, line in enumerate(self.lines, 1) if header.match(line)), None)

    def table_key_line(self, table: str, key: str | None) -> int | None:
        """The line of ``key = ...`` inside the ``[table]`` (the table's line when not found)."""
        start = self.tables.get(table)
        if start is None or key is None:
            return start
        for lineno in range(start + 1, len(self.lines) + 1):
            text = self.lines[lineno - 1]
            if text.lstrip().startswith("["):
                break
            if re.match(rf"^\s*{re.escape(key)}\s*=", text):
                return lineno
        return start

    def event_line(self, index: int) -> int | None:
        return self.events[index] if index < len(self.events) else None

    def key_line(self, index: int, key: str) -> int | None:
        """The line of ``key = ...`` inside the index-th [[event]] table."""
        start = self.event_line(index)
        if start is None:
            return None
        end = self.events[index + 1] if index + 1 < len(self.events) else len(self.lines) + 1
        # What ``^\s*key\s*=`` matches (str.lstrip strips the characters ``\s`` matches), tested
        # inline: this runs for the lines of every [[event]] table, and a call per line showed.
        lines, size = self.lines, len(key)
        for lineno in range(start, end - 1):
            text = lines[lineno]
            if key not in text:
                continue  # most lines: another key (one test, in C)
            text = text.lstrip()
            if text.startswith(key) and text[size:].lstrip().startswith("="):
                return lineno + 1
        return start

    def text_start(self, index: int, key: str) -> int | None:
        """The file line holding the first line of a (possibly multi-line) string value."""
        if index in self.stated:
            return self.stated[index]
        line = self.key_line(index, key)
        if line is None:
            return None
        value = self.lines[line - 1].split("=", 1)[1].strip()
        # TOML drops the newline right after an opening triple quote.
        if value in ('"""', "'''"):
            return line + 1
        return line

