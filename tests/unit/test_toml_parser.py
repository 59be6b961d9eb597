"""The replay file's TOML parser (tomli, pinned) reads every document as Python 3.11's tomllib
does: the same values, and the same message for a document it refuses (the messages name the
line a replay error quotes). TOML 1.1, which later tomli releases accept, stays refused."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([*ROOT.glob("replays/**/*.toml"), *ROOT.glob("tests/corpus/**/*.toml")])


def _read(parser: object, text: str) -> object:
    try:
        return parser.loads(text)  # type: ignore[attr-defined]
    except (tomllib.TOMLDecodeError, tomli.TOMLDecodeError) as error:
        return f"refused: {error}"
    except RecursionError:  # each words it its own way; the replay reader words it once
        return "refused: nested too deeply"


def _text(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return None  # a binary file: refused before any TOML is read


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_document_reads_as_tomllib_reads_it(path: Path) -> None:
    text = _text(path)
    if text is None:
        pytest.skip("not UTF-8")
    assert _read(tomli, text) == _read(tomllib, text)


@pytest.mark.parametrize("document", [
    'a = {x = 1,\n  y = 2}\n',  # newlines in an inline table
    'a = "\\e"\n',  # the escape character
    'a = "\\x41"\n',  # a byte escape
    "t = 12:30\n",  # a time without seconds
])
def test_toml_1_1_is_refused_as_tomllib_refuses_it(document: str) -> None:
    found = _read(tomli, document)
    assert isinstance(found, str) and found.startswith("refused: ")
    assert found == _read(tomllib, document)
