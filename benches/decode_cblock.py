"""Benchmark: what decoding adds to a C/block walk, side by side in one run.

The emulator serves real-format C/block containers (coreth RLP blocks in proposervm envelopes)
from its own process, so the client's CPU time is measured alone (``time.process_time`` of this
process). Each round walks the same range to a DataFrame twice, raw and ``decode=True``,
alternating which goes first; the report gives the median CPU seconds of each, the CPU per
container and the ratio decoded/raw (the goal: at most 2.5, issue 37). With ``--columns`` (a
comma-separated selection, e.g. every column but the hashes), a third walk, ``decode=True`` with
``columns=``, is measured in the same rounds (a build without ``columns=`` cannot run it).

    python benches/decode_cblock.py [--containers 100000] [--rounds 5] [--concurrency 4] [--columns a,b]
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


def walk(url: str, count: int, concurrency: int, decode: bool, columns: str = "") -> tuple[float, float, int]:
    """(cpu seconds, wall seconds, rows) of one walk to a DataFrame (``columns``: a selection)."""
    with ad.IndexClient(url, concurrency=concurrency) as node:
        chain = node.chain("C/block")
        rng = chain.range(0, count, decode=decode, columns=columns) if columns else chain.range(0, count, decode=decode)
        cpu, wall = time.process_time(), time.perf_counter()
        df = rng.to_polars()
        return time.process_time() - cpu, time.perf_counter() - wall, df.height


def main() -> None:
    args = options(containers=100_000, rounds=5, concurrency=4, port=19650, columns="")
    emulator = serve_emulator(args.containers, args.port)
    url = f"http://127.0.0.1:{args.port}"
    try:
        walk(url, 2_000, args.concurrency, True)  # warm up both sides
        kinds: list[bool | str] = [False, True] + (["columns"] if args.columns else [])
        results: dict[bool | str, list[tuple[float, float]]] = {k: [] for k in kinds}
        for r in range(args.rounds):
            for kind in (kinds if r % 2 == 0 else kinds[::-1]):
                columns = args.columns if kind == "columns" else ""
                cpu, wall, rows = walk(url, args.containers, args.concurrency, kind is not False, columns)
                assert rows == args.containers, rows
                results[kind].append((cpu, wall))
    finally:
        emulator.terminate()
        emulator.wait()
    cpu = {d: statistics.median(c for c, _ in v) for d, v in results.items()}
    wall = {d: statistics.median(w for _, w in v) for d, v in results.items()}
    n = args.containers
    print(f"C/block range of {n:,} containers to a DataFrame, {args.rounds} rounds, "
          f"concurrency {args.concurrency}, {os.cpu_count()} CPUs (client CPU only; emulator in its own process)")
    names = {False: "raw", True: "decode=True", "columns": "columns="}
    for kind in results:
        print(f"  {names[kind]:<12} cpu {cpu[kind]:.3f} s ({cpu[kind] / n * 1e6:.2f} µs/container)  wall {wall[kind]:.3f} s"
              f"  ({cpu[kind] / cpu[False]:.2f}x raw)")
    print(f"  decoding adds {100 * (cpu[True] / cpu[False] - 1):.0f}% CPU (ratio {cpu[True] / cpu[False]:.2f}; goal <= 2.5)")
    if args.columns:
        print(f"  columns={args.columns}")


if __name__ == "__main__":
    main()
