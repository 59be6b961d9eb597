"""Engine and aggregate throughput: battles resolved per second, events folded per second.

Measured in one run on the same machine, so the figures compare with each other; the machine
is shared and noisy, so each figure is the best of a few repeats.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from unittest.mock import patch

from application.intake.replayfile import parse_replay
from benchmarks.gen_game import generate_replay
from domain.battle.dice import RandomDice
from domain.battle.engine import fight, provider_from
from domain.battle.model import BattleSetup
from domain.record.board.walk import BattleResult, BoardWalk
from domain.record.game import Game, project_game
from domain.review import game_review
from domain.review.game_review import review
from domain.rules.board import Board
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind

BATTLES = (
    BattleSetup(kind=BattleKind.LAND, attacker=Force.parse("9 INF, 3 ARM, 2 FTR"),
                defender=Force.parse("AA, 6 INF, 2 ARM, 1 FTR")),
    BattleSetup(kind=BattleKind.SEA, attacker=Force.parse("2 SUB, 2 FTR, 1 BMB, 1 BB"),
                defender=Force.parse("2 TRN, 1 SUB, 1 AC, 2 FTR")),
    BattleSetup(kind=BattleKind.AMPHIBIOUS, attacker=Force.parse("4 INF, 2 ARM, 2 FTR"),
                defender=Force.parse("5 INF, 1 ARM"), support=Force.parse("1 BB"),
                amphibious=Force.parse("4 INF, 2 ARM")),
)


def _best(repeats: int, work: Callable[[], int]) -> tuple[float, int]:
    """The fastest of ``repeats`` runs: (seconds, items)."""
    best, items = float("inf"), 0
    for _ in range(repeats):
        start = time.perf_counter()
        items = work()
        best = min(best, time.perf_counter() - start)
    return best, items


def battles_per_second(count: int = 3000) -> float:
    """Mechanical battles fought to the end per second (three kinds of battle, seeded dice)."""
    def work() -> int:
        dice = provider_from(RandomDice(random.Random(1)))
        for index in range(count):
            fight(BATTLES[index % len(BATTLES)], dice)
        return count
    seconds, items = _best(3, work)
    return items / seconds


def events_per_second(n_events: int = 10_000) -> tuple[float, float, float, float, float]:
    """Events folded into the Game per second; whole-game reviews (findings, corrections) of the
    same game per second of events, by wall and by CPU time; the board walk's share of the
    review's CPU time (the median over pairs of the review beside one whose walk is stubbed);
    and the review per CPU second with every remembered function cleared first (a command
    reviews a game once, from process start: nothing the review remembers is warm then)."""
    events = parse_replay(generate_replay(n_events, seed=7)).events
    seconds, _ = _best(3, lambda: len(events) if project_game(None, events) else 0)
    game = project_game(None, events)
    assert game is not None
    wall, walked = float("inf"), float("inf")
    shares = []
    for pair in range(PAIRS):  # A/B in pairs, alternating which runs first: the load drifts
        cpu = {}
        for stub in (False, True) if pair % 2 == 0 else (True, False):
            start, began = time.perf_counter(), time.process_time()
            with board_walk_stubbed() if stub else nullcontext():
                review(game)
            cpu[stub] = time.process_time() - began
            if not stub:
                wall = min(wall, time.perf_counter() - start)
        walked = min(walked, cpu[False])
        shares.append((cpu[False] - cpu[True]) / cpu[False])
    share = statistics.median(shares)
    cold = float("inf")
    for _ in range(PAIRS):
        forget_remembered()
        began = time.process_time()
        review(game)
        cold = min(cold, time.process_time() - began)
    return len(events) / seconds, len(events) / wall, len(events) / walked, share, len(events) / cold


def forget_remembered() -> None:
    """Clear every remembered (``functools`` cache) function of minister's own modules."""
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in ("domain", "projections", "application"):
            continue
        for value in list(vars(module).values()):
            members = vars(value).values() if isinstance(value, type) else (value,)
            for member in members:
                clear = getattr(getattr(member, "__func__", member), "cache_clear", None)
                if callable(clear):
                    clear()
    gc.collect()


def _empty_walk(game: Game, outcomes: Mapping[str, BattleResult], board: Board | None = None, *,
                rolled: BoardWalk | None = None, since: Sequence[BoardWalk] = ()) -> BoardWalk:
    """A board walk that walks nothing: every territory unknown, no checkpoint, no round end."""
    del game, outcomes, rolled, since
    return BoardWalk(board or Board.classic(), {}, {}, [], [], [], False)


@contextmanager
def board_walk_stubbed() -> Iterator[None]:
    """The review with the board walk replaced by an empty one (benchmark only: its findings
    differ; only its cost is compared, to give the walk's share of the review)."""
    with patch.object(game_review, "walk_board", _empty_walk):
        yield


def fold_board_share(n_events: int = 10_000) -> float:
    """The board's share of the fold's CPU time: the fold beside one that files no board record
    (the walk's input: :class:`~domain.record.entries.BoardNote`; the generated game's board
    records are its positions), the median over pairs, alternating which runs first."""
    from domain.record import game as fold

    events = parse_replay(generate_replay(n_events, seed=7)).events
    shares = []
    for pair in range(3 * PAIRS):
        cpu = {}
        for stub in (False, True) if pair % 2 == 0 else (True, False):
            began = time.process_time()
            with patch.object(fold, "BoardNote", _no_note) if stub else nullcontext():
                project_game(None, events)
            cpu[stub] = time.process_time() - began
        shares.append((cpu[False] - cpu[True]) / cpu[False])
    return statistics.median(shares)


def _no_note(*args: object, **kwargs: object) -> None:
    """No board record filed (benchmark only: the fold's board log holds nothing useful)."""
    del args, kwargs


def run() -> list[str]:
    """Result lines."""
    battles = battles_per_second()
    folded, reviewed, reviewed_cpu, share, cold_cpu = events_per_second()
    fold_share = fold_board_share()
    return [
        f"engine: {battles:,.0f} battles resolved per second (land, sea with subs, amphibious; to the end)",
        f"aggregate: {folded:,.0f} events folded per second (10,000-event generated game)",
        f"review: {reviewed:,.0f} events per second through findings and corrections (same game; "
        f"{reviewed_cpu:,.0f} per CPU second; {cold_cpu:,.0f} per CPU second with every remembered "
        "function cleared first, as a command's one review finds them)",
        goal("issue 25: review on the generated 10k-event game (text parsed once), per CPU second",
             reviewed_cpu, REVIEW_TARGET, "events/s"),
        goal("issue 28: the same review, per CPU second", reviewed_cpu, REVIEW_FLOOR, "events/s"),
        f"issue 11: the board walk's share of the review's CPU time (the walk, the treasury, the "
        f"places and purses it gives each battle: the review with the walk vs with it stubbed, median "
        f"of {PAIRS} pairs): {share:.1%} (target <= {WALK_SHARE_BOUND:.0%}): "
        + ("ok" if share <= WALK_SHARE_BOUND else "short"),
        f"issue 11: the board's share of the fold's CPU time (the fold filing the board's records "
        f"vs filing none, median of {3 * PAIRS} pairs): {fold_share:.1%} (target <= "
        f"{WALK_SHARE_BOUND:.0%}): " + ("ok" if fold_share <= WALK_SHARE_BOUND else "short"),
    ]


#: Issue 25: the review at >= 50k events per CPU second (its memo deleted, the review made faster).
REVIEW_TARGET = 50_000.0
#: Issue 28 (and issue 13 before it): the whole game's rules must not take the review below 40k.
REVIEW_FLOOR = 40_000.0
#: Pairs of reviews (with the walk, with it stubbed) the walk's share is the median of.
PAIRS = 7
#: Issue 11: the board moving on costs the review at most 10% of its throughput.
WALK_SHARE_BOUND = 0.10


def goal(name: str, measured: float, target: float, unit: str) -> str:
    """One goal's line: the figure, its target and ok/short (a rate: higher is better)."""
    verdict = "ok" if measured >= target else f"short ({measured / target:.0%} of target)"
    return f"{name}: {measured:,.0f} {unit}, target >= {target:,.0f} {unit}: {verdict}"


if __name__ == "__main__":
    print("\n".join(run()))
