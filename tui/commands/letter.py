"""``minister letter`` and ``minister bundle``: the ruling letter and the evidence bundle.

``minister verify FILE`` recognises a bundle and checks it with no store (:func:`verify_bundle`).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from domain.rules.findings import finding_ref
from tui.commands.bundles import letter_text, open_ref
from tui.commands.store import EXIT_MISMATCH, EXIT_OK, add_store_option

# The letter, the bundle and the review engine: imported by these commands when they run, not by
# every ``minister`` command that builds the parser.
if TYPE_CHECKING:
    pass

#: Who signs the letter when ``--by`` does not say (projections.letter.DEFAULT_BY: the parser is
#: built without loading the letter).
DEFAULT_BY = "Minister of Law"
#: The letter's formats (projections.letter_render.FORMATS, likewise; tests/e2e/test_cli_help.py
#: holds them equal).
FORMATS = ("text", "markdown", "html")


def finding_arg(text: str) -> str:
    """``--finding``: a finding's id (F2) or one of the finding kinds, kept as typed; a usage
    error (exit 2) naming the allowed kinds otherwise."""
    try:
        finding_ref(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def date_arg(text: str) -> datetime:
    """``--date``: an RFC 3339 time with its zone, or a day (``2008-09-22``, taken as 00:00 UTC);
    a usage error (exit 2) otherwise."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a day such as 2008-09-22 or a time with its "
                                         "zone such as 2008-09-22T09:00:00Z") from None
    if moment.tzinfo is None:
        if len(text.strip()) > 10:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a time with its zone (Z or +01:00)")
        moment = moment.replace(tzinfo=UTC)
    return moment


def by_arg(text: str) -> str:
    """``--by``: who signs the letter; not blank."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected who signs the letter, such as \"Minister of Law\"")
    return text.strip()


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``letter`` and ``bundle``."""
    parser = subparsers.add_parser(
        "letter", help="the letter of the Minister of Law to both players (paste-ready)",
        description="The letter a Minister of Law signs: to the game's players, dated, headed "
                    "Findings until something is ruled and Ruling after; each battle in question as "
                    "declared and thrown, each finding with the rule quoted, why the report was in "
                    "time or too late, the decision, the correction round by round, the result as "
                    "corrected and what the error cost; what is still open in the game; the reports "
                    "and rulings on record; the dice and how to verify them. GAME may be a stored "
                    "game, a replay file or an evidence bundle (read only, after its own checks).")
    parser.add_argument("game", metavar="GAME", help="a stored game id, a replay file or a bundle")
    parser.add_argument("--finding", type=finding_arg, help="only this finding (id or kind)")
    parser.add_argument("--by", type=by_arg, default=DEFAULT_BY,
                        help=f"who signs the letter (default: {DEFAULT_BY})")
    parser.add_argument("--date", type=date_arg,
                        help="the letter's date (default: the latest ruling's time; with none, the "
                             "game's last record's)")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text for a plain e-mail, markdown or html (default: text)")
    parser.add_argument("--json", action="store_true", help="the letter as JSON (minister-letter/1)")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_letter)

    parser = subparsers.add_parser(
        "bundle", help="write a game's evidence bundle (record, head, dice, reports, rulings, letter)",
        description="Write one file holding the game's record, its hash-chain head, the dice "
                    "commitments and reveals, the reports, the rulings and the letter; "
                    "'minister verify FILE' checks it on any machine, with no store, and "
                    "'minister letter/replay/show/export FILE' read it.")
    parser.add_argument("game", metavar="GAME", help="a stored game id")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the bundle file to write")
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_bundle)


def cmd_letter(args: argparse.Namespace) -> int:
    """``minister letter GAME [--finding ID] [--by NAME] [--date TIME] [--format F] [--json]``."""
    from domain.review.game_review import review_both
    from projections.letter import build_letter, letter_dict, render

    # Made from the events, never from the stored review's rows: the letter is the ruling's
    # record, and derived rows are a cache, never evidence (docs/reliability.md).
    game = open_ref(args.game, getattr(args, "store", None))
    corrected, rolled = review_both(game)
    if args.finding is not None and not any(args.finding in (f.id, f.kind) for f in corrected.findings):
        from domain.errors import MinisterError

        known = ", ".join(f"{f.id} ({f.kind})" for f in corrected.findings) or "none"
        raise MinisterError(f"--finding {args.finding!r}: game {game.game_id!r} has no such finding "
                            f"(its findings: {known})")
    letter = build_letter(game, corrected, rolled, args.finding, by=args.by, date=args.date)
    if args.json:
        sys.stdout.write(json.dumps(letter_dict(letter), ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(render(letter, args.format))
    return EXIT_OK


def cmd_bundle(args: argparse.Namespace) -> int:
    """``minister bundle GAME -o FILE``."""
    from application.adapters.stores import open_store
    from application.usecases.desk.bundle import make_bundle, write_bundle

    app = open_store(getattr(args, "store", None))
    try:
        bundle = make_bundle(app, args.game, letter_text)  # from the events, as the letter
    finally:
        app.close()
    write_bundle(bundle, args.output)
    summary = {"file": args.output, "game": bundle["game"], "events": bundle["events"],
               "head": bundle["head"]}
    if args.json:
        sys.stdout.write(json.dumps(summary, indent=1) + "\n")
    else:
        print(f"bundle of {bundle['game']} written to {args.output}: {bundle['events']} events, "
              f"head {bundle['head']}")
    return EXIT_OK


def verify_bundle(path: Path, *, as_json: bool = False, head: str | None = None,
                  allow_unverified: bool = False) -> int | None:
    """Check ``path`` if it is a bundle (None: it is not one): 0 when every part holds (and its
    record ends at ``head``, when given), else 1; dice nobody can check fail it unless
    ``allow_unverified``."""
    from application.usecases.desk.bundle import check_bundle, read_bundle
    from tui.commands.store import unverified_lines

    data = read_bundle(path)
    if data is None:
        return None
    check = check_bundle(data, str(path), letter_text, head=head)
    passed = check.ok and (allow_unverified or not check.unverified)
    if as_json:
        sys.stdout.write(json.dumps({"file": str(path), "game": check.game_id, "head": check.head,
                                     "ok": passed, "problems": check.problems, "notes": check.notes,
                                     "letter_compared": check.letter_compared,
                                     "unverified": check.unverified},
                                    ensure_ascii=False, indent=1) + "\n")
        return EXIT_OK if passed else EXIT_MISMATCH
    if passed:
        held = "every part holds" if check.letter_compared else \
            "every part holds but the letter, written by another version and not compared (below)"
        print(f"ok   {path}: bundle of {check.game_id}, head {check.head}; {held}")
    elif check.problems:
        print(f"FAIL {path}: {check.problems[0]}")
    else:
        print(f"FAIL {path}: bundle of {check.game_id}, head {check.head}: "
              f"{len(check.unverified)} rolls cannot be checked")
    for problem in check.problems[1:]:
        print(f"  {problem}")
    for note in check.notes:
        print(f"  {note}")
    print(unverified_lines(check.unverified, allow_unverified), end="")
    return EXIT_OK if passed else EXIT_MISMATCH
