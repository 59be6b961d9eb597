"""The letter's words on the shipped replays (issue 27 items 4 and 5): only the battle in
question, the rule quoted word for word from the club's texts, the time limit said as the
finding's status and the edition read it, what remains open in the whole game."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from application.intake.replayfile import load_replay
from domain.review.game_review import review_both
from domain.rules.editions import IAAPA_1999, IAAPA_2008
from domain.rules.findings import FindingKind
from domain.rules.rule_texts import all_quotations, quoted
from projections.letter import build_letter, render
from projections.letter_words import TITLES, clauses
from tests.conftest import REPLAYS

FULL = REPLAYS / "games" / "full-game-three-rounds-2008.toml"
SEEDS = Path("/work/shared/seeds")


def letter(path: Path, finding: str | None = None, **options: object) -> str:
    game = load_replay(path).game
    corrected, rolled = review_both(game)
    return " ".join(render(build_letter(game, corrected, rolled, finding, **options)).split())  # type: ignore[arg-type]


def part(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


def test_a_letter_on_one_battle_tells_that_battle_only() -> None:
    """F2 is UK 1's battle in Anglo Egypt; Germany 1 fought there too and is not in question."""
    text = letter(FULL, "F2")
    assert "UK 1: the battle of Anglo Sudan Egypt" in text
    assert "UK declared the attack on Anglo Sudan Egypt" in text
    assert "Germany declared" not in text and "Germany 1: the battle" not in text
    assert "round 1: attacker (1 INF, 1 FTR) 1s 1, 3s 5: 1 hit; defender (1 ARM) 2s 4: 0 hits" in text


def test_the_bid_is_open_with_no_time_limit_and_stays_under_still_open() -> None:
    """27.4 and 27.5: a letter on another finding lists the open bid; the bid is never given a
    deadline the rules do not set."""
    text = letter(FULL, "defenders_misdeclared")
    still = part(text, "STILL OPEN", "REPORTS AND RULINGS")
    assert ("F1, illegal bid placement (USSR 1): it awaits the Minister of Law's ruling; the time limit "
            "does not reach it (2008 Section VII)") in still
    assert "Nothing remains open" not in still
    whole = letter(FULL)
    bid = part(whole, "F1: illegal bid placement (USSR 1)", "UK 1: the battle")
    assert "until Germany 1" not in bid and "is rolled" not in bid
    assert ("The time limit does not reach it (2008 Section VII: “This will apply to CDEs, rolling errors, "
            "and non-combat errors only.") in bid


def test_a_voided_declaration_error_keeps_none_of_its_dice() -> None:
    text = letter(REPLAYS / "findings" / "defenders_misdeclared-2008.toml")
    assert "valid dice stand" not in text
    assert ("The battle is null and void: no portion of its results may stand, until UK, the attacker, "
            "elects to re-roll the entire battle with the correct units or not to fight the battle at "
            "all.") in text
    assert "Result as corrected. The battle is null and void: none of its dice count and it has no " \
           "result." in text


def test_findings_until_ruled_then_ruling() -> None:
    assert "Subject: Findings of the Minister of Law on game part14-east-europe" in \
        letter(REPLAYS / "part14" / "east-europe-forgotten-armour.toml")
    ruled = letter(REPLAYS / "findings" / "defenders_misdeclared-reroll-2008.toml")
    assert "Subject: Ruling of the Minister of Law" in ruled and " RULING ==" in ruled
    assert "Date: 2008-07-05 18:40 UTC" in ruled  # the ruling's time


def test_signed_and_dated_as_asked() -> None:
    text = letter(FULL, by="Jane Doe", date=datetime(2008, 9, 30, 12, 0, 0, 123456, tzinfo=UTC))
    assert text.startswith("From: Jane Doe To: the Axis player (Germany, Japan) and the Allies player (USSR, "
                           "UK, "
                           "USA) of game full-game-three-rounds-2008 Date: 2008-09-30 12:00 UTC Subject:")
    assert text.endswith("Yours sincerely, Jane Doe") and ".123456" not in text


def test_the_correction_round_by_round_and_what_it_cost() -> None:
    path = REPLAYS / "part14" / "east-europe-forgotten-armour.toml"
    game = load_replay(path).game
    corrected, _ = review_both(game)
    text = letter(path)
    assert "round 1 as rolled, corrected: the attacker 3s added 2 6, 3 hits in all" in text
    assert "re-rolled round 2: attacker (6 INF, 3 ARM) 1s 1 1 1 1 5 5: 4 hits; defender (2 ARM, 2 FTR)" \
        in text
    assert "round 2's original dice no longer count: the attacker 1s 5 2 5 5 1 3" in text
    impact = corrected.battles[0].impact
    assert impact is not None
    assert (f"From round {impact.from_round}, the attacker's chance to win was "
            f"{impact.as_rolled.attacker_win:.1%} "
            f"as rolled and {impact.as_corrected.attacker_win:.1%} as corrected") in text
    assert ("Germany reported it (“The 2 ARM from Caucasus were never rolled in round 1.”) at 1999-07-20 "
            "19:00 UTC. Part 14 (1999) sets no time limit") in text


def test_a_rule_quoted_twice_is_quoted_once() -> None:
    text = letter(FULL)
    assert text.count("“Any country that ends its turn with possession of its capital collects income.”") == 1
    assert text.count("Errors are correctable only within a time period of 1 subsequent turn") == 1
    assert "(2008 Section VII, quoted above)" in text


def test_every_kind_has_words_and_the_shipped_editions_quote_their_rules() -> None:
    assert set(TITLES) == set(FindingKind)
    assert all("_" not in title for title in TITLES.values())
    for policy in (IAAPA_1999, IAAPA_2008):
        classic_only = {FindingKind.PURCHASE_OVERSPENT, FindingKind.PLACEMENT_UNPURCHASED,
                        FindingKind.UNITS_UNPLACED, FindingKind.TYPO}
        missing = {k for k in policy.kinds if not quoted(policy.name, k)} - classic_only
        assert not missing, (policy.name, missing)
    assert quoted("iaapa-2008+casualty_error=wrong_units", FindingKind.TOO_FEW_UNITS) == \
        quoted("iaapa-2008", FindingKind.TOO_FEW_UNITS)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the club's rule texts are not on this machine")
def test_every_quotation_is_word_for_word_in_the_texts() -> None:
    texts = {"iaapa-1999": (SEEDS / "000_4c67e3bc738b2241.txt").read_text(encoding="utf-8"),
             "iaapa-2008": (SEEDS / "002_b44f4a8db7d17d9d.txt").read_text(encoding="utf-8")}

    def flat(text: str) -> str:
        return re.sub(r"\s+", " ", text)

    for name, quotation in all_quotations():
        for piece in quotation.split(" … "):
            assert flat(piece) in flat(texts[name]), (name, piece)


def test_a_note_is_cut_into_whole_clauses() -> None:
    assert clauses("a (b; c); d; e (f)") == ["a (b; c)", "d", "e (f)"]

