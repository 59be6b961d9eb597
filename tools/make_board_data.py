"""Generate ``domain/data/classic.toml`` from the shared board facts plus IAAPA abbreviations.

Usage: ``python tools/make_board_data.py [SOURCE] [OUTPUT]`` (defaults:
``/work/shared/data/classic-board.toml`` -> ``domain/data/classic.toml``), or
``python tools/make_board_data.py --compile`` after editing the packaged TOML by hand.
Either writes the TOML's compiled form beside it too (``classic.json``: the same data as JSON,
which the package reads at run time because it decodes ~100x faster than TOML parses).

The output is self-contained: the package reads only it at run time. Territory facts, canals,
setup and starting IPCs are copied unchanged; each territory gains ``abbreviations``: the short
forms IAAPA records write (hand-listed below) and, for sea zones, forms derived from the name
("Baltic Sea", "Baltic") where they cannot be read as a land territory.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = Path("/work/shared/data/classic-board.toml")
DEFAULT_OUTPUT = ROOT / "domain" / "data" / "classic.toml"

# Short forms seen in IAAPA rule texts, declarations and dice-server headers ("Kar", "E Can",
# "Novo", "Cauc", "Kaz", "W Europe", "UK SZ", "Burma" ...). Case, dots, hyphens, spaces and a
# trailing "S.S.R." are ignored by the resolver, so "E.US", "EUS" and "e us" need one entry.
LAND_ABBREVIATIONS: dict[str, list[str]] = {
    "Afghanistan": ["Afg", "Afgh"],
    "Alaska": ["Alas"],
    "Algeria": ["Alg"],
    "Anglo Sudan Egypt": ["ASE", "Egy", "Egypt", "Anglo Egypt", "Anglo Sudan", "Sudan"],
    "Angola": ["Ang"],
    "Argentina-Chile": ["Arg", "Argentina", "Chile"],
    "Australia": ["Aus", "Aust"],
    "Borneo Celebes": ["Bor", "Borneo", "Celebes"],
    "Brazil": ["Braz", "Bra"],
    "Caroline Islands": ["Carolines", "Caroline", "Car Is", "Car Isl"],
    "Caucasus": ["Cauc", "Cau"],
    "China": ["Chi"],
    "Colombia": ["Col"],
    "Congo": ["Con"],
    "Cuba": [],
    "East Canada": ["E Can", "E Canada"],
    "East Europe": ["E Europe", "E Eur", "EE"],
    "East Indies": ["EI", "E Indies"],
    "East US": ["E US", "E USA", "Eastern US"],
    "Eire": ["Ireland"],
    "Evenki National Okrug": ["Evenki", "Evenki NO", "Evenk", "ENO"],
    "Finland Norway": ["Fin", "Fin Nor", "Finland", "Norway", "Fin Norway"],
    "French Equatorial Africa": ["FEA", "Fr Eq Africa"],
    # The Japanese territory on India's border; 2008 bid examples write it "Burma".
    "French Indo China": ["FIC", "Indochina", "Indo China", "Indo", "Fr Indo China", "Burma"],
    "French West Africa": ["FWA", "Fr W Africa"],
    "Germany": ["Ger", "Germ"],
    "Gibraltar": ["Gib"],
    "Hawaiian Islands": ["Hawaii", "Haw", "Hawaiian Is"],
    "India": ["Ind"],
    "Italian East Africa": ["IEA", "It E Africa", "Ital E Africa"],
    "Japan": ["Jap", "Jpn"],
    "Karelia S.S.R.": ["Kar", "Karelia"],
    "Kazakh S.S.R.": ["Kaz", "Kazakh", "Kazak", "Kazakhstan"],
    "Kenya-Rhodesia": ["Ken", "Kenya", "Rhodesia", "Rhod", "Ken Rho"],
    "Kwangtung": ["Kwang", "Kwg", "Kwan"],
    "Libya": ["Lib"],
    "Madagascar": ["Mad", "Madag"],
    "Manchuria": ["Man", "Manch"],
    "Mexico": ["Mex"],
    "Midway": ["Mid"],
    "Mongolia": ["Mong", "Mon"],
    "Mozambique": ["Moz"],
    "New Guinea": ["NG", "N Guinea"],
    "New Zealand": ["NZ", "N Zealand"],
    "Novosibirsk": ["Novo", "Nov"],
    "Okinawa": ["Oki", "Okin"],
    "Panama": ["Pan"],
    "Persia": ["Per", "Iran"],
    "Peru": [],
    "Philippines": ["Phil", "Phils", "Philippine Is"],
    "Rio del Oro": ["Rio", "RDO"],
    # Moscow is in Russia: the 2008 typo example ("10 inf Moscoq instead of Moscow") names it.
    "Russia": ["Rus", "Russ", "Moscow"],
    "Saudi Arabia": ["Saudi", "S Arabia", "Arabia"],
    "Sinkiang": ["Sink", "Sin"],
    "Solomon Islands": ["Sol", "Solomons", "Sol Is"],
    "South Africa": ["SA", "S Afr", "S Africa"],
    "South Europe": ["S Europe", "S Eur", "SE", "Italy"],
    "Soviet Far East": ["SFE", "Sov Far East", "Sov FE"],
    "Spain": ["Spa"],
    "Sweden": ["Swe"],
    "Switzerland": ["Swi", "Swiss", "Switz"],
    "Syria Jordan": ["Syr", "Syria", "Syr Jor"],
    "Turkey": ["Tur", "Turk"],
    "Ukraine S.S.R.": ["Ukr", "Ukraine"],
    "United Kingdom": ["UK", "England", "Britain", "Great Britain", "GB", "Eng"],
    "Wake Island": ["Wake"],
    "West Canada": ["W Can", "W Canada"],
    "West Europe": ["W Europe", "W Eur", "WE", "France"],
    "West US": ["W US", "W USA", "Western US"],
    "Yakut S.S.R.": ["Yakut", "Yak"],
}

SEA_ABBREVIATIONS: dict[str, list[str]] = {
    "West Mediterranean Sea Zone": ["W Med", "West Med"],
    # The 2008 bid example puts a German TRN "in S. Med. SZ": Germany's only Mediterranean
    # transport starts in the central zone, off South Europe.
    "Central Mediterranean Sea Zone": ["C Med", "Cen Med", "Central Med", "S Med"],
    "East Mediterranean Sea Zone": ["E Med", "East Med"],
    "North Atlantic Sea Zone": ["N Atl", "N Atlantic"],
    "South Atlantic Sea Zone": ["S Atl", "S Atlantic"],
    "North Pacific Sea Zone": ["N Pac", "N Pacific"],
    "South Pacific Sea Zone": ["S Pac", "S Pacific"],
    "East Pacific Sea Zone": ["E Pac", "E Pacific"],
    "Gulf of Mexico Sea Zone": ["Gulf"],
}


def _key(name: str) -> str:
    """A rough form of the resolver's key, to keep derived forms off land names."""
    return "".join(ch for ch in name.casefold().replace("s.s.r.", "") if ch.isalnum())


def _sea_forms(name: str, land_keys: set[str], land_names: list[str]) -> list[str]:
    """"Baltic Sea" and "Baltic" for "Baltic Sea Zone", unless a land could be meant."""
    stem = name.removesuffix(" Sea Zone")
    forms = []
    if _key(stem) not in land_keys:
        forms.append(f"{stem} Sea")
        # A bare stem only when it is distinctive: "West Africa" would read as French West Africa.
        if (len(stem) >= 6 or " " in stem) and not any(_key(stem) in _key(n) for n in land_names):
            forms.append(stem)
    return forms


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def build(source: dict[str, Any]) -> str:
    """The text of the packaged data file."""
    meta = dict(source["meta"])
    canals = meta.pop("canal")
    territories = source["territory"]
    lands = [t["name"] for t in territories if not t["sea"]]
    missing = set(lands) ^ set(LAND_ABBREVIATIONS)
    if missing:
        raise SystemExit(f"abbreviation table and board disagree on: {sorted(missing)}")
    land_keys = {_key(n) for n in lands} | {_key(a) for v in LAND_ABBREVIATIONS.values() for a in v}

    out = [
        "# Axis & Allies Classic (Milton Bradley 2nd edition): the board as minister uses it.",
        "# GENERATED by tools/make_board_data.py from the shared classic-board.toml (itself derived",
        "# from TripleA's maps/classic/games/classic.xml); edit the generator, not this file.",
        "# `abbreviations` are the short forms IAAPA records use; `source_name` is TripleA's spelling.",
        "",
        "[meta]",
    ]
    out += [f"{k} = {_toml(v)}" for k, v in meta.items()]
    for canal in canals:
        out += ["", "[[canal]]"] + [f"{k} = {_toml(v)}" for k, v in canal.items()]
    for terr in territories:
        name = terr["name"]
        if terr["sea"]:
            abbreviations = _sea_forms(name, land_keys, lands) + SEA_ABBREVIATIONS.get(name, [])
        else:
            abbreviations = LAND_ABBREVIATIONS[name]
        out += ["", "[[territory]]"]
        for field in ("name", "source_name", "sea", "ipc", "owner", "capital", "factory"):
            if field in terr:
                out.append(f"{field} = {_toml(terr[field])}")
        out.append(f"abbreviations = {_toml(abbreviations)}")
        out.append(f"adjacent = {_toml(terr['adjacent'])}")
    for entry in source["setup"]:
        out += ["", "[[setup]]"] + [f"{k} = {_toml(entry[k])}" for k in ("power", "territory", "units")]
    return "\n".join(out) + "\n"


def compiled(text: str) -> str:
    """The packaged TOML's compiled form: the same data as JSON (what ``Board.classic`` reads)."""
    return json.dumps(tomllib.loads(text), ensure_ascii=False, separators=(",", ":")) + "\n"


def main(argv: list[str]) -> int:
    """Read the shared board file and write the packaged one and its compiled form."""
    if argv[1:] == ["--compile"]:
        text = DEFAULT_OUTPUT.read_text(encoding="utf-8")
        DEFAULT_OUTPUT.with_suffix(".json").write_text(compiled(text), encoding="utf-8")
        print(f"wrote {DEFAULT_OUTPUT.with_suffix('.json')}")
        return 0
    source_path = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    output_path = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUTPUT
    with source_path.open("rb") as handle:
        source = tomllib.load(handle)
    text = build(source)
    tomllib.loads(text)  # never write a file the package could not read
    output_path.write_text(text, encoding="utf-8")
    output_path.with_suffix(".json").write_text(compiled(text), encoding="utf-8")
    print(f"wrote {output_path} ({len(source['territory'])} territories, {len(source['setup'])} setups)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
