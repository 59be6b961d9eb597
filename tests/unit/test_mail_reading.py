"""The mail reader's first steps: mailboxes on disk, decoding, HTML bodies, quotes and forwards."""

from __future__ import annotations

import os
from email.message import EmailMessage
from pathlib import Path

import pytest

from application.intake.mail import mailbox as mailbox_module
from application.intake.mail.decode import MAX_DEPTH, decode_message, parse_date
from application.intake.mail.html_text import html_to_text
from application.intake.mail.mailbox import MailboxError, Skipped, kind_of, read_mailbox
from application.intake.mail.unwrap import MAX_NESTING, unwrap
from tests.support.mail_messages import mbox, message, raw


def _read(path: Path) -> tuple[list[mailbox_module.RawMessage], list[Skipped]]:
    skipped: list[Skipped] = []
    return list(read_mailbox(path, skipped)), skipped


# -- mailboxes -------------------------------------------------------------------------------------

def test_an_mbox_is_split_at_its_postmarks_and_from_lines_unescaped(tmp_path: Path) -> None:
    body = "Combat Moves:\nFrom Karelia we go\n"
    path = mbox(tmp_path / "g.mbox", message(body, message_id="<a@x>"), message("second", message_id="<b@x>"))
    found, skipped = _read(path)
    second = path.read_bytes().split(b"\n").index(b"From sender@example.net Sat Jun  1 08:00:00 2019", 1) + 1
    assert [m.where for m in found] == ["message 1 (line 1)", f"message 2 (line {second})"]
    assert b"\nFrom Karelia we go" in found[0].data and b">From" not in found[0].data
    assert skipped == [] and not found[-1].unterminated


def test_a_body_line_starting_with_from_is_no_postmark_unless_it_looks_like_one(tmp_path: Path) -> None:
    data = (b"From a@x Sat Jun  1 08:00:00 2019\nSubject: one\n\nhello\n\nFrom Karelia 2 INF\nstill one\n\n"
            b"From b@x Sat Jun  1 09:00:00 2019\nSubject: two\n\nbye\n")
    (tmp_path / "g.mbox").write_bytes(data)
    found, _ = _read(tmp_path / "g.mbox")
    assert len(found) == 2 and b"From Karelia 2 INF\nstill one" in found[0].data


def test_a_file_that_is_no_mbox_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("just some notes\n")
    with pytest.raises(MailboxError, match=r"notes.txt: not an mbox file: line 1"):
        _read(tmp_path / "notes.txt")
    with pytest.raises(MailboxError, match="no such file or folder"):
        _read(tmp_path / "missing.mbox")


def test_a_truncated_mbox_is_read_up_to_its_cut_and_says_so(tmp_path: Path) -> None:
    path = mbox(tmp_path / "g.mbox", message("one", message_id="<a@x>"),
                message("two\nmore", message_id="<b@x>"))
    data = path.read_bytes()
    path.write_bytes(data[:-8])
    found, _ = _read(path)
    assert len(found) == 2 and found[-1].unterminated and not found[0].unterminated


def test_a_message_above_the_size_limit_is_cut_and_the_cut_counted(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mailbox_module, "MAX_MESSAGE_BYTES", 2000)
    big = message("turn text\n" + "x" * 70 + "\n")
    big.add_attachment(b"\0" * 6000, maintype="application", subtype="octet-stream", filename="save.tsvg")
    path = mbox(tmp_path / "g.mbox", big, message("small", message_id="<s@x>"))
    found, _ = _read(path)
    assert len(found) == 2 and found[0].cut > 0 and len(found[0].data) <= 2000 and found[1].cut == 0
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "big.eml").write_bytes(raw(big))
    found, _ = _read(tmp_path / "folder")
    assert found[0].cut > 0 and len(found[0].data) == 2000


def test_a_folder_reads_its_eml_files_in_name_order_and_lists_the_rest(tmp_path: Path) -> None:
    (tmp_path / "b.eml").write_bytes(raw(message("b")))
    (tmp_path / "a.EML").write_bytes(raw(message("a")))
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "empty.eml").write_bytes(b"")
    (tmp_path / "sub").mkdir()
    found, skipped = _read(tmp_path)
    assert kind_of(tmp_path) == "folder"
    assert [m.where for m in found] == ["a.EML", "b.eml"]
    assert {(s.where, s.reason) for s in skipped} == {("notes.txt", "not an .eml file"),
                                                      ("empty.eml", "empty file"),
                                                      ("sub", "a folder inside the mailbox: not read")}


def test_a_maildir_reads_cur_and_new_and_lists_unreadable_files(tmp_path: Path) -> None:
    for sub in ("cur", "new", "tmp"):
        (tmp_path / sub).mkdir()
    (tmp_path / "cur" / "1.host:2,S").write_bytes(raw(message("one")))
    (tmp_path / "new" / "2.host").write_bytes(raw(message("two")))
    (tmp_path / "tmp" / "3.host").write_bytes(raw(message("half written")))
    os.symlink(tmp_path / "gone", tmp_path / "new" / "4.host")  # a file that cannot be opened
    found, skipped = _read(tmp_path)
    assert kind_of(tmp_path) == "maildir"
    assert [m.where for m in found] == ["cur/1.host:2,S", "new/2.host"]
    assert [(s.where, s.reason.split(" (")[0]) for s in skipped] == [("new/4.host", "cannot read the file")]


def test_a_single_eml_file_is_a_mailbox_of_one(tmp_path: Path) -> None:
    (tmp_path / "one.eml").write_bytes(raw(message("one")))
    found, _ = _read(tmp_path / "one.eml")
    assert [m.where for m in found] == ["one.eml"]


# -- decoding --------------------------------------------------------------------------------------

def test_headers_are_decoded_and_the_date_keeps_its_zone() -> None:
    mail = message("hi", subject="Game 1 \u2013 R\u00e9sum\u00e9")
    decoded = decode_message(raw(mail))
    assert decoded.subject == "Game 1 \u2013 R\u00e9sum\u00e9"
    assert decoded.sender == "Boris <boris@example.net>"
    assert decoded.date is not None and decoded.date.utcoffset() is not None
    assert decoded.date.isoformat() == "2019-06-01T10:00:00+02:00" and decoded.notes == []


def test_a_windows_1252_body_is_read_as_windows_1252() -> None:
    decoded = decode_message(raw(message("here\u2019s my turn \u2013 USSR 1\n", charset="windows-1252")))
    assert decoded.body == "here\u2019s my turn \u2013 USSR 1\n" and decoded.notes == []


def test_an_unknown_charset_is_read_as_utf8_or_windows_1252_and_noted() -> None:
    data = b"Subject: s\nDate: " + b"Sat, 01 Jun 2019 10:00:00 +0200" + \
        b"\nContent-Type: text/plain; charset=x-klingon\n\nhere\x92s\n"
    decoded = decode_message(data)
    assert decoded.body == "here\u2019s\n"
    assert decoded.notes == ["unknown charset 'x-klingon': read as Windows-1252"]
    decoded = decode_message(data.replace(b"\x92", "\u2019".encode()))
    assert decoded.body == "here\u2019s\n" and decoded.notes == ["unknown charset 'x-klingon': read as UTF-8"]


def test_an_html_only_body_is_turned_to_text() -> None:
    html = "<p>Germany 1.</p><p>Combat Moves:<br>Attack #1 - Karelia (1 INF)</p>"
    decoded = decode_message(raw(message(html, html=True)))
    assert decoded.body == "Germany 1.\n\nCombat Moves:\nAttack #1 - Karelia (1 INF)"


def test_attachments_messages_text_and_others() -> None:
    outer = message("see attached")
    outer.add_attachment(message("Your dice are: 1,5,6", subject="inner", message_id="<in@x>"))
    outer.add_attachment(raw(message("as bytes", subject="bytes", message_id="<by@x>")),
                         maintype="application", subtype="octet-stream", filename="dice.eml")
    outer.add_attachment("Placement:\nRussia 3 INF\n", filename="turn.txt")
    outer.add_attachment(b"PK\x03\x04", maintype="application", subtype="zip", filename="triplea_1Ger.tsvg")
    decoded = decode_message(raw(outer))
    assert decoded.body == "see attached\n"
    assert [(name, inner.subject) for name, inner in decoded.attached] == [("forwarded message", "inner"),
                                                                          ("dice.eml", "bytes")]
    assert decoded.texts == [("turn.txt", "Placement:\nRussia 3 INF\n")]
    assert decoded.ignored == ["triplea_1Ger.tsvg (application/zip)"]


def test_a_message_that_is_only_another_message_reads_that_one() -> None:
    inner = message("Your dice are: 5", subject="inner", message_id="<in@x>")
    data = (b"Subject: outer\nDate: Sat, 01 Jun 2019 10:00:00 +0200\nContent-Type: message/rfc822\n\n"
            + raw(inner))
    decoded = decode_message(data)
    assert [(name, m.subject, m.body) for name, m in decoded.attached] == [
        ("forwarded message", "inner", "Your dice are: 5\n")]


def test_a_truncated_multipart_is_read_as_far_as_it_goes_and_noted() -> None:
    data = (b"Subject: s\nDate: Sat, 01 Jun 2019 10:00:00 +0200\n"
            b"Content-Type: multipart/mixed; boundary=XX\n\n"
            b"--XX\nContent-Type: text/plain\n\nPurchase: 3 INF\n--XX\nContent-Type: application/pdf\n"
            b"Content-Transfer-Encoding: base64\n\nJVBERi0x")
    decoded = decode_message(data)
    assert decoded.body.startswith("Purchase: 3 INF")
    assert any("cut short" in note for note in decoded.notes)


def test_dates_without_a_zone_or_unreadable_are_noted() -> None:
    assert parse_date("Sat, 01 Jun 2019 10:00:00 -0000")[1] is not None
    assert parse_date("yesterday") == (None, "Date 'yesterday' cannot be read")
    assert parse_date("") == (None, "no Date header")


def test_a_mail_bomb_of_nested_attached_messages_is_cut_at_the_limit() -> None:
    inner = message("Your dice are: 6,6,6", subject="bottom")
    for level in range(MAX_DEPTH + 30):
        outer = message(f"level {level}", message_id=f"<l{level}@x>")
        outer.add_attachment(inner)
        inner = outer
    decoded = decode_message(raw(inner))
    depth, current = 0, decoded
    while current.attached:
        current, depth = current.attached[0][1], depth + 1
    assert depth == MAX_DEPTH and any("nested more than" in note for note in current.notes)


# -- HTML -------------------------------------------------------------------------------------------

def test_html_blocks_breaks_pre_quotes_links_and_hidden_parts() -> None:
    html = ("<html><head><title>t</title><style>p{}</style></head><body><h1>The dice have been cast!</h1>"
            "<p>Results: [1,4]</p><a href='https://dice.example/verify?token=abc'>Verify!</a>"
            "<pre>A(2 INF) 12\nD 3</pre><blockquote>old &amp; quoted</blockquote><script>x()</script>"
            "</body></html>")
    assert html_to_text(html) == ("The dice have been cast!\n\nResults: [1,4]\n\n"
                                  "Verify! <https://dice.example/verify?token=abc>\nA(2 INF) 12\nD 3\n\n"
                                  "> old & quoted")


# -- quotes and forwards -----------------------------------------------------------------------------

def _segments(body: str, **kw: str) -> list[tuple[str, str, str, str]]:
    decoded = decode_message(raw(message(body, **kw)))
    found, _ = unwrap(decoded, "message 1")
    return [(s.origin.carried, s.origin.sender, s.origin.date.isoformat() if s.origin.date else "",
             s.text.strip()) for s in found]


def test_a_quote_with_its_attribution_names_the_quoted_mail_and_keeps_its_lines() -> None:
    body = ("New text.\n\nOn Sat, 1 Jun 2019 09:00:00 +0200, Hans <hans@x.de> wrote:\n> Combat Moves:\n>\n"
            "> Attack #1 - Karelia (1 INF)\n")
    assert _segments(body) == [
        ("quoted", "Hans <hans@x.de>", "2019-06-01T09:00:00+02:00",
         "Combat Moves:\n\nAttack #1 - Karelia (1 INF)"),
        ("", "Boris <boris@example.net>", "2019-06-01T10:00:00+02:00", "New text."),
    ]
    decoded = decode_message(raw(message(body)))
    quoted = unwrap(decoded, "message 1")[0][0]
    assert [line.number for line in quoted.lines] == [4, 5, 6]


def test_a_log_quoted_three_times_comes_out_once_per_level_each_naming_its_mail() -> None:
    body = ("Reply 3.\n\nOn Sat, Jun 1, 2019 at 11:00 AM Boris <b@x.net>\nwrote:\n> Reply 2.\n>\n"
            "> On Sat, 1 Jun 2019 10:30:00 +0200, Hans <h@x.de> wrote:\n>> Reply 1.\n>>\n"
            ">> On Sat, 1 Jun 2019 10:00:00 +0200, Boris <b@x.net> wrote:\n>>> R1\n>>> A(2 INF) 15\n")
    found = _segments(body)
    assert [(carried, date) for carried, _, date, _ in found] == [
        ("quoted", "2019-06-01T10:00:00+02:00"), ("quoted", "2019-06-01T10:30:00+02:00"),
        # Gmail's attribution states no zone: read in the zone of the mail that quotes it.
        ("quoted", "2019-06-01T11:00:00+02:00"), ("", "2019-06-01T10:00:00+02:00")]
    assert found[0][3] == "R1\nA(2 INF) 15"


@pytest.mark.parametrize("marker, headers", [
    ("---------- Forwarded message ---------",
     "From: MARTI <marti@x.org>\nDate: Sun, Jun 2, 2019 at 8:10 AM\n"
     "Subject: Game1:Germans roll dice\nTo: <h@x>"),
    ("-------- Forwarded Message --------",
     "Subject: Game1:Germans roll dice\nDate: Sun, 2 Jun 2019 08:10:00 +0200\n"
     "From: MARTI <marti@x.org>\nTo: h@x"),
    ("Begin forwarded message:", "From: MARTI <marti@x.org>\nSubject: Game1:Germans roll dice\n"
                                 "Date: 2 June 2019 at 08:10:00 CEST\nTo: h@x"),
    ("-----Original Message-----", "From: MARTI <marti@x.org>\nSent: Sunday, June 2, 2019 8:10 AM\nTo: h@x\n"
                                   "Subject: Game1:Germans roll dice"),
])
def test_inline_forwards_and_outlook_replies_are_unwrapped(marker: str, headers: str) -> None:
    body = f"Dice below.\n\n{marker}\n{headers}\n\nYour dice are: 1,5,6\n"
    found = _segments(body)
    assert found[0][1] == "MARTI <marti@x.org>" and found[0][3] == "Your dice are: 1,5,6"
    assert found[0][0] in ("forwarded", "quoted") and found[1][3] == "Dice below."
    decoded = decode_message(raw(message(body)))
    inner = unwrap(decoded, "message 1")[0][0]
    assert inner.origin.subject == "Game1:Germans roll dice" and "Dice below." in inner.context
    if "CEST" not in headers:
        assert inner.origin.date is not None and inner.origin.date.hour == 8


def test_forwards_nested_deeper_than_the_limit_are_cut_and_noted() -> None:
    body = "top\n"
    for level in range(MAX_NESTING + 20):
        body = f"level {level}\n\n---------- Forwarded message ---------\nFrom: x{level}@x\n\n" + body
    decoded = decode_message(raw(message(body)))
    found, notes = unwrap(decoded, "message 1")
    assert len(found) == MAX_NESTING + 1
    assert any(f"more than {MAX_NESTING} deep" in note for note in notes)


def test_attached_messages_and_text_attachments_become_segments_with_the_carrying_words() -> None:
    outer = message("Ukraine defence attached.", subject="Game 1 rolls")
    outer.add_attachment(message("Your dice are: 5", subject="inner", message_id="<in@x>"))
    outer.add_attachment("Placement:\nRussia 3 INF\n", filename="turn.txt")
    found, _ = unwrap(decode_message(raw(outer)), "message 1")
    wheres = [s.origin.where for s in found]
    assert wheres == ["message 1", "message 1 > attachment 'turn.txt'",
                      "message 1 > attachment 'forwarded message'"]
    assert found[2].origin.subject == "inner" and "Ukraine defence attached." in found[2].context


def test_an_empty_message_gives_no_segment() -> None:
    mail = EmailMessage()
    mail["Subject"] = "nothing"
    assert unwrap(decode_message(raw(mail)), "m")[0] == []
