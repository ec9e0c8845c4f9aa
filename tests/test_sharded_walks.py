"""Block-ranged Data API lists walked in shards side by side (``concurrency=``), against the
emulator's busy address (100,000+ ERC-20 transfers): the sequential walk's rows in its order,
each once; the shard edges; a resume inside a shard; faults mid-shard; the compute-unit budget
(never a 429 under it); an empty range for one request; bad ``concurrency=`` values."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad

CHAIN = 43114
RANGE = {"start_block": 9_000, "end_block": 9_700}


@pytest.fixture(scope="module")
def world() -> Any:
    with ad.Emulator(seed=3, containers=10) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def busy(world: ad.Emulator) -> str:
    return str(world.world["busy_address"]["address"])


@pytest.fixture(scope="module")
def sequential(world: ad.Emulator, busy: str) -> pl.DataFrame:
    with ad.DataClient(world.url) as data:
        return data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=1).to_polars()


def keys(df: pl.DataFrame) -> list[tuple[str, str, int]]:
    return list(zip(df["blockNumber"].cast(pl.Utf8).to_list(), df["txHash"].to_list(), df["logIndex"].to_list()))


def test_the_world_names_the_busy_address_and_its_100000_transfers(world: ad.Emulator) -> None:
    named = world.world["busy_address"]
    assert named["evm_chain_id"] == CHAIN
    assert named["erc20_transfers"] >= 100_000
    assert named["address"].startswith("0x") and len(named["address"]) == 42


def test_a_sharded_walk_hands_out_the_sequential_rows_in_order_each_once(
        world: ad.Emulator, busy: str, sequential: pl.DataFrame) -> None:
    with ad.DataClient(world.url) as data:
        sharded = data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=6).to_polars()
    assert sequential.height > 10_000
    assert sharded.equals(sequential), "identical rows, columns and order"
    assert len(set(keys(sharded))) == sharded.height, "each item once"
    blocks = sharded["blockNumber"].cast(pl.Int64)
    assert blocks.max() == 9_699 and blocks.min() == 9_000, "startBlock inclusive, endBlock exclusive"
    assert blocks.to_list() == sorted(blocks.to_list(), reverse=True), "newest first"


def test_the_default_concurrency_shards_and_every_consumer_sees_the_same_rows(
        world: ad.Emulator, busy: str, sequential: pl.DataFrame, tmp_path: Path) -> None:
    with ad.DataClient(world.url) as data:
        items = list(data.erc20_transfers(CHAIN, busy, **RANGE))
        assert [(str(i["blockNumber"]), i["txHash"], i["logIndex"]) for i in items] == keys(sequential)
        out = tmp_path / "t.parquet"
        data.erc20_transfers(CHAIN, busy, **RANGE).write_parquet(out)
        assert pl.read_parquet(out).equals(sequential)
        assert data.erc20_transfers(CHAIN, busy, **RANGE).to_polars(limit=250).equals(sequential.head(250))

    async def walk() -> list[Any]:
        async with ad.AsyncDataClient(world.url) as data:
            return [i async for i in data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=5)]

    got = asyncio.run(walk())
    assert [(str(i["blockNumber"]), i["txHash"], i["logIndex"]) for i in got] == keys(sequential)


@pytest.mark.parametrize("end", [9_001, 9_002, 9_051])
def test_items_on_shard_edges_come_once(world: ad.Emulator, busy: str, sequential: pl.DataFrame, end: int) -> None:
    # a dense single block, two blocks, and a range whose first page splits into one-block pieces
    with ad.DataClient(world.url) as data:
        got = data.erc20_transfers(CHAIN, busy, start_block=9_000, end_block=end, page_size=10,
                                   concurrency=8).to_polars()
    expected = sequential.filter(pl.col("blockNumber").cast(pl.Int64) < end)
    assert got.equals(expected)


def test_a_walk_resumed_inside_a_shard_hands_out_exactly_the_rest(
        world: ad.Emulator, busy: str, sequential: pl.DataFrame) -> None:
    with ad.DataClient(world.url) as data:
        first = data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=4)
        head = []
        for item in first:
            head.append(item)
            if len(head) == 3_333:
                break
        state = first.resume_state
        assert state["next_page_token"].startswith("avax-shard:2:") and state["items_read"] == 3_333
        later = data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=4)
        later.resume(state)
        rest = later.to_polars()
    assert rest.equals(sequential.slice(3_333)), "no row lost or repeated"


def test_faults_mid_shard_are_retried_without_losing_or_repeating_rows(busy: str, sequential: pl.DataFrame) -> None:
    faults = {"500": 0.05, "429": 0.05, "reset": 0.05}
    with ad.Emulator(seed=3, containers=10, faults=faults, fault_seed=11) as local:
        with ad.DataClient(local.url, max_retries=10, backoff=0.0) as data:
            got = data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=6).to_polars()
        injected = local.fault_counts()
    assert sum(injected.values()) > 5, injected
    assert got.equals(sequential)


def test_a_walk_kept_to_the_budget_never_sees_a_429(busy: str, sequential: pl.DataFrame) -> None:
    with ad.Emulator(seed=3, containers=10) as local:
        local.set_compute_budget(60_000)  # 50 pages a second: the walk lasts a few seconds
        with ad.DataClient(local.url, compute_units_per_minute=60_000) as data:
            pager = data.erc20_transfers(CHAIN, busy, **RANGE)
            got = pager.to_polars()
        usage = local.compute_budget_use()
        statuses = [s for _, _, s in local.request_log(with_status=True)]
    assert got.equals(sequential)
    assert usage["refused"] == 0 and 429 not in statuses
    assert usage["spent"] == 20 * len(statuses)


def test_a_client_spending_past_the_budget_gets_the_services_429_and_still_hands_out_every_row(
        busy: str, sequential: pl.DataFrame) -> None:
    with ad.Emulator(seed=3, containers=10) as local:
        local.set_compute_budget(20_000)  # a bucket of 100 pages: the walk (~130 pages at once) overflows it
        with ad.DataClient(local.url, max_retries=20) as data:  # no budget of its own, 8 shards at once
            got = data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=8).to_polars()
        usage = local.compute_budget_use()
    assert usage["refused"] > 0, "the emulator enforces the budget"
    assert got.equals(sequential)


def test_an_empty_range_costs_one_request(world: ad.Emulator) -> None:
    nobody = "0x" + "ab" * 20
    with ad.DataClient(world.url) as data:
        before = world.request_count()
        got = data.erc20_transfers(CHAIN, nobody, start_block=0, concurrency=8).to_polars()
        assert got.height == 0
        assert world.request_count() - before == 1


def test_plan_names_the_shards_and_their_cost(world: ad.Emulator, busy: str) -> None:
    with ad.DataClient(world.url, tier="pro") as data:
        plan = data.erc20_transfers(CHAIN, busy, **RANGE, concurrency=7).plan()
    assert "blocks 9000..=9699 in shards, up to 7 in flight" in plan.operation
    assert plan.units_per_request == 20 and plan.units_per_minute == 20_000
    assert any("shards" in u for u in plan.to_dict()["unknown"])


@pytest.mark.parametrize("bad", [0, 65, -1, 2.5, "4", True])
def test_bad_concurrency_is_refused_before_any_request(world: ad.Emulator, busy: str, bad: Any) -> None:
    with ad.DataClient(world.url) as data:
        before = world.request_count()
        with pytest.raises(ad.InvalidParameterError, match=r"invalid concurrency=.*: an int in \[1, 64\]") as caught:
            data.erc20_transfers(CHAIN, busy, concurrency=bad)
        assert caught.value.param == "concurrency"
        assert world.request_count() == before


def test_concurrency_on_a_list_without_a_block_range_is_refused(world: ad.Emulator) -> None:
    with ad.DataClient(world.url) as data:
        with pytest.raises(ad.InvalidParameterError, match="listLatestBlocksAllChains takes no block range"):
            data._call_list("listLatestBlocksAllChains", {}, None, None, 4)
