"""Lists with a time window walked in shards of seconds side by side (``concurrency=``), against
the emulator's P-Chain (whose transactions share their block's second, so several items sit on
every cut second) and its staking metrics: the sequential walk's rows in its order, each once;
the window's ends; a resume inside a shard; faults mid-shard; the compute-unit budget (never a
429 under it); every consumer (iteration sync and async, ``to_polars``, ``write_parquet``,
the CLI); ``plan()``; the one windowed list that is not cut."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from _cli import cli

import avax_data as ad

NET, CHAIN = "mainnet", "p-chain"
PAGE = 25  # pages end inside blocks: several transactions share each cut second


@pytest.fixture(scope="module")
def world() -> Any:
    with ad.Emulator(seed=5) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def sequential(world: ad.Emulator) -> pl.DataFrame:
    with ad.DataClient(world.url) as data:
        return data.primary_network_transactions(NET, CHAIN, page_size=PAGE, concurrency=1).to_polars()


def seconds(df: pl.DataFrame) -> list[int]:
    return df["blockTimestamp"].dt.epoch("s").to_list()


def test_a_time_sharded_walk_hands_out_the_sequential_rows_in_order_each_once(
        world: ad.Emulator, sequential: pl.DataFrame) -> None:
    with ad.DataClient(world.url) as data:
        before = world.request_count()
        sharded = data.primary_network_transactions(NET, CHAIN, page_size=PAGE, concurrency=6).to_polars()
        requests = world.request_count() - before
    assert sequential.height > 1_000
    assert sharded.equals(sequential), "identical rows, columns and order"
    assert sharded["txHash"].n_unique() == sharded.height, "each item once"
    stamps = seconds(sharded)
    assert stamps == sorted(stamps, reverse=True), "newest first"
    assert sum(a == b for a, b in zip(stamps, stamps[1:])) > 100, "many items share a second"
    assert requests > -(-sequential.height // PAGE), "the walk split into shards"


@pytest.mark.parametrize(("page_size", "concurrency"), [(3, 8), (10, 2), (100, 5)])
def test_a_window_holds_both_ends_and_items_on_cut_seconds_come_once(
        world: ad.Emulator, sequential: pl.DataFrame, page_size: int, concurrency: int) -> None:
    stamps = seconds(sequential)
    shared = [a for a, b in zip(stamps, stamps[1:]) if a == b]
    end, start = shared[len(shared) // 4], shared[len(shared) * 3 // 4]
    expected = sequential.filter(pl.col("blockTimestamp").dt.epoch("s").is_between(start, end))
    with ad.DataClient(world.url) as data:
        got = data.primary_network_transactions(NET, CHAIN, start=start, end=end, page_size=page_size,
                                                concurrency=concurrency).to_polars()
    assert got.equals(expected)
    assert (seconds(got)[0], seconds(got)[-1]) == (end, start), "startTimestamp and endTimestamp counted in"


def test_every_consumer_sees_the_same_rows(world: ad.Emulator, sequential: pl.DataFrame, tmp_path: Path) -> None:
    hashes = sequential["txHash"].to_list()
    with ad.DataClient(world.url) as data:
        assert [i["txHash"] for i in data.primary_network_transactions(NET, CHAIN, page_size=PAGE)] == hashes
        out = tmp_path / "t.parquet"
        data.primary_network_transactions(NET, CHAIN, page_size=PAGE, concurrency=4).write_parquet(out)
        assert pl.read_parquet(out)["txHash"].to_list() == hashes

    async def walk() -> list[str]:
        async with ad.AsyncDataClient(world.url) as data:
            pager = data.primary_network_transactions(NET, CHAIN, page_size=PAGE, concurrency=5)
            return [i["txHash"] async for i in pager]

    assert asyncio.run(walk()) == hashes


def test_the_cli_walks_in_time_shards(world: ad.Emulator, sequential: pl.DataFrame, capsys: Any,
                                      tmp_path: Path) -> None:
    out = tmp_path / "cli.parquet"
    result = cli(capsys, "data", "primary-network-transactions", NET, CHAIN, "--page-size", str(PAGE),
                 "--concurrency", "4", "--base-url", world.url, "--out", str(out), "--quiet")
    assert result.code == 0, result.err
    assert pl.read_parquet(out)["txHash"].to_list() == sequential["txHash"].to_list()


def test_a_walk_resumed_inside_a_shard_hands_out_exactly_the_rest(
        world: ad.Emulator, sequential: pl.DataFrame) -> None:
    with ad.DataClient(world.url) as data:
        first = data.primary_network_transactions(NET, CHAIN, page_size=PAGE, concurrency=4)
        head = []
        for item in first:
            head.append(item["txHash"])
            if len(head) == 777:
                break
        state = first.resume_state
        assert state["next_page_token"].startswith("avax-shard:2:") and state["items_read"] == 777
        later = data.primary_network_transactions(NET, CHAIN, page_size=PAGE, concurrency=4)
        later.resume(state)
        rest = later.to_polars()
    assert head == sequential["txHash"].head(777).to_list()
    assert rest.equals(sequential.slice(777)), "no row lost or repeated"


def test_faults_mid_shard_are_retried_without_losing_or_repeating_rows(sequential: pl.DataFrame) -> None:
    faults = {"500": 0.05, "429": 0.05, "reset": 0.05}
    with ad.Emulator(seed=5, faults=faults, fault_seed=7) as local:
        with ad.DataClient(local.url, max_retries=10, backoff=0.0) as data:
            got = data.primary_network_transactions(NET, CHAIN, page_size=PAGE, concurrency=6).to_polars()
        injected = local.fault_counts()
    assert sum(injected.values()) > 5, injected
    assert got.equals(sequential)


def test_a_walk_kept_to_the_budget_never_sees_a_429(sequential: pl.DataFrame) -> None:
    with ad.Emulator(seed=5) as local:
        local.set_compute_budget(300_000)  # 50 pages of 100 units a second
        with ad.DataClient(local.url, compute_units_per_minute=300_000) as data:
            got = data.primary_network_transactions(NET, CHAIN, page_size=PAGE).to_polars()
        usage = local.compute_budget_use()
        statuses = [s for _, _, s in local.request_log(with_status=True)]
    assert got.equals(sequential)
    assert usage["refused"] == 0 and 429 not in statuses
    assert usage["spent"] == 100 * len(statuses), "a page of the primary network's transactions costs 100 units"


def test_an_empty_window_costs_one_request(world: ad.Emulator) -> None:
    with ad.DataClient(world.url) as data:
        before = world.request_count()
        got = data.primary_network_transactions(NET, CHAIN, start=1_000, end=2_000, concurrency=8).to_polars()
        assert got.height == 0
        assert world.request_count() - before == 1


def test_plan_names_the_time_shards(world: ad.Emulator) -> None:
    with ad.DataClient(world.url, tier="pro") as data:
        plan = data.primary_network_transactions(NET, CHAIN, start=1_700_000_000, end=1_700_086_400,
                                                 concurrency=7).plan()
        open_plan = data.primary_network_blocks(NET, CHAIN, concurrency=3).plan()
    assert "seconds 1700000000..=1700086400 in shards, up to 7 in flight" in plan.operation
    assert "seconds 1599696000 up to the newest item in shards, up to 3 in flight" in open_plan.operation
    assert plan.units_per_request == 100


def test_a_staking_metric_walked_in_time_shards_equals_its_sequential_walk(world: ad.Emulator) -> None:
    with ad.MetricsClient(world.url) as metrics:
        one = metrics.staking(NET, "validatorWeight", page_size=10, concurrency=1).to_polars()
        sharded = metrics.staking(NET, "validatorWeight", page_size=10, concurrency=4).to_polars()
        default = metrics.staking(NET, "validatorWeight", page_size=10).to_polars()
    assert one.height > 100
    assert sharded.equals(one) and default.equals(one)


def test_the_windowed_list_whose_items_have_no_time_refuses_concurrency(world: ad.Emulator) -> None:
    with ad.MetricsClient(world.url) as metrics:
        with pytest.raises(ad.InvalidParameterError, match="getValidatorsByDateRange is walked in sequence") as caught:
            metrics._call_list("getValidatorsByDateRange", {"subnet_id": "11111111111111111111111111111111LpoYY"}, None, None, 4)
    assert caught.value.param == "concurrency"
