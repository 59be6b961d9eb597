"""Write the letters of the shipped games into ``docs/letters/``, so a reader judges the letter
without running anything: ``python -m tools.make_letters`` (``--check``: exit 1, writing
nothing, when a file differs from what the program writes now).

Each game's letter as plain text (``.txt``, the e-mail) and Markdown (``.md``), signed and
dated by default, exactly as ``minister letter FILE`` prints it; ``tests/e2e/test_letters.py``
writes them again and compares, so a change to the letter shows in the diff of these files.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Every shipped game (each file of replays/games/), Part 14's worked example, and a battle
#: ruled on (a void battle re-rolled on the attacker's election): a letter headed "Ruling".
SHIPPED = (*sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "replays" / "games").glob("*.toml")),
           "replays/part14/east-europe-forgotten-armour.toml",
           "replays/findings/defenders_misdeclared-reroll-2008.toml")
OUT = ROOT / "docs" / "letters"
_FORMATS = {"text": ".txt", "markdown": ".md"}


def letters() -> dict[Path, str]:
    """Every file of ``docs/letters/`` and what it holds now."""
    from application.intake.replayfile import load_replay
    from domain.review.game_review import review_both
    from projections.letter import build_letter, render

    found: dict[Path, str] = {}
    index = ["# Letters of the shipped games", "",
             "Written by `python -m tools.make_letters` (checked by `tests/e2e/test_letters.py`): what",
             "`minister letter FILE` prints for each shipped game, as plain text and as Markdown.", ""]
    for name in SHIPPED:
        game = load_replay(ROOT / name).game
        corrected, rolled = review_both(game)
        letter = build_letter(game, corrected, rolled)
        stem = Path(name).stem
        for form, suffix in _FORMATS.items():
            found[OUT / f"{stem}{suffix}"] = render(letter, form)
        index.append(f"- [{stem}.md]({stem}.md) ([as text]({stem}.txt)): the letter on "
                     f"[`{name}`](../../{name})")
    found[OUT / "README.md"] = "\n".join(index) + "\n"
    return found


def main(argv: list[str]) -> int:
    """Write the letters (or, with ``--check``, say which differ)."""
    stale = [path for path, text in letters().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)} (run python -m tools.make_letters)")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for path, text in letters().items():
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(letters())} files in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
