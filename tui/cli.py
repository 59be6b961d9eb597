"""The ``minister`` command: headless replay and verification, and the entry to the timeline.

Exit codes (spec/replay-format.md): 0 success, 1 verification failure, 2 bad input (with a
message naming the file, the line and what was expected).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import io
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from domain.errors import MinisterError
from projections.plain import visible

if TYPE_CHECKING:  # the engine and the reports load only for the commands that need them
    from application.intake.replayfile import Replay
    from projections.expect import Mismatch
    from projections.expect_lines import ExpectLines

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT = 0, 1, 2

#: Sub-commands that live in their own modules (each has ``add_parser`` and ``run``).
PLUGIN_COMMANDS = ("tui.commands.odds", "tui.commands.store", "tui.commands.ministry", "tui.commands.show",
                   "tui.commands.expect", "tui.commands.mail", "tui.commands.chart")


def _plugins() -> list[ModuleType]:
    found = []
    for name in PLUGIN_COMMANDS:
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
    return found


def version() -> str:
    """minister's version: the installed package's, else the one its pyproject.toml states (a
    clone run with ``python -m tui.cli``)."""
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        import tomllib

        stated = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        if isinstance(stated, str):
            return stated  # the source being run, even when another copy is installed
    except (OSError, ValueError, KeyError, TypeError):
        pass
    # Imported only here: importlib.metadata loads the e-mail and zip modules.
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("minister")
    except PackageNotFoundError:
        return "unknown"


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked for (not on every command)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        parser._print_message(f"minister {version()}\n", sys.stdout)
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(
        prog="minister",
        description="Audit and replay of PBEM Axis & Allies Classic games under the IAAPA rules.")
    parser.add_argument("--store", metavar="SPEC",
                        help="the store for stored games: memory:, sqlite:PATH, "
                             "postgresql://USER@HOST:PORT/DB or postgres: (default: $MINISTER_STORE, "
                             "else the SQLite file in the user's data directory)")
    parser.add_argument("--version", action=_Version, help="print minister's version and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay = commands.add_parser(
        "replay", help="report a game's effective history (headless)",
        description="Print a game's report: every battle round by round, with the dice, the hits "
                    "and the losses, and the findings. By default the history as corrected (the "
                    "remedies of the edition applied); --as-rolled shows the record untouched.")
    replay.add_argument("file", metavar="FILE|GAME",
                        help="a replay file (minister-replay/1), an evidence bundle (read only, after "
                             "its own checks) or a stored game id")
    replay.add_argument("--json", action="store_true", help="the JSON report (minister-report/1)")
    replay.add_argument("--as-rolled", action="store_true",
                        help="the record as the dice fell, findings listed, no remedy applied")
    _store_commands().add_store_option(replay)
    replay.set_defaults(handler=cmd_replay)

    verify = commands.add_parser(
        "verify", help="check every replay's [expect] table, an evidence bundle (no store needed), "
                       "or a stored game's integrity and dice",
        description="Compare each replay file's [expect] table with its report and print every "
                    "mismatch with the line of the file that states it; exit 1 on a mismatch. "
                    "Given an evidence bundle (minister bundle), check every part of it with no "
                    "store. With --integrity or --dice, check a stored game instead.")
    verify.add_argument("paths", nargs="*", metavar="FILE|DIR",
                        help="replay files or folders of them, or evidence bundles (minister bundle)")
    _store_commands().add_verify_options(verify)
    verify.set_defaults(handler=cmd_verify)

    for plugin in _plugins():
        plugin.add_parser(commands)
    return parser


def cmd_replay(args: argparse.Namespace) -> int:
    """``minister replay FILE [--json] [--as-rolled]``: a stored game's report comes from the store."""
    from application.usecases.review_model import is_stored, stored_report

    if is_stored(args.file):
        from application.usecases.services import check_stored

        check_stored(args.file, store=getattr(args, "store", None))  # a damaged record: exit 1
        report = stored_report(getattr(args, "store", None), args.file, json=args.json,
                               as_rolled=args.as_rolled)
        if args.json:
            sys.stdout.buffer.write(report)
            sys.stdout.buffer.write(b"\n")  # apart: no copy of a big report
        else:
            sys.stdout.write(report.decode())
        return EXIT_OK
    from domain.review.game_review import review
    from projections.report import report_json_body, report_text
    from tui.commands.bundles import open_ref  # a replay file, or an evidence bundle (read only)

    game = open_ref(args.file, getattr(args, "store", None))
    view = review(game, as_rolled=args.as_rolled)
    del game  # the record (its parsed logs) is not needed to write the report: memory per line
    if args.json:
        sys.stdout.buffer.write(report_json_body(view))
        sys.stdout.buffer.write(b"\n")
    else:
        sys.stdout.write(report_text(view))
    return EXIT_OK


def replay_files(paths: Sequence[str]) -> list[Path]:
    """Every ``*.toml`` replay under the given files and folders, sorted."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.toml")))
        elif path.exists():
            files.append(path)
        else:
            raise MinisterError(f"{raw}: no such file or folder (expected a replay file or a folder)")
    return files


def check_replay(replay: Replay) -> list[str]:
    """The mismatches of a replay against its ``[expect]`` (as corrected; ``as_rolled`` key aside),
    each starting with the line of the replay file that states the failing expectation."""
    from domain.review.game_review import review
    from projections.expect import check
    from projections.expect_lines import ExpectLines
    from projections.report import report_dict

    if replay.expect is None:
        return ["the file has no [expect] table"]
    expect = dict(replay.expect)
    as_rolled_expect = expect.pop("as_rolled", None)
    if as_rolled_expect is not None and not isinstance(as_rolled_expect, dict):
        expect["as_rolled"] = as_rolled_expect  # the report's own as_rolled flag
    problems = check(expect, report_dict(review(replay.game)))
    if isinstance(as_rolled_expect, dict):
        rolled = report_dict(review(replay.game, as_rolled=True))
        problems += check(as_rolled_expect, rolled, "as_rolled", ("as_rolled",))
    try:
        lines: ExpectLines | None = ExpectLines.read(replay.path)
    except OSError:  # a replay parsed from text has no file to point into
        lines = None
    return [_with_line(problem, lines) for problem in problems]


def _with_line(problem: Mismatch, lines: ExpectLines | None) -> str:
    line = lines.line_of(problem.expect_path) if lines is not None else None
    if line is None:
        return problem.message
    if problem.message.startswith(" "):  # a detail of the message above it
        return f"  {problem.message.strip()} (line {line})"
    return f"line {line}: {problem.message}"


def _store_commands() -> ModuleType:
    return importlib.import_module("tui.commands.store")


def cmd_verify(args: argparse.Namespace) -> int:
    """``minister verify FILE|DIR...`` (and ``--integrity GAME``, ``--dice GAME``): exit 1 on any
    mismatch, 2 on a bad file."""
    head = getattr(args, "head", None)
    if head is not None:
        from application.adapters.integrity import parse_head

        head = parse_head(head)  # a malformed head is bad input, whatever it is compared with
        if len(args.paths) + bool(getattr(args, "integrity", None)) != 1:
            raise MinisterError("--head HASH: expected one thing to compare it with: --integrity "
                                "GAME, one bundle or one replay file")
    if getattr(args, "integrity", None) or getattr(args, "dice", None):
        code: int = _store_commands().verify_store(args)
        if not args.paths:
            return code
        return max(code, cmd_verify(argparse.Namespace(
            paths=args.paths, json=args.json, head=None,
            allow_unverified=getattr(args, "allow_unverified", False))))
    if not args.paths:
        raise MinisterError("expected replay files or folders, bundles, or --integrity GAME / --dice GAME")
    bundle_codes = [_verify_bundle(Path(p), args, head) for p in args.paths if Path(p).is_file()]
    if any(code is not None for code in bundle_codes):
        if any(code is None for code in bundle_codes) or len(bundle_codes) != len(args.paths):
            raise MinisterError("expected either evidence bundles or replay files, not both at once")
        return max(code for code in bundle_codes if code is not None)
    from application.intake.replayfile import load_replay

    files = replay_files(args.paths)
    if not files:
        raise MinisterError(f"{' '.join(args.paths)}: no replay files (*.toml) found")
    if head is not None and len(files) != 1:
        raise MinisterError(f"--head HASH: {args.paths[0]} holds {len(files)} replay files; expected one")
    failed = bad = 0
    results: list[dict[str, object]] = []
    quiet = getattr(args, "json", False)
    for path in files:
        try:
            replay = load_replay(path)
            if head is None:
                problems = check_replay(replay)
            else:  # an exported record has no [expect]: the head is what is checked then
                problems = [*_head_problems(replay, head),
                            *(check_replay(replay) if replay.expect is not None else [])]
        except MinisterError as error:
            print(f"ERROR {error}", file=sys.stderr)
            results.append({"file": str(path), "ok": False, "error": str(error)})
            bad += 1
            continue
        results.append({"file": str(path), "ok": not problems, "problems": problems})
        if problems:
            failed += 1
        if quiet:
            continue
        print(f"FAIL {path}" if problems else f"ok   {path}")
        for problem in problems:
            print(f"  {problem}")
    if quiet:
        print(json.dumps({"passed": len(files) - failed - bad, "failed": failed, "unreadable": bad,
                          "files": results}, indent=1))
    else:
        print(f"{len(files) - failed - bad} passed, {failed} failed" + (f", {bad} unreadable" if bad else ""))
    if bad:
        return EXIT_BAD_INPUT
    return EXIT_MISMATCH if failed else EXIT_OK


def _verify_bundle(path: Path, args: argparse.Namespace, head: str | None) -> int | None:
    """``minister verify BUNDLE [--head HASH]``: checked with no store (None: not a bundle)."""
    letter = importlib.import_module("tui.commands.letter")
    code: int | None = letter.verify_bundle(path, as_json=getattr(args, "json", False), head=head,
                                            allow_unverified=getattr(args, "allow_unverified", False))
    return code


def _head_problems(replay: Replay, head: str) -> list[str]:
    """A replay file's events against the head the player holds (``verify FILE --head HASH``)."""
    from application.adapters.integrity import head_of, held_head_problem, link_position

    events = replay.events
    problem = held_head_problem(head, head_of(events), len(events), link_position(events, head))
    return [f"head: {problem}"] if problem is not None else []


#: Commands whose standard output is not text for a reader: the timeline (Textual draws it) and
#: ``export`` (a replay file, whose strings TOML escapes itself).
_RAW_OUTPUT = frozenset({"show", "export"})


class ShownText(io.TextIOBase):
    """A text stream that shows control characters rather than sending them to the terminal
    (projections.plain.visible): messages quoting a stored name or the user's input cannot
    clear the screen, set the window title or forge a row. Line feeds and tabs pass."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` with its control characters made visible."""
        self._stream.write(visible(text, lines=True))
        return len(text)

    def flush(self) -> None:
        """Flush the stream underneath."""
        self._stream.flush()

    def isatty(self) -> bool:
        """Whether the stream underneath is a terminal."""
        return self._stream.isatty()


@contextlib.contextmanager
def _shown(stdout: bool) -> Iterator[None]:
    """Standard error, and standard output when ``stdout``, through :class:`ShownText`."""
    saved = sys.stdout, sys.stderr
    sys.stderr = ShownText(saved[1])
    if stdout:
        sys.stdout = ShownText(saved[0])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``minister`` command."""
    with _shown(stdout=False):  # argparse's errors quote the argument given
        args = build_parser().parse_args(argv)
    # JSON keeps the exact strings (it escapes them); the timeline and exports write their own.
    plain = args.command not in _RAW_OUTPUT and not getattr(args, "json", False)
    with _shown(stdout=plain) if args.command != "show" else contextlib.nullcontext():
        try:
            code: int = args.handler(args)
        except MinisterError as error:
            print(visible(f"minister: {error}", lines=True), file=sys.stderr)
            return error.exit_code  # bad input (2), or a stored record failing its checks (1)
        except BrokenPipeError:
            return EXIT_OK
    return code


def run() -> int:
    """The ``minister`` command as a process (its console script and ``python -m tui.cli``):
    :func:`main`, then every object the command made frozen out of the garbage collector, so
    the interpreter's exit does not walk them all again to find no cycle (a letter on a
    50,000-event game exited ~0.5 s sooner). Callers in a process that goes on (tests) call
    :func:`main`, whose garbage must still be collected."""
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(run())
