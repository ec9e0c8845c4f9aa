"""The walk contract on the pagers and across threads, against a scripted Data API that fails once
where the test says: the position is exactly what was handed over, ``to_polars`` is all or
nothing, ``write_parquet`` keeps a valid file of the items before the position, every error out
of a walk carries where to resume, two consumers never get the same items, an iterator used from
two threads never hands an item out twice, and a sharded series hands out its first items before
the whole window is fetched."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import polars as pl
import pytest

import avax_data as ad
from _helpers import GetAnswer, GetRequest, GetServer, superseded

N = 95


def block(n: int) -> dict[str, Any]:
    return {
        "chainId": "43114", "blockNumber": str(n), "blockTimestamp": 1_700_000_000 + n,
        "blockHash": "0x" + f"{n:064x}", "txCount": n % 7, "baseFee": "1", "gasUsed": str(21_000 * n),
        "gasLimit": "8000000", "gasCost": "0", "parentHash": "0x" + f"{max(n - 1, 0):064x}",
        "feesSpent": "0", "cumulativeTransactions": str(n),
    }


class DataStub(GetServer):
    """Blocks ``N-1 .. 0`` of chain 43114 in token pages (token = offset); ``fail`` maps a
    request number (from 0) to the status it answers once instead of the page."""

    def __init__(self) -> None:
        self.fail: dict[int, int] = {}
        self.overrides: dict[str, Any] = {}
        super().__init__(self.respond)

    def respond(self, request: GetRequest) -> GetAnswer:
        n = len(self.requests) - 1
        if n in self.fail:
            return self.fail[n], {"message": "scripted failure", "statusCode": self.fail[n]}
        if request.path in self.overrides:
            return 200, self.overrides[request.path]
        offset = int(request.query.get("pageToken", "0"))
        size = int(request.query.get("pageSize", "10"))
        items = [block(N - 1 - i) for i in range(offset, min(N, offset + size))]
        body: dict[str, Any] = {"blocks": items}
        if offset + size < N:
            body["nextPageToken"] = str(offset + size)
        return 200, body


@pytest.fixture
def stub() -> Iterator[DataStub]:
    with DataStub() as s:
        yield s


def numbers(rows: Any) -> list[int]:
    return [r["blockNumber"] for r in rows]


ALL = list(range(N - 1, -1, -1))


def client(stub: DataStub) -> ad.DataClient:
    return ad.DataClient(base_url=stub.url, max_retries=0)


def test_pager_to_polars_is_all_or_nothing(stub: DataStub) -> None:
    stub.fail = {3: 500}
    with client(stub) as data:
        pager = data.blocks("43114", page_size=10)
        with pytest.raises(ad.ServerError) as info:
            pager.to_polars()
        assert (info.value.items_read, info.value.next_page_token, info.value.page_offset) == (0, None, 0)
        assert pager.items_read == 0
        assert pager.to_polars()["blockNumber"].to_list() == ALL
        assert pager.exhausted and pager.items_read == N


def test_pager_write_parquet_keeps_the_items_before_the_position(stub: DataStub, tmp_path: Path) -> None:
    stub.fail = {4: 502}
    with client(stub) as data:
        pager = data.blocks("43114", page_size=10)
        with pytest.raises(ad.ServerError) as info:
            pager.write_parquet(tmp_path / "a.parquet")
        assert info.value.items_read == 40 == pager.items_read
        assert info.value.next_page_token == "40" and info.value.page_offset == 0
        first = pl.read_parquet(tmp_path / "a.parquet")
        assert first["blockNumber"].to_list() == ALL[:40]
        assert pager.write_parquet(tmp_path / "b.parquet") == N - 40
    rest = pl.read_parquet(tmp_path / "b.parquet")
    assert pl.concat([first, rest])["blockNumber"].to_list() == ALL


def test_pager_iteration_error_carries_the_position_and_resumes(stub: DataStub) -> None:
    stub.fail = {2: 503}
    got: list[int] = []
    with client(stub) as data:
        pager = data.blocks("43114", page_size=10)
        with pytest.raises(ad.ServerError) as info:
            for row in pager:
                got.append(row["blockNumber"])
        assert len(got) == 20 == info.value.items_read == pager.items_read
        assert info.value.next_page_token == "20"
        got.extend(numbers(pager))
    assert got == ALL


def test_a_newer_consumer_of_a_pager_supersedes_the_older(stub: DataStub) -> None:
    with client(stub) as data:
        head, rest, refusal = superseded(data.blocks("43114", page_size=10), "blockNumber", 5)
        assert refusal.items_read == 5
        assert head + rest == ALL


def test_an_iterator_used_from_two_threads_never_hands_an_item_out_twice(stub: DataStub) -> None:
    with client(stub) as data:
        it = iter(data.blocks("43114", page_size=7))
        got: list[list[int]] = [[], []]
        busy = [0, 0]

        def drain(k: int) -> None:
            while True:
                try:
                    got[k].append(next(it)["blockNumber"])
                except StopIteration:
                    return
                except RuntimeError as exc:
                    assert "another thread" in str(exc)
                    busy[k] += 1
                    time.sleep(0.0005)

        threads = [threading.Thread(target=drain, args=(k,)) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    both = got[0] + got[1]
    assert sorted(both, reverse=True) == ALL and len(set(both)) == N
    assert got[0] == sorted(got[0], reverse=True) and got[1] == sorted(got[1], reverse=True)


def test_async_pager_errors_carry_the_position(stub: DataStub) -> None:
    stub.fail = {1: 500}

    async def main() -> tuple[list[int], Any]:
        async with ad.AsyncDataClient(base_url=stub.url, max_retries=0) as data:
            pager = data.blocks("43114", page_size=25)
            got: list[int] = []
            try:
                async for row in pager:
                    got.append(row["blockNumber"])
            except ad.ServerError as exc:
                error = exc
            async for row in pager:
                got.append(row["blockNumber"])
            return got, error

    got, error = asyncio.run(main())
    assert (error.items_read, error.next_page_token, error.page_offset) == (25, "25", 0)
    assert got == ALL


def test_an_out_of_range_timestamp_in_a_dict_is_a_decode_error(stub: DataStub) -> None:
    bad = block(3) | {"blockTimestamp": 1e20}
    stub.overrides["/v1/chains/43114/blocks/3"] = bad
    with client(stub) as data, pytest.raises(ad.DecodeError, match="blockTimestamp") as info:
        data.block("43114", 3)
    assert "1e+20" in str(info.value) and "1677" in str(info.value) and "could not decode the answer: " in str(info.value)


@pytest.mark.parametrize("cls", [ad.DataClient, ad.AsyncDataClient, ad.MetricsClient, ad.AsyncMetricsClient,
                                 ad.IndexClient, ad.AsyncIndexClient])
@pytest.mark.parametrize(("kw", "param"), [
    ({"timeout": "30"}, "timeout"),
    ({"timeout": True}, "timeout"),
    ({"connect_timeout": None}, "connect_timeout"),
    ({"max_retries": "3"}, "max_retries"),
    ({"max_retries": 2.0}, "max_retries"),
    ({"backoff": [0.1]}, "backoff"),
    ({"max_backoff": -1}, "max_backoff"),
    ({"retry_budget": float("nan")}, "retry_budget"),
    ({"headers": ["x"]}, "headers"),
    ({"headers": {"x-secret": 5}}, "headers"),
    ({"base_url": 5} , "base_url"),
])
def test_wrong_types_are_invalid_parameters_not_type_errors(cls: Any, kw: dict[str, Any], param: str) -> None:
    if "base_url" in kw and cls in (ad.IndexClient, ad.AsyncIndexClient):
        kw = {"url": kw["base_url"]}
        param = "url"
    with pytest.raises(ad.InvalidParameterError) as info:
        cls(**kw)
    assert info.value.param == param


def test_a_secret_header_value_is_not_shown_when_refused() -> None:
    with pytest.raises(ad.InvalidParameterError) as info:
        ad.DataClient(headers={"authorization": 12345678})
    assert "12345678" not in str(info.value) and "authorization" in str(info.value)
    with pytest.raises(ad.InvalidParameterError) as info:
        ad.DataClient(api_key=987654321)  # type: ignore[arg-type]
    assert "987654321" not in str(info.value) and info.value.param == "api_key"


@pytest.mark.parametrize(("kw", "param"), [({"concurrency": 1.5}, "concurrency"), ({"verify_ids": "yes"}, "verify_ids"),
                                           ({"concurrency": 0}, "concurrency")])
def test_index_client_options_are_checked(kw: dict[str, Any], param: str) -> None:
    with pytest.raises(ad.InvalidParameterError) as info:
        ad.IndexClient(**kw)
    assert info.value.param == param


class SeriesStub(GetServer):
    """A Metrics API serving hourly points of 48 hours, newest first, ``start <= t < end``, integer
    offsets as page tokens. Requests whose window ends in the first day wait for ``release``."""

    T0 = 1_704_067_200

    def __init__(self) -> None:
        self.release = threading.Event()
        self.older_answered = 0
        super().__init__(self.respond)

    def respond(self, request: GetRequest) -> GetAnswer:
        start = int(request.query.get("startTimestamp", self.T0))
        end = int(request.query.get("endTimestamp", self.T0 + 48 * 3600))
        older = end <= self.T0 + 24 * 3600
        if older:
            self.release.wait(20)
        points = [{"timestamp": t, "value": float(t % 97)}
                  for t in range(self.T0 + 47 * 3600, self.T0 - 1, -3600) if start <= t < end]
        offset, size = int(request.query.get("pageToken", "0")), int(request.query.get("pageSize", "100"))
        body: dict[str, Any] = {"results": points[offset:offset + size]}
        if offset + size < len(points):
            body["nextPageToken"] = str(offset + size)
        self.older_answered += older
        return 200, body


def test_a_sharded_series_hands_out_items_before_the_whole_window_is_fetched() -> None:
    stub = SeriesStub()
    t0 = SeriesStub.T0
    try:
        with ad.MetricsClient(base_url=stub.url, max_retries=0) as m:
            pager = m.metric("43114", "txCount", interval="hour", start=t0, end=t0 + 48 * 3600, page_size=5,
                             concurrency=2)
            it = iter(pager)
            first = next(it)  # the newer day's shard; the older one is held by the server
            assert stub.older_answered == 0
            stub.release.set()
            rest = list(it)
        stamps = [int(p["timestamp"].timestamp()) for p in [first, *rest]]
        assert stamps == list(range(t0 + 47 * 3600, t0 - 1, -3600))
        assert stub.older_answered > 0
    finally:
        stub.release.set()
        stub.close()
