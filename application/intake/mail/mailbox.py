"""A mailbox on disk into raw messages: an ``.mbox`` file, a Maildir, a folder of ``.eml`` files.

Nothing here decodes a message; it only finds where each one starts and ends and reads its
bytes, within stated limits, and lists what it could not read (a file it may not open, a file
that is no e-mail). The mbox reader streams the file: a mailbox of any size costs the memory of
its largest message, and a message above :data:`MAX_MESSAGE_BYTES` is read up to the limit (its
text parts come first; the attachments cut off are listed).

mbox: a message starts at a line ``From <sender> <date>`` (the postmark) at the top of the file
or after a blank line; ``>From`` lines are unescaped as mboxrd writes them. A body line starting
with ``From `` that a careless writer did not escape is only taken for a postmark when it also
follows a blank line and ends with a year.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

#: The most bytes read of one message; the rest (attachments, usually) is skipped and listed.
MAX_MESSAGE_BYTES = 10 * 2**20
#: The most messages read from one mailbox.
MAX_MESSAGES = 100_000
#: The longest line read at once (a binary file has no line breaks).
_CHUNK = 1 << 16

_POSTMARK = re.compile(rb"^From \S+.*\b\d{4}\s*$")
_ESCAPED_FROM = re.compile(rb"^>+From ")


class MailboxError(Exception):
    """The path names nothing that can be read as a mailbox (a message naming the path)."""


@dataclass(frozen=True)
class RawMessage:
    """One message's bytes and where it was found."""

    #: "message 3 (line 120)" in an mbox, the file name in a folder or Maildir.
    where: str
    data: bytes
    #: Bytes beyond :data:`MAX_MESSAGE_BYTES` that were not read (0: the whole message).
    cut: int = 0
    #: The message ends the file in the middle of a line: the file was cut short.
    unterminated: bool = False


@dataclass(frozen=True)
class Skipped:
    """A file or message not read, and why."""

    where: str
    reason: str


def kind_of(path: Path) -> str:
    """``"maildir"``, ``"folder"``, ``"mbox"`` or ``"eml"``: what the path holds."""
    if path.is_dir():
        return "maildir" if (path / "cur").is_dir() or (path / "new").is_dir() else "folder"
    if not path.exists():
        raise MailboxError(f"{path}: no such file or folder (expected an .mbox file, a Maildir "
                           "or a folder of .eml files)")
    return "eml" if path.suffix.lower() == ".eml" else "mbox"


def read_mailbox(path: Path, skipped: list[Skipped]) -> Iterator[RawMessage]:
    """Every message of the mailbox at ``path``, in mailbox order; what is not read goes to
    ``skipped``. Raises :class:`MailboxError` when the path itself cannot be read."""
    kind = kind_of(path)
    if kind == "maildir":
        files = [f for sub in ("cur", "new") if (path / sub).is_dir()
                 for f in _sorted_files(path / sub, skipped)]
        yield from _files(path, files, skipped)
    elif kind == "folder":
        files = []
        for file in _sorted_files(path, skipped):
            if file.suffix.lower() == ".eml":
                files.append(file)
            else:
                skipped.append(Skipped(file.name, "not an .eml file"))
        yield from _files(path, files, skipped)
    elif kind == "eml":
        yield from _files(path.parent, [path], skipped)
    else:
        yield from _mbox(path)


def _sorted_files(folder: Path, skipped: list[Skipped]) -> list[Path]:
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as error:
        raise MailboxError(f"{folder}: cannot list the folder ({error.strerror})") from None
    files = []
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            skipped.append(Skipped(_name(folder, entry), "a folder inside the mailbox: not read"))
        else:
            files.append(entry)
    return files


def _name(root: Path, file: Path) -> str:
    try:
        return str(file.relative_to(root))
    except ValueError:
        return file.name


def _files(root: Path, files: list[Path], skipped: list[Skipped]) -> Iterator[RawMessage]:
    for count, file in enumerate(files):
        name = _name(root, file)
        if count >= MAX_MESSAGES:
            skipped.append(Skipped(name, f"more than {MAX_MESSAGES} messages: the rest not read"))
            return
        try:
            with file.open("rb") as handle:
                data = handle.read(MAX_MESSAGE_BYTES + 1)
                size = os.fstat(handle.fileno()).st_size
        except OSError as error:
            skipped.append(Skipped(name, f"cannot read the file ({error.strerror})"))
            continue
        if not data.strip():
            skipped.append(Skipped(name, "empty file"))
            continue
        cut = max(0, size - MAX_MESSAGE_BYTES) if len(data) > MAX_MESSAGE_BYTES else 0
        yield RawMessage(name, data[:MAX_MESSAGE_BYTES], cut, unterminated=False)


def _mbox(path: Path) -> Iterator[RawMessage]:
    try:
        handle = path.open("rb")
    except OSError as error:
        raise MailboxError(f"{path}: cannot read the file ({error.strerror})") from None
    with handle:
        yield from _split(handle, path)


def _split(handle: BinaryIO, path: Path) -> Iterator[RawMessage]:
    """The messages of an mbox stream (see the module docstring)."""
    parts: list[bytes] = []
    size = cut = count = 0
    start = lineno = 0
    previous_blank = True
    last = b""
    while True:
        line = handle.readline(_CHUNK)
        if not line:
            break
        lineno += 1
        last = line
        if previous_blank and line.startswith(b"From ") and _POSTMARK.match(line.rstrip(b"\r\n")):
            if count:
                yield _message(count, start, parts, cut)
            elif parts and any(p.strip() for p in parts):
                raise MailboxError(f"{path}: not an mbox file: line 1 is not a 'From ' line "
                                   "(expected an .mbox file, a Maildir or a folder of .eml files)")
            if count >= MAX_MESSAGES:
                raise MailboxError(f"{path}: more than {MAX_MESSAGES} messages (line {lineno})")
            count += 1
            start, parts, size, cut = lineno, [], 0, 0
        else:
            if count == 0 and line.strip():
                raise MailboxError(f"{path}: not an mbox file: line {lineno} is not a 'From ' line "
                                   "(expected an .mbox file, a Maildir or a folder of .eml files)")
            if _ESCAPED_FROM.match(line):
                line = line[1:]
            if size + len(line) <= MAX_MESSAGE_BYTES:
                parts.append(line)
                size += len(line)
            else:
                cut += len(line)
        previous_blank = not line.strip()
    if count:
        yield _message(count, start, parts, cut, unterminated=not last.endswith(b"\n"))


def _message(count: int, start: int, parts: list[bytes], cut: int, *,
             unterminated: bool = False) -> RawMessage:
    data = b"".join(parts)
    # The blank line before the next postmark belongs to the mbox, not to the message.
    if data.endswith(b"\r\n"):
        data = data[:-2]
    elif data.endswith(b"\n"):
        data = data[:-1]
    return RawMessage(f"message {count} (line {start})", data, cut, unterminated)
