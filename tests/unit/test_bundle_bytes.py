"""A bundle's file is the JSON ``json.dumps(bundle, indent=1, ensure_ascii=False)`` writes, byte
for byte, whatever text its record and parts hold (it is made by msgspec, without json's copies)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from application.usecases.desk.bundle import bundle_bytes

# What a bundle holds: text (any, control characters and non-BMP included), whole numbers,
# lists and tables of them, null.
_TEXT = st.text(st.characters(exclude_categories=("Cs",)))
_VALUES = st.recursive(st.none() | st.integers(-2**63, 2**63 - 1) | _TEXT,
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                       max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_TEXT, _VALUES, max_size=6))
def test_bundle_bytes_are_what_json_writes(bundle: dict[str, Any]) -> None:
    assert bundle_bytes(bundle) == (json.dumps(bundle, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
