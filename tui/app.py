"""The terminal timeline: scrub through a game's battles as rolled and as corrected.

The app shows the projections (:mod:`projections.timeline`, :mod:`projections.luck`) of the
review's :class:`~domain.review.views.GameView`; it never reaches into domain internals. The game is read
and reviewed in a worker thread behind a progress bar. Nothing on screen depends on the clock or
on animation, so the same game and keys give the same screen on every run.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Mapping
from datetime import datetime
from typing import ClassVar, TypeVar

import msgspec
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Header, Label, ProgressBar

from domain.errors import MinisterError
from domain.review.views import GameView
from projections.find import names as find_names
from projections.find import unknown_place
from projections.plain import visible
from projections.timeline import Timeline, opening_part
from tui.find_state import FindState
from tui.keys import KEYS, help_rows
from tui.layout import LAYOUT, MAP_KEEPS, MAP_KEEPS_TERRITORIES, NARROW_BELOW, NARROW_PANELS, SHORT_BELOW
from tui.loading import GameSource
from tui.screens.find import FindScreen, PlaceScreen
from tui.screens.help import HelpScreen
from tui.screens.panels import PanelsScreen
from tui.screenshots import screenshot_directory, screenshot_name
from tui.widgets.board import BattleBoard, signatures
from tui.widgets.board_map import MapPanel
from tui.widgets.crumb import Crumb
from tui.widgets.findings import FindingsPanel, pending_notes
from tui.widgets.footer import KeyFooter
from tui.widgets.lines import LinesPanel
from tui.widgets.luck import LuckPanel, preload_odds
from tui.widgets.palette import TimelineCommands
from tui.widgets.repaint import set_title
from tui.widgets.story import StoryPanel
from tui.widgets.territories import TerritoryPanel
from tui.widgets.timeline_view import TimelineView

#: Jumps the ``jump`` action accepts: the Timeline methods of the same name.
JUMPS = ("first", "last", "next_turn", "prev_turn", "next_battle", "prev_battle", "next_round",
         "prev_round", "next_finding", "prev_finding")
#: Actions that need the record as rolled (reviewed after the timeline opens).
NEEDS_BOTH = ("toggle_view", "toggle_diff")
#: Actions that move the map's focus (offered while the map is shown).
MAP_KEYS = ("map_focus", "map_place")
#: Actions of a find (``/``): offered while one is on.
FIND_KEYS = ("find_next", "end_find")
_W = TypeVar("_W", bound=Widget)


class Progress(Message):
    """How far the worker has got (stage, fraction done)."""

    def __init__(self, stage: str, fraction: float) -> None:
        self.stage = stage
        self.fraction = fraction
        super().__init__()


def binding_ids() -> set[str]:
    """Every binding id a keymap may name (the app's, its panels' and its screens')."""
    found: set[str] = set()
    for bindings in (MinisterApp.BINDINGS, FindingsPanel.BINDINGS, HelpScreen.BINDINGS, FindScreen.BINDINGS,
                     PanelsScreen.BINDINGS):
        found.update(b.id for b in bindings if isinstance(b, Binding) and b.id)
    return found


class MinisterApp(App[None]):
    """``minister show``: the timeline, the battle board, findings and rulings, and luck."""

    TITLE = "minister"
    # Textual puts these classes on the screen as the terminal is resized (see CSS below).
    # (Textual declares them as instance attributes: a ClassVar annotation would not type-check.)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT_BELOW, "-tall")]  # noqa: RUF012
    COMMANDS: ClassVar = App.COMMANDS | {TimelineCommands}
    BINDINGS: ClassVar[list[BindingType]] = list(KEYS)

    CSS = LAYOUT

    def __init__(self, source: GameSource, *, keymap: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self._source = source
        self._keymap_given: dict[str, str] = dict(keymap or {})
        if keymap:
            self.set_keymap(keymap)
        self.corrected: GameView | None = None
        #: The record as rolled: None until the worker has reviewed it (after the timeline opens).
        self.rolled: GameView | None = None
        self._timelines: dict[bool, Timeline] = {}
        #: Which history is the main line: False as corrected (the default), True as rolled.
        self.as_rolled = False
        #: Whether the two histories are shown side by side.
        self.diff = False
        #: The panel a narrow screen shows under the timeline (one of NARROW_PANELS).
        self.panel = NARROW_PANELS[0]
        #: The current node of the timeline shown.
        self.position = 0
        #: The find (``/``): n and N go through its matches while it is on.
        self.finding = FindState()
        self.last_message = ""
        self._background = ""
        self._painted = threading.Event()
        #: The opening part a stored game keeps, shown first (None: the review's own opening).
        self._head: GameView | None = None
        #: The pending notes of the view listed in the findings panel, and of the one before.
        self._notes: tuple[GameView, dict[str, str]] | None = None
        self._other_notes: tuple[GameView, dict[str, str]] | None = None
        #: The panels found by ``_one`` (they live as long as the app).
        self._found: dict[str, Widget] = {}

    def _one(self, selector: str, kind: type[_W]) -> _W:
        """``query_one``, kept: the panels live as long as the app, and a query walks the DOM
        (~0.1 ms; a key press asks for ten panels)."""
        found = self._found.get(selector)
        if found is None:
            found = self._found[selector] = self.query_one(selector, kind)
        assert isinstance(found, kind)
        return found

    # -- layout and loading ----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Header, where-am-I line, the loading bar (until loaded), the panels, the key footer."""
        yield Header(show_clock=False)
        yield Crumb("Loading…", id="crumb")
        with Vertical(id="loading"):
            yield Label("Reading the game…", id="loading-stage")
            yield ProgressBar(total=100, show_eta=False, id="progress")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield TimelineView(id="timeline")
                yield LuckPanel(id="luck")
                yield TerritoryPanel(id="territories")
            # The diff's two boards one above the other (no container of their own: the diff
            # resizes it, and a resized container is drawn again, every row hidden behind them).
            with Vertical(id="right"):
                yield BattleBoard(id="board")
                yield BattleBoard(id="other-board")
                yield FindingsPanel(id="findings")
        yield MapPanel(id="map")
        yield StoryPanel(id="story")
        # Held while loading: its keys' recompositions would delay the timeline's first paint.
        yield KeyFooter(held=True)

    def on_mount(self) -> None:
        """Show the opening part a stored game keeps (application/usecases/review_model.py) in
        the first frame, and read the rest in a worker thread once it is painted; anything else
        is read and reviewed in the worker behind the progress bar."""
        opening = getattr(self._source, "opening", None)
        try:
            self._head = opening(lambda stage, fraction: None) if opening is not None else None
        except MinisterError as error:
            self.exit(None, 2, f"minister: {error}")
            return
        if self._head is None:
            self._start_load()
        else:
            self._on_loaded(self._head, Timeline(self._head), "reading the rest of the game…")

    def _start_load(self) -> None:
        self.run_worker(self._load, thread=True, exclusive=True, name="load", group="load")

    @property
    def ready(self) -> bool:
        """Whether both histories are loaded (the ``v`` switch and the diff need both)."""
        return self.rolled is not None

    def _load(self) -> None:
        """Worker: the corrected history first (the timeline opens on it), then the record as rolled."""
        def report(stage: str, fraction: float) -> None:
            # post_message is thread-safe and does not wait for the screen (call_from_thread would).
            self.post_message(Progress(stage, fraction))

        try:
            head = self._head
            if head is not None:
                preload_odds()  # painted: the luck panel's odds need numpy before the first key
            corrected = self._source.corrected(report)
            # A big game is millions of objects that live as long as the app: keep the cyclic
            # garbage collector from walking them again and again (its pauses show on key presses).
            gc.freeze()
            if head is None:
                report("Laying out the timeline", 0.9)
                # Open on the first battles at once; lay out the rest while the user looks around.
                head = opening_part(corrected)
                self.call_from_thread(self._on_loaded, corrected, Timeline(head))
                self._painted.wait(timeout=5.0)  # the first paint has the interpreter to itself
                preload_odds()
            if head is not corrected:
                self.call_from_thread(self._replace, Timeline(corrected), "reviewing the record as rolled…",
                                      corrected)
            rolled = self._source.as_rolled(lambda stage, fraction: None)
            both = Timeline(corrected, rolled)
            # The record as the main line too, so the first ``v`` does not wait for its layout.
            record = Timeline(rolled, corrected)
            gc.freeze()
        except MinisterError as error:
            self.call_from_thread(self.exit, None, 2, f"minister: {error}")
            return
        self.call_from_thread(self._on_complete, rolled, both, record)

    def on_progress(self, message: Progress) -> None:
        """The loader's progress, on the loading screen."""
        if self.current_timeline is not None:
            return
        self.query_one("#loading-stage", Label).update(message.stage)
        self.query_one("#progress", ProgressBar).update(progress=round(100 * message.fraction))

    def _on_loaded(self, corrected: GameView, timeline: Timeline, background: str | None = None) -> None:
        self.corrected = corrected
        self._timelines[False] = timeline
        self.title = f"minister · {visible(corrected.title or corrected.game_id)}"
        self.query_one("#loading").display = False
        self.query_one("#main").display = True
        self._background = background or ("laying out the rest of the game…" if len(timeline.main.battles)
                                          < len(corrected.battles) else "reviewing the record as rolled…")
        self._show(timeline, timeline.opening())
        self._one("TimelineView", TimelineView).focus()
        self.call_after_refresh(self._after_first_paint)

    def _after_first_paint(self) -> None:
        """The timeline is on screen: the worker may go on (or start, after a stored opening), the
        footer may show the new keys."""
        self._painted.set()
        self.query_one(KeyFooter).release()
        if self._head is not None:
            self._start_load()

    def _on_complete(self, rolled: GameView, timeline: Timeline, record: Timeline) -> None:
        """The record as rolled is in: swap in the timeline with its variations."""
        self.rolled = rolled
        self._timelines.setdefault(True, record)
        self._replace(timeline, "")
        self.refresh_bindings()

    def _replace(self, timeline: Timeline, background: str, corrected: GameView | None = None) -> None:
        """A fuller corrected timeline is ready: show it in place of the one shown, keeping the place."""
        if corrected is not None:
            self.corrected = corrected
        self._background = background
        previous = self._timelines.get(False)
        self._timelines[False] = timeline
        if not self.as_rolled:
            key = previous.key(self.position) if previous is not None and len(previous) else None
            self._show(timeline, timeline.locate(key) if key is not None else timeline.opening())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The switch and the diff wait for the record as rolled (shown greyed out until then)."""
        if action in NEEDS_BOTH and not self.ready:
            return None
        if action == "cycle_panel":
            # A wide screen shows every panel: no key needed; a narrow one shows the map in their
            # place while it is on.
            return self.narrow and not self._one("MapPanel", MapPanel).wanted
        if action in FIND_KEYS:
            return self.finding.on
        if action in MAP_KEYS:
            return self._one("MapPanel", MapPanel).wanted
        return True

    @property
    def narrow(self) -> bool:
        """Whether the panels are stacked (the terminal is narrower than NARROW_BELOW)."""
        return self.size.width < NARROW_BELOW

    def on_resize(self) -> None:
        """The ``p`` key shows in the footer only on a narrow screen."""
        self.refresh_bindings()
        footer = self.query_one(Footer)
        footer.compact = self.narrow  # so more keys fit in the width
        footer.show_command_palette = not self.narrow
        self._fit_map()

    def _fit_map(self) -> None:
        """The map's height on a wide, tall screen: the whole map with each place's units when
        the panels above keep MAP_KEEPS rows (the board around the battle folded away unless
        they keep MAP_KEEPS_TERRITORIES); a narrow or short screen shares its rows (layout.py).
        Nothing while the map is hidden: its layout is read on the first ``m``, not before the
        first paint."""
        board_map = self._one("MapPanel", MapPanel)
        if not board_map.wanted:
            return
        territories = self._one("TerritoryPanel", TerritoryPanel)
        if self.narrow or self.size.height < SHORT_BELOW:
            board_map.styles.clear_rule("height")
            territories.set_class(False, "-folded")
            return
        room = self.size.height - 3  # the title bar, the where-am-I line and the footer
        height = max(0, min(board_map.needed_height, room - MAP_KEEPS))
        board_map.styles.height = height
        territories.set_class(room - height < MAP_KEEPS_TERRITORIES, "-folded")

    # -- state -----------------------------------------------------------------------------------
    @property
    def current_timeline(self) -> Timeline | None:
        """The timeline shown (None while loading)."""
        return self._timelines.get(self.as_rolled)

    def timeline_for(self, as_rolled: bool) -> Timeline:
        """The timeline with the given history as main line (the as-rolled one made on first use)."""
        found = self._timelines.get(as_rolled)
        if found is None:
            assert self.corrected is not None and self.rolled is not None
            main, other = ((self.rolled, self.corrected) if as_rolled else (self.corrected, self.rolled))
            found = Timeline(main, other)
            self._timelines[as_rolled] = found
        return found

    def _mode(self, as_rolled: bool) -> str:
        return "as rolled (the record)" if as_rolled else "as corrected (main line)"

    def _show(self, timeline: Timeline, index: int) -> None:
        view = self._one("TimelineView", TimelineView)
        set_title(view, f"Timeline · {self._mode(self.as_rolled)}")
        view.show(timeline, index)
        findings = self._one("FindingsPanel", FindingsPanel)
        findings.show(timeline.main.findings, as_rolled=timeline.as_rolled,
                      papers=self.corrected.papers if self.corrected else (),
                      pending=self._pending_notes(timeline.main))
        self.position = view.cursor
        self._refresh_point()

    def _pending_notes(self, view: GameView) -> dict[str, str]:
        """The view's pending notes (findings.pending_notes), read once per view: ``v`` shows
        each history's list again and again, and reading them walks every battle (~1 ms)."""
        kept = self._notes
        if kept is None or kept[0] is not view:
            other = self._other_notes
            kept = other if other is not None and other[0] is view else (view, pending_notes(view))
            self._other_notes, self._notes = self._notes, kept
        return kept[1]

    def goto(self, index: int) -> None:
        """Move the timeline to node ``index`` and show that point everywhere."""
        timeline = self.current_timeline
        if timeline is None or not len(timeline):
            return
        index = min(max(0, index), len(timeline) - 1)
        if index == self.position:
            return
        self.position = index
        self._one("TimelineView", TimelineView).move_to(index)
        self._refresh_point()

    def _refresh_point(self, *, relayout: bool = False) -> None:
        """Show the current point in every panel (``relayout``: the boards are about to change
        size, so they are drawn once, at their new size)."""
        timeline = self.current_timeline
        if timeline is None:
            return
        crumb = self._one("#crumb", Crumb)
        if not len(timeline):
            crumb.show("This game has no battles.")
            return
        i = self.position
        notes = (self.last_message, self.finding.note(timeline, i), self._background)
        note = "".join(f"   ·   {text}" for text in notes if text)
        # Record text: control characters made visible.
        crumb.show(visible(f"{timeline.path(i)}   ·   point {i + 1} of {len(timeline)}{note}"))
        self.last_message = ""
        board = self._one("#board", BattleBoard)
        other_board = self._one("#other-board", BattleBoard)
        if self.diff:
            other = self.timeline_for(not self.as_rolled)
            j = other.locate(msgspec.structs.replace(timeline.key(i), as_rolled=other.as_rolled))
            board.show(timeline, i, title=f"Board · {self._mode(self.as_rolled)}", compact=True,
                       compare=signatures(other, j), relayout=relayout)
            other_board.show(other, j, title=f"Board · {self._mode(not self.as_rolled)}", compact=True,
                             compare=signatures(timeline, i), relayout=relayout)
        else:
            board.show(timeline, i, title=f"Battle board · {self._mode(self.as_rolled)}", relayout=relayout)
        findings = timeline.findings_at(i) or timeline.findings_of(i)
        self._one("FindingsPanel", FindingsPanel).mark(findings[0].id if findings else None)
        self._one("LuckPanel", LuckPanel).show(timeline, i)
        self._one("TerritoryPanel", TerritoryPanel).show(timeline, i)
        self._one("MapPanel", MapPanel).show(timeline, i)
        self._one("StoryPanel", StoryPanel).show(timeline, i)

    # -- actions ---------------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        """Move ``delta`` points along the line."""
        timeline = self.current_timeline
        if timeline is not None:
            self.goto(timeline.step(self.position, delta))

    def action_jump(self, where: str) -> None:
        """Jump: first, last, or next/previous turn, battle, round or finding."""
        timeline = self.current_timeline
        if timeline is None or where not in JUMPS:
            return
        if where in ("first", "last"):
            target = timeline.first() if where == "first" else timeline.last()
        else:
            target = getattr(timeline, where)(self.position)
        if target == self.position and where.endswith("finding"):
            self.last_message = "no further finding" if where.startswith("next") else "no earlier finding"
            self._refresh_point()
        self.goto(target)

    def action_toggle_view(self) -> None:
        """Switch the main line between as corrected and as rolled, keeping the place."""
        timeline = self.current_timeline
        if timeline is None:
            return
        key = timeline.key(self.position) if len(timeline) else None
        self.as_rolled = not self.as_rolled
        target = self.timeline_for(self.as_rolled)
        # Land on the other history at the same point (its main line), not on the variation.
        if key is not None:
            key = msgspec.structs.replace(key, as_rolled=target.as_rolled)
        self._show(target, target.locate(key) if key is not None else 0)

    def action_toggle_map(self) -> None:
        """Show or hide the board: the map, and the territories around the current battle."""
        panel = self._one("TerritoryPanel", TerritoryPanel)
        panel.wanted = not panel.wanted
        if panel.wanted and self._one("StoryPanel", StoryPanel).wanted:
            self.action_toggle_story()  # one picture under the panels at a time
        board_map = self._one("MapPanel", MapPanel)
        board_map.wanted = panel.wanted
        self._fit_map()
        self.screen.set_class(panel.wanted, "-map")
        timeline = self.current_timeline
        if timeline is not None:
            if len(timeline):
                panel.show(timeline, self.position, again=True)
            board_map.show(timeline, self.position)
        self.refresh_bindings()

    def action_toggle_story(self) -> None:
        """Show or hide the game's story; its battles' odds are worked out in a thread."""
        story = self._one("StoryPanel", StoryPanel)
        story.wanted = not story.wanted
        if story.wanted and self._one("MapPanel", MapPanel).wanted:
            self.action_toggle_map()  # one picture under the panels at a time
        # On the panels' row, not the screen: a screen's class restyles every widget (~20 ms).
        self.query_one("#main").set_class(story.wanted, "-story")
        timeline = self.current_timeline
        if timeline is not None:
            story.show(timeline, self.position)
        story.start_odds()

    def on_story_panel_selected(self, message: StoryPanel.Selected) -> None:
        """A click on the story: the timeline goes to that battle or turn."""
        self.goto(message.node)

    def action_map_focus(self, delta: int, every: bool = False) -> None:
        """Move the map's focus to the next (``delta`` 1) or previous place: among those the turn
        touched or changed, or among ``every`` place of the board."""
        self._one("MapPanel", MapPanel).move_focus(delta, every=every)

    def action_toggle_diff(self) -> None:
        """Show or hide the other history's board under this one (a narrow screen shows the
        boards in place of the panel or the map it showed)."""
        if self.current_timeline is None:
            return
        self.diff = not self.diff
        if self.diff and self.narrow:
            if self._one("MapPanel", MapPanel).wanted:
                self.action_toggle_map()
            if self.panel != NARROW_PANELS[0]:
                self._set_panel(NARROW_PANELS[0])
        # Only the boards change size (the findings are folded away): the timeline's column keeps
        # its width (narrowing it restyled, laid out and redrew the timeline, the luck and the
        # findings, ~2/3 of a press).
        # (A class on the board alone: one on the screen restyles every widget, several times the press.)
        self._one("#other-board", BattleBoard).set_class(self.diff, "-shown")
        findings = self._one("FindingsPanel", FindingsPanel)
        if self.diff:
            findings.display = False
        else:  # the layout's rules say again whether it is shown (narrow: only as the panel)
            findings.styles.clear_rule("display")
            findings.refresh(layout=True)
        self._refresh_point(relayout=True)

    def action_cycle_panel(self) -> None:
        """Narrow screen: show the next panel (board, findings, luck) under the timeline."""
        self._set_panel(NARROW_PANELS[(NARROW_PANELS.index(self.panel) + 1) % len(NARROW_PANELS)])
        self._refresh_point()

    def _set_panel(self, panel: str) -> None:
        """The panel a narrow screen shows under the timeline."""
        self.panel = panel
        main = self.query_one("#main")
        for name in NARROW_PANELS[1:]:
            main.set_class(self.panel == name, f"-{name}")

    def action_find(self) -> None:
        """Ask what to find (projections.find: a place, a power, a unit, a finding kind, a turn,
        any text) and move to the next point naming it; n and N then go through the matches."""
        timeline = self.current_timeline
        if timeline is None:
            return

        def asked(query: str | None) -> None:
            shown = self.current_timeline
            if not query or not query.strip() or shown is None:
                return
            found = self.finding.start(shown, query)
            self.refresh_bindings()
            if found is None:
                self.last_message = f"“{visible(self.finding.query)}” not found"
                self._refresh_point()
                return
            self.action_find_next(1)
            if found.place is not None:  # the map's focus goes to the place found
                self._one("MapPanel", MapPanel).focus_on(found.place)

        self.push_screen(FindScreen(self.finding.query, find_names(timeline)), asked)

    def action_find_next(self, delta: int) -> None:
        """n / N while a find is on: the next (``delta`` 1) or previous match, round the ends."""
        timeline = self.current_timeline
        if timeline is None:
            return
        target = self.finding.step(timeline, self.position, delta)
        if target is None:
            self.last_message = f"“{visible(self.finding.query)}”: no match in this history"
        if target is None or target == self.position:
            self._refresh_point()  # the note says so
        else:
            self.goto(target)

    def action_end_find(self) -> None:
        """Escape: the find ends; n and N go to the findings again."""
        self.finding.end()
        self.refresh_bindings()
        self._refresh_point()

    def action_map_place(self) -> None:
        """Ask for a territory or sea zone by name (completed as typed) and focus the map on it."""
        board_map = self._one("MapPanel", MapPanel)

        def asked(place: str | None) -> None:
            if place is not None:
                board_map.focus_on(place)

        self.push_screen(PlaceScreen(board_map.place_names(), board_map.place_named, unknown_place), asked)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Save an SVG of the screen (the command palette's "Screenshot") under an ASCII name in
        the Downloads or minister's data folder (tui/screenshots.py); Textual says where."""
        folder = path if path is not None else str(screenshot_directory())
        game = self.corrected.game_id if self.corrected is not None else "loading"
        name = filename or screenshot_name(game, datetime.now())
        return super().deliver_screenshot(name, folder, time_format)

    def help_keys(self) -> list[tuple[str, str]]:
        """Each binding's keys (as remapped) and description, for the help screen."""
        return help_rows(self.BINDINGS, self._keymap_given, self.get_key_display)

    def action_full_panels(self) -> None:
        """z: every panel shown (the map aside), whole, each under its title."""
        order = ("#board", "#other-board", "TerritoryPanel", "LuckPanel")
        shown = [self._one(selector, LinesPanel) for selector in order]
        # (The board around the battle is folded away under a big map: shown here all the same.)
        panels = [(str(panel.border_title or ""), panel.content) for panel in shown
                  if panel.display and (panel.region.height or panel.has_class("-folded"))]
        self.push_screen(PanelsScreen(panels))

    def action_help(self) -> None:
        """Show the keys and the legend."""
        self.push_screen(HelpScreen(self.help_keys()))

    # -- messages --------------------------------------------------------------------------------
    def on_timeline_view_moved(self, message: TimelineView.Moved) -> None:
        """A click on the timeline."""
        self.goto(message.index)

    def on_findings_panel_selected(self, message: FindingsPanel.Selected) -> None:
        """Enter on a finding: move the timeline to it."""
        timeline = self.current_timeline
        if timeline is None:
            return
        index = timeline.finding_node(message.finding_id)
        if index is not None:
            self.goto(index)
