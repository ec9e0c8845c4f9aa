"""AsyncIndexClient and AsyncRange: the same behaviour as the sync API, awaited.

No pytest-asyncio: each test runs its coroutine with ``asyncio.run``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from conftest import PATHS, SIZE
from test_index import assert_container_types
from test_range import SCHEMA


@pytest.mark.parametrize("path", PATHS)
def test_every_method(emu: ad.Emulator, path: str) -> None:
    async def main() -> None:
        async with ad.AsyncIndexClient(emu.url) as c:
            assert isinstance(c, ad.AsyncIndexClient)
            chain = c.chain(path)
            assert chain.path == path
            last = await chain.last_accepted()
            assert last == emu.expected_container(path, SIZE - 1)
            assert_container_types(last)
            assert await chain.container(17) == emu.expected_container(path, 17)
            three = emu.expected_container(path, 3)
            assert await chain.container(id=three["id"]) == three
            assert await chain.container_range(1000, 30) == [emu.expected_container(path, i) for i in range(1000, 1030)]
            assert await chain.index_of(three["id"]) == 3
            assert await chain.is_accepted(three["id"]) is True
            other = emu.expected_container("X/vtx" if path != "X/vtx" else "X/tx", 3)["id"]
            assert await chain.is_accepted(other) is False

    asyncio.run(main())


def test_many_calls_at_once(emu: ad.Emulator) -> None:
    async def main() -> list[dict]:
        async with ad.AsyncIndexClient(emu.url, concurrency=8) as c:
            chain = c.chain("C/block")
            return await asyncio.gather(*(chain.container(i) for i in range(0, SIZE, 37)))

    got = asyncio.run(main())
    assert got == [emu.expected_container("C/block", i) for i in range(0, SIZE, 37)]


def test_repeated_event_loops(emu: ad.Emulator) -> None:
    client = ad.AsyncIndexClient(emu.url)
    chain = client.chain("X/tx")

    async def one(i: int) -> dict:
        return await chain.container(i)

    async def close() -> None:
        await client.close()

    # the same client object, awaited from three successive event loops
    for i in range(3):
        assert asyncio.run(one(i)) == emu.expected_container("X/tx", i)
    asyncio.run(close())


def test_errors(emu: ad.Emulator) -> None:
    async def main() -> None:
        async with ad.AsyncIndexClient(emu.url) as c:
            chain = c.chain("X/tx")
            with pytest.raises(ad.IndexOutOfRangeError) as info:
                await chain.container(SIZE + 1)
            assert info.value.code == -32000
            assert info.value.rpc_message == f"no container at index {SIZE + 1}"
            with pytest.raises(ad.ContainerNotFoundError):
                await chain.container(id=emu.expected_container("P/block", 1)["id"])
            before = emu.request_count()
            with pytest.raises(ad.InvalidParameterError) as bad:
                await chain.container_range(0, 1025)
            assert "count" in str(bad.value) and "1024" in str(bad.value)
            with pytest.raises(ad.InvalidParameterError):
                await chain.container(-1)
            with pytest.raises(ad.InvalidParameterError):
                await chain.container(1.5)
            with pytest.raises(ad.InvalidParameterError):
                await chain.is_accepted("not-an-id")
            with pytest.raises(ad.InvalidParameterError):
                c.chain("Y/tx")
            assert await chain.container_range(3, 0) == []
            assert emu.request_count() == before

    asyncio.run(main())


def test_empty_and_disabled_index() -> None:
    async def main(emu: ad.Emulator) -> None:
        async with ad.AsyncIndexClient(emu.url) as c:
            with pytest.raises(ad.EmptyIndexError) as info:
                await c.chain("X/tx").last_accepted()
            assert info.value.rpc_message == "no containers have been accepted"
            emu.set_index_enabled(False)
            with pytest.raises(ad.IndexNotEnabledError) as info404:
                await c.chain("X/tx").last_accepted()
            assert info404.value.status == 404
            assert "--index-enabled" in str(info404.value)

    with ad.Emulator(containers=0) as emu:
        asyncio.run(main(emu))


def test_connect_error() -> None:
    from test_index import closed_port_url

    async def main() -> None:
        async with ad.AsyncIndexClient(closed_port_url(), max_retries=0) as c:
            with pytest.raises(ad.ConnectError) as info:
                await c.chain("X/tx").last_accepted()
            assert info.value.method == "POST"

    asyncio.run(main())


def test_async_for_range(emu: ad.Emulator) -> None:
    async def main() -> tuple[list[dict], ad.AsyncRange]:
        async with ad.AsyncIndexClient(emu.url) as c:
            rng = c.chain("P/block").range(200, 1500)
            assert (rng.start, rng.end, rng.next_index) == (200, 1500, 200)
            got = [item async for item in rng]
            return got, rng

    got, rng = asyncio.run(main())
    assert got == [emu.expected_container("P/block", i) for i in range(200, 1500)]
    assert rng.next_index == 1500


def test_async_to_polars_and_tip(emu: ad.Emulator) -> None:
    async def main() -> pl.DataFrame:
        async with ad.AsyncIndexClient(emu.url) as c:
            rng = c.chain("X/tx").range(SIZE - 1200)
            assert rng.end is None
            df = await rng.to_polars()
            assert rng.next_index == SIZE
            return df

    df = asyncio.run(main())
    assert dict(df.schema) == SCHEMA
    assert df.columns == list(SCHEMA)
    assert df["index"].to_list() == list(range(SIZE - 1200, SIZE))
    assert df["id"].to_list()[-1] == emu.expected_container("X/tx", SIZE - 1)["id"]
    assert df["bytes"].to_list()[0] == emu.expected_container("X/tx", SIZE - 1200)["bytes"]


def test_async_truncation_and_concurrency() -> None:
    async def main(url: str) -> list[int]:
        async with ad.AsyncIndexClient(url) as c:
            return [x["index"] async for x in c.chain("X/tx").range(0, 50_000, concurrency=8)]

    with ad.Emulator(containers=9000, latency=0.02) as emu:
        assert asyncio.run(main(emu.url)) == list(range(9000))


def test_async_resume(emu: ad.Emulator) -> None:
    async def main() -> tuple[list[int], list[int], int]:
        async with ad.AsyncIndexClient(emu.url) as c:
            rng = c.chain("C/block").range(0, 1500)
            head = []
            async for item in rng:
                head.append(item["index"])
                if len(head) == 600:
                    break
            at = rng.next_index
            rest = [item["index"] async for item in rng]
            return head, rest, at

    head, rest, at = asyncio.run(main())
    assert at == 600
    assert head + rest == list(range(1500))


def test_async_iterator_close(emu: ad.Emulator) -> None:
    async def main() -> None:
        async with ad.AsyncIndexClient(emu.url) as c:
            rng = c.chain("X/tx").range(0, 1000)
            it = rng.__aiter__()
            assert (await it.__anext__())["index"] == 0
            it.close()
            with pytest.raises(StopAsyncIteration):
                await it.__anext__()
            assert rng.next_index == 1

    asyncio.run(main())


def test_async_batches(emu: ad.Emulator) -> None:
    async def main() -> list[pl.DataFrame]:
        async with ad.AsyncIndexClient(emu.url) as c:
            rng = c.chain("X/block").range(0, 1700, batch_size=256)
            frames = [f async for f in rng.batches()]
            assert rng.next_index == 1700
            return frames

    frames = asyncio.run(main())
    assert all(0 < f.height <= 256 for f in frames)
    whole = pl.concat(frames)
    assert dict(whole.schema) == SCHEMA
    assert whole["index"].to_list() == list(range(1700))


def test_async_write_parquet(emu: ad.Emulator, tmp_path: Path) -> None:
    out = tmp_path / "p.parquet"

    async def main() -> tuple[int, pl.DataFrame]:
        async with ad.AsyncIndexClient(emu.url) as c:
            rows = await c.chain("P/block").range(0, SIZE).write_parquet(out)
            df = await c.chain("P/block").range(0, SIZE).to_polars()
            return rows, df

    rows, df = asyncio.run(main())
    assert rows == SIZE
    assert pl.read_parquet(out).equals(df)


def test_async_range_bad_input(emu: ad.Emulator) -> None:
    async def main() -> None:
        async with ad.AsyncIndexClient(emu.url) as c:
            before = emu.request_count()
            for kwargs, param in (({"start": -1}, "start"), ({"count": -1}, "count"),
                                  ({"concurrency": 0}, "concurrency"), ({"batch_size": 0}, "batch_size")):
                with pytest.raises(ad.InvalidParameterError) as info:
                    await c.chain("X/tx").range(**kwargs).to_polars()
                assert param in str(info.value)
            assert emu.request_count() == before

    asyncio.run(main())


def test_async_cancellation_leaves_client_usable() -> None:
    async def main(emu: ad.Emulator) -> dict:
        async with ad.AsyncIndexClient(emu.url) as c:
            chain = c.chain("X/tx")
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(chain.range(0, 100_000).to_polars(), 0.3)
            emu.set_latency(0.0)
            return await chain.container(5)

    with ad.Emulator(containers=100_000, latency=0.2) as emu:
        assert asyncio.run(main(emu)) == emu.expected_container("X/tx", 5)


def test_close_returns_none(emu: ad.Emulator) -> None:
    """``close()`` gives ``None`` on every client (awaited on the async ones), not an empty tuple."""
    assert ad.IndexClient(emu.url).close() is None
    assert ad.DataClient(base_url=emu.url).close() is None
    assert ad.MetricsClient(base_url=emu.url).close() is None

    async def closes() -> list[object]:
        clients = [ad.AsyncIndexClient(emu.url), ad.AsyncDataClient(base_url=emu.url),
                   ad.AsyncMetricsClient(base_url=emu.url)]
        return [await c.close() for c in clients]

    assert asyncio.run(closes()) == [None, None, None]
