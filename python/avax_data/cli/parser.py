"""The argument parser class of the command line: one-line errors, examples in ``--help``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from .errors import EXIT_USAGE, one_line, print_error

__all__ = ["Parser", "HelpFormatter", "Command", "add_command", "add_commands", "add_group"]


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Keeps the layout of descriptions and example epilogs; shows defaults that are set."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        # Show "(default: X)" only for real defaults, and never for secrets.
        text = action.help or ""
        flag = action.nargs == 0  # store_true / store_false: the default says nothing useful
        if flag or action.default in (None, argparse.SUPPRESS) or "default" in text or action.dest == "api_key":
            return text
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line ``error: ... (see ... --help)``, exit 2."""

    def error(self, message: str) -> NoReturn:
        print_error(f"error: {one_line(message)} (see {self.prog} --help)")
        sys.exit(EXIT_USAGE)


def add_command(
    sub: argparse._SubParsersAction,
    name: str,
    *,
    help: str,
    description: str,
    examples: str,
    parents: list[argparse.ArgumentParser] | None = None,
    aliases: list[str] | None = None,
) -> argparse.ArgumentParser:
    """Add a subcommand whose ``--help`` ends with ``examples`` (shell lines, one per line)."""
    epilog = "examples:\n" + "\n".join("  " + line if line else "" for line in examples.strip("\n").splitlines())
    return sub.add_parser(
        name,
        help=help,
        description=description,
        epilog=epilog,
        formatter_class=HelpFormatter,
        parents=parents or [],
        aliases=aliases or [],
    )


@dataclass(frozen=True)
class Command:
    """One sub-command: its texts for ``--help``, how it adds its arguments and what runs it."""

    #: The word typed after the group (``info`` in ``avax-data cache info``).
    name: str
    #: The texts of ``--help`` as they show, in three parts separated by a blank line: the one line
    #: shown in the group's list of commands, the paragraph at the top of the command's ``--help``,
    #: and the shell lines shown under ``examples:`` at its end.
    text: str
    #: Adds the command's own arguments to its parser (``None``: none).
    arguments: Callable[[argparse.ArgumentParser], None] | None = None
    #: Runs the command with the parsed arguments (``None`` for a group of commands).
    handler: Callable[[argparse.Namespace], int] | None = None

    def parts(self) -> tuple[str, str, str]:
        """``(help, description, examples)`` of :attr:`text`; a ``ValueError`` unless there are three."""
        parts = self.text.strip("\n").split("\n\n")
        if len(parts) != 3:
            raise ValueError(f"command {self.name!r}: its text has {len(parts)} parts separated by blank lines, "
                             "not 3 (help, description, examples)")
        return parts[0], parts[1], parts[2]


def add_commands(
    sub: argparse._SubParsersAction,
    commands: Sequence[Command],
    *,
    parents: list[argparse.ArgumentParser] | None = None,
) -> list[argparse.ArgumentParser]:
    """Add each of ``commands`` to ``sub`` (each with ``parents``), in order; their parsers."""
    parsers = []
    for command in commands:
        help, description, examples = command.parts()
        parser = add_command(sub, command.name, help=help, description=description, examples=examples,
                             parents=parents)
        if command.arguments is not None:
            command.arguments(parser)
        if command.handler is not None:
            parser.set_defaults(handler=command.handler)
        parsers.append(parser)
    return parsers


def add_group(
    sub: argparse._SubParsersAction,
    group: Command,
    actions: Sequence[Command],
    *,
    parents: list[argparse.ArgumentParser] | None = None,
) -> argparse.ArgumentParser:
    """Add the command ``group`` whose required ACTION is one of ``actions`` (each with ``parents``)."""
    (parser,) = add_commands(sub, [group])
    subparsers = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    add_commands(subparsers, actions, parents=parents)
    return parser
