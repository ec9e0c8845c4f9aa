"""Async calls are coroutines (issue 35, section 2): every method of the async clients, pagers
and ranges that returns an awaitable returns a coroutine, and asyncio's patterns take it:
``asyncio.run``, ``create_task``, ``TaskGroup``, ``gather``, ``wait_for``; cancelling the task
cancels the call, and a coroutine closed before it ran sends nothing."""

from __future__ import annotations

import asyncio
import gc
import io
import time
import warnings

import pytest

import avax_data as ad


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(seed=4, containers=200, data_blocks_per_chain=60) as emulator:
        yield emulator


def calls(node: ad.AsyncIndexClient, data: ad.AsyncDataClient, metrics: ad.AsyncMetricsClient) -> dict[str, object]:
    """One call of each kind of async method: clients, a chain, a range, a pager, a generated endpoint."""
    chain, rng, pager = node.chain("X/tx"), node.chain("X/tx").range(0, 10), data.blocks("43114", limit=5)
    return {
        "chain.last_accepted": chain.last_accepted(),
        "chain.container": chain.container(3),
        "chain.container_range": chain.container_range(0, 3),
        "range.to_polars": rng.to_polars(),
        "range.write_parquet": node.chain("X/tx").range(0, 4).write_parquet(io.BytesIO()),
        "pager.to_polars": pager.to_polars(),
        "pager.to_arrow": data.blocks("43114", limit=3).to_arrow(),
        "data.chain": data.chain("43114"),
        "data.block": data.block("43114", 5),
        "metrics.live_check": metrics.live_check(),
    }


def test_every_async_call_is_a_coroutine_and_asyncio_run_takes_one(emu: ad.Emulator) -> None:
    node, data, metrics = ad.AsyncIndexClient(emu.url), ad.AsyncDataClient(base_url=emu.url), \
        ad.AsyncMetricsClient(base_url=emu.url)
    made = calls(node, data, metrics)
    assert [name for name, c in made.items() if not asyncio.iscoroutine(c)] == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the ones left unawaited below
        assert asyncio.run(made.pop("range.to_polars")).height == 10  # type: ignore[arg-type]
        assert asyncio.run(made.pop("data.chain"))["chainId"] == "43114"  # type: ignore[arg-type, index]
        assert asyncio.run(made.pop("range.write_parquet")) == 4  # type: ignore[arg-type]
        for c in made.values():
            c.close()  # type: ignore[attr-defined]
    assert asyncio.run(ad.AsyncDataClient(base_url=emu.url).blocks("43114", limit=7).to_polars()).height == 7
    closing = data.close()
    assert asyncio.iscoroutine(closing) and asyncio.run(closing) is None


def test_create_task_gather_and_task_group(emu: ad.Emulator) -> None:
    async def main() -> tuple[int, list[int], int, int]:
        async with ad.AsyncIndexClient(emu.url) as node:
            chain = node.chain("X/tx")
            task = asyncio.create_task(chain.last_accepted())
            gathered = await asyncio.gather(chain.container(1), chain.container(2), chain.container(3))
            async with asyncio.TaskGroup() as group:
                by_stop = group.create_task(chain.range(10, 30).to_polars())
                by_count = group.create_task(chain.range(30, count=20).to_polars())
            return (await task)["index"], [c["index"] for c in gathered], by_stop.result().height, \
                by_count.result()["index"][0]

    assert asyncio.run(main()) == (199, [1, 2, 3], 20, 30)


def test_a_task_group_that_fails_cancels_its_other_calls() -> None:
    with ad.Emulator(containers=50, latency=1.5) as slow:
        async def main() -> float:
            async with ad.AsyncIndexClient(slow.url, max_retries=0) as node:
                began = time.monotonic()
                with pytest.raises(ExceptionGroup) as caught:
                    async with asyncio.TaskGroup() as group:
                        group.create_task(node.chain("X/tx").last_accepted())
                        group.create_task(node.chain("X/tx").container(10_000))  # past the tip: fails
                assert caught.group_contains(ad.IndexOutOfRangeError) or caught.group_contains(ad.AvaxDataError)
                return time.monotonic() - began

        assert asyncio.run(main()) < 4.0


def test_wait_for_times_out_and_cancels_the_call_and_the_client_stays_usable() -> None:
    with ad.Emulator(containers=50, latency=2.0) as slow:
        async def main() -> tuple[str, bool, int]:
            async with ad.AsyncIndexClient(slow.url) as node:
                chain = node.chain("X/tx")
                pending = chain.last_accepted()
                try:
                    await asyncio.wait_for(pending, 0.2)
                    outcome = "answered"
                except TimeoutError:
                    outcome = "timed out"
                cancelled = pending.cancelled()
                slow.set_latency(0.0)
                return outcome, cancelled, (await chain.container(4))["index"]

        assert asyncio.run(main()) == ("timed out", True, 4)


def test_cancelling_the_task_cancels_the_call() -> None:
    with ad.Emulator(containers=50, latency=2.0) as slow:
        async def main() -> tuple[bool, bool, float]:
            async with ad.AsyncIndexClient(slow.url) as node:
                pending = node.chain("X/tx").range(0, 40).to_polars()
                task = asyncio.create_task(pending)
                await asyncio.sleep(0.1)
                began = time.monotonic()
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
                return task.cancelled(), pending.cancelled(), time.monotonic() - began

        task_cancelled, call_cancelled, took = asyncio.run(main())
        assert task_cancelled and call_cancelled and took < 1.0


def test_a_coroutine_closed_or_cancelled_before_it_ran_sends_nothing(emu: ad.Emulator) -> None:
    async def main() -> tuple[int, str]:
        async with ad.AsyncIndexClient(emu.url) as node:
            before = emu.request_count()
            closed = node.chain("X/tx").last_accepted()
            closed.close()
            task = asyncio.create_task(node.chain("X/tx").container(0))
            task.cancel()  # before its first step
            with pytest.raises(asyncio.CancelledError):
                await task
            sent = emu.request_count() - before
            with pytest.raises(RuntimeError) as caught:
                await closed
            return sent, str(caught.value)

    sent, text = asyncio.run(main())
    assert sent == 0
    assert text == "cannot await AsyncChain.last_accepted(...): the coroutine was closed"


def test_a_coroutine_dropped_while_an_error_propagates_keeps_the_error(emu: ad.Emulator) -> None:
    node = ad.AsyncIndexClient(emu.url)

    def fails() -> None:
        pending = node.chain("X/tx").last_accepted()
        node.chain("X/tx").is_accepted("not-an-id")  # refused at once, while `pending` is dropped
        del pending

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ad.InvalidParameterError, match="not-an-id"):
            fails()
        gc.collect()
    assert any("was never awaited" in str(w.message) for w in caught)


def test_a_coroutine_dropped_unawaited_warns_like_pythons_own(emu: ad.Emulator) -> None:
    async def main() -> None:
        node = ad.AsyncIndexClient(emu.url)
        node.chain("X/tx").last_accepted()  # never awaited
        gc.collect()

    with pytest.warns(RuntimeWarning, match=r"AsyncChain\.last_accepted\(\.\.\.\) was never awaited"):
        asyncio.run(main())


def test_async_iteration_still_awaits_items(emu: ad.Emulator) -> None:
    """``__anext__`` hands out fetched items through a completed awaitable (not a coroutine)."""
    async def main() -> list[int]:
        async with ad.AsyncIndexClient(emu.url) as node:
            return [c["index"] async for c in node.chain("X/tx").range(5, 9)]

    assert asyncio.run(main()) == [5, 6, 7, 8]
