"""The table of sub-commands (``avax_data.cli.parser.Command``): its help texts and its errors."""

from __future__ import annotations

import argparse

import pytest

from avax_data.cli.parser import Command, Parser, add_group


def _run(args: argparse.Namespace) -> int:
    return 7


def _far(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--far", action="store_true")


def test_a_command_text_is_help_description_and_examples() -> None:
    command = Command("go", "\ngo somewhere\n\nGo to a place,\nthen stop.\n\nx go\nx go --far")
    assert command.parts() == ("go somewhere", "Go to a place,\nthen stop.", "x go\nx go --far")


@pytest.mark.parametrize("text", ["only help", "help\n\ndescription", "a\n\nb\n\nc\n\nd"])
def test_a_command_text_without_three_parts_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"command 'go': its text has \d parts separated by blank lines, not 3"):
        Command("go", text).parts()


def test_a_group_requires_one_of_its_actions_and_runs_its_handler(capsys: pytest.CaptureFixture[str]) -> None:
    parser = Parser(prog="x")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    add_group(sub, Command("top", "the top\n\nThe top group.\n\nx top go"),
              [Command("go", "go\n\nGo.\n\nx top go", arguments=_far, handler=_run)])
    args = parser.parse_args(["top", "go", "--far"])
    assert (args.action, args.far, args.handler(args)) == ("go", True, 7)
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_args(["top"])
    assert exit_info.value.code == 2
    assert "the following arguments are required: ACTION" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parser.parse_args(["top", "--help"])
    help_text = capsys.readouterr().out
    assert "The top group." in help_text and help_text.rstrip().endswith("examples:\n  x top go")
