"""``minister show FILE|GAME``: the terminal timeline of a game.

    minister show replays/part13/overkill-6arm-v-2inf.toml
    minister show part14-east-europe --keymap keys.toml

``--keymap`` names a TOML file of binding ids and keys (``"timeline.next" = "space,right"``)
that replace the default keys; ``?`` in the app lists every binding id.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from domain.errors import MinisterError
from tui.commands.store import add_store_option

if TYPE_CHECKING:  # Textual loads only when the timeline opens
    from tui.app import MinisterApp

EXIT_OK = 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``show`` on the ``minister`` sub-command parser."""
    parser = subparsers.add_parser(
        "show", help="the terminal timeline: step through the battles as rolled and as corrected",
        description="Scrub through a game's battle history, as rolled and as corrected, "
                    "with the battle board, the findings and rulings, and the luck of the dice.")
    parser.add_argument("file", metavar="FILE|GAME",
                        help="a replay file (minister-replay/1) or a stored game id")
    parser.add_argument("--keymap", metavar="FILE",
                        help='a TOML file of key remappings: binding id = "keys" (see ? in the app)')
    add_store_option(parser)
    parser.set_defaults(handler=run)


def read_keymap(path: str) -> dict[str, str]:
    """The remappings in a keymap file; MinisterError quoting a bad file or entry."""
    import tomllib  # only here: the other commands never load it

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise MinisterError(f"{path}: cannot read the keymap ({error.strerror})") from error
    except tomllib.TOMLDecodeError as error:
        raise MinisterError(f"{path}: not TOML ({error})") from error
    keymap: dict[str, str] = {}
    for binding_id, keys in data.items():
        if not isinstance(keys, str) or not keys.strip():
            raise MinisterError(f"{path}: {binding_id} = {keys!r}: expected a string of keys, "
                                'e.g. "space,right"')
        keymap[binding_id] = keys
    return keymap


def run(args: argparse.Namespace) -> int:
    """Open the timeline app on a game; returns the app's exit code (2 when the game is unreadable)."""
    app = prepared(args)
    app.run()
    return app.return_code or EXIT_OK


def prepared(args: argparse.Namespace) -> MinisterApp:
    """The timeline app on the game ``args`` name, everything checked that is checked before it
    opens: the file or stored game, the keymap, and a stored record's whole chain and events
    (what ``minister show`` waits for before its first frame; benchmarks/bench_open.py times
    the first paint through here)."""
    ref: str = args.file
    if ref.endswith(".toml") and not Path(ref).exists():
        raise MinisterError(f"{ref}: no such replay file")
    keymap = read_keymap(args.keymap) if args.keymap else None
    checked: Callable[[], None] | None = None
    if not Path(ref).exists():  # a stored game: a damaged record is refused before the timeline opens
        from application.usecases.services import check_stored_aside

        checked = check_stored_aside(ref, store=getattr(args, "store", None))
    from tui.app import MinisterApp, binding_ids  # Textual loads while the record is checked
    from tui.loading import FileSource

    source = FileSource(ref, store=getattr(args, "store", None))
    if checked is not None:
        source.read_opening()  # the first frame's rows read meanwhile too
        checked()  # nothing is shown before the record passes
    unknown = sorted(set(keymap or {}) - binding_ids())
    if unknown:
        raise MinisterError(f"{args.keymap}: no binding named {', '.join(unknown)} "
                            f"(the ids are listed by ? in the app)")
    return MinisterApp(source, keymap=keymap)
