"""Against the hosted Data API and Metrics API; run with ``AVAX_LIVE=1`` (skipped otherwise).

Read-only calls with a small ``limit=``: they check the shapes and types of real answers, on the
dict path and the frame path, where the emulator can only follow the documented ones. The base
URLs and the Data API key come from ``AVAX_DATA_API_URL``, ``AVAX_METRICS_API_URL`` and
``AVAX_DATA_API_KEY`` when set (the public services and no key otherwise).
"""

from __future__ import annotations

import datetime
import re

import polars as pl
import pytest

import avax_data as ad

pytestmark = pytest.mark.live

UTC = datetime.timezone.utc
HASH = re.compile(r"0x[0-9a-f]{64}")
NOW = datetime.datetime.now(UTC)


def recent(t: datetime.datetime) -> bool:
    """A time-zone aware UTC time between the C-chain's launch and a few minutes from now."""
    launch = datetime.datetime(2020, 9, 23, tzinfo=UTC)
    return t.utcoffset() == datetime.timedelta(0) and launch <= t <= NOW + datetime.timedelta(minutes=10)


@pytest.fixture(scope="module")
def data() -> ad.DataClient:
    with ad.DataClient(max_retries=2) as client:
        yield client


@pytest.fixture(scope="module")
def metrics() -> ad.MetricsClient:
    with ad.MetricsClient(max_retries=2) as client:
        yield client


def test_data_api_chains_list_the_c_chain_with_typed_fields(data: ad.DataClient) -> None:
    chains = data.chains(network="mainnet")
    assert isinstance(chains, list) and chains and all(isinstance(c, dict) for c in chains)
    by_id = {c["chainId"]: c for c in chains}
    assert all(isinstance(k, str) for k in by_id)
    c_chain = by_id["43114"]
    assert isinstance(c_chain["chainName"], str) and c_chain["chainName"]
    one = data.chain("43114")
    assert isinstance(one, dict) and one["chainId"] == "43114" and one["chainName"] == c_chain["chainName"]


def test_data_api_blocks_as_dicts_are_newest_first_with_converted_types(data: ad.DataClient) -> None:
    blocks = list(data.blocks("43114", page_size=3, limit=5))
    assert len(blocks) == 5
    numbers = [b["blockNumber"] for b in blocks]
    assert all(type(n) is int for n in numbers) and numbers == sorted(numbers, reverse=True)
    assert len(set(numbers)) == 5 and numbers[0] > 40_000_000
    for b in blocks:
        assert HASH.fullmatch(b["blockHash"]) and HASH.fullmatch(b["parentHash"])
        assert isinstance(b["blockTimestamp"], datetime.datetime) and recent(b["blockTimestamp"])
        assert type(b["txCount"]) is int and b["txCount"] >= 0
        assert type(b["gasUsed"]) is int and 0 <= b["gasUsed"] <= b["gasLimit"]
        assert b["chainId"] == "43114"
    # consecutive blocks link by their hashes
    for newer, older in zip(blocks, blocks[1:]):
        if newer["blockNumber"] == older["blockNumber"] + 1:
            assert newer["parentHash"] == older["blockHash"]


def test_data_api_blocks_as_a_frame_have_the_documented_schema(data: ad.DataClient) -> None:
    df = data.blocks("43114", page_size=4, limit=4).to_polars()
    assert df.height == 4
    assert df.schema["chainId"] == pl.String
    assert df.schema["blockNumber"] == pl.UInt64
    assert df.schema["blockTimestamp"] == pl.Datetime("ns", "UTC")
    assert df.schema["txCount"] == pl.Int64
    for column in ("gasUsed", "gasLimit", "baseFee"):
        assert df.schema[column] == pl.Decimal(38, 0), column
    assert df["blockNumber"].null_count() == 0 and df["blockHash"].null_count() == 0
    assert df["blockNumber"].is_sorted(descending=True)
    assert all(recent(t) for t in df["blockTimestamp"].to_list())


def test_data_api_health_is_a_dict(data: ad.DataClient) -> None:
    health = data.health()
    assert isinstance(health, dict) and health


def test_metrics_api_live_check_and_chains(metrics: ad.MetricsClient) -> None:
    live = metrics.live_check()
    assert isinstance(live, dict) and live
    chains = list(metrics.chains(limit=5))
    assert 1 <= len(chains) <= 5 and all(isinstance(c, dict) for c in chains)
    assert all(isinstance(c["chainId"], str) and c["chainId"] for c in chains)


def test_metrics_api_daily_tx_count_is_a_typed_series_inside_the_window(metrics: ad.MetricsClient) -> None:
    end = int(NOW.timestamp()) // 86_400 * 86_400
    start = end - 10 * 86_400
    rows = list(metrics.metric("43114", "txCount", interval="day", start=start, end=end, limit=5))
    assert 1 <= len(rows) <= 5
    for r in rows:
        assert isinstance(r["timestamp"], datetime.datetime) and recent(r["timestamp"])
        assert start <= r["timestamp"].timestamp() <= end
        assert r["timestamp"].timestamp() % 86_400 == 0, "daily buckets start at midnight UTC"
        assert isinstance(r["value"], (int, float)) and r["value"] > 0
    df = metrics.metric("43114", "txCount", interval="day", start=start, end=end, limit=5).to_polars()
    assert dict(df.schema) == {"timestamp": pl.Datetime("ns", "UTC"), "value": pl.Float64}
    assert 1 <= df.height <= 5 and df["value"].null_count() == 0
