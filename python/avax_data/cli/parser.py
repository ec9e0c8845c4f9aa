"""The argument parser class of the command line: one-line errors, examples in ``--help``."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from .errors import EXIT_USAGE, one_line, print_error

__all__ = ["Parser", "HelpFormatter", "add_command"]


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
