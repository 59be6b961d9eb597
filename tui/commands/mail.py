"""``minister mail PATH``: read a game from its e-mails into a draft replay file (docs/mail.md).

PATH is an ``.mbox`` file, a Maildir or a folder of ``.eml`` files. The draft goes to ``-o FILE``
(written whole or not at all) or to standard output; the summary to standard output when the
draft has a file, else to standard error. ``--import`` then stores the game (one atomic save),
only when nothing needs the Minister. Exit codes as everywhere: 2 for bad input (nothing could
be read, a bad option), with a message naming the path.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from domain.errors import MinisterError

EXIT_OK = 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``mail``."""
    from tui.commands.store import add_store_option

    parser = subparsers.add_parser(
        "mail", help="read a game's e-mails (mbox, Maildir, folder of .eml) into a draft replay file",
        description="Read a game from its e-mails: the players' turn e-mails (IAAPA notation, quoted "
                    "replies and forwards unwrapped), TripleA's MARTI and newer dice server mails and "
                    "'dice:' lines. Writes a draft replay file (minister-replay/1) in which every "
                    "record names its e-mail, and a summary: what was read, what could not be placed "
                    "(the draft marks it for the Minister), the messages not recognised, and the "
                    "draft's findings with their e-mails.")
    parser.add_argument("path", metavar="PATH", help="an .mbox file, a Maildir or a folder of .eml files")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the draft to FILE (else to standard output)")
    parser.add_argument("--game", metavar="ID",
                        help="the game's id (default: game-<number> from the e-mails)")
    parser.add_argument("--edition", metavar="EDITION",
                        help="the rules (default: the e-mails' 'Rules:' line, else iaapa-2008)")
    parser.add_argument("--title", metavar="TEXT", help="the game's title (default: from the players named)")
    parser.add_argument("--dice-key", metavar="FILE", type=Path,
                        help="the newer TripleA dice server's public key (PEM), to check its signatures")
    parser.add_argument("--import", dest="store_it", action="store_true",
                        help="store the game after the usual checks (refused while anything needs "
                             "the Minister)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_store_option(parser)
    parser.set_defaults(handler=cmd_mail)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed over it)."""
    import tempfile  # only here: the other commands never load it

    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    except OSError as error:
        raise MinisterError(f"{path}: cannot write the file ({error.strerror})") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise MinisterError(f"{path}: cannot write the file ({error.strerror})") from None


def cmd_mail(args: argparse.Namespace) -> int:
    """``minister mail PATH [-o FILE] [--import] ...``."""
    from application.usecases.mail import draft_mail, import_draft, summary, summary_json

    output = Path(args.output) if args.output else None
    draft = draft_mail(Path(args.path), game_id=args.game, edition=args.edition, title=args.title,
                       dice_key=args.dice_key, name=str(output) if output else None)
    if output is not None:
        write_whole(output, draft.text)
    else:
        sys.stdout.write(draft.text)
        sys.stdout.flush()
    report = sys.stdout if output is not None else sys.stderr
    if args.json:
        print(json.dumps(summary_json(draft), indent=1), file=report)
    else:
        print("\n".join(summary(draft)), file=report)
        if output is not None:
            print(f"draft written to {output}", file=report)
    if args.store_it:
        from application.adapters.stores import open_store

        app = open_store(getattr(args, "store", None))
        try:
            result = import_draft(app, draft)
        finally:
            app.close()
        print(f"imported {result.game_id}: {result.events} events, head {result.head}"
              if result.outcome.value == "imported" else
              f"{result.game_id} is already stored ({result.events} events)", file=report)
    return EXIT_OK
