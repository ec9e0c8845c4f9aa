"""A user's asyncio script, type-checked with ``mypy --strict`` by tests/test_stubs.py (never run):
``await`` on an async client's call gives what the sync call returns."""

from __future__ import annotations

import asyncio
import datetime

import polars as pl

import avax_data as ad
from avax_data.types import Container, DecodedRow


async def tips(url: str) -> list[int]:
    async with ad.AsyncIndexClient(url) as node:
        chains = [node.chain(p) for p in ("X/tx", "P/block", "C/block")]
        last: list[Container] = await asyncio.gather(*(c.last_accepted() for c in chains))
        row: DecodedRow = await chains[2].last_accepted(decode=True)
        one: Container = await chains[0].container(id="2oGdB...")
        del row, one
        return [c["index"] for c in last]


async def pages(key: str) -> int:
    async with ad.AsyncDataClient(api_key=key) as data:
        pager: ad.AsyncPager = data.blocks("43114", limit=100)
        plan: ad.Plan = pager.plan()
        frame: pl.DataFrame = await pager.to_polars()
        count = 0
        async for page in pager.restart().pages():
            count += len(page)
        async for batch in pager.restart().batches():
            count += batch.height
        supply: dict[str, object] = await data.avax_supply()
        del plan, supply
        return count + frame.height


async def metrics() -> float:
    async with ad.AsyncMetricsClient() as m:
        total = 0.0
        async for point in m.metric(43114, "txCount", interval="day", start=datetime.date(2024, 1, 1)):
            total += float(point["value"])
        await m.close()
        return total


async def follow(url: str) -> int:
    node = ad.AsyncIndexClient(url)
    it = node.chain("C/block").follow(poll_interval=0.5)
    async for container in it:
        it.close()
        return container["index"]
    return -1


async def coroutines(url: str) -> int:
    """Async calls are coroutines: tasks, task groups and ``asyncio.run`` take them."""
    async with ad.AsyncIndexClient(url) as node:
        chain = node.chain("X/tx")
        task: asyncio.Task[Container] = asyncio.create_task(chain.last_accepted())
        async with asyncio.TaskGroup() as group:
            framed = group.create_task(chain.range(10, 20).to_polars())
            counted = group.create_task(chain.range(10, count=10).to_polars())
        one: Container = await asyncio.wait_for(chain.container(0), timeout=5)
        rng: ad.AsyncRange = chain.range(0, count=5)
        stop: int | None = rng.stop
        del one, stop
        return (await task)["index"] + framed.result().height + counted.result().height


def run_one(url: str) -> pl.DataFrame:
    async def main() -> pl.DataFrame:
        async with ad.AsyncDataClient(base_url=url) as data:
            return await data.blocks("43114", limit=10).to_polars()

    frame: pl.DataFrame = asyncio.run(ad.AsyncDataClient(base_url=url).blocks("43114", limit=5).to_polars())
    return pl.concat([frame, asyncio.run(main())])
