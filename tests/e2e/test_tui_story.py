"""The game's story (``c``) and ``minister chart``: every battle's odds as declared against its
results, each power's income turn by turn, the current point marked, a click going there; on the
engine's views of shipped replays."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest
from textual.pilot import Pilot

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from projections.story import declared_odds
from tests.conftest import REPLAYS
from tui.app import MinisterApp
from tui.cli import main
from tui.loading import ViewsSource
from tui.widgets.board_map import MapPanel
from tui.widgets.story import LABEL, StoryPanel
from tui.widgets.timeline_view import TimelineView

FULL = "games/full-game-three-rounds-2008.toml"
DISPUTED = "battles/disputed-game-2008.toml"
Scenario = Callable[[MinisterApp, Pilot[None]], Awaitable[None]]


def drive(path: str, scenario: Scenario, size: tuple[int, int] = (120, 40)) -> None:
    game = load_replay(REPLAYS / path).game
    app = MinisterApp(ViewsSource(review(game), review(game, as_rolled=True)))

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(run())


async def opened(app: MinisterApp, pilot: Pilot[None]) -> StoryPanel:
    """``c``, and the odds worked out."""
    await pilot.press("c")
    await app.workers.wait_for_complete()
    await pilot.pause()
    return app.query_one(StoryPanel)


def row(panel: StoryPanel, name: str) -> str:
    """A row of the chart after its name."""
    line = next(line for line in panel.text.splitlines() if line.startswith(name))
    return line[LABEL:]


def test_the_story_of_the_three_round_game() -> None:
    """Four battles: the USSR retreats from Ukraine, Germany, the UK and Japan win theirs (the
    replay's own account); Germany's capture of Anglo Egypt raises its income to 34 until the UK
    retakes it; the odds as declared worked out by the engine."""
    views = review(load_replay(REPLAYS / FULL).game)

    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        panel = await opened(app, pilot)
        assert panel.display and panel.story is not None
        assert panel.story.worked_out == 4
        assert row(panel, "Result as rolled").strip() == "↩✓✓✓"
        assert row(panel, "   as corrected").strip() == "↩✓✓✓"
        assert len(row(panel, "Odds as declared").strip()) == 4
        await pilot.press("b")  # USSR 1's battle in Ukraine
        odds = declared_odds(views.battles[0])
        assert odds is not None
        assert f"USSR 1 · Ukraine S.S.R. · odds as declared {odds:.0%}" in panel.text
        await pilot.press("t", "b")  # Germany 1's battle: its income after it
        assert row(panel, "Income Germany").rstrip().endswith(" 34")
        assert row(panel, "Income UK").rstrip().endswith(" 28")
        await pilot.press("t", "b")  # UK 1 retakes it
        assert row(panel, "Income Germany").rstrip().endswith(" 32")

    drive(FULL, scenario)


def test_the_current_battle_is_marked_and_a_click_goes_to_a_column() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        panel = await opened(app, pilot)
        timeline = app.current_timeline
        assert timeline is not None
        app.goto(timeline.battle_node(2))
        await pilot.pause()
        odds_line = panel.content.renderables[1]  # type: ignore[attr-defined]
        reversed_at = [span.start for span in odds_line.spans if span.style.reverse]
        assert reversed_at == [LABEL + 2]
        # A click on the fourth column of the results: Japan 1's battle (border and padding first).
        await pilot.click(StoryPanel, offset=(2 + LABEL + 3, 1 + 2))
        assert app.position == timeline.battle_node(3)
        # A click on the income rows: that turn's line.
        await pilot.click(StoryPanel, offset=(2 + LABEL + 5, 1 + 5))
        assert app.position == timeline.turn_node(timeline.turns[5])

    drive(FULL, scenario)


def test_where_the_histories_part_the_result_is_marked() -> None:
    """The disputed game: as rolled the record stops in East Europe with both sides standing;
    as corrected the attacker wins."""
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        panel = await opened(app, pilot)
        rolled, corrected = row(panel, "Result as rolled"), row(panel, "   as corrected")
        assert rolled[0] == "·" and corrected[0] == "✓"
        line = panel.content.renderables[3]  # type: ignore[attr-defined]
        assert any(span.start == LABEL and span.style.color is not None for span in line.spans)

    drive(DISPUTED, scenario)


def test_at_80x24_the_story_leaves_the_timeline_its_rows_and_the_map_takes_its_place() -> None:
    async def scenario(app: MinisterApp, pilot: Pilot[None]) -> None:
        panel = await opened(app, pilot)
        assert panel.region.height > 8
        assert app.query_one(TimelineView).scrollable_content_region.height >= 5
        await pilot.press("m")
        await pilot.pause()
        assert not panel.display and app.query_one(MapPanel).display

    drive(FULL, scenario, size=(80, 24))


def test_minister_chart_writes_the_story_as_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "story.svg"
    assert main(["chart", str(REPLAYS / FULL), "-o", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    svg = ElementTree.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    titles = [element.text for element in svg.iter(f"{ns}title")]
    assert titles.count("won") == 6 and titles.count("retreated") == 2  # 3 wins, 1 retreat, twice
    incomes = [line for line in svg.iter(f"{ns}polyline") if line.get("class") == "income"]
    assert len(incomes) == 5  # a line a power
    assert "Three game rounds: the board moves on" in out.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["story.svg"]  # nothing left beside it
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # for a newsletter: as a plain write leaves it


def test_minister_chart_writes_the_story_as_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same picture for a newsletter whose tools take no SVG: the plots' frames where the
    SVG has them, the odds line, and a line in each power's colour."""
    from PIL import Image

    from projections.story_svg import LEFT, ODDS_TOP, POWER_COLOURS, WIDTH

    out = tmp_path / "story.png"
    assert main(["chart", str(REPLAYS / FULL), "-o", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    with Image.open(out) as image:
        assert (image.format, image.size) == ("PNG", (WIDTH, 600))
        colours = {colour for _, colour in image.convert("RGB").getcolors(maxcolors=1 << 16) or []}
        frame = image.convert("RGB").getpixel((LEFT, ODDS_TOP + 50))
    assert frame == (0x99, 0x99, 0x99)  # the odds plot's frame, as in the SVG
    assert (0x1F, 0x5F, 0xBF) in colours  # the odds as declared
    for colour in POWER_COLOURS.values():
        assert tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5)) in colours
    assert [p.name for p in tmp_path.iterdir()] == ["story.png"]


def test_minister_chart_refuses_a_missing_folder_or_game(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chart", str(REPLAYS / FULL), "-o", str(tmp_path / "no" / "story.svg")]) == 2
    assert "--output" in capsys.readouterr().err
    assert main(["chart", str(tmp_path / "missing.toml"), "-o", str(tmp_path / "story.svg")]) == 2
    assert "missing.toml" in capsys.readouterr().err
    # The name says the format: a story.jpg holding SVG would open as a broken image.
    assert main(["chart", str(REPLAYS / FULL), "-o", str(tmp_path / "story.jpg")]) == 2
    assert "--output" in (err := capsys.readouterr().err) and ".svg or .png" in err
    assert not list(tmp_path.iterdir())
