"""The game's story as an SVG picture (``minister chart GAME -o FILE``), for a club newsletter.

Two plots, one above the other: each battle's odds as declared (a line, the attacker's chance of
winning from 0 to 100 %) with its result as rolled (a ring) and as corrected (a dot) at 100 %
for a win and 0 % otherwise (red where the histories part); and each power's income turn by
turn (a line a power, in its colour on the printed board). Written by hand, as text: no plotting
library. The same :class:`~projections.story.Story` the terminal's chart draws. Pure Python.
"""

from __future__ import annotations

from html import escape

from projections.story import Result, Story, powers_in

#: The picture's size and its two plots' places (projections/story_png.py draws the same).
WIDTH, HEIGHT = 960, 600
LEFT, RIGHT = 70, 150
ODDS_TOP, ODDS_HEIGHT = 60, 200
INCOME_TOP, INCOME_HEIGHT = 340, 200
#: The powers' colours on the printed board.
POWER_COLOURS = {"USSR": "#a52a2a", "Germany": "#555555", "UK": "#b8864b", "Japan": "#e0901e",
                 "USA": "#2e6b30"}
RESULT_Y = {"won": 1.0, "lost": 0.0, "retreated": 0.0}


def x_of(k: int, count: int) -> float:
    """The centre of slot ``k`` of ``count`` across the plot."""
    room = WIDTH - LEFT - RIGHT
    return round(LEFT + (k + 0.5) * room / max(1, count), 1)


def y_of(value: float, top: int, height: int) -> float:
    """The height of ``value`` (0 to 1) in a plot ``height`` high whose top is ``top``."""
    return round(top + (1 - value) * height, 1)


def _frame(top: int, height: int, title: str, ticks: list[tuple[float, str]]) -> list[str]:
    """A plot's title, its axis and its horizontal grid lines with their labels."""
    width = WIDTH - LEFT - RIGHT
    parts = [f'<text x="{LEFT}" y="{top - 12}" class="title">{escape(title)}</text>',
             f'<rect x="{LEFT}" y="{top}" width="{width}" height="{height}" class="frame"/>']
    for value, label in ticks:
        y = y_of(value, top, height)
        parts.append(f'<line x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4}" class="tick" text-anchor="end">'
                     f'{escape(label)}</text>')
    return parts


def runs_of(points: list[tuple[float, float] | None]) -> list[list[tuple[float, float]]]:
    """The points cut into runs where a point is missing (a line is broken there); no empty run."""
    runs: list[list[tuple[float, float]]] = [[]]
    for point in points:
        if point is None:
            runs.append([])
        else:
            runs[-1].append(point)
    return [run for run in runs if run]


def _lines(points: list[tuple[float, float] | None], css: str, colour: str = "") -> list[str]:
    """Polylines through the points, broken where a point is missing."""
    runs = runs_of(points)
    stroke = f' stroke="{colour}"' if colour else ""
    return [f'<polyline class="{css}"{stroke} points="{" ".join(f"{x},{y}" for x, y in run)}"/>'
            for run in runs if len(run) > 1] + \
        [f'<circle class="{css}-dot" cx="{run[0][0]}" cy="{run[0][1]}" r="2"{stroke}/>'
         for run in runs if len(run) == 1]


def _result(x: float, result: Result, *, rolled: bool, differs: bool) -> str:
    if result not in RESULT_Y:
        return ""
    y = y_of(RESULT_Y[result], ODDS_TOP, ODDS_HEIGHT)
    css = ("rolled" if rolled else "corrected") + (" differs" if differs else "")
    return (f'<circle class="{css}" cx="{x}" cy="{y}" r="{5 if rolled else 3}">'
            f'<title>{escape(result)}</title></circle>')


def story_svg(story: Story, title: str) -> str:
    """The story as an SVG document (every battle's odds must be worked out before)."""
    count = len(story.battles)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
             "<style>.title{font-size:14px;font-weight:bold}.frame{fill:none;stroke:#999}"
             ".grid{stroke:#ddd}.tick{fill:#555}.odds{fill:none;stroke:#1f5fbf;stroke-width:2}"
             ".odds-dot{fill:#1f5fbf}.rolled{fill:none;stroke:#333;stroke-width:1.5}"
             ".corrected{fill:#333}.differs{stroke:#d00;fill:#d00}.rolled.differs{fill:none}"
             ".income{fill:none;stroke-width:2}.income-dot{fill:#333}.label{fill:#333}</style>",
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<text x="{LEFT}" y="24" font-size="16" font-weight="bold">{escape(title)}</text>']
    parts += _frame(ODDS_TOP, ODDS_HEIGHT, f"Odds as declared against the results ({count} battles)",
                    [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")])
    odds = [story.odds(point.battle) for point in story.battles]
    parts += _lines([(x_of(k, count), y_of(value, ODDS_TOP, ODDS_HEIGHT)) if value is not None else None
                     for k, value in enumerate(odds)], "odds")
    for k, point in enumerate(story.battles):
        x = x_of(k, count)
        differs = point.as_rolled != point.as_corrected
        parts.append(_result(x, point.as_rolled, rolled=True, differs=differs))
        parts.append(_result(x, point.as_corrected, rolled=False, differs=differs))
    legend = [("odds as declared", '<line x1="0" y1="0" x2="18" y2="0" class="odds"/>'),
              ("won as rolled", '<circle cx="9" cy="0" r="5" class="rolled"/>'),
              ("won as corrected", '<circle cx="9" cy="0" r="3" class="corrected"/>'),
              ("the histories part", '<circle cx="9" cy="0" r="3" class="corrected differs"/>')]
    for n, (text, mark) in enumerate(legend):
        y = ODDS_TOP + 10 + 18 * n
        parts.append(f'<g transform="translate({WIDTH - RIGHT + 12},{y})">{mark}'
                     f'<text x="24" y="4" class="label">{escape(text)}</text></g>')
    turns = len(story.income)
    top = max((v for point in story.income for v in point.income.values()), default=0)
    parts += _frame(INCOME_TOP, INCOME_HEIGHT, "IPC income turn by turn",
                    [(0.0, "0"), (0.5, str(top // 2)), (1.0, str(top))] if top else [])
    for n, power in enumerate(powers_in(story)):
        colour = POWER_COLOURS.get(power, "#333")
        values = [point.income.get(power) for point in story.income]
        parts += _lines([(x_of(k, turns), y_of(v / top, INCOME_TOP, INCOME_HEIGHT)) if v is not None and top
                         else None for k, v in enumerate(values)], "income", colour)
        y = INCOME_TOP + 10 + 18 * n
        parts.append(f'<g transform="translate({WIDTH - RIGHT + 12},{y})"><line x1="0" y1="0" x2="18" '
                     f'y2="0" class="income" stroke="{colour}"/><text x="24" y="4" class="label">'
                     f'{escape(power)}</text></g>')
    for k in sorted({0, turns // 2, turns - 1}) if turns else ():
        parts.append(f'<text x="{x_of(k, turns)}" y="{INCOME_TOP + INCOME_HEIGHT + 16}" class="tick" '
                     f'text-anchor="middle">{escape(story.income[k].turn)}</text>')
    parts.append("</svg>")
    return "\n".join(part for part in parts if part) + "\n"
