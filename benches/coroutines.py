"""Benchmark: the cost per call of an async call as a coroutine, against today's awaitable.

Each run awaits ``chain.container_range(0, 0)`` (answered ``[]`` by the core without a request,
so the time is the call's own: argument checks, the awaitable, the runtime round trip)
``--calls`` times on one event loop, and reports the CPU time per call. The runs, side by side:

- ``awaitable`` (with ``--baseline-python``: that interpreter's build, e.g. ``main``): the call as
  it was, an asyncio future in a ``Pending``, started at once; ``await`` only;
- ``async def wrapper``: the same call behind a thin Python ``async def`` (the option of making
  each method a coroutine in Python), on this build;
- ``coroutine``: this build's ``Pending`` as a coroutine (``send``/``throw``/``close``, started
  when first stepped), awaited directly;
- ``coroutine, create_task``: the same through ``asyncio.create_task`` (a task per call).

    python benches/coroutines.py [--calls 20000] [--rounds 5] [--baseline-python /work/venv-main/bin/python]

With ``--pyo3`` it measures instead pyo3's own coroutine (``async fn`` under pyo3's
``experimental-async`` feature) against the asyncio future bridge that ``Pending`` wraps
(pyo3-async-runtimes' ``future_into_py``), both from the bench-only module ``_coroutine_bench``
(``benches/coroutine_ext``: build it first, see its ``Cargo.toml``), for the same work:

- a no-op awaitable: a Python ``async def`` returning at once, pyo3's coroutine of a value at
  hand, pyo3's coroutine of a value made by a task on the runtime (the trip every call of the
  package takes), the bridge's future (a task on the runtime completes it), and the package's
  ``await chain.container_range(0, 0)`` (``Pending`` around the bridge, plus the call's checks);
- a trivial request to the emulator (``GET /v1/chains/43114`` on a fresh connection, sent by a
  task on the runtime): pyo3's coroutine awaiting it, the bridge's future of it, and the
  package's ``await data.chain("43114")`` (reqwest, JSON, a dict) for scale.

    python benches/coroutines.py --pyo3 [--calls 20000] [--rounds 5]
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script


async def direct(chain: object, calls: int) -> float:
    t = time.process_time()
    for _ in range(calls):
        assert await chain.container_range(0, 0) == []  # type: ignore[attr-defined]
    return time.process_time() - t


async def wrapped(chain: object, calls: int) -> float:
    async def call() -> list[object]:
        return await chain.container_range(0, 0)  # type: ignore[attr-defined, no-any-return]

    t = time.process_time()
    for _ in range(calls):
        assert await call() == []
    return time.process_time() - t


async def tasks(chain: object, calls: int) -> float:
    t = time.process_time()
    for _ in range(calls):
        assert await asyncio.create_task(chain.container_range(0, 0)) == []  # type: ignore[attr-defined]
    return time.process_time() - t


def medians(url: str, calls: int, rounds: int, runs: list[str]) -> dict[str, float]:
    """Median CPU seconds per call of each run, the runs interleaved round by round."""
    kinds = {"direct": direct, "wrapped": wrapped, "tasks": tasks}
    times: dict[str, list[float]] = {run: [] for run in runs}

    async def one_round() -> None:
        async with ad.AsyncIndexClient(url) as node:
            chain = node.chain("X/tx")
            await kinds["direct"](chain, calls // 10)  # warm-up
            for run in runs:
                times[run].append(await kinds[run](chain, calls) / calls)

    for _ in range(rounds):
        asyncio.run(one_round())
    return {run: statistics.median(values) for run, values in times.items()}


async def per_call(make: Callable[[], Awaitable[object]], calls: int) -> float:
    """CPU seconds per ``await make()``, ``calls`` times in a row."""
    t = time.process_time()
    for _ in range(calls):
        await make()
    return (time.process_time() - t) / calls


def pyo3_medians(url: str, calls: int, rounds: int) -> list[tuple[str, str, float]]:
    """(section, run, median CPU seconds per call) of each run of ``--pyo3``, interleaved round
    by round; a request costs far more than a no-op, so its runs make a tenth of the calls."""
    import _coroutine_bench as ext  # type: ignore[import-not-found]  # benches/coroutine_ext

    port, path = urlsplit(url).port, "/v1/chains/43114"
    assert port is not None

    async def python_noop() -> int:
        return 0

    async def one_round(times: dict[tuple[str, str], list[float]]) -> None:
        async with ad.AsyncIndexClient(url) as node, ad.AsyncDataClient(base_url=url) as data:
            chain = node.chain("X/tx")
            runs: list[tuple[str, str, Callable[[], Awaitable[object]], int]] = [
                ("no-op", "Python async def", python_noop, calls),
                ("no-op", "pyo3 async fn, value at hand", ext.native_ready, calls),
                ("no-op", "pyo3 async fn, a task on the runtime", ext.native_spawned, calls),
                ("no-op", "bridge future (what Pending wraps)", ext.bridged, calls),
                ("no-op", "package: container_range(0, 0) (Pending)", lambda: chain.container_range(0, 0), calls),
                ("request", "pyo3 async fn, GET on the runtime", lambda: ext.native_get(port, path), calls // 10),
                ("request", "bridge future, GET on the runtime", lambda: ext.bridged_get(port, path), calls // 10),
                ("request", "package: data.chain(\"43114\") (Pending)", lambda: data.chain("43114"), calls // 10),
            ]
            for section, name, make, n in runs:
                await per_call(make, max(n // 10, 1))  # warm-up
                times.setdefault((section, name), []).append(await per_call(make, n))

    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        asyncio.run(one_round(times))
    return [(section, name, statistics.median(values)) for (section, name), values in times.items()]


def main_pyo3(calls: int, rounds: int) -> None:
    """``--pyo3``: the table of pyo3's coroutine against the bridge."""
    try:
        import _coroutine_bench  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        sys.exit("--pyo3 needs the bench-only module: CARGO_TARGET_DIR=target/coroutine-ext "
                 "maturin develop --release -m benches/coroutine_ext/Cargo.toml")
    with ad.Emulator(containers=10) as emu:
        rows = pyo3_medians(emu.url, calls, rounds)
    print(f"CPU per await, median of {rounds} rounds ({calls:,} no-op calls, {calls // 10:,} requests a round)")
    for section in ("no-op", "request"):
        mine = [(name, seconds) for s, name, seconds in rows if s == section]
        ref_name, ref = next((n, v) for n, v in mine if n.startswith("bridge"))
        print(f"{section}:")
        for name, seconds in mine:
            print(f"  {name:44s} {seconds * 1e6:8.2f} µs/call  {seconds / ref:6.3f}x of the {ref_name.split(' (')[0]}")


def main() -> None:
    if sys.argv[1:2] == ["--child"]:  # the baseline interpreter's side: JSON medians on stdout
        url, calls, rounds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        print(json.dumps(medians(url, calls, rounds, ["direct", "wrapped"])))
        return
    pyo3 = "--pyo3" in sys.argv
    if pyo3:
        sys.argv.remove("--pyo3")
    args = options(calls=20_000, rounds=5, baseline_python="")
    if pyo3:
        main_pyo3(args.calls, args.rounds)
        return
    with ad.Emulator(containers=10) as emu:
        here = medians(emu.url, args.calls, args.rounds, ["direct", "wrapped", "tasks"])
        base = None
        if args.baseline_python:
            out = subprocess.run([args.baseline_python, __file__, "--child", emu.url, str(args.calls),
                                  str(args.rounds)], capture_output=True, text=True, check=True).stdout
            base = json.loads(out)
    rows = []
    if base is not None:
        rows += [("awaitable (baseline build)", base["direct"]),
                 ("async def wrapper (baseline build)", base["wrapped"])]
    rows += [("async def wrapper (this build)", here["wrapped"]), ("coroutine (this build)", here["direct"]),
             ("coroutine, create_task (this build)", here["tasks"])]
    ref = rows[0][1]
    print(f"await of container_range(0, 0) (no request), {args.calls:,} calls, median of {args.rounds} rounds, CPU")
    for name, seconds in rows:
        print(f"  {name:38s} {seconds * 1e6:7.2f} µs/call  {seconds / ref:5.2f}x of {rows[0][0]}")


if __name__ == "__main__":
    main()
