"""The evidence bundle: one file holding a game's record, its hash-chain head, the dice
commitments, draws and reveals, the reports, the rulings and the letter — checked on another
machine with no store (``minister verify FILE``), naming the first thing that does not hold.

The bundle is JSON (``minister-bundle/1``): ``record`` is the game exported as a replay file
(``minister export``, with its ``[integrity]`` head); every other part is derived from it again
on checking and must be equal. The record itself is only as trustworthy as its head: compare
``head`` with the one both players kept (``minister verify --integrity GAME --head HASH``).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from application.adapters.app import MinisterApplication
from application.adapters.damage import TamperedError
from application.adapters.eventstore import decode_states, read_states
from application.adapters.integrity import head_of, held_head_problem, link_position
from application.adapters.review_store import engine_version
from application.intake.replayfile import parse_replay
from application.intake.replayschema import MAX_FILE_BYTES
from application.usecases.desk.common import event_dict
from application.usecases.desk.dice_check import check_events
from application.usecases.transfer import write_replay
from domain.errors import MinisterError
from domain.memory import no_gc
from domain.record.events import (
    DiceCommitted,
    DiceDrawn,
    DiceRevealed,
    DiceSupplied,
    EntryWithdrawn,
    GameEvent,
    ReportAmended,
    ReportFiled,
    RulingGiven,
    RulingIssued,
)
from domain.record.game import Game

#: Writes the letter of a game (the projections' job: passed in by the command).
LetterWriter = Callable[[Game], str]

FORMAT = "minister-bundle/1"
#: The parts a bundle lists beside its record, each derived from the record's events.
_PARTS: dict[str, tuple[type[GameEvent], ...]] = {
    "commitments": (DiceCommitted,), "draws": (DiceDrawn,), "reveals": (DiceRevealed,),
    "entered_dice": (DiceSupplied,), "reports": (ReportFiled, ReportAmended),
    "rulings": (RulingIssued, RulingGiven), "withdrawals": (EntryWithdrawn,),
}


def bundle_of(record: str, letter_of: LetterWriter, source: str = "bundle") -> dict[str, Any]:
    """The bundle for a game's exported record (every part derived from it)."""
    replay = parse_replay(record, source)
    return {**_listed(replay.game_id, replay.events), "letter": letter_of(replay.game), "record": record}


class _Listing:
    """The bundle's parts before its letter and record, gathered from the events as they pass
    (one reading of the events makes both: the parts and the record)."""

    def __init__(self) -> None:
        self.parts: dict[str, list[dict[str, Any]]] = {name: [] for name in _PARTS}
        self.count = 0
        self.last: GameEvent | None = None

    def passing(self, events: Iterable[GameEvent]) -> Iterator[GameEvent]:
        """The events, each noted as it passes."""
        for event in events:
            for name, kinds in _PARTS.items():
                if isinstance(event, kinds):
                    self.parts[name].append(event_dict(event))
            self.count += 1
            self.last = event
            yield event

    def listed(self, game_id: str) -> dict[str, Any]:
        """The parts, in the order the bundle lists them."""
        return {"format": FORMAT, "game": game_id, "events": self.count,
                "head": head_of([self.last] if self.last is not None else []),
                "engine": engine_version(), **self.parts}


def _listed(game_id: str, events: Sequence[GameEvent]) -> dict[str, Any]:
    """The bundle's parts before its letter and record, in the order it lists them."""
    listing = _Listing()
    for _ in listing.passing(events):
        pass
    return listing.listed(game_id)


def make_bundle(app: MinisterApplication, game_id: str, letter_of: LetterWriter) -> dict[str, Any]:
    """The evidence bundle of a stored game: its events as stored (their chain checked when the
    game is opened), exported as the record; the record is what ``verify`` derives every part
    from again, and an export reads back as the same events (tests/integration/test_import_export.py)."""
    game = app.game(game_id)  # raises UnknownGameError or TamperedError naming the game
    rows = read_states(app, game.id)
    if len(rows) != game.version:
        game = app.game(game_id, version=len(rows))  # an event recorded meanwhile
    listing = _Listing()
    with no_gc():  # each event decoded as it is listed and written, then let go (50,000: 140 MB)
        record = write_replay(listing.passing(decode_states(rows)))
    del rows  # let go before the letter reads the review
    return {**listing.listed(game_id), "letter": letter_of(game), "record": record}


def bundle_bytes(bundle: dict[str, Any]) -> bytes:
    """A bundle's file: UTF-8 JSON indented by one space, as ``json.dumps(bundle, indent=1,
    ensure_ascii=False)`` writes it (tests/unit/test_bundle_bytes.py holds them equal), made
    without its copies: json's indenting encoder joins a list of pieces into a str, then encodes
    it (50,000 events: ~30 MB more at the command's peak, for a 14 MB file)."""
    return msgspec.json.format(msgspec.json.encode(bundle), indent=1) + b"\n"


def write_bundle(bundle: dict[str, Any], path: str) -> None:
    """Write a bundle file (UTF-8 JSON); refused, nothing written, above the size any bundle may
    have (``verify`` would refuse to read it)."""
    data = bundle_bytes(bundle)
    if len(data) > MAX_BUNDLE_BYTES:
        raise MinisterError(f"{path}: the bundle would be {len(data) / 2**20:.1f} MB, over the limit of "
                            f"{MAX_BUNDLE_BYTES // 2**20} MB a bundle may have; nothing written")
    target = Path(path)
    if target.is_dir():
        raise MinisterError(f"{path}: a folder; expected the bundle's file name (nothing written)")
    # Written beside the target, then moved over it: a failure leaves no half-written bundle.
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".minister-bundle-", suffix=".tmp")
    except OSError as error:
        raise MinisterError(f"{path}: cannot write the bundle ({error.strerror}); nothing written") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)  # as a file written straight would be: it is to be shared
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise MinisterError(f"{path}: cannot write the bundle ({error.strerror}); nothing written") from None


#: The largest bundle read: a record at the replay file's limit (``MAX_FILE_BYTES``) and its
#: parts fit (the parts are the desk's few events; a bundle is written only within it).
MAX_BUNDLE_BYTES = MAX_FILE_BYTES

#: One part's event, as :func:`event_dict` writes it: its fields are flat (text, numbers, the
#: dice): anything nested deeper is not a bundle minister wrote.
_Field = str | int | list[int | str] | None
_Part = list[dict[str, _Field]]


class BundleFile(msgspec.Struct, frozen=True):
    """The bundle's JSON, decoded strictly: each key a type, nothing nested deeper."""

    format: str
    game: str
    events: int
    head: str
    commitments: _Part
    draws: _Part
    reveals: _Part
    entered_dice: _Part
    reports: _Part
    rulings: _Part
    withdrawals: _Part
    letter: str
    record: str
    #: The engine that wrote the letter (review_store.engine_version); "" in bundles made
    #: before it was listed.
    engine: str = ""


def read_bundle(path: Path) -> dict[str, Any] | None:
    """The bundle in ``path``, or None when the file is not a bundle (a replay file, say).

    A bundle larger than :data:`MAX_BUNDLE_BYTES`, not JSON, or not of the bundle's shape (a key
    missing or of another type, values nested deeper than an event's fields) is bad input, named
    with the key at fault; it is never read whole or parsed recursively."""
    try:
        with path.open("rb") as handle:
            start = handle.read(64).lstrip()
            if not start.startswith(b"{"):
                return None
            size = path.stat().st_size
            if size > MAX_BUNDLE_BYTES:
                raise MinisterError(f"{path}: the bundle is {size / 2**20:.1f} MB, over the limit of "
                                    f"{MAX_BUNDLE_BYTES // 2**20} MB a bundle may have")
            handle.seek(0)
            data = handle.read(MAX_BUNDLE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_BUNDLE_BYTES:  # it grew while read
        raise MinisterError(f"{path}: the bundle is over the limit of {MAX_BUNDLE_BYTES // 2**20} MB")
    try:
        bundle = msgspec.json.decode(data, type=BundleFile)
    except msgspec.ValidationError as error:
        raise MinisterError(f"{path}: not a {FORMAT} bundle: {error}") from None
    except (msgspec.DecodeError, RecursionError) as error:
        raise MinisterError(f"{path}: not valid JSON ({error}); expected a {FORMAT} bundle") from None
    if bundle.format != FORMAT:
        raise MinisterError(f"{path}: expected format = {FORMAT!r} in the bundle, found {bundle.format!r}")
    found: dict[str, Any] = msgspec.structs.asdict(bundle)
    return found


@dataclass
class BundleCheck:
    """What checking a bundle found: the first problem first."""

    game_id: str
    head: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: False when the letter was written by another engine and so not compared (a note says so).
    letter_compared: bool = True
    #: Each throw whose dice nobody can check (commitment unrevealed or abandoned, or a free
    #: purpose under minister-dice/2): the bundle is not verified while there are any.
    unverified: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every part of the bundle holds."""
        return not self.problems


def check_bundle(data: dict[str, Any], source: str, letter_of: LetterWriter, *,
                 head: str | None = None) -> BundleCheck:
    """Check a bundle with no store: the record against the head the player holds (``head``,
    when given) and its own, then every part against the record."""
    record = data.get("record")
    if not isinstance(record, str):
        raise MinisterError(f"{source}: expected \"record\" = the exported game in the bundle")
    try:
        replay = parse_replay(record, f"{source} (record)")
    except MinisterError as error:
        return BundleCheck(str(data.get("game")), "", [f"record: {error}"])
    check = BundleCheck(replay.game_id, head_of(replay.events))
    if head is not None:
        held = held_head_problem(head, check.head, len(replay.events), link_position(replay.events, head))
        if held is not None:
            check.problems.append(f"head: {held}")
    table = replay.raw.get("integrity")
    stated = table.get("head") if isinstance(table, dict) else None
    if stated != check.head:
        check.problems.append(f"record: its events give head {check.head}, its [integrity] head says "
                              f"{stated}: the record was changed after it was exported")
    # As JSON gives it back (tuples become lists), so equal parts compare equal.
    fresh = json.loads(json.dumps(bundle_of(record, letter_of, source)))
    for key in ("format", "game", "events", "head", *_PARTS, "letter"):
        if data.get(key) == fresh[key]:
            continue
        if key == "letter" and data.get("engine") != fresh["engine"]:
            # The letter is the words of the engine that wrote it: another engine's words are
            # not this one's to judge, and the letter is no evidence (the record, its head and
            # the dice are, all checked here).
            check.letter_compared = False
            check.notes.append(f"{_difference(key, data.get(key), fresh[key])}: the letter was written "
                               f"by {_engine(data.get('engine'))}, so it is not compared; `minister "
                               f"letter {source}` writes the letter this version gives the record")
            continue
        check.problems.append(_difference(key, data.get(key), fresh[key]))
    dice = check_events(replay.game_id, replay.events, replay.game)
    check.problems += [f"dice: {problem}" for problem in dice.problems]
    check.unverified += dice.unverified
    check.notes.append(f"{dice.checked} committed rolls reproduce from their revealed secrets"
                       + (f"; {dice.legacy} legacy rolls (minister-dice/1)" if dice.legacy else ""))
    return check


def _engine(engine: object) -> str:
    """Which engine a bundle says wrote its letter, in words."""
    if isinstance(engine, str) and engine:
        return f"another version of minister (engine {engine[:12]})"
    return "a version of minister from before bundles named their engine"


def _difference(key: str, listed: Any, derived: Any) -> str:
    """The first place a listed part differs from what the record gives."""
    if key == "letter" and isinstance(listed, str) and isinstance(derived, str):
        for number, (a, b) in enumerate(zip(listed.splitlines(), derived.splitlines(), strict=False), 1):
            if a != b:
                return f"letter line {number}: the bundle says {a!r}, the record gives {b!r}"
        return "letter: its length differs from the one the record gives"
    if isinstance(listed, list) and isinstance(derived, list):
        for index, (a, b) in enumerate(zip(listed, derived, strict=False)):
            if a != b:
                return f"{key}[{index}]: the bundle lists {json.dumps(a)}, the record holds {json.dumps(b)}"
        return f"{key}: the bundle lists {len(listed)}, the record holds {len(derived)}"
    return f"{key}: the bundle says {json.dumps(listed)}, the record gives {json.dumps(derived)}"


@dataclass(frozen=True)
class OpenedBundle:
    """A bundle read as a store of one game, read only: its record (the exported replay file,
    as written) and the game it folds into."""

    record: str
    game: Game


def open_bundle(path: Path, letter_of: LetterWriter) -> OpenedBundle | None:
    """The game a bundle holds, read only (None: the file is not a bundle): its record, once
    the bundle's own checks hold (its record against its head, every part against the record,
    the dice against their revealed secrets). A bundle that fails them is refused (exit 1, a
    verification failure, naming the first part at fault), never shown as fact. Dice nobody can
    check do not stop it being read: the letter and the report name them."""
    data = read_bundle(path)
    if data is None:
        return None
    check = check_bundle(data, str(path), letter_of)
    if check.problems:
        raise TamperedError(f"{path}: the bundle fails its own checks ({check.problems[0]}), so it is not "
                            f"shown; `minister verify {path}` lists every problem")
    record: str = data["record"]
    return OpenedBundle(record, parse_replay(record, f"{path} (record)").game)
