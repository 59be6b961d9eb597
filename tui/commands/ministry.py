"""The Minister of Law's desk on the command line: ``report``, ``rule``, ``amend``, ``withdraw``,
``dice``, ``commit``, ``roll``, ``reveal``, ``letter`` and ``bundle``.

Every command checks its input against the game before anything is stored (exit 2 and nothing
written otherwise) and prints either a line for people or, with ``--json``, the shape
documented in docs/format-extensions.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from projections.plain import visible
from tui.commands.letter import finding_arg
from tui.commands.store import EXIT_OK, add_store_option

# The desk's use cases load the review engine: imported by the commands that run, not by every
# ``minister`` command that builds the parser (``games``, ``replay GAME`` never review).
if TYPE_CHECKING:
    from application.adapters.app import MinisterApplication
    from domain.record.events import GameEvent


#: The decisions a ruling takes: domain.record.entries.Ruling's values, written out so that building
#: the parser (``minister --version``) does not load the record's model (tests/e2e/test_cli_help.py
#: holds them equal).
DECISIONS = ("apply", "dismiss", "mutual")


def _common(parser: argparse.ArgumentParser, *, at: bool = False, keys: bool = False) -> None:
    parser.add_argument("game", metavar="GAME", help="a stored game id")
    if at:
        parser.add_argument("--at", help="when it happened: the e-mail's or dice server's time "
                                         "(RFC 3339 with zone; default now). It may be earlier "
                                         "than later records: the rules judge it by this time, "
                                         "the record keeps when it was entered too")
    if keys:
        parser.add_argument("--keys", metavar="DIR", help="the folder of the Minister's dice key files "
                                                          "(default $MINISTER_KEYS, else the data directory)")
    parser.add_argument("--json", action="store_true", help="print JSON (docs/format-extensions.md)")
    add_store_option(parser)


def _command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str,
             handler: Callable[[argparse.Namespace], int], *, at: bool = False, keys: bool = False,
             help: str, description: str) -> argparse.ArgumentParser:
    """One desk command: its parser with the options every desk command takes, and its handler."""
    parser = subparsers.add_parser(name, help=help, description=description)
    _common(parser, at=at, keys=keys)
    parser.set_defaults(handler=handler)
    return parser


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the desk's commands."""
    _add_papers(subparsers)
    _add_dice(subparsers)
    from tui.commands import letter

    letter.add_parser(subparsers)


def _add_papers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _command(
        subparsers, "report", cmd_report, at=True,
        help="record a correction request on a stored game",
        description="Record a correction request at --at (the e-mail's time; it decides whether the "
                    "error is still correctable, 2008 Section VII), checked against the game.")
    parser.add_argument("--by", required=True, help="who asks (a power or a player)")
    parser.add_argument("--text", required=True, help="what is wrong")
    parser.add_argument("--battle", help="the battle's territory or sea zone, if it is about one")
    parser.add_argument("--turn", help="the battle's turn (USSR 3): needed when two battles of the "
                                       "game were fought in that territory")

    parser = _command(
        subparsers, "rule", cmd_rule, at=True,
        help="record a ruling or an election on a finding",
        description="Record the Minister of Law's ruling, the players' mutual agreement, or the "
                    "attacker's or defender's election on one of the game's findings; the election "
                    "must be one the finding's rule offers.")
    _ruling_options(parser, required=True)

    parser = _command(
        subparsers, "amend", cmd_amend, at=True,
        help="restate a report or ruling (a new event pointing at the old one)",
        description="Restate the report or ruling recorded as --event N; the old one stays in the "
                    "history and the review uses the new one.")
    parser.add_argument("--event", required=True, type=int, help="the event number of the report or ruling")
    parser.add_argument("--battle", help="a report's battle, or a ruling's finding's battle")
    parser.add_argument("--turn", help="that battle's turn, or a ruling's finding's turn")
    _ruling_options(parser, required=False, where=False)

    parser = _command(
        subparsers, "withdraw", cmd_withdraw, at=True,
        help="withdraw a report or ruling (history kept)",
        description="Withdraw the report or ruling recorded as --event N: a new event points at it; "
                    "the old one stays in the history and the review no longer uses it.")
    parser.add_argument("--event", required=True, type=int, help="the event number of the report or ruling")
    parser.add_argument("--by", default="", help="who withdraws it")
    parser.add_argument("--text", default="", help="why")


def _ruling_options(parser: argparse.ArgumentParser, *, required: bool, where: bool = True) -> None:
    parser.add_argument("--finding", required=required, type=finding_arg,
                        help="the finding's id (F2) or kind")
    parser.add_argument("--decision", required=required, choices=DECISIONS,
                        help="apply: the correction is made, the remedy the edition gives (with "
                             "--election where the rules offer a choice); dismiss: the Minister "
                             "of Law rules the record stands as rolled; mutual: the players agreed "
                             "to let the record stand (mutual agreements stand, 2008 Section I)")
    parser.add_argument("--election", help="reroll, not_fight, accept, apply_to_corrected_units or "
                                           "reroll_defence (only those the finding's rule offers)")
    if where:
        parser.add_argument("--turn", help="the finding's turn (USSR 3): only a finding of that turn")
        parser.add_argument("--battle", help="the finding's battle (its territory or sea zone; with "
                                             "--turn where two battles were fought there)")
    parser.add_argument("--by", default="" if not required else "Minister of Law",
                        help="who decides (default: the Minister of Law)")
    parser.add_argument("--text", default="", help="the words, with the rule cited")


def _add_dice(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _command(
        subparsers, "dice", cmd_dice, at=True,
        help="enter dice rolled on the club's dice server for a correction",
        description="Record dice rolled on the club's dice server for a battle's correction, as "
                    "they are, at the dice server's time.")
    parser.add_argument("--battle", required=True, help="the battle's territory or sea zone")
    parser.add_argument("--turn", help="the battle's turn (USSR 3): needed when two battles of the "
                                       "game were fought in that territory")
    parser.add_argument("faces", metavar="DICE", nargs="+",
                        help='the faces, such as "6 6 1 4" (quoted or not)')

    parser = _command(
        subparsers, "commit", cmd_commit, keys=True,
        help="commit to a fresh dice secret before drawing (minister-dice/3)",
        description="Record the hash of a fresh secret; the secret goes to the Minister's key file "
                    "(0600), never to the record, until `minister reveal`.")
    parser.add_argument("--by", default="Minister of Law", help="who commits")
    parser.add_argument("--abandon", action="store_true",
                        help="commit although a commitment is open (its key file was lost: the dice "
                             "drawn from it can never be checked); refused while its key file is "
                             "still in the keys folder")
    parser.add_argument("--force", action="store_true",
                        help="with --abandon: abandon the open commitment although its key file is "
                             "there (its dice can then never be checked, and the letter says so)")

    parser = _command(
        subparsers, "roll", cmd_roll, keys=True,
        help="draw the dice a battle awaits from the open commitment",
        description="Draw from the open commitment each throw the battle's correction awaits, "
                    "until it awaits none; every throw is its own roll, bound to the throw minister "
                    "derives from the game (turn, round, side, column, purpose, count): nothing "
                    "about it is typed, so nobody can try other ones for other dice.")
    parser.add_argument("--battle", required=True, help="the battle's territory or sea zone")
    parser.add_argument("--turn", help="the battle's turn (USSR 3): needed when two battles of the "
                                       "game were fought in that territory")

    parser = _command(
        subparsers, "reveal", cmd_reveal, keys=True,
        help="reveal the open commitment's secret: anyone can then check its dice",
        description="Record the secret of the game's open dice commitment (read from the Minister's "
                    "key file); from then on 'minister verify --dice GAME' checks every die drawn "
                    "under it, offline.")


@contextmanager
def _store(args: argparse.Namespace, *, refresh: bool = True) -> Iterator[MinisterApplication]:
    from application.adapters.stores import open_store
    from application.usecases.review_model import refresh_quietly

    app = open_store(getattr(args, "store", None))
    try:
        yield app
        if refresh:
            refresh_quietly(app, args.game)  # the stored review follows the new events
    finally:
        app.close()


def _print(args: argparse.Namespace, data: Any, line: str) -> int:
    if args.json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    else:
        print(line)
    return EXIT_OK


def _when(event: GameEvent) -> str:
    return event.at.isoformat() if event.at else "-"


def cmd_report(args: argparse.Namespace) -> int:
    """``minister report GAME --by X --text T [--battle B] [--turn T] [--at TIME]``."""
    from application.usecases.desk import papers
    from application.usecases.desk.common import event_dict, parse_at


    with _store(args) as app:
        event = papers.report(app, args.game, args.by, args.text, args.battle, turn=args.turn,
                              at=parse_at(args.at))
    return _print(args, event_dict(event), f"report recorded at {_when(event)} "
                  f"[event {event.originator_version}]")


def cmd_rule(args: argparse.Namespace) -> int:
    """``minister rule GAME --finding F --decision D [--election E] [--by X] [--text T] [--at TIME]``:
    the ruling recorded, then what it did to its finding (the review made once, to store it): a
    ruling the rules leave no room for is on record, and says so at once, with why."""
    from application.usecases.desk import papers
    from application.usecases.desk.common import event_dict, parse_at
    from application.usecases.review_model import refresh_quietly, stored_findings

    with _store(args, refresh=False) as app:
        event = papers.rule(app, args.game, args.finding, args.decision, election=args.election,
                            text=args.text, by=args.by, at=parse_at(args.at), turn=args.turn,
                            battle=args.battle)
        refresh_quietly(app, args.game)
        now = next((f for f in stored_findings(app, args.game) or () if f.key == event.finding_key), None)
    line = (f"ruling on {event.finding} recorded: {event.decision}"
            + (f", election {event.election}" if event.election else "")
            + f" at {_when(event)} [event {event.originator_version}]")
    data = event_dict(event)
    if now is not None:
        data["finding_now"] = {"id": now.id, "kind": now.kind, "status": now.status, "detail": now.detail}
        line += f"\n{now.id} {now.kind} is now {now.status}"
        if "changes nothing" in now.detail or now.status in ("fixed", "open"):
            # The rules leave the ruling no room (reported too late, not reported, awaiting an
            # election or dice): say so now, with the rule and the times that decide it.
            line += f": {visible(now.detail)}"
    return _print(args, data, line)


def cmd_amend(args: argparse.Namespace) -> int:
    """``minister amend GAME --event N ...``: a report's or a ruling's fields, restated."""
    from application.usecases.desk import papers
    from application.usecases.desk.common import event_dict, parse_at
    from domain.errors import MinisterError

    at = parse_at(args.at)
    with _store(args) as app:
        if papers.kind_of(app, args.game, args.event) == "report":
            if not args.by or not args.text:
                raise MinisterError("amending a report needs --by and --text")
            event: GameEvent = papers.amend_report(app, args.game, args.event, args.by, args.text,
                                                   args.battle, turn=args.turn, at=at)
        else:
            if not args.finding or not args.decision:
                raise MinisterError("amending a ruling needs --finding and --decision")
            event = papers.rule(app, args.game, args.finding, args.decision, election=args.election,
                                text=args.text, by=args.by or "Minister of Law", at=at, amends=args.event,
                                turn=args.turn, battle=args.battle)
    return _print(args, event_dict(event), f"event {args.event} amended by event "
                  f"{event.originator_version} at {_when(event)}")


def cmd_withdraw(args: argparse.Namespace) -> int:
    """``minister withdraw GAME --event N [--by X] [--text WHY]``."""
    from application.usecases.desk import papers
    from application.usecases.desk.common import event_dict, parse_at


    with _store(args) as app:
        event = papers.withdraw(app, args.game, args.event, args.by, args.text, at=parse_at(args.at))
    return _print(args, event_dict(event), f"event {args.event} withdrawn "
                  f"[event {event.originator_version}]")


def cmd_dice(args: argparse.Namespace) -> int:
    """``minister dice GAME --battle B [--turn T] [--at TIME] "6 6 1 4"``."""
    from application.usecases.desk import dice as desk_dice
    from application.usecases.desk.common import event_dict, parse_at


    with _store(args) as app:
        # Checked before the entry: dice a battle awaits no dice for are kept, and said so.
        faces = desk_dice.parse_dice(" ".join(args.faces))
        note = desk_dice.dice_note(app, args.game, args.battle, args.turn)
        event = desk_dice.enter_dice(app, args.game, args.battle, " ".join(map(str, faces)),
                                     at=parse_at(args.at), turn=args.turn)
    data = event_dict(event)
    line = (f"dice for {event.territory} recorded: {' '.join(map(str, event.dice))} at {_when(event)} "
            f"[event {event.originator_version}]")
    if note:
        data["note"] = note
        line += f"\nnote: {visible(note)}; the dice are kept for when it does"
    return _print(args, data, line)


def cmd_commit(args: argparse.Namespace) -> int:
    """``minister commit GAME [--keys DIR] [--abandon [--force]]``."""
    from application.usecases.desk import dice as desk_dice
    from application.usecases.desk.common import event_dict
    from application.usecases.desk.keys import key_path, keys_dir
    from domain.errors import MinisterError


    if args.force and not args.abandon:
        raise MinisterError("--force: only with --abandon (it abandons an open commitment whose key file "
                            "is still there); nothing recorded")
    folder = keys_dir(args.keys)
    with _store(args) as app:
        event = desk_dice.commit(app, args.game, folder, by=args.by, abandon=args.abandon,
                                 force=args.force)
    path = key_path(folder, args.game, event.commitment)
    data = {**event_dict(event), "key_file": str(path)}
    return _print(args, data, f"commitment {event.commitment} recorded [event "
                  f"{event.originator_version}]; the secret is in {path} until `minister reveal`")


def cmd_roll(args: argparse.Namespace) -> int:
    """``minister roll GAME --battle B [--keys DIR]``."""
    from application.usecases.desk import dice as desk_dice
    from application.usecases.desk.common import event_dict
    from application.usecases.desk.keys import keys_dir


    with _store(args) as app:
        rolls = desk_dice.roll(app, args.game, args.battle, keys_dir(args.keys), turn=args.turn)
    lines = [f"roll #{e.sequence} for {e.territory} ({e.purpose}): {' '.join(map(str, e.dice))}  "
             f"[event {e.originator_version}]" for e in rolls]
    return _print(args, {"rolls": [event_dict(e) for e in rolls]}, "\n".join(lines))


def cmd_reveal(args: argparse.Namespace) -> int:
    """``minister reveal GAME [--keys DIR]``."""
    from application.usecases.desk import dice as desk_dice
    from application.usecases.desk.common import event_dict
    from application.usecases.desk.keys import keys_dir


    with _store(args) as app:
        event = desk_dice.reveal(app, args.game, keys_dir(args.keys))
    return _print(args, event_dict(event), f"secret of commitment {event.commitment[:16]}… revealed "
                  f"[event {event.originator_version}]: anyone can now run `minister verify --dice`")
