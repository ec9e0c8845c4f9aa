"""What a cache or an interrupted export already holds, subtracted by ``plan()`` and ``--dry-run``
(the plan against the emulator's request log); ``decode="senders"`` on walks of C/block; and a
cache shared by two networks served at one URL."""

from __future__ import annotations

import datetime as dt
import json
import urllib.request
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _cli import cli
from avax_data._native import cache_info
from avax_data.exceptions import InvalidParameterError

UTC = dt.timezone.utc


def within(planned: int | None, actual: int) -> bool:
    return planned is not None and abs(planned - actual) <= 0.1 * max(actual, 1)


def sent(emu: ad.Emulator, run) -> int:
    """Requests the emulator received while ``run()`` ran."""
    before = emu.request_count()
    run()
    return emu.request_count() - before


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(seed=3, containers=1_000, data_blocks_per_chain=120) as emulator:
        yield emulator


def test_a_cached_rerun_plans_no_request_and_sends_none(emu: ad.Emulator, tmp_path: Path) -> None:
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        first = node.chain("X/tx").range(0, 300, batch_size=100)
        plan = first.plan()
        # A client that has not read the chain's identity: one call for it, then one per chunk.
        assert (plan.requests, plan.cached_items, plan.compute_units, plan.metered) == (4, 0, 0, False)
        assert any("identity" in u for u in plan.unknown)
        assert sent(emu, first.to_polars) == 4
        again = node.chain("X/tx").range(0, 300, batch_size=100)
        plan = again.plan()
        assert (plan.requests, plan.requests_kind, plan.cached_items, plan.compute_units) == (0, "exact", 300, 0)
        assert plan.items == 300 and plan.to_dict()["cached_items"] == 300
        assert "from the cache:  300 items" in str(plan)
        assert sent(emu, again.to_polars) == 0
    # A new client of the same URL: the identity read is the one request left.
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        rng = node.chain("X/tx").range(0, 300, batch_size=100)
        plan = rng.plan()
        assert (plan.requests, plan.cached_items) == (1, 300)
        assert sent(emu, rng.to_polars) == 1


def test_a_half_cached_range_plans_within_ten_percent_of_the_log(emu: ad.Emulator, tmp_path: Path) -> None:
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        node.chain("X/block").range(0, 150, batch_size=100).to_polars()
        node.chain("X/block").range(400, 430, batch_size=100).to_polars()
        rng = node.chain("X/block").range(0, 1_000, batch_size=100)
        plan = rng.plan()
        # chunk 0 held whole, chunk 1 up to 150, chunk 4 from 400 to 430: 9 calls.
        assert (plan.requests, plan.cached_items) == (9, 180)
        requests = sent(emu, rng.to_polars)
        assert within(plan.requests, requests) and plan.compute_units == 0, (plan, requests)
        # Everything is cached now but the tip (999 of 1,000), which never is: one call left.
        last = node.chain("X/block").range(0, 1_000, batch_size=100).plan()
        assert (last.requests, last.cached_items) == (1, 999)
        assert node.chain("X/block").range(0, 999, batch_size=100).plan().requests == 0


def test_metrics_plan_counts_closed_buckets_held(tmp_path: Path) -> None:
    window = dict(interval="hour", start=dt.datetime(2025, 12, 31, 12, tzinfo=UTC),
                  end=dt.datetime(2026, 1, 1, tzinfo=UTC), page_size=5, concurrency=3)
    # enough blocks that every hour of the window has a point (the order probe sees two)
    with ad.Emulator(data_blocks_per_chain=50_000) as days, ad.MetricsClient(days.url, cache=tmp_path) as metrics:
        walk = metrics.metric(43114, "txCount", **window)
        plan = walk.plan()
        assert plan.cached_items == 0 and "3 shards" in plan.operation
        requests = sent(days, walk.to_polars)
        assert requests > 1 and within(plan.requests, requests), (plan.to_dict(), requests)
        rerun = metrics.metric(43114, "txCount", **window)
        plan = rerun.plan()
        assert (plan.requests, plan.compute_units, plan.cached_items) == (0, 0, 12), plan.to_dict()
        assert sent(days, rerun.to_polars) == 0


def test_dry_run_with_a_cache_and_with_resume(capsys, emu: ad.Emulator, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    with ad.IndexClient(emu.url, cache=cache) as node:
        node.chain("X/block").range(0, 200, batch_size=100).to_polars()
    monkeypatch.setenv("AVAX_DATA_CACHE", str(cache))
    base = ["index", "range", "--chain", "X/block", "--url", emu.url, "--start", "0", "--batch-size", "100"]
    before = emu.request_count()
    res = cli(capsys, *base, "--count", "500", "-o", str(tmp_path / "x.parquet"), "--dry-run", "--json")
    assert res.code == 0 and emu.request_count() == before, res.err
    plan = json.loads(res.out)
    # The tip read (a fresh export checks its range), the identity read, then 3 chunks of the 5
    # (the first two are held).
    assert (plan["requests"], plan["cached_items"]) == (5, 200), plan
    text = cli(capsys, *base, "--count", "500", "-o", str(tmp_path / "x.parquet"), "--dry-run")
    assert "from the cache:  200 items" in text.out
    monkeypatch.delenv("AVAX_DATA_CACHE")
    # An interrupted export: --resume plans only what its checkpoint does not record.
    out = tmp_path / "part.ndjson"
    args = ["index", "range", "--count", "1000", "--batch-size", "100", "--concurrency", "1", "--chunk-rows", "100",
            "--max-retries", "0"]
    with ad.Emulator(containers=1000, faults={"503": 0.15}, fault_seed=4) as flaky:
        assert cli(capsys, *args, "--url", flaky.url, "-o", str(out)).code == 3
        written = json.loads(Path(str(out) + ".avax-state.json").read_text())["rows_written"]
        assert 0 < written < 1000
        flaky.set_faults(None)
        res = cli(capsys, *args, "--url", flaky.url, "-o", str(out), "--resume", "--dry-run", "--json")
        assert res.code == 0, res.err
        plan = json.loads(res.out)
        # the chunks left, and the read of container 0 that checks the export's network
        assert plan["held"] == written and plan["requests"] == -(-(1000 - written) // 100) + 1, plan
        before = len(flaky.request_log())
        assert cli(capsys, *args, "--url", flaky.url, "-o", str(out), "--resume", "-q").code == 0
        ranges = [p for _, p in flaky.request_log()[before:] if p.startswith("/ext/index/")]
        # a resumed range reads no tip; it reads container 0 once, to check the export's network,
        # and its plan counts that read
        assert plan["requests"] == len(ranges), (plan, ranges)
        fresh = cli(capsys, *args, "--url", flaky.url, "-o", str(tmp_path / "new.ndjson"), "--resume", "--dry-run",
                    "--json")
        assert json.loads(fresh.out)["held"] == 0


def api_senders(url: str, number: int) -> list[str]:
    """The Data API's ``from`` of block ``number``'s transactions, in block order."""
    with urllib.request.urlopen(f"{url}/v1/chains/43114/blocks/{number}/transactions?pageSize=100",
                                timeout=30) as response:
        txs = json.loads(response.read())["transactions"]
    return [t["from"]["address"] for t in sorted(txs, key=lambda t: t["blockIndex"])]


def test_decode_senders_gives_each_transaction_its_from(emu: ad.Emulator) -> None:
    chain = ad.IndexClient(emu.url).chain("C/block")
    blocks = chain.range(40, 60, decode="senders", batch_size=8).to_polars()   # across the fork at 47/48
    txs = ad.transactions(blocks)
    assert txs.columns[:4] == ["block_number", "position", "hash", "from"] and txs.schema["from"] == pl.String
    assert txs.height == blocks["tx_count"].sum() > 0
    for number in (40, 46, 47, 48, 59):
        got = txs.filter(pl.col("block_number") == number).sort("position")["from"].to_list()
        assert got == api_senders(emu.url, number), number
    plain = chain.range(40, 60, decode=True).to_polars()
    assert ad.transactions(plain, senders=True).equals(txs)
    assert ad.transactions(blocks, senders=True).equals(txs)
    assert plain.drop("transactions").equals(blocks.drop("transactions"))
    one = chain.container(47, decode="senders")
    assert [t["from"] for t in one["transactions"]] == api_senders(emu.url, 47)
    row = next(iter(chain.range(50, 51, decode="senders").items()))
    assert [t["from"] for t in row["transactions"]] == api_senders(emu.url, 50)


@pytest.mark.parametrize(("path", "value", "named"), [
    ("C/block", "sender", "'senders'"),
    ("C/block", 1, "'senders'"),
    ("C/block", "Senders", "'strict'"),
    ("P/block", "senders", "only on C/block"),
    ("X/tx", "senders", "only on C/block"),
])
def test_bad_decode_values_are_refused_before_any_request(emu: ad.Emulator, path: str, value: object,
                                                           named: str) -> None:
    chain = ad.IndexClient(emu.url).chain(path)
    before = emu.request_count()
    for call in (lambda: chain.range(0, 5, decode=value), lambda: chain.container(3, decode=value),
                 lambda: chain.follow(start=0, decode=value)):
        with pytest.raises(InvalidParameterError) as err:
            call()
        assert err.value.param == "decode" and named in str(err.value), str(err.value)
    assert emu.request_count() == before


def test_two_networks_do_not_share_entries(tmp_path: Path) -> None:
    with ad.Emulator(seed=0, containers=200) as mainnet, ad.Emulator(seed=1, containers=200) as fuji:
        with ad.IndexClient(mainnet.url, cache=tmp_path) as node:
            first = node.chain("X/tx").range(0, 100).to_polars()
        with ad.IndexClient(fuji.url, cache=tmp_path) as node:
            got = node.chain("X/tx").range(0, 100)
            requests = sent(fuji, got.to_polars)
            other = node.chain("X/tx").range(0, 100).to_polars()
        with ad.IndexClient(fuji.url) as plain:
            truth = plain.chain("X/tx").range(0, 100).to_polars()
    assert requests == 2   # the identity, then the range: nothing of the other network was served
    assert other.equals(truth) and set(truth["id"]).isdisjoint(first["id"])
    assert cache_info(tmp_path)["kinds"]["index"]["entries"] == 200
