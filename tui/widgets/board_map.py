"""The map: the Classic board laid out on a grid, at the current point of the timeline.

Each territory and sea zone is a cell of seven characters: a mark, its label (domain/data/
classic-map.toml), a second mark. Land is coloured by its holder; the current battle's places are
marked ``▶``, the rest of the turn's ``•``, a place where a battle is begun and not resolved
(enemies side by side, awaiting dice) ``×``; ``*`` marks a place the turn has changed so far (at
a turn's line: what the records since the last battle changed, non-combat moves and placements
among them) and ``≠`` one the record as rolled and the game as corrected leave differently;
``?`` and dim, a place a record taken up mid-game does not name (its units are not known). One place has the
focus (reverse video): its holder, units and IPC value are spelled out under the map. A screen too
small for the whole grid shows a window around the focus, going round the Pacific as the board does.

The lines are made by :func:`map_lines` from the projection's :class:`~projections.board_map.MapPoint`
(pure: no terminal needed), so what the map shows is tested as text.
"""

from __future__ import annotations

from rich.console import Group
from rich.style import Style
from rich.text import Text

from domain.rules.board import Board
from domain.rules.map_layout import MAX_LABEL, MapLayout
from projections.board_map import LETTER_LEGEND, BoardMaps, MapPoint, Square, square_text, unit_letters
from projections.find import place_named
from projections.timeline import Timeline
from tui.widgets.lines import LinesPanel
from tui.widgets.repaint import set_title
from tui.widgets.styles import TAG_STYLES

#: Characters a cell takes: a mark, the label, a mark.
CELL = MAX_LABEL + 2
#: Lines under the map: the legend and the focused place (three lines).
FOOT_LINES = 4
#: Grid rows a map with units under the names must show at least (else: names only, more rows).
UNIT_ROWS = 8
#: The powers' colours for their units (the printed board's, as text on the terminal's ground).
POWER_TEXT: dict[str, Style] = {
    "USSR": Style(color="#ff6f6f", bold=True),
    "Germany": Style(color="#c0c0c0", bold=True),
    "UK": Style(color="#e0b878", bold=True),
    "Japan": Style(color="#ffa530", bold=True),
    "USA": Style(color="#6fcf6f", bold=True),
}
#: The powers' colours, after the printed board's.
POWER_STYLES: dict[str, Style] = {
    "USSR": Style(color="white", bgcolor="#8b1c1c"),
    "Germany": Style(color="white", bgcolor="#555555"),
    "UK": Style(color="black", bgcolor="#c8a165"),
    "Japan": Style(color="black", bgcolor="#e0901e"),
    "USA": Style(color="white", bgcolor="#2e6b30"),
}
NEUTRAL_STYLE = Style(color="#9e9e9e")
#: A place the record does not let us know (it starts after the setup and names nothing there).
UNKNOWN_STYLE = Style(color="#6c6c6c", italic=True)
UNKNOWN_MARK = ("?", Style(color="#9e9e9e"))
#: The legend's entry for it, shown only on a map that has such places.
UNKNOWN_LEGEND = (UNKNOWN_MARK[0], UNKNOWN_MARK[1], "not in the record")
SEA_STYLE = Style(color="#6f9be0")
FOCUS = Style(reverse=True, bold=True)
BATTLE_MARK = ("▶", Style(bold=True, color="yellow"))
TURN_MARK = ("•", Style(color="cyan"))
DIFFERS_MARK = ("≠", Style(bold=True, color="red"))
CHANGED_MARK = ("*", Style(bold=True, color="yellow"))
CONTESTED_MARK = ("×", Style(bold=True, color="magenta"))
LEGEND: tuple[tuple[str, Style, str], ...] = (
    (BATTLE_MARK[0], BATTLE_MARK[1], "this battle"),
    (TURN_MARK[0], TURN_MARK[1], "this turn"),
    (CHANGED_MARK[0], CHANGED_MARK[1], "changed"),
    (DIFFERS_MARK[0], DIFFERS_MARK[1], "rolled ≠ corrected"),
    (CONTESTED_MARK[0], CONTESTED_MARK[1], "unresolved"),
    ("~", SEA_STYLE, "sea zone"),
)


def square_style(square: Square, *, sea: bool) -> Style:
    """A cell's colours: its holder's, or the sea's, or a neutral's; dim where not known."""
    if not square.known:
        return UNKNOWN_STYLE
    if sea:
        return SEA_STYLE
    return POWER_STYLES.get(square.holder or "", NEUTRAL_STYLE)


def _cell(point: MapPoint, layout: MapLayout, name: str, focus: str | None) -> Text:
    place = layout.places[name]
    square = point.squares[name]
    left = (BATTLE_MARK if name in point.roles else TURN_MARK if name in point.touched
            else CONTESTED_MARK if name in point.contested else (" ", Style()))
    right = (DIFFERS_MARK if name in point.differs else CHANGED_MARK if name in point.changed
             else UNKNOWN_MARK if not square.known else (" ", Style()))
    style = square_style(square, sea=place.label.endswith("~"))
    if name == point.battle:
        style += Style(bold=True, underline=True)
    if name == focus:
        style += FOCUS
    return Text.assemble(left, (f"{place.label:<{MAX_LABEL}}", style), right)


def window(size: int, total: int, centre: int, *, wrap: bool) -> list[int]:
    """The ``size`` grid indexes (of ``total``) shown around ``centre``: all when they fit;
    else centred, round the edge when the grid wraps, else kept inside it."""
    if size >= total:
        return list(range(total))
    first = centre - size // 2
    if wrap:
        return [(first + k) % total for k in range(size)]
    first = min(max(0, first), total - size)
    return list(range(first, first + size))


def units_cell(square: Square) -> Text:
    """What stands on a square, under its name: each power's counts by type in its colour
    ("3iaA": 3 INF, 1 ARM, an AA gun). A cell holds CELL - 1 letters (a space parts it from the
    next): an industrial complex is left out first, then the rest cut with "…" (the focused
    place's units are spelled out under the map)."""
    cell = Text(no_wrap=True, overflow="crop")
    if not square.known:
        cell.append("?", UNKNOWN_STYLE)
        return cell
    room = CELL - 1
    parts = unit_letters(square.units)
    if sum(len(letters) for _, letters in parts) > room:
        parts = [(power, letters.replace("I", "")) for power, letters in parts]
    for power, letters in parts:
        cell.append(letters, POWER_TEXT.get(power, NEUTRAL_STYLE))
    if cell.cell_len > room:
        cell.truncate(room - 1)
        cell.append("…", TAG_STYLES["dim"])
    return cell


def with_units(height: int, layout: MapLayout) -> bool:
    """Whether ``height`` lines have room for the map with units under the names (two lines a
    row) for UNIT_ROWS rows at least."""
    return (height - FOOT_LINES) // 2 >= min(UNIT_ROWS, layout.rows)


def map_lines(point: MapPoint, layout: MapLayout, focus: str | None, width: int, height: int) -> list[Text]:
    """The map in ``width`` × ``height`` cells: the grid (or a window of it round the focus),
    each place's units under its name when there is room, the legend, and the focused place
    spelled out."""
    units = with_units(height, layout)
    rows_room = max(1, (height - FOOT_LINES) // (2 if units else 1))
    centre = layout.places[focus] if focus is not None else None
    columns = window(max(1, width // CELL), layout.columns, centre.x if centre else 0, wrap=True)
    rows = window(rows_room, layout.rows, centre.y if centre else 0, wrap=False)
    lines: list[Text] = []
    for y in rows:
        line = Text(no_wrap=True, overflow="crop")
        under = Text(" ", no_wrap=True, overflow="crop")
        for x in columns:
            place = layout.at(x, y)
            line.append_text(Text(" " * CELL) if place is None else _cell(point, layout, place.name, focus))
            if units:
                cell = Text(" " * CELL) if place is None else units_cell(point.squares[place.name])
                under.append_text(cell)
                under.append(" " * (CELL - cell.cell_len))
        line.rstrip()
        lines.append(line)
        if units:
            under.rstrip()
            lines.append(under)
    legend = Text(no_wrap=True, overflow="crop")
    unknown = any(not square.known for square in point.squares.values())
    for mark, style, meaning in LEGEND + ((UNKNOWN_LEGEND,) if unknown else ()):
        legend.append(mark, style)
        legend.append(f" {meaning}  ", TAG_STYLES["dim"])
    lines.append(legend)
    lines.extend(focus_lines(point, focus))
    return lines


def focus_lines(point: MapPoint, focus: str | None) -> list[Text]:
    """The focused place: holder and IPC value, what the battle did there, its units (and from
    which record they are known), what it was at the turn's start (at a turn's line: after the last
    battle), and the other history's."""
    if focus is None:
        return []
    square = point.squares[focus]
    head = Text.assemble((focus, "bold"))
    if not square.known:
        head.append(f"  ${square.ipc}  " if square.ipc else "  ", TAG_STYLES["dim"])
        head.append("not known", UNKNOWN_STYLE)
    elif square.holder is not None or square.ipc:
        head.append(f"  ${square.ipc}  ", TAG_STYLES["dim"])
        head.append(square.holder or "neutral", square_style(square, sea=False))
    roles = point.roles.get(focus)
    if roles:
        head.append(f"  · this battle: {', '.join(roles)}", BATTLE_MARK[1])
    elif focus in point.touched:
        head.append("  · a battle of this turn", TURN_MARK[1])
    if focus in point.contested:
        head.append("  × a battle here is not resolved (awaiting dice)", CONTESTED_MARK[1])
    seen = (square.seen or "the Classic setup: no record has changed it yet") if square.known else \
        "the record starts after the setup and names nothing here yet"
    units = Text.assemble(("  units ", TAG_STYLES["dim"]), square_text(square),
                          (f"  ({seen})", TAG_STYLES["dim"]))
    lines = [head, units]
    start = point.start.get(focus)
    if focus in point.changed and start is not None:
        holder = f" ({start.holder})" if start.holder != square.holder and start.known else ""
        lines.append(Text.assemble((f"  * {point.since} ", CHANGED_MARK[1]),
                                   square_text(start) + holder))
    other = point.other.get(focus) if point.other is not None else None
    if focus in point.differs and other is not None:
        name = "as corrected" if point.as_rolled else "as rolled"
        holder = f" ({other.holder or 'neutral'})" if other.holder != square.holder and other.known else ""
        lines.append(Text.assemble((f"  ≠ {name}: ", DIFFERS_MARK[1]),
                                   (square_text(other) + holder, TAG_STYLES["variation"])))
    return lines


class MapPanel(LinesPanel):
    """The board as a map, at the current point of the timeline (``m`` shows it)."""

    DEFAULT_CSS = """
    MapPanel {
        border: round $primary;
        border-title-style: bold;
        padding: 0 1;
        height: 17;
    }
    """

    def __init__(self, *, id: str | None = None, layout: MapLayout | None = None) -> None:
        super().__init__(id=id)
        self._map_layout = layout
        self._maps: dict[int, BoardMaps] = {}
        self._point: MapPoint | None = None
        self._battle_key: tuple[int, str | None, str] | None = None
        #: The place whose holder and units are spelled out under the map.
        self.focus_name: str | None = None
        #: A place asked for by name while the map was hidden (focused when it is shown).
        self._asked: str | None = None
        #: Whether the user asked for the map (``m``); hidden until then.
        self.wanted = False
        self.display = False

    @property
    def map_layout(self) -> MapLayout:
        """The map's layout: the classic board's, read on first use (the panel is hidden until
        ``m``, and reading it is ~0.04 s of the timeline's first paint)."""
        if self._map_layout is None:
            self._map_layout = MapLayout.classic()
        return self._map_layout

    def maps_for(self, timeline: Timeline) -> BoardMaps:
        """The projection for a timeline (kept: its fold is reused from point to point)."""
        found = self._maps.get(id(timeline))
        if found is None or found.timeline is not timeline:
            found = BoardMaps(timeline)
            self._maps[id(timeline)] = found
        return found

    def show(self, timeline: Timeline, index: int) -> None:
        """Show the board at node ``index`` (when the map is wanted)."""
        self.display = self.wanted
        if not self.wanted:
            return
        point = self.maps_for(timeline).at(index) if len(timeline) else None
        self._point = point
        if point is None:
            self.border_title = "Map"
            self.set_content(Text("This game has no battles.", TAG_STYLES["dim"]))
            return
        key = (id(timeline), point.battle, point.turn)
        if key != self._battle_key:
            # A new battle (or turn): the focus goes to where it is fought.
            self._battle_key = key
            self.focus_name = self._asked or point.battle or next(iter(self.interesting()), None)
        self._asked = None
        view = "as rolled" if timeline.as_rolled else "as corrected"
        self.border_title = f"Map · {point.title} · {view}"
        self.redraw()

    @property
    def needed_height(self) -> int:
        """The rows the whole map takes with units under the names (the border's among them)."""
        return 2 * self.map_layout.rows + FOOT_LINES + 2

    def interesting(self) -> list[str]:
        """The places ``[`` and ``]`` step through: those the turn touched, changed, or the two
        histories part on, in reading order (every place when there are none)."""
        point = self._point
        order = self.map_layout.reading_order()
        if point is None:
            return list(order)
        marked = point.touched | point.changed | point.differs
        return [name for name in order if name in marked] or list(order)

    def move_focus(self, delta: int, *, every: bool = False) -> None:
        """Move the focus ``delta`` places on: among the marked places, or among ``every`` one."""
        names = list(self.map_layout.reading_order()) if every else self.interesting()
        if not names or self._point is None:
            return
        focus = self.focus_name
        at = names.index(focus) if focus is not None and focus in names else -1 if delta > 0 else 0
        self.focus_name = names[(at + delta) % len(names)]
        self.redraw()

    def focus_on(self, place: str) -> None:
        """Put the focus on ``place`` (kept for when the map is shown, if it is hidden)."""
        self.focus_name = place
        if self._point is None or not self.display:
            self._asked = place
            return
        self.redraw()

    def place_names(self) -> list[str]:
        """Every place's name, the abbreviations the notation accepts and the map's labels
        (what the "go to place" prompt completes)."""
        board = Board.classic()
        found = [t.name for t in board] + [a for t in board for a in t.abbreviations]
        found += [p.label for p in self.map_layout]
        return list(dict.fromkeys(found))

    def place_named(self, text: str) -> str | None:
        """The place ``text`` names: a label of the map ("Cauc", "Kar~"), else any name the
        notation accepts (projections.find.place_named)."""
        key = text.strip().casefold()
        for place in self.map_layout:
            if key == place.label.casefold():
                return place.name
        return place_named(text)

    def redraw(self) -> None:
        """Lay the map out again for the panel's size."""
        if self._point is None:
            return
        size = self.content_region.size
        width, height = (size.width, size.height) if size.width else (self.map_layout.columns * CELL, 15)
        legend = f"units: {LETTER_LEGEND}" if with_units(height, self.map_layout) else ""
        set_title(self, legend, subtitle=True)
        self.set_content(Group(*map_lines(self._point, self.map_layout, self.focus_name, width, height)))

    def on_resize(self) -> None:
        """A new size: a new window on the grid."""
        self.redraw()
