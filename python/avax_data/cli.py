"""The ``avax-data`` command line (also ``python -m avax_data``).

Subcommands:

``avax-data walk``
    Walk a whole index (or a part of it) into a Parquet file and print a summary. With
    ``--emulator`` the walk runs against an embedded emulator, so it needs no node::

        avax-data walk --emulator --chain X/tx --out x_tx.parquet
        avax-data walk --url http://127.0.0.1:9650 --chain C/block --start 1000 --count 50000

``avax-data emulator``
    Serve the emulator on a port until Ctrl-C, for clients written in other languages::

        avax-data emulator --port 9650 --containers 1000000 --tip-rate 2
        avax-data emulator --faults 502=0.05,short_batch=0.1 --fault-seed 7

Exit codes: 0 on success, 1 when the package raised an :class:`~avax_data.AvaxDataError` (printed
as one line ``error: ...``), 2 for bad arguments, 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

from .exceptions import AvaxDataError, InvalidParameterError

__all__ = ["main", "build_parser"]

_PATHS = ("C/block", "P/block", "X/tx", "X/block", "X/vtx")
_EXAMPLE_BODY = '{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hex"}}'


def _non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be >= 0")
    return value


def _positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    value = _non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be >= 1")
    return value


def _non_negative_float(text: str) -> float:
    """argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value >= 0.0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number >= 0")
    return value


def _port(text: str) -> int:
    """argparse type: a TCP port number (0 picks a free one)."""
    value = _non_negative_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port in [0, 65535]")
    return value


def _faults(text: str) -> dict[str, float]:
    """argparse type: ``kind=rate,kind=rate`` -> ``{kind: rate}`` (rates checked by the emulator)."""
    faults: dict[str, float] = {}
    for item in text.split(","):
        name, sep, rate = item.strip().partition("=")
        if not sep or not name:
            raise argparse.ArgumentTypeError(f"{item.strip()!r} is not kind=rate (e.g. 502=0.05,short_batch=0.1)")
        try:
            faults[name.strip()] = float(rate)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{item.strip()!r}: the rate {rate!r} is not a number") from None
    return faults


def build_parser() -> argparse.ArgumentParser:
    """The ``avax-data`` argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(
        prog="avax-data",
        description="Typed, resumable access to Avalanche's node Index RPC, with an offline emulator.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    walk = sub.add_parser(
        "walk",
        help="walk an index into a Parquet file and print a summary",
        description="Walk an index path into a Parquet file (streamed, constant memory) and print a summary.",
    )
    source = walk.add_mutually_exclusive_group()
    source.add_argument("--url", help="the node's base URL (default: $AVAX_NODE_URL, then the public API)")
    source.add_argument("--emulator", action="store_true", help="walk an embedded emulator instead of a node")
    walk.add_argument("--chain", type=_chain_path, default="X/tx", help=f"index path, one of {', '.join(_PATHS)} (default X/tx)")
    walk.add_argument("--start", type=_non_negative_int, default=0, help="first index (default 0)")
    walk.add_argument("--count", type=_non_negative_int, default=None, help="how many containers (default: to the tip)")
    walk.add_argument("--out", default=None, help="Parquet file to write (default: <chain>.parquet, e.g. x_tx.parquet)")
    walk.add_argument("--concurrency", type=_positive_int, default=None, help="requests in flight (default: the client's)")
    walk.add_argument(
        "--emulator-containers",
        type=_non_negative_int,
        default=100_000,
        help="with --emulator: containers on the chosen path (default 100000)",
    )
    walk.add_argument("--seed", type=_non_negative_int, default=0, help="with --emulator: the world's seed (default 0)")

    emu = sub.add_parser(
        "emulator",
        help="serve the emulator until Ctrl-C",
        description="Serve the offline emulator on a port until Ctrl-C (for clients in any language).",
    )
    emu.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    emu.add_argument("--port", type=_port, default=9650, help="port (default 9650, as a node; 0 picks a free one)")
    emu.add_argument("--seed", type=_non_negative_int, default=0, help="the world's seed (default 0)")
    emu.add_argument("--containers", type=_non_negative_int, default=None, help="initial containers per index path")
    emu.add_argument("--tip-rate", type=_non_negative_float, default=0.0, help="new containers per second on every path")
    emu.add_argument("--latency", type=_non_negative_float, default=0.0, help="seconds added to every response")
    emu.add_argument(
        "--faults",
        type=_faults,
        default=None,
        help="fault rates per request, kind=rate[,kind=rate...], e.g. 502=0.05,short_batch=0.1 "
        "(kinds: 500 502 503 429 reset cut truncated_json malformed_json slow_body rpc_error bad_checksum "
        "short_batch lagging_tip repeated_token redirect_same_origin redirect_cross_origin oversized gzip_bomb)",
    )
    emu.add_argument("--fault-seed", type=_non_negative_int, default=0, help="seed of the fault decisions (default 0)")
    return parser


def _chain_path(text: str) -> str:
    """argparse type: an index path in any accepted spelling -> its canonical ``C/block`` form."""
    short = text.strip()
    if short.startswith("/ext/index/"):
        short = short[len("/ext/index/"):]
    chain, _, kind = short.strip("/").partition("/")
    canonical = f"{chain.upper()}/{kind.lower()}"
    if canonical not in _PATHS:
        raise argparse.ArgumentTypeError(f"{text!r} is not an index path; allowed: {', '.join(_PATHS)}")
    return canonical


def _default_out(chain: str) -> str:
    """``X/tx`` -> ``x_tx.parquet``."""
    return chain.replace("/", "_").lower() + ".parquet"


def _human_bytes(n: int) -> str:
    """``1536`` -> ``1.5 KiB``."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{n} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"  # pragma: no cover


def _summary(path: str, seconds: float) -> tuple[int, list[str]]:
    """Row count and lines describing the Parquet file at ``path``, read back with ``polars.scan_parquet``."""
    import polars as pl

    stats = (
        pl.scan_parquet(path)
        .select(
            pl.len().alias("rows"),
            pl.col("index").min().alias("first_index"),
            pl.col("index").max().alias("last_index"),
            pl.col("timestamp").min().alias("first_ts"),
            pl.col("timestamp").max().alias("last_ts"),
            pl.col("bytes").bin.size().cast(pl.UInt64).sum().alias("total_bytes"),
        )
        .collect()
        .row(0, named=True)
    )
    rows = int(stats["rows"])
    size = os.path.getsize(path)
    rate = rows / seconds if seconds > 0 else float("inf")
    lines = [f"rows:        {rows:,}"]
    if rows:
        lines.append(f"index range: {stats['first_index']} .. {stats['last_index']}")
        lines.append(f"first time:  {stats['first_ts']}")
        lines.append(f"last time:   {stats['last_ts']}")
    else:
        lines.append("index range: (empty)")
    total = int(stats["total_bytes"] or 0)
    lines.append(f"bytes:       {total:,} ({_human_bytes(total)}) of container data")
    lines.append(f"file:        {path} ({size:,} bytes, {_human_bytes(size)})")
    lines.append(f"time:        {seconds:.2f} s ({rate:,.0f} rows/s)")
    return rows, lines


def _walk(args: argparse.Namespace) -> int:
    """The ``walk`` subcommand."""
    from ._native import Emulator, IndexClient

    out = args.out or _default_out(args.chain)
    emulator = None
    try:
        if args.emulator:
            emulator = Emulator(seed=args.seed, containers={args.chain: args.emulator_containers})
            url: str | None = emulator.url
            print(f"embedded emulator at {emulator.url} ({args.emulator_containers:,} containers on {args.chain})")
        else:
            url = args.url
        with IndexClient(url) as client:
            chain = client.chain(args.chain)
            rng = chain.range(args.start, args.count, concurrency=args.concurrency)
            print(f"walking {chain.path} at {client.url} from index {args.start} into {out}", flush=True)
            began = time.perf_counter()
            written = rng.write_parquet(out)
            seconds = time.perf_counter() - began
        rows, lines = _summary(out, seconds)
        if rows != written:
            print(f"warning: write_parquet reported {written} rows, the file holds {rows}", file=sys.stderr)
        print("\n".join(lines), flush=True)
        return 0
    finally:
        if emulator is not None:
            emulator.close()


def _serve(args: argparse.Namespace) -> int:
    """The ``emulator`` subcommand: serve until Ctrl-C."""
    from ._native import Emulator

    emulator = Emulator(
        seed=args.seed,
        containers=args.containers,
        tip_rate=args.tip_rate,
        latency=args.latency,
        host=args.host,
        port=args.port,
        faults=args.faults,
        fault_seed=args.fault_seed,
    )
    try:
        print(f"avax-data emulator serving at {emulator.url} (Ctrl-C to stop)")
        if args.faults:
            rates = ", ".join(f"{kind}={rate:g}" for kind, rate in emulator.faults().items())
            print(f"faults: {rates} (seed {args.fault_seed}); other origin for redirects: {emulator.second_url}")
        print("index paths: " + ", ".join(f"{emulator.url}/ext/index/{p}" for p in _PATHS))
        print(
            "try: curl -s -X POST -H 'Content-Type: application/json' "
            f"-d '{_EXAMPLE_BODY}' {emulator.url}/ext/index/X/tx",
            flush=True,
        )
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("stopped", flush=True)
        return 0
    finally:
        emulator.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from . import __version__

        print(f"avax-data {__version__}")
        return 0
    if args.command is None:
        parser.print_help()
        return 2
    try:
        if args.command == "walk":
            return _walk(args)
        return _serve(args)
    except InvalidParameterError as exc:
        print("error: " + " ".join(str(exc).split()), file=sys.stderr, flush=True)
        return 2
    except (AvaxDataError, OSError) as exc:
        print("error: " + " ".join(str(exc).split()), file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
