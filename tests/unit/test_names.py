"""Resolving written territory names: abbreviations, sea zones and the 2008 Section VI typo rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import UnknownTerritoryError
from domain.rules.board import Board
from domain.rules.names import Resolution, canonical_name, name_key, resolve, resolve_many, typo_allowance

BOARD = Board.classic()
REAL_NAMES = [(name, terr.name) for terr in BOARD
              for name in (terr.name, *terr.abbreviations, *([terr.source_name] if terr.source_name else []))]


def _name(written: str) -> str:
    return resolve(written).territory.name


@pytest.mark.parametrize(("written", "expected"), REAL_NAMES)
def test_every_name_and_abbreviation_resolves_exactly(written: str, expected: str) -> None:
    found = resolve(written)
    assert found.territory.name == expected
    assert found.typo is False
    assert found.written == written


def test_real_names_never_read_as_typos_of_each_other() -> None:
    # 2008 VI: "E.US instead of W.US" is the wrong territory, not a typo. Every real name keeps
    # its own meaning, including pairs one edit apart (Kar/Kaz, E US/W US, Man/Mad, Per/Peru).
    keys: dict[str, str] = {}
    for written, expected in REAL_NAMES:
        assert keys.setdefault(name_key(written), expected) == expected, written
    for written, expected in REAL_NAMES:
        for variant in (written.upper(), written.lower(), written.replace(" ", "."),
                        written.replace(" ", ""), f"  {written}  "):
            found = resolve(variant)
            assert (found.territory.name, found.typo) == (expected, False), variant


@pytest.mark.parametrize(("written", "expected"), [
    ("Kar", "Karelia S.S.R."), ("Karelia", "Karelia S.S.R."), ("Karelia SSR", "Karelia S.S.R."),
    ("Cauc", "Caucasus"), ("Kaz", "Kazakh S.S.R."), ("Kazakh", "Kazakh S.S.R."),
    ("Novo", "Novosibirsk"), ("Evenki", "Evenki National Okrug"), ("Evenki NO", "Evenki National Okrug"),
    ("Yakut", "Yakut S.S.R."), ("Ukr", "Ukraine S.S.R."), ("Ukraine", "Ukraine S.S.R."),
    ("E Europe", "East Europe"), ("E Eur", "East Europe"), ("EE", "East Europe"),
    ("W Europe", "West Europe"), ("W Eur", "West Europe"), ("WE", "West Europe"),
    ("S Europe", "South Europe"), ("S Eur", "South Europe"), ("SE", "South Europe"),
    ("Ger", "Germany"), ("Fin", "Finland Norway"), ("Fin Nor", "Finland Norway"),
    ("Finland", "Finland Norway"), ("UK", "United Kingdom"), ("U.K.", "United Kingdom"),
    ("E Can", "East Canada"), ("ECan", "East Canada"), ("E Canada", "East Canada"),
    ("W Can", "West Canada"), ("E US", "East US"), ("EUS", "East US"), ("E.US", "East US"),
    ("W US", "West US"), ("WUS", "West US"), ("W.US", "West US"), ("Alg", "Algeria"),
    ("Lib", "Libya"), ("Egy", "Anglo Sudan Egypt"), ("Egypt", "Anglo Sudan Egypt"),
    ("ASE", "Anglo Sudan Egypt"), ("Man", "Manchuria"), ("Manch", "Manchuria"),
    ("Kwang", "Kwangtung"), ("Kwg", "Kwangtung"), ("FIC", "French Indo China"),
    ("Indochina", "French Indo China"), ("Jap", "Japan"), ("Japan", "Japan"), ("Phil", "Philippines"),
    ("Bor", "Borneo Celebes"), ("EI", "East Indies"), ("Aus", "Australia"), ("NZ", "New Zealand"),
    ("SA", "South Africa"), ("S Afr", "South Africa"), ("Ken", "Kenya-Rhodesia"),
    ("Kenya Rhodesia", "Kenya-Rhodesia"), ("IEA", "Italian East Africa"),
    ("FEA", "French Equatorial Africa"), ("FWA", "French West Africa"), ("Syr", "Syria Jordan"),
    ("Syria-Jordan", "Syria Jordan"), ("Per", "Persia"), ("Pan", "Panama"), ("Mex", "Mexico"),
    ("Braz", "Brazil"), ("Hawaii", "Hawaiian Islands"), ("Sink", "Sinkiang"), ("Mong", "Mongolia"),
    ("SFE", "Soviet Far East"), ("Columbia", "Colombia"), ("Carribean Sea Zone", "Caribbean Sea Zone"),
    ("North Sea Zone", "North Sea Zone"), ("Baltic", "Baltic Sea Zone"),
])
def test_abbreviations(written: str, expected: str) -> None:
    assert _name(written) == expected


@pytest.mark.parametrize(("written", "expected"), [
    ("UK SZ", "North Sea Zone"), ("E Can SZ", "East Canada Sea Zone"), ("Kar SZ", "Karelia Sea Zone"),
    ("UK S.Z.", "North Sea Zone"), ("UKSZ", "North Sea Zone"), ("sz UK", "North Sea Zone"),
    ("S.Z. UK", "North Sea Zone"), ("Sea Zone Kar", "Karelia Sea Zone"),
    ("UK Sea Zone", "North Sea Zone"), ("Karelia S.S.R. SZ", "Karelia Sea Zone"),
    ("Hawaii SZ", "Hawaii Sea Zone"), ("Haw SZ", "Hawaii Sea Zone"), ("Japan SZ", "Japan Sea Zone"),
    ("Ger SZ", "Baltic Sea Zone"), ("Ukr SZ", "Black Sea Zone"), ("W US SZ", "West US Sea Zone"),
    ("E US S.Z.", "East US Sea Zone"), ("Baltic SZ", "Baltic Sea Zone"), ("North Sea SZ", "North Sea Zone"),
    ("S. Med. SZ", "Central Mediterranean Sea Zone"), ("Lib SZ", "Central Mediterranean Sea Zone"),
])
def test_sea_zone_forms(written: str, expected: str) -> None:
    found = resolve(written)
    assert found.territory.name == expected
    assert found.territory.sea
    assert found.typo is False


def test_sea_zone_of_a_territory_with_several_lists_them() -> None:
    with pytest.raises(UnknownTerritoryError) as caught:
        resolve("W Eur SZ")
    message = str(caught.value)
    assert "'W Eur SZ'" in message
    for sea in ("Baltic Sea Zone", "North Sea Zone", "West Mediterranean Sea Zone", "West Spain Sea Zone"):
        assert sea in message
    with pytest.raises(UnknownTerritoryError, match="borders no sea zone"):
        resolve("Sink SZ")


@pytest.mark.parametrize(("written", "expected"), [
    ("Karelai", "Karelia S.S.R."), ("Caucasas", "Caucasus"), ("Germny", "Germany"),
    ("Moscoq", "Russia"), ("Chna", "China"), ("Novosibrisk", "Novosibirsk"),
    ("Eastt Europe", "East Europe"), ("Nort Sea Zone", "North Sea Zone"),
    ("Szlomon Islands", "Solomon Islands"),
])
def test_readily_decipherable_typos(written: str, expected: str) -> None:
    found = resolve(written)
    assert (found.territory.name, found.typo) == (expected, True)
    assert expected in found.note


def test_typo_inside_a_sea_zone_form() -> None:
    found = resolve("Karelai SZ")
    assert (found.territory.name, found.typo) == ("Karelia Sea Zone", True)


def test_wrong_real_territory_is_not_a_typo() -> None:
    # 2008 VI: E.US for W.US names a real territory; it resolves to it (the caller finds the error).
    assert (_name("E US"), resolve("E US").typo) == ("East US", False)
    assert (_name("W.US"), resolve("W.US").typo) == ("West US", False)
    assert _name("Kaz") == "Kazakh S.S.R." and _name("Kar") == "Karelia S.S.R."


@pytest.mark.parametrize("written", [
    "Xyzzy", "", "  ", "S.S.R.", "10 inf", "Kar1", "Kax", "Pers", "Mang", "Est Europe", "Wst Eurpe",
    "Eest US", "SZ", "Atlantis Sea Zone",
])
def test_not_decipherable_is_an_error(written: str) -> None:
    with pytest.raises(UnknownTerritoryError) as caught:
        resolve(written)
    assert repr(written) in str(caught.value)


def test_error_suggests_nearest_names() -> None:
    with pytest.raises(UnknownTerritoryError, match=r"nearest: .*Persia") as caught:
        resolve("Pers")
    assert "Peru" in str(caught.value)


def test_allowance_by_length() -> None:
    assert [typo_allowance(k) for k in ("kar", "kare", "karelai", "caucasas", "karela1")] == [0, 1, 1, 2, 0]


def test_notes_and_helpers() -> None:
    assert resolve("Germany").note == ""
    assert "abbreviation" in resolve("Ger").note
    assert "North Sea Zone" in resolve("North Sea Zone").territory.name
    assert "United Kingdom" in resolve("UK SZ").note
    many = resolve_many(["Kar", "Cauc", "E Europe"])
    assert [r.territory.name for r in many] == ["Karelia S.S.R.", "Caucasus", "East Europe"]
    assert canonical_name("Novo") == "Novosibirsk"
    assert resolve("kar", BOARD) == Resolution(BOARD.territory("Karelia S.S.R."), False, "kar",
                                                "abbreviation of Karelia S.S.R.")
    assert resolve("Kar", BOARD).territory.name == "Karelia S.S.R."


def test_cached_outcome_keeps_each_written_form() -> None:
    first, second = resolve("Karelai"), resolve("KARELAI.")
    assert first.territory == second.territory and first.typo and second.typo
    assert (first.written, second.written) == ("Karelai", "KARELAI.")
    for _ in range(2):
        with pytest.raises(UnknownTerritoryError, match="'Xyzzy'"):
            resolve("Xyzzy")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=30))
def test_random_text_resolves_or_raises_unknown(text: str) -> None:
    try:
        found = resolve(text)
    except UnknownTerritoryError as error:
        assert repr(text) in str(error)
    else:
        assert found.territory in BOARD.territories
        assert found.written == text


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(REAL_NAMES), st.integers(min_value=0, max_value=40),
       st.sampled_from(_LETTERS), st.sampled_from(["replace", "insert", "delete", "swap"]))
def test_one_slip_never_reads_as_another_territory_by_typo(
        pair: tuple[str, str], at: int, letter: str, how: str) -> None:
    written, meant = pair
    key = name_key(written)
    i = at % len(key)
    slipped = {"replace": key[:i] + letter + key[i + 1:], "insert": key[:i] + letter + key[i:],
               "delete": key[:i] + key[i + 1:],
               "swap": key[:i] + key[i + 1:i + 2] + key[i:i + 1] + key[i + 2:]}[how]
    try:
        found = resolve(slipped)
    except UnknownTerritoryError:
        return
    if found.typo:
        # A typo is only ever read as the territory meant; landing on another real name is exact.
        assert found.territory.name == meant, (written, slipped)
    elif found.territory.name != meant:
        # Otherwise the slip spelt another real name exactly, or made an "<X>SZ" form.
        own_keys = {name_key(n) for n, t in REAL_NAMES if t == found.territory.name}
        assert name_key(slipped) in own_keys or found.territory.sea, (written, slipped)
