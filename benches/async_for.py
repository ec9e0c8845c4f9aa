"""Benchmark: `async for` against `for` over the same index range, side by side in one run.

The emulator runs in this process; both walks hand out the same dicts. Reports the CPU time of
each and the ratio (the goal: `async for` within 2x of `for` per item).

    python benches/async_for.py [--containers 50000] [--rounds 3]
"""

from __future__ import annotations

import asyncio
import statistics
import time

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script


def sync_walk(url: str) -> float:
    with ad.IndexClient(url) as node:
        t = time.process_time()
        n = sum(1 for _ in node.chain("X/tx").range(0))
        assert n > 0
        return time.process_time() - t


async def async_walk(url: str) -> float:
    async with ad.AsyncIndexClient(url) as node:
        t = time.process_time()
        n = 0
        async for _ in node.chain("X/tx").range(0):
            n += 1
        assert n > 0
        return time.process_time() - t


def main() -> None:
    args = options(containers=50_000, rounds=3)
    with ad.Emulator(containers=args.containers) as emu:
        sync_times, async_times = [], []
        for _ in range(args.rounds):
            sync_times.append(sync_walk(emu.url))
            async_times.append(asyncio.run(async_walk(emu.url)))
    s, a = statistics.median(sync_times), statistics.median(async_times)
    n = args.containers
    print(f"X/tx range of {n:,} containers as dicts, {args.rounds} rounds (CPU incl. the in-process emulator)")
    print(f"  for        {s:.3f} s ({s / n * 1e6:.2f} µs/item)")
    print(f"  async for  {a:.3f} s ({a / n * 1e6:.2f} µs/item)  ratio {a / s:.2f} (goal <= 2)")


if __name__ == "__main__":
    main()
