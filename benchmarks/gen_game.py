"""Generate a big, consistent ``minister-replay/1`` game for benchmarks and load tests.

``generate_replay(n_events, seed)`` returns replay-file text whose game has exactly ``n_events``
events (the ``GameStarted`` made from ``[game]`` plus ``n_events - 1`` records). Turns cycle
through the five powers; each turn has a map update, a declaration of up to four land battles
between adjacent territories (each territory used once per turn), and the battles' dice-server
logs, one ``roll`` record per round, with dice drawn from a seeded generator and hits and
casualties (the 2008 default land orders of loss) computed as the club rules would, so the
game reviews without findings. Special orders and correction requests (with awkward text:
quotes, backslashes, unicode) are sprinkled in. The same ``(n_events, seed)`` always gives the
same text.
"""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta
from functools import cache

from domain.rules.board import Board
from domain.rules.forces import EMPTY, Force
from domain.rules.orders_of_loss import BattleKind, default_order
from domain.rules.units import AXIS, POWERS, UnitType

U = UnitType
_START = datetime(1999, 7, 20, 18, 0, tzinfo=UTC)
_LAND_UNITS = (U.INF, U.ARM, U.FTR)
_ATTACK_ORDER = default_order(BattleKind.LAND, attacking=True)
_DEFENCE_ORDER = default_order(BattleKind.LAND, attacking=False)
_REPORTS = (
    'the "A1" line lists 3 INF but 4 were declared',
    "dice server said 1*2* \\ two hits — recheck ✓",
    "Caucasus: wrong column for ARM?  ",
    "Я думаю, что это ошибка; please check the 'R2' line",
)


@cache
def _fronts() -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Per power: (origin, target, defending power) for adjacent land territories."""
    board = Board.classic()
    land = [t for t in board.land if not t.neutral and t.owner in POWERS]
    fronts: dict[str, tuple[tuple[str, str, str], ...]] = {}
    for power in POWERS:
        pairs = []
        for origin in land:
            for name in origin.adjacent:
                target = board.territory(name)
                if target.sea or target.neutral or target.owner not in POWERS:
                    continue
                if (target.owner in AXIS) != (power in AXIS):
                    pairs.append((origin.name, target.name, target.owner))
        fronts[power] = tuple(sorted(pairs))
    return fronts


def _force_text(force: Force) -> str:
    return ", ".join(f"{count} {unit.value}" for unit, count in force.items)


def _column(unit: UnitType, attacking: bool) -> int:
    profile = unit.profile
    return profile.attack if attacking else profile.defence


def _roll_side(force: Force, attacking: bool, rng: random.Random) -> tuple[str, int]:
    """Dice text in column order (types in listed order within a column) and the hits."""
    columns: dict[int, list[str]] = {}
    hits = 0
    for unit, count in force.items:
        value = _column(unit, attacking)
        column = columns.setdefault(value, [])
        for _ in range(count):
            die = rng.randint(1, 6)
            if die <= value:
                hits += 1
                column.append(f"{die}*")
            else:
                column.append(str(die))
    return "/".join("".join(columns[c]) for c in sorted(columns)), hits


class _Writer:
    """Accumulates [[event]] tables with increasing times."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.parts: list[str] = []
        self.count = 0
        self.minutes = 0
        #: territory -> power -> units, as the map updates written so far state them
        self.held: dict[str, dict[str, Force]] = {}

    def hold(self, power: str, territory: str, units: Force) -> str:
        """A map update line (quoted), remembered."""
        self.held.setdefault(territory, {})[power] = units
        return f'"{power} {territory}: {_force_text(units)}"'

    def event(self, kind: str, body: str) -> None:
        self.minutes += self.rng.randint(1, 7)
        at = (_START + timedelta(minutes=self.minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.parts.append(f'\n[[event]]\ntype = "{kind}"\nat = {at}\n{body}')
        self.count += 1


def _quote(text: str) -> str:
    """A TOML basic string."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{out}"'


def _battle(writer: _Writer, budget: int, turn: str, origin: str, target: str,
            attackers: Force, defenders: Force) -> None:
    """The roll records of one battle, one per round, within ``budget`` events."""
    rng = writer.rng
    header = f"{target}({_force_text(defenders)})\n{_force_text(attackers)} from {origin}\n"
    game_round = int(turn.split()[1])
    round_number = 1
    while attackers and defenders and budget > 0:
        a_dice, a_hits = _roll_side(attackers, True, rng)
        d_dice, d_hits = _roll_side(defenders, False, rng)
        log = (f"{header}R{round_number}\n"
               f"A({_force_text(attackers)}) {a_dice} = {a_hits} hits\n"
               f"D({_force_text(defenders)}) {d_dice} = {d_hits} hits\n")
        header = ""
        writer.event("roll", f'battle = "{target}"\nturn_number = {game_round}\n'
                     f"round_number = {round_number}\nlog = \"\"\"\n{log}\"\"\"\n")
        budget -= 1
        defenders = defenders - _DEFENCE_ORDER.choose(defenders, min(a_hits, len(defenders)))
        attackers = attackers - _ATTACK_ORDER.choose(attackers, min(d_hits, len(attackers)))
        round_number += 1


def _turn(writer: _Writer, budget: int, power: str, game_round: int) -> None:
    """One power's turn: map update, declaration, battles and the odd extra record."""
    rng = writer.rng
    turn = f"{power} {game_round}"
    fronts = _fronts()[power]
    chosen: dict[str, tuple[str, str]] = {}
    used: set[str] = set()
    for _ in range(rng.randint(1, 4)):
        origin, target, owner = fronts[rng.randrange(len(fronts))]
        # Each territory once per turn: one origin never feeds two battles (no overcommitment).
        if origin not in used and target not in used:
            used.update((origin, target))
            chosen[target] = (origin, owner)
    battles = []
    holdings = []
    for target, (origin, owner) in chosen.items():
        attackers = Force.of({U.INF: rng.randint(1, 8), U.ARM: rng.randint(0, 4),
                              U.FTR: rng.randint(0, 2)})
        defenders = Force.of({U.INF: rng.randint(1, 6), U.ARM: rng.randint(0, 2),
                              U.FTR: rng.randint(0, 1)})
        battles.append((origin, target, attackers, defenders))
        holdings.append(writer.hold(power, origin, attackers))
        # The map update clears every other power's units from the battle territory, so the
        # declared defenders are exactly what the map shows there.
        for other in sorted(writer.held.get(target, {})):
            if other != owner and writer.held[target][other]:
                holdings.append(writer.hold(other, target, EMPTY))
        holdings.append(writer.hold(owner, target, defenders))
    writer.event("position", f"units = [{', '.join(holdings)}]\n")
    budget -= 1
    lines = []
    for number, (origin, target, attackers, defenders) in enumerate(battles, start=1):
        lines.append(f"Attack #{number} - {target} ({_force_text(defenders)})\n"
                     f"{_force_text(attackers)} from {origin}\n")
    if budget > 0:
        writer.event("declaration", f'turn = "{turn}"\ntext = """\n{"".join(lines)}"""\n')
        budget -= 1
    for origin, target, attackers, defenders in battles:
        if budget <= 0:
            return
        if rng.random() < 0.15 and budget > 1:
            writer.event("orders", f'turn = "{turn}"\nbattle = "{target}"\nside = "attacker"\n'
                         'text = "OOL: INF, ARM, FTR"\n')
            budget -= 1
        before = writer.count
        _battle(writer, budget, turn, origin, target, attackers, defenders)
        budget -= writer.count - before
        if budget > 0 and rng.random() < 0.05:
            text = _REPORTS[rng.randrange(len(_REPORTS))]
            writer.event("report", f'by = "{power}"\nbattle = "{target}"\ntext = {_quote(text)}\n')
            budget -= 1


def generate_replay(n_events: int, seed: int) -> str:
    """Replay text of a game with exactly ``n_events`` events (at least 2)."""
    if n_events < 2:
        raise ValueError(f"a generated game needs at least 2 events, not {n_events!r}")
    rng = random.Random(seed)
    writer = _Writer(rng)
    records = n_events - 1
    game_round = 1
    while writer.count < records:
        for power in POWERS:
            left = records - writer.count
            if left <= 0:
                break
            _turn(writer, left, power, game_round)
        game_round += 1
    head = (f'format = "minister-replay/1"\n\n[game]\nid = "generated-{n_events}-{seed}"\n'
            f'edition = "iaapa-2008"\ntitle = "Generated game: {n_events} events, seed {seed}"\n'
            f'dice_seed = "generated seed {seed}"\n')
    return head + "".join(writer.parts)


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    sys.stdout.write(generate_replay(size, int(sys.argv[2]) if len(sys.argv) > 2 else 1))
