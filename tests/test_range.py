"""Range walks: values, DataFrame schema, order under concurrency, tip handling, resuming,
batches and Parquet output."""

from __future__ import annotations

import datetime
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from conftest import PATHS, SIZE

SCHEMA = {
    "id": pl.String,
    "bytes": pl.Binary,
    "timestamp": pl.Datetime("ns", "UTC"),
    "index": pl.UInt64,
    "encoding": pl.String,
}


def expected_frame_rows(emu: ad.Emulator, path: str, indexes: range) -> list[tuple]:
    """Expected (id, bytes, timestamp, index, encoding) rows, timestamps at microseconds."""
    rows = []
    for i in indexes:
        c = emu.expected_container(path, i)
        rows.append((c["id"], c["bytes"], c["timestamp"], c["index"], c["encoding"]))
    return rows


def frame_rows(df: pl.DataFrame) -> list[tuple]:
    """DataFrame rows with timestamps as (microsecond) UTC datetimes, comparable to the dicts."""
    out = []
    for r in df.iter_rows():
        ts = r[2]
        assert ts.tzinfo is not None
        out.append((r[0], r[1], ts.astimezone(datetime.timezone.utc), r[3], r[4]))
    return out


def test_range_properties(client: ad.IndexClient) -> None:
    chain = client.chain("X/tx")
    rng = chain.range(5, 15)
    assert (rng.start, rng.end, rng.next_index) == (5, 15, 5)
    tip = chain.range(7)
    assert (tip.start, tip.end, tip.next_index) == (7, None, 7)
    assert chain.range().start == 0


@pytest.mark.parametrize("path", PATHS)
def test_iterate_values(client: ad.IndexClient, emu: ad.Emulator, path: str) -> None:
    rng = client.chain(path).range(100, 1600)
    got = list(rng)
    assert got == [emu.expected_container(path, i) for i in range(100, 1600)]
    assert rng.next_index == 1600


@pytest.mark.parametrize("path", PATHS)
def test_to_polars_schema_and_values(client: ad.IndexClient, emu: ad.Emulator, path: str) -> None:
    df = client.chain(path).range(0, 1100).to_polars()
    assert isinstance(df, pl.DataFrame)
    assert df.columns == list(SCHEMA)
    assert dict(df.schema) == SCHEMA
    assert df.height == 1100
    assert frame_rows(df) == expected_frame_rows(emu, path, range(0, 1100))


def test_to_polars_matches_iteration(client: ad.IndexClient) -> None:
    chain = client.chain("C/block")
    as_dicts = list(chain.range(300, 500))
    df = chain.range(300, 500).to_polars()
    assert df["id"].to_list() == [c["id"] for c in as_dicts]
    assert df["bytes"].to_list() == [c["bytes"] for c in as_dicts]
    assert df["index"].to_list() == [c["index"] for c in as_dicts]


def test_timestamps_keep_full_precision_and_order(client: ad.IndexClient) -> None:
    df = client.chain("X/tx").range(0, 2000).to_polars()
    ns = df["timestamp"].cast(pl.Int64)
    assert ns.is_sorted(), "timestamps must not decrease along the index"
    # the dicts carry microseconds; the frame must not lose anything beyond that truncation
    micro = [c["timestamp"] for c in client.chain("X/tx").container_range(0, 50)]
    assert [(v // 1000) for v in ns.head(50).to_list()] == [
        int((t - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) / datetime.timedelta(microseconds=1))
        for t in micro
    ]


def test_to_the_tip(client: ad.IndexClient, emu: ad.Emulator) -> None:
    rng = client.chain("P/block").range(SIZE - 1500)
    df = rng.to_polars()
    assert df["index"].to_list() == list(range(SIZE - 1500, SIZE))
    assert rng.next_index == SIZE
    assert frame_rows(df.tail(3)) == expected_frame_rows(emu, "P/block", range(SIZE - 3, SIZE))


def test_whole_index_to_the_tip(client: ad.IndexClient) -> None:
    got = [c["index"] for c in client.chain("X/vtx").range()]
    assert got == list(range(SIZE))


def test_range_past_the_tip_is_truncated(client: ad.IndexClient, emu: ad.Emulator) -> None:
    rng = client.chain("X/block").range(SIZE - 10, count=5000)
    got = list(rng)
    assert [c["index"] for c in got] == list(range(SIZE - 10, SIZE))
    assert got[-1] == emu.expected_container("X/block", SIZE - 1)
    assert rng.next_index == SIZE
    df = client.chain("X/block").range(SIZE - 10, count=5000).to_polars()
    assert df.height == 10


def test_order_under_concurrency_with_latency() -> None:
    n = 12_000
    with ad.Emulator(seed=3, containers=n, latency=0.03) as emu, ad.IndexClient(emu.url) as c:
        rng = c.chain("X/tx").range(0, n, concurrency=8)
        got = list(rng)
        indexes = [x["index"] for x in got]
        assert indexes == list(range(n)), "out of order, gap or duplicate"
        assert [x["id"] for x in got[::997]] == [emu.expected_container("X/tx", i)["id"] for i in range(0, n, 997)]
        df = c.chain("C/block").range(0, n, concurrency=8).to_polars()
        idx = df["index"]
        assert idx.to_list() == list(range(n))
        assert df["id"].n_unique() == n


def test_client_concurrency_option() -> None:
    with ad.Emulator(containers=5000, latency=0.01) as emu, ad.IndexClient(emu.url, concurrency=6) as c:
        assert [x["index"] for x in c.chain("X/tx").range(0, 5000)] == list(range(5000))


def test_resume_after_break(client: ad.IndexClient, emu: ad.Emulator) -> None:
    chain = client.chain("X/tx")
    rng = chain.range(0, 2000)
    first = []
    for c in rng:
        first.append(c)
        if len(first) == 777:
            break
    assert rng.next_index == 777
    rest = list(rng)
    assert [c["index"] for c in first + rest] == list(range(2000)), "items lost or repeated on resume"
    assert rest[0] == emu.expected_container("X/tx", 777)
    assert rng.next_index == 2000
    assert list(rng) == [], "a finished range yields nothing more"


def test_resume_with_frames(client: ad.IndexClient) -> None:
    chain = client.chain("C/block")
    rng = chain.range(50, 1850)
    it = iter(rng)
    head = [next(it) for _ in range(300)]
    assert it.next_index == 350
    assert rng.next_index == 350
    df = rng.to_polars()
    assert df["index"].to_list() == list(range(350, 1850))
    assert [c["index"] for c in head] == list(range(50, 350))


def test_resume_from_next_index_in_a_new_range(client: ad.IndexClient) -> None:
    chain = client.chain("P/block")
    rng = chain.range(0, 1000)
    for c in rng:
        if c["index"] == 499:
            break
    again = chain.range(rng.next_index, count=1000 - rng.next_index)
    assert [c["index"] for c in again] == list(range(500, 1000))


def test_iterator_close(client: ad.IndexClient) -> None:
    rng = client.chain("X/tx").range(0, 1500)
    it = iter(rng)
    assert next(it)["index"] == 0
    assert next(it)["index"] == 1
    it.close()
    with pytest.raises(StopIteration):
        next(it)
    assert rng.next_index == 2
    assert [c["index"] for c in rng][:2] == [2, 3]


def test_batches(client: ad.IndexClient, emu: ad.Emulator) -> None:
    rng = client.chain("X/block").range(10, 2060, batch_size=300)
    frames = list(rng.batches())
    assert all(isinstance(f, pl.DataFrame) for f in frames)
    assert all(0 < f.height <= 300 for f in frames)
    assert sum(f.height for f in frames) == 2050
    whole = pl.concat(frames)
    assert dict(whole.schema) == SCHEMA
    assert whole["index"].to_list() == list(range(10, 2060))
    assert whole.equals(client.chain("X/block").range(10, 2060).to_polars())
    assert rng.next_index == 2060


def test_batches_resume(client: ad.IndexClient) -> None:
    rng = client.chain("X/tx").range(0, 1000, batch_size=100)
    batches = rng.batches()
    first = next(batches)
    assert first["index"].to_list()[0] == 0
    assert batches.next_index == first.height
    assert rng.next_index == first.height
    batches.close()
    with pytest.raises(StopIteration):
        next(batches)
    rest = pl.concat(list(rng.batches()))
    assert rest["index"].to_list() == list(range(first.height, 1000))


def test_write_parquet_round_trip(client: ad.IndexClient, tmp_path: Path) -> None:
    out = tmp_path / "c_block.parquet"
    rows = client.chain("C/block").range(0, SIZE).write_parquet(out)
    assert rows == SIZE
    back = pl.read_parquet(out)
    assert dict(back.schema) == SCHEMA
    assert back.equals(client.chain("C/block").range(0, SIZE).to_polars())


def test_write_parquet_str_path_and_resume(client: ad.IndexClient, tmp_path: Path) -> None:
    rng = client.chain("X/tx").range(0, 1200)
    for c in rng:
        if c["index"] == 99:
            break
    out = str(tmp_path / "rest.parquet")
    assert rng.write_parquet(out) == 1100
    assert pl.read_parquet(out)["index"].to_list() == list(range(100, 1200))
    assert rng.next_index == 1200


def test_write_parquet_empty_range(tmp_path: Path) -> None:
    with ad.Emulator(containers=0) as emu, ad.IndexClient(emu.url) as c:
        out = tmp_path / "empty.parquet"
        assert c.chain("X/tx").range().write_parquet(out) == 0
        back = pl.read_parquet(out)
        assert back.height == 0
        assert dict(back.schema) == SCHEMA


def test_range_error_is_raised_not_swallowed() -> None:
    # a long, slow walk: the error on later calls must reach the consumer, not end the walk quietly
    with ad.Emulator(containers=200_000, latency=0.05) as emu, ad.IndexClient(emu.url, max_retries=0) as c:
        rng = c.chain("X/tx").range(0, 200_000, concurrency=1)
        it = iter(rng)
        assert next(it)["index"] == 0
        emu.set_index_enabled(False)
        seen = 1
        with pytest.raises(ad.IndexNotEnabledError):
            for _ in it:
                seen += 1
        assert seen < 200_000
        assert rng.next_index == seen
