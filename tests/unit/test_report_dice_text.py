"""The text report's dice runs: every face with its hit mark, as the run holds it."""

from __future__ import annotations

from domain.review.views import DiceEntry, DiceStatus
from projections.report import _dice_text


def test_a_run_is_written_face_by_face_with_its_hits() -> None:
    entry = DiceEntry(column=2, values=(1, 2, 6), hits=(True, True, False))
    assert _dice_text(entry) == "[2: 1*2*6]"


def test_dice_without_worked_out_hits_are_unmarked() -> None:
    entry = DiceEntry(column=3, values=(1, 5), status=DiceStatus.VOIDED, first_strike=True, hits=(True,))
    assert _dice_text(entry) == "[3 first strike voided: 1*5]"


def test_a_face_off_the_table_is_still_written_as_it_is() -> None:
    entry = DiceEntry(column=2, values=(7, 3, 0), hits=(True, False, False))
    assert _dice_text(entry) == "[2: 7*30]"
