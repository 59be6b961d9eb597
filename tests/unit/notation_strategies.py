"""Hypothesis strategies for the IAAPA notation tests (battle logs, declarations, orders)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from domain.battle.model import RetreatCondition
from domain.notation.battle_log import (
    AttackLine,
    BattleHeader,
    BattleLog,
    Comment,
    DiceText,
    FirstStrikeLine,
    LogLine,
    MarkedDie,
    RoundMarker,
    ShotLine,
    SideLine,
)
from domain.notation.declarations import Declaration, DeclaredBattle, DeclaredMove, DeclaredTotal
from domain.notation.special_orders import SpecialOrders
from domain.rules.units import UnitType

# Words the notation reads as keywords; a name containing them as a word is ambiguous by design.
KEYWORDS = frozenset({
    "a", "d", "r", "aa", "bb", "rnd", "round", "rolls", "roll", "first", "strike", "from", "land",
    "on", "to", "v", "vs", "total", "totals", "attack", "battle", "combat", "trn", "trns", "trans",
    "transport", "transports", "hit", "hits", "no", "ool", "order", "orders", "retreat",
    "withdraw", "withdrawal", "sub", "subs", "after", "when", "if", "ss", "submarine", "submarines",
})

_SAMPLE_WORDS = ["E", "W", "UK", "SZ", "Can", "Kar", "Europe", "Karelia", "Russia", "Caucasus",
                 "S.S.R.", "Anglo-Egypt", "Rio", "del", "Oro", "Kaz", "Novo", "O'Higgins",
                 "Baltic", "Sea", "Zone", "Finland", "Norway", "Wake", "Island", "Zealand",
                 "Kenya-Rhodesia", "Réunion"]

words = st.one_of(
    st.sampled_from(_SAMPLE_WORDS),
    st.builds(lambda first, rest: first + rest, st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
              st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=7)
              ).filter(lambda w: w.lower() not in KEYWORDS),
)
names = st.lists(st.one_of(words, words, words, st.integers(1, 99).map(str)), min_size=1,
                 max_size=2).map(" ".join)

unit_types = st.sampled_from(list(UnitType))
unit_lists = st.lists(st.tuples(unit_types, st.integers(0, 30)), max_size=4).map(tuple)
nonempty_units = st.lists(st.tuples(unit_types, st.integers(0, 30)), min_size=1, max_size=4).map(tuple)
#: A move carries at least one of each unit it names ("0 FTR" moves nothing and is refused).
moved_units = st.lists(st.tuples(unit_types, st.integers(1, 30)), min_size=1, max_size=4).map(tuple)

marked_dice = st.builds(MarkedDie, st.integers(1, 6), st.booleans())
dice_texts = st.lists(st.lists(marked_dice, min_size=1, max_size=8).map(tuple),
                      min_size=1, max_size=4).map(lambda cols: DiceText(tuple(cols)))
stated = st.none() | st.integers(0, 30)
rounds = st.none() | st.integers(1, 40)

header_lines = st.builds(BattleHeader, names.filter(lambda n: n not in ("A", "D")), unit_lists)
attack_lines = st.builds(AttackLine, nonempty_units, names, st.none() | names)
shot_lines = st.builds(ShotLine, st.sampled_from(["AA", "BB"]), dice_texts, stated)
round_markers = st.builds(RoundMarker, st.integers(0, 999))
side_lines = st.builds(SideLine, st.sampled_from(["A", "D"]), rounds, st.none() | unit_lists,
                       dice_texts, stated)
first_strikes = st.builds(FirstStrikeLine, rounds, st.none() | unit_lists, dice_texts, stated)
comments = st.builds(
    lambda mark, body: Comment((mark + body).strip()),
    st.sampled_from(["#", "# ", "--", "-- "]),
    st.text(st.characters(exclude_characters="\n", exclude_categories=["Cs"]), max_size=30))
log_lines: st.SearchStrategy[LogLine] = st.one_of(
    header_lines, attack_lines, shot_lines, round_markers, side_lines, first_strikes, comments)
battle_logs = st.lists(log_lines, max_size=12).map(lambda lines: BattleLog(tuple(lines)))


@st.composite
def declared_moves(draw: st.DrawFn) -> DeclaredMove:
    """A move with or without transports, unloading zone and landing."""
    zone = draw(st.none() | names)
    transports = draw(st.integers(0, 8)) if zone is not None else 0
    return DeclaredMove(draw(names), draw(moved_units), transports, zone,
                        draw(st.none() | names), draw(st.none() | names))


totals = st.builds(DeclaredTotal, names, names, nonempty_units, nonempty_units)
declared_battles = st.builds(
    DeclaredBattle, st.none() | st.integers(0, 999), names, st.none() | unit_lists,
    st.lists(declared_moves(), max_size=3).map(tuple), st.none() | totals)
declarations = st.lists(declared_battles, max_size=3).map(lambda b: Declaration(tuple(b)))


@st.composite
def special_orders(draw: st.DrawFn) -> SpecialOrders:
    """Orders the canonical printer can write (a retreat names a condition or a place)."""
    order = draw(st.none() | st.lists(unit_types, min_size=1, max_size=6, unique=True).map(tuple))
    retreat = draw(st.none() | st.builds(RetreatCondition, st.none() | st.integers(1, 20),
                                         st.none() | st.integers(0, 40), st.none() | names))
    if retreat is not None and retreat == RetreatCondition():
        retreat = None
    return SpecialOrders(order, retreat, draw(st.none() | st.integers(1, 20)), draw(st.none() | names))


# Characters that matter to the notation, for mutating valid text.
_MUTATION_ALPHABET = "0123456789*/=()#-:;,.> \nAaDdRrvV!xTotal"


@st.composite
def mutated(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> str:
    """A valid text with a few characters inserted, deleted or replaced."""
    text = draw(texts)
    rng = random.Random(draw(st.integers(0, 2**32)))
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        where = rng.randrange(len(chars) + 1)
        action = rng.choice(("insert", "delete", "replace"))
        char = rng.choice(_MUTATION_ALPHABET)
        if action == "insert" or not chars:
            chars.insert(where, char)
        elif action == "delete":
            del chars[min(where, len(chars) - 1)]
        else:
            chars[min(where, len(chars) - 1)] = char
    return "".join(chars)
