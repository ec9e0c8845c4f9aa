"""Data API lists as partitioned datasets, against the emulator: blocks by block-number chunk,
vertices by UTC month; read back as one table by polars, DuckDB and pyarrow.dataset; reruns
rewrite the newest partition, add what a moved head brings and stop at what is complete; an
interrupted walk (a fault), rerun, equals an uninterrupted one."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad

MANIFEST = "_avax_dataset.json"


def read(path: Path, by: str = "blockNumber") -> pl.DataFrame:
    return pl.scan_parquet(f"{path}/**/*.parquet", hive_partitioning=True).collect().sort(by, descending=True)


def manifest(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((path / MANIFEST).read_text())  # type: ignore[no-any-return]


def partitions(path: Path) -> list[tuple[int, int, bool]]:
    return [(p["value"], p["rows"], p["complete"]) for p in manifest(path)["partitions"]]


def test_a_block_dataset_reads_back_as_the_list_with_polars_duckdb_and_pyarrow(tmp_path: Path) -> None:
    with ad.Emulator(data_blocks_per_chain=500, containers=10) as emu, ad.DataClient(base_url=emu.url) as data:
        truth = data.blocks("43114").to_polars()
        pager = data.blocks("43114", page_size=30)
        summary = pager.write_dataset(tmp_path, chunk=200)
    assert summary == {"partitions_written": 3, "partitions_skipped": 0, "rows_written": 500, "rows_skipped": 0}
    assert pager.exhausted and pager.items_read == 500
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "_avax_dataset.lock", "block=0", "block=200",
                                                          "block=400"]
    frame = read(tmp_path)
    assert frame.drop("block").equals(truth)
    assert frame["block"].to_list() == [n // 200 * 200 for n in range(499, -1, -1)]
    # the newest chunk (400..599) is not full: new blocks may come, so it is not complete
    assert partitions(tmp_path) == [(0, 200, True), (200, 200, True), (400, 100, False)]
    found = manifest(tmp_path)
    assert found["identity"]["kind"] == "data_list_by_block" and found["identity"]["chunk"] == 200
    assert found["identity"]["source"] == "/v1/chains/43114/blocks" and found["end"] == 0
    assert all(len(p["sha256"]) == 64 and p["bytes"] > 0 for p in found["partitions"])

    duckdb = pytest.importorskip("duckdb")
    [(count, distinct)] = duckdb.sql(
        f"select count(*), count(distinct blockNumber) from read_parquet('{tmp_path}/**/*.parquet', "
        "hive_partitioning=true)").fetchall()
    assert (count, distinct) == (500, 500)
    ds = pytest.importorskip("pyarrow.dataset")
    table = ds.dataset(str(tmp_path), format="parquet", partitioning="hive").to_table()
    assert sorted(table.column("blockNumber").to_pylist()) == list(range(500))


def test_reruns_rewrite_the_newest_partition_add_new_ones_and_stop_at_complete_ones(tmp_path: Path) -> None:
    with ad.Emulator(data_blocks_per_chain=500, containers=10) as emu, ad.DataClient(base_url=emu.url) as data:
        data.blocks("43114").write_dataset(tmp_path, chunk=300)
        again = data.blocks("43114").write_dataset(tmp_path, chunk=300)
        # 300.. is written again (still partial); the walk stops at 0.., complete below the list's end
        assert again == {"partitions_written": 1, "partitions_skipped": 1, "rows_written": 200, "rows_skipped": 300}
        requests = emu.request_count()
        before = data.blocks("43114").to_polars()
    # the head moved: the same chain with 750 blocks (the emulator dates and hashes them anew, so
    # the rows a rerun does not rewrite show which run wrote them)
    with ad.Emulator(data_blocks_per_chain=750, containers=10) as emu, ad.DataClient(base_url=emu.url) as data:
        moved = data.blocks("43114", page_size=25).write_dataset(tmp_path, chunk=300)
        pages = emu.request_count()
        truth = data.blocks("43114").to_polars()
        assert moved == {"partitions_written": 2, "partitions_skipped": 1, "rows_written": 450, "rows_skipped": 300}
    # the walk stopped at block 299 (19 pages of 25, and the few the pager fetched ahead), not at 0 (30)
    assert 19 <= pages <= 23
    assert requests > 0
    assert partitions(tmp_path) == [(0, 300, True), (300, 300, True), (600, 150, False)]
    expected = pl.concat([truth.filter(pl.col("blockNumber") >= 300), before.filter(pl.col("blockNumber") < 300)])
    assert read(tmp_path).drop("block").equals(expected)


def test_an_interrupted_walk_rerun_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    with ad.Emulator(data_blocks_per_chain=500, containers=10) as emu:
        truth = ad.DataClient(base_url=emu.url).blocks("43114").to_polars()
        emu.set_faults({"503": 0.05}, fault_seed=2)  # seeded: the walk fails in block 199.., every run
        with ad.DataClient(base_url=emu.url, max_retries=0) as data, pytest.raises(ad.ServerError) as failed:
            data.blocks("43114", page_size=20).write_dataset(tmp_path, chunk=100)
        emu.set_faults(None)
        done = partitions(tmp_path)
        # the pager stands where the discarded partition 100.. began (read 380, put back to 300):
        # the rows before it are those of the recorded partitions
        assert failed.value.items_read == 300  # type: ignore[attr-defined]
        # the partitions the walk passed are recorded complete; 100.. (half read) is not there
        assert done == [(200, 100, True), (300, 100, True), (400, 100, True)] and "end" not in manifest(tmp_path)
        assert not list(tmp_path.glob("**/.*")), "no temporary file is left"
        resumed = ad.DataClient(base_url=emu.url).blocks("43114").write_dataset(tmp_path, chunk=100)
    assert resumed["partitions_skipped"] == len(done) and resumed["partitions_written"] == 5 - len(done)
    assert resumed["rows_written"] == 500 - 100 * len(done)
    assert read(tmp_path).drop("block").equals(truth)
    assert manifest(tmp_path)["end"] == 0


def test_vertices_go_by_month(tmp_path: Path) -> None:
    with ad.Emulator(containers=10) as emu, ad.DataClient(base_url=emu.url) as data:
        truth = data.vertices("mainnet").to_polars()
        summary = data.vertices("mainnet").write_dataset(tmp_path)
    frame = read(tmp_path, "vertexTimestamp")
    months = truth["vertexTimestamp"].dt.strftime("%Y%m").cast(pl.Int64)
    assert summary["rows_written"] == truth.height == frame.height
    assert summary["partitions_written"] == months.n_unique() == len(partitions(tmp_path))
    assert sorted(frame["month"].to_list()) == sorted(months.to_list())
    assert sorted(frame["vertexHash"].to_list()) == sorted(truth["vertexHash"].to_list())
    assert manifest(tmp_path)["identity"]["kind"] == "data_list_by_month"
    assert all(name.startswith("month=") for name in (p.name for p in tmp_path.iterdir() if p.is_dir()))


def test_bad_lists_and_arguments_are_refused(tmp_path: Path) -> None:
    with ad.Emulator(containers=10) as emu, ad.DataClient(base_url=emu.url) as data:
        before = emu.request_count()
        for call, param in [
            (lambda: data.vertices("mainnet").write_dataset(tmp_path / "v", chunk=10), "chunk"),
            (lambda: data.blocks("43114").write_dataset(tmp_path / "b", chunk=0), "chunk"),
            (lambda: data.icm_messages().write_dataset(tmp_path / "i"), "resource"),
            (lambda: data.blocks("43114").write_dataset(5), "path"),  # type: ignore[arg-type]
        ]:
            with pytest.raises(ad.InvalidParameterError) as e:
                call()
            assert e.value.param == param, (param, e.value)
        assert emu.request_count() == before  # refused before any request
        with pytest.raises(ad.InvalidParameterError, match="a list of one chain's blocks") as mixed:
            data.latest_blocks().write_dataset(tmp_path / "latest")
        assert mixed.value.param == "pager"
        data.blocks("43114", limit=10).write_dataset(tmp_path / "b", chunk=100)
        with pytest.raises(ad.InvalidParameterError, match="a directory of the same walk") as other:
            data.blocks("43113").write_dataset(tmp_path / "b", chunk=100)
        assert other.value.param == "dataset"


def test_the_async_pager_writes_the_same_dataset(tmp_path: Path) -> None:
    with ad.Emulator(data_blocks_per_chain=500, containers=10) as emu:
        async def main() -> dict[str, int]:
            async with ad.AsyncDataClient(base_url=emu.url) as data:
                return await data.blocks("43114").write_dataset(tmp_path / "a", chunk=100)

        assert asyncio.run(main())["rows_written"] == 500
        ad.DataClient(base_url=emu.url).blocks("43114").write_dataset(tmp_path / "s", chunk=100)
    assert read(tmp_path / "a").equals(read(tmp_path / "s"))


def test_the_cli_writes_and_updates_a_block_dataset(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "avax_data", "data", *args, "--emulator"],
                              capture_output=True, text=True, timeout=120)

    out = tmp_path / "ds"
    first = run("blocks", "43114", "--chunk", "1000", "--dataset", str(out))
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert (summary["endpoint"], summary["partitions_skipped"]) == ("blocks", 0)
    assert summary["rows_written"] == read(out).height > 0
    second = run("blocks", "43114", "--chunk", "1000", "--dataset", str(out))
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["rows_written"] + json.loads(second.stdout)["rows_skipped"] == read(out).height
    vertices = run("vertices", "mainnet", "--dataset", str(tmp_path / "v"))
    assert vertices.returncode == 0, vertices.stderr
    assert json.loads(vertices.stdout)["rows_written"] == read(tmp_path / "v", "vertexTimestamp").height
    clash = run("blocks", "43114", "--dataset", str(out), "-o", str(tmp_path / "x.parquet"))
    assert clash.returncode == 2 and "does not go with --out" in clash.stderr
