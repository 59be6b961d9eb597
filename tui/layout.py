"""The timeline app's layout (Textual CSS): the panels side by side from NARROW_BELOW columns,
stacked under the timeline below it; the map under the panels."""

#: Below this many columns the panels are stacked: the timeline above one panel at a time.
NARROW_BELOW = 100
#: Below this many rows the title bar is left out (every row goes to the panels).
SHORT_BELOW = 30
#: Rows the panels keep above the map (a wide, tall screen): the timeline's five and its border,
#: and the board around the battle's when there is room for it too.
MAP_KEEPS = 9
MAP_KEEPS_TERRITORIES = 17
#: The panels a narrow screen shows under the timeline, in the order ``p`` cycles through them.
NARROW_PANELS = ("board", "findings", "luck")

LAYOUT = """
#crumb { height: 1; padding: 0 1; background: $boost; }
#loading { height: auto; padding: 1 2; }
#loading ProgressBar { margin-top: 1; }
#main { height: 1fr; display: none; }
#left { width: 42%; min-width: 46; }
/* The timeline keeps five rows of points whatever else is shown. */
TimelineView { height: 1fr; min-height: 7; border: round $primary; border-title-style: bold; }
TimelineView:focus { border: round $accent; }
LuckPanel { height: 14; }
#right { width: 1fr; }
#right BattleBoard { height: 1fr; width: 1fr; }
#other-board { display: none; }
#other-board.-shown { display: block; }
FindingsPanel { height: 12; }
FindingsPanel:focus { border: round $accent; }
/* Narrow: the timeline across the whole width, one panel under it (``p`` picks which). */
Screen.-short Header { display: none; }
/* The map on (``m``): the luck panel makes room for it, the board list stays short. Narrow,
   the map takes the place of the panels under the timeline (the list's own display is set
   by the panel itself, so it is folded away here by its height). */
Screen.-map LuckPanel { display: none; }
Screen.-map FindingsPanel { display: none; }
Screen.-map TerritoryPanel { max-height: 8; }
/* The map taking the room the panels would need: the board around the battle is folded away
   (z shows it), the timeline keeps its rows (app.py: _fit_map). */
Screen.-map TerritoryPanel.-folded { max-height: 0; border: none; padding: 0; }
Screen.-short MapPanel { height: 1fr; }
Screen.-narrow.-map #right { display: none; }
Screen.-narrow.-map #left TerritoryPanel { max-height: 0; border: none; padding: 0; }
Screen.-narrow.-map #main.-luck LuckPanel { display: none; }
/* The story (``c``) under the panels; narrow, in the place of the panels under the timeline. */
Screen.-narrow #main.-story #right { display: none; }
Screen.-narrow #main.-story.-luck LuckPanel { display: none; }
Screen.-narrow #main { layout: vertical; }
Screen.-narrow #left { width: 100%; min-width: 0; height: 1fr; }
Screen.-narrow LuckPanel { display: none; }
Screen.-narrow #right { width: 100%; height: 2fr; }
Screen.-narrow FindingsPanel { display: none; height: 1fr; }
Screen.-narrow #main.-findings #right BattleBoard { display: none; }
Screen.-narrow #main.-findings FindingsPanel { display: block; }
Screen.-narrow #main.-luck #right { display: none; }
Screen.-narrow #main.-luck #left { height: 1fr; }
Screen.-narrow #main.-luck LuckPanel { display: block; }
"""
