"""``minister report`` and ``minister rule``: correction requests and rulings on stored games."""

from __future__ import annotations

import argparse

from application.ministry import report, rule
from application.stores import open_store
from tui.commands.store import EXIT_OK, add_store_option


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``report`` and ``rule``."""
    parser = subparsers.add_parser(
        "report", help="record a correction request on a stored game",
        description="Record a correction request now: its time decides whether the error is still "
                    "correctable (2008 Section VII).")
    parser.add_argument("game", metavar="GAME", help="a stored game id")
    parser.add_argument("--by", required=True, metavar="WHO", help="who asks (a power or a player)")
    parser.add_argument("--text", required=True, help="what is wrong")
    parser.add_argument("--battle", help="the battle's territory or sea zone, if it is about one")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_report)

    parser = subparsers.add_parser(
        "rule", help="record a ruling or an election on a finding",
        description="Record the Minister of Law's ruling, the players' mutual agreement, or the "
                    "attacker's or defender's election on one of the game's findings.")
    parser.add_argument("game", metavar="GAME", help="a stored game id")
    parser.add_argument("--finding", required=True, help="the finding's id (F2) or kind")
    parser.add_argument("--decision", required=True, choices=("apply", "dismiss", "mutual"),
                        help="apply: the correction is made, the remedy the edition gives (with "
                             "--election where the rules offer a choice); dismiss: the Minister "
                             "of Law rules the record stands as rolled; mutual: the players agreed "
                             "to let the record stand (mutual agreements stand, 2008 Section I)")
    parser.add_argument("--election", metavar="CHOICE",
                        help="the remedy elected where the rules offer a choice: reroll, not_fight, "
                             "accept, apply_to_corrected_units or reroll_defence")
    parser.add_argument("--text", default="", help="the ruling's words, with the rule cited")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_rule)


def cmd_report(args: argparse.Namespace) -> int:
    """``minister report GAME --by X --text T [--battle B]``."""
    app = open_store(getattr(args, "store", None))
    try:
        event = report(app, args.game, args.by, args.text, args.battle)
    finally:
        app.close()
    when = event.at.isoformat() if event.at else "-"
    print(f"report recorded at {when} [event {event.originator_version}]")
    return EXIT_OK


def cmd_rule(args: argparse.Namespace) -> int:
    """``minister rule GAME --finding F --decision D [--election E] [--text T]``."""
    app = open_store(getattr(args, "store", None))
    try:
        event = rule(app, args.game, args.finding, args.decision, election=args.election, text=args.text)
    finally:
        app.close()
    print(f"ruling on {event.finding} recorded: {event.decision}"
          + (f", election {event.election}" if event.election else "")
          + f" [event {event.originator_version}]")
    return EXIT_OK
