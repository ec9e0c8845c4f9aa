"""Index ranges as partitioned datasets: read back as one table by polars, DuckDB and
pyarrow.dataset; reruns skip what is complete, redo what is not, add what a moved tip brings;
an interrupted export, rerun, equals an uninterrupted one."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad

CHUNK = 1_000


def read(path: Path) -> pl.DataFrame:
    frame = pl.scan_parquet(f"{path}/**/*.parquet", hive_partitioning=True).collect()
    return frame.sort("index")


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=3_500) as emu:
        yield emu


def test_a_dataset_reads_back_as_the_walk_with_polars_duckdb_and_pyarrow(emu: ad.Emulator, tmp_path: Path) -> None:
    node = ad.IndexClient(emu.url)
    truth = node.chain("X/tx").range(0).to_polars()
    rng = node.chain("X/tx").range(0)
    summary = rng.write_dataset(tmp_path, chunk=CHUNK)
    assert summary == {"partitions_written": 4, "partitions_skipped": 0, "rows_written": 3_500, "rows_skipped": 0}
    assert rng.next_index == rng.end == 3_500
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_avax_dataset.json", "_avax_dataset.lock", "chunk=0",
                                                          "chunk=1000", "chunk=2000", "chunk=3000"]
    assert (tmp_path / "_avax_dataset.lock").read_text() == "", "the lock is released"
    frame = read(tmp_path)
    assert frame.drop("chunk").equals(truth)
    assert frame["chunk"].to_list() == [i // CHUNK * CHUNK for i in range(3_500)]

    duckdb = pytest.importorskip("duckdb")
    [(count, distinct)] = duckdb.sql(
        f"select count(*), count(distinct index) from read_parquet('{tmp_path}/**/*.parquet', hive_partitioning=true)"
    ).fetchall()
    assert (count, distinct) == (3_500, 3_500)
    ds = pytest.importorskip("pyarrow.dataset")
    table = ds.dataset(str(tmp_path), format="parquet", partitioning="hive").to_table()
    assert table.num_rows == 3_500 and sorted(table.column("index").to_pylist()) == list(range(3_500))

    manifest = json.loads((tmp_path / "_avax_dataset.json").read_text())
    assert manifest["identity"]["source"] == "X/tx" and manifest["identity"]["chunk"] == CHUNK
    assert [(p["value"], p["first"], p["next"], p["rows"]) for p in manifest["partitions"]] == [
        (0, 0, 1000, 1000), (1000, 1000, 2000, 1000), (2000, 2000, 3000, 1000), (3000, 3000, 3500, 500)]
    assert all(len(p["sha256"]) == 64 and p["bytes"] > 0 for p in manifest["partitions"])


def test_rerun_skips_complete_partitions_and_the_moved_tip_adds_rows(tmp_path: Path) -> None:
    with ad.Emulator(containers=2_500) as emu, ad.IndexClient(emu.url) as node:
        node.chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK)
        again = node.chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK)
        assert again == {"partitions_written": 0, "partitions_skipped": 3, "rows_written": 0, "rows_skipped": 2_500}
        emu.advance("X/tx", 1_200)
        moved = node.chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK)
        # the partial chunk 2000.. is written whole now, and 3000.. is added
        assert moved == {"partitions_written": 2, "partitions_skipped": 2, "rows_written": 1_700, "rows_skipped": 2_000}
        truth = node.chain("X/tx").range(0).to_polars()
    assert truth.height == 3_700
    assert read(tmp_path).drop("chunk").equals(truth)


def test_an_interrupted_export_rerun_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    with ad.Emulator(containers=3_500) as emu:
        truth = ad.IndexClient(emu.url).chain("X/tx").range(0).to_polars()
        emu.set_faults({"503": 0.05}, fault_seed=9)  # seeded: the walk fails in its third partition, every run
        node = ad.IndexClient(emu.url, max_retries=0, concurrency=1)
        rng = node.chain("X/tx").range(0, batch_size=100)
        with pytest.raises(ad.ServerError) as failed:
            rng.write_dataset(tmp_path, chunk=CHUNK)
        emu.set_faults(None)
        _check_resumed(emu, rng, failed.value, truth, tmp_path)


def _check_resumed(emu: ad.Emulator, rng: ad.Range, failed: ad.AvaxDataError, truth: pl.DataFrame,
                   tmp_path: Path) -> None:
    # the error names the start of the partition that failed; the partitions before it are whole
    assert failed.next_index == rng.next_index and failed.next_index % CHUNK == 0
    assert not list(tmp_path.glob("**/.*")), "no temporary file is left"
    done = rng.next_index
    assert done > 0, "the fault plan should fail a later partition"
    resumed = ad.IndexClient(emu.url).chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK)
    assert resumed["partitions_skipped"] == done // CHUNK
    assert resumed["rows_written"] == 3_500 - done
    assert read(tmp_path).drop("chunk").equals(truth)


def test_an_altered_partition_is_written_again(emu: ad.Emulator, tmp_path: Path) -> None:
    node = ad.IndexClient(emu.url)
    node.chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK)
    victim = tmp_path / "chunk=1000" / "part.parquet"
    victim.write_bytes(victim.read_bytes()[:-100] + b"x" * 100)
    again = node.chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK)
    assert (again["partitions_written"], again["partitions_skipped"]) == (1, 3)
    assert read(tmp_path)["index"].to_list() == list(range(3_500))


def test_another_walk_into_the_directory_is_refused(emu: ad.Emulator, tmp_path: Path) -> None:
    node = ad.IndexClient(emu.url)
    node.chain("X/tx").range(0, 10).write_dataset(tmp_path, chunk=CHUNK)
    for call, differs in [
        (lambda: node.chain("X/tx").range(0, 10).write_dataset(tmp_path, chunk=500), "chunk 500"),
        (lambda: node.chain("P/block").range(0, 10).write_dataset(tmp_path, chunk=CHUNK), "P/block"),
        (lambda: node.chain("X/tx").range(0, 10, decode=True).write_dataset(tmp_path, chunk=CHUNK), "decode decoded"),
    ]:
        with pytest.raises(ad.InvalidParameterError, match="a directory of the same walk") as e:
            call()
        assert differs in str(e.value) and e.value.param == "dataset"
    with pytest.raises(ad.InvalidParameterError, match="chunk"):
        node.chain("X/tx").range(0, 10).write_dataset(tmp_path / "other", chunk=0)
    with pytest.raises(ad.InvalidParameterError, match="path"):
        node.chain("X/tx").range(0, 10).write_dataset(5)  # type: ignore[arg-type]


def test_the_async_range_writes_the_same_dataset(emu: ad.Emulator, tmp_path: Path) -> None:
    async def main() -> dict[str, int]:
        async with ad.AsyncIndexClient(emu.url) as node:
            return await node.chain("X/tx").range(0, 1_500).write_dataset(tmp_path, chunk=CHUNK)

    assert asyncio.run(main())["rows_written"] == 1_500
    assert read(tmp_path)["index"].to_list() == list(range(1_500))


def test_the_cli_writes_and_updates_a_dataset(emu: ad.Emulator, tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "avax_data", "index", "range", "--url", emu.url, *args],
                              capture_output=True, text=True, timeout=120)

    out = tmp_path / "ds"
    first = run("--chain", "X/tx", "--count", "2500", "--chunk", "1000", "--dataset", str(out))
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["partitions_written"] == 3
    second = run("--chain", "X/tx", "--dataset", str(out), "--chunk", "1000")
    assert second.returncode == 0, second.stderr
    summary = json.loads(second.stdout)
    assert (summary["partitions_skipped"], summary["partitions_written"], summary["end"]) == (2, 2, 3_500)
    assert read(out)["index"].to_list() == list(range(3_500))
    clash = run("--chain", "X/tx", "--dataset", str(out), "-o", str(tmp_path / "x.parquet"))
    assert clash.returncode == 2 and "does not go with --out" in clash.stderr


# ---- metric series: a month per partition ----

NOV_2025, FEB_2026 = 1_761_955_200, 1_769_904_000  # 2025-11-01 and 2026-02-01, 00:00 UTC


@pytest.fixture(scope="module")
def metrics_emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(data_blocks_per_chain=50_000, containers=10) as emu:
        yield emu


def test_a_metric_dataset_holds_the_series_a_month_per_partition(metrics_emu: ad.Emulator, tmp_path: Path) -> None:
    m = ad.MetricsClient(base_url=metrics_emu.url)
    truth = m.metric("43114", "txCount", interval="hour", start=NOV_2025, end=FEB_2026).to_polars().sort("timestamp")
    assert truth.height > 0
    done = m.write_dataset(tmp_path, "43114", "txCount", interval="hour", start=NOV_2025, end=FEB_2026)
    assert done == {"partitions_written": 3, "partitions_skipped": 0, "rows_written": truth.height, "rows_skipped": 0}
    assert sorted(p.name for p in (tmp_path / "chain=43114").iterdir()) == ["month=202511", "month=202512",
                                                                           "month=202601"]
    back = read_metric(tmp_path)
    assert back.select(truth.columns).equals(truth)
    assert back["month"].to_list() == [int(t.strftime("%Y%m")) for t in truth["timestamp"]]
    # every month had ended: a rerun writes nothing
    again = m.write_dataset(tmp_path, "43114", "txCount", interval="hour", start=NOV_2025, end=FEB_2026)
    assert again == {"partitions_written": 0, "partitions_skipped": 3, "rows_written": 0, "rows_skipped": truth.height}


def read_metric(path: Path) -> pl.DataFrame:
    return pl.read_parquet(f"{path}/**/*.parquet", hive_partitioning=True).sort("timestamp")


def test_the_current_month_is_written_again_and_other_series_are_refused(metrics_emu: ad.Emulator,
                                                                           tmp_path: Path) -> None:
    m = ad.MetricsClient(base_url=metrics_emu.url)
    first = m.write_dataset(tmp_path, "43114", "txCount", interval="day", start=NOV_2025)  # up to now
    months = first["partitions_written"]
    assert months >= 13  # 2025-11 .. the current month
    again = m.write_dataset(tmp_path, "43114", "txCount", interval="day", start=NOV_2025)
    assert (again["partitions_skipped"], again["partitions_written"]) == (months - 1, 1)
    truth = m.metric("43114", "txCount", interval="day", start=NOV_2025, end=2**31).to_polars().sort("timestamp")
    assert read_metric(tmp_path).select(truth.columns).equals(truth)
    with pytest.raises(ad.InvalidParameterError, match="a directory of the same walk") as e:
        m.write_dataset(tmp_path, "43114", "gasUsed", interval="day", start=NOV_2025)
    assert "43114/gasUsed/day" in str(e.value) and "43114/txCount/day" in str(e.value)
    with pytest.raises(ad.InvalidParameterError) as bad:
        m.write_dataset(tmp_path / "x", "43114", "txCount", interval="fortnight", start=NOV_2025)
    assert bad.value.param == "interval"


def test_the_cli_writes_a_metric_dataset(metrics_emu: ad.Emulator, tmp_path: Path) -> None:
    out = tmp_path / "tx"
    proc = subprocess.run([sys.executable, "-m", "avax_data", "metrics", "series", "43114", "txCount", "--base-url",
                           metrics_emu.url, "--interval", "hour", "--start", str(NOV_2025), "--end", str(FEB_2026),
                           "--dataset", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["partitions_written"] == 3
    assert read_metric(out).height > 0
    no_start = subprocess.run([sys.executable, "-m", "avax_data", "metrics", "series", "43114", "txCount",
                               "--base-url", metrics_emu.url, "--dataset", str(out)],
                              capture_output=True, text=True, timeout=120)
    assert no_start.returncode == 2 and "--dataset needs --interval and --start" in no_start.stderr
