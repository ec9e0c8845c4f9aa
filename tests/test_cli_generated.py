"""``avax-data metrics <operation>`` (and ``data <operation>``): one command for every generated
endpoint method, built from the operation table; lists export typed frames, objects print JSON,
arguments are checked from the document before any request (scripted server, no emulator)."""

from __future__ import annotations

import json

import polars as pl

from _cli import cli
from test_endpoints import NOWHERE, scripted  # noqa: F401  (the scripted-server fixture)

import avax_data as ad
from avax_data import _endpoints


def test_every_generated_method_of_both_services_has_a_command(capsys) -> None:
    for (service, method), (op_id, *_rest) in _endpoints.SPECS.items():
        result = cli(capsys, service, method.replace("_", "-"), "--help")
        assert result.code == 0, (service, method, result.err)
        assert f"(operationId {op_id})" in result.out


def test_metrics_staking_exports_a_typed_frame_over_pages(scripted, capsys, tmp_path) -> None:  # noqa: F811
    path = "/v2/networks/mainnet/metrics/validatorCount"
    scripted.pages[path] = {
        None: {"results": [{"value": 1700, "timestamp": 1709251200}], "nextPageToken": "p2"},
        "p2": {"results": [{"value": 1699.5, "timestamp": 1709164800}]},
    }
    out = tmp_path / "staking.parquet"
    result = cli(capsys, "metrics", "staking", "mainnet", "validatorCount", "--start", "1709000000",
                 "--page-size", "1", "--base-url", scripted.url, "--out", str(out), "--quiet")
    assert result.code == 0, result.err
    frame = pl.read_parquet(out)
    assert frame["value"].to_list() == [1700.0, 1699.5]
    assert frame.schema["timestamp"] == pl.Datetime("ns", "UTC")
    assert scripted.queries[0]["startTimestamp"] == ["1709000000"] and scripted.queries[0]["pageSize"] == ["1"]
    assert scripted.queries[1]["pageToken"] == ["p2"]
    # The same rows as the method gives.
    with ad.MetricsClient(scripted.url, max_retries=0) as metrics:
        assert metrics.staking("mainnet", "validatorCount").to_polars().equals(frame)


def test_metrics_object_operations_print_json(scripted, capsys) -> None:  # noqa: F811
    scripted.pages["/v2/chains/43114/rollingWindowMetrics/txCount"] = {
        None: {"result": {"lastHour": 5, "lastDay": 120, "lastWeek": 900}}}
    result = cli(capsys, "metrics", "rolling-window-metric", "43114", "txCount", "--base-url", scripted.url)
    assert result.code == 0, result.err
    assert json.loads(result.out)["result"]["lastDay"] == 120


def test_metrics_arguments_are_checked_before_any_request(capsys, tmp_path) -> None:
    result = cli(capsys, "metrics", "staking", "mainnet", "validatorAge", "--base-url", NOWHERE,
                 "--out", str(tmp_path / "x.parquet"))
    assert result.code != 0
    assert 'invalid metric="validatorAge": one of delegatorCount, delegatorWeight, validatorCount' in result.err
    assert not (tmp_path / "x.parquet").exists()
    result = cli(capsys, "metrics", "staking", "mainnet", "--base-url", NOWHERE)
    assert result.code != 0 and "METRIC" in result.err
