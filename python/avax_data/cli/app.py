"""The top-level parser and ``main``: dispatch, and every failure turned into an exit code."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from ..exceptions import AvaxDataError
from .cache_cmd import add_cache_commands
from .data_cmd import add_data_commands
from .dataset_cmd import add_dataset_commands
from .errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, CliError, exit_code_and_line, print_error
from .dryrun import DryRun
from .export import Interrupted, Resumable
from .index_cmd import add_index_commands, add_walk_command
from .metrics_cmd import add_metrics_commands
from .parser import HelpFormatter, Parser
from .reconcile_cmd import add_reconcile_command
from .serve import add_emulator_command

__all__ = ["COMMANDS", "build_parser", "main"]

_EXAMPLES = """examples:
  avax-data walk --emulator --chain X/tx --out x_tx.parquet
  avax-data index range --url http://127.0.0.1:9650 --chain C/block --decode --count 50000 -o c.parquet
  avax-data index follow --chain P/block -o - | jq .id
  avax-data data blocks 43114 --limit 10000 -o blocks.csv --resume
  avax-data metrics series 43114 txCount --interval day --start 2024-01-01 --end 2024-04-01 -o tx.parquet
  avax-data reconcile --emulator --chain C --start 0 --stop 1000 -o diff.parquet
  avax-data dataset verify x_tx/
  avax-data cache info ~/.cache/avax-data
  avax-data emulator --port 9650

exit codes: 0 done, 1 the output could not be written (or dataset verify found damage, or reconcile
differences), 2 bad usage,
3 service error, 130 interrupted
"""


#: The top-level commands in the order ``--help`` lists them, each with what adds it (and its
#: sub-commands) to the parser.
COMMANDS: dict[str, Callable[[argparse._SubParsersAction[Parser]], None]] = {
    "index": add_index_commands,
    "data": add_data_commands,
    "metrics": add_metrics_commands,
    "walk": add_walk_command,
    "reconcile": add_reconcile_command,
    "dataset": add_dataset_commands,
    "cache": add_cache_commands,
    "emulator": add_emulator_command,
}


def build_parser(only: str | None = None) -> Parser:
    """The ``avax-data`` argument parser (exposed for documentation and tests).

    ``only`` names one top-level command: the parser then holds that command alone, which is all
    parsing a command line that starts with it needs (the ``data`` group alone has 70
    sub-commands: building every command for every call costs most of the CLI's start-up).
    """
    parser = Parser(
        prog="avax-data",
        description="Typed, resumable access to Avalanche's node Index RPC, Data API and Metrics API, with an\n"
        "offline emulator. Exports write Parquet, CSV or NDJSON; single objects print JSON.",
        epilog=_EXAMPLES,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, add in COMMANDS.items():
        if only is None or name == only:
            add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # A known command first: build its parser alone. Anything else (--help, a typo) needs them all.
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.version:
        from .. import __version__

        print(f"avax-data {__version__}")
        return EXIT_OK
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.handler(args))
    except DryRun:
        return EXIT_OK
    except Interrupted as stop:
        hint = " (run the same command with --resume to continue)" if stop.state else \
            (f" ({stop.note})" if stop.note else "")
        print_error(f"interrupted{hint}")
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print_error("interrupted")
        return EXIT_INTERRUPTED
    except Resumable as failure:
        code, line = exit_code_and_line(failure.cause)
        print_error(line[:-1] + "; then --resume continues the export)" if line.endswith(")") else line)
        return code
    except (CliError, AvaxDataError, OSError) as error:
        if isinstance(error, BrokenPipeError):  # the reader of stdout went away (| head)
            _silence_stdout()
            return EXIT_OK
        code, line = exit_code_and_line(error)
        print_error(line)
        return code


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
