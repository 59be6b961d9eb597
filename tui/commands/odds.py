"""``minister odds``: the exact odds of a battle fought mechanically.

    minister odds "9 INF, 3 ARM" "2 INF, 3 ARM, 2 FTR"
    minister odds "2 SUB, 1 BB" "1 AC, 2 FTR" --sea --json
    minister odds "3 INF, 2 ARM, 1 FTR" "AA, 4 INF" --amphibious --support "2 BB"
    minister odds "6 INF, 3 ARM" "5 INF" --retreat "when 3 or fewer attacking units remain"

Text output: win / draw / loss / retreat percentages, expected survivors, percentiles of the
surviving IPC value and unit count; a "Stalemate" line when neither side can ever hit the
other any more (no line when that cannot happen). ``--json`` prints the
``minister-odds/1`` document (stable key order, floats rounded to 12 digits). Bad input exits 2
with a message naming the argument and what was expected.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from domain.errors import InvalidNotationError, MinisterError

if TYPE_CHECKING:  # the battle model, numpy and the solvers load only when odds are asked for
    from domain.battle.model import BattleSetup, RetreatCondition, Side
    from domain.odds.exact import Measure, Odds
    from domain.rules.forces import Force
    from domain.rules.orders_of_loss import BattleKind, OrderOfLoss

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``odds`` on the ``minister`` sub-command parser."""
    parser = subparsers.add_parser(
        "odds", help="exact odds of a battle (win, draw, loss, retreat, survivors)",
        description="Exact odds of a Classic battle fought mechanically (IAAPA Part 13).")
    configure(parser)
    parser.set_defaults(handler=run)


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``minister odds``."""
    parser.add_argument("attacker", metavar="ATTACKER", help='attacking units, e.g. "9 INF, 3 ARM, 2 FTR"')
    parser.add_argument("defender", metavar="DEFENDER", help='defending units, e.g. "AA, 4 INF, 1 FTR"')
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--sea", action="store_true", help="a sea battle (default: land)")
    kind.add_argument("--amphibious", action="store_true",
                      help="an amphibious assault (ground units never retreat)")
    parser.add_argument("--attacker-ool", metavar="TYPES",
                        help='attacker\'s order of loss, e.g. "ARM, INF, FTR"')
    parser.add_argument("--defender-ool", metavar="TYPES", help="defender's order of loss")
    parser.add_argument("--retreat", metavar="CONDITION",
                        help='"after round 2" or "when 3 or fewer attacking units remain"')
    parser.add_argument("--support", metavar="BBS", help='battleship support shots, e.g. "2 BB"')
    parser.add_argument("--withdraw-subs", metavar="ROUND", type=int,
                        help="defending subs withdraw after this round (sea battles)")
    parser.add_argument("--rounds", action="store_true", help="also the distribution of the number of rounds")
    parser.add_argument("--json", action="store_true", help="the minister-odds/1 JSON document")


def run(args: argparse.Namespace) -> int:
    """Run ``minister odds``; 0 on success, 2 on bad input (message on stderr)."""
    try:
        setup = setup_from(args)
    except MinisterError as error:
        print(f"minister odds: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from domain.odds.exact import odds

    result = odds(setup, rounds=args.rounds)
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
    else:
        sys.stdout.write(render(result, setup))
    return EXIT_OK


# -- input ---------------------------------------------------------------------------------------
def setup_from(args: argparse.Namespace) -> BattleSetup:
    """The battle the arguments describe; MinisterError naming the argument at fault."""
    from domain.battle.model import BattleSetup
    from domain.rules.forces import EMPTY
    from domain.rules.orders_of_loss import BattleKind
    from domain.rules.units import UnitType

    kind = BattleKind.SEA if args.sea else BattleKind.AMPHIBIOUS if args.amphibious else BattleKind.LAND
    attacker = _force("ATTACKER", args.attacker, kind, attacking=True)
    defender = _force("DEFENDER", args.defender, kind, attacking=False)
    if not attacker.combatants():
        raise MinisterError(f"ATTACKER: expected at least one attacking unit: {args.attacker!r}")
    support = EMPTY
    if args.support:
        support = _parse("--support", args.support)
        if support.types != (UnitType.BB,):
            raise MinisterError(f"--support: expected battleships only, e.g. '2 BB': {args.support!r}")
        if kind is not BattleKind.AMPHIBIOUS:
            raise MinisterError("--support: support shots are fired only in an amphibious assault "
                                "(add --amphibious)")
    if args.withdraw_subs is not None and (kind is not BattleKind.SEA or args.withdraw_subs < 1):
        raise MinisterError(f"--withdraw-subs: expected a round number (1 or more) in a sea battle: "
                            f"{args.withdraw_subs!r}")
    return BattleSetup(
        kind=kind,
        attacker=attacker,
        defender=defender,
        support=support,
        amphibious=attacker.where(lambda unit: unit.is_land) if kind is BattleKind.AMPHIBIOUS else EMPTY,
        attacker_order=_order("--attacker-ool", args.attacker_ool),
        defender_order=_order("--defender-ool", args.defender_ool),
        retreat=_retreat(args.retreat),
        sub_withdrawal_after=args.withdraw_subs,
    )


def _parse(name: str, text: str) -> Force:
    from domain.rules.forces import Force

    try:
        return Force.parse(text)
    except InvalidNotationError as error:
        raise MinisterError(f"{name}: {error.message}: {error.text!r} in {text!r}") from error


def _force(name: str, text: str, kind: BattleKind, *, attacking: bool) -> Force:
    force = _parse(name, text)
    for unit in force.types:
        if attacking and not unit.is_combatant:
            raise MinisterError(f"{name}: {unit.value} cannot attack (expected INF, ARM, FTR, BMB, "
                                f"TRN, SUB, AC, BB): {text!r}")
        if kind.at_sea and unit.is_land:
            raise MinisterError(f"{name}: {unit.value} cannot fight in a sea battle "
                                f"(expected sea units and aircraft): {text!r}")
        if not kind.at_sea and unit.is_sea:
            raise MinisterError(f"{name}: {unit.value} cannot fight in a land battle (expected land "
                                f"units and aircraft; add --sea for a sea battle): {text!r}")
    return force


def _order(name: str, text: str | None) -> OrderOfLoss | None:
    if text is None:
        return None
    from domain.notation.special_orders import parse_special_orders
    from domain.rules.orders_of_loss import OrderOfLoss

    try:
        units = parse_special_orders(f"OOL: {text}").order_of_loss
    except InvalidNotationError as error:
        raise MinisterError(f"{name}: expected unit types in order of loss, e.g. 'ARM, INF, FTR' "
                            f"({error.message}): {text!r}") from error
    if not units:
        raise MinisterError(f"{name}: expected unit types, e.g. 'ARM, INF, FTR': {text!r}")
    return OrderOfLoss(units, source=text)


def _retreat(text: str | None) -> RetreatCondition | None:
    if text is None:
        return None
    from domain.notation.special_orders import parse_special_orders

    body = text.strip()
    if not body.lower().startswith("retreat"):
        body = f"retreat {body}"
    try:
        condition = parse_special_orders(body).retreat
    except InvalidNotationError as error:
        condition = None
        cause: Exception | None = error
    else:
        cause = None
    if condition is None or (condition.after_round is None and condition.at_most_units is None):
        raise MinisterError(f"--retreat: expected 'after round N' or 'when N or fewer attacking "
                            f"units remain': {text!r}") from cause
    return condition


# -- output --------------------------------------------------------------------------------------
def render(result: Odds, setup: BattleSetup) -> str:
    """The text report."""
    from domain.battle.model import Side

    lines = [f"{setup.kind.value.capitalize()} battle: {result.attacker} attack {setup.defender}"]
    extras = []
    if setup.support:
        extras.append(f"support shots: {setup.support}")
    if setup.retreat is not None:
        extras.append("retreat: " + "; ".join(_retreat_text(setup.retreat)))
    if setup.sub_withdrawal_after is not None:
        extras.append(f"defending subs withdraw after round {setup.sub_withdrawal_after}")
    extras.append(f"OOL attacker: {_ool(setup, Side.ATTACKER)}; defender: {_ool(setup, Side.DEFENDER)}")
    lines.extend(f"  {extra}" for extra in extras)
    lines.append("")
    rows = [("Attacker wins", result.attacker_win), ("Defender wins", result.defender_win),
            ("Both destroyed", result.draw), ("Attacker retreats", result.retreat)]
    lines.extend(f"{label:<18}{100 * p:9.4f} %" for label, p in rows)
    if result.unresolved >= 5e-7:
        # Only a battle where neither side can ever score again leaves mass unresolved.
        lines.append(f"{'Stalemate':<18}{100 * result.unresolved:9.4f} %   (neither side can hit "
                     f"the other any more)")
    lines.append(f"{'Expected rounds':<18}{result.expected_rounds:9.4f}")
    lines.append("")
    lines.append("Expected survivors (retreated and withdrawn units count):")
    for side in Side:
        survivors = result.expected_survivors(side)
        text = ", ".join(f"{n:.2f} {unit.value}" for unit, n in survivors.items()) or "none"
        start = result.attacker if side is Side.ATTACKER else result.defender.combatants()
        value = sum(unit.profile.cost * n for unit, n in start)
        lines.append(f"  {side.value:<9} {text}  (IPC {result.expected_value(side):.1f} of {value})")
    from domain.odds.exact import STANDARD_PERCENTILES

    heads = " / ".join(f"{q}%" for q in STANDARD_PERCENTILES)
    measures: tuple[tuple[Measure, str], ...] = (("ipc", "Surviving IPC value"), ("units", "Surviving units"))
    for measure, title in measures:
        lines.append(f"{title}, percentiles {heads}:")
        for side in Side:
            values = result.percentiles(side, measure)
            lines.append(f"  {side.value:<9} " + " / ".join(f"{v:g}" for v in values.values()))
    if result.rounds is not None:
        lines.append("Battle ends in round:")
        for index, p in enumerate(result.rounds):
            if p >= 5e-5:
                lines.append(f"  {result.start_round + index:>3}  {100 * p:8.4f} %")
        lines.append(f"  later {100 * result.rounds_beyond:8.2e} %")
    return "\n".join(lines) + "\n"


def _retreat_text(retreat: RetreatCondition) -> list[str]:
    parts = []
    if retreat.after_round is not None:
        parts.append(f"after round {retreat.after_round}")
    if retreat.at_most_units is not None:
        parts.append(f"when {retreat.at_most_units} or fewer attacking units remain")
    return parts


def _ool(setup: BattleSetup, side: Side) -> str:
    order = setup.order_of(side)
    marker = " (default)" if order.source.startswith("default") else ""
    return ", ".join(unit.value for unit in order.units) + marker


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tui.commands.odds ...``: the sub-command on its own."""
    parser = argparse.ArgumentParser(prog="minister odds", description=__doc__.split("\n")[0])
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
