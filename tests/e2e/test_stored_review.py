"""The commands on a stored game read its stored review: the same reports as a fresh review of
the replay file, kept fresh by the commands that record events."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import pytest
from freezegun import freeze_time

from application.adapters.stores import open_store
from application.usecases.review_model import VIEW_AS_ROLLED, VIEW_CORRECTED, report_kind, stored
from domain.review.game_review import review
from domain.review.views import GameView
from tests.e2e.test_ministry import GAME
from tests.integration.store_helpers import generated_text
from tui.app import MinisterApp
from tui.cli import main
from tui.loading import FileSource

if TYPE_CHECKING:
    from textual.pilot import Pilot


def _import(tmp_path: Path, text: str) -> tuple[str, Path]:
    path = tmp_path / "game.toml"
    path.write_text(text)
    spec = f"sqlite:{tmp_path / 'store.sqlite3'}"
    assert main(["import", str(path), "--store", spec]) == 0
    return spec, path


async def _loaded(app: MinisterApp, pilot: Pilot[None]) -> None:
    """Until both histories are in. A stored opening is painted first and the worker starts only
    after that paint, so waiting for the workers at once may find none started yet (a loaded
    machine painted late, and the test read the opening's timeline)."""
    for _ in range(1200):
        if app.ready:
            await app.workers.wait_for_complete()
            await pilot.pause()
            return
        await pilot.pause(0.05)
    raise AssertionError("the timeline had not read both histories after 60 s")


def _fresh(spec: str, game_id: str, kind: str) -> bool:
    app = open_store(spec)
    try:
        return stored(app, game_id, kind) is not None
    finally:
        app.close()


@pytest.mark.parametrize("flags", [["--json"], [], ["--json", "--as-rolled"], ["--as-rolled"]])
def test_replay_of_a_stored_game_is_the_replay_of_its_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    spec, path = _import(tmp_path, generated_text(300, 4))
    assert _fresh(spec, "generated-300-4", report_kind(json="--json" in flags,
                                                       as_rolled="--as-rolled" in flags))
    capsys.readouterr()
    assert main(["replay", str(path), *flags]) == 0
    from_file = capsys.readouterr().out
    assert main(["replay", "generated-300-4", "--store", spec, *flags]) == 0
    assert capsys.readouterr().out == from_file


def test_a_report_recorded_refreshes_the_stored_review(tmp_path: Path) -> None:
    spec, _ = _import(tmp_path, GAME)
    with freeze_time("2008-03-01T11:00:00Z"):
        assert main(["report", "desk", "--by", "USSR", "--text", "ARM missing", "--store", spec]) == 0
    assert _fresh(spec, "desk", VIEW_CORRECTED) and _fresh(spec, "desk", VIEW_AS_ROLLED)


def test_the_timeline_source_reads_the_stored_views(tmp_path: Path) -> None:
    spec, _ = _import(tmp_path, generated_text(200, 3))
    app = open_store(spec)
    game = app.game("generated-200-3")
    app.close()
    source = FileSource("generated-200-3", store=spec)
    corrected = source.corrected(lambda stage, fraction: None)
    rolled = source.as_rolled(lambda stage, fraction: None)
    assert msgspec.msgpack.encode(corrected) == msgspec.msgpack.encode(review(game))
    assert msgspec.msgpack.encode(rolled) == msgspec.msgpack.encode(review(game, as_rolled=True))


def test_the_timeline_paints_the_stored_opening_then_the_whole_game(tmp_path: Path) -> None:
    from projections.timeline import OPENING_BATTLES, Timeline

    spec, _ = _import(tmp_path, generated_text(1200, 2))
    store = open_store(spec)
    game = store.game("generated-1200-2")
    store.close()
    corrected, rolled = review(game), review(game, as_rolled=True)
    assert len(corrected.battles) > OPENING_BATTLES  # else there is no opening part to paint first
    app = MinisterApp(FileSource("generated-1200-2", store=spec))
    shown: list[int] = []

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _loaded(app, pilot)
            timeline = app.current_timeline
            assert timeline is not None
            shown.append(len(timeline))

    asyncio.run(main())
    assert app.corrected is not None and len(app.corrected.battles) == len(corrected.battles)
    assert shown == [len(Timeline(corrected, rolled))]


def test_the_first_frame_shows_the_stored_opening_and_the_rest_is_read_after_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tui/app.py: a stored game's opening part is read before the first frame and shown in it
    (no loading screen first); the whole corrected history is read (in the worker) only once the
    timeline's rows are drawn."""
    from textual.app import App

    from tui.widgets.timeline_view import TimelineView

    spec, _ = _import(tmp_path, generated_text(1200, 2))
    source = FileSource("generated-1200-2", store=spec)
    app = MinisterApp(source)
    frames: list[int] = []
    display = App._display

    def shown(self: App[None], screen: object, renderable: object) -> None:
        display(self, screen, renderable)  # type: ignore[arg-type]
        frames.append(app.query_one(TimelineView).rendered_rows)

    monkeypatch.setattr(App, "_display", shown)
    drawn: list[int] = []
    read = source.corrected

    def corrected(progress: Callable[[str, float], None]) -> GameView:
        drawn.append(app.query_one(TimelineView).rendered_rows)
        return read(progress)

    source.corrected = corrected  # type: ignore[method-assign]

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _loaded(app, pilot)

    asyncio.run(main())
    assert frames and frames[0] > 0, "the first frame showed no point of the timeline"
    assert len(drawn) == 1 and drawn[0] > 0
    assert app.corrected is not None and app.rolled is not None


def test_stale_rows_are_made_again_behind_the_progress_bar_not_before_the_first_frame(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tui/loading.py FileSource.opening: the opening is read before the first frame only from
    fresh rows; stale ones (another engine's) are made again by the worker, behind the progress
    bar (a big game's review takes seconds: no blank screen meanwhile)."""
    from application.usecases import review_model

    spec, _ = _import(tmp_path, generated_text(1200, 2))
    monkeypatch.setattr("application.adapters.review_store.engine_version", lambda: "a later engine")
    made: list[str] = []
    remake = review_model._review_now

    def review_now(app: object, game_id: str) -> object:
        made.append(game_id)
        return remake(app, game_id)  # type: ignore[arg-type]

    monkeypatch.setattr(review_model, "_review_now", review_now)
    source = FileSource("generated-1200-2", store=spec)
    assert source.opening(lambda stage, fraction: None) is None and made == []
    app = MinisterApp(FileSource("generated-1200-2", store=spec))

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _loaded(app, pilot)

    asyncio.run(main())
    assert made and app.rolled is not None and app.corrected is not None
    assert len(app.corrected.battles) == len(review(open_store(spec).game("generated-1200-2")).battles)


def test_a_game_the_store_does_not_hold_exits_with_code_2(tmp_path: Path) -> None:
    """tui/app.py on_mount: the stored opening is read before the first frame; a game the store
    does not hold ends the app with exit code 2, naming it (as the worker's errors do)."""

    spec, _ = _import(tmp_path, generated_text(200, 3))
    app = MinisterApp(FileSource("no-such-game", store=spec))

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()

    asyncio.run(main())
    assert app.return_code == 2 and not app.is_running


def test_the_record_as_rolled_shares_the_battles_it_has_in_common_with_the_corrected_history(
        tmp_path: Path) -> None:
    """application/usecases/stored_game.py StoredGame: a battle the correction did not change is
    one object in both histories (the timeline's memory), a changed one is read on its own; both
    views are what a review makes."""
    root = Path(__file__).resolve().parents[2]
    from application.intake.replayfile import load_replay

    spec, path = _import(tmp_path, (root / "replays" / "battles" / "disputed-game-2008.toml").read_text())

    replay = load_replay(path)
    game_id = replay.game_id
    source = FileSource(game_id, store=spec)
    corrected = source.corrected(lambda stage, fraction: None)
    rolled = source.as_rolled(lambda stage, fraction: None)
    assert msgspec.msgpack.encode(corrected) == msgspec.msgpack.encode(review(replay.game))
    assert msgspec.msgpack.encode(rolled) == msgspec.msgpack.encode(review(replay.game, as_rolled=True))
    pairs = list(zip(corrected.battles, rolled.battles, strict=True))
    assert any(a is b for a, b in pairs), "no battle shared"
    assert any(a != b for a, b in pairs), "this replay's correction changes no battle"
    assert all((a is b) == (a == b) for a, b in pairs)


def test_the_record_as_rolled_shares_the_board_history_it_has_in_common_with_the_corrected_one(
        tmp_path: Path) -> None:
    """application/usecases/stored_game.py StoredGame: a territory whose board history the
    correction did not change is one list in both histories, a changed one is read on its own;
    both are what a review makes."""
    root = Path(__file__).resolve().parents[2]
    from application.intake.replayfile import load_replay

    replay_file = root / "replays" / "part14" / "kaz-novo-cauc-sending-error.toml"
    spec, path = _import(tmp_path, replay_file.read_text())
    replay = load_replay(path)
    source = FileSource(replay.game_id, store=spec)
    corrected = source.corrected(lambda stage, fraction: None)
    rolled = source.as_rolled(lambda stage, fraction: None)
    assert corrected.board_history == review(replay.game).board_history
    assert rolled.board_history == review(replay.game, as_rolled=True).board_history
    places = [(corrected.board_history[name], rolled.board_history[name]) for name in corrected.board_history]
    assert any(a is b for a, b in places), "no territory shared"
    assert any(a != b for a, b in places), "this replay's correction changes no territory"
    assert all((a is b) == (a == b) for a, b in places)


def test_show_reads_the_stored_opening_while_the_record_is_checked_and_its_first_frame_takes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tui/commands/show.py: ``prepared`` reads the stored opening before the check's verdict (it
    runs in a child meanwhile) and the first frame shows it without reading the store again."""
    from application.usecases.stored_game import StoredGame
    from tui.cli import build_parser
    from tui.commands.show import prepared

    spec, _ = _import(tmp_path, generated_text(1200, 2))
    reads: list[GameView | None] = []
    read = StoredGame.opening

    def counted(self: StoredGame) -> GameView | None:
        reads.append(read(self))
        return reads[-1]

    monkeypatch.setattr(StoredGame, "opening", counted)
    app = prepared(build_parser().parse_args(["show", "generated-1200-2", "--store", spec]))
    assert len(reads) == 1 and reads[0] is not None  # read ahead, before the app runs

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _loaded(app, pilot)

    asyncio.run(main())
    assert len(reads) == 1  # the first frame took it: the store was not read again for it
    assert app.corrected is not None and app.rolled is not None
