"""A stored game that fails its own checks: refused, never shown as fact.

The hash chain (:mod:`application.adapters.integrity`) and the reads of stored rows
(:mod:`application.adapters.eventstore`) both refuse a record whose rows were changed after they
were recorded, with one error naming the first event that fails: a command ends with exit 1 (a
verification failure, not bad input) and says which event, never a traceback.
"""

from __future__ import annotations

from domain.errors import MinisterError

__all__ = ["TamperedError", "kind_of", "unreadable"]


class TamperedError(MinisterError):
    """A stored game whose hash chain is broken, or whose events cannot be read into the game:
    it is refused (exit 1, a verification failure, naming the event), never shown as fact."""

    exit_code = 1


def unreadable(game_id: str, version: int, topic: str, reason: str) -> TamperedError:
    """A stored event whose link holds but which cannot be read into the game (a row edited and
    its chain recomputed, or written by another program): refused like a broken chain."""
    return TamperedError(f"game {game_id!r}: stored event {version} ({kind_of(topic)}) cannot be "
                         f"read into the game ({reason}): the record was changed after it was "
                         "recorded, or not written by minister, so it is not shown. Run minister "
                         f"verify --integrity {game_id} for the details")


def kind_of(topic: str) -> str:
    """``minister/RollRecorded@1`` -> ``RollRecorded``."""
    return topic.rsplit("/", maxsplit=1)[-1].split("@", maxsplit=1)[0]
