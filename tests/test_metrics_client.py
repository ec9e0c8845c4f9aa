"""Metrics API client: parameter checks (no request sent), every endpoint against a scripted
Metrics service, typed frames, the sharded walk equal to the sequential one, resumption."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _helpers import GetAnswer, GetRequest, GetServer, assert_bucket_starts

UTC = dt.timezone.utc
HOUR = 3600
T0 = 1_704_067_200  # 2024-01-01 00:00 UTC, a Monday
DAY_ONLY = ["cumulativeTxCount", "cumulativeAddresses", "cumulativeContracts", "cumulativeDeployers", "contracts",
            "deployers", "avgGps", "maxGps", "avgTps", "maxTps", "avgGasPrice", "maxGasPrice", "feesPaid"]
ANY = ["activeAddresses", "activeSenders", "gasUsed", "txCount"]


def floor(ts: int, interval: str) -> int:
    d = dt.datetime.fromtimestamp(ts, UTC)
    if interval == "hour":
        return ts - ts % HOUR
    if interval == "day":
        return ts - ts % 86400
    if interval == "week":
        day = ts - ts % 86400
        return day - d.weekday() * 86400
    return int(dt.datetime(d.year, d.month, 1, tzinfo=UTC).timestamp())


class Service(GetServer):
    """A scripted Metrics API: hourly txCount points aggregated per interval, newest first,
    start inclusive and end exclusive, integer offsets as page tokens."""

    def __init__(self) -> None:
        self.grouped_as_list = True
        super().__init__(self.respond)

    def respond(self, request: GetRequest) -> GetAnswer:
        """The scripted answer; the Metrics API takes no key, so none is ever sent."""
        assert "x-glacier-api-key" not in request.headers and "x-data-api-key" not in request.headers
        return self.answer(request.path, request.query)

    def series(self, interval: str) -> list[tuple[int, float]]:
        buckets: dict[int, float] = {}
        for h in range(24 * 120):
            t = T0 + h * HOUR
            buckets[floor(t, interval)] = buckets.get(floor(t, interval), 0) + (h % 7) + 1
        return sorted(buckets.items(), reverse=True)

    def answer(self, path: str, q: dict[str, str]) -> tuple[int, Any]:
        if path == "/v2/live-check":
            return 200, {"status": "ok", "info": {"database": {"status": "up"}}, "error": {}, "details": {"database": {"status": "up"}}}
        if path == "/v2/chains":
            chains = [{"evmChainId": 43114 + i, "chainName": f"c{i}", "blockchainId": f"b{i}", "subnetId": "s",
                       "network": "mainnet" if i % 2 == 0 else "testnet"} for i in range(5)]
            if "network" in q:
                want = "testnet" if q["network"] in ("fuji", "testnet") else "mainnet"
                chains = [c for c in chains if c["network"] == want]
            off = int(q.get("pageToken", "0"))
            page = chains[off:off + 2]
            return 200, {"chains": page, **({"nextPageToken": str(off + 2)} if off + 2 < len(chains) else {})}
        if path == "/v2/icm/summary":
            row = {"lastHour": 1, "lastDay": 2, "lastWeek": 3, "lastMonth": 4, "last90Days": 5, "lastYear": 6, "allTime": 7}
            if "groupBy" in q:
                rows = [{**row, "srcBlockchainId": "a", "destBlockchainId": "b"}, {**row, "srcBlockchainId": "c", "destBlockchainId": "d", "allTime": 9}]
                if q["groupBy"] == "srcBlockchainId":
                    for r in rows:
                        del r["destBlockchainId"]
                return 200, {"result": rows if self.grouped_as_list else rows[0]}
            return 200, {"result": {**row, "srcBlockchainId": q.get("srcBlockchainId", ""), "destBlockchainId": q.get("destBlockchainId", "")}}
        parts = path.split("/")
        if len(parts) == 6 and parts[1:3] == ["v2", "chains"] and parts[4] == "metrics":
            interval = q.get("timeInterval", "day")
            points = self.series(interval)
            if "startTimestamp" in q:
                points = [p for p in points if p[0] >= int(q["startTimestamp"])]
            if "endTimestamp" in q:
                points = [p for p in points if p[0] < int(q["endTimestamp"])]
            size = int(q.get("pageSize", "100"))
            token = q.get("pageToken")
            if token == "expired":
                return 400, {"message": "Invalid page token", "error": "Bad Request", "statusCode": 400}
            off = int(token or 0)
            page = [{"timestamp": t, "value": v} for t, v in points[off:off + size]]
            return 200, {"results": page, **({"nextPageToken": str(off + size)} if off + size < len(points) else {})}
        return 404, {"message": "Not Found", "error": "Not Found", "statusCode": 404}


@pytest.fixture(scope="module")
def service() -> Service:
    with Service() as s:
        yield s


@pytest.fixture()
def m(service: Service) -> ad.MetricsClient:
    with ad.MetricsClient(base_url=service.url, max_retries=0) as client:
        yield client


# ---- parameter checks: nothing is sent ----

BAD_CALLS = [
    (dict(chain_id="43114", metric="txcount"), "metric"),
    (dict(chain_id="43114", metric="nope"), "metric"),
    (dict(chain_id="c-chain", metric="txCount"), "chain_id"),
    (dict(chain_id="fuji", metric="txCount"), "chain_id"),
    (dict(chain_id="0x1", metric="txCount"), "chain_id"),
    (dict(chain_id="43114", metric="txCount", interval="year"), "interval"),
    (dict(chain_id="43114", metric="txCount", page_size=0), "page_size"),
    (dict(chain_id="43114", metric="txCount", page_size=2161), "page_size"),
    (dict(chain_id="43114", metric="txCount", page_size=True), "page_size"),
    (dict(chain_id="43114", metric="txCount", start=-1), "start"),
    (dict(chain_id="43114", metric="txCount", end=-5), "end"),
    (dict(chain_id="43114", metric="txCount", start=10, end=10), "start"),
    (dict(chain_id="43114", metric="txCount", start=20, end=10), "start"),
    (dict(chain_id="43114", metric="txCount", start="yesterday"), "start"),
    (dict(chain_id="43114", metric="txCount", start=1.5), "start"),
    (dict(chain_id="43114", metric="txCount", concurrency=0), "concurrency"),
    (dict(chain_id="43114", metric="txCount", page_token=""), "page_token"),
] + [(dict(chain_id="total", metric=name, interval=i), "interval") for name in DAY_ONLY for i in ("hour", "week", "month")]


@pytest.mark.parametrize("kwargs,param", BAD_CALLS)
def test_metric_parameters_are_checked_before_any_request(emu: ad.Emulator, kwargs: dict, param: str) -> None:
    before = emu.request_count()
    with ad.MetricsClient(base_url=emu.url) as client:
        with pytest.raises(ad.InvalidParameterError) as info:
            kwargs = dict(kwargs)
            client.metric(kwargs.pop("chain_id"), kwargs.pop("metric"), **kwargs)
    assert info.value.param == param, str(info.value)
    assert isinstance(info.value, ValueError)
    assert emu.request_count() == before


def test_other_endpoints_check_parameters_before_any_request(emu: ad.Emulator) -> None:
    before = emu.request_count()
    with ad.MetricsClient(base_url=emu.url) as client:
        for call, param in [
            (lambda: client.chains(network="devnet"), "network"),
            (lambda: client.icm_summary(network="local"), "network"),
            (lambda: client.icm_summary(group_by="src"), "group_by"),
            (lambda: client.icm_summary(group_by="destBlockchainId,srcBlockchainId"), "group_by"),
            (lambda: client.icm_summary(src_blockchain_id="a/b"), "src_blockchain_id"),
            (lambda: client.icm_summary(dest_blockchain_id=""), "dest_blockchain_id"),
        ]:
            with pytest.raises(ad.InvalidParameterError) as info:
                call()
            assert info.value.param == param
    assert emu.request_count() == before


def test_every_metric_and_allowed_interval_is_accepted_locally(emu: ad.Emulator) -> None:
    before = emu.request_count()
    client = ad.MetricsClient(base_url=emu.url)
    for name in ANY:
        for interval in ("hour", "day", "week", "month", None):
            client.metric("43114", name, interval=interval, start=0, end=10, page_size=2160)
    for name in DAY_ONLY:
        client.metric("mainnet", name, interval="day")
        client.metric("testnet", name)
    assert emu.request_count() == before  # pagers are lazy


def test_defaults_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AVAX_METRICS_API_URL", raising=False)
    assert ad.MetricsClient().base_url.rstrip("/") == "https://metrics.avax.network"
    monkeypatch.setenv("AVAX_METRICS_API_URL", "http://127.0.0.1:1")
    assert ad.MetricsClient().base_url.startswith("http://127.0.0.1:1")
    assert ad.AsyncMetricsClient(base_url="http://127.0.0.1:2").base_url.startswith("http://127.0.0.1:2")
    assert "MetricsClient" in ad.__all__ and "AsyncMetricsClient" in ad.__all__


# ---- endpoints ----

def test_series_items_frames_and_the_request_sent(m: ad.MetricsClient, service: Service) -> None:
    start, end = dt.datetime(2024, 1, 2, tzinfo=UTC), dt.date(2024, 1, 5)  # a date = 00:00 UTC
    pager = m.metric(43114, "txCount", interval="hour", start=start, end=end, page_size=10, concurrency=1)
    items = list(pager)
    assert len(items) == 72 and pager.exhausted and pager.resource == "metric_value"
    assert items[0] == {"timestamp": dt.datetime(2024, 1, 4, 23, tzinfo=UTC), "value": items[0]["value"]}
    assert isinstance(items[0]["value"], float)
    assert [i["timestamp"] for i in items] == sorted((i["timestamp"] for i in items), reverse=True)  # newest first
    path, q = service.requests[-1].path, service.requests[-1].query
    assert path == "/v2/chains/43114/metrics/txCount"
    assert q["timeInterval"] == "hour" and q["startTimestamp"] == str(T0 + 86400) and q["endTimestamp"] == str(T0 + 4 * 86400)
    df = m.metric("43114", "txCount", interval="day", start=T0, end=T0 + 10 * 86400, concurrency=1).to_polars()
    assert df.schema == pl.Schema({"timestamp": pl.Datetime("ns", "UTC"), "value": pl.Float64, "extra": pl.String})
    assert df["extra"].null_count() == df.height  # the emulator's points name no other field
    assert df.height == 10 and df["timestamp"].is_sorted(descending=True)


@pytest.mark.parametrize("interval", ["hour", "day", "week", "month"])
def test_bucket_alignment(m: ad.MetricsClient, interval: str) -> None:
    assert_bucket_starts(list(m.metric("43114", "txCount", interval=interval, page_size=2160)), interval)


@pytest.mark.parametrize("interval,start,end,size", [
    ("hour", T0, T0 + 30 * 86400, 50),
    ("hour", T0 + 1800, T0 + 30 * 86400 - 1, 7),
    ("day", T0 + 3 * 86400, T0 + 100 * 86400, 3),
    ("week", T0, T0 + 119 * 86400, 2),
    ("month", T0 - 86400, T0 + 119 * 86400, 1),
])
def test_sharded_walk_equals_the_sequential_walk(m: ad.MetricsClient, service: Service, interval: str, start: int, end: int, size: int) -> None:
    sequential = m.metric("43114", "txCount", interval=interval, start=start, end=end, page_size=size, concurrency=1).to_polars()
    for concurrency in (2, 4, 8, None):
        n = len(service.requests)
        sharded = m.metric("43114", "txCount", interval=interval, start=start, end=end, page_size=size, concurrency=concurrency).to_polars()
        assert sharded.equals(sequential), (interval, concurrency)
        windows = {(q.get("startTimestamp"), q.get("endTimestamp")) for q in (r.query for r in service.requests[n:])}
        assert len(windows) > 1  # it did split the window
    unbounded = [i for i in m.metric("43114", "txCount", interval=interval, page_size=2160)
                 if start <= i["timestamp"].timestamp() < end]
    assert [i["timestamp"] for i in unbounded] == sequential["timestamp"].to_list()


def test_sharded_pager_iterates_limits_and_resumes(m: ad.MetricsClient) -> None:
    kwargs = dict(interval="hour", start=T0, end=T0 + 10 * 86400, page_size=20)
    whole = list(m.metric("43114", "txCount", concurrency=1, **kwargs))
    pager = m.metric("43114", "txCount", concurrency=4, limit=100, **kwargs)
    first = []
    for item in pager:
        first.append(item)
        if len(first) == 30:
            break
    rest = list(pager)
    assert first + rest == whole[:100] and pager.items_read == 100
    # a limited walk is sequential: it stops at a page boundary and says where the rest starts
    assert not pager.exhausted and pager.page_offset == 0
    later = list(m.metric("43114", "txCount", page_token=pager.next_page_token, **kwargs))
    assert first + rest + later == whole
    pages = list(m.metric("43114", "txCount", concurrency=4, **kwargs).pages())
    assert [i for p in pages for i in p] == whole


def test_token_resume_and_expired_token(m: ad.MetricsClient) -> None:
    kwargs = dict(interval="hour", start=T0, end=T0 + 2 * 86400, page_size=10, concurrency=1)
    pager = m.metric("43114", "txCount", **kwargs)
    head = [i for _, i in zip(range(15), pager)]
    token, offset = pager.next_page_token, pager.page_offset
    assert token == "10" and offset == 5
    resumed = list(m.metric("43114", "txCount", page_token=token, **kwargs))[offset:]
    assert head + resumed == list(m.metric("43114", "txCount", **kwargs))
    with pytest.raises(ad.PageTokenError):
        list(m.metric("43114", "txCount", page_token="expired", **kwargs))


def test_write_parquet(m: ad.MetricsClient, tmp_path) -> None:
    path = tmp_path / "tx.parquet"
    rows = m.metric("43114", "txCount", interval="day", start=T0, end=T0 + 50 * 86400, page_size=5).write_parquet(path)
    assert rows == 50 and pl.read_parquet(path)["value"].dtype == pl.Float64


def test_chains_are_token_paged_and_filtered(m: ad.MetricsClient, service: Service) -> None:
    chains = list(m.chains())
    assert [c["evmChainId"] for c in chains] == [43114 + i for i in range(5)]
    assert {c["network"] for c in m.chains("fuji")} == {"testnet"}
    assert service.requests[-1].query["network"] == "fuji"
    df = m.chains(network="mainnet").to_polars()
    assert df.columns == ["evmChainId", "chainName", "blockchainId", "subnetId", "network", "extra"]
    assert df["evmChainId"].dtype == pl.UInt64 and df.height == 3


def test_icm_summary_single_and_grouped(m: ad.MetricsClient, service: Service) -> None:
    single = m.icm_summary("2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm")
    assert single == {"lastHour": 1, "lastDay": 2, "lastWeek": 3, "lastMonth": 4, "last90Days": 5, "lastYear": 6,
                      "allTime": 7, "srcBlockchainId": "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", "destBlockchainId": "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"}
    assert service.requests[-1].query == {"srcBlockchainId": "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", "destBlockchainId": "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"}
    grouped = m.icm_summary(network="mainnet", group_by=["srcBlockchainId", "destBlockchainId"])
    assert service.requests[-1].query == {"groupBy": "srcBlockchainId,destBlockchainId", "network": "mainnet"}
    assert isinstance(grouped, pl.DataFrame) and grouped.height == 2
    assert grouped.columns[:2] == ["srcBlockchainId", "destBlockchainId"] and grouped["allTime"].to_list() == [7, 9]
    assert grouped.columns[-1] == "extra" and all(grouped[c].dtype == pl.Int64 for c in grouped.columns[2:-1])
    by_src = m.icm_summary(group_by="srcBlockchainId")
    assert by_src["destBlockchainId"].null_count() == 2
    service.grouped_as_list = False  # a single object under `result` when grouped
    try:
        assert m.icm_summary(group_by="destBlockchainId").height == 1
    finally:
        service.grouped_as_list = True


def test_live_check_and_close(service: Service) -> None:
    client = ad.MetricsClient(base_url=service.url)
    assert client.live_check()["status"] == "ok"
    client.close()
    with pytest.raises(ad.AvaxDataError, match="closed"):
        client.live_check()
    assert "closed" in repr(client)


def test_http_errors_map_to_exceptions(service: Service) -> None:
    with ad.MetricsClient(base_url=service.url + "/nothing-here", max_retries=0) as client:
        with pytest.raises(ad.NotFoundError):
            client.live_check()


def test_async_client(service: Service) -> None:
    async def main() -> None:
        async with ad.AsyncMetricsClient(base_url=service.url) as client:
            assert (await client.live_check())["status"] == "ok"
            items = [i async for i in client.metric("43114", "txCount", interval="day", start=T0, end=T0 + 40 * 86400, page_size=3)]
            assert len(items) == 40
            df = await client.metric("43114", "txCount", interval="day", start=T0, end=T0 + 40 * 86400, page_size=3, concurrency=1).to_polars()
            assert df["timestamp"].to_list() == [i["timestamp"] for i in items]
            assert len([c async for c in client.chains()]) == 5
            assert isinstance(await client.icm_summary(group_by="srcBlockchainId"), pl.DataFrame)
            assert (await client.icm_summary("43114"))["srcBlockchainId"] == "43114"
            with pytest.raises(ad.InvalidParameterError):
                client.metric("43114", "avgTps", interval="hour")
    asyncio.run(main())
