"""The primary network from the P/X world (issue 36, sections 3 and 4): on one ``ad.Emulator()``
the Data API's P- and X-Chain blocks are the Index RPC's ``P/block`` and ``X/block`` containers
(equal ids, heights, parents and seconds), a P-Chain transaction by hash is one its block holds,
the indexes end before the world's now and ``chainInfo`` names the chain asked."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import avax_data as ad

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
CORTINA = dt.datetime(2023, 4, 25, 15, tzinfo=dt.timezone.utc)


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=5) as emulator:
        yield emulator


def _seconds(value: Any) -> int:
    return int(value.timestamp()) if isinstance(value, dt.datetime) else int(value)


@pytest.mark.parametrize(("alias", "path"), [("p-chain", "P/block"), ("x-chain", "X/block")])
def test_data_api_blocks_are_the_index_containers(emu: Any, alias: str, path: str) -> None:
    node, data = ad.IndexClient(emu.url), ad.DataClient(emu.url)
    chain = node.chain(path)
    tip = chain.last_accepted()
    assert tip["timestamp"] < NOW and NOW - tip["timestamp"] < dt.timedelta(days=1), tip["timestamp"]
    blocks = list(data.primary_network_blocks("mainnet", alias, limit=30))
    assert len(blocks) == 30
    for k, block in enumerate(blocks):
        height = tip["index"] - k
        container = chain.container(height)
        parent = chain.container(height - 1)
        assert int(block["blockNumber"]) == height, "newest first, from the index's tip"
        assert block["blockHash"] == container["id"]
        assert block["parentHash"] == parent["id"]
        assert _seconds(block["blockTimestamp"]) == int(container["timestamp"].timestamp())
        assert int(block["blockSizeBytes"]) == len(container["bytes"])
        assert int(block["txCount"]) == len(block["transactions"])
    one = data.primary_network_block("mainnet", alias, blocks[3]["blockHash"])
    assert one["blockHash"] == blocks[3]["blockHash"] and int(one["blockNumber"]) == tip["index"] - 3


def test_a_p_chain_transaction_is_one_its_block_holds(emu: Any) -> None:
    data = ad.DataClient(emu.url)
    txs = list(data.primary_network_transactions("mainnet", "p-chain", limit=25))
    assert len(txs) == 25
    blocks = {b["blockHash"]: b for b in data.primary_network_blocks("mainnet", "p-chain", limit=40)}
    for tx in txs:
        block = blocks[tx["blockHash"]]
        assert tx["txHash"] in block["transactions"]
        assert int(tx["blockNumber"]) == int(block["blockNumber"])
        assert _seconds(tx["blockTimestamp"]) == _seconds(block["blockTimestamp"])
        again = data.primary_network_transaction("mainnet", "p-chain", tx["txHash"])
        assert again["txHash"] == tx["txHash"] and again["txType"] == tx["txType"]
    numbers = [int(t["blockNumber"]) for t in txs]
    assert numbers == sorted(numbers, reverse=True), "newest first"
    with pytest.raises(ad.NotFoundError):
        data.primary_network_transaction("mainnet", "p-chain", "11111111111111111111111111111111LpoYY")


def test_emitted_utxos_are_held_by_their_owners_within_the_supply(emu: Any) -> None:
    data = ad.DataClient(emu.url)
    total = 0
    for tx in data.primary_network_transactions("mainnet", "p-chain", limit=200):
        for utxo in tx["emittedUtxos"]:
            assert utxo["txHash"] == tx["txHash"] and utxo["addresses"], utxo
            assert all(a.startswith("avax1") for a in utxo["addresses"])
            total += int(utxo["amount"])
        for utxo in tx["consumedUtxos"]:
            assert utxo["consumingTxHash"] == tx["txHash"]
    assert 0 < total <= 720_000_000 * 10**9, "within the AVAX supply (nAVAX)"


def test_staking_transactions_carry_the_worlds_stakes_in_their_start_second(emu: Any) -> None:
    data = ad.DataClient(emu.url)
    stakes = [t for t in data.primary_network_transactions(
        "mainnet", "p-chain", tx_types=["AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"], limit=60)]
    assert stakes and all(t["txType"].startswith("AddPermissionless") for t in stakes)
    pending = {r["txHash"]: (r["nodeId"], _seconds(r["startTimestamp"]), int(r["amountStaked"]))
               for r in data.pending_rewards("mainnet", node_ids=sorted({t["nodeId"] for t in stakes}),
                                             limit=2_000)}
    for t in stakes:
        assert _seconds(t["blockTimestamp"]) == _seconds(t["startTimestamp"]), "accepted in the second it starts"
        staked = sum(int(a["amount"]) for a in t["amountStaked"])
        # The pending reward of the stake names this very tx.
        assert pending[t["txHash"]] == (t["nodeId"], _seconds(t["startTimestamp"]), staked)
    # A validator's txHash is its staking tx on the P-Chain.
    for v in list(data.validators("mainnet", limit=1_000))[:12]:
        tx = data.primary_network_transaction("mainnet", "p-chain", v["txHash"])
        assert tx["txType"] == "AddPermissionlessValidatorTx"
        assert (tx["nodeId"], _seconds(tx["startTimestamp"])) == (v["nodeId"], _seconds(v["startTimestamp"]))


def test_chain_info_names_the_chain_asked(emu: Any) -> None:
    import json
    import urllib.request

    for alias in ["p-chain", "x-chain", "c-chain"]:
        url = f"{emu.url}/v1/networks/mainnet/blockchains/{alias}/transactions?pageSize=2"
        with urllib.request.urlopen(url, timeout=30) as response:
            body = json.loads(response.read())
        assert body["chainInfo"] == {"chainName": alias, "network": "mainnet"}


def test_every_index_path_ends_before_now_and_x_tx_at_cortina(emu: Any) -> None:
    world = emu.world
    for path, span in world["index"].items():
        assert span["last_time"] < "2026-01-01T00:00:00Z", path
    assert "2023-04-24" <= world["index"]["X/tx"]["last_time"] < "2023-04-25T15:00:00Z"
    assert world["index"]["P/block"]["last_time"] > "2025-12-31"
    assert world["index"]["X/block"]["last_time"] > "2025-12-31"


STAKER = "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr"


def test_an_address_holds_its_utxos_and_its_balance_is_their_sum(emu: Any) -> None:
    data = ad.DataClient(emu.url)
    utxos = list(data.utxos("mainnet", "p-chain", addresses=[STAKER], limit=1_000))
    assert utxos, "the world's staker 0 holds the stake of its validator"
    assert all(STAKER in u["addresses"] for u in utxos)
    assert len({u["utxoId"] for u in utxos}) == len(utxos), "each UTXO once"
    staked = sum(int(u["amount"]) for u in utxos if u["staked"])
    free = sum(int(u["amount"]) for u in utxos if not u["staked"])
    assert 0 < staked + free <= 720_000_000 * 10**9
    balances = data.primary_network_balances("mainnet", "p-chain", addresses=[f"P-{STAKER}"])["balances"]
    held = {k: sum(int(a["amount"]) for a in v) for k, v in balances.items()}
    assert held["lockedStaked"] == staked and held["unlockedUnstaked"] == free
    # Its staking transactions emitted them: each UTXO's tx is a P-Chain tx paying the address.
    for u in utxos[:5]:
        tx = data.primary_network_transaction("mainnet", "p-chain", u["txHash"])
        assert any(e["utxoId"] == u["utxoId"] for e in tx["emittedUtxos"])
    by_amount = [int(u["amount"]) for u in data.utxos("mainnet", "p-chain", addresses=[STAKER],
                                                        sort_by="amount", sort_order="desc", limit=1_000)]
    assert by_amount == sorted(by_amount, reverse=True) and len(by_amount) == len(utxos)
