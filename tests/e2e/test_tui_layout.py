"""The timeline app at the size it gets, and its screenshot command with no Downloads folder."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Footer, Header, Static

from tests.unit.timeline_views import disputed_pair
from tui.app import NARROW_BELOW, MinisterApp, screenshot_directory
from tui.loading import ViewsSource
from tui.widgets.board import BattleBoard
from tui.widgets.findings import FindingsPanel
from tui.widgets.lines import Grid
from tui.widgets.luck import LuckPanel
from tui.widgets.timeline_view import TimelineView

Scenario = Callable[[MinisterApp, Pilot[None]], Awaitable[None]]


def drive(size: tuple[int, int], scenario: Scenario) -> None:
    """Run the disputed game headless at ``size`` and play the scenario once it is loaded."""
    corrected, rolled = disputed_pair()
    app = MinisterApp(ViewsSource(corrected, rolled))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def shown(app: MinisterApp, widget: type[object]) -> bool:
    found = app.query_one(widget)  # type: ignore[call-overload]
    return bool(found.display and found.region.height > 0)


def test_a_narrow_terminal_stacks_one_panel_under_the_timeline() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        timeline = app.query_one(TimelineView)
        board = app.query_one(BattleBoard)
        assert app.narrow
        assert timeline.region.width == 80 and board.region.y >= timeline.region.bottom
        assert not shown(app, Header)  # 24 rows: every one for the panels
        assert app.query_one(Footer).compact
        assert [shown(app, w) for w in (BattleBoard, FindingsPanel, LuckPanel)] == [True, False, False]
        await pilot.press("p")
        assert [shown(app, w) for w in (BattleBoard, FindingsPanel, LuckPanel)] == [False, True, False]
        await pilot.press("p")
        assert [shown(app, w) for w in (BattleBoard, FindingsPanel, LuckPanel)] == [False, False, True]
        await pilot.press("p")
        assert [shown(app, w) for w in (BattleBoard, FindingsPanel, LuckPanel)] == [True, False, False]

    drive((80, 24), scenario)


def test_a_wide_terminal_shows_every_panel_and_needs_no_panel_key() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        assert not app.narrow
        assert all(shown(app, w) for w in (Header, TimelineView, BattleBoard, FindingsPanel, LuckPanel))
        assert app.check_action("cycle_panel", ()) is False
        before = app.panel
        await pilot.press("p")
        assert app.panel == before

    drive((NARROW_BELOW + 60, 48), scenario)


def test_the_board_keeps_every_row_at_80x24() -> None:
    """The cursor on a round's casualties: the board still shows that row, label and columns."""

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        await pilot.press("right", "right", "right")
        assert "Casualties" in str(app.query_one("#crumb", Static).render())
        board = app.query_one(BattleBoard)
        lines = board.text.splitlines()
        assert len(lines) <= board.content_region.height
        (losses,) = [line for line in lines if "losses" in line]
        (hits,) = [line for line in lines if line.lstrip().startswith("hits")]
        assert losses.startswith(" ▶ losses")
        # The attacker's losses stand in the same column as the attacker's hits above them.
        assert losses.index("3 INF") == hits.index("3 hits")

    drive((80, 24), scenario)


def test_a_screenshot_goes_to_the_data_folder_under_an_ascii_name_never_the_working_tree(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No Downloads folder: minister's data folder (platformdirs), not the current directory (a
    repository's working tree, as often as not); the game's title has a "·", the name none; the
    notification says where it went."""
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.chdir(work)
    assert not (home / "Downloads").exists()
    folder = tmp_path / "data" / "minister" / "screenshots"
    assert screenshot_directory() == folder

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        assert not app.title.isascii()
        notes: list[str] = []
        app.notify = lambda message, **_: notes.append(str(message))  # type: ignore[method-assign]
        app.deliver_screenshot()  # what the palette's "Screenshot" command calls
        for _ in range(50):
            await pilot.pause(0.05)
            if notes:
                break
        saved = list(folder.glob("*.svg"))
        assert len(saved) == 1, notes
        assert saved[0].name.isascii() and saved[0].name.startswith("minister_disputed-game-2008_")
        assert not list(work.iterdir())
        assert "Failed" not in " ".join(notes) and str(saved[0]) in notes[0]
        assert "Timeline" in saved[0].read_text(encoding="utf-8")  # the screen, not an empty file

    drive((120, 40), scenario)


def test_the_screenshot_goes_to_downloads_when_there_is_one(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ".config"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    (tmp_path / "Downloads").mkdir()
    assert screenshot_directory() == tmp_path / "Downloads"


def test_board_headers_shorten_when_a_column_is_too_narrow_for_them() -> None:
    grid = Grid(("   column", "attacker", "its dice"), (1, 1), label_width=10,
                short=("   col", "att", "dice"))
    grid.add_row(Text("  1"), Text("9 INF"), Text("5 2 4"))
    console = Console(width=200)
    wide = [line.plain for line in grid.lines(console, 40)]
    narrow = [line.plain for line in grid.lines(console, 24)]
    assert wide[0].split() == ["column", "attacker", "its", "dice"]
    assert narrow[0].split() == ["col", "att", "dice"]
    assert all(len(line) <= 24 for line in narrow)


def test_a_fitted_label_column_leaves_its_unused_room_to_the_units() -> None:
    """The battle board's rounds: a round number needs 5 columns ("round"), not the 15 a
    variation's label may take; in a narrow board (the side-by-side diff) the units keep the room."""
    def grid(fit: bool) -> Grid:
        made = Grid(("round", "attacker", "defender"), (1, 1), label_width=15, fit_label=fit)
        made.add_row(Text("1"), Text("6 INF, 1 ARM, 1 FTR"), Text("4 INF, 2 ARM, 1 FTR"))
        return made

    console = Console(width=200)
    fitted, fixed = grid(True), grid(False)
    assert fitted.widths(33)[0] == 5 and fixed.widths(33)[0] == 15
    assert len(fitted.lines(console, 33)) < len(fixed.lines(console, 33))  # fewer wrapped lines
    variation = grid(True)
    variation.add_row(Text("(as rolled) 1 ↻"), Text("1 INF"), Text("2 INF"))
    assert variation.widths(33)[0] == 15  # never wider than label_width, as wide as a label needs


def test_the_footer_shows_the_switch_and_the_diff_enabled_once_both_histories_are_in() -> None:
    """tui/widgets/footer.py: held while loading, the footer recomposes once the timeline is up,
    so ``v`` and ``d`` (greyed out until the record as rolled is reviewed) show as enabled."""
    from textual.widgets._footer import FooterKey

    from tui.widgets.footer import KeyFooter

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        footer = app.query_one(KeyFooter)
        assert not footer.held
        keys = {key.action: key for key in footer.query(FooterKey)}
        assert {"toggle_view", "toggle_diff"} <= set(keys)
        assert not keys["toggle_view"].disabled and not keys["toggle_diff"].disabled

    drive((120, 40), scenario)


def test_a_grid_row_is_each_cell_cropped_or_padded_to_its_column() -> None:
    """Every cell takes its column's width exactly: cropped, or padded with unstyled spaces (a
    cell styled as a whole, the current point's, is styled across its padding too)."""
    cells = [Text("6 INF", "bold"), Text.assemble("5 ", ("2*", "red"), " 4"), Text("一二三四五六"),
             Text("exactly10!"), Text("")]

    def expected(parts: list[Text], widths: list[int]) -> Text:
        line = Text(no_wrap=True, overflow="crop")
        for part, w in zip(parts, widths, strict=True):
            piece = part.copy()
            piece.truncate(w, overflow="crop", pad=True)
            line.append_text(piece)
            line.append(" ")
        line.rstrip()
        return line

    for widths in ([10, 10, 10, 10, 10], [3, 4, 5, 10, 1], [8, 2, 11, 9, 0]):
        got, want = Grid._line(cells, widths), expected(cells, widths)
        assert got.plain == want.plain and got.spans == want.spans


@pytest.mark.parametrize("width", [40, 66, 100])
def test_a_findings_status_is_never_cut_off_at_the_panels_edge(width: int) -> None:
    """A long kind and its status ("map update incomplete  [fixed: too late to correct: record
    stands]") do not fit a narrow panel on one line: the status goes on lines of its own."""
    from domain.review.views import Finding
    from domain.rules.findings import FindingKind, FindingStatus
    from tui.widgets.findings import STATUS_TEXT, finding_lines

    finding = Finding(id="F12", kind=FindingKind.MAP_UPDATE_INCOMPLETE, status=FindingStatus.FIXED,
                      rule="iaapa-2008 Post Combat Orders", detail="Japan's map update leaves out China",
                      turn="Japan 1")
    lines = finding_lines(finding, width)
    assert all(line.cell_len <= width for line in lines)
    shown = " ".join(" ".join(line.plain.split()) for line in lines)
    assert f"[fixed: {STATUS_TEXT[FindingStatus.FIXED]}]" in shown
