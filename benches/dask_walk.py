"""One index walk in one process against the same walk spread over a Dask LocalCluster.

    python benches/dask_walk.py [--containers 1000000] [--latency 0.02] [--chunk 100000] [--rounds 2]

The emulator runs in its own process (`avax-data emulator`), with `--latency` added to every
answer. Contenders, side by side in each round: one process with the client's default 4 calls
in flight, one process with 16, and `avax_data.dask.index_range` on a LocalCluster of 2 worker
processes (1 thread each, 4 calls in flight per partition). Prints wall times (median over
rounds; the cluster's start-up is reported apart and not counted) and ratios.
"""

from __future__ import annotations

import subprocess
import sys
import time

import avax_data as ad
import avax_data.dask as add
from _bench import options, print_medians  # benches/ is on sys.path when a bench runs as a script


def start_emulator(containers: int, latency: float) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "avax_data", "emulator", "--port", "0", "--containers", f"X/tx={containers}",
         "--latency", str(latency)],
        stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    url = next(word for word in proc.stdout.readline().split() if word.startswith("http://"))
    return proc, url


def one_process(url: str, concurrency: int) -> tuple[float, int]:
    t = time.perf_counter()
    with ad.IndexClient(url, concurrency=concurrency) as node:
        rows = node.chain("X/tx").range(0).to_polars().height
    return time.perf_counter() - t, rows


def on_cluster(url: str, chunk: int) -> tuple[float, int]:
    t = time.perf_counter()
    rows = len(add.index_range(url, "X/tx", chunk=chunk).compute())
    return time.perf_counter() - t, rows


def main() -> None:
    args = options(__doc__, containers=1_000_000, latency=0.02, chunk=100_000, rounds=2)

    from distributed import Client, LocalCluster

    proc, url = start_emulator(args.containers, args.latency)
    try:
        t = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster):
            startup = time.perf_counter() - t
            times: dict[str, list[float]] = {"one process, 4 in flight": [], "one process, 16 in flight": [],
                                             "LocalCluster, 2 workers": []}
            for _ in range(args.rounds):
                for name, run in [("one process, 4 in flight", lambda: one_process(url, 4)),
                                  ("one process, 16 in flight", lambda: one_process(url, 16)),
                                  ("LocalCluster, 2 workers", lambda: on_cluster(url, args.chunk))]:
                    seconds, rows = run()
                    assert rows == args.containers, (name, rows)
                    times[name].append(seconds)
        print(f"{args.containers:,} X/tx containers, {args.latency * 1000:.0f} ms added latency, "
              f"chunk {args.chunk:,}, median of {args.rounds} (cluster start-up {startup:.1f} s, not counted)")
        print_medians(times, args.containers, "one process, 4 in flight")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
