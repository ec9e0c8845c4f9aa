"""The P-Chain and network operations from the world (issue 36, sections 3 and 4), as a user meets
them on one ``ad.Emulator()``: the active staking transactions are the stakes the ``P/block``
containers carry, the network details equal the validators, delegators and staking metrics, the
subnets hold the blockchains list, the AVAX supply follows from the genesis and the burned fees,
and an ICM message by id or by address is an item of the messages list."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

import avax_data as ad

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
PRIMARY = "11111111111111111111111111111111LpoYY"


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=9) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def data(emu: Any) -> Any:
    with ad.DataClient(emu.url) as client:
        yield client


def _when(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromtimestamp(int(value), tz=dt.timezone.utc)


def test_active_staking_txs_are_stakes_in_their_p_blocks(emu: Any, data: Any) -> None:
    txs = list(data.staking_transactions("mainnet", "p-chain", page_size=9))
    validators = list(data.validators("mainnet", validation_status="active"))
    delegators = list(data.delegators("mainnet", delegation_status="active"))
    assert len(txs) == len(validators) + len(delegators), "every stake of the world is active at now"
    hashes = [t["txHash"] for t in txs]
    assert len(set(hashes)) == len(hashes), "each once across pages"
    assert set(hashes) == {v["txHash"] for v in validators} | {d["txHash"] for d in delegators}
    numbers = [int(t["blockNumber"]) for t in txs]
    assert numbers == sorted(numbers, reverse=True), "newest first"
    chain = ad.IndexClient(emu.url).chain("P/block")
    for t in txs[:: max(1, len(txs) // 12)]:
        assert _when(t["startTimestamp"]) <= NOW < _when(t["endTimestamp"]), t["txHash"]
        assert _when(t["blockTimestamp"]) == _when(t["startTimestamp"]), "accepted in its start second"
        block = data.primary_network_block("mainnet", "p-chain", t["blockHash"])
        assert t["txHash"] in block["transactions"]
        container = chain.container(int(t["blockNumber"]))
        assert container["id"] == t["blockHash"]
    kinds = {t["txType"] for t in txs}
    assert kinds == {"AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"}
    only = list(data.staking_transactions("mainnet", "p-chain", tx_types=["AddPermissionlessDelegatorTx"]))
    assert len(only) == len(delegators)


def test_network_details_equal_the_lists_and_the_staking_metrics(emu: Any, data: Any) -> None:
    details = data.network_details("mainnet")
    validators = list(data.validators("mainnet", validation_status="active"))
    delegators = list(data.delegators("mainnet", delegation_status="active"))
    v, d = details["validatorDetails"], details["delegatorDetails"]
    assert int(v["validatorCount"]) == len(validators)
    assert int(d["delegatorCount"]) == len(delegators)
    own = sum(int(x["amountStaked"]) for x in validators)
    delegated = sum(int(x["amountDelegated"]) for x in delegators)
    assert int(v["totalAmountStaked"]) == own and int(d["totalAmountStaked"]) == delegated
    versions = v["stakingDistributionByVersion"]
    assert sum(int(r["validatorCount"]) for r in versions) == len(validators)
    assert sum(int(r["amountStaked"]) for r in versions) == own + delegated
    with ad.MetricsClient(emu.url) as metrics:
        newest = {m: next(iter(metrics.staking("mainnet", m)))["value"]
                  for m in ["validatorCount", "validatorWeight", "delegatorCount", "delegatorWeight"]}
    assert newest == {"validatorCount": len(validators), "validatorWeight": own,
                      "delegatorCount": len(delegators), "delegatorWeight": delegated}


def test_subnets_resolve_by_id_and_hold_the_blockchains_list(data: Any) -> None:
    subnets = list(data.subnets("mainnet", page_size=2))
    assert subnets[0]["subnetId"] == PRIMARY and len(subnets) >= 2
    chains = {c["blockchainId"]: c for c in data.blockchains("mainnet")}
    held = []
    for s in subnets:
        again = data.subnet("mainnet", s["subnetId"])
        assert again["subnetId"] == s["subnetId"] and again["isL1"] is s["isL1"]
        for c in s["blockchains"]:
            assert c["subnetId"] == s["subnetId"] and c["blockchainId"] in chains
            held.append(c["blockchainId"])
    assert sorted(held) == sorted(chains), "each blockchain in exactly its subnet"
    names = {c["blockchainName"] for c in subnets[0]["blockchains"]}
    assert {"P-Chain", "X-Chain", "C-Chain"} <= names
    with pytest.raises(ad.NotFoundError, match="Subnet .* not found"):
        data.subnet("mainnet", "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM")
    l1 = [s["subnetId"] for s in subnets if s["isL1"]]
    assert len(l1) == 1, "the world converts one subnet to an L1"
    validators = list(data.l1_validators("mainnet"))
    assert validators and {v["subnetId"] for v in validators} == set(l1)


def test_icm_messages_by_id_and_by_address_are_the_lists_items(data: Any) -> None:
    messages = list(data.icm_messages(limit=300))
    for m in messages[::50]:
        assert data.icm_message(m["messageId"])["messageId"] == m["messageId"]
        assert data.icm_message(m["messageId"])["sourceTransaction"] == m["sourceTransaction"]
    sender = messages[0]["from"]
    mine = [m["messageId"] for m in messages if sender in (m["from"], m["to"])]
    got = [m["messageId"] for m in data.icm_messages_of_address(sender, page_size=2)]
    assert got == mine and len(got) >= 1
    with pytest.raises(ad.NotFoundError, match="not found"):
        data.icm_message("acf1c8b06f9aec48e9fcbefbbe576ae8a7ca3b327fcae111396e7cc99956674d")


def test_avax_supply_is_the_genesis_less_the_burned_fees(data: Any) -> None:
    supply = data.avax_supply()
    amount = {k: Decimal(str(v)) for k, v in supply.items() if k != "lastUpdated"}
    burned = amount["totalPBurned"] + amount["totalCBurned"] + amount["totalXBurned"] + amount["l1ValidatorFees"]
    paid = sum(Decimal(r["reward"]["amount"]) for r in data.historical_rewards("mainnet", page_size=100))
    assert amount["genesisUnlock"] == 360_000_000 and amount["totalRewards"] * 10**9 == paid > 0
    assert amount["totalPBurned"] > 0 and amount["totalCBurned"] > 0
    assert amount["totalSupply"] == amount["genesisUnlock"] + amount["totalRewards"] - burned
    assert amount["circulatingSupply"] == amount["totalSupply"] - amount["totalLocked"]
    details = data.network_details("mainnet")
    staked = int(details["validatorDetails"]["totalAmountStaked"]) + int(details["delegatorDetails"]["totalAmountStaked"])
    assert amount["totalStaked"] * 10**9 == staked
    assert supply["lastUpdated"] == NOW
    node = "NodeID-JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE"
    assert all(r["nodeId"] == node for r in data.historical_rewards("mainnet", node_ids=[node]))
