"""``minister chart GAME -o FILE``: the game's story as an SVG picture.

    minister chart replays/games/full-game-three-rounds-2008.toml -o story.svg

Every battle's odds as declared against its result as rolled and as corrected, and each power's
income turn by turn (projections/story.py, drawn by projections/story_svg.py: plain SVG written
by hand, no plotting library). The file is written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from domain.errors import MinisterError
from tui.commands.store import add_store_option

EXIT_OK = 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``chart`` on the ``minister`` sub-command parser."""
    parser = subparsers.add_parser(
        "chart", help="the game's story as an SVG picture: odds against results, income by turn",
        description="Write the game's story as an SVG picture: each battle's odds as declared "
                    "against its result as rolled and as corrected, and each power's IPC income "
                    "turn by turn (what the timeline's c shows).")
    parser.add_argument("file", metavar="FILE|GAME",
                        help="a replay file (minister-replay/1) or a stored game id")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.svg", help="the SVG file to write")
    add_store_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Review the game in both histories, work out every battle's odds, write the SVG."""
    from domain.review.game_review import review
    from projections.story import Story
    from projections.story_svg import story_svg
    from projections.timeline import Timeline

    output = Path(args.output)
    if output.suffix.lower() != ".svg":
        # The picture is SVG only (written by hand, no plotting library): a story.png holding
        # SVG would open as a broken image.
        raise MinisterError(f"--output {args.output}: expected a file name ending in .svg (minister "
                            "chart writes SVG; a browser or an image tool converts it)")
    if not output.parent.is_dir():
        raise MinisterError(f"--output {args.output}: no such folder ({output.parent})")
    if output.is_dir():
        raise MinisterError(f"--output {args.output}: a folder, expected a file name")
    from tui.commands.bundles import open_ref

    game = open_ref(args.file, getattr(args, "store", None))
    corrected = review(game)
    story = Story(Timeline(corrected, review(game, as_rolled=True)))
    for b in range(len(story.battles)):
        story.work_out(b)
    text = story_svg(story, corrected.title or corrected.game_id)
    # Written beside the file, then moved over it: never a half-written picture.
    handle, temporary = tempfile.mkstemp(dir=output.parent, prefix=".minister-chart-", suffix=".svg")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)  # as a file written straight would be: it is to be shared
        os.replace(temporary, output)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    print(f"wrote {output}")
    return EXIT_OK
