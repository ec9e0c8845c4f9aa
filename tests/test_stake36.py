"""The P world's stake lifecycle (issue 36 §2), as a user meets it on one ``ad.Emulator()``:
stakes whose period ended are rewarded by a RewardValidatorTx in a P-Chain proposal block at
their end (decoded from the ``P/block`` index), the historical rewards list those rewards, the
validators and delegators lists tell ``completed`` from ``active``, and the staking metrics
count, day by day, the stakes active that day; one subnet is converted to an L1 whose
validators ``l1_validators`` lists."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import avax_data as ad

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=12) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def data(emu: Any) -> Any:
    with ad.DataClient(emu.url) as client:
        yield client


@pytest.fixture(scope="module")
def paid(data: Any) -> list[dict[str, Any]]:
    return list(data.historical_rewards("mainnet", page_size=100))


def _when(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromtimestamp(int(value), tz=dt.timezone.utc)


def test_historical_rewards_are_the_ended_stakes_oldest_end_first(paid: list[dict[str, Any]]) -> None:
    assert len(paid) > 40
    ends = [_when(r["endTimestamp"]) for r in paid]
    assert ends == sorted(ends) and ends[-1] < NOW
    assert {r["rewardType"] for r in paid} == {"VALIDATOR", "DELEGATOR", "VALIDATOR_FEE"}
    assert len({r["utxoId"] for r in paid}) == len(paid), "one reward UTXO each"
    for r in paid:
        years = (_when(r["endTimestamp"]) - _when(r["startTimestamp"])).total_seconds() / (365 * 86_400)
        share = {"VALIDATOR": 1.0, "DELEGATOR": 0.98, "VALIDATOR_FEE": 0.02}[r["rewardType"]]
        assert abs(int(r["reward"]["amount"]) - int(int(r["amountStaked"]) * 0.08 * years * share)) <= 1, r


def test_a_reward_tx_is_decoded_from_the_p_block_at_the_stakes_end(emu: Any, data: Any,
                                                                    paid: list[dict[str, Any]]) -> None:
    chain = ad.IndexClient(emu.url).chain("P/block")
    for r in paid[::25]:
        tx = data.primary_network_transaction("mainnet", "p-chain", r["rewardTxHash"])
        assert tx["txType"] == "RewardValidatorTx" and tx["stakingTxHash"] == r["txHash"]
        height = int(tx["blockNumber"])
        assert _when(tx["blockTimestamp"]) == _when(r["endTimestamp"]), "paid in the second the stake ends"
        rows = chain.range(height, height + 2, decode=True).to_polars().to_dicts()
        proposal, option = rows
        assert proposal["block_type"] == "BanffProposalBlock" and option["block_type"] == "BanffCommitBlock"
        assert _when(proposal["block_time"]) == _when(r["endTimestamp"])
        assert proposal["tx_ids"] == [r["rewardTxHash"]]
        assert proposal["txs"][0]["tx_type"] == "RewardValidatorTx"
        assert proposal["txs"][0]["staker_tx_id"] == r["txHash"]


def test_filters_and_pages_give_the_same_rewards(data: Any, paid: list[dict[str, Any]]) -> None:
    node = paid[0]["nodeId"]
    mine = list(data.historical_rewards("mainnet", node_ids=[node], page_size=3))
    assert mine == [r for r in paid if r["nodeId"] == node] and mine
    address = paid[1]["addresses"][0]
    held = list(data.historical_rewards("mainnet", addresses=[f"P-{address}"], page_size=2))
    assert held == [r for r in paid if address in r["addresses"]] and held
    assert list(data.historical_rewards("mainnet", sort_order="desc", page_size=100)) == paid[::-1]
    with pytest.raises(ad.InvalidParameterError, match='addresses="0xabc"'):
        list(data.historical_rewards("mainnet", addresses=["0xabc"]))


def test_validators_and_delegators_are_completed_or_active_by_now(data: Any, paid: list[dict[str, Any]]) -> None:
    every = list(data.validators("mainnet", page_size=100))
    active = list(data.validators("mainnet", validation_status="active", page_size=100))
    done = list(data.validators("mainnet", validation_status="completed", page_size=100))
    assert active and done and len(every) == len(active) + len(done)
    assert all(_when(v["startTimestamp"]) <= NOW < _when(v["endTimestamp"]) for v in active)
    assert all(_when(v["endTimestamp"]) <= NOW for v in done)
    rewarded = {r["txHash"]: r for r in paid if r["rewardType"] == "VALIDATOR"}
    for v in done:
        assert v["validationStatus"] == "completed"
        assert int(v["rewards"]["validationRewardAmount"]) == int(rewarded[v["txHash"]]["reward"]["amount"])
    assert {v["txHash"] for v in done} == set(rewarded)
    delegations = list(data.delegators("mainnet", delegation_status="completed", page_size=100))
    assert {d["txHash"] for d in delegations} == {r["txHash"] for r in paid if r["rewardType"] == "DELEGATOR"}
    assert all(d["delegationStatus"] == "completed" and int(d["netReward"]) > 0 for d in delegations)
    assert data.network_details("mainnet")["validatorDetails"]["validatorCount"] == len(active)


def test_staking_metrics_count_the_validators_active_each_day(emu: Any, data: Any) -> None:
    every = list(data.validators("mainnet", page_size=100))
    with ad.MetricsClient(emu.url) as metrics:
        points = list(metrics.staking("mainnet", "validatorCount", page_size=500, limit=400))
    assert len(points) == 400
    for p in points:
        day = _when(p["timestamp"])
        end = min(day + dt.timedelta(days=1), NOW)
        active = [v for v in every if _when(v["startTimestamp"]) <= end < _when(v["endTimestamp"])]
        assert p["value"] == len(active), day
    values = [p["value"] for p in points]
    assert any(newer < older for newer, older in zip(values, values[1:])), "a count falls after an end"


def test_the_l1_conversion_is_a_p_chain_tx_and_its_validators_are_listed(emu: Any, data: Any) -> None:
    subnets = [s for s in data.subnets("mainnet") if s["isL1"]]
    assert len(subnets) == 1
    subnet = subnets[0]
    tx = data.primary_network_transaction("mainnet", "p-chain", subnet["l1ConversionTransactionHash"])
    assert tx["txType"] == "ConvertSubnetToL1Tx"
    row = ad.IndexClient(emu.url).chain("P/block").container(int(tx["blockNumber"]), decode=True)
    assert subnet["l1ConversionTransactionHash"] in row["tx_ids"]
    validators = list(data.l1_validators("mainnet", page_size=2))
    assert len(validators) == 4 and len({v["validationId"] for v in validators}) == 4
    for v in validators:
        assert v["subnetId"] == subnet["subnetId"]
        assert _when(v["creationTimestamp"]) == _when(tx["blockTimestamp"])
        assert 0 <= int(v["remainingBalance"])
    one = validators[1]
    assert list(data.l1_validators("mainnet", l1_validation_id=one["validationId"])) == [one]
