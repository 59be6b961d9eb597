"""The find in the timeline (``/``, then ``n`` / ``N``): the query, its matches in the timeline
they were found in, and the note the where-am-I line shows (projections.find reads the query)."""

from __future__ import annotations

from projections.find import Found, find
from projections.plain import visible
from projections.timeline import Timeline


class FindState:
    """The find on, if any: ``found`` is None until a query matches and after ``end``."""

    def __init__(self) -> None:
        #: The last query asked for (the prompt offers it again).
        self.query = ""
        self.found: Found | None = None
        self._timeline: Timeline | None = None

    @property
    def on(self) -> bool:
        """Whether a find is on (n and N go through its matches)."""
        return self.found is not None

    def start(self, timeline: Timeline, query: str) -> Found | None:
        """Find ``query`` in ``timeline``; None (and no find on) when nothing matches."""
        self.query = query.strip()
        self.found = self._find(timeline)
        if not self.found:
            self.end()
        return self.found

    def _find(self, timeline: Timeline) -> Found:
        self._timeline = timeline
        return find(timeline, self.query)

    def step(self, timeline: Timeline, position: int, delta: int) -> int | None:
        """The next (``delta`` 1) or previous match from ``position``, round the ends, in
        ``timeline`` (found again there when it is the other history's); None: none there."""
        if self.found is None:
            return None
        if self._timeline is not timeline:
            self.found = self._find(timeline)
        return self.found.after(position) if delta > 0 else self.found.before(position)

    def end(self) -> None:
        """No find on any more."""
        self.found = self._timeline = None

    def note(self, timeline: Timeline, i: int) -> str:
        """"find Karelia S.S.R.: 2 of 3 · n/N · esc ends" (the query quoted when read as text)."""
        found = self.found
        if found is None or self._timeline is not timeline:
            return ""
        k = found.ordinal(i)
        where = f"{k} of {len(found.nodes)}" if k else f"{len(found.nodes)} matches"
        return f"find {visible(found.summary)}: {where} · n/N · esc ends"
