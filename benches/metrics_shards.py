"""Sharded vs sequential walk of a metric series against the emulator with added latency.

    python benches/metrics_shards.py [--latency 0.05] [--days 60] [--page-size 24]

Uses the emulator's Metrics API (`/v2`) when it serves it, else a scripted local service
(`tests/test_metrics_client.py`'s) behind the same latency. Prints both times and the ratio.
"""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script


def walk(url: str, chain: str, start: int, end: int, page_size: int, concurrency: int) -> tuple[float, int]:
    with ad.MetricsClient(base_url=url) as m:
        t = time.perf_counter()
        df = m.metric(chain, "txCount", interval="hour", start=start, end=end, page_size=page_size, concurrency=concurrency).to_polars()
        return time.perf_counter() - t, df.height


def main() -> None:
    args = options(latency=0.05, days=60, page_size=6, concurrency=4)
    with ad.Emulator(data_blocks_per_chain=100_000, latency=args.latency) as emu:
        try:
            urllib.request.urlopen(emu.url + "/v2/live-check", timeout=10).read()
            url = emu.url
            with ad.MetricsClient(base_url=url) as m:
                chain = str(next(iter(m.chains()))["evmChainId"])
                times = m.metric(chain, "txCount", interval="hour", page_size=2160).to_polars()["timestamp"]
            end = int(times.max().timestamp()) + 3600
            first = int(times.min().timestamp())  # the synthetic chain's data: shard where points are
            source = "emulator /v2"
        except urllib.error.HTTPError:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
            from test_metrics_client import T0, Service

            import threading

            service = Service()
            real_answer = service.answer

            def slow(path: str, q: dict) -> tuple[int, object]:
                time.sleep(args.latency)
                return real_answer(path, q)

            service.answer = slow  # type: ignore[method-assign]
            url, chain, end, source = service.url, "43114", T0 + 120 * 86400, "scripted service"
            first = end - args.days * 86400
            _ = threading
        start = max(first, end - args.days * 86400)
        seq, n1 = walk(url, chain, start, end, args.page_size, 1)
        par, n2 = walk(url, chain, start, end, args.page_size, args.concurrency)
        assert n1 == n2, (n1, n2)
        print(f"{source}: {n1} hourly points, page_size={args.page_size}, latency={args.latency * 1000:.0f} ms")
        print(f"sequential walk:            {seq:.2f} s")
        print(f"sharded walk (concurrency {args.concurrency}): {par:.2f} s")
        print(f"speed-up: {seq / par:.2f}x")


if __name__ == "__main__":
    main()
