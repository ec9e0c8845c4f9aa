"""C/block containers per CPU second served by the emulator over HTTP (CPU time of the whole
process: the in-process emulator plus a client that only reads the answers): a walk of ``--count``
containers by ``getContainerRange`` calls of 1,024 (the answers read, not parsed), then the last
4,096 again (built before: served from the emulator's cache of recent containers). The first
walk's containers per wall second are printed too (the emulator encodes a run's blocks on both
cores, so the wall rate can exceed the CPU rate on an idle machine).

Runs against whatever ``avax_data`` the interpreter imports, so the same command measures two
builds side by side::

    python benches/emulator_serve.py --count 20000
"""

from __future__ import annotations

import http.client
import json
import resource
import time
import urllib.parse

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script


def cpu() -> float:
    """CPU seconds of this process so far (the in-process emulator's threads included)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def walk(url: str, start: int, count: int) -> tuple[float, int, float]:
    """(CPU seconds, response bytes, wall seconds) of fetching containers ``start .. start + count``."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
    size = 0
    began, wall = cpu(), time.perf_counter()
    for at in range(start, start + count, 1024):
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "index.getContainerRange",
                           "params": {"startIndex": at, "numToFetch": min(1024, start + count - at),
                                      "encoding": "hex"}})
        conn.request("POST", "/ext/index/C/block", body, {"Content-Type": "application/json"})
        answer = conn.getresponse().read()
        assert answer.startswith(b'{"jsonrpc"') and b'"error"' not in answer[:200], answer[:200]
        size += len(answer)
    conn.close()
    return cpu() - began, size, time.perf_counter() - wall


def main() -> None:
    args = options(__doc__, count=20_000, start=5_000)
    t0 = time.perf_counter()
    with ad.Emulator(seed=7, containers=args.start + args.count) as emu:
        first, size, first_wall = walk(emu.url, args.start, args.count)
        again_n = min(args.count, 4_096)
        again, _, _ = walk(emu.url, args.start + args.count - again_n, again_n)
    print(json.dumps({"containers": args.count, "first_walk_per_cpu_s": round(args.count / first),
                      "first_walk_per_wall_s": round(args.count / first_wall),
                      "cached_walk_per_cpu_s": round(again_n / again), "wall_s": round(time.perf_counter() - t0, 1),
                      "mb": round(size / 1e6, 1)}))


if __name__ == "__main__":
    main()
