"""``avax-data emulator``: serve the emulator on a port until Ctrl-C, with every knob."""

from __future__ import annotations

import argparse
import time

from . import argtypes
from .embedded import DEFAULT_CONTAINERS, DEFAULT_DATA_BLOCKS
from .parser import Command, add_commands

__all__ = ["add_emulator_command", "FAULT_KINDS"]

#: The fault kinds the emulator injects.
FAULT_KINDS = (
    "500 502 503 429 reset cut truncated_json malformed_json slow_body rpc_error bad_checksum short_batch "
    "lagging_tip repeated_token redirect_same_origin redirect_cross_origin oversized gzip_bomb"
)
_EXAMPLE_BODY = '{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hex"}}'


def add_emulator_command(sub: argparse._SubParsersAction) -> None:
    """Add ``emulator`` to the top-level subparsers."""
    emulator = Command("emulator", """
serve the emulator (all three services) until Ctrl-C

Serve the offline emulator of the Index RPC, the Data API and the Metrics API on a port
until Ctrl-C, for clients in any language. It prints its URL first.

avax-data emulator --port 9650 --containers 1000000 --tip-rate 2
avax-data emulator --containers X/tx=5000,C/block=100 --data-blocks 20000 --latency 0.05
avax-data emulator --data-api-require-key --data-api-refused-keys bad-key --rate-limit 100/60
avax-data emulator --faults 502=0.05,short_batch=0.1 --fault-seed 7 --fault-options retry_after=1""",
        arguments=_add_emulator_arguments, handler=run_emulator,
    )
    add_commands(sub, [emulator])


def _add_emulator_arguments(emu: argparse.ArgumentParser) -> None:
    """The listener, the world, Data API access and fault injection of ``emulator``."""
    where = emu.add_argument_group("listener")
    where.add_argument("--host", default="127.0.0.1", help="address to listen on")
    where.add_argument("--port", type=argtypes.port, default=9650, help="port (9650 as a node; 0 picks a free one)")
    world = emu.add_argument_group("world")
    world.add_argument("--seed", type=argtypes.non_negative_int, default=0, help="the world's seed")
    world.add_argument("--containers", type=argtypes.containers, default=None, metavar="N|PATH=N,...",
                       help=f"initial containers on every index path, or per path (default {DEFAULT_CONTAINERS:,})")
    world.add_argument("--tip-rate", type=argtypes.non_negative_float, default=0.0, metavar="PER_S",
                       help="new containers per second on every path")
    world.add_argument("--index-disabled", action="store_true",
                       help="answer the index paths with 404, as a node without --index-enabled")
    world.add_argument("--latency", type=argtypes.non_negative_float, default=0.0, metavar="SECONDS",
                       help="seconds added to every response")
    world.add_argument("--utc-offset-minutes", type=int, default=0, metavar="MIN",
                       help="time zone offset of the node's timestamps, in minutes")
    world.add_argument("--data-blocks", type=argtypes.positive_int, default=None, metavar="N",
                       help="Data API blocks per EVM chain, also X-chain vertices per network "
                       f"(default {DEFAULT_DATA_BLOCKS:,})")
    api = emu.add_argument_group("Data API access")
    api.add_argument("--data-api-require-key", action="store_true", help="answer 401 to requests without a key")
    api.add_argument("--data-api-refused-keys", default=None, metavar="KEY,...", help="keys answered with 403")
    api.add_argument("--rate-limit", type=argtypes.rate_limit, default=None, metavar="LIMIT/SECONDS",
                     help="requests per key per window, then 429 + retry-after, e.g. 100/60")
    faults = emu.add_argument_group("fault injection")
    faults.add_argument("--faults", type=argtypes.faults, default=None, metavar="KIND=RATE,...",
                        help=f"fault rates per request in [0, 1], e.g. 502=0.05,short_batch=0.1 (kinds: {FAULT_KINDS})")
    faults.add_argument("--fault-seed", type=argtypes.non_negative_int, default=0, help="seed of the fault decisions")
    faults.add_argument("--fault-options", type=argtypes.fault_options, default=None, metavar="NAME=VALUE,...",
                        help="retry_after (s), lag (containers), oversized_bytes, gzip_bomb_bytes, slow_body_pause (s)")


def run_emulator(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C (exit 0)."""
    from .._native import Emulator
    from .embedded import world_arguments

    refused = [k for k in (args.data_api_refused_keys or "").split(",") if k.strip()]
    emulator = Emulator(
        **world_arguments(args, ""),
        index_enabled=not args.index_disabled,
        host=args.host,
        port=args.port,
        utc_offset_minutes=args.utc_offset_minutes,
        data_api_require_key=args.data_api_require_key,
        data_api_refused_keys=[k.strip() for k in refused],
        rate_limit=args.rate_limit,
        fault_options=args.fault_options,
    )
    try:
        print(f"avax-data emulator serving at {emulator.url} (Ctrl-C to stop)")
        if args.faults:
            rates = ", ".join(f"{kind}={rate:g}" for kind, rate in emulator.faults().items())
            print(f"faults: {rates} (seed {args.fault_seed}); other origin for redirects: {emulator.second_url}")
        paths = ", ".join(f"{emulator.url}/ext/index/{p}" for p in argtypes.INDEX_PATHS)
        print(f"index paths: {paths}; Data API: {emulator.url}/v1/...; Metrics API: {emulator.url}/v2/...")
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
