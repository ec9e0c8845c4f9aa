"""The client against a scripted stub node: real containers, every wire form the node has used,
integrity checks, HTTP errors, retries and timeouts. (The emulator cannot misbehave on purpose
through the Python API, so these answers come from a small HTTP server in this process.)"""

from __future__ import annotations

import datetime
import time

import polars as pl
import pytest

import avax_data as ad
from _helpers import StubNode, container_id, real_containers, split_hex

UTC = datetime.timezone.utc
REAL = real_containers()


@pytest.fixture
def stub() -> StubNode:
    """A stub node serving the two real X-chain transactions of the fixture."""
    with StubNode() as node:
        yield node


def client_for(stub: StubNode, **kwargs: object) -> ad.IndexClient:
    """A client with fast retries on the stub."""
    kwargs.setdefault("backoff", 0.01)
    kwargs.setdefault("max_backoff", 0.05)
    return ad.IndexClient(stub.url, **kwargs)


def test_fixture_is_self_consistent() -> None:
    # the independent CB58 / checksum code of the tests, checked on real data
    for c in REAL:
        data, checksum = split_hex(c["bytes"])
        assert len(data) == c["length"]
        assert checksum.hex() == c["checksum"]
        assert container_id(data) == c["id"]


def test_real_containers_decoded(stub: StubNode) -> None:
    with client_for(stub) as c:
        chain = c.chain("X/tx")
        first = chain.container(0)
        data, _ = split_hex(REAL[0]["bytes"])
        assert first["id"] == REAL[0]["id"]
        assert first["bytes"] == data and len(first["bytes"]) == 415
        assert first["index"] == 0 and first["encoding"] == "hex"
        # 2021-04-02T15:34:00.262979-07:00 in UTC
        assert first["timestamp"] == datetime.datetime(2021, 4, 2, 22, 34, 0, 262979, tzinfo=UTC)
        assert first["timestamp"].utcoffset() == datetime.timedelta(0)
        last = chain.last_accepted()
        assert last["id"] == REAL[1]["id"]
        assert len(last["bytes"]) == 379
        # 2021-11-04T00:42:55.01643414Z: microseconds in the dict
        assert last["timestamp"] == datetime.datetime(2021, 11, 4, 0, 42, 55, 16434, tzinfo=UTC)
        assert chain.container(id=REAL[1]["id"]) == last
        assert chain.index_of(REAL[1]["id"]) == 1
        assert chain.is_accepted(REAL[0]["id"]) is True


def test_real_containers_frame_keeps_nanoseconds(stub: StubNode) -> None:
    with client_for(stub) as c:
        df = c.chain("X/tx").range(0).to_polars()
    assert df["id"].to_list() == [r["id"] for r in REAL]
    assert df["index"].to_list() == [0, 1]
    assert df["timestamp"].dtype == pl.Datetime("ns", "UTC")
    expected_ns = [
        int(datetime.datetime(2021, 4, 2, 22, 34, 0, tzinfo=UTC).timestamp()) * 10**9 + 262_979_000,
        int(datetime.datetime(2021, 11, 4, 0, 42, 55, tzinfo=UTC).timestamp()) * 10**9 + 16_434_140,
    ]
    assert df["timestamp"].cast(pl.Int64).to_list() == expected_ns


def test_tx_bytes_served_as_c_blocks_fail_the_c_chain_id_rule(stub: StubNode) -> None:
    # X/tx bytes are neither a proposervm envelope nor an RLP block: on C/block no rule holds.
    with client_for(stub) as c, pytest.raises(ad.IntegrityError) as info:
        c.chain("C/block").container(0)
    assert "the bytes are neither a proposervm envelope nor an RLP block" in str(info.value)
    assert REAL[0]["id"] in str(info.value)


def test_request_envelope(stub: StubNode) -> None:
    with client_for(stub, headers={"X-Team": "data-science"}) as c:
        c.chain("X/tx").container(1)
        c.chain("P/block").container_range(0, 2)
    (path1, headers1, env1), (path2, _, env2) = stub.requests
    assert path1 == "/ext/index/X/tx"
    assert path2 == "/ext/index/P/block"
    assert headers1["content-type"].startswith("application/json")
    assert headers1["x-team"] == "data-science"
    assert env1["jsonrpc"] == "2.0"
    assert "id" in env1 and env1["id"] is not None
    assert env1["method"] == "index.getContainerByIndex"
    assert int(env1["params"]["index"]) == 1
    assert env1["params"]["encoding"] == "hex"
    assert env2["method"] == "index.getContainerRange"
    assert int(env2["params"]["startIndex"]) == 0 and int(env2["params"]["numToFetch"]) == 2


def test_base_url_with_trailing_slash(stub: StubNode) -> None:
    with ad.IndexClient(stub.url + "/") as c:
        c.chain("X/tx").last_accepted()
    assert stub.requests[0][0] == "/ext/index/X/tx"


@pytest.mark.parametrize("form", ["object", "array"])
def test_range_result_forms(stub: StubNode, form: str) -> None:
    stub.range_form = form
    with client_for(stub) as c:
        got = c.chain("X/tx").container_range(0, 2)
        assert [x["id"] for x in got] == [r["id"] for r in REAL]
        df = c.chain("X/tx").range(0, 2).to_polars()
        assert df["index"].to_list() == [0, 1]


def test_index_as_number(stub: StubNode) -> None:
    stub.index_as_number = True
    with client_for(stub) as c:
        chain = c.chain("X/tx")
        assert chain.container(1)["index"] == 1
        assert chain.index_of(REAL[1]["id"]) == 1
        assert [x["index"] for x in chain.range(0, 2)] == [0, 1]


def test_checksum_mismatch(stub: StubNode) -> None:
    bad = dict(stub.containers[0])
    bad["bytes"] = bad["bytes"][:-1] + ("0" if bad["bytes"][-1] != "0" else "1")
    stub.containers = [bad, stub.containers[1]]
    with client_for(stub) as c:
        with pytest.raises(ad.IntegrityError) as info:
            c.chain("X/tx").container(0)
        assert info.value.url.endswith("/ext/index/X/tx")
        # a verification failure is not retried
        assert len(stub.requests) == 1
        with pytest.raises(ad.IntegrityError):
            c.chain("X/tx").range(0, 2).to_polars()
        # the good container alone still decodes
        assert c.chain("X/tx").container(1)["id"] == REAL[1]["id"]


def test_id_mismatch_and_verify_ids_off(stub: StubNode) -> None:
    swapped = dict(stub.containers[0])
    swapped["id"] = stub.containers[1]["id"]
    stub.containers = [swapped, stub.containers[1]]
    with client_for(stub) as c:
        with pytest.raises(ad.IntegrityError):
            c.chain("X/tx").container(0)
        with pytest.raises(ad.IntegrityError):
            list(c.chain("X/tx").range(0, 2))
    with client_for(stub, verify_ids=False) as c:
        got = c.chain("X/tx").container(0)
        assert got["id"] == REAL[1]["id"]
        assert got["bytes"] == split_hex(REAL[0]["bytes"])[0]


@pytest.mark.parametrize(
    "body",
    [b"this is not json", b'{"jsonrpc":"2.0","id":1}', b'{"jsonrpc":"2.0","result":{"id":"x"},"id":1}',
     b""],
    ids=["not-json", "no-result", "missing-fields", "empty"],
)
def test_undecodable_answers(stub: StubNode, body: bytes) -> None:
    stub.handler = lambda n, env: (200, {"Content-Type": "application/json"}, body)
    with client_for(stub, max_retries=0) as c:
        with pytest.raises(ad.DecodeError) as info:
            c.chain("X/tx").last_accepted()
    assert info.value.url.endswith("/ext/index/X/tx")


def test_bad_timestamp_is_a_decode_error(stub: StubNode) -> None:
    bad = dict(stub.containers[1])
    bad["timestamp"] = "yesterday"
    stub.containers = [stub.containers[0], bad]
    with client_for(stub) as c:
        with pytest.raises(ad.DecodeError):
            c.chain("X/tx").last_accepted()


@pytest.mark.parametrize(
    "message,cls",
    [
        ("not found", ad.ContainerNotFoundError),
        ("no container at index 12", ad.IndexOutOfRangeError),
        ("start index (9) > last accepted index (1)", ad.IndexOutOfRangeError),
        ("no containers have been accepted", ad.EmptyIndexError),
        ("couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. "
         "See documentation for example calls", ad.RPCInvalidArgumentError),
        ('rpc: can\'t find method "index.getContainerByIndex"', ad.MethodNotFoundError),
        ("something the node never said before", ad.RPCError),
    ],
)
def test_rpc_error_messages(stub: StubNode, message: str, cls: type) -> None:
    stub.handler = lambda n, env: StubNode.error(message, rid=env["id"])
    with client_for(stub) as c:
        with pytest.raises(cls) as info:
            c.chain("X/tx").container(12)
    err = info.value
    assert type(err) is cls
    assert (err.code, err.rpc_message, err.method) == (-32000, message, "index.getContainerByIndex")
    assert err.url.endswith("/ext/index/X/tx")
    assert message in str(err)
    assert len(stub.requests) == 1, "JSON-RPC errors are answers: never retried"


@pytest.mark.parametrize(
    "status,cls",
    [(400, ad.BadRequestError), (401, ad.UnauthorizedError), (403, ad.ForbiddenError),
     (404, ad.IndexNotEnabledError), (405, ad.HTTPStatusError), (415, ad.HTTPStatusError)],
)
def test_http_errors_not_retried(stub: StubNode, status: int, cls: type) -> None:
    stub.handler = lambda n, env: (status, {"Content-Type": "text/plain"}, b"refused: go away")
    with client_for(stub, max_retries=3) as c:
        with pytest.raises(cls) as info:
            c.chain("C/block").last_accepted()
    err = info.value
    assert type(err) is cls
    assert err.status == status
    assert err.method == "POST"
    assert err.url.endswith("/ext/index/C/block")
    if status != 404:
        assert err.body == "refused: go away"
    assert len(stub.requests) == 1


def test_server_errors_retried_then_succeed(stub: StubNode) -> None:
    stub.handler = lambda n, env: (503, {}, b"busy") if n < 2 else None
    with client_for(stub, max_retries=3) as c:
        assert c.chain("X/tx").last_accepted()["id"] == REAL[1]["id"]
    assert len(stub.requests) == 3


def test_server_error_after_retries(stub: StubNode) -> None:
    stub.handler = lambda n, env: (502, {}, b"bad gateway")
    with client_for(stub, max_retries=2) as c:
        with pytest.raises(ad.ServerError) as info:
            c.chain("X/tx").container(0)
    assert info.value.status == 502
    assert info.value.body == "bad gateway"
    assert len(stub.requests) == 3


def test_no_retries_when_off(stub: StubNode) -> None:
    stub.handler = lambda n, env: (500, {}, b"boom")
    with client_for(stub, max_retries=0) as c:
        with pytest.raises(ad.ServerError):
            c.chain("X/tx").container(0)
    assert len(stub.requests) == 1


def test_rate_limit_carries_retry_after(stub: StubNode) -> None:
    stub.handler = lambda n, env: (429, {"Retry-After": "7"}, b'{"message":"Too Many Requests"}')
    with client_for(stub, max_retries=0) as c:
        with pytest.raises(ad.RateLimitError) as info:
            c.chain("X/tx").container(0)
    assert info.value.status == 429
    assert info.value.retry_after == 7.0
    assert "Too Many Requests" in info.value.body


def test_rate_limit_retried_then_succeeds(stub: StubNode) -> None:
    stub.handler = lambda n, env: (429, {"Retry-After": "0"}, b"slow down") if n == 0 else None
    with client_for(stub, max_retries=2) as c:
        assert c.chain("X/tx").container(1)["id"] == REAL[1]["id"]
    assert len(stub.requests) == 2


def test_range_recovers_from_transient_errors(stub: StubNode) -> None:
    stub.handler = lambda n, env: (503, {}, b"busy") if n % 2 == 0 else None
    with client_for(stub, max_retries=2) as c:
        assert [x["index"] for x in c.chain("X/tx").range(0, 2)] == [0, 1]


def test_request_timeout(stub: StubNode) -> None:
    def slow(n: int, env: object) -> None:
        time.sleep(3)
        return None

    stub.handler = slow
    with client_for(stub, timeout=0.3, max_retries=0) as c:
        with pytest.raises(ad.RequestTimeoutError) as info:
            c.chain("X/tx").last_accepted()
    assert isinstance(info.value, ad.TransportError)
    assert info.value.method == "POST"
