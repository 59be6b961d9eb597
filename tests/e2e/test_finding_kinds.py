"""Every finding kind of the rules matrix is exercised by a shipped regression replay.

The replays under ``replays/`` are reviewed in-process (``load_replay`` + ``review``), the way
``minister verify`` does. For each kind of ``domain.rules.editions.KINDS`` some replay must produce a
finding of that kind; for each place where the two editions' texts differ, both editions must
have a replay whose finding cites that edition's rule. Replays whose [expect] follows the rule
texts but which the engine does not yet satisfy live in ``tests/fixtures/pending/`` (outside
``replays/``, so ``minister verify replays/`` stays green); they are checked here as strict
expected failures, so a fix in the engine shows up as an XPASS telling to move the file.
"""

from __future__ import annotations

import re
from dataclasses import fields
from functools import cache
from pathlib import Path

import pytest

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from domain.review.views import Finding, GameView
from domain.rules.editions import IAAPA_1999, IAAPA_2008, KINDS, Edition, edition
from tests.conftest import REPLAYS, ROOT
from tui.cli import check_replay

PENDING = ROOT / "tests" / "fixtures" / "pending"
REPLAY_FILES = sorted(REPLAYS.rglob("*.toml"))
PENDING_FILES = sorted(PENDING.glob("*.toml"))

#: Kinds with no record type in minister-replay/1 itself; a replay covers them only through a
#: format extension (``tech``, ``noncombat`` records), and the test skips them when none does.
NO_RECORD_TYPE: dict[str, str] = {
    "tech_dice_too_many": "format v1 has no tech-roll record (2008 Section IV)",
    "tech_dice_too_few": "format v1 has no tech-roll record (2008 Section IV)",
    "tech_overspent": "format v1 has no tech-roll or IPC record (2008 Section IV)",
    "map_discrepancy": "format v1 has no non-combat move or map-update record (2008 Section V)",
}

#: Edition fields where the texts differ, and the finding kind each difference decides.
#: ``time_limit`` is checked on its own (test_time_limit_difference_has_both_editions).
DIFFERENCE_KINDS: dict[str, str] = {
    "too_many_units": "too_many_units",  # 1999 whole column re-rolled, 2008 first N kept
    "aa_forgotten": "aa_forgotten",  # 1999 3s column re-rolled, 2008 right to left
    "aa_too_many": "aa_too_many",  # 1999 entire battle, 2008 first N kept
    "bb_too_many": "bb_too_many",  # 1999 entire battle, 2008 ghost rule per extra shot
    "overcommit_scope": "overcommitted_units",  # 1999 by country, 2008 by origin
    "wrong_game_number_voids_roll": "wrong_game_number",  # 1999 counts, 2008 void
}
_NOT_POLICY = {"name", "kinds", "citations"}


@cache
def _reviewed(path: Path) -> GameView:
    return review(load_replay(path).game)


def _findings(kind: str, edition_name: str | None = None) -> list[tuple[Path, Finding]]:
    found: list[tuple[Path, Finding]] = []
    for path in REPLAY_FILES:
        view = _reviewed(path)
        if edition_name is not None and view.edition != edition_name:
            continue
        found.extend((path, f) for f in view.findings if f.kind == kind)
    return found


def test_the_kinds_without_a_record_type_are_real_kinds() -> None:
    assert set(NO_RECORD_TYPE) <= set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_some_replay_produces_the_kind(kind: str) -> None:
    found = _findings(kind)
    if not found and kind in NO_RECORD_TYPE:
        pytest.skip(NO_RECORD_TYPE[kind])
    assert found, f"no replay under replays/ produces a {kind!r} finding"
    # The finding cites the edition and section its replay was reviewed under.
    for path, finding in found:
        policy = edition(_reviewed(path).edition)
        assert finding.rule == policy.cite(kind), path


def test_every_edition_difference_is_mapped() -> None:
    differing = {f.name for f in fields(Edition)
                 if f.name not in _NOT_POLICY and getattr(IAAPA_1999, f.name) != getattr(IAAPA_2008, f.name)}
    assert differing == {*DIFFERENCE_KINDS, "time_limit"}


@pytest.mark.parametrize("policy_field", sorted(DIFFERENCE_KINDS))
def test_edition_difference_has_a_replay_per_edition(policy_field: str) -> None:
    kind = DIFFERENCE_KINDS[policy_field]
    for policy in (IAAPA_1999, IAAPA_2008):
        found = _findings(kind, policy.name)
        assert found, f"no {policy.name} replay produces {kind!r} ({policy_field} differs)"
        assert all(f.rule == policy.cite(kind) for _, f in found)


@pytest.mark.parametrize("policy_field", sorted(DIFFERENCE_KINDS))
def test_edition_difference_pair_gives_different_reports(policy_field: str) -> None:
    # replays/findings/<kind>-1999.toml and -2008.toml hold the same record under each edition.
    kind = DIFFERENCE_KINDS[policy_field]
    old, new = (REPLAYS / "findings" / f"{kind}-{year}.toml" for year in ("1999", "2008"))
    assert old.exists() and new.exists()
    old_view, new_view = _reviewed(old), _reviewed(new)
    assert (old_view.edition, new_view.edition) == ("iaapa-1999", "iaapa-2008")
    assert old_view.battles != new_view.battles or \
        [f.status for f in old_view.findings] != [f.status for f in new_view.findings]


def test_time_limit_difference_has_both_editions() -> None:
    # 2008 Section VII: an error reported after the next turn's first die is fixed.
    fixed = [f for path in REPLAY_FILES if _reviewed(path).edition == "iaapa-2008"
             for f in _reviewed(path).findings if f.status == "fixed"]
    assert fixed
    # Part 14 (1999) sets no time limit: the same late report still corrects the error.
    late = REPLAYS / "timelimits" / "reported-late-1999.toml"
    game = load_replay(late).game
    assert game.edition == "iaapa-1999"
    assert any(r.at is not None and r.at > game.first_roll_at["Germany 3"] for r in game.reports)
    assert [f.status for f in _reviewed(late).findings] == ["corrected"]


def test_every_finding_replay_says_which_rule_it_exercises() -> None:
    for path in [*REPLAY_FILES, *PENDING_FILES]:
        if path.parent.name in ("findings", "timelimits", "part14", "pending"):
            head = path.read_text(encoding="utf-8").split("format =", 1)[0]
            assert head.startswith("#") and re.search(r"IAAPA|Part 1[34]|1999|2008", head), \
                f"{path}: the header comment must name and quote the rule it exercises"


def test_no_replay_is_left_pending() -> None:
    """Replays whose expectations follow the rules but which the engine failed were kept in
    tests/fixtures/pending/; once the engine agrees they move into replays/. The only ones left
    wait for a change in a file their author could not make: each says so in a first line
    ``# pending: <the file and the change>``, and each must still fail (strictly)."""
    problems = {p.name: check_replay(load_replay(p)) for p in PENDING_FILES}
    assert not [name for name, found in problems.items() if not found], \
        "these pending replays now pass: move them into replays/"
    unexplained = [p.name for p in PENDING_FILES
                   if not p.read_text(encoding="utf-8").startswith("# pending: domain/")]
    assert not unexplained, f"engine disagreements left: { {n: problems[n] for n in unexplained} }"
