"""Walks spread over a Dask LocalCluster (2 worker processes) against the emulator: the result
equals the single-process walk; a worker killed mid-partition is retried and nothing is lost or
repeated; the global rate limit is split over the cluster's threads."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _helpers import wait_until

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
add = pytest.importorskip("avax_data.dask")


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=3_000) as emu:
        yield emu


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    import cloudpickle

    # the workers unpickle this module's functions by value (tests/ is not on their path)
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
            distributed.Client(c) as client:
        yield client


def both_workers(client: Any) -> None:
    """Waits for the cluster's two workers (one killed by an earlier test is restarted by its
    nanny, which takes a while on a loaded machine), then for the client's view of them:
    ``scheduler_info()``, which the partition slots are read from, is a copy the client refreshes
    every few seconds, so it can still show one worker when the scheduler has two."""
    client.wait_for_workers(2, timeout=180)
    assert wait_until(lambda: len(client.scheduler_info()["workers"]) == 2, timeout=30)


def as_polars(frame: Any) -> pl.DataFrame:
    return pl.from_pandas(frame.reset_index(drop=True))


def test_the_cluster_walk_equals_the_single_process_walk(emu: ad.Emulator, cluster: Any) -> None:
    truth = ad.IndexClient(emu.url).chain("X/tx").range(0).to_polars()
    frame = add.index_range(emu.url, "X/tx", chunk=1_000)
    assert frame.npartitions == 3
    got = as_polars(frame.compute())
    assert got["chunk"].to_list() == [i // 1_000 * 1_000 for i in range(3_000)]
    for column in ("id", "bytes", "index"):
        assert got[column].to_list() == truth[column].to_list(), column
    assert got["timestamp"].dt.epoch("ns").to_list() == truth["timestamp"].dt.epoch("ns").to_list()
    workers = cluster.run(os.getpid)
    assert len(set(workers.values())) == 2


def dying_read_chunk(spec: Any) -> Any:
    """``read_chunk`` whose worker dies (os._exit) the first time it reads the chunk at 1000."""
    marker = Path(spec.options["_marker"])
    if spec.first == 1_000 and not marker.exists():
        marker.write_text("killed")
        os._exit(1)
    clean = add.ChunkSpec(spec.url, spec.path, spec.chunk, spec.first, spec.next, spec.decode, {})
    return add.read_chunk(clean)


def test_a_worker_killed_mid_partition_is_retried_and_nothing_is_lost(emu: ad.Emulator, cluster: Any,
                                                                      tmp_path: Path) -> None:
    specs = add.index_chunks(emu.url, "X/tx", 0, 3_000, chunk=1_000)
    marker = tmp_path / "killed"
    specs = [add.ChunkSpec(s.url, s.path, s.chunk, s.first, s.next, s.decode, {"_marker": str(marker)})
             for s in specs]
    meta = add.read_chunk(add.ChunkSpec(emu.url, "X/tx", 0, 0, 0))
    frame = dd.from_map(dying_read_chunk, specs, meta=meta, enforce_metadata=False)
    got = as_polars(frame.compute())
    assert marker.read_text() == "killed"  # a worker did die
    assert got["index"].to_list() == list(range(3_000))
    out = tmp_path / "dataset"
    frame.to_parquet(str(out), partition_on=["chunk"])
    back = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect().sort("index")
    assert back["index"].to_list() == list(range(3_000))
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["chunk=0", "chunk=1000", "chunk=2000"]


def test_the_rate_limit_is_split_over_the_clusters_threads(emu: ad.Emulator, cluster: Any) -> None:
    both_workers(cluster)  # a worker killed by another test is back
    specs = add.index_chunks(emu.url, "X/tx", 0, 3_000, chunk=1_000, rate_limit=10.0, compute_units_per_minute=100)
    assert {s.options["rate_limit"] for s in specs} == {5.0}  # 2 workers x 1 thread
    assert {s.options["compute_units_per_minute"] for s in specs} == {50}
    specs = add.index_chunks(emu.url, "X/tx", 0, 10, chunk=5, rate_limit=9.0, slots=3)
    assert {s.options["rate_limit"] for s in specs} == {3.0}
    frame = add.index_range(emu.url, "X/tx", 0, 40, chunk=10, rate_limit=50.0)
    assert as_polars(frame.compute())["index"].to_list() == list(range(40))


def test_metric_windows_equal_the_single_walk(emu: ad.Emulator, cluster: Any) -> None:
    with ad.MetricsClient(base_url=emu.url) as m:
        truth = m.metric("43114", "txCount", interval="hour", start=0, end=2**31).to_polars().sort("timestamp")
    frame = add.metric_series(emu.url, "43114", "txCount", interval="hour", start=1_000_000_000, end=2**31)
    got = as_polars(frame.compute()).sort("timestamp")
    assert got["timestamp"].dt.epoch("s").to_list() == truth["timestamp"].dt.epoch("s").to_list()
    assert got["value"].to_list() == truth["value"].to_list()


def test_bad_arguments_are_refused_before_any_partition_runs(emu: ad.Emulator) -> None:
    for call, param in [
        (lambda: add.index_range(emu.url, "X/tx", chunk=0), "chunk"),
        (lambda: add.index_range(emu.url, "Q/tx"), "path"),
        (lambda: add.index_range(emu.url, "X/tx", start=-1), "start"),
        (lambda: add.index_range(emu.url, "X/tx", rate_limit=0), "rate_limit"),
        (lambda: add.index_range(emu.url, "X/tx", slots=0, rate_limit=1.0), "slots"),
        (lambda: add.metric_series(emu.url, "43114", "txCount", interval="fortnight", start=0, end=10), "interval"),
    ]:
        with pytest.raises(ad.InvalidParameterError) as e:
            call()
        assert e.value.param == param, (param, e.value)


def test_the_cluster_writes_the_dataset_and_manifest_of_the_single_process_writer(emu: ad.Emulator, cluster: Any,
                                                                                  tmp_path: Path) -> None:
    both_workers(cluster)
    out, single = tmp_path / "cluster", tmp_path / "single"
    summary = add.write_index_dataset(emu.url, "X/tx", out, 0, 2_500, chunk=1_000)
    assert summary == {"partitions_written": 3, "partitions_skipped": 0, "rows_written": 2_500, "rows_skipped": 0}
    assert not Path(f"{out}.dask-staging").exists()
    ad.IndexClient(emu.url).chain("X/tx").range(0, 2_500).write_dataset(single, chunk=1_000)
    ours, theirs = (json.loads((d / "_avax_dataset.json").read_text()) for d in (out, single))
    # same identity, partitions, rows, sizes and sha256 (the modification times are the files' own)
    assert all(isinstance(p.pop("mtime_ns"), int) for m in (ours, theirs) for p in m["partitions"])
    assert ours == theirs
    back = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect().sort("index")
    assert back["index"].to_list() == list(range(2_500))

    # a rerun of the single-process writer recognises the cluster's dataset, and the other way round
    again = ad.IndexClient(emu.url).chain("X/tx").range(0, 3_000).write_dataset(out, chunk=1_000)
    assert (again["partitions_skipped"], again["partitions_written"], again["rows_written"]) == (2, 1, 1_000)
    (out / "chunk=1000" / "part.parquet").write_bytes(b"altered")
    rerun = add.write_index_dataset(emu.url, "X/tx", out, 0, 3_000, chunk=1_000)
    assert rerun == {"partitions_written": 1, "partitions_skipped": 2, "rows_written": 1_000, "rows_skipped": 2_000}
    back = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect().sort("index")
    assert back["index"].to_list() == list(range(3_000))
    with pytest.raises(ad.InvalidParameterError, match="a directory of the same walk") as other:
        add.write_index_dataset(emu.url, "X/tx", out, 0, 3_000, chunk=500)
    assert other.value.param == "dataset"


def test_a_chunk_left_half_staged_by_a_killed_task_is_written_afresh(emu: ad.Emulator, cluster: Any,
                                                                      tmp_path: Path) -> None:
    both_workers(cluster)
    out = tmp_path / "ds"
    stage = Path(f"{out}.dask-staging") / "chunk=1000"
    (stage / "chunk=1000").mkdir(parents=True)
    (stage / "chunk=1000" / ".part.parquet.tmp").write_bytes(b"half a file")  # what a dead worker leaves
    done = add.write_index_dataset(emu.url, "X/tx", out, 0, 3_000, chunk=1_000)
    assert done["rows_written"] == 3_000 and not stage.exists()
    back = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect()
    assert sorted(back["index"].to_list()) == list(range(3_000))


_real_write_chunk = add.write_chunk


def dying_write_chunk(spec: Any, staging: str, chunk: int, compression: Any = "snappy") -> str:
    """``write_chunk`` whose worker dies (os._exit) the first time, half way into chunk 1000."""
    marker = Path(staging).parent.parent / "killed"
    if spec.first == 1_000 and not marker.exists():
        marker.write_text("killed")
        half = Path(staging) / "chunk=1000"
        half.mkdir(parents=True, exist_ok=True)
        (half / ".part.parquet.tmp").write_bytes(b"half a file")
        os._exit(1)
    return str(_real_write_chunk(spec, staging, chunk, compression))


def test_a_worker_killed_mid_chunk_of_the_dataset_writer_is_retried(emu: ad.Emulator, cluster: Any, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    both_workers(cluster)
    monkeypatch.setattr(add, "write_chunk", dying_write_chunk)
    out = tmp_path / "ds"
    done = add.write_index_dataset(emu.url, "X/tx", out, 0, 3_000, chunk=1_000)
    assert (tmp_path / "killed").read_text() == "killed"  # a worker did die
    assert done == {"partitions_written": 3, "partitions_skipped": 0, "rows_written": 3_000, "rows_skipped": 0}
    back = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect()
    assert sorted(back["index"].to_list()) == list(range(3_000))
    assert not list(out.glob("**/.*")), "no temporary file is left"
