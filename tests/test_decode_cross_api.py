"""One world behind all three services: decoded index containers equal what the Data API and
the Metrics API of the same emulator say (C-chain blocks and their transactions, hourly tx
counts, P-chain stakes), and every index decodes without an error."""

from __future__ import annotations

import datetime

import polars as pl
import pytest

import avax_data as ad

BLOCKS = 3000
STAKING = ["AddValidatorTx", "AddDelegatorTx", "AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"]


@pytest.fixture(scope="module")
def world() -> ad.Emulator:
    with ad.Emulator(seed=3, containers=BLOCKS, data_blocks_per_chain=BLOCKS) as emu:
        yield emu


@pytest.fixture(scope="module")
def c_blocks(world: ad.Emulator) -> pl.DataFrame:
    with ad.IndexClient(world.url) as node:
        return node.chain("C/block").range(0, BLOCKS, decode="strict").to_polars()


def test_decoded_c_blocks_equal_the_data_api_blocks(world: ad.Emulator, c_blocks: pl.DataFrame) -> None:
    with ad.DataClient(base_url=world.url) as data:
        api = data.blocks("43114", page_size=100).to_polars().sort("blockNumber")
    assert api.height == BLOCKS
    joined = c_blocks.join(api, left_on="number", right_on="blockNumber", how="inner")
    assert joined.height == BLOCKS
    assert joined["hash"].to_list() == joined["blockHash"].to_list()
    assert joined["parent_hash"].to_list() == joined["parentHash"].to_list()
    assert joined["time"].to_list() == joined["blockTimestamp"].to_list()
    assert joined["gas_used"].cast(pl.Int64).to_list() == joined["gasUsed"].cast(pl.Int64).to_list()
    assert joined["tx_count"].cast(pl.Int64).to_list() == joined["txCount"].cast(pl.Int64).to_list()
    # The decoded chain links: each block's parent is the previous block's hash.
    assert c_blocks["parent_hash"][1:].to_list() == c_blocks["hash"][:-1].to_list()
    # Envelopes: a pre-fork prefix, signed and unsigned stateless blocks, Granite blocks.
    kinds = set(c_blocks["block_kind"].to_list())
    assert {"pre_fork", "stateless"} <= kinds
    signed = c_blocks.filter(pl.col("block_kind") == "stateless")
    assert signed["proposer"].null_count() not in (0, signed.height)


def test_decoded_transactions_equal_the_data_api_transactions_of_a_block(world: ad.Emulator,
                                                                        c_blocks: pl.DataFrame) -> None:
    txs = ad.transactions(c_blocks)
    assert txs.height == int(c_blocks["tx_count"].sum())
    assert txs["hash"].n_unique() == txs.height
    assert txs.group_by("block_number").len().sort("block_number")["len"].to_list() == \
        c_blocks.filter(pl.col("tx_count") > 0)["tx_count"].cast(pl.UInt32).to_list()


def test_hourly_tx_counts_of_the_metrics_api_equal_the_decoded_counts(world: ad.Emulator,
                                                                     c_blocks: pl.DataFrame) -> None:
    per_hour = (
        c_blocks.group_by(pl.col("time").dt.truncate("1h").alias("hour"))
        .agg(pl.col("tx_count").sum().cast(pl.Int64).alias("decoded"))
        .sort("hour")
    )
    first, last = c_blocks["time"].min(), c_blocks["time"].max()
    start = per_hour["hour"][0]
    end = per_hour["hour"][-1] + datetime.timedelta(hours=1)
    with ad.MetricsClient(base_url=world.url) as metrics:
        series = metrics.metric("43114", "txCount", interval="hour", start=start, end=end).to_polars()
    # The Data API chain is exactly these blocks, so every hour after the first block's compares
    # whole; the hour of the first block also holds the chain's history before that block (the
    # series reach back to the chain's launch), so it holds more than its blocks.
    joined = per_hour.join(series, left_on="hour", right_on="timestamp").sort("hour")
    assert joined.height == per_hour.height >= 2, (first, last)
    whole = joined.slice(1)
    assert whole["decoded"].to_list() == whole["value"].cast(pl.Int64).to_list()
    assert first > joined["hour"][0], "the first block lies inside its hour"
    assert joined["value"][0] > joined["decoded"][0], "the history before the first block counts in its hour"


def test_p_chain_staking_txs_are_the_data_api_stakes() -> None:
    # The stakes start after Banff: each is an AddPermissionless*Tx in the P block accepted in the
    # second it starts (pending at now, or ended and rewarded: historical), among the last blocks
    # of the P/block span (which ends at the world's now when the index holds the default span).
    with ad.Emulator(seed=3, data_blocks_per_chain=BLOCKS) as world, ad.IndexClient(world.url) as node:
        chain = node.chain("P/block")
        blocks = chain.range(0, chain.last_accepted()["index"] + 1, decode="strict").to_polars()
        with ad.DataClient(base_url=world.url) as data:
            txs = blocks.select("height", "block_time", "txs").explode("txs").drop_nulls("txs").unnest("txs")
            stakes = txs.filter(pl.col("tx_type").is_in(STAKING))
            nodes = sorted(set(stakes["node_id"].to_list()))
            columns = ["nodeId", "startTimestamp", "endTimestamp", "amountStaked", "txHash"]
            lists = [data.pending_rewards, data.historical_rewards]
            frames = [f("mainnet", node_ids=nodes, page_size=100).to_polars() for f in lists]
            rewards = pl.concat([frame.select(columns) for frame in frames])
    assert set(blocks["block_kind"].to_list()) == {"pre_fork", "stateless", "option", "granite"}
    assert stakes.height >= 10
    assert set(stakes["tx_type"].to_list()) == {"AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"}
    assert stakes["block_time"].to_list() == stakes["start_time"].to_list(), "accepted in the second it starts"
    assert stakes["start_time"].is_sorted()
    key = ["nodeId", "startTimestamp", "endTimestamp"]
    api = rewards.select(*key, pl.col("amountStaked").cast(pl.UInt64).alias("weight"), "txHash")
    ours = stakes.select(pl.col("node_id").alias("nodeId"), pl.col("start_time").alias("startTimestamp"),
                         pl.col("end_time").alias("endTimestamp"), "weight", pl.col("tx_id").alias("txHash"))
    missing = ours.join(api, on=[*key, "weight", "txHash"], how="anti")
    assert missing.height == 0, missing
    assert ours.join(api, on=[*key, "weight", "txHash"], how="semi").height == ours.height


def test_a_p_index_shorter_than_the_span_is_a_node_behind_the_stakes(world: ad.Emulator) -> None:
    with ad.IndexClient(world.url) as node, ad.DataClient(base_url=world.url) as data:
        blocks = node.chain("P/block").range(0, BLOCKS, decode="strict").to_polars()
        nodes = world.world["validators"]["mainnet"]
        lists = [data.pending_rewards, data.historical_rewards]
        first_stake = min(r["startTimestamp"] for f in lists for r in f("mainnet", node_ids=nodes, page_size=100))
    assert blocks.height == BLOCKS and set(blocks["block_kind"].to_list()) == {"pre_fork", "stateless", "option"}
    txs = blocks.select("txs").explode("txs").drop_nulls("txs").unnest("txs")
    assert txs.filter(pl.col("tx_type").is_in(STAKING)).height == 0
    assert blocks["timestamp"].max() < first_stake, "its last block is accepted before the first stake starts"


@pytest.mark.parametrize("path", ["C/block", "P/block", "X/block", "X/tx"])
def test_every_index_of_the_emulator_decodes_strictly(world: ad.Emulator, path: str) -> None:
    with ad.IndexClient(world.url) as node:
        chain = node.chain(path)
        df = chain.range(0, 1500, decode="strict").to_polars()
        tip = chain.last_accepted(decode=True)
    assert df.height == 1500 and df["decode_error"].null_count() == 1500
    assert tip["decode_error"] is None and tip["index"] == BLOCKS - 1
    if path == "X/tx":
        assert df["tx_id"].to_list() == df["id"].to_list()
    else:
        assert df["inner_id"].null_count() == 0
