"""Plans that know what they price (issue 35, section 4): a node's Index RPC is unmetered unless
its URL is a hosted endpoint the core's table knows, and then only warns of a daily budget; a
list with no limit and no window is "unbounded", and walking one of a hosted service warns once
before its first request with its cost per 1,000 items and how to bound it."""

from __future__ import annotations

import warnings

import pytest

import avax_data as ad

# A host under avax.network that does not exist: hosted by its name, and unreachable, so a test
# can watch the warnings before the first request without reaching the real service.
HOSTED_NOWHERE = "https://no-such-host.avax.network"


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(seed=9, containers=1_000, data_blocks_per_chain=200) as emulator:
        yield emulator


def test_your_own_nodes_range_is_unmetered_and_warns_of_no_budget(emu: ad.Emulator) -> None:
    rng = ad.IndexClient(emu.url).chain("C/block").range(0, 100_000_000)
    plan = rng.plan()
    assert (plan.metered, plan.compute_units, plan.units_per_request, plan.units_per_1000_items) == (False, 0, 0, 0)
    assert (plan.daily_share, plan.seconds_at_tier_budget, plan.over_daily_budget) == (None, None, None)
    assert plan.requests == 97_657 and plan.to_dict()["metered"] is False
    assert "metering:        unmetered" in str(plan) and "daily budget" not in str(plan)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no budget warning when a consumer starts
        it = iter(rng)
        assert next(it)["index"] == 0
        it.close()


@pytest.mark.parametrize("url", ["https://api.avax.network", "https://api.avax-test.network/"])
def test_a_hosted_node_endpoint_is_metered_and_warns_of_its_daily_budget(url: str) -> None:
    plan = ad.IndexClient(url).chain("C/block").range(0, 100_000_000).plan()
    assert (plan.metered, plan.units_per_request, plan.compute_units) == (True, 20, 97_657 * 20)
    assert plan.daily_share == pytest.approx(97_657 * 20 / 1_200_000)
    assert "1.6x the unauthenticated tier's daily budget" in plan.over_daily_budget
    assert "metered: compute units of the unauthenticated tier" in str(plan)


def test_a_list_without_limit_or_window_is_unbounded_but_the_emulator_does_not_warn(emu: ad.Emulator) -> None:
    data = ad.DataClient(base_url=emu.url)
    plan = data.blocks("43114", page_size=50).plan()
    assert plan.requests is None and plan.unknown[0].startswith("unbounded: no limit= and no window")
    assert "unbounded" in str(plan) and (plan.pages_per_1000_items, plan.units_per_1000_items) == (20, 200)
    assert not data.blocks("43114", limit=10).plan().unknown[0].startswith("unbounded")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the emulator is not a hosted service
        assert data.blocks("43114", page_size=100).to_polars().height == 200


@pytest.mark.parametrize("consume", ["to_polars", "write_parquet", "iterate"])
def test_an_unbounded_walk_of_a_hosted_service_warns_once_before_its_first_request(consume: str, tmp_path) -> None:
    data = ad.DataClient(base_url=HOSTED_NOWHERE, max_retries=0, connect_timeout=2.0, timeout=3.0)
    pager = data.blocks("43114", page_size=100)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ad.AvaxDataError):
            if consume == "to_polars":
                pager.to_polars()
            elif consume == "write_parquet":
                pager.write_parquet(tmp_path / "b.parquet")
            else:
                list(pager)
    texts = [str(w.message) for w in caught if "unbounded" in str(w.message)]
    assert len(texts) == 1, [str(w.message) for w in caught]
    assert "GET /v1/chains/43114/blocks is unbounded (no limit= and no window)" in texts[0]
    assert "10 requests (100 compute units) per 1,000 items" in texts[0]
    assert "bound it with limit=N" in texts[0] and "a window (start=/end=)" in texts[0]


def test_a_bounded_walk_of_a_hosted_service_does_not_warn() -> None:
    data = ad.DataClient(base_url=HOSTED_NOWHERE, max_retries=0, connect_timeout=2.0, timeout=3.0)
    for call in (lambda: data.blocks("43114", limit=100).to_polars(), lambda: data.blocks("43114").to_polars(limit=5)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(ad.AvaxDataError):
                call()
        assert not [w for w in caught if "unbounded" in str(w.message)]


def test_a_metric_series_of_a_hosted_service_warns_only_without_limit_or_window() -> None:
    metrics = ad.MetricsClient(base_url=HOSTED_NOWHERE, max_retries=0, connect_timeout=2.0, timeout=3.0)
    walks = {
        "unbounded": lambda: metrics.metric("43114", "txCount").to_polars(),
        "limit": lambda: metrics.metric("43114", "txCount", limit=24).to_polars(),
        "window": lambda: metrics.metric("43114", "txCount", start="2025-01-01", end="2025-01-02").to_polars(),
    }
    for name, walk in walks.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(ad.AvaxDataError):
                walk()
        texts = [str(w.message) for w in caught if "unbounded" in str(w.message)]
        if name == "unbounded":
            assert len(texts) == 1, [str(w.message) for w in caught]
            assert "GET /v2/chains/43114/metrics/txCount is unbounded (no limit= and no window)" in texts[0]
            assert "per 1,000 items" in texts[0] and "bound it with limit=N" in texts[0]
        else:
            assert not texts, (name, texts)
