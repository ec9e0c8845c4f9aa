"""Where a sync Data API walk's CPU goes, thread by thread: CPU time, wake-ups and migrations of
each thread of the client's process during one measured walk (Linux: ``/proc/self/task``).

    python benches/data_threads.py --latency 0.02 --count 10000 --runs 3

The emulator runs in its own process (``run.py``'s ``Emulator``), so every figure is the
client's. The walk is ``blocks("43114", page_size=100).to_polars()`` after a warm-up of two
pages, as in ``workers.py data``. Per thread: the CPU it spent (``schedstat``, nanoseconds), its
voluntary context switches (a wake-up after each wait) and involuntary ones, and how often it
moved to another CPU. A walk of N pages wakes a runtime worker about N times (one per answer);
any other thread's wake-ups while the walk waits are overhead (a clock polling for Ctrl-C woke
the calling thread and a ticking thread 20 times a second each).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import Emulator  # noqa: E402


def threads() -> dict[str, tuple[str, float, int, int, int]]:
    """Per thread id: name, CPU seconds, voluntary and involuntary switches, migrations."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        base = f"/proc/self/task/{tid}"
        try:
            with open(f"{base}/comm") as f:
                name = f.read().strip()
            with open(f"{base}/schedstat") as f:
                cpu = int(f.read().split()[0]) / 1e9
            with open(f"{base}/status") as f:
                status = dict(line.split(":\t", 1) for line in f.read().splitlines() if ":\t" in line)
            with open(f"{base}/sched") as f:
                migrations = next((int(line.split(":")[1]) for line in f if line.startswith("se.nr_migrations")), 0)
        except FileNotFoundError:  # the thread ended meanwhile
            continue
        out[tid] = (name, cpu, int(status["voluntary_ctxt_switches"]), int(status["nonvoluntary_ctxt_switches"]),
                    migrations)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.02, help="added latency in seconds (default 0.02)")
    parser.add_argument("--count", type=int, default=10_000, help="blocks per walk (at most 20,000)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import avax_data as ad

    emu = Emulator({"X/tx": 1}, 20_000)
    try:
        emu.set_latency(args.latency)
        with ad.DataClient(base_url=emu.url) as client:
            client.blocks("43114", page_size=100, limit=200).to_polars()
            for run in range(args.runs):
                before, cpu0, wall0 = threads(), time.process_time(), time.perf_counter()
                rows = client.blocks("43114", page_size=100, limit=args.count).to_polars().height
                cpu, wall, after = time.process_time() - cpu0, time.perf_counter() - wall0, threads()
                print(f"run {run + 1}: {rows:,} blocks, {cpu / rows * 1e6:.2f} µs of CPU a block, wall {wall:.2f} s")
                print("| thread | CPU ms | voluntary switches | involuntary | migrations |")
                print("|---|---:|---:|---:|---:|")
                for tid, (name, cpu_s, vol, invol, moved) in sorted(after.items()):
                    _, cpu_0, vol_0, invol_0, moved_0 = before.get(tid, (name, 0.0, 0, 0, 0))
                    if vol - vol_0 or cpu_s - cpu_0 > 1e-4:
                        print(f"| {name} ({tid}) | {(cpu_s - cpu_0) * 1e3:.2f} | {vol - vol_0} | {invol - invol_0} | "
                              f"{moved - moved_0} |")
    finally:
        emu.close()
    os._exit(0)  # as workers.py: no interpreter finalization with runtime threads alive


if __name__ == "__main__":
    main()
