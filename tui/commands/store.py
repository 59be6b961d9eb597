"""Store sub-commands: ``import``, ``export``, ``games``, ``roll``, and ``verify --integrity/--dice``.

Every command works on the store named by ``--store`` (before or after the sub-command), else
``MINISTER_STORE``, else the default SQLite file (:mod:`application.adapters.stores`). Exit codes as
everywhere: 0 success, 1 verification failure, 2 bad input (errors are raised as
:class:`~domain.errors.MinisterError` and printed by ``tui.cli.main``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from domain.errors import MinisterError

# The store (eventsourcing) and the table layout (rich) load with the commands that use them,
# not with every ``minister`` command that builds the parser.
if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT = 0, 1, 2


def add_store_option(parser: argparse.ArgumentParser) -> None:
    """``--store SPEC`` on a sub-command (it does not override one given before the sub-command)."""
    parser.add_argument("--store", default=argparse.SUPPRESS, metavar="SPEC",
                        help="the store: memory:, sqlite:PATH, postgresql://USER@HOST:PORT/DB or "
                             "postgres: (default: $MINISTER_STORE, else the SQLite file in the "
                             "user's data directory)")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``import``, ``export``, ``games`` and ``roll``."""
    parser = subparsers.add_parser("import", help="record replay files' games in the store",
                                   description="Record each replay file's game in the store, all its "
                                               "events in one atomic save. Every file is read and "
                                               "checked before the first is stored.")
    parser.add_argument("files", metavar="FILE", nargs="+", help="a replay file (minister-replay/1)")
    parser.add_argument("--if-new", action="store_true",
                        help="do nothing when the store already holds a game with this id")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_import)

    parser = subparsers.add_parser("export", help="write a stored game as a replay file",
                                   description="Write a stored game as a replay file that imports "
                                               "to the same events, with its hash-chain head.")
    parser.add_argument("game", metavar="GAME", help="a stored game id, or an evidence bundle (its record, "
                                                     "after the bundle's own checks)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_export)

    parser = subparsers.add_parser(
        "games", help="list the stored games",
        description="List the games in the store: id, edition, number of events, time of the "
                    "last event and title; a game whose rows do not decode is listed as DAMAGED "
                    "(the others are unaffected).")
    parser.add_argument("--json", action="store_true", help="the list as JSON")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_games)


def add_verify_options(parser: argparse.ArgumentParser) -> None:
    """``--integrity GAME``, ``--dice GAME`` and ``--head HASH`` on ``minister verify``."""
    parser.add_argument("--integrity", metavar="GAME",
                        help="recompute a stored game's hash chain; name the first event that "
                             "no longer matches")
    parser.add_argument("--head", metavar="HASH",
                        help="the head hash you hold (printed by export or bundle): with "
                             "--integrity GAME, with one bundle or with one replay file, the record "
                             "must end at it; events added after it, or a record it is no link of, "
                             "fail (exit 1)")
    parser.add_argument("--dice", metavar="GAME",
                        help="re-check every drawn die of a stored game from its revealed secrets "
                             "(the throw each roll was for is derived again)")
    parser.add_argument("--allow-unverified", action="store_true",
                        help="do not fail on dice nobody can check (drawn under a commitment not "
                             "revealed or abandoned): they are still listed")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """Run the store sub-command ``args`` was parsed for."""
    commands = {"import": cmd_import, "export": cmd_export, "games": cmd_games, "verify": verify_store}
    return commands[args.command](args)


@contextmanager
def _store(args: argparse.Namespace) -> Iterator[MinisterApplication]:
    from application.adapters.stores import open_store

    app = open_store(getattr(args, "store", None))
    try:
        yield app
    finally:
        app.close()


def cmd_import(args: argparse.Namespace) -> int:
    """``minister import FILE... [--if-new]``."""
    from application.intake.replayfile import load_replay
    from application.usecases.transfer import Outcome, import_replay
    from domain.memory import no_gc

    # Every file is read and checked before the store is opened: a bad one stores nothing.
    replays = [load_replay(file) for file in args.files]
    named: dict[str, str] = {}
    for file, replay in zip(args.files, replays, strict=True):
        if replay.game_id in named:
            raise MinisterError(f"{file}: game {replay.game_id!r} is also the game of "
                                f"{named[replay.game_id]}; import one of them")
        named[replay.game_id] = file
    # An import builds a game's worth of objects (events, the snapshot, the review, its rows)
    # and no reference cycle: a full collection would walk the file's records just read (0.4 s
    # of a 50,000-event import) and find nothing, so the collector waits for the command.
    with no_gc(promote=False), _store(args) as app:
        while replays:
            # Each record is let go once stored: the review is made from the store, and a big
            # game's parsed file is as big again as the review it makes.
            result = import_replay(app, replays.pop(0), if_new=args.if_new)
            if result.outcome is Outcome.IMPORTED:
                from application.usecases.review_model import refresh_quietly

                refresh_quietly(app, result.game_id)  # opening the game will not have to review it
                print(f"imported {result.game_id}: {result.events} events, head {result.head}")
            else:
                later = f"; the store also holds {result.later} later events" if result.later else ""
                print(f"{result.game_id} is already stored ({result.events} events{later})")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """``minister export GAME [-o FILE]``."""
    from application.usecases.transfer import export_game
    from tui.commands.bundles import bundled

    opened = bundled(args.game)  # a bundle's record, after its own checks: read only
    if opened is not None:
        text = opened.record
    else:
        with _store(args) as app:
            text = export_game(app, args.game)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise MinisterError(f"{args.output}: cannot write the file ({error.strerror})") from None
        # The file is the output: say what went into it, on stderr so scripts can ignore it.
        events = sum(1 for line in text.splitlines() if line.strip() == "[[event]]")
        print(f"wrote {args.game} to {args.output}: {events} events, "
              f"{len(text.splitlines())} lines", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_games(args: argparse.Namespace) -> int:
    """``minister games``: id, edition, events, last event time and title of each stored game."""
    from application.adapters.archive import list_games_at_once
    from application.adapters.stores import list_games
    from tui.commands.tables import plain_table

    with _store(args) as app:
        games = list_games_at_once(app)  # one query, for a big archive
        if games is None:
            games = list_games(app)
    if getattr(args, "json", False):
        import json

        sys.stdout.write(json.dumps([{"game": g.game_id, "edition": g.edition, "events": g.events,
                                      "last_event_at": g.last_event_at.isoformat() if g.last_event_at
                                      else None, "title": g.title, "damaged": g.damaged}
                                     for g in games], indent=1) + "\n")
        return EXIT_OK
    if not games:
        print("no games stored")
        return EXIT_OK
    rows = [(game.game_id, game.edition, str(game.events),
             game.last_event_at.strftime("%Y-%m-%dT%H:%M:%SZ") if game.last_event_at else "-",
             f"DAMAGED: {game.damaged}; see minister verify --integrity {game.game_id}"
             if game.damaged else game.title or "") for game in games]
    headers = ("GAME", "EDITION", "EVENTS", "LAST EVENT", "TITLE")
    sys.stdout.write(plain_table(headers, rows, right=("EVENTS",)))
    return EXIT_OK


def verify_store(args: argparse.Namespace) -> int:
    """``minister verify --integrity GAME [--head HASH]`` and/or ``--dice GAME``: 1 on a problem."""
    if args.head is not None and not args.integrity:
        raise MinisterError("--head HASH: expected --integrity GAME (or one bundle or replay file) "
                            "to compare it with")
    failed = False
    with _store(args) as app:
        if args.integrity:
            failed |= not _verify_integrity(app, args.integrity, args.head, getattr(args, "json", False))
        if args.dice:
            failed |= not _verify_dice(app, args.dice, getattr(args, "json", False),
                                       getattr(args, "allow_unverified", False))
    return EXIT_MISMATCH if failed else EXIT_OK


def _verify_integrity(app: MinisterApplication, game_id: str, head: str | None,
                      as_json: bool = False) -> bool:
    from application.adapters.eventstore import has_events
    from application.adapters.integrity import check_game
    from domain.record.events import game_uuid

    if not has_events(app, game_uuid(game_id)):
        app.game(game_id)  # raises UnknownGameError: an unknown game is bad input
    check = check_game(app, game_id, head=head)
    if check.ok:
        from dataclasses import replace

        from application.usecases.review_model import check_stored_review

        # The stored review is derived: compared with the events' review, never believed.
        check = replace(check, problems=(*check.problems, *check_stored_review(app, game_id)))
    if as_json:
        import json

        print(json.dumps({"game": game_id, "check": "integrity", "ok": check.ok,
                          "events": check.chain.events, "head": check.chain.head,
                          "problems": [str(p) for p in check.problems]}, indent=1))
        return check.ok
    if check.ok:
        print(f"ok   {game_id}: {check.chain.events} events, hash chain intact, "
              f"head {check.chain.head}")
        return True
    print(f"FAIL {game_id}: integrity")
    for problem in check.problems:
        print(f"  {problem}")
    return False


def _verify_dice(app: MinisterApplication, game_id: str, as_json: bool = False,
                 allow_unverified: bool = False) -> bool:
    from application.usecases.desk.dice_check import check_dice

    check = check_dice(app, game_id)
    passed = check.ok and (allow_unverified or not check.unverified)
    if as_json:
        import json

        print(json.dumps({"game": game_id, "check": "dice", "ok": passed, "rolls": check.rolls,
                          "checked": check.checked, "pending": check.pending,
                          "abandoned": check.abandoned, "legacy": check.legacy,
                          "problems": check.problems, "unverified": check.unverified}, indent=1))
        return passed
    summary = _dice_summary(check.checked, check.legacy)
    if passed:
        print(f"ok   {game_id}: {summary}")
    else:
        print(f"FAIL {game_id}: dice" + ("" if check.problems else
                                         f": {len(check.unverified)} rolls cannot be checked"))
    for problem in check.problems:
        print(f"  {problem}")
    print(unverified_lines(check.unverified, allow_unverified), end="")
    return passed


def unverified_lines(unverified: list[str], allowed: bool) -> str:
    """The throws nobody can check, one a line (after a heading saying what that means)."""
    if not unverified:
        return ""
    lead = ("  these dice cannot be checked (allowed by --allow-unverified):" if allowed else
            "  these dice cannot be checked, so they are not verified (--allow-unverified "
            "accepts them):")
    return "\n".join([lead, *(f"    {line}" for line in unverified)]) + "\n"


def _dice_summary(checked: int, legacy: int) -> str:
    parts = [f"{checked} committed rolls reproduce from their revealed secrets"] if checked else []
    if legacy:
        parts.append(f"{legacy} legacy rolls (minister-dice/1, clear seed) reproduce; that scheme "
                     "does not cover their count, battle or purpose")
    return "; ".join(parts) or "no drawn dice recorded"
