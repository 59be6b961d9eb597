"""The repository stands alone: a fresh clone, with nothing beside it, has every page its README
and docs/ link to (and every heading a link points at)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.conftest import ROOT

#: ``[text](target)`` links and ``[name]: target`` references (images too).
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.MULTILINE)
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def _clone(tmp_path: Path) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    # A directory of its own: no ../shared (nor anything else) beside the clone.
    target = tmp_path / "alone" / "minister"
    done = subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(target)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return target


def links(markdown: str) -> list[str]:
    """Every link target of a Markdown text, code blocks left out."""
    text = _FENCE.sub("", markdown)
    return [*_LINK.findall(text), *_REFERENCE.findall(text)]


def anchors(markdown: str) -> set[str]:
    """The heading anchors GitHub makes: lower case, punctuation dropped, spaces to hyphens."""
    found = set()
    for heading in _HEADING.findall(_FENCE.sub("", markdown)):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_link_and_anchor_helpers() -> None:
    text = ("See [a](docs/a.md#the-json-report), ![img](pic.png \"t\") and <https://x.org>.\n"
            "```\n[not](a-link.md)\n```\n[ref]: ../outside.md\n## Expectations: `[expect]`\n")
    assert links(text) == ["docs/a.md#the-json-report", "pic.png", "../outside.md"]
    assert anchors(text) == {"expectations-expect"}


@pytest.mark.slow
def test_every_link_of_the_readme_and_docs_resolves_inside_a_fresh_clone(tmp_path: Path) -> None:
    clone = _clone(tmp_path)
    pages = [clone / "README.md", *sorted((clone / "docs").glob("*.md"))]
    assert len(pages) >= 5  # README, replay format, notation, report, extensions
    problems: list[str] = []
    checked = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(clone)
        if "../shared" in text:
            problems.append(f"{name}: mentions ../shared, which a clone does not have")
        for target in links(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ... not a file
                continue
            path_part, _, fragment = target.partition("#")
            resolved = (page.parent / unquote(path_part)).resolve() if path_part else page
            checked += 1
            if not resolved.is_relative_to(clone.resolve()):
                problems.append(f"{name}: {target} points outside the repository")
            elif not resolved.exists():
                problems.append(f"{name}: {target} does not exist in a clone")
            elif fragment and resolved.suffix == ".md" and fragment not in anchors(
                    resolved.read_text(encoding="utf-8")):
                problems.append(f"{name}: {target}: no heading #{fragment} in {resolved.name}")
    assert problems == []
    assert checked >= 10
