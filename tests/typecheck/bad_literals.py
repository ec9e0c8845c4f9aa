"""Misspelt names a strict type check refuses (tests/test_stubs.py; never run): every line marked
``# wrong`` must be an error under ``mypy --strict``, every other line must pass."""

from __future__ import annotations

import avax_data as ad
from avax_data.types import IndexPathName, MetricName


def metrics(m: ad.MetricsClient) -> None:
    m.metric("43114", "txCount", interval="day")
    m.metric("43114", "txcount", interval="day")  # wrong
    m.metric("43114", "txCount", interval="Day")  # wrong
    m.chains(network="Mainnet")  # wrong
    m.icm_summary(group_by="srcBlockchainId")
    m.icm_summary(group_by="srcblockchainid")  # wrong


def data(d: ad.DataClient) -> None:
    d.chains(network="mainnet", feature="teleporter")
    d.chains(feature="nftindexing")  # wrong
    d.pending_rewards("mainnet", addresses="P-avax1...", sort_order="ASC")  # wrong
    d.blocks("43114").write_parquet("b.parquet", compression="brotli")  # wrong


def index(node: ad.IndexClient, emu: ad.Emulator) -> None:
    node.chain("C/block")
    node.chain("c/block")  # wrong
    emu.expected_container("x/tx", 0)  # wrong


async def forgotten(data: ad.AsyncDataClient) -> None:
    chain = data.chain("43114")
    chain["chainId"]  # wrong
    awaited = await data.chain("43114")
    awaited["chainId"]


def names(path: IndexPathName, metric: MetricName) -> tuple[str, str]:
    return path, metric
