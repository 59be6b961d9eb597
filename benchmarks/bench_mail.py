"""Benchmark: ``minister mail`` on a 2,000-message mailbox (issue 29), timed from process start.

The mailbox is a generated game (:mod:`benchmarks.gen_game`, a consistent game that reviews
without findings) written as the e-mails a Minister of Law would hold: each turn's declaration
in a turn e-mail that quotes the previous one, half of the battle rounds as TripleA's MARTI
dice mails (one a side and round), the other half as logs pasted into replies, special orders
and correction requests in their own e-mails, every tenth message delivered twice, and chatter
quoting the mail before it. The command runs as a user runs it, in its own process
(``minister mail BOX -o DRAFT``): the figure is the wall time from start to exit, with the peak
resident memory of that process.

Target: at most 5 s for 2,000 messages on this machine (2 shared cores).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
import tomllib
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from benchmarks.gen_game import generate_replay

TARGET_SECONDS = 5.0
MESSAGES = 2_000
_TRIPLEA = {"USSR": "Russians", "Germany": "Germans", "UK": "British", "Japan": "Japanese",
            "USA": "Americans"}
_UNITS = {"INF": "infantry", "ARM": "armour", "FTR": "fighter", "BMB": "bomber"}
_SIDE = re.compile(r"^(?P<side>[AD])(?:\d+)?\((?P<units>[^()]*)\)\s*(?P<dice>[0-9*/ ]+?)(?:\s*=.*)?$")
_PROBE = """
import sys, time
from benchmarks.child import own_peak_kb
start = time.perf_counter()
from tui.cli import main
sys.stdout = sys.stderr = open("/dev/null", "w")
code = main(["mail", sys.argv[1], "-o", sys.argv[2]])
sys.stdout = sys.__stdout__
print(own_peak_kb(), time.perf_counter() - start, code)
"""


def _mail(sender: str, subject: str, at: datetime, number: int, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "Minister of Law <minister@iaapa.example.org>"
    message["Date"] = format_datetime(at)
    message["Subject"] = subject
    message["Message-ID"] = f"<bench-{number}@example.org>"
    message.set_content(body)
    return message.as_bytes(policy=SMTP.clone(linesep="\n"))


def _quote(text: str, at: datetime) -> str:
    lines = "\n".join(f"> {line}".rstrip() for line in text.rstrip().split("\n")[:40])
    return f"\n\nOn {format_datetime(at)}, Player <player@example.org> wrote:\n{lines}\n"


def _marti(log: str, territory: str, attacker: str) -> list[tuple[str, str]]:
    """MARTI's (subject, body) for each side line of a round's log (dice in the subject's unit order)."""
    out = []
    number = re.search(r"^R(\d+)", log, re.M)
    for line in log.splitlines():
        match = _SIDE.match(line.strip())
        if not match:
            continue
        units = [(int(count), kind) for count, kind in re.findall(r"(\d+)\s+([A-Z]+)", match.group("units"))]
        dice = [d for d in match.group("dice") if d.isdigit()]
        power = attacker if match.group("side") == "A" else next(p for p in _TRIPLEA if p != attacker)
        listed = [f"{count} {_UNITS[kind]}" for count, kind in units]
        names = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
        subject = (f"Game4242:{_TRIPLEA[power]} roll dice for {names} in {territory}, "
                   f"round {number.group(1) if number else 1}")
        out.append((subject, f"Your dice are: {','.join(dice)} \nHave a nice day. \n"))
    return out


def mailbox(messages: int = MESSAGES) -> bytes:
    """An mbox of about ``messages`` messages (see the module docstring)."""
    events: list[dict[str, Any]] = []
    size = messages
    while len(events) < messages * 3 // 4:
        events = tomllib.loads(generate_replay(size, 7))["event"]
        size += messages
    out: list[bytes] = []
    number = 0
    previous = ""
    turn = attacker = ""
    battles: dict[str, str] = {}

    def add(sender: str, subject: str, at: datetime, body: str) -> None:
        nonlocal number, previous
        number += 1
        data = _mail(sender, subject, at, number, body)
        out.append(b"From bench@example.org Sat Jul 20 18:00:00 1999\n" + data.rstrip(b"\n") + b"\n\n")
        if number % 10 == 0:
            out.append(out[-1])  # delivered twice
        if number % 12 == 0:
            number += 1
            chat = _mail(sender, f"Re: {subject}", at + timedelta(seconds=1), number,
                         "Thanks, got it." + _quote(body, at))
            out.append(b"From bench@example.org Sat Jul 20 18:00:00 1999\n" + chat.rstrip(b"\n") + b"\n\n")
        previous = body

    for index, event in enumerate(events):
        if len(out) >= messages:
            break
        at: datetime = event["at"]
        kind = event["type"]
        if kind == "position":
            add("Minister <minister@iaapa.example.org>", "Game 4242 - board", at,
                "Game 4242\nRules: IAAPA 2008\n\nPosition:\n" + "\n".join(event["units"]) + "\n")
        elif kind == "declaration":
            turn, attacker = event["turn"], event["turn"].rsplit(" ", 1)[0]
            battles = {m: m for m in re.findall(r"^Attack #\d+ - (.+?) \(", event["text"], re.M)}
            add("Player <player@example.org>", f"Game 4242 - {turn}", at,
                f"{turn}\n\nCombat Moves:\n{event['text']}" + _quote(previous, at - timedelta(minutes=1)))
        elif kind == "roll" and index % 2 and event["battle"] in battles:
            for offset, (subject, body) in enumerate(_marti(event["log"], event["battle"], attacker)):
                add("MARTI <marti@triplea-game.org>", subject, at + timedelta(seconds=offset), body)
        elif kind == "roll":
            add("Player <player@example.org>", f"Re: Game 4242 - {turn}", at, "Rolls:\n\n" + event["log"])
        elif kind == "orders":
            add("Player <player@example.org>", f"Re: Game 4242 - {turn}", at,
                f"Orders for {event['battle']} ({event['side']}):\n{event['text']}")
        elif kind == "report":
            about = f" about {event['battle']}" if event.get("battle") else ""
            text = " ".join(event["text"].split()) or "please check"
            add("Player <player@example.org>", f"Re: Game 4242 - {turn}", at,
                f"Correction request by {event['by']}{about}: {text}\n")
    return b"".join(out)


def measure(path: Path, draft: Path) -> tuple[int, float]:
    """(peak RSS in KB, seconds from process start to exit) of ``minister mail``."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _PROBE, str(path), str(draft)], capture_output=True,
                          text=True, check=True, cwd=Path(__file__).resolve().parent.parent)
    wall = time.perf_counter() - start
    rss, _, code = done.stdout.split()
    if code != "0":
        raise RuntimeError(f"minister mail {path} exited {code}: {done.stderr}")
    return int(rss), wall


def run(messages: int = MESSAGES) -> list[str]:
    """The time and memory of one draft, with the target and ok/short."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.mbox"
        path.write_bytes(mailbox(messages))
        count = path.read_bytes().count(b"\nFrom bench@example.org ") + 1
        kilobytes = path.stat().st_size // 1024
        rss, wall = measure(path, Path(folder) / "draft.toml")
        draft = (Path(folder) / "draft.toml").read_text(encoding="utf-8")
        records = draft.count("\n[[event]]\n")
    verdict = "ok" if wall <= TARGET_SECONDS else "short"
    return [f"{count} messages ({kilobytes} KB): {records} records",
            f"draft from process start: {wall:.2f} s, peak RSS {rss / 1024:.1f} MB "
            f"(target <= {TARGET_SECONDS:.0f} s: {verdict})"]


if __name__ == "__main__":
    for line in run(int(sys.argv[1]) if len(sys.argv) > 1 else MESSAGES):
        print(line)
