"""Luck at a glance: each side's hits against the hits its dice should score."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from domain.review.views import BattleView
from projections.luck import BattleLuck, SideLuck, battle_luck, signed_bars
from projections.timeline import Timeline
from tui.widgets.lines import LinesPanel
from tui.widgets.repaint import set_title
from tui.widgets.styles import TAG_STYLES

#: Battles either side of the current one in the per-battle plot.
NEIGHBOURS = 12
#: Widest bar, in cells.
MAX_BAR = 24


def preload_odds() -> None:
    """Import numpy now (~0.1 s), which the odds of a battle's luck need: the timeline's loader
    thread calls this after the first paint, so the first battle shown does not wait for it on a
    key press (domain/odds imports numpy only when it computes)."""
    import numpy  # noqa: F401


def _bar(value: float, scale: float, width: int) -> str:
    cells = value / scale * width if scale else 0.0
    full = int(cells)
    eighths = "▏▎▍▌▋▊▉"
    part = int((cells - full) * 8)
    return "█" * full + (eighths[part - 1] if part else "")


def _chance(luck: SideLuck) -> str:
    if luck.hits >= luck.expected:
        return f"{luck.hits} or more hits: {luck.at_least():.0%} chance"
    return f"{luck.hits} or fewer hits: {luck.at_most():.0%} chance"


def luck_lines(luck: BattleLuck, *, bar: int = MAX_BAR) -> list[Text]:
    """For each side: hits and expected hits as bars, the surplus and how likely such a score was."""
    scale = max(1.0, luck.attacker.hits, luck.defender.hits, luck.attacker.expected,
                luck.defender.expected)
    lines = []
    for name, side in (("Attacker", luck.attacker), ("Defender", luck.defender)):
        head = Text(f"{name}: ", "bold")
        head.append(f"{side.hits} hit{'s' if side.hits != 1 else ''}, {side.expected:.1f} expected "
                    f"({side.dice} dice)")
        lines.append(head)
        if side.dice == 0:
            lines.append(Text("  threw no dice", TAG_STYLES["dim"]))
            continue
        lines.append(Text.assemble(" hits     ", (_bar(side.hits, scale, bar), TAG_STYLES["hit"])))
        lines.append(Text.assemble((" expected ", TAG_STYLES["dim"]), (_bar(side.expected, scale, bar), "")))
        lines.append(Text(f" {side.surplus:+.1f} · {_chance(side)}", TAG_STYLES["dim"]))
    return lines


class LuckPanel(LinesPanel):
    """Hits against expected hits in the current battle, and the attacker's luck battle by battle."""

    DEFAULT_CSS = """
    LuckPanel {
        border: round $primary;
        border-title-style: bold;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: Each battle's luck by the battle's id, with the battle (its id is the battle's only
        #: while it lives: a timeline replaced by a fuller one takes its battles with it).
        self._cache: dict[int, tuple[BattleView, BattleLuck]] = {}
        self._shown: tuple[int, int, int] | None = None
        self._last: tuple[Timeline, int] | None = None
        #: Whether the panel has drawn (the first draw waits for the app's first paint).
        self._started = False

    def luck(self, timeline: Timeline, b: int) -> BattleLuck:
        """The luck of main battle ``b`` (worked out once for each battle: a pure function of
        the battle, which is immutable)."""
        battle = timeline.main.battles[b]
        found = self._cache.get(id(battle))
        if found is None or found[0] is not battle:
            found = self._cache[id(battle)] = (battle, battle_luck(battle))
        return found[1]

    def show(self, timeline: Timeline, index: int) -> None:
        """Show the luck of the battle at node ``index`` (nothing changes within one battle)."""
        self._last = (timeline, index)
        if not self._started:
            # The odds (the chance of such a score) import numpy, ~0.1 s: drawn just after the
            # timeline's first paint rather than before it.
            self._started = True
            self.call_after_refresh(self._first_draw)
            return
        b = timeline.nodes[index].battle if len(timeline) else -1
        width = self.content_region.width
        key = (id(timeline), b, width)
        if key == self._shown:
            return
        self._shown = key
        bar = max(4, min(MAX_BAR, width - 11))
        self.set_content(self._luck_content(timeline, b, bar))

    def _first_draw(self) -> None:
        if self._last is not None:
            self.show(*self._last)

    def on_resize(self) -> None:
        """Redraw the bars to the new width."""
        if self._last is not None:
            self.show(*self._last)

    def _luck_content(self, timeline: Timeline, b: int, bar: int) -> RenderableType:
        if b < 0:
            set_title(self, "Luck")
            return Text("Pick a battle to see its luck: hits against the hits its dice should score.",
                        TAG_STYLES["dim"])
        battle = timeline.main.battles[b]
        set_title(self, f"Luck · {battle.battle}")
        parts: list[RenderableType] = list(luck_lines(self.luck(timeline, b), bar=bar))
        low = max(0, b - NEIGHBOURS)
        high = min(len(timeline.main.battles), b + NEIGHBOURS + 1)
        surplus = [self.luck(timeline, i).attacker.surplus - self.luck(timeline, i).defender.surplus
                   for i in range(low, high)]
        upper, lower = signed_bars(surplus)
        parts.append(Text("Luck by battle (attacker − defender):", TAG_STYLES["dim"]))
        parts.append(Text(" " + upper, TAG_STYLES["hit"]))
        parts.append(Text(" " + lower, TAG_STYLES["finding"]))
        parts.append(Text(" " + " " * (b - low) + "▲ this battle", TAG_STYLES["dim"]))
        return Group(*parts)
