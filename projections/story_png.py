"""The game's story as a PNG picture (``minister chart GAME -o FILE.png``), for a club newsletter
whose tools take no SVG.

The same picture as :mod:`projections.story_svg`, on the same layout (its sizes and places):
each battle's odds as declared against its results as rolled (a ring) and as corrected (a dot),
red where the histories part, and each power's income turn by turn. Drawn with Pillow (imported
here only: nothing else of minister needs it), in its default font.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from projections.story import Story, powers_in
from projections.story_svg import (
    HEIGHT,
    INCOME_HEIGHT,
    INCOME_TOP,
    LEFT,
    ODDS_HEIGHT,
    ODDS_TOP,
    POWER_COLOURS,
    RESULT_Y,
    RIGHT,
    WIDTH,
    runs_of,
    x_of,
    y_of,
)

if TYPE_CHECKING:
    from PIL import ImageDraw

_ODDS, _GRID, _FRAME, _TEXT, _DIFFERS = "#1f5fbf", "#dddddd", "#999999", "#333333", "#dd0000"


def story_png(story: Story, title: str) -> bytes:
    """The story as a PNG image (every battle's odds must be worked out before)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    draw.text((LEFT, 10), title, fill="black")
    count = len(story.battles)
    _frame(draw, ODDS_TOP, ODDS_HEIGHT, f"Odds as declared against the results ({count} battles)",
           [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")])
    odds = [story.odds(point.battle) for point in story.battles]
    _lines(draw, [(x_of(k, count), y_of(value, ODDS_TOP, ODDS_HEIGHT)) if value is not None else None
                  for k, value in enumerate(odds)], _ODDS)
    for k, point in enumerate(story.battles):
        x = x_of(k, count)
        differs = point.as_rolled != point.as_corrected
        for result, rolled in ((point.as_rolled, True), (point.as_corrected, False)):
            if result in RESULT_Y:
                y = y_of(RESULT_Y[result], ODDS_TOP, ODDS_HEIGHT)
                colour = _DIFFERS if differs else _TEXT
                if rolled:
                    draw.ellipse((x - 5, y - 5, x + 5, y + 5), outline=colour, width=2)
                else:
                    draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
    legend_x = WIDTH - RIGHT + 12
    for n, text in enumerate(("odds as declared", "won as rolled", "won as corrected", "the histories part")):
        y = ODDS_TOP + 10 + 18 * n
        if n == 0:
            draw.line((legend_x, y, legend_x + 18, y), fill=_ODDS, width=2)
        elif n == 1:
            draw.ellipse((legend_x + 4, y - 5, legend_x + 14, y + 5), outline=_TEXT, width=2)
        else:
            draw.ellipse((legend_x + 6, y - 3, legend_x + 12, y + 3), fill=_DIFFERS if n == 3 else _TEXT)
        draw.text((legend_x + 24, y - 6), text, fill=_TEXT)
    turns = len(story.income)
    top = max((v for point in story.income for v in point.income.values()), default=0)
    _frame(draw, INCOME_TOP, INCOME_HEIGHT, "IPC income turn by turn",
           [(0.0, "0"), (0.5, str(top // 2)), (1.0, str(top))] if top else [])
    for n, power in enumerate(powers_in(story)):
        colour = POWER_COLOURS.get(power, _TEXT)
        values = [point.income.get(power) for point in story.income]
        _lines(draw, [(x_of(k, turns), y_of(v / top, INCOME_TOP, INCOME_HEIGHT)) if v is not None and top
                      else None for k, v in enumerate(values)], colour)
        y = INCOME_TOP + 10 + 18 * n
        draw.line((legend_x, y, legend_x + 18, y), fill=colour, width=2)
        draw.text((legend_x + 24, y - 6), power, fill=_TEXT)
    for k in sorted({0, turns // 2, turns - 1}) if turns else ():
        draw.text((x_of(k, turns), INCOME_TOP + INCOME_HEIGHT + 6), story.income[k].turn, fill=_TEXT,
                  anchor="mt")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _frame(draw: ImageDraw.ImageDraw, top: int, height: int, title: str,
           ticks: list[tuple[float, str]]) -> None:
    """A plot's title, its frame and its horizontal grid lines with their labels."""
    draw.text((LEFT, top - 20), title, fill="black")
    for value, label in ticks:
        y = y_of(value, top, height)
        draw.line((LEFT, y, WIDTH - RIGHT, y), fill=_GRID)
        draw.text((LEFT - 6, y), label, fill="#555555", anchor="rm")
    draw.rectangle((LEFT, top, WIDTH - RIGHT, top + height), outline=_FRAME)


def _lines(draw: ImageDraw.ImageDraw, points: list[tuple[float, float] | None], colour: str) -> None:
    """Lines through the points, broken where a point is missing (a lone point is a dot)."""
    for run in runs_of(points):
        if len(run) > 1:
            draw.line(run, fill=colour, width=2)
        else:
            x, y = run[0]
            draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=colour)
