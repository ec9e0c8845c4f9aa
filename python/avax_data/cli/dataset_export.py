"""``--dataset DIR``: a Data API list written as a partitioned dataset instead of one file: the
options, and the run (a summary line of JSON on stdout). Used by ``data blocks|vertices`` and by
the generated commands of the lists with a block range or a time window."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from typing import Any

from . import argtypes
from .client import open_client
from .dryrun import print_plan
from .errors import CliError

__all__ = ["add_dataset_options", "run_dataset"]


def add_dataset_options(parser: argparse.ArgumentParser, layout: str, chunk: bool) -> None:
    """``--dataset DIR`` (and ``--chunk N`` when the partitions are block-number chunks)."""
    group = parser.add_argument_group("dataset (instead of --out)")
    group.add_argument("--dataset", default=None, metavar="DIR",
                       help=f"write a hive-partitioned Parquet dataset {layout} with a manifest; run again to "
                       "rewrite the newest partitions, add new ones and skip the complete ones")
    if chunk:
        group.add_argument("--chunk", type=argtypes.positive_int, default=None, metavar="N",
                           help="block numbers per partition of --dataset (default 100000)")


def run_dataset(args: argparse.Namespace, service: str, method: str, values: list[Any],
                options: dict[str, Any]) -> int:
    """``--dataset DIR``: the pager of ``method`` written as a dataset; a summary on stdout."""
    if args.out is not None or args.resume or args.format is not None:
        raise CliError("--dataset writes a directory: it does not go with --out, --format or --resume",
                       "a rerun into the same --dataset directory continues it")
    chunk = {"chunk": args.chunk} if getattr(args, "chunk", None) is not None else {}
    with open_client(args, service) as client:
        pager = getattr(client, method)(*values, **options, limit=args.limit)
        if args.dry_run:
            print_plan(args, pager.plan(dataset=args.dataset, **chunk))
        progress = not args.quiet and sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None
        summary = pager.write_dataset(args.dataset, **chunk, progress=progress or None)
    print(json.dumps({"dataset": str(args.dataset), "endpoint": args.endpoint, **summary}), flush=True)
    return 0
