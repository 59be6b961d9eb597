"""The timeline app driven by keys (Textual's pilot), asserting where it is and what it shows."""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Static
from textual.worker import WorkerCancelled

from domain.errors import MinisterError
from projections.timeline import Timeline
from tests.unit.timeline_views import big_game, disputed_pair
from tui.app import MinisterApp
from tui.loading import FileSource, ViewsSource
from tui.screens.find import FindScreen
from tui.screens.help import HelpScreen
from tui.widgets.board import BattleBoard
from tui.widgets.findings import FindingsPanel
from tui.widgets.timeline_view import TimelineView

ROOT = Path(__file__).resolve().parents[2]
OVERKILL = ROOT / "replays" / "part13" / "overkill-6arm-v-2inf.toml"
SIZE = (120, 40)

Scenario = Callable[[MinisterApp, Pilot[None]], Awaitable[None]]


def drive(app: MinisterApp, scenario: Scenario) -> None:
    """Run the app headless, wait for the game to load, then play the scenario."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def disputed_app(**kwargs: object) -> MinisterApp:
    corrected, rolled = disputed_pair()
    return MinisterApp(ViewsSource(corrected, rolled), **kwargs)  # type: ignore[arg-type]


def expected_timeline() -> Timeline:
    corrected, rolled = disputed_pair()
    return Timeline(corrected, rolled)


def screen_text(app: MinisterApp) -> str:
    """What the screen shows, as plain text lines (from the SVG screenshot)."""
    svg = app.export_screenshot()
    lines: dict[int, list[str]] = {}
    for number, text in re.findall(r'clip-path="url\(#terminal-\d+-line-(\d+)\)">([^<]*)</text>', svg):
        lines.setdefault(int(number), []).append(html.unescape(text).replace("\xa0", " "))
    return "\n".join("".join(parts) for _, parts in sorted(lines.items()))


def crumb(app: MinisterApp) -> str:
    return str(app.query_one("#crumb", Static).render())


def test_opens_on_the_first_finding_with_both_histories_loaded() -> None:
    tl = expected_timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        assert app.ready
        assert app.position == tl.finding_node("F1")
        assert app.query_one(TimelineView).cursor == app.position
        assert "East Europe (land) › Round 1 › Att col 3" in crumb(app)
        assert app.title == "minister · A disputed game"

    drive(disputed_app(), scenario)


def test_step_keys_and_first_last() -> None:
    tl = expected_timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        start = app.position
        await pilot.press("right", "l", "j", "down")
        assert app.position == start + 4
        await pilot.press("left", "h", "k")
        assert app.position == start + 1
        await pilot.press("home")
        assert app.position == 0
        await pilot.press("left")
        assert app.position == 0
        await pilot.press("end")
        assert app.position == len(tl) - 1
        await pilot.press("g")
        assert app.position == 0
        await pilot.press("G")
        assert app.position == len(tl) - 1

    drive(disputed_app(), scenario)


def test_turn_battle_round_jumps() -> None:
    tl = expected_timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("home", "t")
        assert app.position == tl.turn_node("Germany 3")
        await pilot.press("T")
        assert app.position == 0
        await pilot.press("b")
        assert app.position == tl.battle_node(0)
        await pilot.press("b")
        assert app.position == tl.battle_node(1)
        await pilot.press("B")
        assert app.position == tl.battle_node(0)
        await pilot.press("r", "r")
        rnd = tl.round(app.position)
        assert rnd is not None and rnd.round == 2 and rnd.origin == "rerolled"
        await pilot.press("R")
        rnd = tl.round(app.position)
        assert rnd is not None and rnd.round == 1

    drive(disputed_app(), scenario)


def test_finding_jumps_and_the_end_of_the_findings() -> None:
    tl = expected_timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        assert app.position == tl.finding_node("F2")
        await pilot.press("n")
        assert app.position == tl.finding_node("F2")
        assert "no further finding" in crumb(app)
        await pilot.press("N")
        assert app.position == tl.finding_node("F1")
        assert app.query_one(FindingsPanel).highlighted_id == "F1"

    drive(disputed_app(), scenario)


def test_switching_histories_keeps_the_place() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("r")  # round 2 of East Europe, where the re-roll begins
        await pilot.press("j")  # the attacker's column 1
        assert "Round 2 › Att col 1" in crumb(app)
        await pilot.press("v")
        assert app.as_rolled
        timeline = app.current_timeline
        assert timeline is not None and timeline.main.as_rolled
        rnd = timeline.round(app.position)
        assert rnd is not None and rnd.round == 2 and rnd.origin == "as_rolled"
        assert not timeline.nodes[app.position].variation
        assert timeline.nodes[app.position].column == 1
        assert "as rolled (the record)" in str(app.query_one(TimelineView).border_title)
        await pilot.press("v")
        assert not app.as_rolled
        assert "Round 2 › Att col 1" in crumb(app)

    drive(disputed_app(), scenario)


def test_diff_shows_both_boards_and_marks_the_differences() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        other = app.query_one("#other-board", BattleBoard)
        assert not other.display
        await pilot.press("d")
        assert app.diff and other.display
        assert "as rolled" in str(other.border_title)
        board = app.query_one("#board", BattleBoard)
        assert "≠" in screen_text(app)  # round 1 differs: the added dice
        assert "as corrected" in str(board.border_title)
        await pilot.press("d")
        assert not app.diff and not other.display

    drive(disputed_app(), scenario)


def test_find_moves_to_the_next_line_containing_the_text() -> None:
    tl = expected_timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("slash")
        assert isinstance(app.screen, FindScreen)
        await pilot.press(*"manchuria", "enter")
        assert not isinstance(app.screen, FindScreen)
        assert app.position == tl.battle_node(1)
        await pilot.press("slash", "ctrl+u", *"zanzibar", "enter")
        assert app.position == tl.battle_node(1)
        assert "not found" in crumb(app)

    drive(disputed_app(), scenario)


def test_help_opens_with_f1_and_question_mark_and_lists_binding_ids() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        assert any("[timeline.next_finding]" in text for _, text in screen.keys)
        assert "Close help" in screen_text(app) or "Help" in screen_text(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("q")  # closes the help, does not quit
        assert not isinstance(app.screen, HelpScreen)
        assert app.is_running

    drive(disputed_app(), scenario)


def test_command_palette_goes_to_a_battle() -> None:
    tl = expected_timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"go to battle germany 3: caucasus")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.position == tl.battle_node(2)

    drive(disputed_app(), scenario)


def test_selecting_a_finding_moves_the_timeline() -> None:
    tl = expected_timeline()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        app.query_one(FindingsPanel).focus()
        await pilot.pause()
        await pilot.press("down", "enter")
        assert app.position == tl.finding_node("F2")

    drive(disputed_app(), scenario)


def test_keys_can_be_remapped_by_binding_id() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        start = app.position
        await pilot.press("space")
        assert app.position == start + 1
        await pilot.press("right")
        assert app.position == start + 1
        keys = {desc.split("  [")[1].rstrip("]"): key for key, desc in app.help_keys() if "  [" in desc}
        assert keys["timeline.next"] == "space"

    drive(disputed_app(keymap={"timeline.next": "space"}), scenario)


def test_a_replay_file_loads_in_the_worker() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        timeline = app.current_timeline
        assert timeline is not None and app.ready
        assert [n.kind for n in timeline.nodes] == ["turn", "battle", "round", "column", "column",
                                                     "casualties"]
        assert app.position == 2  # no findings: the first round
        assert "Caucasus (land) › Round 1" in crumb(app)
        await pilot.press("j")
        assert "Att col 3" in crumb(app)

    drive(MinisterApp(FileSource(str(OVERKILL))), scenario)


def test_an_unreadable_replay_exits_with_code_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('format = "minister-replay/1"\n[game]\nid = 3\n', encoding="utf-8")
    app = MinisterApp(FileSource(str(bad)))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            with contextlib.suppress(WorkerCancelled):  # the app exits while its worker ends
                await app.workers.wait_for_complete()
            await pilot.pause()

    asyncio.run(main())
    assert app.return_code == 2
    assert not app.is_running


def test_q_quits() -> None:
    app = disputed_app()

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running

    drive(app, scenario)
    assert app.return_code == 0


def test_a_big_game_renders_only_the_rows_on_screen() -> None:
    corrected, rolled = big_game(2000), big_game(2000, as_rolled=True)
    app = MinisterApp(ViewsSource(corrected, rolled))

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        view = app.query_one(TimelineView)
        timeline = app.current_timeline
        assert timeline is not None and len(timeline) >= 90_000
        assert 0 < view.rendered_rows < 200
        # Opened on the opening part of the game, then the whole game swapped in at the same place.
        assert app.position == timeline.finding_node("F1-0") == timeline.opening()
        assert len(timeline.main.battles) == 6000 and app.ready
        await pilot.press("end")
        assert app.position == len(timeline) - 1
        assert view.scroll_y > len(timeline) - 50
        await pilot.press("T")
        assert timeline.nodes[app.position].kind == "turn"

    drive(app, scenario)


def test_every_binding_has_an_id_and_a_keymap_file_is_checked(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from tui.app import binding_ids
    from tui.cli import main
    from tui.commands.show import read_keymap

    ids = binding_ids()
    assert all(isinstance(b, Binding) and b.id for b in MinisterApp.BINDINGS)
    assert {"timeline.next", "timeline.next_finding", "view.toggle", "view.diff", "app.help",
            "findings.select", "help.close"} <= ids
    good = tmp_path / "keys.toml"
    good.write_text('"timeline.next" = "space,right"\n', encoding="utf-8")
    assert read_keymap(str(good)) == {"timeline.next": "space,right"}
    bad = tmp_path / "bad.toml"
    bad.write_text('"timeline.next" = 3\n', encoding="utf-8")
    with pytest.raises(MinisterError, match=re.escape("timeline.next = 3")):
        read_keymap(str(bad))
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('"timeline.nxt" = "space"\n', encoding="utf-8")
    assert main(["show", str(OVERKILL), "--keymap", str(unknown)]) == 2
    assert "no binding named timeline.nxt" in capsys.readouterr().err
    assert main(["show", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml: no such replay file" in capsys.readouterr().err


def test_the_panel_shows_reports_and_rulings_in_full_and_marks_dice_still_needed(tmp_path: Path) -> None:
    long_ruling = "Part 14, GM Errors: " + "the GM rolls the missing dice for the threes column; " * 4
    text = (ROOT / "replays" / "part14" / "east-europe-forgotten-armour.toml").read_text(encoding="utf-8")
    text = text.split('[[event]]\ntype = "dice"')[0] + (
        '[[event]]\ntype = "ruled"\nat = 1999-07-20T19:30:00Z\nfinding = "F1"\ndecision = "apply"\n'
        f'by = "Minister of Law"\ntext = "{long_ruling}"\n')
    path = tmp_path / "waiting.toml"
    path.write_text(text, encoding="utf-8")

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        panel = app.query_one(FindingsPanel)
        lines = [t.plain for _, t in panel.laid_out()]
        joined = " ".join(" ".join(line.split()) for line in lines)
        assert "⏳ awaiting 2 dice: R1 attacker column 3 (2 ARM)" in joined
        assert "[corrected" not in joined
        assert "Report [event 5] 1999-07-20 19:00:00Z by Germany" in joined
        assert "The 2 ARM from Caucasus were never rolled in round 1." in joined
        # The ruling's words in full, wrapped over several lines, none cut off.
        assert " ".join(long_ruling.split()) in joined
        assert max(len(line) for line in lines) <= panel.scrollable_content_region.width
        assert panel.virtual_size.height == len(lines) > panel.scrollable_content_region.height

    drive(MinisterApp(FileSource(str(path))), scenario)
