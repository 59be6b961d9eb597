"""Events linked when made (LinkedEvents): the store records them as they are, with the links it
would compute itself, and links anything else (or any other shape of events) itself."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from application.adapters.app import MinisterApplication
from application.adapters.integrity import GENESIS, LinkedEvents, chain_events, check_game, link
from application.adapters.mapper import encode_event
from domain.record.events import GameEvent, game_uuid
from tests.integration.store_helpers import generated


def _unlinked(events: Sequence[GameEvent]) -> list[GameEvent]:
    return [msgspec.structs.replace(event, chain=None) for event in events]


def test_linked_events_hold_the_links_of_the_chain() -> None:
    events = generated(60, 7).events
    assert isinstance(events, LinkedEvents)
    previous = GENESIS
    for event in events:
        assert event.chain == link(previous, event)
        previous = event.chain
    assert list(events) == chain_events(_unlinked(events))


def test_a_store_records_linked_events_as_it_would_link_them() -> None:
    replay = generated(60, 7)
    plain, linked = MinisterApplication(), MinisterApplication()
    stored_plain = plain.record(_unlinked(replay.events))
    stored_linked = linked.record(replay.events)
    assert [encode_event(e) for e in stored_linked] == [encode_event(e) for e in stored_plain]
    assert [encode_event(e) for e in linked.game_events(replay.game_id)] == \
        [encode_event(e) for e in stored_plain]
    check_game(linked, replay.game_id)  # the stored chain checks


def test_linked_events_of_two_games_are_linked_per_game_by_the_store() -> None:
    first, second = generated(20, 1), generated(20, 2)
    mixed = [*_unlinked(first.events[:5]), *_unlinked(second.events[:5])]
    assert game_uuid(first.game_id) != game_uuid(second.game_id)
    stored = MinisterApplication().record(LinkedEvents(mixed))  # one chain across two games...
    assert stored[5].chain == link(GENESIS, stored[5])  # ...linked again: the second game's own
    assert [e.chain for e in stored[:5]] == [e.chain for e in first.events[:5]]


def test_linked_events_after_the_first_are_linked_from_the_stored_chain() -> None:
    replay = generated(20, 3)
    app = MinisterApplication()
    app.record(replay.events[:10])
    later = LinkedEvents(_unlinked(replay.events[10:]))  # linked from the genesis link: wrong here
    stored = app.record(later)
    assert [e.chain for e in stored] == [e.chain for e in replay.events[10:]]


@pytest.mark.parametrize("cut", [1, 2])
def test_linked_events_are_immutable(cut: int) -> None:
    events = generated(20, 4).events
    with pytest.raises(TypeError):
        events[cut] = events[0]  # type: ignore[index]
