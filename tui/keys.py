"""The timeline's keys: each binding with an id (users remap keys by id, ``--keymap``) and the
longer text the help screen shows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from textual.binding import Binding, BindingType


def _binding(keys: str, action: str, description: str, binding_id: str, help_text: str, *,
             display: str | None = None, show: bool = True) -> Binding:
    """A binding with an id (users remap keys by id) and a longer text for the help screen."""
    return Binding(keys, action, description, show=show, key_display=display, id=binding_id,
                   tooltip=help_text)


#: The app's bindings, in the footer's order (a narrow footer shows only the first few).
KEYS: tuple[Binding, ...] = (
    _binding("right,l,j,down", "step(1)", "next", "timeline.next", "step forward", display="→"),
    _binding("left,h,k,up", "step(-1)", "prev", "timeline.previous", "step back", display="←"),
    # Help and the panel key come early: a narrow footer shows only the first few keys.
    _binding("f1,question_mark", "help", "help", "app.help", "this help", display="?"),
    _binding("p", "cycle_panel", "panel", "view.panel",
             "narrow terminal: show the board, the findings or the luck under the timeline"),
    _binding("home,g", "jump('first')", "first", "timeline.first", "the start", show=False),
    _binding("end,G", "jump('last')", "last", "timeline.last", "the end", show=False),
    _binding("t", "jump('next_turn')", "turn", "timeline.next_turn", "next turn"),
    _binding("T", "jump('prev_turn')", "prev turn", "timeline.previous_turn", "previous turn",
             show=False),
    _binding("b", "jump('next_battle')", "battle", "timeline.next_battle", "next battle"),
    _binding("B", "jump('prev_battle')", "prev battle", "timeline.previous_battle", "previous battle",
             show=False),
    _binding("r", "jump('next_round')", "round", "timeline.next_round", "next round"),
    _binding("R", "jump('prev_round')", "prev round", "timeline.previous_round", "previous round",
             show=False),
    # While a find is on (``/``), n and N go through its matches (these come first for the keys).
    _binding("n", "find_next(1)", "match", "find.next", "find: the next match"),
    _binding("N", "find_next(-1)", "prev match", "find.previous", "find: the previous match", show=False),
    _binding("n", "jump('next_finding')", "finding", "timeline.next_finding", "next finding"),
    _binding("N", "jump('prev_finding')", "prev finding", "timeline.previous_finding",
             "previous finding", show=False),
    _binding("v", "toggle_view", "rolled/corrected", "view.toggle",
             "switch the main line: as corrected / as rolled"),
    _binding("d", "toggle_diff", "diff", "view.diff", "both histories side by side at this point"),
    _binding("slash", "find", "find", "timeline.find", "find what a player names: a territory or sea zone "
             "(any abbreviation), a power, a unit, a finding kind, a turn, or any text", display="/"),
    _binding("escape", "end_find", "end find", "find.end", "end the find (n and N go to findings again)",
             display="esc", show=False),
    _binding("c", "toggle_story", "story", "view.story",
             "the game's story: every battle's odds as declared against its result as rolled and as "
             "corrected, each power's income turn by turn (a click on a column goes there)", show=False),
    _binding("z", "full_panels", "in full", "view.full",
             "every panel in full (a panel too short for its content says how many lines it leaves out)",
             show=False),
    _binding("q", "quit", "quit", "app.quit", "quit"),
    _binding("m", "toggle_map", "map", "view.map", "the board: the map at this point (holders, the "
             "battle's and the turn's places, what changed, rolled ≠ corrected) and the territories "
             "the battle touched, before and after"),
    _binding("right_square_bracket", "map_focus(1)", "place", "map.next",
             "map: focus the next place the turn touched or changed", display="]"),
    _binding("left_square_bracket", "map_focus(-1)", "prev place", "map.previous",
             "map: focus the previous place the turn touched or changed", display="[", show=False),
    _binding("f", "map_place", "go to place", "map.place",
             "map: go to a territory or sea zone by its name (completed as you type)"),
    _binding("right_curly_bracket", "map_focus(1, True)", "any place", "map.next_any",
             "map: focus the next place of the whole board, row by row", display="}", show=False),
    _binding("left_curly_bracket", "map_focus(-1, True)", "any place", "map.previous_any",
             "map: focus the previous place of the whole board, row by row", display="{", show=False),
)


def help_rows(bindings: Iterable[BindingType], remapped: Mapping[str, str],
              display: Callable[[Binding], str]) -> list[tuple[str, str]]:
    """Each binding's keys (``remapped`` by id, as ``--keymap`` gave them, shown by the app's
    ``display``) and description with its id, for the help screen; then the palette and Tab."""
    rows: list[tuple[str, str]] = []
    for binding in bindings:
        assert isinstance(binding, Binding)
        keys = remapped.get(binding.id or "", binding.key)
        shown = ", ".join(display(Binding(k.strip(), "")) for k in keys.split(","))
        rows.append((shown, f"{binding.tooltip or binding.description}  [{binding.id}]"))
    palette = display(Binding("ctrl+p", ""))
    rows.append((palette, "command palette: go to turn …, go to battle …, go to finding …"))
    rows.append(("tab", "move between the timeline and the findings (Enter on a finding jumps to it)"))
    return rows
