"""Cost plans before a walk: each plan is checked against what the emulator's request log
counts for the same walk (requests, and compute units priced independently from the vendored
OpenAPI documents), tiers, the ratelimit-header override, the daily-budget warning and
``--dry-run``."""

from __future__ import annotations

import datetime as dt
import json
import re
import warnings
from pathlib import Path

import pytest

import avax_data as ad
from _cli import cli

SPEC = Path(__file__).resolve().parent.parent / "spec" / "openapi"
UNITS = {"free": 1, "small": 10, "medium": 20, "large": 50, "xl": 100, "xxl": 200}
END = int(dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc).timestamp())  # the emulator world's "now"


def _operations() -> list[tuple[re.Pattern[str], int]]:
    """(path regex, compute units) of every GET operation of both vendored documents."""
    out = []
    for name in ("data-api.openapi.json", "metrics-api.openapi.json"):
        doc = json.loads((SPEC / name).read_text())
        for template, item in doc["paths"].items():
            get = item.get("get")
            if get is None or "x-execution-weight" not in get:
                continue
            literal = len(re.sub(r"\{[^}]+\}", "", template))
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            out.append((pattern, UNITS[get["x-execution-weight"]], literal))
    out.sort(key=lambda op: -op[2])  # the most specific template first
    return [(p, u) for p, u, _ in out]


OPERATIONS = _operations()


def counted(log: list[tuple[float, str]]) -> tuple[int, int]:
    """(requests, compute units) of a request log: Index RPC calls cost 20, REST calls their
    operation's documented weight."""
    units = 0
    for _, path in log:
        path = path.split("?")[0]
        if path.startswith("/ext/"):
            units += 20
            continue
        units += next(u for p, u in OPERATIONS if p.match(path))
    return len(log), units


def within(planned: int | None, actual: int) -> bool:
    return planned is not None and abs(planned - actual) <= 0.1 * actual


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(containers=3_000, data_blocks_per_chain=500) as emulator:
        yield emulator


def walk_log(emu: ad.Emulator, run) -> tuple[int, int]:
    """(requests, compute units) that `run` sends, by the emulator's request log."""
    before = len(emu.request_log())
    run()
    return counted(emu.request_log()[before:])


def test_index_range_plan_matches_the_request_log(emu: ad.Emulator) -> None:
    with ad.IndexClient(emu.url) as node:
        rng = node.chain("X/tx").range(100, 2_600, batch_size=200)
        plan = rng.plan()
        assert (plan.requests, plan.requests_kind, plan.units_per_request) == (13, "exact", 0)
        assert plan.operation.startswith("POST /ext/index/X/tx")
        requests, units = walk_log(emu, rng.to_polars)
    # The emulator is a node of your own: unmetered, so no compute units and no budget.
    assert within(plan.requests, requests) and not plan.metered, (plan, requests, units)
    assert (plan.compute_units, plan.daily_share, plan.seconds_at_tier_budget) == (0, None, None)
    assert "unmetered" in str(plan) and "daily budget" not in str(plan)
    # The same walk at a hosted endpoint prices what the emulator's log charges.
    hosted = ad.IndexClient("https://api.avax.network").chain("X/tx").range(100, 2_600, batch_size=200).plan()
    assert hosted.metered and hosted.units_per_request == 20 and hosted.requests == plan.requests
    assert within(hosted.compute_units, units), (hosted, units)
    assert hosted.tier == "unauthenticated" and hosted.units_per_day == 1_200_000
    assert hosted.daily_share == pytest.approx(hosted.compute_units / 1_200_000)
    assert hosted.seconds_at_tier_budget == pytest.approx(hosted.compute_units * 60 / 6_000)


def test_data_pager_with_a_known_count(emu: ad.Emulator) -> None:
    with ad.DataClient(emu.url, api_key="k") as data:
        pager = data.blocks("43114", page_size=25, limit=300)
        plan = pager.plan()
        assert (plan.requests, plan.requests_kind, plan.units_per_request) == (12, "at most", 10)
        assert plan.tier == "free" and plan.units_per_minute == 8_000
        requests, units = walk_log(emu, pager.to_polars)
        assert within(plan.requests, requests) and within(plan.compute_units, units), (plan, requests, units)
        unknown = data.blocks("43114", page_size=20).plan()
    assert (unknown.requests, unknown.compute_units, unknown.requests_kind) == (None, None, "unknown")
    assert (unknown.pages_per_1000_items, unknown.units_per_1000_items) == (50, 500)
    assert unknown.unknown and "count" in unknown.unknown[0]
    assert unknown.to_dict()["requests"] is None and "unknown" in str(unknown)


@pytest.fixture(scope="module")
def days() -> ad.Emulator:
    with ad.Emulator(data_blocks_per_chain=50_000) as emulator:   # a few days of blocks and metrics
        yield emulator


@pytest.mark.parametrize("concurrency", [1, 4])
def test_metrics_walk_plans_sequential_and_sharded(days: ad.Emulator, concurrency: int) -> None:
    with ad.MetricsClient(days.url, rate_limit=50.0) as metrics:
        walk = metrics.metric("43114", "txCount", interval="hour", start=END - 24 * 3600, end=END, page_size=3,
                              concurrency=concurrency)
        plan = walk.plan()
        assert plan.units_per_request == 10 and plan.items in (24, 25)
        assert ("shards" in plan.operation) == (concurrency > 1)
        requests, units = walk_log(days, walk.to_polars)
        assert walk.items_read >= 23
    assert within(plan.requests, requests) and within(plan.compute_units, units), (plan.to_dict(), requests, units)
    assert plan.seconds_at_client_limits == pytest.approx(plan.requests / 50.0)


def test_tier_parameter_environment_and_errors(emu: ad.Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AVAX_DATA_TIER", raising=False)
    assert ad.DataClient(emu.url, tier="GROWTH").blocks("43114", limit=10).plan().tier == "growth"
    assert ad.MetricsClient(emu.url, tier="Pro").chains(limit=5).plan().units_per_day == 25_000_000
    with pytest.raises(ad.InvalidParameterError, match=r'invalid tier="enterprise": one of unauthenticated, free, base, growth, pro'):
        ad.DataClient(emu.url, tier="enterprise")
    with pytest.raises(ad.InvalidParameterError, match=r"invalid tier=3"):
        ad.AsyncMetricsClient(emu.url, tier=3)
    monkeypatch.setenv("AVAX_DATA_TIER", "base")
    assert ad.AsyncDataClient(emu.url).blocks("43114", limit=10).plan().tier == "base"
    monkeypatch.setenv("AVAX_DATA_TIER", "gold")
    with pytest.raises(ad.InvalidParameterError, match=r'invalid AVAX_DATA_TIER="gold"'):
        ad.DataClient(emu.url)


def test_ratelimit_headers_override_the_tier() -> None:
    with ad.Emulator(rate_limit=(300, 30)) as limited, ad.DataClient(limited.url, api_key="k", tier="pro") as data:
        pager = data.blocks("43114", page_size=10, limit=40)
        assert (pager.plan().units_per_minute, pager.plan().per_minute_source) == (20_000, "tier")
        data.health()
        plan = pager.plan()
    assert (plan.units_per_minute, plan.per_minute_source) == (600, "ratelimit headers")
    assert plan.seconds_at_tier_budget == pytest.approx(40 * 60 / 600)


def test_a_walk_over_the_daily_budget_warns_before_its_first_request(emu: ad.Emulator) -> None:
    seen: list[int] = []
    with ad.DataClient(emu.url) as data, warnings.catch_warnings():
        pager = data.blocks("43114", page_size=1, limit=130_000)   # 130,000 x 10 > 1,200,000
        assert pager.plan().over_daily_budget is not None
        before = len(emu.request_log())

        def stop(message, *args, **kwargs):
            seen.append(len(emu.request_log()) - before)
            raise RuntimeError(str(message))

        warnings.showwarning = stop
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="daily budget of 1200000"):
            pager.to_polars()
        assert seen == [0] and len(emu.request_log()) == before
        assert ad.DataClient(emu.url, tier="pro").blocks("43114", page_size=1, limit=130_000).plan().over_daily_budget is None
    # A node's Index RPC is metered only at a hosted endpoint: there the warning (raised here as
    # an error) comes before any request; the emulator, a node of your own, has no budget.
    with ad.IndexClient("https://api.avax.network") as node, warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="unauthenticated tier's daily budget"):
            node.chain("X/tx").range(0, 70_000, batch_size=1).to_polars()
    with ad.IndexClient(emu.url) as node, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert node.chain("X/tx").range(0, 70_000, batch_size=1_000).plan().over_daily_budget is None
        node.chain("X/tx").range(2_990, 70_000, batch_size=1_000).to_polars()
    assert not [w for w in caught if "daily budget" in str(w.message)]


def test_plan_shows_itself(emu: ad.Emulator) -> None:
    plan = ad.IndexClient(emu.url).chain("C/block").range(0, 1_000, batch_size=100).plan()
    assert repr(plan).startswith("Plan(operation='POST /ext/index/C/block") and "requests=10" in repr(plan)
    assert "<table>" in plan._repr_html_()
    assert set(plan.to_dict()) >= {"requests", "compute_units", "tier", "daily_share", "seconds_at_tier_budget", "unknown"}
    to_tip = ad.IndexClient(emu.url).chain("C/block").range(0).plan()
    assert to_tip.requests is None and "tip" in to_tip.unknown[0]
    with pytest.raises(ad.InvalidParameterError, match="items"):
        plan.less_held(-1)


@pytest.mark.parametrize("args", [
    ["index", "range", "--chain", "X/tx", "--start", "0", "--count", "1000", "--batch-size", "100"],
    ["data", "blocks", "43114", "--limit", "100", "--page-size", "10"],
    ["metrics", "series", "43114", "txCount", "--interval", "day", "--start", "2025-01-01", "--end", "2025-06-01"],
    ["metrics", "chains", "--limit", "10"],
    ["index", "follow", "--chain", "X/tx", "--start", "0", "--count", "10"],
    ["walk", "--chain", "X/tx", "--count", "500"],
    ["data", "blocks", "43114", "--limit", "100", "--dataset", "DIR"],
    ["metrics", "series", "43114", "txCount", "--interval", "day", "--start", "2025-01-01", "--dataset", "DIR"],
])
def test_dry_run_prints_the_plan_and_sends_nothing(capsys, emu: ad.Emulator, tmp_path: Path, args: list[str]) -> None:
    before = len(emu.request_log())
    out = tmp_path / "out.parquet"
    args = [str(tmp_path / "ds") if a == "DIR" else a for a in args]
    if "--dataset" not in args:
        args += ["-o", str(out)]
    res = cli(capsys, *args, "--url", emu.url, "--dry-run", "--json")
    assert res.code == 0, res.err
    plan = json.loads(res.out)
    node = args[0] in ("index", "walk")  # the emulator's Index RPC: a node of your own, unmetered
    assert plan["units_per_request"] in ((0,) if node else (1, 10, 20)), plan
    assert plan["metered"] is (not node) and plan["tier"] == "unauthenticated"
    text = cli(capsys, *args, "--url", emu.url, "--dry-run")
    assert text.code == 0 and text.out.startswith("plan: ") and "compute units" in text.out
    assert len(emu.request_log()) == before and not out.exists() and not (tmp_path / "ds").exists()


def test_dataset_write_plan_subtracts_what_the_dataset_holds(capsys, emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "x_tx"
    base = ["index", "range", "--chain", "X/tx", "--url", emu.url, "--start", "0", "--batch-size", "50", "--chunk", "500", "--dataset", str(ds)]
    assert cli(capsys, *base, "--count", "1000", "-q").code == 0
    before = len(emu.request_log())
    res = cli(capsys, *base, "--count", "3000", "--dry-run", "--json")
    assert res.code == 0 and len(emu.request_log()) == before, res.err
    plan = json.loads(res.out)
    # 40 range calls, and the read of container 0 that checks the dataset's network
    assert plan["held"] == 1000 and plan["items"] == 2000 and plan["requests"] == 41
    assert cli(capsys, *base, "--count", "3000", "-q").code == 0
    requests, units = counted([e for e in emu.request_log()[before:] if e[1].startswith("/ext/index/X/tx")])
    assert within(plan["requests"], requests) and plan["compute_units"] == 0 and units > 0, (plan, requests)
