"""Read models built from the Game: the JSON/text report and the timeline the TUI scrubs through."""
