"""``minister mail`` as a use case: the draft always reads, nothing is dropped silently, every
finding names its e-mail, and an import stores the whole game or nothing (on every store)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from application.adapters.app import MinisterApplication, UnknownGameError
from application.adapters.mapper import encode_event
from application.adapters.stores import open_store
from application.intake.replayfile import load_replay, parse_replay
from application.usecases.mail import draft_mail, import_draft, summary
from domain.errors import MinisterError
from domain.review.game_review import review
from projections.report import report_dict
from tests.conftest import REPLAYS
from tests.integration.store_helpers import MemorySpec, PostgresSpec, SQLiteSpec
from tests.support.mail_messages import mbox, message

MAIL = REPLAYS / "mail"
SETUP = """Game 77
Rules: IAAPA 2008
Axis: Hans <hans@x.de>
Allies: Boris <boris@x.net>

Position:
USSR Karelia: 3 INF, 2 ARM, AA, IC
Germany E Europe: 2 INF
"""
TURN = "Combat Moves:\nAttack #1 - E Europe (2 INF)\nKar 2 INF, 2 ARM\n"
LOG = ("E Europe(2 INF)\n2 INF, 2 ARM from Karelia\nR1\nA(2 INF, 2 ARM) 1*5/2*6 = 2 hits\n"
       "D(2 INF) 34 = 0 hits\n")


def _quote(text: str, who: str, date: str) -> str:
    quoted = "\n".join(f"> {line}".rstrip() for line in text.rstrip().split("\n"))
    return f"On {date}, {who} wrote:\n{quoted}"


def _game(tmp_path: Path, *extra: str) -> Path:
    """A small game: setup, USSR 1's declaration, the log quoted in two replies, and ``extra`` bodies."""
    log_mail = "Rolls:\n\n" + LOG
    reply = "Thanks.\n\n" + _quote(log_mail, "Boris <boris@x.net>", "Sat, 1 Jun 2019 11:00:00 +0200")
    reply2 = "Agreed.\n\n" + _quote(reply, "Hans <hans@x.de>", "Sat, 1 Jun 2019 11:30:00 +0200")
    mails = [message(SETUP, subject="Game 77 - setup", message_id="<1@x>",
                     date="Sat, 01 Jun 2019 10:00:00 +0200"),
             message(TURN, subject="Game 77 - USSR 1", message_id="<2@x>",
                     date="Sat, 01 Jun 2019 10:30:00 +0200"),
             message(log_mail, subject="Re: Game 77 - USSR 1", message_id="<3@x>",
                     date="Sat, 01 Jun 2019 11:00:00 +0200"),
             message(reply, subject="Re: Game 77 - USSR 1", message_id="<4@x>", sender="Hans <hans@x.de>",
                     date="Sat, 01 Jun 2019 11:30:00 +0200"),
             message(reply2, subject="Re: Game 77 - USSR 1", message_id="<5@x>",
                     date="Sat, 01 Jun 2019 12:00:00 +0200")]
    mails += [message(body, subject="Re: Game 77 - USSR 1", message_id=f"<x{n}@x>",
                      date=f"Sat, 01 Jun 2019 13:{n:02d}:00 +0200") for n, body in enumerate(extra)]
    return mbox(tmp_path / "game.mbox", *mails)


def test_a_log_quoted_in_replies_is_read_once_from_the_mail_that_holds_it(tmp_path: Path) -> None:
    draft = draft_mail(_game(tmp_path))
    rolls = [r for r in draft.read.records if r.kind == "roll"]
    assert len(rolls) == 1 and rolls[0].source.origin.message_id == "<3@x>"
    statuses = {m.origin.message_id: (m.status, m.note) for m in draft.read.messages}
    assert statuses["<4@x>"] == statuses["<5@x>"] == ("not recognised",
                                                      "only what other e-mails also hold (quotes, copies)")
    assert draft.replay.game_id == "game-77" and draft.header.edition == "iaapa-2008"


def test_the_draft_names_each_records_email_and_lists_what_it_did_not_read(tmp_path: Path) -> None:
    draft = draft_mail(_game(tmp_path, "See you next week!"))
    text = draft.text
    assert '# e-mail: "Re: Game 77 - USSR 1", from Boris <boris@example.net>' in text
    assert "<3@x> [message 3 (line" in text
    listing = text[text.index("# -- the e-mails"):]
    assert "not recognised (3)" in listing and "<x0@x>" in listing
    assert parse_replay(text).game_id == "game-77"


def test_a_record_the_replay_reader_refuses_is_left_for_the_minister_and_the_draft_still_reads(
        tmp_path: Path) -> None:
    # A log of a battle nobody declared: the reader refuses it, the draft keeps it as a comment.
    path = _game(tmp_path, "Ukraine(1 INF)\nR1\nA(2 INF) 1*4 = 1 hit\n")
    draft = draft_mail(path)
    assert draft.refused == 1 and len(draft.needs_minister) == 1
    problem = draft.needs_minister[0]
    assert "the replay reader refused this roll" in problem.message
    assert problem.source.origin.message_id == "<x0@x>"
    assert "# NEEDS THE MINISTER: the replay reader refused this roll" in draft.text
    assert "# battle = \"Ukraine\"" in draft.text
    assert [r.kind for r in draft.read.records].count("roll") == 1
    assert any("needs the Minister: 1" in line for line in summary(draft))


def test_dice_that_match_no_battle_are_marked_at_their_line(tmp_path: Path) -> None:
    draft = draft_mail(_game(tmp_path, "My dice, no idea for what: dice: 6 6 6 6 6 6 6 6 6"))
    [problem] = draft.needs_minister
    assert "not matched to a battle" in problem.message
    at = draft.text.index("# NEEDS THE MINISTER: dice line roll 666666666 not matched")
    assert draft.text.index("[[event]]\ntype = \"roll\"") < at < draft.text.index("# -- the e-mails")
    assert '# battle = "?"' in draft.text[at:]


def test_every_finding_names_the_emails_of_its_records() -> None:
    draft = draft_mail(MAIL / "game-2231.mbox")
    [finding] = draft.findings
    assert finding.finding.startswith("F1 too_few_units [corrected] turn Germany 1 battle Karelia S.S.R.")
    assert any('"Game2231:Germans roll dice for 3 infantry in Karelia S.S.R., round 1"' in email
               and "forwarded" in email for email in finding.emails)


def test_a_mailbox_with_nothing_readable_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(MinisterError, match=r"no message could be read \(notes.txt: not an .eml file\)"):
        draft_mail(tmp_path)
    with pytest.raises(MinisterError, match="--dice-key"):
        draft_mail(MAIL / "game-5907", dice_key=tmp_path / "notes.txt")
    with pytest.raises(MinisterError, match="--edition 'iaapa-1066'"):
        draft_mail(MAIL / "game-5907", edition="iaapa-1066")


def test_the_shipped_drafts_are_the_shipped_replays_events() -> None:
    for mailbox, shipped in (("game-2231.mbox", "game-2231.toml"), ("game-5907", "game-5907.toml")):
        draft = draft_mail(MAIL / mailbox)
        replay = load_replay(MAIL / shipped)
        assert [encode_event(e) for e in draft.replay.events] == [encode_event(e) for e in replay.events]


class MailImportContract:
    """``--import`` on one store (subclasses give the store's ``spec``)."""

    @pytest.fixture
    def app(self, spec: str) -> Iterator[MinisterApplication]:
        app = open_store(spec)
        yield app
        app.close()

    def test_an_imported_mailbox_reviews_as_its_shipped_replay(self, app: MinisterApplication) -> None:
        draft = draft_mail(MAIL / "game-5907")
        import_draft(app, draft)
        stored = report_dict(review(app.game("game-5907")))
        shipped = report_dict(review(load_replay(MAIL / "game-5907.toml").game))
        assert stored["findings"] == shipped["findings"] and stored["battles"] == shipped["battles"]

    def test_nothing_is_imported_while_something_needs_the_minister(self, app: MinisterApplication,
                                                                   tmp_path: Path) -> None:
        draft = draft_mail(_game(tmp_path, "dice: 6 6 6 6 6 6 6 6 6"))
        with pytest.raises(MinisterError, match="need the Minister"):
            import_draft(app, draft)
        with pytest.raises(UnknownGameError):
            app.game("game-77")


class TestMemoryMailImport(MemorySpec, MailImportContract):
    """On the memory store."""


class TestSQLiteMailImport(SQLiteSpec, MailImportContract):
    """On SQLite."""


class TestPostgresMailImport(PostgresSpec, MailImportContract):
    """On PostgreSQL."""
