"""The measured runs of ``run.py``, one per process: ``python benches/workers.py TASK 'JSON spec'``.

Each task warms up (imports, connections, polars' thread pool), then measures one run with
``time.process_time()`` (this process's CPU, every thread: the emulator runs in another process)
and ``time.perf_counter()``, and prints one JSON line: ``cpu_s``, ``wall_s``, ``rows`` and the
peak resident memory (``VmHWM``, MB) before and after the measured run.

``serve`` is the emulator's process: it prints the emulator's URL, then answers ``latency S``
lines on stdin (``set_latency``) with ``ok`` until stdin closes.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def vm_hwm_mb() -> float:
    """Peak resident set size of this process so far (``VmHWM``), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def perf_control(command: str) -> None:
    """Tells a ``perf record --control`` (``perf_profile.py``) to start or stop recording, if any."""
    fifos = os.environ.get("AVAX_BENCH_PERF_CTL")
    if fifos:
        ctl, ack = fifos.split(",")
        with open(ctl, "w") as out:
            out.write(command + "\n")
        with open(ack) as answer:
            answer.readline()


def measured(run: Callable[[], int]) -> dict[str, Any]:
    """Runs ``run`` (which returns the rows it handled) and reports its CPU, wall and memory."""
    before = vm_hwm_mb()
    perf_control("enable")
    cpu, wall = time.process_time(), time.perf_counter()
    rows = run()
    result = {"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall, "rows": rows,
              "hwm_before_mb": before, "hwm_mb": vm_hwm_mb()}
    perf_control("disable")
    return result


async def ameasured(run: Callable[[], Awaitable[int]]) -> dict[str, Any]:
    """:func:`measured` for a coroutine function."""
    before = vm_hwm_mb()
    perf_control("enable")
    cpu, wall = time.process_time(), time.perf_counter()
    rows = await run()
    result = {"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall, "rows": rows,
              "hwm_before_mb": before, "hwm_mb": vm_hwm_mb()}
    perf_control("disable")
    return result


def serve(spec: dict[str, Any]) -> None:
    """The emulator in this process until stdin closes."""
    import avax_data as ad

    with ad.Emulator(seed=0, containers=spec["containers"], data_blocks_per_chain=spec["data_blocks"]) as emu:
        print(emu.url, flush=True)
        for line in sys.stdin:
            command, _, value = line.strip().partition(" ")
            if command == "latency":
                emu.set_latency(float(value))
            print("ok", flush=True)


def index(spec: dict[str, Any]) -> dict[str, Any]:
    """A range of an index to one DataFrame: ``avax-sync``, ``avax-async`` or ``pure-python``."""
    import avax_data as ad

    url, path, count, conc, decode = spec["url"], spec["path"], spec["count"], spec["concurrency"], spec["decode"]
    warm = min(spec.get("warmup", 2048), count)
    contender = spec["contender"]
    if contender == "avax-sync":
        with ad.IndexClient(url, concurrency=conc) as node:
            chain = node.chain(path)
            chain.range(0, warm, decode=decode).to_polars()
            return measured(lambda: chain.range(0, count, decode=decode).to_polars().height)
    if contender == "avax-async":
        async def main() -> dict[str, Any]:
            async with ad.AsyncIndexClient(url, concurrency=conc) as node:
                chain = node.chain(path)
                await chain.range(0, warm, decode=decode).to_polars()

                async def run() -> int:
                    return (await chain.range(0, count, decode=decode).to_polars()).height
                return await ameasured(run)
        return asyncio.run(main())
    if contender == "pure-python":
        from pure_python import PurePythonClient

        if decode:
            raise ValueError("the pure-Python client does not decode containers")

        async def walk() -> dict[str, Any]:
            async with PurePythonClient(url, concurrency=conc) as py:
                await py.index_range(path, 0, warm)

                async def run() -> int:
                    return (await py.index_range(path, 0, count)).height
                return await ameasured(run)
        return asyncio.run(walk())
    raise ValueError(f"unknown contender {contender!r}")


def data(spec: dict[str, Any]) -> dict[str, Any]:
    """Data API blocks of one chain, ``count`` of them by pages of ``page_size``, to a DataFrame."""
    import avax_data as ad

    url, chain, count, size, contender = spec["url"], spec["chain"], spec["count"], spec["page_size"], spec["contender"]
    if contender == "avax-sync":
        with ad.DataClient(base_url=url) as client:
            client.blocks(chain, page_size=size, limit=2 * size).to_polars()
            return measured(lambda: client.blocks(chain, page_size=size, limit=count).to_polars().height)
    if contender == "avax-async":
        async def main() -> dict[str, Any]:
            async with ad.AsyncDataClient(base_url=url) as client:
                await client.blocks(chain, page_size=size, limit=2 * size).to_polars()

                async def run() -> int:
                    return (await client.blocks(chain, page_size=size, limit=count).to_polars()).height
                return await ameasured(run)
        return asyncio.run(main())
    if contender == "pure-python":
        from pure_python import PurePythonClient

        async def walk() -> dict[str, Any]:
            async with PurePythonClient(url) as py:
                await py.blocks(chain, page_size=size, limit=2 * size)

                async def run() -> int:
                    return (await py.blocks(chain, page_size=size, limit=count)).height
                return await ameasured(run)
        return asyncio.run(walk())
    raise ValueError(f"unknown contender {contender!r}")


def endpoint(spec: dict[str, Any]) -> dict[str, Any]:
    """A generated list endpoint against blocks, per item: ``count`` items of ``what``
    (``blocks``: ``blocks(chain)``; ``transactions``: ``chain_transactions(chain)``, the
    generated ``listLatestTransactions``) by pages of ``page_size`` to a DataFrame."""
    import avax_data as ad

    url, chain, count, size, what = spec["url"], spec["chain"], spec["count"], spec["page_size"], spec["what"]
    with ad.DataClient(base_url=url) as client:
        call = client.blocks if what == "blocks" else client.chain_transactions
        call(chain, page_size=size, limit=2 * size).to_polars()
        return measured(lambda: call(chain, page_size=size, limit=count).to_polars().height)


def prefetch(spec: dict[str, Any]) -> dict[str, Any]:
    """Data API pages handed to a consumer that works ``work_s`` per page (``time.sleep``):
    ``prefetch`` reads ``pager.pages()`` (the next page is fetched while the consumer works),
    ``page-at-a-time`` asks for each page only when the consumer is done with the last one
    (a new pager per page from ``next_page_token``, ``limit=page_size``)."""
    import avax_data as ad

    url, chain, count, size, work = spec["url"], spec["chain"], spec["count"], spec["page_size"], spec["work_s"]
    with ad.DataClient(base_url=url) as client:
        client.blocks(chain, page_size=size, limit=size).to_polars()

        def with_prefetch() -> int:
            rows = 0
            for page in client.blocks(chain, page_size=size, limit=count).pages():
                rows += len(page)
                time.sleep(work)
            return rows

        def page_at_a_time() -> int:
            rows, token = 0, None
            while rows < count:
                pager = client.blocks(chain, page_size=size, page_token=token, limit=size)
                page = next(iter(pager.pages()))
                rows += len(page)
                time.sleep(work)
                token = pager.next_page_token
                if token is None:
                    break
            return rows

        return measured(with_prefetch if spec["mode"] == "prefetch" else page_at_a_time)


def metrics(spec: dict[str, Any]) -> dict[str, Any]:
    """A metric's hourly series over ``[start, end)`` to a DataFrame, sequential or sharded."""
    import avax_data as ad

    url, chain, start, end, size = spec["url"], spec["chain"], spec["start"], spec["end"], spec["page_size"]
    conc, contender = spec["concurrency"], spec["contender"]
    if contender == "avax-sync":
        with ad.MetricsClient(base_url=url) as m:
            def run() -> int:
                return m.metric(chain, "txCount", interval="hour", start=start, end=end, page_size=size,
                                concurrency=conc).to_polars().height
            run()
            return measured(run)
    if contender == "avax-async":
        async def main() -> dict[str, Any]:
            async with ad.AsyncMetricsClient(base_url=url) as m:
                async def run() -> int:
                    pager = m.metric(chain, "txCount", interval="hour", start=start, end=end, page_size=size,
                                     concurrency=conc)
                    return (await pager.to_polars()).height
                await run()
                return await ameasured(run)
        return asyncio.run(main())
    if contender == "pure-python":
        from pure_python import PurePythonClient

        async def walk() -> dict[str, Any]:
            async with PurePythonClient(url) as py:
                async def run() -> int:
                    df = await py.metric(chain, "txCount", interval="hour", start=start, end=end, page_size=size)
                    return df.height
                await run()
                return await ameasured(run)
        return asyncio.run(walk())
    raise ValueError(f"unknown contender {contender!r}")


def parquet(spec: dict[str, Any]) -> dict[str, Any]:
    """A range streamed to a Parquet file with ``write_parquet``; the file is read back to check."""
    import avax_data as ad
    import polars as pl

    url, path, count = spec["url"], spec["path"], spec["count"]
    with ad.IndexClient(url) as node, tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "walk.parquet")
        node.chain(path).range(0, min(count, 2048)).write_parquet(out)
        result = measured(lambda: node.chain(path).range(0, count).write_parquet(out))
        result["file_mb"] = os.path.getsize(out) / 1e6
        back = pl.scan_parquet(out).select(pl.len(), pl.col("index").min().alias("lo"), pl.col("index").max().alias("hi"))
        rows, lo, hi = back.collect().row(0)
        if (rows, lo, hi) != (count, 0, count - 1):
            raise AssertionError(f"the Parquet file holds {rows} rows {lo}..{hi}, expected {count} rows 0..{count - 1}")
        return result


def iterate(spec: dict[str, Any]) -> dict[str, Any]:
    """A range handed out item by item as dicts: ``for`` or ``async for``."""
    import avax_data as ad

    url, path, count = spec["url"], spec["path"], spec["count"]
    if spec["mode"] == "for":
        with ad.IndexClient(url) as node:
            chain = node.chain(path)
            sum(1 for _ in chain.range(0, min(count, 2048)))
            return measured(lambda: sum(1 for _ in chain.range(0, count)))

    async def main() -> dict[str, Any]:
        async with ad.AsyncIndexClient(url) as node:
            chain = node.chain(path)
            async for _ in chain.range(0, min(count, 2048)):
                pass

            async def run() -> int:
                rows = 0
                async for _ in chain.range(0, count):
                    rows += 1
                return rows
            return await ameasured(run)
    return asyncio.run(main())


def startup(spec: dict[str, Any]) -> dict[str, Any]:
    """Import time, then the first request (client made, one ``getLastAccepted``), in a fresh process."""
    url, contender = spec["url"], spec["contender"]
    t0 = time.perf_counter()
    if contender == "avax":
        import avax_data as ad

        t1 = time.perf_counter()
        with ad.IndexClient(url) as node:
            node.chain("X/tx").last_accepted()
        t2 = time.perf_counter()
    elif contender == "polars":
        import polars  # noqa: F401  (what avax_data's import includes)

        t1 = t2 = time.perf_counter()
    else:
        import httpx
        import polars  # noqa: F401
        from pure_python import PurePythonClient  # noqa: F401

        t1 = time.perf_counter()
        body = {"jsonrpc": "2.0", "id": 1, "method": "index.getLastAccepted", "params": {"encoding": "hex"}}
        with httpx.Client() as client:
            client.post(f"{url}/ext/index/X/tx", json=body).raise_for_status()
        t2 = time.perf_counter()
    return {"import_s": t1 - t0, "first_request_s": t2 - t1}


def world(spec: dict[str, Any]) -> dict[str, Any]:
    """The default world built in a fresh process (the package imported first, not timed):
    ``ad.Emulator()`` started, then ``emu.world`` (if the build has it) and the first answer of
    each service: a Data API page of C-Chain blocks, the ``C/block`` index's last container and
    a day of hourly ``txCount``. Wall seconds of each step and of all of them."""
    import urllib.request

    import avax_data as ad

    def get(url: str) -> None:
        with urllib.request.urlopen(url, timeout=600) as answer:
            answer.read()

    def post(url: str, body: dict[str, Any]) -> None:
        request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as answer:
            answer.read()

    times: dict[str, float] = {}
    began = time.perf_counter()

    def step(name: str, run: Callable[[], object]) -> None:
        t = time.perf_counter()
        run()
        times[name] = time.perf_counter() - t

    emu: Any = None

    def start() -> None:
        nonlocal emu
        emu = ad.Emulator()

    step("start_s", start)
    step("world_s", lambda: getattr(emu, "world", None))
    step("data_s", lambda: get(emu.url + "/v1/chains/43114/blocks?pageSize=10"))
    last = {"jsonrpc": "2.0", "id": 1, "method": "index.getLastAccepted", "params": {"encoding": "hex"}}
    step("index_s", lambda: post(emu.url + "/ext/index/C/block", last))
    step("metrics_s", lambda: get(emu.url + "/v2/chains/43114/metrics/txCount?timeInterval=hour&pageSize=24"))
    times["total_s"] = time.perf_counter() - began
    emu.close()
    return times


TASKS = {"index": index, "data": data, "endpoint": endpoint, "prefetch": prefetch, "metrics": metrics, "parquet": parquet,
         "iterate": iterate, "startup": startup, "world": world}

if __name__ == "__main__":
    task, spec = sys.argv[1], json.loads(sys.argv[2])
    if task == "serve":
        serve(spec)
    else:
        print(json.dumps(TASKS[task](spec)), flush=True)
        # Leave without finalizing the interpreter: after an async walk, a runtime thread of the
        # extension can still drop a Python object while the interpreter finalizes, which crashes
        # the process about one time in three (reported; not what this harness measures).
        os._exit(0)
