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
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time

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


def main() -> None:
    if sys.argv[1:2] == ["--child"]:  # the baseline interpreter's side: JSON medians on stdout
        url, calls, rounds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        print(json.dumps(medians(url, calls, rounds, ["direct", "wrapped"])))
        return
    args = options(calls=20_000, rounds=5, baseline_python="")
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
