"""A row edited in the database damages only its own game (issue 26 item 5), on every store.

The audit found one undecodable ``GameStarted`` row made ``games`` fail with a traceback for
every game, and five more traceback sites for rows edited in the database. Each damage below is
made to one game's rows, as someone holding the database would (garbage bytes, a text cell, a
field of the wrong type with the chain recomputed, an edition minister does not know, a row that
is no map, a row deleted): the list still shows every game, the damaged one marked as such;
opening it is refused naming the event (never a traceback); the other game opens as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import msgspec
import pytest

from application.adapters.app import MinisterApplication
from application.adapters.archive import list_games_at_once
from application.adapters.eventstore import read_states, set_raw_state
from application.adapters.integrity import TamperedError, walk_stored
from application.adapters.stores import list_games, open_store
from application.usecases.transfer import export_game, import_replay
from domain.record.events import game_uuid
from tests.integration.store_helpers import MemorySpec, PostgresSpec, RawRows, SQLiteSpec, generated

BAD, GOOD = "generated-30-81", "generated-30-82"

Damage = Callable[[RawRows, int], None]


def _garbage(raw: RawRows, version: int) -> None:
    raw.set_state(BAD, version, b"\xc1garbage")


def _text(raw: RawRows, version: int) -> None:
    set_raw_state(raw.app, game_uuid(BAD), version, "a state cell as text")


def _not_a_map(raw: RawRows, version: int) -> None:
    raw.set_state(BAD, version, msgspec.msgpack.encode([1, 2, 3]))


def _forged(**changes: object) -> Damage:
    def damage(raw: RawRows, version: int) -> None:
        raw.edit(BAD, version, **changes)
        raw.rechain(BAD)  # the forger recomputes the chain: only decoding can catch it
    return damage


def _deleted(raw: RawRows, version: int) -> None:
    raw.delete(BAD, version)


#: (damage, the versions of the bad game's rows it is made to).
DAMAGES: dict[str, tuple[Damage, tuple[int | str, ...]]] = {
    "garbage": (_garbage, (1, 12, "last")),
    "text": (_text, (1, 12, "last")),
    "not-a-map": (_not_a_map, (1, "last")),
    "title-int-rechained": (_forged(title=42), (1,)),
    "edition-unknown-rechained": (_forged(edition="iaapa-2099"), (1,)),
    "version-field-rechained": (_forged(originator_version=99), (12,)),
    "deleted": (_deleted, (12,)),
}
CASES = [(name, version) for name, (_, versions) in DAMAGES.items() for version in versions]


class DamagedRowsContract:
    """One game damaged, one intact; subclasses provide ``spec``."""

    @pytest.fixture
    def spec(self) -> Iterator[str]:
        raise NotImplementedError

    @pytest.fixture
    def app(self, spec: str) -> Iterator[MinisterApplication]:
        app = open_store(spec)
        import_replay(app, generated(30, 81))
        import_replay(app, generated(30, 82))
        yield app
        app.close()

    @pytest.mark.parametrize(("name", "version"), CASES)
    def test_only_the_damaged_game_is_affected(self, app: MinisterApplication, spec: str, name: str,
                                               version: int | str) -> None:
        raw = RawRows(app)
        last = len(raw.rows(BAD))
        number = last if version == "last" else int(version)
        DAMAGES[name][0](raw, number)
        fresh = _reopened(app, spec)  # as a new command would find the store
        try:
            listings = [list_games(fresh), list_games_at_once(fresh)]
            for games in (listing for listing in listings if listing is not None):
                by_id = {g.game_id: g for g in games}
                assert by_id[GOOD].damaged is None and by_id[GOOD].events == 30
                if name in ("garbage", "text", "not-a-map", "title-int-rechained") and number in (1, last):
                    # Named by the id its first row still states, else by its stored key.
                    damaged = by_id.get(BAD) or by_id[str(game_uuid(BAD))]
                    assert damaged.damaged is not None, games
                    assert f"stored event {number} cannot be decoded" in damaged.damaged
            for opening in (lambda: fresh.game(BAD), lambda: export_game(fresh, BAD),
                            lambda: walk_stored(BAD, read_states(fresh, game_uuid(BAD)))):
                # The game named as its first row states it, else by its stored key.
                with pytest.raises(TamperedError, match=rf"game '({BAD}|{game_uuid(BAD)})': stored "
                                                        rf"event {number} \("):
                    opening()
            assert fresh.game(GOOD).version == 30
            assert export_game(fresh, GOOD).count("[[event]]") == 29
        finally:
            if fresh is not app:
                fresh.close()


def _reopened(app: MinisterApplication, spec: str) -> MinisterApplication:
    """The store opened afresh (a memory store is gone once closed: the same one, its games'
    states forgotten, as a new process would not hold them)."""
    if spec == "memory:":
        app.latest_games.forget()
        return app
    return open_store(spec)


class TestMemoryDamagedRows(MemorySpec, DamagedRowsContract):
    """In memory."""


class TestSQLiteDamagedRows(SQLiteSpec, DamagedRowsContract):
    """In an SQLite file."""


class TestPostgresDamagedRows(PostgresSpec, DamagedRowsContract):
    """On PostgreSQL."""
