"""One world, one clock, one set of defaults (issue 36): ``ad.Emulator()``, the command line's
``--emulator`` and the pytest plugin start the same world; ``emu.world`` describes it; the
Index RPC, the Data API and the Metrics API agree on its times and counts."""

from __future__ import annotations

import datetime as dt

import pytest

import avax_data as ad
from avax_data._native import emulator_defaults
from avax_data.cli import embedded

pytest_plugins = ["pytester"]

NOW = "2026-01-01T00:00:00Z"


def test_one_table_of_defaults_for_python_the_cli_and_the_plugin(pytester: pytest.Pytester) -> None:
    defaults = emulator_defaults()
    assert int(defaults["containers"]) == int(defaults["data_blocks_per_chain"]) == 10_000
    assert embedded.DEFAULT_CONTAINERS == 10_000 and embedded.DEFAULT_DATA_BLOCKS == 10_000
    with ad.Emulator() as emu:
        world = emu.world
    assert {path: v["containers"] for path, v in world["index"].items()} == dict.fromkeys(
        ["C/block", "P/block", "X/tx", "X/block", "X/vtx"], 10_000)
    assert world["chains"][0]["blocks"] == 10_000
    # The plugin's emulator without ini options or markers is the same world.
    pytester.makepyfile(f"""
        def test_defaults(avax_emulator):
            assert avax_emulator.world == {world!r}
    """)
    pytester.runpytest("-p", "no:asyncio", "-p", "no:anyio").assert_outcomes(passed=1)


def test_the_clis_embedded_emulator_is_the_default_world(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    embedded.add_embedded_options(parser)
    args = parser.parse_args([])
    emu = embedded.start_embedded(args, quiet=True)
    try:
        assert emu.container_count("C/block") == 10_000
        assert emu.world["chains"][0]["blocks"] == 10_000
    finally:
        emu.close()


def test_the_world_describes_itself_and_every_part_ends_before_now() -> None:
    with ad.Emulator(seed=3, containers=2_000, data_blocks_per_chain=500) as emu:
        world = emu.world
        assert world["now"] == NOW and world["last_time"] == NOW
        assert world["first_time"] == "2020-09-10T00:00:00Z", "Fuji's launch: the oldest series"
        for path, span in world["index"].items():
            assert span["containers"] == 2_000 and span["first_time"] < span["last_time"] < NOW, path
        c_chain = world["chains"][0]
        assert (c_chain["evm_chain_id"], c_chain["network"], c_chain["blocks"]) == (43114, "mainnet", 500)
        assert c_chain["last_block_time"] < NOW and c_chain["launch_time"] == "2020-09-23T00:00:00Z"
        # The index runs on past the Data API's newest C-Chain block (an indexer behind the node):
        # the container at its height is that block, at the same second; the index ends at now.
        newest = next(iter(ad.DataClient(emu.url).blocks("43114", limit=1)))
        assert int(newest["blockNumber"]) == 499
        assert int(emu.expected_container("C/block", 499)["timestamp"].timestamp()) == newest["blockTimestamp"].timestamp()
        last = emu.expected_container("C/block", 1_999)["timestamp"]
        assert dt.timedelta(0) < dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc) - last < dt.timedelta(seconds=10)
        # Named things find data.
        owner = world["addresses"][0]
        assert ad.DataClient(emu.url).collectibles("43114", owner).to_polars().height > 0
        assert world["tokens"][0]["symbol"] == "eUSDC"
        assert len(world["validators"]["mainnet"]) == 3 and world["p_addresses"]["fuji"][0].startswith("P-fuji1")
        assert world["subnets"]["primary_network"] == "11111111111111111111111111111111LpoYY"


def test_metrics_and_blockchains_name_the_real_chains() -> None:
    with ad.Emulator(containers=10, data_blocks_per_chain=100) as emu:
        metrics, data = ad.MetricsClient(emu.url), ad.DataClient(emu.url)
        chain = metrics.chain("43114")
        assert (chain["evmChainId"], chain["network"]) == (43114, "mainnet")
        blockchain = data.blockchain("mainnet", emu.world["c_chain_ids"]["mainnet"])
        assert (blockchain["blockchainName"], blockchain["evmChainId"]) == ("C-Chain", 43114)


def test_a_year_of_daily_tx_counts_and_staking_in_time_order() -> None:
    with ad.Emulator(containers=10, data_blocks_per_chain=500) as emu:
        metrics = ad.MetricsClient(emu.url)
        year = metrics.metric("43114", "txCount", interval="day", start=dt.date(2025, 1, 1),
                              end=dt.date(2026, 1, 1)).to_polars()
        assert year.height == 365
        active = metrics.metric("43114", "activeAddresses", interval="day", start=dt.date(2025, 1, 1),
                                end=dt.date(2026, 1, 1)).to_polars()
        assert active["value"].n_unique() > 100
        staking = ad.MetricsClient(emu.url).staking("mainnet", "validatorCount").to_polars()
        times = staking["timestamp"].to_list()
        assert times == sorted(times, reverse=True) or times == sorted(times)
        values = staking.sort("timestamp")["value"].to_list()
        assert values[-1] == 40 and any(newer < older for older, newer in zip(values, values[1:])), "ends lower it"


@pytest.mark.parametrize("metric", ["activeAddresses", "activeSenders"])
def test_a_days_distinct_addresses_are_at_least_its_busiest_hours(metric: str) -> None:
    """An address active in an hour is active on its day: no day counts fewer than one of its hours."""
    with ad.Emulator(containers=10, data_blocks_per_chain=500) as emu:
        metrics = ad.MetricsClient(emu.url)
        window = {"start": dt.date(2025, 11, 1), "end": dt.date(2026, 1, 1)}
        days = metrics.metric("43114", metric, interval="day", **window).to_polars()
        hours = metrics.metric("43114", metric, interval="hour", **window).to_polars()
        by_day: dict[dt.date, float] = {}
        for t, v in hours.select("timestamp", "value").iter_rows():
            by_day[t.date()] = max(by_day.get(t.date(), 0.0), v)
        assert days.height == 61 and len(by_day) == 61
        short = [(t.date(), v, by_day[t.date()]) for t, v in days.select("timestamp", "value").iter_rows() if v < by_day[t.date()]]
        assert short == [], f"days counting fewer {metric} than their busiest hour: {short[:5]}"
