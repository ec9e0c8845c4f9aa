"""Arrow and pandas exports of ranges, pagers and batch iterators: ``to_arrow()``, ``to_pandas()``,
``__arrow_c_stream__`` (pyarrow, DuckDB and polars read it without a copy; each batch read moves
the position), ``Pager.batches()``, and ``write_parquet`` to a path or a binary file object with a
choice of codec and row group size."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import polars as pl
import pytest

import avax_data as ad

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=3_000, data_blocks_per_chain=450) as e:
        yield e


@pytest.fixture
def node(emu: ad.Emulator) -> Iterator[ad.IndexClient]:
    with ad.IndexClient(emu.url, max_retries=0) as c:
        yield c


@pytest.fixture
def data(emu: ad.Emulator) -> Iterator[ad.DataClient]:
    with ad.DataClient(base_url=emu.url, max_retries=0) as c:
        yield c


def test_a_range_is_an_arrow_stream_read_without_loss(node: ad.IndexClient) -> None:
    expected = node.chain("X/tx").range(0, 2_500).to_polars()
    rng = node.chain("X/tx").range(0, 2_500, batch_size=1_000)
    table = pa.table(rng)
    assert table.num_rows == 2_500 and rng.next_index == 2_500
    assert pl.from_arrow(table).equals(expected)
    assert table.schema.field("bytes").type == pa.binary_view()
    assert pa.table(rng).num_rows == 0, "a second stream starts where the first stopped: at the end"


def test_a_partly_read_stream_moves_the_position_batch_by_batch(node: ad.IndexClient) -> None:
    rng = node.chain("X/tx").range(0, 2_500, batch_size=1_000)
    reader = pa.RecordBatchReader.from_stream(rng)
    first = reader.read_next_batch()
    assert first.num_rows == 1_000 and rng.next_index == 1_000
    rest = [c["index"] for c in rng]  # a new consumer supersedes the stream and resumes at 1000
    assert rest == list(range(1_000, 2_500))


def test_to_arrow_and_to_pandas_are_all_or_nothing_frames(node: ad.IndexClient) -> None:
    rng = node.chain("X/tx").range(10, 310)
    table = rng.to_arrow()
    assert isinstance(table, pa.Table) and table.column("index").to_pylist() == list(range(10, 310))
    assert rng.next_index == 310
    frame = node.chain("X/tx").range(0, 5).to_pandas()
    assert list(frame["index"]) == [0, 1, 2, 3, 4] and list(frame.columns)[:2] == ["id", "bytes"]


def test_duckdb_and_polars_read_a_range_through_the_capsule(node: ad.IndexClient) -> None:
    duckdb = pytest.importorskip("duckdb")
    relation = duckdb.from_arrow(node.chain("X/tx").range(0, 1_234))
    assert relation.aggregate("count(*) AS n, min(index) AS lo, max(index) AS hi").fetchall() == [(1_234, 0, 1_233)]
    assert pl.DataFrame(node.chain("C/block").range(0, 700)).height == 700


def test_a_decoded_range_streams_its_decoded_schema(node: ad.IndexClient) -> None:
    table = pa.table(node.chain("C/block").range(0, 60, decode=True))
    assert table.num_rows == 60 and "gas_used" in table.column_names and "decode_error" in table.column_names


def test_a_batch_iterator_streams_what_it_has_not_handed_out(node: ad.IndexClient) -> None:
    rng = node.chain("X/tx").range(0, 2_000, batch_size=500)
    batches = rng.batches()
    first = next(batches)
    assert first.height == 500 and batches.next_index == 500
    rest = pa.table(batches)
    assert rest.column("index").to_pylist() == list(range(500, 2_000)) and rng.next_index == 2_000


def test_pager_batches_and_streams(data: ad.DataClient) -> None:
    whole = data.blocks("43114", page_size=100).to_polars()
    pager = data.blocks("43114", page_size=100)
    batches = pager.batches()
    first = next(batches)
    assert first.height == 100 and pager.items_read == 100
    assert first.schema == whole.schema
    rest = pa.table(batches)
    assert pl.concat([first, pl.from_arrow(rest)]).equals(whole)
    assert pager.exhausted and pager.items_read == whole.height
    assert pa.table(data.blocks("43114", page_size=100)).num_rows == whole.height
    capped = data.blocks("43114", page_size=100, limit=150)
    assert [b.height for b in capped.batches()] == [100, 50]


def test_pager_to_arrow_and_to_pandas(data: ad.DataClient) -> None:
    pager = data.blocks("43114", page_size=50)
    table = pager.to_arrow(limit=70)
    assert isinstance(table, pa.Table) and table.num_rows == 70 and pager.items_read == 70
    assert pa.types.is_decimal(table.schema.field("gasUsed").type)
    frame = pager.to_pandas(limit=5)
    assert len(frame) == 5 and pager.items_read == 75


def test_async_exports(emu: ad.Emulator) -> None:
    async def main() -> tuple[int, int, list[int]]:
        async with ad.AsyncIndexClient(emu.url) as node, ad.AsyncDataClient(base_url=emu.url) as data:
            table = await node.chain("X/tx").range(0, 400).to_arrow()
            frame = await data.blocks("43114", page_size=100).to_pandas(limit=120)
            heights = [b.height async for b in data.blocks("43114", page_size=100, limit=250).batches()]
            return table.num_rows, len(frame), heights

    assert asyncio.run(main()) == (400, 120, [100, 100, 50])


@pytest.mark.parametrize(("compression", "codec"), [("snappy", "SNAPPY"), ("zstd", "ZSTD"), ("lz4", "LZ4"),
                                                    ("gzip", "GZIP"), ("none", "UNCOMPRESSED")])
def test_write_parquet_codecs_and_row_groups(node: ad.IndexClient, tmp_path: Path, compression: str,
                                             codec: str) -> None:
    path = tmp_path / f"x.{compression}.parquet"
    assert node.chain("X/tx").range(0, 1_000).write_parquet(path, compression=compression, row_group_size=300) == 1_000
    meta = pq.ParquetFile(path).metadata
    assert meta.num_rows == 1_000 and meta.num_row_groups == 4
    assert meta.row_group(0).column(0).compression == codec


def test_write_parquet_to_a_binary_file_object(node: ad.IndexClient, data: ad.DataClient) -> None:
    buffer = io.BytesIO()
    assert node.chain("X/tx").range(0, 800).write_parquet(buffer, compression="zstd") == 800
    assert pl.read_parquet(io.BytesIO(buffer.getvalue()))["index"].to_list() == list(range(800))
    buffer = io.BytesIO()
    assert data.blocks("43114", page_size=100).write_parquet(buffer) == 450
    assert pl.read_parquet(io.BytesIO(buffer.getvalue())).height == 450


def test_a_failed_write_to_a_file_object_keeps_a_valid_file_of_the_rows_before_the_position(
        emu: ad.Emulator, tmp_path: Path) -> None:
    with ad.IndexClient(emu.url, max_retries=0, concurrency=1) as node:
        rng = node.chain("X/tx").range(0, 3_000, batch_size=500)
        emu.set_faults({"502": 0.34}, fault_seed=5)
        first = tmp_path / "first.parquet"
        try:
            with first.open("wb") as out:
                with pytest.raises(ad.ServerError) as info:
                    rng.write_parquet(out)
        finally:
            emu.set_faults(None)
        part1 = pl.read_parquet(first)
        assert part1["index"].to_list() == list(range(info.value.next_index)) and rng.next_index == part1.height
        with (tmp_path / "second.parquet").open("wb") as out:
            rng.write_parquet(out)
    both = pl.concat([part1, pl.read_parquet(tmp_path / "second.parquet")])
    assert both["index"].to_list() == list(range(3_000))


@pytest.mark.parametrize(("kw", "param"), [({"compression": "brotli"}, "compression"), ({"compression": 5}, "compression"),
                                           ({"row_group_size": 0}, "row_group_size"),
                                           ({"row_group_size": "big"}, "row_group_size")])
def test_bad_export_options_are_refused_before_any_request(emu: ad.Emulator, node: ad.IndexClient, tmp_path: Path,
                                                          kw: dict[str, Any], param: str) -> None:
    before = emu.request_count()
    with pytest.raises(ad.InvalidParameterError) as info:
        node.chain("X/tx").range(0, 10).write_parquet(tmp_path / "x.parquet", **kw)
    assert info.value.param == param and emu.request_count() == before
    with pytest.raises(ad.InvalidParameterError) as info:
        node.chain("X/tx").range(0, 10).write_parquet(12)  # type: ignore[arg-type]
    assert info.value.param == "path"


def test_without_pyarrow_to_arrow_says_what_to_install(emu: ad.Emulator) -> None:
    script = f"""
import sys
sys.modules["pyarrow"] = None
import avax_data as ad
with ad.IndexClient({emu.url!r}) as node:
    try:
        node.chain("X/tx").range(0, 3).to_arrow()
    except ImportError as exc:
        print("ImportError:", exc)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "ImportError: to_arrow() needs pyarrow (pip install pyarrow)" in out.stdout, out.stdout + out.stderr
