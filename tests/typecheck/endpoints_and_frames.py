"""A user's script over the generated endpoint methods, pagers and frames, type-checked with
``mypy --strict`` by tests/test_stubs.py (never run)."""

from __future__ import annotations

import datetime

import polars as pl

import avax_data as ad


def balances(data: ad.DataClient, address: str) -> pl.DataFrame:
    pager: ad.Pager = data.erc20_balances(43114, address, filter_spam_tokens=True, page_size=50, limit=200)
    plan: ad.Plan = pager.plan()
    requests: int | None = plan.requests
    kind: str = plan.requests_kind
    pages: list[list[dict[str, object]]] = [list(page) for page in pager.restart().pages()]
    frames: list[pl.DataFrame] = list(pager.restart().batches())
    frame = pager.to_polars(limit=100)
    written: int = data.validators("mainnet", node_ids="NodeID-1").write_parquet("validators.parquet")
    details: dict[str, object] = data.network_details("mainnet")
    del requests, kind, pages, frames, written, details
    return frame


def series(metrics: ad.MetricsClient) -> int:
    timeseries = metrics.icm_timeseries(start=datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
                                        end=1_706_745_600, group_by=["srcBlockchainId"])
    rows = sum(1 for _ in timeseries)
    window: dict[str, object] = metrics.rolling_window_metric(43114, "txCount")
    dataset: dict[str, int] = metrics.write_dataset("out", 43114, "txCount", interval="day",
                                                    start=datetime.date(2024, 1, 1))
    return rows + len(window) + dataset.get("rows", 0)


def walk_frames(node: ad.IndexClient) -> int:
    rng = node.chain("P/block").range(0, 2_000, concurrency=4)
    head: pl.DataFrame = next(iter(rng.batches(decode=True)))
    decoded: pl.DataFrame = rng.restart().to_polars(decode="strict")
    manifest: dict[str, int] = rng.restart().write_dataset("p-blocks", chunk=500)
    resume: int | None = node.chain("X/tx").follow(start=10).next_index
    return head.height + decoded.height + len(manifest) + (resume or 0)
