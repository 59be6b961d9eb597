"""A stored review's battle rows are compared by the digests of their bytes (a refresh rewrites
only those that changed: application/usecases/review_model.py): the same game must encode to the
same bytes in every process, whatever the order Python's hash seed gives its sets."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPLAYS

_ENCODE = """
import hashlib, sys
import msgspec
from application.intake.replayfile import load_replay
from domain.review.game_review import review
game = load_replay(sys.argv[1]).game
print(hashlib.sha256(msgspec.msgpack.encode(review(game))).hexdigest())
"""


def test_a_review_encodes_to_the_same_bytes_whatever_the_hash_seed() -> None:
    replay = str(REPLAYS / "games" / "two-turns-board-moves-on-2008.toml")
    digests = set()
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", _ENCODE, replay], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed})
        digests.add(done.stdout.strip())
    assert len(digests) == 1
