"""Staking rewards are nAVAX amounts, read as the stakes beside them are (issue 34, section 3:
"delegators' ``grossReward`` a string" while ``amountDelegated`` was a decimal): a
``Decimal(38, 0)`` column in every frame and an exact ``int`` in every dict, on the delegators,
the validators' reward structs and the P-Chain's staking transactions."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from decimal import Decimal

import polars as pl
import pytest

import avax_data as ad

AMOUNT = pl.Decimal(38, 0)
DELEGATOR_REWARDS = ["grossReward", "netReward", "estimatedGrossReward", "estimatedNetReward"]
VALIDATOR_REWARDS = ["validationRewardAmount", "delegationRewardAmount"]


@pytest.fixture(scope="module")
def data() -> Iterator[ad.DataClient]:
    with ad.Emulator(containers=50, data_blocks_per_chain=50) as emu, ad.DataClient(base_url=emu.url) as client:
        yield client


def test_delegators_rewards_are_amounts_in_frames_and_dicts(data: ad.DataClient) -> None:
    frame = data.delegators("mainnet").to_polars(limit=50)
    assert {name: frame.schema[name] for name in ["amountDelegated", *DELEGATOR_REWARDS]} == \
        {name: AMOUNT for name in ["amountDelegated", *DELEGATOR_REWARDS]}
    rows = list(data.delegators("mainnet", limit=50))
    sent = [(i, name) for i, row in enumerate(rows) for name in DELEGATOR_REWARDS if row.get(name) is not None]
    assert sent, "the emulator's delegators carry rewards"
    for i, name in sent:
        assert type(rows[i][name]) is int, (name, rows[i][name])
        assert frame[name][i] == Decimal(rows[i][name])


def test_validators_reward_structs_hold_amounts(data: ad.DataClient) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = data.validators("mainnet").to_polars(limit=20)
    for struct in ("rewards", "potentialRewards"):
        fields = {f.name: f.dtype for f in frame.schema[struct].fields}
        assert {name: fields[name] for name in VALIDATOR_REWARDS} == {name: AMOUNT for name in VALIDATOR_REWARDS}
    values = [row["potentialRewards"] for row in data.validators("mainnet", validation_status="active", limit=20)
              if row.get("potentialRewards")]
    assert values and all(type(v["validationRewardAmount"]) is int for v in values), values[:2]
