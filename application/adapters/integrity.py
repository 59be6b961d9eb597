"""Tamper evidence: a hash chain over each game's events (``minister-chain/1``).

Every recorded event carries ``chain``: the hex SHA-256 of ``"minister-chain/1|"``, the
previous event's link (64 zeros before the first event) and ``"|"``, followed by the event's
canonical encoding (:func:`application.adapters.mapper.encode_event`) with ``chain`` set to nil. So changing,
removing or reordering any stored event breaks the chain from that event on, and the last link
(the *head*) stands for the whole record: ``minister export`` prints it so both players can hold
it, and ``minister verify --integrity GAME --head HASH`` also catches a record rewritten from
scratch (chain and all) or cut short.

Verification hashes the *stored bytes* with the ``chain`` value spliced out (replaced by nil),
not a re-encoding of the decoded event: a field added to an event class later must not make every
old event look tampered with. msgspec writes every event as a map opening with the six fields of
:class:`~domain.record.events.GameEvent` in order, ``chain`` the sixth; a row that opens so has its
``chain`` value's bytes replaced in place (:func:`stored_link`), any other (an older layout, a
hand-made row) is read as plain MessagePack, ``chain`` set to nil and written back.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from application.adapters.damage import TamperedError, kind_of, unreadable
from application.adapters.mapper import encode_event
from domain.errors import MinisterError
from domain.record.events import GameEvent

if TYPE_CHECKING:
    from eventsourcing.application import Application

SCHEME = "minister-chain/1"
GENESIS = "0" * 64
_PREFIX = f"{SCHEME}|".encode()


def link_bytes(previous: str, canonical: bytes) -> str:
    """The chain link of an event's canonical bytes after the link ``previous``."""
    digest = hashlib.sha256(_PREFIX)
    digest.update(previous.encode("ascii"))
    digest.update(b"|")
    digest.update(canonical)
    return digest.hexdigest()


def link(previous: str, event: GameEvent) -> str:
    """The chain link of ``event`` after the link ``previous``."""
    body = event if event.chain is None else msgspec.structs.replace(event, chain=None)
    return link_bytes(previous, encode_event(body))


def stored_link(state: bytes) -> tuple[bytes, object]:
    """A stored event's canonical bytes (its ``chain`` set to nil) and the ``chain`` it holds."""
    canonical, chain, _ = _stored_parts(state)
    return canonical, chain


class _Opening(msgspec.Struct):
    """The stored bytes of the fields every event's map opens with, in msgspec's order."""

    originator_id: msgspec.Raw
    originator_version: msgspec.Raw
    timestamp: msgspec.Raw
    at: msgspec.Raw
    source_line: msgspec.Raw
    chain: msgspec.Raw


_OPENING = msgspec.msgpack.Decoder(_Opening)
_KEYS = [msgspec.msgpack.encode(name) for name in _Opening.__struct_fields__]
_CHAIN = msgspec.msgpack.Decoder(str | None)
_VERSION = msgspec.msgpack.Decoder(int)
_MAP_HEADER = {**dict.fromkeys(range(0x86, 0x90), 1), 0xDE: 3, 0xDF: 5}  # a map of 6+ entries
_NIL = b"\xc0"
_TIME = rb"(?:\xd6\xff.{4}|\xd7\xff.{8}|\xc7\x0c\xff.{12})"  # msgspec's timestamps
_UINT = rb"[\x00-\x7f]|\xcc.|\xcd.{2}|\xce.{4}|\xcf.{8}"
#: The opening of a row as minister writes it: the six base fields in order (a map of 6+ entries,
#: the id a string of 36, the version an unsigned int, msgspec's timestamps, the link a string
#: of 64), matched in one call, the version's bytes and the link its groups: what
#: :func:`_stored_parts` reads with a decoder, found without decoding the row (every chain
#: check reads rows so: :func:`chain_links`).
#: The link's 64 bytes are not matched as hex digits: they must equal the link computed (64
#: lowercase hex digits) or the row is refused, so a class check would only choose the refusal's
#: words (a third of the match's cost on the stored 50,000-event generated game).
_WRITTEN = re.compile(
    rb"(?:[\x86-\x8f]|\xde.{2}|\xdf.{4})\xadoriginator_id\xd9\x24.{36}\xb2originator_version("
    + _UINT + rb")\xa9timestamp" + _TIME + rb"\xa2at(?:\xc0|" + _TIME + rb")\xabsource_line(?:\xc0|"
    + _UINT + rb"|[\xe0-\xff]|\xd0.|\xd1.{2}|\xd2.{4}|\xd3.{8})\xa5chain\xd9\x40(.{64})",
    re.DOTALL)


def _stored_parts(state: bytes) -> tuple[bytes, object, object]:
    """A stored event's canonical bytes, the ``chain`` and the ``originator_version`` it holds.

    The whole row is read as MessagePack (garbage anywhere in it is refused). When it opens
    with the six base fields, in order, exactly as decoded, the ``chain`` value is the sixth
    and its bytes are spliced out: every other byte is hashed as stored. Any other row is
    decoded as a tree and written back with ``chain`` nil (the older way, kept for old rows).
    """
    try:
        opening = _OPENING.decode(state)
        chain = _CHAIN.decode(opening.chain)
        version = _VERSION.decode(opening.originator_version)
    except msgspec.ValidationError:  # not the six fields (an older row), or not of their types
        return _rewritten(state)
    fields = b"".join((_KEYS[0], opening.originator_id, _KEYS[1], opening.originator_version,
                       _KEYS[2], opening.timestamp, _KEYS[3], opening.at, _KEYS[4],
                       opening.source_line, _KEYS[5], opening.chain))
    start = _MAP_HEADER.get(state[0], 0)
    if not start or not state.startswith(fields, start):  # fields in another order, or twice
        return _rewritten(state)
    end = start + len(fields)
    canonical = b"".join((state[:end - len(opening.chain)], _NIL, state[end:]))
    return canonical, chain, version


def _rewritten(state: bytes) -> tuple[bytes, object, object]:
    """:func:`_stored_parts` of a row of any layout: decoded as a tree, ``chain`` set to nil."""
    tree = msgspec.msgpack.decode(state)
    if not isinstance(tree, dict):
        raise ValueError("not an encoded event (a MessagePack map)")
    chain = tree.get("chain")
    tree["chain"] = None
    return msgspec.msgpack.encode(tree), chain, tree.get("originator_version")


def follow_chain(game_id: str, states: Iterable[tuple[str, bytes]], previous: str,
                 first_version: int, links: dict[int, str] | None = None) -> str:
    """Check stored (topic, state) rows continue the chain from ``previous``; the new head.

    Raises :class:`TamperedError` at the first row that is not the next version or does not
    match its link (:func:`chain_links`). ``links``, when given, collects the link of every
    version it names.
    """
    version = first_version
    for link in chain_links(game_id, states, previous, first_version):
        if links is not None and version in links:
            links[version] = link
        previous = link
        version += 1
    return previous


def chain_links(game_id: str, states: Iterable[tuple[str, bytes]], previous: str,
                first_version: int) -> Iterator[str]:
    """The link of each stored (topic, state) row, the first being event ``first_version``,
    checked as it is made: :class:`TamperedError` at the first row that is not the next version
    or does not match its link.

    A row that opens as minister writes it (:data:`_WRITTEN`) has its version and link found by
    the pattern, and every other byte hashed as stored: whatever else it holds is read where
    the row is decoded (folded, or checked whole by :func:`walk_stored`). Any other row (an
    older layout, a hand-made one, garbage) is read whole as :func:`_stored_parts` reads it.
    """
    written, sha256, join = _WRITTEN.match, hashlib.sha256, b"".join
    last = previous.encode()
    for version, (topic, state) in enumerate(states, first_version):
        found = written(state) if type(state) is bytes else None  # a text cell: refused below
        if found is None:
            try:
                canonical, held, stated = _stored_parts(state)
            except (msgspec.DecodeError, ValueError, TypeError) as error:  # garbage, or text
                raise _tampered(game_id, version, topic, f"cannot be decoded ({error})") from None
            if stated != version:
                raise _tampered(game_id, version, topic, f"says it is event {stated}")
            previous = link_bytes(previous, canonical)
            last = previous.encode()
            if held != previous:
                raise _tampered(game_id, version, topic, "does not match the hash chain")
        else:
            number = found[1]
            if (number[0] if len(number) == 1 else int.from_bytes(number[1:], "big")) != version:
                raise _tampered(game_id, version, topic, f"says it is event {_VERSION.decode(number)}")
            start, end = found.span(2)
            previous = sha256(join((_PREFIX, last, b"|", state[:start - 2], _NIL, state[end:]))).hexdigest()
            last = previous.encode()
            if found[2] != last:
                raise _tampered(game_id, version, topic, "does not match the hash chain")
        yield previous


def _tampered(game_id: str, version: int, topic: str, reason: str) -> TamperedError:
    return TamperedError(f"game {game_id!r}: stored event {version} ({kind_of(topic)}) {reason}: "
                         "the record was changed after it was recorded, so it is not shown. "
                         f"Run minister verify --integrity {game_id} for the details")


def walk_stored(game_id: str, states: Sequence[tuple[str, bytes]]) -> str:
    """Check a game's whole stored record, (topic, state) rows from event 1: every link of the
    chain (:func:`chain_links`), and every row decoding as its event (the version and link it
    was checked as); the head. :class:`TamperedError` names the first event that fails (what
    ``replay`` and ``show`` of a stored game check before showing anything, whatever derived
    rows the store keeps). One pass: each row's link, then its decoding.
    """
    from application.adapters.mapper import DECODERS, decode_event
    from domain.memory import no_gc
    from domain.record.events import GameStarted
    from domain.rules.editions import edition

    link = GENESIS
    with no_gc():  # each event is dropped at once: the collector would only walk the young ones
        for (version, (topic, state)), link in zip(enumerate(states, 1),
                                                   chain_links(game_id, states, GENESIS, 1), strict=True):
            try:
                decoder = DECODERS.get(topic)
                event = decoder.decode(state) if decoder is not None else decode_event(topic, state)
                if version == 1:  # the game must start, in an edition minister knows
                    if not isinstance(event, GameStarted):
                        raise ValueError(f"a {type(event).__name__} where the game starts")
                    edition(event.edition)  # KeyError naming the editions minister knows
            except Exception as error:  # a row edited in the database may be any kind of garbage
                raise unreadable(game_id, version, topic, f"{type(error).__name__}: {error}") from None
            if event.originator_version != version or event.chain != link:
                # A field given twice: a decoder takes the last, so the event is not what was checked.
                raise _tampered(game_id, version, topic, "does not match the hash chain")
    return link


def chain_events(events: Iterable[GameEvent], previous: str = GENESIS) -> list[GameEvent]:
    """The events with their ``chain`` links set, continuing from ``previous``."""
    chained: list[GameEvent] = []
    for event in events:
        previous = link(previous, event)
        chained.append(msgspec.structs.replace(event, chain=previous))
    return chained


class LinkedEvents(tuple[GameEvent, ...]):
    """Events linked into one hash chain from the genesis link when made (by
    :func:`chain_events`), and immutable since: the links they hold are the ones a store would
    compute for a whole game, so it records them without linking them again (an import records
    the events its replay file's reading linked)."""

    __slots__ = ()

    def __new__(cls, events: Iterable[GameEvent]) -> LinkedEvents:
        return super().__new__(cls, chain_events(events))


def head_of(events: Sequence[GameEvent]) -> str:
    """The head hash of a chained record (the genesis value for no events)."""
    return (events[-1].chain or GENESIS) if events else GENESIS


def parse_head(text: str) -> str:
    """A head hash as given on the command line (``--head``): 64 hex digits, any case."""
    head = text.strip().lower()
    if len(head) != 64 or any(ch not in "0123456789abcdef" for ch in head):
        raise MinisterError(f"--head {text!r}: expected the 64 hex digits of a head hash (as "
                            "`minister export` or `minister bundle` printed it)")
    return head


def held_head_problem(held: str, head: str, events: int, held_at: int | None) -> str | None:
    """What a record's head says against the head a player holds (None: the same head).

    ``held_at`` is the event whose link ``held`` is (0: the empty record's genesis value; None:
    no event's). A held head that is an earlier link means events were added after it; one that
    is no link means the record was rewritten or cut short since it was taken: both fail.
    """
    if held == head:
        return None
    if held_at is not None:
        added = events - held_at
        span = f"event {events}" if added == 1 else f"events {held_at + 1} to {events}"
        return (f"{added} event{'s were' if added != 1 else ' was'} added after the head you hold "
                f"({held} is the link of event {held_at}; the record now has {events} events, "
                f"head {head}): {span} came after it")
    return (f"the head you hold, {held}, is the link of none of the record's {events} events "
            f"(its head is {head}): the record was rewritten or cut short since that head was taken")


def link_position(events: Sequence[GameEvent], held: str) -> int | None:
    """The event whose chain link is ``held`` (0: the genesis value), or None."""
    if held == GENESIS:
        return 0
    return next((number for number, event in enumerate(events, 1) if event.chain == held), None)


@dataclass(frozen=True)
class RowProblem:
    """The first stored event that breaks the record, and why."""

    version: int
    kind: str
    reason: str

    def __str__(self) -> str:
        return f"event {self.version} ({self.kind}): {self.reason}"


@dataclass(frozen=True)
class ChainCheck:
    """The result of recomputing a game's chain: events read, head found, first problem."""

    events: int
    head: str
    problem: RowProblem | None
    #: The event whose link is the earlier head given to :func:`check_rows` (None: no such).
    earlier_at: int | None = None

    @property
    def ok(self) -> bool:
        """Whether every event matched its link."""
        return self.problem is None


def check_rows(rows: Iterable[Any], decode: Callable[[Any], GameEvent],
               plain: Callable[[Any], bytes], *, earlier: str | None = None) -> ChainCheck:
    """Recompute the chain over stored rows (with ``originator_version`` and ``topic``).

    ``decode`` turns a row into its event, ``plain`` gives its state bytes as encoded (any
    compression or encryption undone). Stops at the first row that is missing, cannot be
    decoded, claims another version, or no longer matches its link. ``earlier``: a head kept
    from before; the result says which event's link it is (``earlier_at``), if any.
    """
    previous = GENESIS
    expected = 1
    count = 0
    earlier_at = 0 if earlier == GENESIS else None
    for row in rows:
        version: int = row.originator_version
        kind = kind_of(row.topic)
        if version != expected:
            reason = (f"events {expected} to {version - 1} are missing"
                      if version > expected + 1 else f"event {expected} is missing")
            return ChainCheck(count, previous, RowProblem(version, kind, reason))
        try:
            event = decode(row)
            canonical, held = stored_link(plain(row))
        except Exception as error:  # a hand-edited row may be any kind of garbage
            return ChainCheck(count, previous, RowProblem(
                version, kind, f"cannot be decoded any more ({error})"))
        if event.originator_version != version:
            return ChainCheck(count, previous, RowProblem(
                version, kind, f"is stored as event {version} but says it is event "
                               f"{event.originator_version}"))
        if type(event).__name__ != kind:
            kind = f"{kind}, decoded as {type(event).__name__}"
        recomputed = link_bytes(previous, canonical)
        if held != recomputed:
            reason = ("has no chain link (recorded without one)" if held is None
                      else "does not match the hash chain: it was changed after it was recorded"
                      + (" (or an earlier event was)" if version > 1 else ""))
            return ChainCheck(count, previous, RowProblem(version, kind, reason))
        previous = recomputed
        expected += 1
        count += 1
        if earlier is not None and recomputed == earlier:
            earlier_at = version
    return ChainCheck(count, previous, None, earlier_at)


@dataclass(frozen=True)
class GameCheck:
    """``verify --integrity``: the chain, the head against a known one, and the snapshots."""

    game_id: str
    chain: ChainCheck
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Whether nothing was found."""
        return not self.problems


def _decode(app: Application[Any], row: Any) -> GameEvent:
    event = app.mapper.to_domain_event(row)
    if not isinstance(event, GameEvent):
        raise TypeError(f"not a game event: {type(event).__name__}")
    return event


def _plain_state(app: Application[Any], row: Any) -> bytes:
    """A stored row's state as the mapper encoded it (compression and encryption undone)."""
    state: bytes = row.state
    if app.mapper.cipher:
        state = app.mapper.cipher.decrypt(state)
    if app.mapper.compressor:
        state = app.mapper.compressor.decompress(state)
    return state


def check_game(app: Application[Any], game_id: str, *, head: str | None = None) -> GameCheck:
    """Recompute a stored game's chain; fold its events into the game; compare its head with
    ``head``; check its snapshots.

    A ``head`` the player holds must be the head: when it is the link of an earlier event, the
    events added since are counted (the player has not seen them); when it is no link of the
    chain, the record was rewritten or cut short. Either fails. Snapshots are outside the chain
    (derived data), so each is compared with the state the events give at its version and with
    the chain link it was bound to.
    """
    from application.adapters.eventstore import snapshots_of, stored_rows
    from application.adapters.snapshots import snapshot_of, state_topic
    from domain.memory import no_gc
    from domain.record.events import game_uuid
    from domain.record.game import Game, project_game

    originator_id = game_uuid(game_id)
    given = parse_head(head) if head is not None else None
    rows = stored_rows(app, originator_id)
    chain = check_rows(rows, lambda row: _decode(app, row), lambda row: _plain_state(app, row),
                       earlier=given)
    problems = [str(chain.problem)] if chain.problem else []
    held = (held_head_problem(given, chain.head, chain.events, chain.earlier_at)
            if given is not None and chain.ok else None)
    if held is not None:
        problems.append(held)
    if chain.ok:
        wanted = {found.originator_version: found for found in snapshots_of(app, originator_id)
                  if found.topic == state_topic()}
        game: Game | None = None
        with no_gc():
            for row in rows:  # every event must also go into the game, as opening it does
                event = _decode(app, row)
                try:
                    game = project_game(game, (event,))
                except Exception as error:  # an edited row, its chain recomputed: any garbage
                    problems.append(str(RowProblem(row.originator_version, kind_of(row.topic),
                                                   f"cannot be read into the game ({error})")))
                    wanted.clear()  # no state to compare the later snapshots with
                    break
                snapshot = wanted.pop(row.originator_version, None)
                if game is not None and snapshot is not None and (
                        snapshot_of(game, snapshot.timestamp, event.chain).state != snapshot.state
                        or snapshot.chain not in (None, event.chain)):
                    problems.append(f"the snapshot at event {row.originator_version} does not match "
                                    "the events (time travel past it would show a wrong state)")
        problems += [f"the snapshot at event {version} is past the last event" for version in wanted]
    return GameCheck(game_id, chain, tuple(problems))
