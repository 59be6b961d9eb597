"""Mutated mailboxes never give a traceback: the shipped games cut short, with charsets nobody
knows, MIME parts swapped or unclosed, headers broken, bytes and lines scrambled. Each gives a
draft that reads (or no draft at all, when nothing could be read: a MinisterError, exit 2)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from application.intake.replayfile import parse_replay
from application.usecases.mail import draft_mail
from domain.errors import MinisterError
from tests.conftest import REPLAYS

MAIL = REPLAYS / "mail"
SEED = 29


def _mboxes() -> list[bytes]:
    """The two shipped games as mbox bytes (the folder's .eml files joined under postmarks)."""
    postmark = b"From x@example.org Mon Mar  4 18:00:00 2024\n"
    folder = b"".join(postmark + f.read_bytes().rstrip(b"\n") + b"\n\n"
                      for f in sorted((MAIL / "game-5907").glob("*.eml")))
    return [(MAIL / "game-2231.mbox").read_bytes(), folder]


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(1, len(data))]


def _charsets(data: bytes, rng: random.Random) -> bytes:
    names = [b"x-unknown", b"utf-16", b"\xff\xfe", b"ascii", b"koi8-r", b"", b"utf-8; charset=utf-7"]
    return re.sub(rb'charset="?[\w-]+"?', lambda _: b"charset=" + rng.choice(names), data)


def _swap_parts(data: bytes, rng: random.Random) -> bytes:
    boundaries = sorted(set(re.findall(rb"\n--(=_minister_fixture_\w+)\n", data)))
    if not boundaries:
        return data
    boundary = rng.choice(boundaries)
    marker = b"\n--" + boundary + b"\n"
    parts = data.split(marker)
    middle = parts[1:-1] if len(parts) > 3 else parts[1:]
    rng.shuffle(middle)
    parts[1:1 + len(middle)] = middle
    joined = marker.join(parts)
    # Sometimes the closing boundary goes too, as when a client cuts the message.
    return joined.replace(b"--" + boundary + b"--", b"") if rng.random() < 0.5 else joined


def _headers(data: bytes, rng: random.Random) -> bytes:
    junk = [b"Date: yesterday", b"Date: Mon, 99 Foo 2019 25:61:00 +9999", b"Message-ID:",
            b"Subject: =?x-bad?Q?=FF?=", b"From: <<<@>>>", b"Content-Type: multipart/mixed",
            b"Content-Transfer-Encoding: base64"]
    lines = data.split(b"\n")
    for _ in range(rng.randrange(1, 12)):
        index = rng.randrange(len(lines))
        if re.match(rb"^(Date|Message-ID|Subject|From|Content-Type|Content-Transfer-Encoding):",
                    lines[index]):
            lines[index] = rng.choice(junk)
    return b"\n".join(lines)


def _bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randrange(1, 60)):
        out[rng.randrange(len(out))] = rng.choice(b"\x00\xff\r\n>=*:(){}[]\x1b\x80 0123456789")
    return bytes(out)


def _lines(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randrange(1, 40)):
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
    return b"\n".join(lines)


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncated": _truncate, "charsets": _charsets, "parts swapped": _swap_parts, "headers": _headers,
    "bytes": _bytes, "lines": _lines,
}
CASES = [(name, game, n) for name in MUTATIONS for game in (0, 1) for n in range(5)]


@pytest.mark.parametrize("name, game, n", CASES, ids=[f"{name}-{game}-{n}" for name, game, n in CASES])
def test_a_mutated_mailbox_gives_a_draft_that_reads_or_a_clear_error(name: str, game: int, n: int,
                                                                     tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-{name}-{game}-{n}")
    data = MUTATIONS[name](_mboxes()[game], rng)
    if rng.random() < 0.3:  # and the mutations combined
        data = MUTATIONS[rng.choice(sorted(MUTATIONS))](data, rng)
    path = tmp_path / "mutated.mbox"
    path.write_bytes(data)
    try:
        draft = draft_mail(path)
    except MinisterError as error:
        assert str(path) in str(error)
        return
    assert draft.text.startswith("# Draft of game ")
    if draft.replay is not None:
        assert parse_replay(draft.text).game_id == draft.header.id
