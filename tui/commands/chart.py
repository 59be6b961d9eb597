"""``minister chart GAME -o FILE``: the game's story as an SVG or PNG picture.

    minister chart replays/games/full-game-three-rounds-2008.toml -o story.svg
    minister chart replays/games/full-game-three-rounds-2008.toml -o story.png

Every battle's odds as declared against its result as rolled and as corrected, and each power's
income turn by turn (projections/story.py, drawn by projections/story_svg.py: plain SVG written
by hand; or projections/story_png.py: the same picture drawn with Pillow). The file's name says
the format; it is written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from domain.errors import MinisterError
from tui.commands.store import add_store_option

EXIT_OK = 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``chart`` on the ``minister`` sub-command parser."""
    parser = subparsers.add_parser(
        "chart", help="the game's story as an SVG or PNG picture: odds against results, income by turn",
        description="Write the game's story as an SVG or PNG picture (by the file's name): each "
                    "battle's odds as declared "
                    "against its result as rolled and as corrected, and each power's IPC income "
                    "turn by turn (what the timeline's c shows).")
    parser.add_argument("file", metavar="FILE|GAME",
                        help="a replay file (minister-replay/1) or a stored game id")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.svg|FILE.png",
                        help="the picture to write: SVG or PNG, by its name")
    add_store_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Review the game in both histories, work out every battle's odds, write the picture."""
    from domain.review.game_review import review
    from projections.story import Story
    from projections.story_svg import story_svg
    from projections.timeline import Timeline

    output = Path(args.output)
    kind = output.suffix.lower()
    if kind not in (".svg", ".png"):
        # The name says the format: a story.jpg holding SVG would open as a broken image.
        raise MinisterError(f"--output {args.output}: expected a file name ending in .svg or .png "
                            "(the picture's format)")
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
    title = corrected.title or corrected.game_id
    if kind == ".png":
        from projections.story_png import story_png

        data = story_png(story, title)
    else:
        data = story_svg(story, title).encode("utf-8")
    # Written beside the file, then moved over it: never a half-written picture.
    import tempfile  # only here: the other commands never load it

    handle, temporary = tempfile.mkstemp(dir=output.parent, prefix=".minister-chart-", suffix=kind)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)  # as a file written straight would be: it is to be shared
        os.replace(temporary, output)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    print(f"wrote {output}")
    return EXIT_OK
