"""A user's script, type-checked with ``mypy --strict`` by tests/test_stubs.py (never run)."""

from __future__ import annotations

import asyncio
import datetime

import polars as pl

import avax_data as ad
from avax_data.types import Container


def index_walk(url: str) -> tuple[int, pl.DataFrame]:
    with ad.IndexClient(url, max_retries=2, concurrency=8) as node:
        chain: ad.Chain = node.chain("C/block")
        last: Container = chain.last_accepted()
        decoded: dict[str, object] = chain.last_accepted(decode=True)
        rng: ad.Range = chain.range(0, 1_000, batch_size=256)
        first: Container = next(iter(rng))
        frames: list[pl.DataFrame] = list(rng.batches())
        rest: pl.DataFrame = rng.to_polars()
        written: int = chain.range(0, 10).write_parquet("out.parquet")
        resume_at: int = rng.next_index
        del decoded, first, frames, written
    # One name for the service URL on every client, and its property.
    urls: list[str] = [ad.IndexClient(base_url=url).base_url, ad.DataClient(base_url=url).base_url,
                       ad.MetricsClient(base_url=url).base_url]
    del urls
    return last["index"] + resume_at, rest


def data_api(key: str | None) -> list[int]:
    with ad.DataClient(None, api_key=key, headers={"User-Agent": "me"}) as data:
        chains: list[dict[str, object]] = [dict(c) for c in data.chains(network="mainnet")]
        pager: ad.Pager = data.blocks("43114", page_size=100, limit=500)
        numbers = [int(b["blockNumber"]) for b in pager]
        token: str | None = pager.next_page_token
        frame: pl.DataFrame = data.pending_rewards("mainnet", addresses=["avax1x"]).to_polars(limit=10)
        del chains, token, frame
        return numbers


def metrics() -> float:
    with ad.MetricsClient() as m:
        series = m.metric("43114", "txCount", interval="day", start=datetime.date(2024, 1, 1), end=1_706_745_600)
        total = sum(float(p["value"]) for p in series)
        summary = m.icm_summary(group_by=["srcBlockchainId", "destBlockchainId"])
        return total + (summary.height if isinstance(summary, pl.DataFrame) else 0)


async def async_walks(url: str) -> int:
    async with ad.AsyncIndexClient(url) as node:
        chain: ad.AsyncChain = node.chain("X/tx")
        last: Container = await chain.last_accepted()
        count = 0
        async for c in chain.range(0, 100):
            count += c["index"]
        frame: pl.DataFrame = await chain.range(0, 10).to_polars()
    async with ad.AsyncDataClient() as data:
        async for block in data.blocks("43114"):
            count += int(block["blockNumber"])
        block_one: dict[str, object] = await data.block("43114", 1)
        await data.close()
    return count + last["index"] + frame.height + len(block_one)


def errors() -> str:
    try:
        ad.IndexClient("http://127.0.0.1:9650").chain("X/tx").range(0).to_polars()
    except ad.IndexOutOfRangeError as exc:
        return f"{exc.rpc_message} at {exc.next_index}"
    except ad.AvaxDataError as exc:
        return str(exc)
    return ""


def emulator() -> int:
    with ad.Emulator(containers=100, faults={"502": 0.1}, fault_seed=3) as emu:
        emu.advance("X/tx", 5)
        return emu.request_count() + len(emu.fault_counts())



def cache() -> int:
    everything: int = ad.cache_info()["entries"]  # $AVAX_DATA_CACHE
    cleared: int = ad.cache_clear("/tmp/avax-cache")["entries"]
    return everything + cleared


if __name__ == "__main__":
    asyncio.run(async_walks("http://127.0.0.1:9650"))
