"""``avax-data index range|follow|last|container`` (the node's Index RPC) and ``walk``."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from typing import Any

from . import argtypes
from .client import client_parent, open_client
from .embedded import embedded_identity
from .errors import CliError
from .dryrun import print_plan
from .export import add_export_options, export_from_args, run_export
from .jsonout import emit_json
from .parser import Command, add_commands, add_group
from .sources import FollowSource, RangeSource

__all__ = ["add_index_commands", "add_walk_command"]

_PATHS = ", ".join(argtypes.INDEX_PATHS)


def _decode(text: str) -> Any:
    """``--decode`` alone is ``True``; ``--decode strict`` raises on bytes that do not decode."""
    if text != "strict":
        raise argparse.ArgumentTypeError(f"{text!r}: --decode takes no value, or 'strict'")
    return "strict"


def _add_chain_and_decode(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chain", type=argtypes.chain_path, default="X/tx", metavar="PATH",
                        help=f"index path, one of {_PATHS} (default X/tx)")
    parser.add_argument("--decode", nargs="?", const=True, default=None, type=_decode, metavar="strict",
                        help="decoded containers: typed columns per chain (X/vtx has no decoder); "
                        "'--decode strict' fails on bytes that do not decode instead of filling decode_error")


def _stem(chain: str) -> str:
    """``X/tx`` -> ``x_tx``."""
    return chain.replace("/", "_").lower()


def _add_range_arguments(parser: argparse.ArgumentParser) -> None:
    _add_chain_and_decode(parser)
    parser.add_argument("--start", type=argtypes.non_negative_int, default=0, metavar="INDEX",
                        help="first index (default 0); past the tip is an error (exit 2)")
    end = parser.add_mutually_exclusive_group()
    end.add_argument("--stop", type=argtypes.non_negative_int, default=None, metavar="INDEX",
                     help="the end, exclusive, as Python's range(start, stop) (default: up to the tip when the "
                     "export starts)")
    end.add_argument("--count", type=argtypes.non_negative_int, default=None, metavar="N",
                     help="how many containers from --start, instead of --stop")
    parser.add_argument("--batch-size", type=argtypes.positive_int, default=None, metavar="N",
                        help="containers per request, 1-1024 (default 1024)")
    add_export_options(parser, default_stem="<chain>, e.g. x_tx")


def _resolve_stop(args: argparse.Namespace) -> None:
    """``--stop`` as the count the export keeps in its state (``--stop`` minus ``--start``)."""
    if args.stop is None:
        return
    if args.stop < args.start:
        raise CliError(f"--stop {args.stop} is below --start {args.start}: --stop is the exclusive end",
                       f"use --stop {args.start + args.stop} for {args.stop} containers from {args.start}, "
                       f"or --count {args.stop}")
    args.count = args.stop - args.start


def add_index_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``index`` and its actions to the top-level subparsers."""
    index = Command("index", """
the node's Index RPC: export ranges, follow the tip, read containers

Read a node's Index RPC (/ext/index/...): every accepted container of C/block, P/block, X/tx, X/block and X/vtx.

avax-data index range --emulator --chain X/tx --count 5000 -o x_tx.parquet
avax-data index follow --url http://127.0.0.1:9650 --chain C/block --decode -o - | head
avax-data index last --chain P/block
avax-data index container --chain X/tx --index 42""",
    )
    rng = Command("range", """
export an index range to Parquet, CSV or NDJSON

Export the containers [--start, --stop) of an index path (or --count of them), or up to the tip,
in order, resumably (--resume continues an interrupted export from its last complete chunk).

avax-data index range --emulator --chain X/tx -o x_tx.parquet
avax-data index range --url http://127.0.0.1:9650 --chain C/block --start 1000 --stop 51000 --decode -o c.parquet
avax-data index range --chain P/block --count 1000 -o - | jq .id
avax-data index range --chain X/block -o blocks.csv --resume      # continue after Ctrl-C or a failure
avax-data index range --chain C/block --dataset c_block/ --chunk 100000  # a partitioned dataset; rerun to update""",
        arguments=_add_range_and_dataset_arguments, handler=run_range,
    )
    follow = Command("follow", """
export new containers as they are accepted

Follow an index path: export every container accepted from --start (default: the next one)
on, polling the tip with backoff, until --count containers or Ctrl-C (exit 130; --resume continues).

avax-data index follow --emulator --emulator-tip-rate 5 --chain C/block -o -
avax-data index follow --url http://127.0.0.1:9650 --chain X/tx --start 0 --count 100000 -o x.parquet
avax-data index follow --chain P/block --poll-interval 2 -o p.ndjson --resume""",
        arguments=_add_follow_arguments, handler=run_follow,
    )
    last = Command("last", """
print the last accepted container as JSON

Print the most recently accepted container of an index path (index.getLastAccepted) as JSON.

avax-data index last --emulator --chain X/tx
avax-data index last --url http://127.0.0.1:9650 --chain C/block --decode""",
        arguments=_add_last_arguments, handler=run_last,
    )
    container = Command("container", """
print one container, by index or id, as JSON

Print one container (index.getContainerByIndex / index.getContainerByID) as JSON.

avax-data index container --emulator --chain X/tx --index 42
avax-data index container --chain C/block --id 2Ts5... --decode -o block.json""",
        arguments=_add_container_arguments, handler=run_container,
    )
    add_group(sub, index, [rng, follow, last, container], parents=[client_parent("index")])


def _add_range_and_dataset_arguments(parser: argparse.ArgumentParser) -> None:
    """``index range``: the range, the export options and ``--dataset``/``--chunk``."""
    _add_range_arguments(parser)
    dataset = parser.add_argument_group("dataset (instead of --out)")
    dataset.add_argument("--dataset", default=None, metavar="DIR",
                         help="write a hive-partitioned Parquet dataset DIR/chunk=<first index>/part.parquet with a "
                         "manifest; run again to skip complete chunks and add what the moved tip brings")
    dataset.add_argument("--chunk", type=argtypes.positive_int, default=100_000, metavar="N",
                         help="indices per partition of --dataset, aligned to multiples of N (default 100000)")


def _add_follow_arguments(parser: argparse.ArgumentParser) -> None:
    """``index follow``: where to start, when to stop, how to poll, the export options."""
    _add_chain_and_decode(parser)
    parser.add_argument("--start", type=argtypes.non_negative_int, default=None, metavar="INDEX",
                        help="first index (default: the one after the tip); past tip + 1 is an error")
    parser.add_argument("--count", type=argtypes.positive_int, default=None, metavar="N",
                        help="stop after N containers (default: until Ctrl-C)")
    parser.add_argument("--batch-size", type=argtypes.positive_int, default=None, metavar="N",
                        help="containers per request, 1-1024 (default 1024)")
    parser.add_argument("--poll-interval", type=argtypes.positive_float, default=1.0, metavar="SECONDS",
                        help="first wait when caught up with the tip, doubled while nothing new arrives")
    parser.add_argument("--max-poll-interval", type=argtypes.positive_float, default=30.0, metavar="SECONDS",
                        help="longest wait between polls")
    add_export_options(parser, default_stem="<chain>, e.g. c_block")


def _add_json_out(parser: argparse.ArgumentParser) -> None:
    """``-o/--out`` of the commands that print one JSON document."""
    parser.add_argument("-o", "--out", default=None, metavar="PATH", help="write the JSON here instead of stdout")


def _add_last_arguments(parser: argparse.ArgumentParser) -> None:
    """``index last``: the path, ``--decode`` and ``--out``."""
    _add_chain_and_decode(parser)
    _add_json_out(parser)


def _add_container_arguments(parser: argparse.ArgumentParser) -> None:
    """``index container``: the path, ``--decode``, ``--index`` or ``--id``, and ``--out``."""
    _add_chain_and_decode(parser)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--index", type=argtypes.non_negative_int, metavar="N", help="the container's index")
    which.add_argument("--id", metavar="ID", help="the container's CB58 id")
    _add_json_out(parser)


def _add_walk_arguments(parser: argparse.ArgumentParser) -> None:
    """``walk``: the arguments of ``index range`` and ``--seed``."""
    _add_range_arguments(parser)
    parser.add_argument("--seed", dest="emulator_seed", type=argtypes.non_negative_int, default=0, metavar="N",
                        help="same as --emulator-seed")


def add_walk_command(sub: argparse._SubParsersAction) -> None:
    """``walk``: ``index range`` to Parquet, followed by a summary read back from the file."""
    walk = Command("walk", """
walk an index into a Parquet file and print a summary (index range + summary)

Walk an index path into a file (as 'avax-data index range') and print a summary read back
from it: rows, index range, first and last time, container bytes, file size, rows per second.

avax-data walk --emulator --chain X/tx --out x_tx.parquet
avax-data walk --url http://127.0.0.1:9650 --chain C/block --start 1000 --stop 51000 --concurrency 8""",
        arguments=_add_walk_arguments, handler=run_walk,
    )
    add_commands(sub, [walk], parents=[client_parent("index")])


def _range_walk(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "chain": args.chain,
        "start": args.start,
        "count": args.count,
        "decode": args.decode,
        "emulator": embedded_identity(args),
    }


def run_range(args: argparse.Namespace) -> int:
    """``index range``."""
    _resolve_stop(args)
    if args.dataset is not None:
        return _run_dataset(args)
    export = export_from_args(args, "index range", _range_walk(args), _stem(args.chain))
    with open_client(args, "index") as client:
        chain = client.chain(args.chain)
        run_export(export, RangeSource(chain, args.start, args.count, batch_size=args.batch_size,
                                       decode=args.decode, stop_given=args.stop is not None))
    return 0


def _run_dataset(args: argparse.Namespace) -> int:
    """``index range --dataset DIR``: the range as a partitioned dataset; a summary on stdout."""
    if args.out is not None or args.resume or args.format is not None:
        raise CliError("--dataset writes a directory: it does not go with --out, --format or --resume",
                       "a rerun into the same --dataset directory continues it")
    with open_client(args, "index") as client:
        chain = client.chain(args.chain)
        source = RangeSource(chain, args.start, args.count, batch_size=args.batch_size, decode=args.decode,
                             stop_given=args.stop is not None)
        if args.dry_run:
            print_plan(args, source.plan(dataset=args.dataset, chunk=args.chunk))
        source.start(None)  # checks the arguments and the tip like any export
        kwargs: dict[str, Any] = {"decode": args.decode}
        if args.batch_size is not None:
            kwargs["batch_size"] = args.batch_size
        rng = chain.range(args.start, source.end, **kwargs)
        progress = not args.quiet and sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None
        summary = rng.write_dataset(args.dataset, chunk=args.chunk, progress=progress or None)
    print(json.dumps({"dataset": str(args.dataset), "start": args.start, "end": source.end, **summary}), flush=True)
    return 0


def run_walk(args: argparse.Namespace) -> int:
    """``walk``: ``index range`` plus a summary on stdout."""
    from .summary import summary_lines

    _resolve_stop(args)
    export = export_from_args(args, "index range", _range_walk(args), _stem(args.chain))
    with open_client(args, "index") as client:
        chain = client.chain(args.chain)
        if not args.dry_run:
            print(f"walking {chain.path} at {client.base_url} from index {args.start} into {export.out}", flush=True)
        result = run_export(export, RangeSource(chain, args.start, args.count, batch_size=args.batch_size,
                                                decode=args.decode, stop_given=args.stop is not None))
    if result.out != "-":
        print("\n".join(summary_lines(result)), flush=True)
    return 0


def run_follow(args: argparse.Namespace) -> int:
    """``index follow``."""
    walk = {"chain": args.chain, "start": args.start, "count": args.count, "decode": args.decode,
            "emulator": embedded_identity(args)}
    export = export_from_args(args, "index follow", walk, _stem(args.chain))
    if export.out == "-":
        export.chunk_rows = 1  # stream each batch as it arrives
    with open_client(args, "index") as client:
        source = FollowSource(client.chain(args.chain), args.start, args.count, batch_size=args.batch_size,
                              decode=args.decode, poll_interval=args.poll_interval,
                              max_poll_interval=args.max_poll_interval)
        run_export(export, source)
    return 0


def run_last(args: argparse.Namespace) -> int:
    """``index last``."""
    with open_client(args, "index") as client:
        emit_json(client.chain(args.chain).last_accepted(decode=args.decode), args.out)
    return 0


def run_container(args: argparse.Namespace) -> int:
    """``index container``."""
    with open_client(args, "index") as client:
        chain = client.chain(args.chain)
        if args.id is not None:
            item = chain.container(id=args.id, decode=args.decode)
        else:
            item = chain.container(args.index, decode=args.decode)
        emit_json(item, args.out)
    return 0

