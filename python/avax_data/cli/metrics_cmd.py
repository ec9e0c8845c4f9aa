"""``avax-data metrics series|chains|icm-summary|live-check``: the hosted Metrics API, and a command
for every other GET operation of its OpenAPI document (``staking``, ``l1-validator-metrics``, ...;
see ``generated_cmd.py``)."""

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
from .generated_cmd import add_generated_commands
from .jsonout import emit_json
from .parser import Parser, add_command
from .sources import PagerSource

__all__ = ["add_metrics_commands"]


def add_metrics_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``metrics`` and its endpoints to the top-level subparsers."""
    metrics = add_command(
        sub, "metrics", help="the hosted Metrics API: metric time series, chains, ICM summary, staking, L1 validators",
        description="Read the hosted Metrics API (/v2/...; no key needed).",
        examples="""
avax-data metrics series 43114 txCount --interval day --start 2024-01-01 --end 2024-04-01 -o tx.parquet
avax-data metrics chains --emulator --network mainnet -o -
avax-data metrics icm-summary --emulator --group-by srcBlockchainId""",
    )
    actions = metrics.add_subparsers(dest="action", metavar="ENDPOINT", required=True, parser_class=Parser)
    client = client_parent("metrics")

    series = add_command(
        actions, "series", parents=[client], help="export a chain metric's time series",
        description="Export a metric's time series (GET /v2/chains/{chainId}/metrics/{metric}) in the service's\n"
        "order (newest first). With --start and --end the window is fetched in concurrent sub-windows\n"
        "(--concurrency, default 4); the rows equal the sequential walk's.",
        examples="""
avax-data metrics series 43114 txCount --emulator --interval hour -o -
avax-data metrics series total activeAddresses --interval week --limit 52 -o weeks.csv
avax-data metrics series 43114 gasUsed --interval day --start 2024-01-01 --end 1735689600 -o gas.parquet
avax-data metrics series 43114 txCount --interval hour --start 2021-01-01 --dataset tx_hourly/   # a month per file""",
    )
    series.add_argument("chain_id", metavar="CHAIN_ID", help="EVM chain id, or total, mainnet, testnet")
    series.add_argument("metric", metavar="METRIC", help="one of the 17 chain metrics, e.g. txCount, activeAddresses")
    series.add_argument("--interval", default=None, help="hour, day, week or month (default: the service's)")
    series.add_argument("--start", type=argtypes.time_of("start"), default=None, metavar="TIME",
                        help="Unix seconds, YYYY-MM-DD (00:00 UTC) or RFC 3339 with an offset (2024-01-01T12:00:00Z)")
    series.add_argument("--end", type=argtypes.time_of("end"), default=None, metavar="TIME", help="as --start")
    series.add_argument("--page-size", type=argtypes.positive_int, default=None, metavar="N",
                        help="points per request, 1-2160 (default 2160)")
    series.add_argument("--limit", type=argtypes.positive_int, default=None, metavar="N", help="at most N points")
    series.add_argument("--concurrency", type=argtypes.positive_int, default=None, metavar="N",
                        help="sub-windows fetched at once with --start and --end (default 4; 1: page by page)")
    add_export_options(series, default_stem="<chain>_<metric>")
    dataset = series.add_argument_group("dataset (instead of --out)")
    dataset.add_argument("--dataset", default=None, metavar="DIR",
                         help="write a hive-partitioned Parquet dataset DIR/chain=<id>/month=<YYYYMM>/part.parquet with "
                         "a manifest (needs --interval and --start; --end defaults to now); run again to skip the "
                         "months already complete and add new ones")
    series.set_defaults(handler=run_series)

    chains = add_command(
        actions, "chains", parents=[client], help="export the supported chains",
        description="Export the chains the Metrics API supports (GET /v2/chains).",
        examples="avax-data metrics chains --emulator -o chains.csv\navax-data metrics chains --network fuji -o -",
    )
    chains.add_argument("--network", default=None, help="mainnet, fuji or testnet")
    chains.add_argument("--limit", type=argtypes.positive_int, default=None, metavar="N", help="at most N chains")
    add_export_options(chains, default_stem="metrics_chains")
    chains.set_defaults(handler=run_chains)

    icm = add_command(
        actions, "icm-summary", parents=[client], help="rolling ICM message counts (JSON)",
        description="GET /v2/icm/summary: ICM message counts over the last hour .. all time, as JSON (a list of\n"
        "rows with --group-by).",
        examples="""
avax-data metrics icm-summary --emulator
avax-data metrics icm-summary --network mainnet --group-by srcBlockchainId,destBlockchainId -o icm.json""",
    )
    icm.add_argument("--src-blockchain-id", default=None, metavar="ID", help="only messages from this chain")
    icm.add_argument("--dest-blockchain-id", default=None, metavar="ID", help="only messages to this chain")
    icm.add_argument("--group-by", default=None, metavar="FIELDS",
                     help="srcBlockchainId, destBlockchainId or srcBlockchainId,destBlockchainId")
    icm.add_argument("--network", default=None, help="mainnet, fuji or testnet")
    icm.add_argument("-o", "--out", default=None, metavar="PATH", help="write the JSON here instead of stdout")
    icm.set_defaults(handler=run_icm_summary)

    live = add_command(
        actions, "live-check", parents=[client], help="the service's live check (JSON)",
        description="GET /v2/live-check.", examples="avax-data metrics live-check --emulator",
    )
    live.add_argument("-o", "--out", default=None, metavar="PATH", help="write the JSON here instead of stdout")
    live.set_defaults(handler=run_live_check)
    add_generated_commands(actions, client, "metrics")


def run_series(args: argparse.Namespace) -> int:
    """``metrics series``."""
    if args.dataset is not None:
        return _run_dataset(args)
    names = ("interval", "start", "end", "page_size")
    options: dict[str, Any] = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    walk = {"chain_id": args.chain_id, "metric": args.metric, **options, "start": args.start,
            "end": args.end, "limit": args.limit, "emulator": embedded_identity(args)}
    stem = f"{args.chain_id}_{args.metric}".lower()
    export = export_from_args(args, "metrics series", walk, stem)
    with open_client(args, "metrics") as client:

        def make_pager(token: str | None, limit: int | None) -> Any:
            extra = {"concurrency": args.concurrency} if args.concurrency is not None else {}
            return client.metric(args.chain_id, args.metric, **options, page_token=token, limit=limit, **extra)

        run_export(export, PagerSource(make_pager, args.limit, base_url=None if args.emulator else client.base_url,
                                       tokens_survive=not args.emulator))
    return 0


def _run_dataset(args: argparse.Namespace) -> int:
    """``metrics series --dataset DIR``: a month per partition; a summary on stdout."""
    if args.out is not None or args.resume or args.format is not None or args.limit is not None:
        raise CliError("--dataset writes a directory: it does not go with --out, --format, --resume or --limit",
                       "a rerun into the same --dataset directory continues it")
    if args.interval is None or args.start is None:
        raise CliError("--dataset needs --interval and --start", "e.g. --interval day --start 2024-01-01")
    with open_client(args, "metrics") as client:
        if args.dry_run:
            print_plan(args, client.plan_dataset(args.dataset, args.chain_id, args.metric, interval=args.interval,
                                                 start=args.start, end=args.end))
        progress = not args.quiet and sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None
        summary = client.write_dataset(args.dataset, args.chain_id, args.metric, interval=args.interval,
                                       start=args.start, end=args.end, progress=progress or None)
    print(json.dumps({"dataset": str(args.dataset), **summary}), flush=True)
    return 0


def run_chains(args: argparse.Namespace) -> int:
    """``metrics chains``."""
    walk = {"network": args.network, "limit": args.limit, "emulator": embedded_identity(args)}
    export = export_from_args(args, "metrics chains", walk, "metrics_chains")
    with open_client(args, "metrics") as client:

        def make_pager(token: str | None, limit: int | None) -> Any:
            return client.chains(args.network, page_token=token, limit=limit)

        run_export(export, PagerSource(make_pager, args.limit, base_url=None if args.emulator else client.base_url,
                                       tokens_survive=not args.emulator))
    return 0


def run_icm_summary(args: argparse.Namespace) -> int:
    """``metrics icm-summary``."""
    with open_client(args, "metrics") as client:
        value = client.icm_summary(args.src_blockchain_id, args.dest_blockchain_id, group_by=args.group_by,
                                   network=args.network)
        emit_json(value, args.out)
    return 0


def run_live_check(args: argparse.Namespace) -> int:
    """``metrics live-check``."""
    with open_client(args, "metrics") as client:
        emit_json(client.live_check(), args.out)
    return 0
