"""Errors raised by the domain: every one quotes the input it could not accept."""

from __future__ import annotations


class MinisterError(Exception):
    """Base of minister's own errors."""

    #: The exit code of a command ended by this error: 2, bad input (a record that fails its
    #: own checks is a verification failure, 1).
    exit_code: int = 2


class InvalidNotationError(MinisterError, ValueError):
    """Text that is not valid IAAPA notation.

    ``line`` is the 1-based line within the text that was parsed (callers that know where the
    text sits in a file shift it with :meth:`at_offset`), ``text`` the offending input.
    """

    def __init__(self, message: str, *, line: int | None = None, text: str | None = None,
                 source: str | None = None) -> None:
        self.message = message
        self.line = line
        self.text = text
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        quoted = f": {self.text!r}" if self.text is not None else ""
        return f"{where}: {self.message}{quoted}" if where else f"{self.message}{quoted}"

    def at_offset(self, first_line: int, source: str | None = None) -> InvalidNotationError:
        """The same error placed in a file whose parsed text starts at ``first_line``."""
        line = first_line + (self.line - 1 if self.line is not None else 0)
        return InvalidNotationError(self.message, line=line, text=self.text,
                                    source=source if source is not None else self.source)


class UnknownTerritoryError(InvalidNotationError):
    """A name that resolves to no territory or sea zone of the board."""


class ReplayError(MinisterError):
    """A replay file that cannot be read: names the file, the line and what was expected."""

    def __init__(self, message: str, *, source: str, line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")
