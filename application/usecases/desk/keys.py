"""The Minister's dice secrets, kept out of the event stream and the export until revealed.

One file per commitment, readable by its owner only (0600, in a 0700 folder): ``--keys DIR``,
else ``$MINISTER_KEYS``, else ``$XDG_DATA_HOME/minister/keys`` (the Minister's own machine, never
the club's store). A secret is only ever recorded in the game by a reveal.

An existing folder that other users can write to (group or world write permission), or that
belongs to another user, is refused before any key is written or read: whoever can write there
could delete a key file (its dice could then never be checked) or put his own in its place.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from domain.battle.dice import COMMIT_SCHEMES, opens
from domain.errors import MinisterError
from domain.record.events import game_uuid


def keys_dir(explicit: str | None = None) -> Path:
    """The folder of the Minister's key files."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("MINISTER_KEYS")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "minister" / "keys"


def key_path(folder: Path, game_id: str, commitment: str) -> Path:
    """The key file of one commitment of one game."""
    return folder / f"{game_uuid(game_id)}-{commitment[:16]}.key"


def check_folder(folder: Path) -> None:
    """Refuse a key folder other users can write to, or that is not the user's own (a folder
    not made yet is made owner-only by :func:`save_secret`)."""
    try:
        info = folder.stat()
    except FileNotFoundError:
        return
    except OSError as error:
        raise MinisterError(f"{folder}: cannot read the dice key folder ({error.strerror})") from None
    if not stat.S_ISDIR(info.st_mode):
        raise MinisterError(f"{folder}: expected a folder for the dice key files (--keys DIR)")
    mode = stat.S_IMODE(info.st_mode)
    writers = [who for who, bit in (("its group", stat.S_IWGRP), ("every user", stat.S_IWOTH))
               if mode & bit]
    if writers:
        raise MinisterError(f"{folder}: the dice key folder is writable by {' and '.join(writers)} "
                            f"(mode {mode:04o}): they could delete or replace the Minister's key "
                            f"files; expected a folder only its owner can write (chmod 700 {folder})")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise MinisterError(f"{folder}: the dice key folder belongs to another user (uid "
                            f"{info.st_uid}); expected a folder of your own (--keys DIR)")


def save_secret(folder: Path, game_id: str, commitment: str, secret: str) -> Path:
    """Write a new key file (owner-only; never overwrites one)."""
    check_folder(folder)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = key_path(folder, game_id, commitment)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"game": game_id, "commitment": commitment, "secret": secret}, out)
    except OSError as error:
        raise MinisterError(f"{folder}: cannot write the dice key file ({error.strerror}); "
                            "expected a writable folder (--keys DIR or $MINISTER_KEYS)") from None
    return path


def load_secret(folder: Path, game_id: str, commitment: str, scheme: str) -> str:
    """The secret behind ``commitment``, checked against it."""
    check_folder(folder)
    path = key_path(folder, game_id, commitment)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        secret = data["secret"]
    except (OSError, ValueError, KeyError, TypeError):
        raise MinisterError(f"{path}: no readable key file for commitment {commitment[:16]}… of "
                            f"game {game_id!r} (expected the file `minister commit` wrote; "
                            "--keys DIR names its folder)") from None
    if not isinstance(secret, str) or scheme not in COMMIT_SCHEMES or not opens(secret, commitment, scheme):
        raise MinisterError(f"{path}: the secret does not open commitment {commitment[:16]}…")
    return secret
