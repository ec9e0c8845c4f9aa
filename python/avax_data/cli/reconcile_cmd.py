"""``avax-data reconcile``: a node's block index against the Data API over a range of heights
(:func:`avax_data.reconcile`); the differences written as a file or NDJSON, a summary on
stderr, exit 0 when there are none and 1 when there are."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from .client import SERVICES, client_kwargs, client_parent
from .embedded import start_embedded
from .errors import EXIT_OK, EXIT_USAGE, CliError
from .export import Interrupted
from .formats import FORMATS, STDOUT, for_csv, resolve_format
from .parser import Command, add_commands
from .sinks import durable_replace

__all__ = ["add_reconcile_command", "EXIT_DIFFERENCES", "summary_line"]

#: The exit code when the two services differ (as ``dataset verify`` finding damage).
EXIT_DIFFERENCES = 1


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chain", default="C", choices=("C", "P", "X"),
                        help="C (C/block against /v1/chains/43114/blocks), P (P/block) or X (X/block) "
                        "against the primary network's blocks")
    parser.add_argument("--start", type=int, required=True, metavar="HEIGHT", help="first height")
    parser.add_argument("--stop", type=int, required=True, metavar="HEIGHT", help="one past the last height")
    parser.add_argument("--network", default="mainnet", choices=("mainnet", "fuji", "testnet"),
                        help="the Data API's network")
    _, env, default_url = SERVICES["index"]
    parser.add_argument("--node-url", default=None, metavar="URL",
                        help=f"the node's base URL (default: ${env}, then {default_url}); not with --emulator")
    parser.add_argument("-o", "--out", default=STDOUT, metavar="PATH",
                        help="where the differences go: .parquet, .csv, .ndjson, or - for NDJSON on stdout "
                        "(default -)")
    parser.add_argument("--format", choices=FORMATS, default=None, help="the output format (default: by extension)")


def add_reconcile_command(sub: argparse._SubParsersAction) -> None:
    """Add ``reconcile`` to the top-level subparsers."""
    command = Command("reconcile", """
compare a node's block index with the Data API over a range of heights

Walk the node's C/block, P/block or X/block index and the Data API's blocks of the same chain
over the heights [--start, --stop) and report every difference: a block or transaction missing
(in the index, not in the Data API), extra (in the Data API, not in the index) or different (a
field differs: hash, parent hash, transaction count, gas used, base fee, time, a transaction's
gas price). The differences are written to --out (NDJSON on stdout by default), a summary to
stderr. Exit 0 when the services agree, 1 when they differ (or the output could not be
written), 2 bad usage, 3 a service error.

avax-data reconcile --emulator --chain C --start 0 --stop 1000
avax-data reconcile --node-url http://127.0.0.1:9650 --chain C --start 5000000 --stop 5001000 -o diff.parquet
avax-data reconcile --node-url http://127.0.0.1:9650 --chain P --start 0 --stop 500 -o diff.csv""",
        arguments=_arguments, handler=run_reconcile,
    )
    add_commands(sub, [command], parents=[client_parent("data")])


def summary_line(chain: str, start: int, stop: int, summary: dict[str, Any]) -> str:
    """The line ``reconcile`` prints on stderr."""
    found = summary["missing"] + summary["extra"] + summary["different"]
    verdict = "no difference" if found == 0 else (
        f"{found} difference(s): {summary['missing']} missing, {summary['extra']} extra, "
        f"{summary['different']} different")
    return (f"reconcile {chain} [{start}, {stop}): {summary['blocks_compared']} blocks compared "
            f"({summary['index_blocks']} in the index, {summary['data_blocks']} in the Data API), "
            f"{summary['index_transactions']} transactions; {verdict}")


def run_reconcile(args: argparse.Namespace) -> int:
    """``reconcile``."""
    from .. import _native
    from ..reconciliation import reconcile

    if args.emulator and args.node_url is not None:
        raise CliError("--node-url does not go with --emulator (the embedded emulator serves both services)",
                       "drop one of them", EXIT_USAGE)
    fmt = resolve_format(args.out, args.format)
    emulator = start_embedded(args, quiet=args.quiet) if args.emulator else None
    try:
        node_url = emulator.url if emulator is not None else (args.node_url or os.environ.get("AVAX_NODE_URL"))
        data_url = emulator.url if emulator is not None else args.url
        kwargs = client_kwargs(args, "data")
        progress = not args.quiet and sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None
        with _native.IndexClient(node_url, **kwargs) as node, \
                _native.DataClient(data_url, api_key=args.api_key, **kwargs) as data:
            differences, summary = reconcile(node, data, args.chain, start=args.start, stop=args.stop,
                                             network=args.network, progress=progress or None)
    except KeyboardInterrupt:
        raise Interrupted(None, "nothing written: the differences are written once the whole range is "
                                "compared") from None
    finally:
        if emulator is not None:
            emulator.close()
    _write(differences, args.out, fmt)
    if not args.quiet:
        print(summary_line(args.chain, args.start, args.stop, summary), file=sys.stderr, flush=True)
    return EXIT_OK if differences.is_empty() else EXIT_DIFFERENCES


def _write(differences: Any, out: str, fmt: str) -> None:
    """The differences to ``out`` in ``fmt`` (NDJSON on stdout for ``-``).

    A file is written whole or not at all: to ``OUT.tmp`` beside it, then fsynced and renamed
    to ``OUT`` (a full disk or a Ctrl-C during the write leaves no ``OUT``, and no ``OUT.tmp``;
    a file already at ``OUT`` stays as it was). A path that is not a regular file (``/dev/stdout``,
    a pipe) is written to directly."""
    if out == STDOUT:
        for row in differences.iter_rows(named=True):
            sys.stdout.write(json.dumps(row) + "\n")
        sys.stdout.flush()
        return
    path = Path(out)
    direct = path.exists() and not path.is_file()
    tmp = path if direct else path.with_name(path.name + ".tmp")
    try:
        _write_file(differences, str(tmp), fmt)
        if not direct:
            durable_replace(tmp, path)
    except BaseException as failure:
        if not direct:
            tmp.unlink(missing_ok=True)
        code = _os_error_code(failure)
        if code is None:
            raise
        raise OSError(code, os.strerror(code), out) from failure


def _os_error_code(failure: BaseException) -> int | None:
    """The errno of a write that failed in the system: an ``OSError``'s own, or the one polars
    states in its message (``... (os error 28)``: its Parquet writer raises ``ComputeError``, its
    CSV and NDJSON writers an ``OSError`` without ``errno``); ``None`` for anything else."""
    if isinstance(failure, OSError) and failure.errno is not None:
        return failure.errno
    found = re.search(r"\(os error (\d+)\)", str(failure))
    return int(found.group(1)) if found else None


def _write_file(differences: Any, out: str, fmt: str) -> None:
    """The differences written to the path ``out`` in ``fmt``, by polars."""
    if fmt == "parquet":
        differences.write_parquet(out)
    elif fmt == "csv":
        for_csv(differences).write_csv(out)
    else:
        differences.write_ndjson(out)
