"""Benchmark: client-side rate limits on a Data API walk (pages of one block, one request each).

Reports, as ratios:
- the rate achieved over the rate asked (`rate_limit=`), for a few rates: how close the limiter
  gets to what it allows;
- the wall time of a walk with limits that never bind (`rate_limit=1e6`,
  `compute_units_per_minute=10**9`) over the same walk without limits: the limiter's own cost.

The emulator runs in this process. Rounds are interleaved; medians are reported.

    python benches/rate_limits.py [--requests 1500] [--rounds 3]
"""

from __future__ import annotations

import statistics
import time

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script

KEY = "bench-key"


def walk(url: str, requests: int, **limits: object) -> float:
    with ad.DataClient(url, api_key=KEY, **limits) as data:
        t = time.perf_counter()
        rows = data.blocks("43114", page_size=1).to_polars(limit=requests).height
        elapsed = time.perf_counter() - t
    assert rows == requests
    return elapsed


def main() -> None:
    args = options(requests=1500, rounds=3)
    with ad.Emulator(data_blocks_per_chain=max(args.requests + 10, 5000)) as emu:
        for rate in (10.0, 50.0, 200.0):
            n = int(rate * 2)  # about two seconds each
            achieved = (n - 1) / walk(emu.url, n, rate_limit=rate)
            print(f"rate_limit={rate:g}: {achieved:.1f} requests/s, {achieved / rate:.3f}x of the rate asked")
        free, limited = [], []
        for _ in range(args.rounds):
            free.append(walk(emu.url, args.requests))
            limited.append(walk(emu.url, args.requests, rate_limit=1e6, compute_units_per_minute=10**9))
        f, lim = statistics.median(free), statistics.median(limited)
        print(
            f"{args.requests} requests: no limits {f / args.requests * 1e6:.0f} us/request, "
            f"limits that never bind {lim / args.requests * 1e6:.0f} us/request: {lim / f:.2f}x"
        )


if __name__ == "__main__":
    main()
