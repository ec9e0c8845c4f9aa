"""An item reaches Python exactly once, whatever moment an interruption picks.

- ``async for``: a task cancelled while it waits for the next item, including the instant after
  the item's fetch finished and before the task woke up to receive it, leaves that item in the
  walk (the position before it): the same iterator hands it out next, and so does a new consumer
  of the walk. Cancellations come at seeded points: while the fetch runs, and after the event
  loop was blocked long enough for the fetch to finish and its result to wait in the loop's queue.
- A frame whose conversion Ctrl-C interrupts (a pager's ``batches()``, sync and async) is not
  handed out: the position and the repeat screen go back before its page, and the next consumer
  hands the page out again.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from typing import Any

import pytest

import avax_data as ad

N = 120  # items walked per run
BATCH = 8  # items per fetch: each fetch is a moment to cancel at
SEEDS = range(12)

_END = object()


async def _one(it: Any) -> Any:
    try:
        return await it.__anext__()
    except StopAsyncIteration:
        return _END


def _keys(item: Any, key: str) -> list[int]:
    """The walk keys an item carries: one for a dict, a page's or a frame's for a list or frame."""
    if isinstance(item, dict):
        return [int(item[key])]
    if isinstance(item, list):
        return [int(row[key]) for row in item]
    return [int(v) for v in item[key].to_list()]


async def _walk_with_cancellations(make: Callable[[], Any], key: str, seed: int) -> tuple[list[int], int]:
    """Steps the consumers `make` returns, cancelling most steps at a seeded point and now and
    then starting a new consumer of the walk (a resume); the keys handed out, and how many
    steps were cancelled."""
    rnd = random.Random(seed)
    got: list[int] = []
    cancelled = 0
    it = make()
    while True:
        task = asyncio.ensure_future(_one(it))
        how = rnd.random()
        if how < 0.45:
            # Block the event loop: the fetch finishes on the runtime and its result waits in
            # the loop's queue; then let the loop run 0-2 rounds (the result set, the task's
            # wake-up queued) and cancel.
            time.sleep(rnd.uniform(0, 0.02))
            for _ in range(rnd.randint(0, 2)):
                await asyncio.sleep(0)
            task.cancel()
        elif how < 0.8:
            await asyncio.sleep(rnd.uniform(0, 0.005))
            task.cancel()
        try:
            item = await task
        except asyncio.CancelledError:
            cancelled += 1
            if rnd.random() < 0.3:
                it = make()  # resume: a new consumer continues from the walk's position
            continue
        if item is _END:
            return got, cancelled
        got.extend(_keys(item, key))


def _range(node: ad.AsyncIndexClient) -> ad.AsyncRange:
    return node.chain("X/tx").range(0, N, batch_size=BATCH)


VARIANTS: dict[str, tuple[str, str]] = {
    # name: (walk, what a consumer is)
    "range_items": ("range", "items"),
    "range_batches": ("range", "batches"),
    "pager_items": ("pager", "items"),
    "pager_pages": ("pager", "pages"),
    "pager_batches": ("pager", "batches"),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_cancelled_step_loses_no_item_and_hands_none_out_twice(emu: ad.Emulator, variant: str) -> None:
    walk_kind, consumer = VARIANTS[variant]
    truth_pager = ad.DataClient(base_url=emu.url, cache=False).blocks("43114", limit=N)
    truth = {
        "range": list(range(N)),
        "pager": [int(b["blockNumber"]) for b in truth_pager],
    }[walk_kind]
    key = "index" if walk_kind == "range" else "blockNumber"

    async def main() -> list[tuple[list[int], int, int | None]]:
        results = []
        async with ad.AsyncIndexClient(emu.url) as node, ad.AsyncDataClient(base_url=emu.url, cache=False) as data:
            for seed in SEEDS:
                walk: Any = (
                    _range(node) if walk_kind == "range" else data.blocks("43114", page_size=BATCH, limit=N)
                )
                make = getattr(walk, consumer)
                got, cancelled = await _walk_with_cancellations(make, key, seed)
                at = walk.next_index if walk_kind == "range" else walk.items_read
                results.append((got, cancelled, at))
        return results

    results = asyncio.run(main())
    for seed, (got, cancelled, at) in zip(SEEDS, results):
        assert got == truth, f"seed {seed}: {len(got)} keys handed out, first difference at " + str(
            next((i for i, (a, b) in enumerate(zip(got, truth)) if a != b), min(len(got), len(truth)))
        )
        assert at == N, f"seed {seed}: position {at} after the whole walk"
    assert sum(cancelled for _, cancelled, _ in results) >= len(SEEDS) * 5, "the cancellations hit steps"


def test_a_cancelled_step_leaves_the_position_before_the_item(emu: ad.Emulator) -> None:
    # The fetch of the first batch finishes while the event loop is blocked; the task is then
    # cancelled before it wakes: nothing was handed out, so the position has not moved, and the
    # next step hands out item 0.
    async def main() -> tuple[int, int, int, int]:
        async with ad.AsyncIndexClient(emu.url) as node:
            rng = node.chain("X/tx").range(0, 50, batch_size=10)
            it = rng.items()
            task = asyncio.ensure_future(_one(it))
            await asyncio.sleep(0)  # the step starts its fetch
            time.sleep(0.3)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            before = rng.next_index
            first = (await anext(it))["index"]
            resumed = (await anext(rng.items()))["index"]
            return before, first, resumed, rng.next_index

    assert asyncio.run(main()) == (0, 0, 1, 2)


# A child whose polars.DataFrame raises KeyboardInterrupt at its `K`th frame (the conversion of a
# page that was already handed to the iterator), then prints the block numbers each consumer
# handed out: the interrupted one's, then a new consumer's.
CONVERSION_CHILD = """
import asyncio
import polars as pl
import avax_data as ad

K = {k}
real = pl.DataFrame
calls = {{"n": 0}}

def frame(*args, **kwargs):
    calls["n"] += 1
    if calls["n"] == K:
        raise KeyboardInterrupt
    return real(*args, **kwargs)

pl.DataFrame = frame
emu = ad.Emulator(seed=3, containers=10, data_blocks_per_chain=500)
got = []

if {asynchronous}:
    async def main():
        async with ad.AsyncDataClient(base_url=emu.url, cache=False) as data:
            pager = data.blocks("43114", page_size=10, limit=120)
            try:
                async for f in pager.batches():
                    got.extend(int(v) for v in f["blockNumber"].to_list())
            except KeyboardInterrupt:
                print("interrupted", pager.items_read, flush=True)
            async for f in pager.batches():
                got.extend(int(v) for v in f["blockNumber"].to_list())
            print("end", pager.items_read, flush=True)
    asyncio.run(main())
else:
    pager = ad.DataClient(base_url=emu.url, cache=False).blocks("43114", page_size=10, limit=120)
    try:
        for f in pager.batches():
            got.extend(int(v) for v in f["blockNumber"].to_list())
    except KeyboardInterrupt:
        print("interrupted", pager.items_read, flush=True)
    for f in pager.batches():
        got.extend(int(v) for v in f["blockNumber"].to_list())
    print("end", pager.items_read, flush=True)
print("got", *got, flush=True)
"""


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("k", [1, 2, 5, 12])
def test_a_pager_frame_whose_conversion_is_interrupted_is_handed_out_again(asynchronous: bool, k: int) -> None:
    emu = ad.Emulator(seed=3, containers=10, data_blocks_per_chain=500)
    with emu:
        truth = [int(b["blockNumber"]) for b in ad.DataClient(base_url=emu.url, cache=False).blocks("43114", limit=120)]
    script = textwrap.dedent(CONVERSION_CHILD.format(k=k, asynchronous=asynchronous))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines()}
    assert lines["interrupted"] == [str(10 * (k - 1))], "the interrupted page is not counted as read"
    assert [int(v) for v in lines["got"]] == truth, "each block once, in order"
    assert lines["end"] == ["120"]


# A child decoding about 1 s of C/block bytes with `decode_frame` while another thread counts,
# then again with SIGINT sent 0.2 s into the decode.
DECODE_CHILD = """
import os, signal, threading, time
import polars as pl
import avax_data as ad
signal.signal(signal.SIGINT, signal.default_int_handler)
with ad.Emulator(containers=3000) as emu:
    raw = ad.IndexClient(emu.url).chain("C/block").range(0, 3000).to_polars()
big = pl.concat([raw] * 5)
ticks = [0]
done = threading.Event()
def count():
    while not done.is_set():
        ticks[0] += 1
        time.sleep(0.001)
counter = threading.Thread(target=count)
counter.start()
start = time.monotonic()
rows = ad.decode_frame("C/block", big).height
took = time.monotonic() - start
done.set()
counter.join()
print("decoded", rows, took, ticks[0], flush=True)
timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
timer.start()
start = time.monotonic()
try:
    ad.decode_frame("C/block", big)
    print("finished", time.monotonic() - start, flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - start, flush=True)
"""


def test_decode_frame_releases_the_gil_and_answers_ctrl_c_promptly() -> None:
    proc = subprocess.run([sys.executable, "-c", DECODE_CHILD], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines()}
    rows, took, ticks = int(lines["decoded"][0]), float(lines["decoded"][1]), int(lines["decoded"][2])
    assert rows == 15_000
    # Another thread ran while the decode did (with the GIL held it would count about once).
    assert ticks >= max(5, took * 100), (took, ticks)
    if took > 0.6:  # the decode outlasts the signal: it stops early (the contract is 250 ms)
        assert "interrupted" in lines, proc.stdout
        # Well before the decode would end (a loaded machine slows both alike).
        assert float(lines["interrupted"][0]) < 0.2 + 0.5 * (took - 0.2), (took, proc.stdout)
