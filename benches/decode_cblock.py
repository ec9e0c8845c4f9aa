"""Benchmark: what decoding adds to a C/block walk, side by side in one run.

The emulator serves real-format C/block containers (coreth RLP blocks in proposervm envelopes)
from its own process, so the client's CPU time is measured alone (``time.process_time`` of this
process). Each round walks the same range to a DataFrame twice, raw and ``decode=True``,
alternating which goes first; the report gives the median CPU seconds of each, the CPU per
container and the ratio decoded/raw (the goal: at most 2).

    python benches/decode_cblock.py [--containers 100000] [--rounds 5] [--concurrency 4]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import urllib.request

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script


def serve_emulator(containers: int, port: int) -> subprocess.Popen[bytes]:
    """Starts ``avax-data emulator`` in its own process and waits until it answers."""
    command = [sys.executable, "-m", "avax_data", "emulator", "--port", str(port), "--containers", str(containers)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/ext/health", timeout=1)
        except urllib.error.HTTPError:
            return process  # any HTTP answer means it is up
        except OSError:
            time.sleep(0.1)
            continue
        return process
    process.kill()
    raise RuntimeError("the emulator did not start")


def walk(url: str, count: int, concurrency: int, decode: bool) -> tuple[float, float, int]:
    """(cpu seconds, wall seconds, rows) of one walk to a DataFrame."""
    with ad.IndexClient(url, concurrency=concurrency) as node:
        rng = node.chain("C/block").range(0, count, decode=decode)
        cpu, wall = time.process_time(), time.perf_counter()
        df = rng.to_polars()
        return time.process_time() - cpu, time.perf_counter() - wall, df.height


def main() -> None:
    args = options(containers=100_000, rounds=5, concurrency=4, port=19650)
    emulator = serve_emulator(args.containers, args.port)
    url = f"http://127.0.0.1:{args.port}"
    try:
        walk(url, 2_000, args.concurrency, True)  # warm up both sides
        results: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for r in range(args.rounds):
            for decode in ((False, True) if r % 2 == 0 else (True, False)):
                cpu, wall, rows = walk(url, args.containers, args.concurrency, decode)
                assert rows == args.containers, rows
                results[decode].append((cpu, wall))
    finally:
        emulator.terminate()
        emulator.wait()
    cpu = {d: statistics.median(c for c, _ in v) for d, v in results.items()}
    wall = {d: statistics.median(w for _, w in v) for d, v in results.items()}
    n = args.containers
    print(f"C/block range of {n:,} containers to a DataFrame, {args.rounds} rounds, "
          f"concurrency {args.concurrency}, {os.cpu_count()} CPUs (client CPU only; emulator in its own process)")
    for decode, name in ((False, "raw"), (True, "decode=True")):
        print(f"  {name:<12} cpu {cpu[decode]:.3f} s ({cpu[decode] / n * 1e6:.2f} µs/container)  wall {wall[decode]:.3f} s")
    print(f"  decoding adds {100 * (cpu[True] / cpu[False] - 1):.0f}% CPU (ratio {cpu[True] / cpu[False]:.2f}; goal <= 1.50)")


if __name__ == "__main__":
    main()
