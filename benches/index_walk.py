"""Benchmark: walk an emulator index with avax-data vs a pure-Python client, side by side.

Both clients do the same work per container: JSON decode, hex decode, checksum check, and the
id check (id == cb58(sha256(bytes))); the baseline uses http.client keep-alive connections and a
thread pool with the same number of calls in flight. Results are ratios, measured in one process
against one emulator, so machine noise hits both alike.

    python benches/index_walk.py [--containers 60000] [--path X/tx] [--concurrency 4] [--latency 0]
"""

from __future__ import annotations

import hashlib
import http.client
import json
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import avax_data as ad
from avax_data.testing import Emulator
from _bench import options, print_medians  # benches/ is on sys.path when a bench runs as a script
from pure_python import cb58


class PurePythonWalker:
    """A careful pure-Python index client: keep-alive connections, one per thread."""

    def __init__(self, url: str, path: str) -> None:
        parsed = urllib.parse.urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.path = f"/ext/index/{path}"
        self.local = threading.local()

    def _conn(self) -> http.client.HTTPConnection:
        if not hasattr(self.local, "conn"):
            self.local.conn = http.client.HTTPConnection(self.host, self.port)
        return self.local.conn

    def fetch(self, start: int, count: int) -> list[dict]:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "index.getContainerRange",
                           "params": {"startIndex": start, "numToFetch": count, "encoding": "hex"}})
        conn = self._conn()
        conn.request("POST", self.path, body, {"Content-Type": "application/json"})
        reply = json.loads(conn.getresponse().read())
        out = []
        for c in reply["result"]["containers"]:
            raw = bytes.fromhex(c["bytes"][2:])
            data, check = raw[:-4], raw[-4:]
            digest = hashlib.sha256(data).digest()
            if digest[-4:] != check or cb58(digest) != c["id"]:
                raise ValueError(f"integrity check failed at {c['index']}")
            out.append({"id": c["id"], "bytes": data, "timestamp": datetime.fromisoformat(c["timestamp"]),
                        "index": int(c["index"]), "encoding": c["encoding"]})
        return out

    def walk(self, total: int, concurrency: int) -> int:
        starts = range(0, total, 1024)
        n = 0
        with ThreadPoolExecutor(concurrency) as pool:
            for batch in pool.map(lambda s: self.fetch(s, min(1024, total - s)), starts):
                n += len(batch)
        return n


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    args = options(__doc__, containers=60_000, path="X/tx", concurrency=4, latency=0.0, rounds=3)
    n = args.containers
    with Emulator(containers=n, latency=args.latency) as emu:
        chain = ad.IndexClient(emu.url, concurrency=args.concurrency).chain(args.path)
        baseline = PurePythonWalker(emu.url, args.path)
        runs = {
            "avax-data dicts": lambda: sum(1 for _ in chain.range(0, n)),
            "avax-data to_polars": lambda: chain.range(0, n).to_polars(),
            "avax-data write_parquet": lambda: chain.range(0, n).write_parquet("/tmp/avax-data-bench.parquet"),
            "pure Python dicts": lambda: baseline.walk(n, args.concurrency),
        }
        times: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(args.rounds):
            for name, fn in runs.items():  # interleaved, so drift hits every run alike
                times[name].append(timed(fn))
    print(f"{n:,} containers of {args.path}, concurrency {args.concurrency}, latency {args.latency}s, "
          f"median of {args.rounds}")
    print_medians(times, n, "pure Python dicts", " pure Python")


if __name__ == "__main__":
    main()
