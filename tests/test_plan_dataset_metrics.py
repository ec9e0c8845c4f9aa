"""The plan of a metric series written as a dataset (``MetricsClient.plan_dataset``, ``metrics
series --dataset DIR --dry-run``) month by month: a month held whole costs nothing, every other
one (missing, open when written, altered) the pages of its own window. Checked against the
emulator's request log of the write that follows."""
from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

import avax_data as ad
from _cli import cli
from test_plan import walk_log as logged, within


def ts(year: int, month: int, day: int = 1) -> int:
    return int(dt.datetime(year, month, day, tzinfo=dt.timezone.utc).timestamp())


START, END = ts(2025, 8), ts(2026, 1)  # five months that ended long ago: complete once written


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(containers=10, data_blocks_per_chain=500) as emulator:
        yield emulator


def test_missing_partial_and_altered_months_are_planned_as_their_own_windows(emu: ad.Emulator,
                                                                            tmp_path: Path) -> None:
    m = ad.MetricsClient(base_url=emu.url)
    ds = tmp_path / "tx"
    fresh = m.plan_dataset(ds, "43114", "txCount", interval="day", start=START, end=END)
    written = logged(emu, lambda: m.write_dataset(ds, "43114", "txCount", interval="day", start=START, end=END))
    assert (fresh.requests, fresh.held, written[0]) == (5, 0, 5)
    assert within(fresh.compute_units, written[1])

    shutil.rmtree(ds / "chain=43114" / "month=202510")  # a missing middle month
    part = ds / "chain=43114" / "month=202508" / "part.parquet"
    part.write_bytes(part.read_bytes() + b"x")  # an altered one
    before = len(emu.request_log())
    plan = m.plan_dataset(ds, "43114", "txCount", interval="day", start=START, end=END)
    assert len(emu.request_log()) == before, "a plan sends nothing"
    held = json.loads((ds / "_avax_dataset.json").read_text())["partitions"]
    assert plan.held == sum(p["rows"] for p in held if p["value"] in (202509, 202511, 202512))
    assert (plan.requests, plan.requests_kind) == (2, "at most")
    requests, units = logged(emu, lambda: m.write_dataset(ds, "43114", "txCount", interval="day", start=START, end=END))
    assert (requests, units) == (plan.requests, plan.compute_units)

    # Whole now: the plan and the write send nothing.
    whole = m.plan_dataset(ds, "43114", "txCount", interval="day", start=START, end=END)
    assert (whole.requests, whole.requests_kind, whole.compute_units) == (0, "exact", 0)
    assert logged(emu, lambda: m.write_dataset(ds, "43114", "txCount", interval="day", start=START, end=END)) == (0, 0)

    # A month written partial (the window ended mid-month) is fetched whole by a longer rerun.
    short = tmp_path / "short"
    m.write_dataset(short, "43114", "txCount", interval="hour", start=ts(2025, 11), end=ts(2025, 12, 15))
    longer = m.plan_dataset(short, "43114", "txCount", interval="hour", start=ts(2025, 11), end=END)
    assert (longer.requests, longer.items) == (1, 31 * 24 + 1)
    sent = logged(emu, lambda: m.write_dataset(short, "43114", "txCount", interval="hour", start=ts(2025, 11), end=END))
    assert sent == (longer.requests, longer.compute_units)


def test_another_series_and_bad_parameters_are_refused(emu: ad.Emulator, tmp_path: Path) -> None:
    m = ad.MetricsClient(base_url=emu.url)
    ds = tmp_path / "tx"
    m.write_dataset(ds, "43114", "txCount", interval="day", start=ts(2025, 12), end=END)
    before = len(emu.request_log())
    with pytest.raises(ValueError, match="same walk"):
        m.plan_dataset(ds, "43114", "gasUsed", interval="day", start=ts(2025, 12), end=END)
    with pytest.raises(ad.InvalidParameterError) as bad:
        m.plan_dataset(ds, "43114", "txCount", interval="fortnight", start=ts(2025, 12))
    assert bad.value.param == "interval"
    with pytest.raises(ad.InvalidParameterError) as bad:
        m.plan_dataset(ds, "43114", "txCount", interval="day", start="soon")
    assert bad.value.param == "start"
    with pytest.raises(ValueError, match="metric"):
        m.plan_dataset(ds, "43114", "txCounts", interval="day", start=ts(2025, 12))
    assert len(emu.request_log()) == before and not (tmp_path / "none").exists()


def test_dry_run_of_a_metric_dataset_with_a_hole(capsys, emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "tx"
    base = ["metrics", "series", "43114", "txCount", "--url", emu.url, "--interval", "day",
            "--start", "2025-08-01", "--end", "2026-01-01", "--dataset", str(ds)]
    assert cli(capsys, *base, "-q").code == 0
    shutil.rmtree(ds / "chain=43114" / "month=202509")
    before = len(emu.request_log())
    res = cli(capsys, *base, "--dry-run", "--json")
    assert res.code == 0 and len(emu.request_log()) == before, res.err
    plan = json.loads(res.out)
    assert (plan["requests"], plan["held"] > 0) == (1, True)
    assert logged(emu, lambda: cli(capsys, *base, "-q")) == (plan["requests"], plan["compute_units"])
