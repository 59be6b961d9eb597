"""``minister expect FILE [--write]``: a replay's ``[expect]`` table written from its report.

For a developer writing a regression replay: the table the current report gives
(:mod:`projections.expect_write`), printed, or with ``--write`` put in place of the file's own
``[expect]`` (atomically: the new file is checked, then renamed over the old one, so an error
leaves the file as it was). The values are what the program says now; each must be checked
against the rule texts before it is trusted.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from domain.errors import MinisterError

EXIT_OK = 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``expect``."""
    parser = subparsers.add_parser(
        "expect", help="write a replay's [expect] table from its current report (to review)",
        description="Print the [expect] table of a replay file as its current report gives it "
                    "(counts, treasury, findings, battles and their results, corrected rounds, the "
                    "record as rolled). With --write, replace the file's [expect] with it, "
                    "atomically. The values are the program's: review each against the rules.")
    parser.add_argument("file", metavar="FILE", help="a replay file (minister-replay/1)")
    parser.add_argument("--write", action="store_true",
                        help="replace the file's [expect] tables (or add them) instead of printing")
    parser.set_defaults(handler=cmd_expect)


def cmd_expect(args: argparse.Namespace) -> int:
    """Print or write the ``[expect]`` table of ``args.file``."""
    from application.intake.replayfile import decode_text, load_replay, parse_replay
    from domain.review.game_review import review
    from projections.expect import check
    from projections.expect_write import expect_toml, expectations, replace_expect
    from projections.report import report_dict

    replay = load_replay(args.file)
    corrected = report_dict(review(replay.game))
    rolled = report_dict(review(replay.game, as_rolled=True))
    text = expect_toml(expectations(corrected, rolled))
    if not args.write:
        sys.stdout.write(text)
        return EXIT_OK
    path = Path(args.file)
    old = decode_text(path.read_bytes(), args.file)
    if "expect" in replay.raw and "[expect" not in old:
        raise MinisterError(f"{args.file}: its expect is written inline (expect = ...): write it as "
                            "an [expect] table first")
    new = replace_expect(old, text)
    # The rewritten file must read back as the same game and meet its new expectations.
    again = parse_replay(new, args.file)
    expect = dict(again.expect or {})
    rolled_expect = expect.pop("as_rolled", {})
    problems = check(expect, corrected) + check(rolled_expect, rolled, "as_rolled", ("as_rolled",))
    if [e.chain for e in again.events] != [e.chain for e in replay.events] or problems:
        raise MinisterError(f"{args.file}: the rewritten file would not hold its own report "
                            f"({'; '.join(map(str, problems)) or 'its events changed'}); not written")
    _replace(path, new)
    print(f"wrote the [expect] table of {args.file} from its report: review it before committing",
          file=sys.stderr)
    return EXIT_OK


def _replace(path: Path, text: str) -> None:
    """Write ``text`` over ``path`` atomically: a temporary file beside it, synced, renamed."""
    import tempfile  # only here: the other commands never load it

    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(name, path.stat().st_mode & 0o7777)
        os.replace(name, path)
    except OSError as error:
        Path(name).unlink(missing_ok=True)
        raise MinisterError(f"{path}: cannot write the file ({error.strerror})") from None
