"""Benchmark: ``decode="senders"`` end to end, a C/block walk to a DataFrame with each
transaction's ``from`` recovered, against the same walk with ``decode=True``.

The emulator serves the containers from its own process (as in ``decode_cblock.py``). Each round
walks the same range twice, ``decode=True`` and ``decode="senders"``, alternating which goes
first; the report gives the median wall and CPU seconds (this process, all its threads) of each,
and what the senders add. Run it under two builds (e.g. two virtualenvs) to compare their
recovery: the script uses only the public API.

    python benches/senders_walk.py [--containers 20000] [--rounds 3] [--concurrency 4]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script
from decode_cblock import serve_emulator


def walk(url: str, count: int, concurrency: int, decode: bool | str) -> tuple[float, float, int]:
    """(wall seconds, cpu seconds, transactions) of one walk to a DataFrame."""
    with ad.IndexClient(url, concurrency=concurrency) as node:
        rng = node.chain("C/block").range(0, count, decode=decode)
        wall, cpu = time.perf_counter(), time.process_time()
        df = rng.to_polars()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert df.height == count, df.height
    txs = df["transactions"].list.len().sum()
    if decode == "senders":
        senders = df["transactions"].explode().struct.field("from").drop_nulls()
        assert senders.len() == txs and senders.str.starts_with("0x").all(), "a sender is missing"
    return wall, cpu, int(txs)


def main() -> None:
    """Measures and prints the report."""
    args = options(__doc__, containers=20_000, rounds=3, concurrency=4, port=19651)
    emulator = serve_emulator(args.containers, args.port)
    url = f"http://127.0.0.1:{args.port}"
    names = {True: "decode=True", "senders": 'decode="senders"'}
    times: dict[bool | str, list[tuple[float, float]]] = {True: [], "senders": []}
    try:
        walk(url, min(100, args.containers), args.concurrency, "senders")  # warm up
        for r in range(args.rounds):
            for decode in (True, "senders") if r % 2 == 0 else ("senders", True):
                wall, cpu, txs = walk(url, args.containers, args.concurrency, decode)
                times[decode].append((wall, cpu))
    finally:
        emulator.terminate()
        emulator.wait()
    print(f'C/block range of {args.containers:,} containers ({txs:,} transactions) to a DataFrame, '
          f"{args.rounds} rounds, concurrency {args.concurrency}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}, {sys.prefix}")
    wall = {d: statistics.median(w for w, _ in v) for d, v in times.items()}
    cpu = {d: statistics.median(c for _, c in v) for d, v in times.items()}
    for decode, name in names.items():
        print(f"  {name:17s} wall {wall[decode]:7.3f} s  cpu {cpu[decode]:7.3f} s")
    extra_wall, extra_cpu = wall["senders"] - wall[True], cpu["senders"] - cpu[True]
    print(f"  senders add     wall {extra_wall:7.3f} s  cpu {extra_cpu:7.3f} s "
          f"({1e6 * extra_cpu / max(txs, 1):.1f} µs CPU a transaction)")


if __name__ == "__main__":
    main()
