"""Finding kinds and statuses are values (StrEnums): named once, checked where text comes in,
and carried as their text in JSON and stored reviews."""

from __future__ import annotations

import msgspec
import pytest

from domain.review.decisions import ruling_problem
from domain.review.views import Finding
from domain.rules.editions import IAAPA_1999, IAAPA_2008, KINDS
from domain.rules.findings import FindingKind, FindingStatus, finding_ref


def test_every_kind_an_edition_defines_or_cites_is_a_member() -> None:
    for edition in (IAAPA_1999, IAAPA_2008):
        assert all(isinstance(kind, FindingKind) for kind in edition.kinds)
        assert all(isinstance(kind, FindingKind) for kind in edition.citations)
    assert set(KINDS) == set(FindingKind)


def test_a_finding_id_stays_text_and_a_kind_becomes_its_member() -> None:
    assert finding_ref("F12") == "F12"
    assert finding_ref("wrong_units") is FindingKind.WRONG_UNITS


@pytest.mark.parametrize("text", ["wrong_unit", "F", "f2", "Wrong_Units", ""])
def test_neither_an_id_nor_a_kind_is_refused_naming_the_allowed_kinds(text: str) -> None:
    with pytest.raises(ValueError, match=r"neither a finding id .*\(allowed kinds: units_not_available, "):
        finding_ref(text)


def test_a_ruling_on_an_unknown_kind_says_so_before_looking_for_it() -> None:
    problem = ruling_problem([], "aa_ghosts", None)
    assert problem is not None and problem.part == "finding"
    assert problem.message.startswith("finding 'aa_ghosts' is neither a finding id")
    assert "aa_ghost," in problem.message


def _finding() -> Finding:
    return Finding(id="F1", kind=FindingKind.AA_GHOST, status=FindingStatus.IGNORED, rule="r", detail="d")


def test_json_carries_the_kind_and_status_as_their_text_and_decodes_them_to_members() -> None:
    data = msgspec.json.encode(_finding())
    assert b'"kind":"aa_ghost","status":"ignored"' in data
    back = msgspec.json.decode(data, type=Finding)
    assert back.kind is FindingKind.AA_GHOST and back.status is FindingStatus.IGNORED


def test_a_stored_finding_with_an_unknown_kind_does_not_decode() -> None:
    data = msgspec.json.encode(_finding()).replace(b"aa_ghost", b"aa_gost")
    with pytest.raises(msgspec.ValidationError, match="kind"):
        msgspec.json.decode(data, type=Finding)
