"""Control characters in stored text are shown, never obeyed (issue 14, item 7).

A game stored before ids and titles were validated (written here straight through the store,
as an old store holds it) and report or ruling words arriving through ``minister report`` carry
ESC, BEL, CR, OSC and C1 sequences. Every output that reaches a terminal (the games table, the
text report, the letter, verify and error messages, the timeline) must show them visibly and
keep each on its row; ``[`` is never markup; JSON keeps the exact strings.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from application.adapters.integrity import chain_events
from application.adapters.stores import open_store
from application.intake.replayfile import parse_replay
from domain.record.events import GameEvent, GameStarted, ReportFiled
from domain.record.game import project_game
from domain.review.game_review import review
from tests.e2e.test_desk import GAME
from tests.integration.store_helpers import postgres_schema
from tui.app import MinisterApp
from tui.cli import main
from tui.loading import ViewsSource
from tui.widgets.findings import FindingsPanel
from tui.widgets.timeline_view import TimelineView

#: A window title through OSC, a bell, a screen clear, a carriage return and a line feed that
#: would forge a row, Rich markup, and an 8-bit CSI.
EVIL = "Evil \x1b]0;pwned\x07 \x1b[2J\rFAKE ROW\n[bold]x[/bold] \x9b31m"
RAW = ("\x1b", "\x07", "\r", "\x9b")
GAME_ID = "old\x1b[31mgame"


def evil_events() -> list[GameEvent]:
    """The desk's game as an old store holds it: id and title unvalidated, a report's words."""
    replay = parse_replay(GAME.replace('id = "desk-cde"', 'id = "placeholder"'))
    started = replay.events[0]
    assert isinstance(started, GameStarted)
    from domain.record.events import game_uuid
    uuid = game_uuid(GAME_ID)
    events = [msgspec.structs.replace(e, originator_id=uuid) for e in replay.events]
    events[0] = msgspec.structs.replace(events[0], game_id=GAME_ID, title=EVIL)
    last = events[-1]
    events.append(ReportFiled(originator_id=uuid, originator_version=len(events) + 1,
                              timestamp=last.timestamp, at=last.timestamp, by=EVIL, text=EVIL,
                              battle="W Europe"))
    return chain_events(events)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        spec = f"sqlite:{tmp_path / 'store.sqlite3'}"
        app = open_store(spec)
        app.record(evil_events())
        app.close()
        yield spec
    else:
        with postgres_schema() as spec:
            app = open_store(spec)
            app.record(evil_events())
            app.close()
            yield spec


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


def assert_shown(text: str, where: str, *, quoted: bool = True) -> None:
    assert not [c for c in RAW if c in text], (where, text)
    if quoted:
        assert "\u241b" in text, (where, text)  # ESC shown as its picture


def test_every_plain_output_shows_control_characters(store: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # Words with control characters also arrive through the desk (report text is free text).
    code, out = run(capsys, "report", GAME_ID, "--by", "Germany\x1b[2J", "--text", EVIL, "--store", store)
    assert code == 0
    assert_shown(out, "report", quoted=False)
    outputs = {
        "games": ("games",),
        "replay": ("replay", GAME_ID),
        "as rolled": ("replay", GAME_ID, "--as-rolled"),
        "letter": ("letter", GAME_ID),
        "letter markdown": ("letter", GAME_ID, "--format", "markdown"),
        "letter html": ("letter", GAME_ID, "--format", "html"),
        "verify integrity": ("verify", "--integrity", GAME_ID),
        "verify dice": ("verify", "--dice", GAME_ID),
        "error quoting input": ("replay", "no\x1b]0;x\x07such\x1b[2Jgame"),
    }
    for where, args in outputs.items():
        code, out = run(capsys, *args, "--store", store)
        # (an error quotes the input with repr: escaped, no picture needed)
        assert_shown(out, where, quoted=where != "error quoting input")
    games = run(capsys, "games", "--store", store)[1]
    assert "[bold]x[/bold]" in games and "FAKE ROW" in games
    # One row per game: the line feed in the title forged none.
    assert len([line for line in games.splitlines() if "FAKE ROW" in line]) == 1
    report = run(capsys, "replay", GAME_ID, "--store", store)[1]
    assert "\u240dFAKE ROW\u240a[bold]x[/bold]" in report
    assert not any(line.startswith("FAKE ROW") for line in report.splitlines())


def test_json_keeps_the_exact_strings(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "replay", GAME_ID, "--json", "--store", store)
    assert code == 0 and "\x1b" not in out
    data = json.loads(out)
    assert data["game"]["title"] == EVIL and data["papers"][0]["text"] == EVIL


def test_the_timeline_shows_control_characters_and_no_markup() -> None:
    game = project_game(None, evil_events())
    assert game is not None
    app = MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.title.startswith("minister · Evil \u241b]0;pwned\u2407")
            assert "[bold]x[/bold]" in app.title
            panel = app.query_one(FindingsPanel)
            papers = "\n".join(text.plain for _, text in panel.laid_out())
            assert_shown(papers, "papers panel")
            assert "[bold]x[/bold]" in papers
            view = app.query_one(TimelineView)
            rows = "".join(seg.text for y in range(view.size.height)
                           for seg in view.render_line(y))
            assert not [c for c in RAW if c in rows], rows
            screen = app.export_screenshot()
            assert not [c for c in RAW if c in screen]

    asyncio.run(scenario())
