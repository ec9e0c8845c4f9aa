"""Benchmark: what counting a cache directory costs now that every entry's tag is read (only the
cache's own files count), against a stat-only walk of the same tree in Python (what listing
sizes costs without opening a file). One process, one tree, the ratio of the medians of 7 runs.

    python benches/cache_scan.py [--entries 20000]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from avax_data._native import cache_info

MAGIC = b"AVXDC\x00\x00\x01"


def build(root: Path, entries: int) -> None:
    """A marked cache of `entries` index entries of 1 KB, as the cache writes them."""
    (root / ".avax-data-cache").write_text("avax-data cache layout 2\n")
    for i in range(entries):
        key = f"index/bench/X/tx/{i}"
        body = len(key).to_bytes(4, "little") + key.encode() + b"p" * 1000
        name = hashlib.sha256(key.encode()).hexdigest()
        shard = root / "index" / name[:2]
        shard.mkdir(parents=True, exist_ok=True)
        (shard / name).write_bytes(MAGIC + hashlib.sha256(body).digest() + body)


def stat_walk(root: Path) -> int:
    total = 0
    for shard in os.scandir(root / "index"):
        for entry in os.scandir(shard.path):
            total += entry.stat().st_size
    return total


def median_seconds(work) -> float:
    times = []
    for _ in range(7):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=20_000)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp())
    try:
        build(root, args.entries)
        assert cache_info(root)["entries"] == args.entries
        ours = median_seconds(lambda: cache_info(root))
        base = median_seconds(lambda: stat_walk(root))
        print(f"{args.entries} entries: cache_info {ours * 1000:.1f} ms, stat-only walk {base * 1000:.1f} ms, "
              f"ratio {ours / base:.2f}")
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
