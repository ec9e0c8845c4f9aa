"""The X-Chain in the Data API from the X world (issue 36, sections 3 and 4): on one
``ad.Emulator()`` the Data API's X-Chain transactions are the txs of the Index RPC's ``X/block``
containers (after Cortina) and its ``X/tx`` containers (before), with equal ids, heights and
seconds; an address holds exactly the UTXOs those txs paid it and its balance is their sum; bad
addresses are refused before any request; pages give each tx once, in order."""

from __future__ import annotations

import datetime as dt
import json
import urllib.error
import urllib.request
from collections import defaultdict
from typing import Any

import pytest

import avax_data as ad

CORTINA = dt.datetime(2023, 4, 25, 15, tzinfo=dt.timezone.utc)
X_ID = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"
C_ID = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
AVAX = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"
SUPPLY = 720_000_000 * 10**9


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=8) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def data(emu: Any) -> Any:
    with ad.DataClient(emu.url) as client:
        yield client


def _seconds(value: Any) -> int:
    return int(value.timestamp()) if isinstance(value, dt.datetime) else int(value)


def _http(emu: Any, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(emu.url + path, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _owners(txs: list[dict[str, Any]]) -> list[str]:
    """The owners of the X-held outputs of ``txs``, sorted, once."""
    return sorted({u["addresses"][0] for t in txs for u in t["emittedUtxos"] if u["consumedOnChainId"] == X_ID})


def test_an_x_block_containers_txs_are_the_data_apis_transactions_of_that_block(emu: Any, data: Any) -> None:
    chain = ad.IndexClient(emu.url).chain("X/block")
    tip = chain.last_accepted()["index"]
    txs = list(data.primary_network_transactions("mainnet", "x-chain", limit=80))
    assert len(txs) == 80
    by_height: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for tx in txs:
        assert tx["chainFormat"] == "linear"
        by_height[int(tx["blockHeight"])].append(tx)
    assert max(by_height) == tip, "newest first, from the index's tip"
    for height, listed in by_height.items():
        container = chain.container(height)
        decoded = ad.decode_container("X/block", container["bytes"], strict=True)
        ids = list(decoded["tx_ids"])
        if height != min(by_height):  # the oldest block of the page may continue on the next one
            assert [t["txHash"] for t in listed] == ids[::-1], f"block {height}: newest first"
        assert {t["blockHash"] for t in listed} == {container["id"]}
        assert {_seconds(t["timestamp"]) for t in listed} == {int(container["timestamp"].timestamp())}
    one = data.primary_network_transaction("mainnet", "x-chain", txs[5]["txHash"])
    assert one == txs[5]
    with pytest.raises(ad.NotFoundError):
        data.primary_network_transaction("mainnet", "x-chain", AVAX)


def test_before_cortina_the_transactions_are_the_x_tx_containers(emu: Any, data: Any) -> None:
    chain = ad.IndexClient(emu.url).chain("X/tx")
    tip = chain.last_accepted()
    assert tip["timestamp"] < CORTINA
    txs = list(data.primary_network_transactions("mainnet", "x-chain", end=CORTINA - dt.timedelta(seconds=1), limit=15))
    for k, tx in enumerate(txs):
        container = chain.container(tip["index"] - k)
        assert tx["txHash"] == container["id"] and tx["chainFormat"] == "non-linear"
        assert _seconds(tx["timestamp"]) == int(container["timestamp"].timestamp())


def test_an_address_holds_the_utxos_its_txs_paid_and_they_sum_to_its_balance(data: Any) -> None:
    txs = list(data.primary_network_transactions("mainnet", "x-chain", limit=100))
    spent = {u["utxoId"] for t in txs for u in t["consumedUtxos"]}
    owners = _owners(txs)
    assert len(owners) > 20
    for owner in owners[:10]:
        utxos = list(data.utxos("mainnet", "x-chain", addresses=[f"X-{owner}"], page_size=1))
        assert utxos, owner
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for utxo in utxos:
            assert owner in utxo["addresses"] and utxo["consumedOnChainId"] == X_ID
            assert utxo["utxoId"] not in spent, "a spent UTXO is not among the unspent ones"
            creator = data.primary_network_transaction("mainnet", "x-chain", utxo["creationTxHash"])
            assert utxo in creator["emittedUtxos"], "each UTXO appears in the tx that created it"
            totals[utxo["asset"]["assetId"]][0] += int(utxo["asset"]["amount"])
            totals[utxo["asset"]["assetId"]][1] += 1
        assert totals.get(AVAX, [0])[0] <= SUPPLY
        balances = data.primary_network_balances("mainnet", "x-chain", addresses=[owner])
        assert balances["chainInfo"] == {"chainName": "x-chain", "network": "mainnet"}
        held = {a["assetId"]: [int(a["amount"]), int(a["utxoCount"])] for a in balances["balances"]["unlocked"]}
        assert held == totals, "the balance is the sum of the UTXOs, per asset"


def test_bad_addresses_are_refused_before_any_request(emu: Any, data: Any) -> None:
    owner = _owners(list(data.primary_network_transactions("mainnet", "x-chain", limit=10)))[0]
    typo = owner[:-1] + ("p" if owner[-1] == "q" else "q")
    before = emu.request_count
    for bad in (typo, "fuji" + owner[4:], "X-nope"):
        with pytest.raises(ad.InvalidParameterError, match="addresses"):
            list(data.utxos("mainnet", "x-chain", addresses=[bad]))
    assert emu.request_count == before, "refused by the client, nothing sent"
    # The emulated service refuses them too (a client that does not check).
    for bad in (typo, "fuji" + owner[4:]):
        status, body = _http(emu, f"/v1/networks/mainnet/blockchains/x-chain/utxos?addresses={bad}")
        assert status == 400 and "addresses" in str(body["message"]), body


def test_pages_give_each_transaction_once_and_in_order(data: Any) -> None:
    start, end = CORTINA - dt.timedelta(days=2), CORTINA + dt.timedelta(days=2)
    whole = list(data.primary_network_transactions("mainnet", "x-chain", start=start, end=end, page_size=100))
    paged = list(data.primary_network_transactions("mainnet", "x-chain", start=start, end=end, page_size=7))
    assert paged == whole and len(whole) > 14
    assert len({t["txHash"] for t in paged}) == len(paged)
    times = [_seconds(t["timestamp"]) for t in paged]
    assert times == sorted(times, reverse=True)
    assert {t["chainFormat"] for t in paged} == {"linear", "non-linear"}, "the window spans Cortina"


def test_assets_chain_ids_and_the_c_chains_atomic_memory(data: Any) -> None:
    txs = [t for kind in ("CreateAssetTx", "ExportTx")
           for t in data.primary_network_transactions("mainnet", "x-chain", tx_types=[kind], limit=30)]
    assert {t["txType"] for t in txs} == {"CreateAssetTx", "ExportTx"}
    created = next(t for t in txs if t["txType"] == "CreateAssetTx")
    assert data.asset("mainnet", "x-chain", created["txHash"]) == created["assetCreated"]
    moving = list(data.asset_transactions("mainnet", "x-chain", created["txHash"]))
    assert [t["txHash"] for t in moving] == [created["txHash"]]
    assert data.asset("mainnet", "x-chain", AVAX)["symbol"] == "AVAX"
    export = next(t for t in txs if t["txType"] == "ExportTx" and t["destinationChain"] == C_ID)
    exported = next(u for u in export["emittedUtxos"] if u["consumedOnChainId"] == C_ID)
    owner = exported["addresses"][0]
    assert exported in list(data.utxos("mainnet", "c-chain", addresses=[owner]))
    ids = data.chain_ids_of_addresses("mainnet", addresses=[owner])
    assert ids["addresses"][0]["address"] == owner and C_ID in ids["addresses"][0]["blockchainIds"]
    assert list(data.primary_network_transactions("mainnet", "c-chain", limit=5)) == []
