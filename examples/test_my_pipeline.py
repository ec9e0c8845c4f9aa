"""Testing your own code with avax-data's pytest fixtures: copy this file into your tests.

The fixtures come with the package (no conftest needed): ``avax_emulator`` is an offline
emulator of the node's Index RPC, the Data API and the Metrics API, and ``avax_index_client``,
``avax_data_client``, ``avax_metrics_client`` (and their ``avax_async_*`` twins) are clients on
it. Run with ``python -m pytest examples/test_my_pipeline.py``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import polars as pl
import pytest

import avax_data as ad

# --- your code: what you would import from your own package -----------------------------------


def blocks_per_minute(node: ad.IndexClient, start: int, count: int) -> pl.DataFrame:
    """Accepted C-chain blocks per minute of acceptance over ``[start, start + count)``."""
    blocks = node.chain("C/block").range(start, count=count).to_polars()
    return (
        blocks.group_by(pl.col("timestamp").dt.truncate("1m").alias("minute"))
        .agg(pl.len().alias("blocks"))
        .sort("minute")
    )


def busiest_block(data: ad.DataClient, chain_id: str, last: int) -> dict[str, Any]:
    """The block with the most transactions among a chain's ``last`` newest blocks (the newest
    of them on a tie)."""
    return max(data.blocks(chain_id, limit=last), key=lambda b: (b["txCount"], b["blockNumber"]))


async def newest_indexes(node: ad.AsyncIndexClient, paths: list[str]) -> dict[str, int]:
    """The last accepted index of each path, asked concurrently."""
    lasts = await asyncio.gather(*(node.chain(p).last_accepted() for p in paths))
    return {path: last["index"] for path, last in zip(paths, lasts)}


# --- its tests ---------------------------------------------------------------------------------


@pytest.mark.avax_emulator(containers=600)
def test_blocks_per_minute_counts_every_block_once(avax_index_client: ad.IndexClient) -> None:
    per_minute = blocks_per_minute(avax_index_client, 0, 600)
    assert per_minute["blocks"].sum() == 600
    assert per_minute["minute"].is_sorted() and per_minute["minute"].is_unique().all()


# A flaky node: 20% of requests answer 502, 10% reset the connection, half the range calls come
# back short. The client retries (here with a short backoff) and re-requests, so your result must
# not change.
@pytest.mark.avax_emulator(containers=600, faults={"502": 0.2, "reset": 0.1, "short_batch": 0.5}, fault_seed=4)
@pytest.mark.avax_client(backoff=0.01)
def test_blocks_per_minute_survives_a_flaky_node(
    avax_emulator: ad.Emulator,
    avax_index_client: ad.IndexClient,
    avax_emulator_factory: Any,
) -> None:
    steady = avax_emulator_factory(containers=600)  # same seed, no faults: the same chain
    with ad.IndexClient(steady.url) as reference:
        expected = blocks_per_minute(reference, 0, 600)
    assert blocks_per_minute(avax_index_client, 0, 600).equals(expected)
    assert sum(avax_emulator.fault_counts().values()) > 0  # the faults did happen


# No retries: a failing service reaches your code as a typed exception.
@pytest.mark.avax_emulator(faults={"503": 1.0})
@pytest.mark.avax_client(max_retries=0)
def test_busiest_block_reports_an_outage(avax_data_client: ad.DataClient) -> None:
    with pytest.raises(ad.ServerError) as info:
        busiest_block(avax_data_client, "43114", last=50)
    assert info.value.status == 503


@pytest.mark.avax_emulator(data_blocks_per_chain=400)
def test_busiest_block_is_among_the_newest(avax_data_client: ad.DataClient) -> None:
    block = busiest_block(avax_data_client, "43114", last=50)
    newest = avax_data_client.blocks("43114", limit=50).to_polars()
    assert block["blockNumber"] >= 400 - 50
    assert block["txCount"] == newest["txCount"].max()


# The async fixtures are plain fixtures: run the coroutine yourself (or write an ``async def``
# test and let pytest-asyncio or anyio run it).
@pytest.mark.avax_emulator(containers={"C/block": 10, "P/block": 20, "X/tx": 30, "X/block": 40, "X/vtx": 50})
def test_newest_indexes_asks_every_path(avax_async_index_client: ad.AsyncIndexClient) -> None:
    paths = ["C/block", "P/block", "X/tx"]
    assert asyncio.run(newest_indexes(avax_async_index_client, paths)) == {"C/block": 9, "P/block": 19, "X/tx": 29}
