"""Metrics API client end to end against the emulator's Metrics part (`/v2`): bucket alignment,
sharded == sequential, and cross-API consistency with the Data API part (same synthetic blocks
and ICM messages). Skipped while the emulator does not serve `/v2` yet."""

from __future__ import annotations

import collections
import datetime as dt
import urllib.error
import urllib.request

import pytest

import avax_data as ad
from _helpers import assert_bucket_starts

UTC = dt.timezone.utc


@pytest.fixture(scope="module")
def world() -> ad.Emulator:
    with ad.Emulator(data_blocks_per_chain=50_000) as emu:
        try:
            urllib.request.urlopen(emu.url + "/v2/live-check", timeout=5).read()
        except urllib.error.HTTPError as e:
            if e.code == 404:
                pytest.skip("the emulator does not serve the Metrics API (/v2) yet")
            raise
        yield emu


@pytest.fixture(scope="module")
def chain(world: ad.Emulator) -> str:
    with ad.MetricsClient(base_url=world.url) as m:
        chains = list(m.chains())
    assert chains
    return str(chains[0]["evmChainId"])


@pytest.fixture(scope="module")
def blocks_by_day(world: ad.Emulator, chain: str) -> dict[dt.date, int]:
    per_day: dict[dt.date, int] = collections.Counter()
    with ad.DataClient(base_url=world.url) as data:
        for b in data.blocks(chain, page_size=100):
            per_day[b["blockTimestamp"].date()] += b["txCount"]
    return per_day


def test_live_check_and_chains(world: ad.Emulator) -> None:
    with ad.MetricsClient(base_url=world.url) as m:
        assert m.live_check()["status"] == "ok"
        chains = m.chains().to_polars()
        assert chains.height > 0 and set(chains["network"].unique()) <= {"mainnet", "testnet"}
        assert set(m.chains("fuji").to_polars()["network"].unique()) <= {"testnet"}


@pytest.mark.parametrize("interval", ["hour", "day", "week", "month"])
def test_bucket_alignment(world: ad.Emulator, chain: str, interval: str) -> None:
    with ad.MetricsClient(base_url=world.url) as m:
        items = list(m.metric(chain, "txCount", interval=interval, page_size=2160, limit=5000))
    assert_bucket_starts(items, interval)


@pytest.mark.parametrize("interval", ["hour", "day"])
def test_sharded_walk_equals_the_sequential_walk(world: ad.Emulator, chain: str, blocks_by_day: dict, interval: str) -> None:
    days = sorted(blocks_by_day)
    start = dt.datetime.combine(days[0], dt.time(), UTC)
    end = dt.datetime.combine(days[-1], dt.time(), UTC)
    if end <= start:
        pytest.skip("the synthetic chain spans a single day")
    with ad.MetricsClient(base_url=world.url) as m:
        kwargs = dict(interval=interval, start=start, end=end, page_size=5)
        sequential = m.metric(chain, "txCount", concurrency=1, **kwargs).to_polars()
        for concurrency in (2, 4):
            assert m.metric(chain, "txCount", concurrency=concurrency, **kwargs).to_polars().equals(sequential)


def test_txcount_per_day_equals_the_data_api_blocks(world: ad.Emulator, chain: str, blocks_by_day: dict) -> None:
    days = sorted(blocks_by_day)
    # The first day of the blocks adds the history before its first block; the others (the last
    # one ends at the world's now, 50,000 blocks at 2 s span 28 h) hold only blocks.
    full_days = days[1:]
    assert full_days, days
    with ad.MetricsClient(base_url=world.url) as m:
        for day in full_days[:3]:
            start = int(dt.datetime.combine(day, dt.time(), UTC).timestamp())
            points = [p for p in m.metric(chain, "txCount", interval="day", start=start, end=start + 86400)
                      if p["timestamp"].date() == day]
            assert len(points) == 1, points
            assert points[0]["value"] == blocks_by_day[day]


def test_icm_summary_counts_equal_the_data_api_messages(world: ad.Emulator) -> None:
    with ad.DataClient(base_url=world.url) as data, ad.MetricsClient(base_url=world.url) as m:
        messages = list(data.icm_messages(page_size=100))
        if not messages:
            pytest.skip("no ICM messages in the synthetic world")
        by_pair = collections.Counter((x["sourceBlockchainId"], x["destinationBlockchainId"]) for x in messages)
        (src, dest), count = by_pair.most_common(1)[0]
        assert m.icm_summary(src, dest)["allTime"] == count
        by_src = collections.Counter(x["sourceBlockchainId"] for x in messages)
        assert m.icm_summary(src_blockchain_id=src)["allTime"] == by_src[src]
        grouped = m.icm_summary(group_by="srcBlockchainId,destBlockchainId")
        got = {(r["srcBlockchainId"], r["destBlockchainId"]): r["allTime"] for r in grouped.iter_rows(named=True)}
        assert {k: v for k, v in got.items() if v} == dict(by_pair)
