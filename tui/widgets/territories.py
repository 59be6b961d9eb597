"""The board around the current battle: the territories it touched, who held them and what stood
there before the declaration and after the battle, with the moves drawn as a small map.

The lines are made by :func:`territory_lines` (pure: the battle's
:class:`~domain.review.views.PlaceView` values, read from the view's board history by
:func:`projections.board_map.battle_places`, in; tagged spans out), so what the panel says is
tested without a terminal. Where the other history (as rolled against as corrected) leaves a
territory otherwise, its line follows in the variation style.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from domain.review.views import PlaceView
from projections.board_map import battle_places
from projections.timeline import Span, Timeline
from tui.widgets.lines import LinesPanel
from tui.widgets.repaint import set_title
from tui.widgets.styles import spans_text
from tui.widgets.treasury import treasury_lines


def _units(holders: tuple[tuple[str, object], ...]) -> str:
    return "; ".join(f"{power} {units}" for power, units in holders if str(units)) or "empty"


def move_map(places: tuple[PlaceView, ...]) -> list[list[Span]]:
    """The battle's moves drawn on the map's graph: origins into the battle territory, the
    retreat and the aircraft's landings out of it (``places``: the battle's, its own first)."""
    if not places:
        return []
    centre = places[0]
    lines: list[list[Span]] = []
    for place in places:
        if "origin" in place.roles or "zone" in place.roles:
            lines.append([(place.territory, "text"), (" ──▶ ", "dim"), (centre.territory, "title")])
    for place in places:
        for role in ("retreat", "landing"):
            if role in place.roles:
                lines.append([(centre.territory, "title"), (" ──▶ ", "dim"), (place.territory, "text"),
                              (f" ({role})", "dim")])
    return lines


def territory_lines(places: tuple[PlaceView, ...], other: tuple[PlaceView, ...],
                    other_name: str) -> list[list[Span]]:
    """For each territory the battle touched (``places``): holder and IPC value, units before
    and after; the other history's (``other``: its places of the same battle) "after" where it
    differs."""
    lines: list[list[Span]] = []
    theirs = {p.territory: p for p in other}
    for place in places:
        lines.append(_heading(place))
        lines.append([("  before ", "dim"), (_units(place.before), "text")])
        lines.append([("  after  ", "dim"), (_units(place.after), "text")])
        alt = theirs.get(place.territory)
        if alt is not None and (alt.after, alt.holder_after) != (place.after, place.holder_after):
            holder = f" ({alt.holder_after})" if alt.holder_after != place.holder_after else ""
            lines.append([(f"  {other_name}: ", "variation"), (_units(alt.after) + holder, "variation")])
    return lines


def _heading(place: PlaceView) -> list[Span]:
    spans: list[Span] = [(place.territory, "title")]
    if place.holder_before is None and place.holder_after is None:
        return spans  # a sea zone
    spans.append((f"  ${place.ipc}  ", "dim"))
    if place.holder_before != place.holder_after:
        spans.append((f"{place.holder_before} → {place.holder_after}", "hit"))
    else:
        spans.append((str(place.holder_after), "text"))
    return spans


class TerritoryPanel(LinesPanel):
    """The territories the current battle touched, as the board stood before and after it."""

    DEFAULT_CSS = """
    TerritoryPanel {
        border: round $primary;
        border-title-style: bold;
        padding: 0 1;
        height: auto;
        max-height: 16;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[int, int] | None = None
        #: Whether the user asked for the panel (``m``); hidden until then, to leave the room.
        self.wanted = False
        self.display = False

    def show(self, timeline: Timeline, index: int, *, again: bool = False) -> None:
        """Show the board around the battle at node ``index`` (nothing changes within a battle)."""
        if not self.wanted:
            # Hidden (``m`` not pressed): nothing to work out; ``m`` shows it with ``again``.
            self._shown = None
            self.display = False
            return
        b = timeline.nodes[index].battle if len(timeline) else -1
        key = (id(timeline), b)
        if key == self._shown and not again:
            return
        self._shown = key
        battle = timeline.main.battles[b] if b >= 0 else None
        places = battle_places(timeline.main, b) if battle is not None else ()
        # Shown when asked for, where the review knows the board around the battle.
        self.display = self.wanted and bool(places)
        if battle is None or not places:
            self.set_content(Text())
            return
        view = "as rolled" if timeline.as_rolled else "as corrected"
        other_name = "as corrected" if timeline.as_rolled else "as rolled"
        set_title(self, f"Board · {battle.battle} · {view}")
        other = timeline.other_battle(b)
        paired = timeline.paired(b)
        theirs = battle_places(timeline.other, paired) if timeline.other is not None and paired >= 0 else ()
        rows = move_map(places) + territory_lines(places, theirs, other_name) + \
            treasury_lines(battle, other, other_name)
        self.set_content(Group(*(spans_text(row) for row in rows)))
        self.refresh(layout=True)  # (as tall as its lines, up to its max-height)
