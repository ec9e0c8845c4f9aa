"""Benchmark: sender recovery of C-chain transactions (``decode="senders"``), in transactions a
second, on one thread against the default pool (one thread per core).

The emulator's C/block containers are fetched once (raw bytes, in this process); then each round
recovers the senders of every transaction in them with ``c_block_senders(items, threads=1)`` and
``threads=0`` (the default of ``decode="senders"``), alternating which goes first. The report
gives the median wall seconds of each, transactions a second, and the speed-up of the pool. Wall
time, not CPU time: the pool's point is to finish sooner on more cores. Run it on a quiet
machine: on shared cores the pool's figure is what the other processes leave it.

    python benches/senders.py [--containers 2000] [--rounds 5]
"""

from __future__ import annotations

import os
import statistics
import time

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script
from avax_data import _native


def main() -> None:
    """Measures and prints the report."""
    args = options(__doc__, containers=2_000, rounds=5)
    with ad.Emulator(containers=args.containers) as emu:
        frame = ad.IndexClient(emu.url).chain("C/block").range(0, args.containers).to_polars()
    items = frame["bytes"].to_list()
    txs = sum(len(block) for block in _native.c_block_senders(items, threads=1))
    assert txs > 0, "the containers hold no transaction"
    times: dict[str, list[float]] = {"one thread": [], "pool (threads=0)": []}
    contenders = [("one thread", 1), ("pool (threads=0)", 0)]
    for round_ in range(args.rounds):
        for name, threads in contenders if round_ % 2 == 0 else contenders[::-1]:
            start = time.perf_counter()
            _native.c_block_senders(items, threads=threads)
            times[name].append(time.perf_counter() - start)
    print(f"sender recovery: {args.containers:,} C/block containers, {txs:,} transactions, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, median of {args.rounds} rounds")
    one = statistics.median(times["one thread"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:17s} {median:7.3f} s  {txs / median:10,.0f} tx/s  {1e6 * median / txs:6.1f} us/tx  "
              f"{one / median:4.2f}x")


if __name__ == "__main__":
    main()
