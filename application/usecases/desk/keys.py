"""The Minister's dice secrets, kept out of the event stream and the export until revealed.

One file per commitment, readable by its owner only (0600, in a 0700 folder): ``--keys DIR``,
else ``$MINISTER_KEYS``, else ``$XDG_DATA_HOME/minister/keys`` (the Minister's own machine, never
the club's store). A secret is only ever recorded in the game by a reveal.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from domain.battle.dice import opens
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


def save_secret(folder: Path, game_id: str, commitment: str, secret: str) -> Path:
    """Write a new key file (owner-only; never overwrites one)."""
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


def load_secret(folder: Path, game_id: str, commitment: str) -> str:
    """The secret behind ``commitment``, checked against it."""
    path = key_path(folder, game_id, commitment)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        secret = data["secret"]
    except (OSError, ValueError, KeyError, TypeError):
        raise MinisterError(f"{path}: no readable key file for commitment {commitment[:16]}… of "
                            f"game {game_id!r} (expected the file `minister commit` wrote; "
                            "--keys DIR names its folder)") from None
    if not isinstance(secret, str) or not opens(secret, commitment):
        raise MinisterError(f"{path}: the secret does not open commitment {commitment[:16]}…")
    return secret
