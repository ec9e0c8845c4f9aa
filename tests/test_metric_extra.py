"""``metric()`` series follow the rule of every list frame (issue 34, section 2): a field of a
point the Metrics API document does not name reaches the user, in the dicts as sent and in the
frame's last column ``extra`` (one JSON object per point keyed by JSON Pointer, null when the
point has none): through iteration, ``to_polars``, ``write_parquet``, ``write_dataset``, the Arrow
stream and the CLI (a scripted Metrics API on loopback)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import polars as pl

from _cli import cli
from test_endpoints import scripted  # noqa: F401  (the scripted-server fixture)

import avax_data as ad

ROUTE = "/v2/chains/43114/metrics/txCount"
HOUR = 3600
T0 = 1_735_689_600  # 2025-01-01T00:00:00Z
# Newest first, as the service sends them; two pages, the second one short.
POINTS = [
    {"timestamp": T0 + 3 * HOUR, "value": 30, "partial": True, "source": {"lag": 12}},
    {"timestamp": T0 + 2 * HOUR, "value": 20},
    {"timestamp": T0 + 1 * HOUR, "value": 10.5, "note": None},
]
EXTRAS = [{"/partial": True, "/source": {"lag": 12}}, None, {"/note": None}]


def serve(server) -> None:  # noqa: ANN001
    server.pages[ROUTE] = {
        None: {"results": POINTS[:2], "nextPageToken": "p2"},
        "p2": {"results": POINTS[2:]},
    }


def times() -> list[dt.datetime]:
    return [dt.datetime.fromtimestamp(p["timestamp"], tz=dt.UTC) for p in POINTS]  # type: ignore[arg-type]


def check_frame(frame: pl.DataFrame) -> None:
    assert frame.columns == ["timestamp", "value", "extra"]
    assert frame.schema["extra"] == pl.String and frame.schema["value"] == pl.Float64
    assert frame["timestamp"].to_list() == times()
    assert frame["value"].to_list() == [30.0, 20.0, 10.5]
    assert [None if e is None else json.loads(e) for e in frame["extra"]] == EXTRAS


def test_a_point_with_fields_the_document_does_not_name_keeps_them_in_dicts_and_frames(scripted, tmp_path: Path) -> None:  # noqa: F811
    serve(scripted)
    with ad.MetricsClient(base_url=scripted.url, max_retries=0) as metrics:
        rows = list(metrics.metric("43114", "txCount", interval="hour"))
        frame = metrics.metric("43114", "txCount", interval="hour").to_polars()
        written = metrics.metric("43114", "txCount", interval="hour").write_parquet(tmp_path / "m.parquet")
        streamed = pl.DataFrame(metrics.metric("43114", "txCount", interval="hour"))
        batches = list(metrics.metric("43114", "txCount", interval="hour", page_size=2).batches())
    # dicts: every field as sent, the unnamed ones included, the time as an aware datetime
    assert [r["timestamp"] for r in rows] == times()
    assert rows[0]["partial"] is True and rows[0]["source"] == {"lag": 12}
    assert "note" in rows[2] and rows[2]["note"] is None
    assert all("extra" not in r for r in rows)
    check_frame(frame)
    assert written == 3
    back = pl.read_parquet(tmp_path / "m.parquet")
    check_frame(back)
    assert back.equals(frame)
    check_frame(streamed)
    # every page has the same schema, the page without an unnamed field too
    assert [b.schema for b in batches] == [frame.schema] * len(batches)
    check_frame(pl.concat(batches))


def test_the_cli_exports_the_extra_column(scripted, capsys, tmp_path: Path) -> None:  # noqa: F811
    serve(scripted)
    out = tmp_path / "m.parquet"
    res = cli(capsys, "metrics", "series", "43114", "txCount", "--base-url", scripted.url, "--interval", "hour",
              "-o", str(out), "-q")
    assert res.code == 0, res.err
    check_frame(pl.read_parquet(out))
    res = cli(capsys, "metrics", "series", "43114", "txCount", "--base-url", scripted.url, "--interval", "hour",
              "-o", "-", "-q")
    assert res.code == 0, res.err
    lines = [json.loads(line) for line in res.out.splitlines()]
    assert [line["value"] for line in lines] == [30, 20, 10.5]
    assert [None if line["extra"] is None else json.loads(line["extra"]) for line in lines] == EXTRAS


def test_a_metric_dataset_keeps_the_extra_column(scripted, tmp_path: Path) -> None:  # noqa: F811
    serve(scripted)
    with ad.MetricsClient(base_url=scripted.url, max_retries=0) as metrics:
        done = metrics.write_dataset(tmp_path, "43114", "txCount", interval="hour", start=T0, end=T0 + 4 * HOUR)
    assert done["rows_written"] == 3
    back = pl.read_parquet(f"{tmp_path}/**/*.parquet", hive_partitioning=True)
    check_frame(back.drop("chain", "month").sort("timestamp", descending=True))


def test_emulated_points_have_a_null_extra() -> None:
    with ad.Emulator(containers=10, data_blocks_per_chain=50) as emu, ad.MetricsClient(base_url=emu.url) as metrics:
        frame = metrics.metric("43114", "txCount", interval="day", limit=5).to_polars()
    assert frame.columns == ["timestamp", "value", "extra"] and frame.height == 5
    assert frame["extra"].null_count() == 5
