"""Where the command palette's "Screenshot" saves, and under which name.

The user's Downloads folder when there is one, else ``screenshots`` in minister's data directory
(platformdirs, made when first needed): never the current directory, which is as often as not a
repository's working tree. The name is ASCII whatever the game's title ("minister_<game>_<date
and time>.svg"): a title's "·" or a name's accent makes a file some tools and shells trip on.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from pathlib import Path

_NOT_NAME = re.compile(r"[^A-Za-z0-9]+")
#: Characters of the game's name kept in the file name, at most.
NAME_CHARS = 60


def screenshot_directory() -> Path:
    """The Downloads folder if the user has one, else minister's data directory's
    ``screenshots`` folder (made here)."""
    from platformdirs import user_data_path, user_downloads_path

    downloads = user_downloads_path()
    if downloads.is_dir():
        return downloads
    folder = user_data_path("minister", appauthor=False) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot_name(game: str, when: datetime) -> str:
    """"minister_full-game-three-rounds-2008_2024-05-01_10-30-00.svg": ASCII letters, digits,
    dashes and underscores only (accents dropped, anything else a dash)."""
    ascii_name = unicodedata.normalize("NFKD", game).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_NAME.sub("-", ascii_name).strip("-")[:NAME_CHARS].strip("-") or "game"
    return f"minister_{slug}_{when:%Y-%m-%d_%H-%M-%S}.svg"
