"""Every command explains itself: ``--help`` of each sub-command, found from the parser itself."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from domain.battle.model import BattleSetup
from domain.odds.exact import odds
from domain.rules.forces import Force
from domain.rules.orders_of_loss import BattleKind
from tests.conftest import REPLAYS
from tui.cli import build_parser, main
from tui.commands.odds import render

EXAMPLE = REPLAYS / "part13" / "overkill-6arm-v-2inf.toml"
EXAMPLE_ID = "part13-overkill-6arm-v-2inf"


def _subcommands() -> dict[str, tuple[argparse.ArgumentParser, str | None]]:
    """Every sub-command's parser and its one-line help, as registered (no list kept here)."""
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(actions) == 1
    helps = {choice.dest: choice.help for choice in actions[0]._choices_actions}
    return {name: (sub, helps.get(name)) for name, sub in actions[0].choices.items()}


def test_the_parser_has_the_documented_commands() -> None:
    # A floor, not the list: the walk below covers whatever is registered.
    assert {"replay", "verify", "show", "odds", "import", "export", "games", "report", "rule",
            "roll"} <= set(_subcommands())


def test_the_desk_offers_every_decision_a_ruling_takes() -> None:
    from domain.record.entries import Ruling
    from tui.commands.ministry import DECISIONS

    assert tuple(r.value for r in Ruling) == DECISIONS


def test_the_letter_command_offers_every_format_and_signer() -> None:
    from projections import letter
    from tui.commands import letter as command

    assert (command.FORMATS, command.DEFAULT_BY) == (letter.FORMATS, letter.DEFAULT_BY)


def test_every_command_and_option_has_help_text() -> None:
    missing: list[str] = []
    for parser in [build_parser(), *(sub for sub, _ in _subcommands().values())]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{parser.prog} {'/'.join(action.option_strings) or action.dest}")
    for name, (sub, summary) in _subcommands().items():
        if not summary:
            missing.append(f"{name}: no one-line help in 'minister --help'")
        if not sub.description:
            missing.append(f"{name}: no description in 'minister {name} --help'")
    assert missing == []


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_help_of_each_command_prints_every_option(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    sub, _ = _subcommands()[name]
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: minister {name}")
    assert sub.description is not None and sub.description.split()[0] in text
    for action in sub._actions:
        for option in action.option_strings:
            assert option in text


def test_every_store_command_takes_store_after_it() -> None:
    for name, (sub, _) in _subcommands().items():
        if name in ("odds", "expect"):  # pure arithmetic; a replay file's own table: no store
            continue
        options = {option for action in sub._actions for option in action.option_strings}
        assert "--store" in options, name


def test_rule_explains_each_decision() -> None:
    sub, _ = _subcommands()["rule"]
    decision = next(a for a in sub._actions if "--decision" in a.option_strings)
    assert decision.choices is not None and decision.help is not None
    for choice in decision.choices:
        assert f"{choice}:" in decision.help


def test_export_to_a_file_says_what_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = f"sqlite:{tmp_path / 'store.sqlite3'}"
    assert main(["--store", store, "import", str(EXAMPLE)]) == 0
    capsys.readouterr()
    out = tmp_path / "out.toml"
    assert main(["--store", store, "export", EXAMPLE_ID, "-o", str(out)]) == 0
    printed = capsys.readouterr()
    events = out.read_text(encoding="utf-8").count("[[event]]")
    assert events > 0
    assert printed.out == ""
    assert printed.err.startswith(f"wrote {EXAMPLE_ID} to {out}: {events} events, ")


def test_odds_names_a_stalemate_only_when_there_can_be_one() -> None:
    setup = BattleSetup(BattleKind.LAND, Force.parse("3 INF"), Force.parse("2 INF"))
    result = odds(setup)
    assert result.unresolved == 0.0
    text = render(result, setup)
    assert "Stalemate" not in text and "Unresolved" not in text and "e+00" not in text
    stuck = dataclasses.replace(result, unresolved=0.0125)
    assert "Stalemate            1.2500 %   (neither side can hit the other any more)" in render(stuck, setup)


def test_version_names_the_release(capsys: pytest.CaptureFixture[str]) -> None:
    """``minister --version`` (issue 27 item 10): the version pyproject.toml states, exit 0."""
    import tomllib

    from tests.conftest import ROOT

    stated = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"minister {stated}\n"
