"""The thin service layer between the interfaces (tui/) and the pure domain, in three rooms:

* :mod:`application.usecases` — what the interfaces call: open a game by file or id, import and
  export, the dice commands and the Minister's desk (reports, rulings, dice, the bundle);
* :mod:`application.intake` — the edge: a replay file's tables checked field by field and turned
  into events, their text read once;
* :mod:`application.adapters` — the store of games: the eventsourcing Application and mapper,
  snapshots, time travel, the hash chain, store specs, and the one module that knows
  eventsourcing's recorders, SQLite, PostgreSQL and SQL (``adapters.eventstore``).

Each room imports only those after it in this list (an import contract checks it).
"""
