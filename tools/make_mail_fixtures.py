"""Write the shipped mailboxes of replays/mail/ (``python tools/make_mail_fixtures.py``).

Two games as a Minister of Law receives them, written from the rule texts and the real formats
of the mails (docs/mail.md): the players' turn e-mails in IAAPA notation with replies quoting
earlier turns, TripleA's MARTI dice mails and the newer TripleA dice server's mails (some direct,
some forwarded inline, some attached), a Windows-1252 body, an HTML-only turn, a dispute, a
ruling, chatter, duplicates.

- ``game-2231.mbox``: an IAAPA 2008 game over MARTI, the two turns of
  replays/games/two-turns-board-moves-on-2008.toml with a forgotten armour (Germany 1, Karelia)
  corrected by the Minister's ``dice:`` line;
- ``game-5907/``: an IAAPA 1999 game over the newer dice server, the Part 14 worked example of
  replays/part14/east-europe-forgotten-armour.toml with a second battle (Ukraine).

The dice server's signatures are made with a test key derived from a fixed seed (so this script
writes the same bytes every time); its public key is shipped as
``replays/mail/dice-server-test-key.pem``. The output is deterministic: run it again and git
shows no change.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "replays" / "mail"

HANS = "Hans Keller <hans.keller@example.de>"
BORIS = "Boris Volkov <boris.volkov@example.net>"
KARL = "Karl Brandt <karl.brandt@example.de>"
IVAN = "Ivan Sokolov <ivan.sokolov@example.ru>"
MINISTER = "Minister of Law <minister@iaapa.example.org>"
MARTI = "MARTI <marti@triplea-game.org>"
DICE = "TripleA Dice Server <dice@triplea-game.org>"

# -- a deterministic RSA test key (RSA-SHA512, PKCS #1 v1.5, as the dice server signs) ----------


def _prime(rng: random.Random, bits: int) -> int:
    while True:
        candidate = rng.getrandbits(bits) | (3 << (bits - 2)) | 1  # n gets exactly 2 * bits bits
        small = (3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
        if all(candidate % p for p in small) and _probable(candidate, rng):
            return candidate


def _probable(n: int, rng: random.Random) -> bool:
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for _ in range(24):
        x = pow(rng.randrange(2, n - 2), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def test_key() -> tuple[int, int, int]:
    """(n, e, d) of the 4096-bit test key, the same on every run."""
    rng = random.Random("minister mail fixtures: dice server test key")
    e = 65537
    while True:
        p, q = _prime(rng, 2048), _prime(rng, 2048)
        phi = (p - 1) * (q - 1)
        if p != q and phi % e:
            return p * q, e, pow(e, -1, phi)


_SHA512_PREFIX = bytes.fromhex("3051300d060960864801650304020305000440")


def sign(payload: bytes, key: tuple[int, int, int]) -> str:
    n, _, d = key
    size = (n.bit_length() + 7) // 8
    digest = _SHA512_PREFIX + hashlib.sha512(payload).digest()
    block = b"\x00\x01" + b"\xff" * (size - len(digest) - 3) + b"\x00" + digest
    return base64.b64encode(pow(int.from_bytes(block, "big"), d, n).to_bytes(size, "big")).decode()


def _der_length(n: int) -> bytes:
    if n < 128:
        return bytes([n])
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw


def _der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + _der_length(len(body)) + body


def _der_int(n: int) -> bytes:
    raw = n.to_bytes((n.bit_length() + 8) // 8, "big")
    return _der(0x02, raw)


def public_pem(key: tuple[int, int, int]) -> str:
    n, e, _ = key
    rsa = _der(0x30, _der_int(n) + _der_int(e))
    algorithm = _der(0x30, _der(0x06, bytes.fromhex("2a864886f70d010101")) + b"\x05\x00")
    info = _der(0x30, algorithm + _der(0x03, b"\x00" + rsa))
    text = base64.b64encode(info).decode()
    return "-----BEGIN PUBLIC KEY-----\n" + "\n".join(text[i:i + 64] for i in range(0, len(text), 64)) + \
        "\n-----END PUBLIC KEY-----\n"


# -- message builders ------------------------------------------------------------------------------


def mail(sender: str, to: str, date: str, subject: str, message_id: str, body: str, *, cc: str = "",
         reply_to: str = "", charset: str = "utf-8", html: bool = False) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    if cc:
        message["Cc"] = cc
    message["Date"] = date
    message["Subject"] = subject
    message["Message-ID"] = message_id
    if reply_to:
        message["In-Reply-To"] = reply_to
        message["References"] = reply_to
    if html:
        message.set_content(body, subtype="html", charset=charset, cte="quoted-printable")
    else:
        message.set_content(body, charset=charset, cte="quoted-printable" if charset != "utf-8" else None)
    return message


def quoted(text: str, who: str, date: str) -> str:
    """A reply's quote of ``text``, with its attribution line."""
    lines = [f"> {line}".rstrip() for line in text.rstrip("\n").split("\n")]
    return f"On {date}, {who} wrote:\n" + "\n".join(lines) + "\n"


def marti(date: str, subject: str, dice: str, message_id: str, iv: str, enc: str, to: str,
          cc: str) -> EmailMessage:
    link = (f"https://dice.tripleawarclub.org/MARTI_verify.php?iv={quote(iv, safe='')}"
            f"&enc={quote(enc, safe='')}")
    body = (f"Your dice are: {dice} \nHave a nice day. \n\n----------------------------------\n"
            "This is an automatically created email of the TripleA Ladder. Please don't reply to it. \n\n"
            "Verification Info: Follow this link to check if your dice are authentic \n"
            f"{link} \n\n************* \n{iv} \n............. \n{enc} \n************* \n\n\n"
            "----------------------------------\nThis Email is not SPAM.\n"
            "You receive this email because of your registration at dice.tripleawarclub.org\n"
            "To unsubscribe from this service go to dice.tripleawarclub.org/unsubscribe.php\n")
    return mail(MARTI, to, date, subject, message_id, body, cc=cc)


def _b64(seed: str, size: int) -> str:
    return base64.b64encode(hashlib.sha512(seed.encode()).digest()[:size]).decode()


def dice_server(date_ms: int, shown: str, dice: list[int], key: tuple[int, int, int], message_id: str,
                email1: str, email2: str) -> tuple[EmailMessage, str]:
    """A mail of the newer dice server (HTML, as it sends them) and its text as a client shows it."""
    payload = {"v": 2, "dice": dice, "max": 6, "times": len(dice), "email1": email1, "email2": email2,
               "date": date_ms}
    signature = sign(json.dumps(payload, separators=(",", ":")).encode(), key)
    token = base64.b64encode(json.dumps({**payload, "signature": signature},
                                        separators=(",", ":")).encode()).decode()
    url = f"https://dice.marti.triplea-game.org/verify?token={quote(token, safe='')}"
    results = json.dumps(dice, separators=(",", ":"))
    html = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>The dice have been cast!</title>"
            f"<style>a.big {{ font-size: 2em; }}</style></head><body>\n<h1>The dice have been cast!</h1>\n"
            f"<p>Roll-Time: {shown}</p>\n<p>Results: {results}</p>\n<br>\n"
            f"<p>You can click below to verify your results:</p>\n"
            f"<a class=\"big\" href=\"{url}\">Verify!</a>\n<br>\n"
            "<p>Note we might not be able to correctly verify integrity for very old (1+ years) "
            "dice rolls.</p>\n"
            "<p><a href=\"https://dice.marti.triplea-game.org/unregister\">Unsubscribe</a></p>\n</body></html>\n")
    stamp = _rfc_date(date_ms)
    message = mail(DICE, f"{email1}, {email2}", stamp, "The dice have been cast!", message_id, html,
                   html=True)
    text = (f"The dice have been cast!\n\nRoll-Time: {shown}\n\nResults: {results}\n\n"
            f"You can click below to verify your results:\n\nVerify! <{url}>\n")
    return message, text


def _rfc_date(ms: int) -> str:
    from datetime import UTC, datetime
    from email.utils import format_datetime

    return format_datetime(datetime.fromtimestamp(ms // 1000, UTC).replace(tzinfo=UTC), usegmt=False)


def _bytes(message: EmailMessage) -> bytes:
    # Fixed MIME boundaries (the email package draws random ones): the same bytes every run.
    tag = hashlib.sha1(str(message["Message-ID"]).encode()).hexdigest()[:12]
    for number, part in enumerate(message.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_minister_fixture_{number}_{tag}")
    return message.as_bytes(policy=SMTP.clone(linesep="\n"))


def write_mbox(path: Path, messages: list[tuple[str, str, EmailMessage]]) -> None:
    """An mboxrd file: each message under its postmark, '>From ' lines escaped."""
    out = []
    for envelope, when, message in messages:
        data = _bytes(message)
        lines = [(b">" + line if line.lstrip(b">").startswith(b"From ") else line)
                 for line in data.split(b"\n")]
        out.append(f"From {envelope} {when}\n".encode() + b"\n".join(lines).rstrip(b"\n") + b"\n\n")
    path.write_bytes(b"".join(out))


# -- game 2231: IAAPA 2008 over MARTI --------------------------------------------------------------

SETUP_2231 = """Boris,

as agreed: game 2231 under the IAAPA rules, the first turns on the USSR's side of the board.

Game 2231
Rules: IAAPA 2008 (2nd Edition Unabridged)
Axis: Hans Keller <hans.keller@example.de>
Allies: Boris Volkov <boris.volkov@example.net>

Position:
USSR Karelia: 3 INF, 2 ARM, AA, IC
Germany E Europe: 2 INF

We roll on MARTI (dice.tripleawarclub.org) with the Minister in copy of every roll.

Hans
"""

USSR1 = """Hans,

here\u2019s my turn \u2013 USSR 1.

Purchase: 3 INF (24 IPCs)

Combat Moves:
Attack #1 - E Europe (2 INF)
Kar 2 INF, 2 ARM

Rolling on MARTI now.

Boris
"""

USSR1_DONE = """E Europe is ours: MARTI's rolls went to all of us (1,5,2,6 against 3,4).

Placement:
Russia 3 INF

Map update:
USSR Karelia: 1 INF, AA, IC
USSR E Europe: 2 INF, 2 ARM

Your turn, Hans.

Boris
"""

GERMANY1_HTML = """<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head>
<body style="font-family: Calibri, sans-serif">
<p>Boris,</p>
<p>Germany 1.</p>
<p>Purchase: 1 ARM (32 IPCs)</p>
<p>Combat Moves:<br>
Attack #1 - Karelia (1 INF)<br>
Fin 3 INF, 1 ARM<br>
Attack #2 - E Europe (2 INF, 2 ARM)<br>
Ger 4 INF, 2 ARM, 1 FTR (land Germany)</p>
<p>Rolling after your orders, if any.</p>
<p>Hans</p>
</body></html>
"""

GERMANY1_TEXT = """Boris,

Germany 1.

Purchase: 1 ARM (32 IPCs)

Combat Moves:
Attack #1 - Karelia (1 INF)
Fin 3 INF, 1 ARM
Attack #2 - E Europe (2 INF, 2 ARM)
Ger 4 INF, 2 ARM, 1 FTR (land Germany)

Rolling after your orders, if any.

Hans
"""

ORDERS = """Hans,

Orders for E Europe (defender):
OOL: INF, ARM

Boris
"""

ROLLS_NOTE = """Minister, Boris,

my rolls for Germany 1. MARTI missed the Minister on two of them, so here they are:
Karelia's attack below, Karelia's and E Europe's defence attached.

Hans

-------- Forwarded Message --------
Subject: Game2231:Germans roll dice for 3 infantry in Karelia S.S.R., round 1
Date: Sun, 2 Jun 2019 07:40:05 +0000
From: MARTI <marti@triplea-game.org>
To: hans.keller@example.de
CC: boris.volkov@example.net

"""

DISPUTE = """Minister,

Correction request by USSR about Karelia: Germany attacked Karelia with 3 INF and 1 ARM from
Finland Norway, but MARTI rolled only the 3 infantry (1,5,6). The armour was never rolled in round 1.

Boris
"""

RULING = """Hans, Boris,

The declaration sends 3 INF and 1 ARM from Finland Norway into Karelia, and round 1 rolled only the
3 infantry. Under the 2008 rules, Section III (Too few units), the missing die is rolled for the
armour and the rest of round 1 stands. I rolled it on the club's dice page:

Karelia correction dice: 4

The 4 misses: Germany holds Karelia with 3 INF and 1 ARM either way.

Minister of Law
"""

GERMANY1_DONE = """Boris,

Placement:
Germany 1 ARM

Map update:
Germany Karelia: 3 INF, 1 ARM, AA, IC
Germany E Europe: 2 INF, 2 ARM

Hans
"""


def game_2231(out: Path) -> None:
    date_setup = "Sat, 01 Jun 2019 10:00:00 +0200"
    setup = mail(HANS, BORIS, date_setup, "Game 2231 - setup", "<g2231-setup.7d1@example.de>", SETUP_2231,
                 cc=MINISTER)
    chat = mail(BORIS, HANS, "Sat, 01 Jun 2019 11:40:00 +0300", "Re: Game 2231 - setup",
                "<CAB2231chat@mail.example.net>",
                "Fine with me. Good luck!\n\nBoris\n\n"
                + quoted(SETUP_2231, HANS, "Sat, 1 Jun 2019 10:00:00 +0200"),
                reply_to="<g2231-setup.7d1@example.de>")
    date_ussr1 = "Sat, 01 Jun 2019 11:05:00 +0300"
    ussr1_body = USSR1 + "\n" + quoted(SETUP_2231, HANS, "Sat, 1 Jun 2019 10:00:00 +0200")
    ussr1 = mail(BORIS, HANS, date_ussr1, "Re: Game 2231 - USSR 1", "<CAB2231ussr1@mail.example.net>",
                 ussr1_body, cc=MINISTER, reply_to="<g2231-setup.7d1@example.de>", charset="windows-1252")
    marti_a = marti("Sat, 01 Jun 2019 08:10:12 +0000",
                    "Game2231:Russians roll dice for 2 infantry and 2 armour in East Europe, round 1",
                    "1,5,2,6",
                    "<20190601081012.1c7e@dice.tripleawarclub.org>", _b64("a-iv", 32), _b64("a-enc", 48),
                    BORIS, f"{HANS}, {MINISTER}")
    marti_d = marti("Sat, 01 Jun 2019 08:11:40 +0000",
                    "Game2231:Germans roll dice for 2 infantry in East Europe, round 1", "3,4",
                    "<20190601081140.2d81@dice.tripleawarclub.org>", _b64("d-iv", 32), _b64("d-enc", 48),
                    BORIS, f"{HANS}, {MINISTER}")
    done = mail(BORIS, HANS, "Sat, 01 Jun 2019 12:30:00 +0300", "Re: Game 2231 - USSR 1",
                "<CAB2231ussr1done@mail.example.net>",
                USSR1_DONE + "\n" + quoted(USSR1.replace("\u2019", "'").replace("\u2013", "-") + "\n" +
                                           quoted(SETUP_2231, HANS, "Sat, 1 Jun 2019 10:00:00 +0200"),
                                           BORIS, "Sat, 1 Jun 2019 11:05:00 +0300"),
                cc=MINISTER, reply_to="<CAB2231ussr1@mail.example.net>")
    germany1 = mail(HANS, BORIS, "Sun, 02 Jun 2019 09:05:00 +0200", "Game 2231 - Germany 1",
                    "<g2231-ger1.99a@example.de>", GERMANY1_HTML, cc=MINISTER, html=True)
    orders = mail(BORIS, HANS, "Sun, 02 Jun 2019 10:30:00 +0300", "Re: Game 2231 - Germany 1",
                  "<CAB2231orders@mail.example.net>",
                  ORDERS + "\n" + quoted(GERMANY1_TEXT, HANS, "Sun, 2 Jun 2019 09:05:00 +0200"),
                  cc=MINISTER, reply_to="<g2231-ger1.99a@example.de>")
    kar_a = marti("Sun, 02 Jun 2019 07:40:05 +0000",
                  "Game2231:Germans roll dice for 3 infantry in Karelia S.S.R., round 1", "1,5,6",
                  "<20190602074005.8a02@dice.tripleawarclub.org>", _b64("ka-iv", 32), _b64("ka-enc", 48),
                  HANS, BORIS)
    kar_d = marti("Sun, 02 Jun 2019 07:41:10 +0000",
                  "Game2231:Russians roll dice for 1 infantry in Karelia S.S.R., round 1", "5",
                  "<20190602074110.8b13@dice.tripleawarclub.org>", _b64("kd-iv", 32), _b64("kd-enc", 48),
                  HANS, BORIS)
    ee_a = marti("Sun, 02 Jun 2019 07:45:33 +0000",
                 "Game2231:Germans roll dice for 4 infantry, 2 armour and 1 fighter in East Europe, round 1",
                 "1,1,5,6,2,3,5", "<20190602074533.8c24@dice.tripleawarclub.org>", _b64("ea-iv", 32),
                 _b64("ea-enc", 48), HANS, f"{BORIS}, {MINISTER}")
    ee_d = marti("Sun, 02 Jun 2019 07:46:02 +0000",
                 "Game2231:Russians roll dice for 2 infantry and 2 armour in East Europe, round 1", "1,2,3,4",
                 "<20190602074602.8d35@dice.tripleawarclub.org>", _b64("ed-iv", 32), _b64("ed-enc", 48),
                 HANS, BORIS)
    forwarded = kar_a.get_content()
    rolls = mail(HANS, f"{MINISTER}, {BORIS}", "Sun, 02 Jun 2019 09:50:00 +0200",
                 "Fwd: Game 2231 - Germany 1 rolls",
                 "<g2231-ger1-rolls.4b2@example.de>", ROLLS_NOTE + forwarded)
    rolls.add_attachment(kar_d)
    rolls.add_attachment(_bytes(ee_d), maintype="application", subtype="octet-stream",
                         filename="marti-east-europe-defence.eml")
    dispute = mail(BORIS, f"{MINISTER}, {HANS}", "Sun, 02 Jun 2019 12:00:00 +0300",
                   "Re: Fwd: Game 2231 - Germany 1 rolls", "<CAB2231dispute@mail.example.net>",
                   DISPUTE + "\n" + quoted(ROLLS_NOTE.split("\n-------- Forwarded", maxsplit=1)[0], HANS,
                                           "Sun, 2 Jun 2019 09:50:00 +0200"),
                   reply_to="<g2231-ger1-rolls.4b2@example.de>")
    ruling = mail(MINISTER, f"{HANS}, {BORIS}", "Sun, 02 Jun 2019 18:00:00 +0200",
                  "Game 2231 - Germany 1: ruling on Karelia", "<ml-2231-1@iaapa.example.org>", RULING)
    thanks = mail(BORIS, f"{MINISTER}, {HANS}", "Sun, 02 Jun 2019 19:10:00 +0300",
                  "Re: Game 2231 - Germany 1: ruling on Karelia", "<CAB2231thanks@mail.example.net>",
                  "Accepted, thank you.\n\nBoris\n\n"
                  + quoted(RULING, MINISTER, "Sun, 2 Jun 2019 18:00:00 +0200"),
                  reply_to="<ml-2231-1@iaapa.example.org>")
    finished = mail(HANS, BORIS, "Sun, 02 Jun 2019 20:00:00 +0200", "Re: Game 2231 - Germany 1",
                    "<g2231-ger1-done.5c3@example.de>", GERMANY1_DONE, cc=MINISTER,
                    reply_to="<CAB2231orders@mail.example.net>")
    write_mbox(out / "game-2231.mbox", [
        ("hans.keller@example.de", "Sat Jun  1 08:00:02 2019", setup),
        ("boris.volkov@example.net", "Sat Jun  1 08:05:03 2019", ussr1),
        ("marti@triplea-game.org", "Sat Jun  1 08:10:14 2019", marti_a),
        # The same MARTI mail again: delivered to the Minister by the CC and by Boris's list.
        ("marti@triplea-game.org", "Sat Jun  1 08:10:15 2019", marti_a),
        ("marti@triplea-game.org", "Sat Jun  1 08:11:42 2019", marti_d),
        ("boris.volkov@example.net", "Sat Jun  1 08:40:02 2019", chat),
        ("boris.volkov@example.net", "Sat Jun  1 09:30:04 2019", done),
        ("hans.keller@example.de", "Sun Jun  2 07:05:03 2019", germany1),
        ("hans.keller@example.de", "Sun Jun  2 07:05:09 2019", germany1),
        ("boris.volkov@example.net", "Sun Jun  2 07:30:05 2019", orders),
        ("marti@triplea-game.org", "Sun Jun  2 07:45:35 2019", ee_a),
        ("hans.keller@example.de", "Sun Jun  2 07:50:04 2019", rolls),
        ("boris.volkov@example.net", "Sun Jun  2 09:00:06 2019", dispute),
        ("minister@iaapa.example.org", "Sun Jun  2 16:00:01 2019", ruling),
        ("boris.volkov@example.net", "Sun Jun  2 16:10:03 2019", thanks),
        ("hans.keller@example.de", "Sun Jun  2 18:00:02 2019", finished),
    ])


# -- game 5907: IAAPA 1999 over the newer dice server ---------------------------------------------

SETUP_5907 = """Karl, Ivan,

I take up game 5907 for the Ministry from the start of USSR 3, as you both confirmed the board.

Game 5907
Rules: IAAPA 1999 (Parts 13 and 14)
Axis: Karl Brandt <karl.brandt@example.de>
Allies: Ivan Sokolov <ivan.sokolov@example.ru>

Position:
USSR Karelia: 9 INF, 1 ARM, 2 FTR
USSR Caucasus: 2 ARM, 2 INF
Germany E Europe: AA, 2 INF, 2 FTR, 3 ARM
Germany Ukraine: 1 INF

Minister of Law
"""

USSR3 = """Karl,

Game 5907 - USSR 3

Combat Moves:
Attack #1 - E Europe (AA, 2 INF, 2 FTR, 3 ARM)
9 INF,1 ARM,2 FTRs from Karelia land Russia
2 ARM from Caucasus
Attack #2 - Ukraine (1 INF)
2 INF from Caucasus

Ivan
"""

USSR3_LOG = """Karl,

the rest of my rolls. E Europe, as the club's battle calculator printed it:

E Europe(AA, 2 INF, 2 FTR, 3 ARM)
9 INF,1 ARM,2 FTRs from Karelia land Russia
2 ARM from Caucasus
AA rolls 1*1* = 2 hits!!!
R1
A(9 INF,1 ARM) 52461*5654/3* = 2 hits
D(2 INF,3 ARM,2 FTRs) 63431*/2*1* = 3 hits
R2
A(6 INF,1 ARM) 52551*3/6 = 1 hit
D(3 ARM,2 FTRs) 436/61* = 1 hit

Ukraine is taken: the dice server's mails went to you.

Ivan
"""

DISPUTE_5907 = """Minister,

Correction request by Germany about E Europe: The 2 ARM from Caucasus were never rolled in round 1.

Karl
"""

RULING_5907 = """Karl, Ivan,

Karl is right: the declaration sends 2 ARM from Caucasus into E Europe and round 1 rolled only
9 INF and 1 ARM. Part 14, GM Errors: the AA rolls and the ones column stand; 2 dice are rolled
for the missing armour in round 1, and round 2 is fought again.

The correction dice for E Europe, from the dice server, are attached.

Minister of Law
"""


def game_5907(out: Path, key: tuple[int, int, int]) -> None:
    folder = out / "game-5907"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    karl, ivan = "karl.brandt@example.de", "ivan.sokolov@example.ru"
    setup = mail(MINISTER, f"{KARL}, {IVAN}", "Mon, 04 Mar 2024 19:00:00 +0100",
                 "Game 5907 - USSR 3 from here",
                 "<ml-5907-0@iaapa.example.org>", SETUP_5907)
    ussr3 = mail(IVAN, KARL, "Mon, 04 Mar 2024 21:05:00 +0300", "Game 5907 - USSR 3",
                 "<5907-ussr3-1@mail.example.ru>", USSR3, cc=MINISTER)
    ukr_a, _ = dice_server(1709575950412, "3/4/2024, 6:12:30 PM", [1, 4], key,
                           "<d9f1a2c4-7b1e-4c55-9f0e-1a2b3c4d5e01@triplea-game.org>", ivan, karl)
    _, ukr_d_text = dice_server(1709575985118, "3/4/2024, 6:13:05 PM", [5], key,
                                    "<d9f1a2c4-7b1e-4c55-9f0e-1a2b3c4d5e02@triplea-game.org>", ivan, karl)
    forward = mail(IVAN, f"{KARL}, {MINISTER}", "Mon, 04 Mar 2024 21:20:00 +0300",
                   "Fwd: The dice have been cast!",
                   "<5907-fwd-ukr@mail.example.ru>",
                   "Ukraine defence, round 1 (Karl's infantry), rolled for both of us:\n\n"
                   "---------- Forwarded message ---------\n"
                   "From: TripleA Dice Server <dice@triplea-game.org>\n"
                   "Date: Mon, Mar 4, 2024 at 9:13 PM\n"
                   "Subject: The dice have been cast!\n"
                   f"To: <{ivan}>, <{karl}>\n\n" + ukr_d_text)
    log = mail(IVAN, KARL, "Mon, 04 Mar 2024 21:40:00 +0300", "Re: Game 5907 - USSR 3",
               "<5907-ussr3-2@mail.example.ru>",
               USSR3_LOG + "\n" + quoted(USSR3, IVAN, "Mon, 4 Mar 2024 21:05:00 +0300"), cc=MINISTER,
               reply_to="<5907-ussr3-1@mail.example.ru>")
    dispute = mail(KARL, f"{MINISTER}, {IVAN}", "Mon, 04 Mar 2024 22:00:00 +0100", "Re: Game 5907 - USSR 3",
                   "<5907-dispute@example.de>",
                   DISPUTE_5907 + "\n" + quoted(USSR3_LOG, IVAN, "Mon, 4 Mar 2024 21:40:00 +0300"),
                   reply_to="<5907-ussr3-2@mail.example.ru>")
    correction, _ = dice_server(1709625341903, "3/5/2024, 7:55:41 AM",
                                [2, 6, 1, 1, 1, 1, 5, 5, 5, 6, 5, 6], key,
                                "<d9f1a2c4-7b1e-4c55-9f0e-1a2b3c4d5e03@triplea-game.org>",
                                "minister@iaapa.example.org", karl)
    ruling = mail(MINISTER, f"{KARL}, {IVAN}", "Tue, 05 Mar 2024 09:00:00 +0100",
                  "Game 5907 - ruling on E Europe",
                  "<ml-5907-1@iaapa.example.org>", RULING_5907)
    ruling.add_attachment(correction)
    accepted = mail(KARL, f"{MINISTER}, {IVAN}", "Tue, 05 Mar 2024 10:30:00 +0100",
                    "Re: Game 5907 - ruling on E Europe", "<5907-accepted@example.de>",
                    "Understood. My turn follows tonight.\n\nKarl\n",
                    reply_to="<ml-5907-1@iaapa.example.org>")
    for name, message in [("01-setup.eml", setup), ("02-ussr3-declaration.eml", ussr3),
                          ("03-dice-ukraine-attack.eml", ukr_a), ("04-fwd-dice-ukraine-defence.eml", forward),
                          ("05-ussr3-rolls.eml", log), ("06-dispute.eml", dispute), ("07-ruling.eml", ruling),
                          ("08-accepted.eml", accepted),
                          # The dice server's mail again, saved by the Minister from Karl's copy.
                          ("09-dice-ukraine-attack-copy.eml", ukr_a)]:
        (folder / name).write_bytes(_bytes(message))
    (folder / "README.txt").write_text("Game 5907 as the Minister of Law's mail folder: "
                                       "one .eml file a message.\n")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    game_2231(OUT)
    KEY = test_key()
    (OUT / "dice-server-test-key.pem").write_text(public_pem(KEY))
    game_5907(OUT, KEY)
