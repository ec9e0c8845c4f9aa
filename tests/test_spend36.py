"""The P/X world's economy (issue 36, sections 3 and 5) as a user reads it on one
``ad.Emulator()``: every P- and X-Chain transaction's inputs exceed its outputs (staked and
exported ones included) by a realistic fee (the X-Chain's 0.001 AVAX, 0.01 AVAX for a new asset;
the P-Chain's static fees before Etna and a dynamic one after), and ``getAvaxSupply`` is the
360M AVAX genesis less those fees and the C-Chain's burned base fees, to the nAVAX."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest

import avax_data as ad

AVAX = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"
ETNA = dt.datetime(2024, 12, 16, 17, tzinfo=dt.timezone.utc)
NANO = 10**9
# Mainnet's pre-Etna static P-Chain fees (nAVAX); the others pay 0.001 AVAX.
P_STATIC = {"CreateSubnetTx": NANO, "CreateChainTx": NANO, "AddPermissionlessValidatorTx": 0,
            "AddPermissionlessDelegatorTx": 0, "AddValidatorTx": 0, "AddDelegatorTx": 0}


@pytest.fixture(scope="module")
def world() -> Any:
    """One default emulator (seed 6) and a Data API client of it."""
    with ad.Emulator(seed=6) as emu, ad.DataClient(emu.url) as client:
        yield emu, client


def _seconds(value: Any) -> int:
    """Unix seconds of a datetime or a number the client handed out."""
    return int(value.timestamp()) if isinstance(value, dt.datetime) else int(value)


def _when(value: Any) -> dt.datetime:
    return dt.datetime.fromtimestamp(_seconds(value), tz=dt.timezone.utc)


def _avax(items: list[dict[str, Any]]) -> int:
    """The AVAX of a list of UTXOs or asset amounts, nAVAX."""
    return sum(int(i["amount"] if "amount" in i else i["asset"]["amount"]) for i in items
               if (i.get("assetId") or i["asset"]["assetId"]) == AVAX)


@pytest.fixture(scope="module")
def p_fees(world: Any) -> list[tuple[str, dt.datetime, int]]:
    """``(txType, blockTimestamp, consumed - emitted)`` of every P-Chain transaction of the world."""
    _, data = world
    txs = list(data.primary_network_transactions("mainnet", "p-chain", page_size=100))
    assert len(txs) > 5_000, "the whole P-Chain"
    out = []
    for t in txs:
        # A ConvertSubnetToL1Tx also funds its L1 validators' balances, apart from its fee.
        fee = _avax(t["consumedUtxos"]) - _avax(t["emittedUtxos"]) - _avax(t["amountL1ValidatorBalanceBurned"])
        assert fee == _avax(t["amountBurned"]), f"{t['txHash']}: amountBurned is what the inputs left"
        assert (t["txType"] == "ConvertSubnetToL1Tx") == bool(t["amountL1ValidatorBalanceBurned"]), t["txType"]
        staked = sum(int(u["asset"]["amount"]) for u in t["emittedUtxos"] if u.get("staked"))
        assert staked == _avax(t["amountStaked"]), "a stake is an output, not a burn"
        out.append((t["txType"], _when(t["blockTimestamp"]), fee))
    return out


def test_each_p_chain_transaction_burns_its_eras_fee_and_nothing_more(p_fees: list[tuple[str, dt.datetime, int]]) -> None:
    kinds: Counter[tuple[str, bool]] = Counter()
    for kind, when, fee in p_fees:
        if kind in ("RewardValidatorTx", "AdvanceTimeTx"):
            assert fee == 0, kind
            continue
        if when < ETNA:
            assert fee == P_STATIC.get(kind, NANO // 1000), f"{kind} at {when}: {fee}"
        else:
            assert 0 < fee < NANO // 1000, f"{kind} at {when}: a dynamic fee is a fraction of the old 0.001 AVAX"
        kinds[(kind, when >= ETNA)] += 1
    assert {k for k, etna in kinds if etna} >= {"ImportTx", "ExportTx", "AddPermissionlessValidatorTx"}
    assert {k for k, etna in kinds if not etna} >= {"ImportTx", "ExportTx", "CreateSubnetTx"}


def test_each_x_chain_transaction_pays_the_avm_fee(world: Any) -> None:
    _, data = world
    txs = list(data.primary_network_transactions("mainnet", "x-chain", limit=3_000))
    assert {t["txType"] for t in txs} == {"BaseTx", "ImportTx", "ExportTx", "OperationTx", "CreateAssetTx"}
    for t in txs:
        fee = _avax(t["amountUnlocked"]) - _avax(t["amountCreated"])
        assert fee == (10 * NANO // 1000 if t["txType"] == "CreateAssetTx" else NANO // 1000), t["txHash"]
        assert fee == _avax(t["consumedUtxos"]) - _avax(t["emittedUtxos"])


def test_the_supply_is_the_genesis_less_every_fee_to_the_navax(world: Any, p_fees: list[tuple[str, dt.datetime, int]]) -> None:
    _, data = world
    supply = data.avax_supply()
    nano = {k: int(Decimal(str(v)) * NANO) for k, v in supply.items() if k != "lastUpdated"}
    assert nano["totalPBurned"] == sum(fee for _, _, fee in p_fees)
    x_txs = list(data.primary_network_transactions("mainnet", "x-chain", page_size=100))
    x_fees = sum(_avax(t["amountUnlocked"]) - _avax(t["amountCreated"]) for t in x_txs)
    assert nano["totalXBurned"] == x_fees > 0
    burned = nano["totalPBurned"] + nano["totalCBurned"] + nano["totalXBurned"]
    assert nano["totalSupply"] == 360_000_000 * NANO + nano["totalRewards"] - burned
    assert 359_000_000 * NANO < 360_000_000 * NANO - burned < 360_000_000 * NANO, "fees, not burns of millions"
    assert 0 < nano["totalRewards"] < 10_000_000 * NANO, "the ended stakes' rewards are minted"


CORTINA = dt.datetime(2023, 4, 25, 15, tzinfo=dt.timezone.utc)
X_ID = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"
SPENT = ("consumingTxHash", "consumingTxTimestamp", "credentials")


def test_dag_era_payments_are_spent_later_by_their_owners_and_leave_the_unspent_lists(world: Any) -> None:
    emu, data = world
    dag = list(data.primary_network_transactions("mainnet", "x-chain", end=CORTINA - dt.timedelta(seconds=1), limit=60))
    spent = [(t, u) for t in dag for u in t["emittedUtxos"] if "consumingTxHash" in u]
    assert len(spent) > 20, "most DAG-era payments are spent in the linear era"
    index = ad.IndexClient(emu.url).chain("X/tx")
    for creator, utxo in spent[:12]:
        assert all(k in utxo for k in SPENT)
        spender = data.primary_network_transaction("mainnet", "x-chain", utxo["consumingTxHash"])
        assert spender["chainFormat"] == "linear" and _seconds(spender["timestamp"]) == _seconds(utxo["consumingTxTimestamp"])
        assert _when(spender["timestamp"]) >= CORTINA > _when(creator["timestamp"]), "spent after it was created"
        [consumed] = [u for u in spender["consumedUtxos"] if u["utxoId"] == utxo["utxoId"]]
        assert consumed["creationTxHash"] == creator["txHash"] and consumed["outputIndex"] == utxo["outputIndex"]
        assert consumed["asset"] == utxo["asset"] and consumed["addresses"] == utxo["addresses"]
        assert consumed["credentials"] == utxo["credentials"], "the spender's signature, on both sides"
        # The creator as the Index RPC serves it, decoded by our decoder, holds that output.
        container = index.container(index.index_of(creator["txHash"]))
        decoded = ad.decode_container("X/tx", container["bytes"], strict=True)
        assert decoded["tx_id"] == creator["txHash"]
        produced = {p["asset_id"]: int(p["amount"]) for p in decoded["produced"]}
        assert produced[AVAX] == _avax(creator["emittedUtxos"]), "the record's outputs are the container's"
        assert {p["asset_id"]: int(p["amount"]) for p in decoded["consumed"]}[AVAX] == _avax(creator["consumedUtxos"])
        owner = utxo["addresses"][0]
        unspent = list(data.utxos("mainnet", "x-chain", addresses=[owner], page_size=100))
        assert utxo["utxoId"] not in {u["utxoId"] for u in unspent}
        everything = list(data.utxos("mainnet", "x-chain", addresses=[owner], include_spent=True, page_size=100))
        assert utxo["utxoId"] in {u["utxoId"] for u in everything}
        assert all("consumingTxHash" not in u for u in unspent)
        balances = data.primary_network_balances("mainnet", "x-chain", addresses=[owner])["balances"]["unlocked"]
        held = {a["assetId"]: int(a["amount"]) for a in balances}
        assert held.get(AVAX, 0) == sum(int(u["asset"]["amount"]) for u in unspent if u["asset"]["assetId"] == AVAX)

