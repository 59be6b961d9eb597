"""Command palette commands (ctrl+p): go to a turn, a battle or a finding."""

from __future__ import annotations

from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from projections.timeline import Timeline

#: Entries the palette offers before anything is typed (a big game has thousands of battles).
DISCOVER_LIMIT = 30


@runtime_checkable
class Navigable(Protocol):
    """What the commands need of the app: its timeline and a way to move along it."""

    @property
    def current_timeline(self) -> Timeline | None:
        """The timeline shown, if loaded."""
        ...

    def goto(self, index: int) -> None:
        """Move the timeline to node ``index``."""
        ...


def palette_entries(timeline: Timeline) -> list[tuple[str, str, int]]:
    """(command text, help, node index) for every turn, finding and battle, in that order."""
    entries: list[tuple[str, str, int]] = []
    for turn in timeline.turns:
        node = timeline.turn_node(turn)
        if node is not None:
            entries.append((f"Go to turn {turn}", "the turn's battles", node))
    for finding in timeline.main.findings:
        node = timeline.finding_node(finding.id)
        if node is not None:
            where = " ".join(x for x in (finding.turn, finding.battle) if x)
            entries.append((f"Go to finding {finding.id} {finding.kind}" + (f" ({where})" if where else ""),
                            finding.detail, node))
    for b, battle in enumerate(timeline.main.battles):
        entries.append((f"Go to battle {battle.turn}: {battle.battle}", f"{battle.kind}, {battle.status}",
                        timeline.battle_node(b)))
    return entries


class TimelineCommands(Provider):
    """"Go to turn …", "Go to battle …", "Go to finding …"."""

    _entries: list[tuple[str, str, int]]

    async def startup(self) -> None:
        """Gather the entries of the timeline shown when the palette opens."""
        app = self.app
        timeline = app.current_timeline if isinstance(app, Navigable) else None
        self._entries = palette_entries(timeline) if timeline is not None else []

    def _go(self, index: int) -> None:
        app = self.app
        if isinstance(app, Navigable):
            app.goto(index)

    async def discover(self) -> Hits:
        """The first turns and findings, before anything is typed."""
        for text, help_text, index in self._entries[:DISCOVER_LIMIT]:
            yield DiscoveryHit(text, partial(self._go, index), help=help_text)

    async def search(self, query: str) -> Hits:
        """Entries matching what was typed."""
        matcher = self.matcher(query)
        for text, help_text, index in self._entries:
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(self._go, index), text=text, help=help_text)
