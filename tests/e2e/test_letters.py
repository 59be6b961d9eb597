"""The letter as the players receive it (issue 27 items 4 and 5): the shipped games' letters in
docs/letters/ are what the program writes now, and every letter of every shipped replay lists
each open finding (and each void battle awaiting its election) under "Still open", never says
"nothing" while one is, and never shows the program's own names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from application.intake.replayfile import load_replay
from domain.review.game_review import review_both
from domain.rules.findings import FindingKind
from projections.letter import build_letter, render
from tests.conftest import REPLAYS
from tools.make_letters import SHIPPED, letters

ALL = sorted(REPLAYS.rglob("*.toml"))


def test_the_shipped_letters_are_what_the_program_writes() -> None:
    """docs/letters/ holds each shipped game's letter (text and Markdown) as written now."""
    written = letters()
    assert {p.stem for p in written if p.suffix == ".txt"} == {Path(name).stem for name in SHIPPED}
    for path, text in written.items():
        assert path.exists(), f"{path} missing: run python -m tools.make_letters"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python -m tools.make_letters"


def _still_open(text: str) -> str:
    return text.split("\nSTILL OPEN\n", 1)[1].split("\nREPORTS AND RULINGS ON RECORD\n", 1)[0]


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_every_open_finding_is_still_open_in_the_letter(path: Path) -> None:
    game = load_replay(path).game
    corrected, rolled = review_both(game)
    unsettled = [f for f in corrected.findings
                 if f.status == "open" or (f.status == "void" and f.waiting == "election")]
    awaiting = [b for b in corrected.battles if b.status == "awaiting"]
    letters = [render(build_letter(game, corrected, rolled))]
    # A letter on one finding still lists what is open in the whole game (issue 27 item 4).
    letters += [render(build_letter(game, corrected, rolled, f.id)) for f in corrected.findings[:3]]
    for text in letters:
        part = _still_open(text)
        for finding in unsettled:
            assert f"  - {finding.id}, " in part, (finding, part)
        for battle in awaiting:
            assert battle.battle in part, (battle.battle, part)
        if unsettled or awaiting:
            assert "Nothing remains open" not in part
        else:
            assert "Nothing remains open" in part


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_no_program_names_event_numbers_or_fractions_of_seconds(path: Path) -> None:
    game = load_replay(path).game
    corrected, rolled = review_both(game)
    text = render(build_letter(game, corrected, rolled))
    # The record's own words (reports, rulings, titles) are quoted as written; the letter's are
    # plain. Drop the quoted words before looking.
    own = re.sub(r"“[^”]*”", "", text)
    for kind in FindingKind:
        assert kind.value not in own or "_" not in kind.value, (kind, path)
    assert "[event" not in own and "event " not in own
    assert not re.search(r"\(\d+ posts?\)", own)
    assert not re.search(r"(?<![\d.])1 (?:[A-Za-z]+ )?(?:dice|hits)\b", own), path
    assert not re.search(r"\d\d:\d\d:\d\d\.\d", own) and "T" not in re.findall(r"\d{4}-\d\d-\d\d(T)", own)
    for word in ("not_fight", "reroll_defence", "apply_to_corrected_units", "minister-dice/1"):
        assert word not in own
