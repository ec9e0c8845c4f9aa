"""Benchmark: the delay from Ctrl-C (SIGINT) to the ``KeyboardInterrupt`` in each mode.

For each mode, ``--rounds`` times: the operation starts, a thread sends this process SIGINT after
a random 0.3-0.8 s (so the signal lands in every phase: waiting, decoding, converting), and the
delay is the time from the signal to the ``except KeyboardInterrupt`` clause. The report gives
the median and the largest delay per mode; any other exception, or an operation that ended
before its signal, is reported and fails the run. The emulator serves from its own process.

    python benches/interrupt.py [--rounds 20] [--containers 1000000] [--only MODE,...]
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script
from decode_cblock import serve_emulator


def modes(url: str, count: int) -> dict[str, Callable[[], object]]:
    """What each mode runs (from the start of a new walk each time)."""
    node = ad.IndexClient(url)
    cblock = node.chain("C/block")
    out = tempfile.mkdtemp()
    blocks = cblock.range(0, 2_000, decode=True).to_polars()

    def drain(it: object) -> None:
        for _ in it:  # type: ignore[attr-defined]
            pass

    async def async_walk() -> None:
        async with ad.AsyncIndexClient(url) as anode:
            async for _ in anode.chain("C/block").range(0, count, decode=True):
                pass

    def duck() -> object:
        import duckdb

        rng = cblock.range(0, count, decode=True)
        return duckdb.sql("select count(*) from rng").fetchall()

    import polars as pl
    import pyarrow as pa

    return {
        "raw iterate": lambda: drain(cblock.range(0, count)),
        "raw to_polars": lambda: cblock.range(0, count).to_polars(),
        "decoded iterate": lambda: drain(cblock.range(0, count, decode=True)),
        "decoded to_polars": lambda: cblock.range(0, count, decode=True).to_polars(),
        'senders iterate': lambda: drain(cblock.range(0, count, decode="senders")),
        'senders to_polars': lambda: cblock.range(0, count, decode="senders").to_polars(),
        "transactions(senders=True)": lambda: ad.transactions(blocks, senders=True),
        "async decoded iterate": lambda: asyncio.run(async_walk()),
        "decoded write_parquet": lambda: cblock.range(0, count, decode=True).write_parquet(
            os.path.join(out, "a.parquet")),
        "decoded write_dataset": lambda: cblock.range(0, count, decode=True).write_dataset(
            os.path.join(out, f"set{random.random()}"), chunk=50_000),
        "stream: pl.DataFrame": lambda: pl.DataFrame(cblock.range(0, count, decode=True)),
        "stream: pa.table": lambda: pa.table(cblock.range(0, count, decode=True)),
        "stream: duckdb": duck,
    }


def one(run: Callable[[], object], rng: random.Random) -> float:
    """The delay (seconds) from SIGINT to the KeyboardInterrupt of one run."""
    sent: list[float] = []

    def interrupt() -> None:
        time.sleep(rng.uniform(0.3, 0.8))
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=interrupt)
    thread.start()
    try:
        run()
    except KeyboardInterrupt:
        caught = time.perf_counter()
        thread.join()
        return caught - sent[0]
    thread.join()
    raise RuntimeError("the run ended before its signal")


def main() -> None:
    """Measures and prints the report."""
    args = options(__doc__, rounds=20, containers=1_000_000, only="", port=19655)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    emulator = serve_emulator(args.containers, args.port)
    rng = random.Random(33)
    results: dict[str, list[float]] = {}
    try:
        table = modes(f"http://127.0.0.1:{args.port}", args.containers)
        wanted = [m for m in args.only.split(",") if m] or list(table)
        for name in wanted:
            results[name] = [one(table[name], rng) for _ in range(args.rounds)]
            time.sleep(0.5)  # work a stop left behind ends before the next mode
    finally:
        emulator.terminate()
        emulator.wait()
    print(f"SIGINT to KeyboardInterrupt, {args.rounds} rounds per mode, C/block range of "
          f"{args.containers:,} containers, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, "
          f"{sys.prefix}")
    print("| mode | median | max |\n|---|---:|---:|")
    for name, delays in results.items():
        print(f"| {name} | {statistics.median(delays) * 1000:.0f} ms | {max(delays) * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
