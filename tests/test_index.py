"""The synchronous Index RPC client against the emulator: every method on every path, types,
errors mapped to exception classes, and input validation before any request."""

from __future__ import annotations

import datetime

import pytest

import avax_data as ad
from conftest import PATHS, SIZE


def assert_container_types(c: dict) -> None:
    """The documented types of a container dict."""
    assert set(c) == {"id", "bytes", "timestamp", "index", "encoding"}
    assert type(c["id"]) is str and len(c["id"]) > 40
    assert type(c["bytes"]) is bytes and len(c["bytes"]) > 0
    assert isinstance(c["timestamp"], datetime.datetime)
    assert c["timestamp"].tzinfo is not None
    assert c["timestamp"].utcoffset() == datetime.timedelta(0)
    assert type(c["index"]) is int
    assert c["encoding"] == "hex"


@pytest.mark.parametrize("path", PATHS)
def test_last_accepted(client: ad.IndexClient, emu: ad.Emulator, path: str) -> None:
    last = client.chain(path).last_accepted()
    assert emu.container_count(path) == SIZE
    assert last == emu.expected_container(path, SIZE - 1)
    assert last["index"] == SIZE - 1
    assert_container_types(last)


@pytest.mark.parametrize("path", PATHS)
def test_container_by_index(client: ad.IndexClient, emu: ad.Emulator, path: str) -> None:
    chain = client.chain(path)
    for i in (0, 1, 7, 1024, SIZE - 1):
        got = chain.container(i)
        assert got == emu.expected_container(path, i)
        assert got["index"] == i
        assert_container_types(got)
    assert chain.container(index=5) == emu.expected_container(path, 5)


@pytest.mark.parametrize("path", PATHS)
def test_container_by_id(client: ad.IndexClient, emu: ad.Emulator, path: str) -> None:
    chain = client.chain(path)
    for i in (0, 42, SIZE - 1):
        expected = emu.expected_container(path, i)
        got = chain.container(id=expected["id"])
        assert got == expected
        assert got["index"] == i


@pytest.mark.parametrize("path", PATHS)
def test_container_range(client: ad.IndexClient, emu: ad.Emulator, path: str) -> None:
    chain = client.chain(path)
    got = chain.container_range(10, 25)
    assert got == [emu.expected_container(path, i) for i in range(10, 35)]
    full = chain.container_range(1000, 1024)
    assert [c["index"] for c in full] == list(range(1000, 2024))
    assert full[-1] == emu.expected_container(path, 2023)


@pytest.mark.parametrize("path", PATHS)
def test_index_of_and_is_accepted(client: ad.IndexClient, emu: ad.Emulator, path: str) -> None:
    chain = client.chain(path)
    for i in (0, 3, SIZE - 1):
        cid = emu.expected_container(path, i)["id"]
        assert chain.index_of(cid) == i
        assert chain.is_accepted(cid) is True


def test_paths_are_distinct_indexes(emu: ad.Emulator) -> None:
    ids = {emu.expected_container(p, 0)["id"] for p in PATHS}
    assert len(ids) == len(PATHS)


def test_chain_path_forms(client: ad.IndexClient) -> None:
    assert client.chain("C/block").path == "C/block"
    assert client.chain("/ext/index/X/tx").path == "X/tx"
    with pytest.raises(ad.InvalidParameterError, match=r"case-sensitive: did you mean 'P/block'\?"):
        client.chain("p/block")  # the node's paths are case-sensitive


def test_client_url(emu: ad.Emulator) -> None:
    with ad.IndexClient(emu.url) as c:
        assert c.base_url.rstrip("/") == emu.url.rstrip("/")
    with ad.IndexClient(emu.url + "/") as c:
        assert c.chain("X/tx").last_accepted() == emu.expected_container("X/tx", SIZE - 1)


def test_url_from_environment(emu: ad.Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AVAX_NODE_URL", emu.url)
    with ad.IndexClient() as c:
        assert c.base_url.rstrip("/") == emu.url.rstrip("/")
        assert c.chain("X/tx").last_accepted()["index"] == SIZE - 1


def test_url_password_is_redacted(emu: ad.Emulator) -> None:
    with ad.IndexClient(emu.url.replace("http://", "http://user:hunter2secret@")) as c:
        assert "hunter2secret" not in c.base_url


def test_is_accepted_false_for_unknown_valid_id(client: ad.IndexClient, emu: ad.Emulator) -> None:
    # A well-formed CB58 id of a container that exists only on another path.
    other = emu.expected_container("C/block", 3)["id"]
    assert client.chain("X/tx").is_accepted(other) is False


# --- node errors -> exception classes ---------------------------------------------------------


def test_container_past_tip(client: ad.IndexClient, emu: ad.Emulator) -> None:
    before = emu.request_count()
    with pytest.raises(ad.IndexOutOfRangeError) as info:
        client.chain("X/tx").container(SIZE)
    err = info.value
    assert isinstance(err, ad.RPCError)
    assert err.code == -32000
    assert err.rpc_message == f"no container at index {SIZE}"
    assert err.method == "index.getContainerByIndex"
    assert err.url.endswith("/ext/index/X/tx")
    assert f"no container at index {SIZE}" in str(err)
    # a node error is an answer, not a failure: it is not retried
    assert emu.request_count() == before + 1


def test_range_call_past_tip(client: ad.IndexClient, emu: ad.Emulator) -> None:
    with pytest.raises(ad.IndexOutOfRangeError) as info:
        client.chain("P/block").container_range(SIZE + 5, 3)
    assert info.value.rpc_message == f"start index ({SIZE + 5}) > last accepted index ({SIZE - 1})"
    assert info.value.method == "index.getContainerRange"


def test_range_call_truncated_at_tip(client: ad.IndexClient, emu: ad.Emulator) -> None:
    got = client.chain("X/block").container_range(SIZE - 3, 100)
    assert [c["index"] for c in got] == [SIZE - 3, SIZE - 2, SIZE - 1]
    assert got[-1] == emu.expected_container("X/block", SIZE - 1)


def test_unknown_id(client: ad.IndexClient, emu: ad.Emulator) -> None:
    other = emu.expected_container("P/block", 0)["id"]
    chain = client.chain("C/block")
    with pytest.raises(ad.ContainerNotFoundError) as info:
        chain.container(id=other)
    assert info.value.code == -32000
    assert info.value.rpc_message == "not found"
    assert info.value.method == "index.getContainerByID"
    with pytest.raises(ad.ContainerNotFoundError) as info:
        chain.index_of(other)
    assert info.value.method == "index.getIndex"


def test_empty_index() -> None:
    with ad.Emulator(containers=0) as emu, ad.IndexClient(emu.url) as c:
        chain = c.chain("X/tx")
        assert emu.container_count("X/tx") == 0
        with pytest.raises(ad.EmptyIndexError) as info:
            chain.last_accepted()
        assert info.value.code == -32000
        assert info.value.rpc_message == "no containers have been accepted"
        assert info.value.method == "index.getLastAccepted"
        with pytest.raises(ad.EmptyIndexError):
            chain.container_range(0, 10)
        with pytest.raises(ad.IndexOutOfRangeError) as past:
            chain.container(0)
        assert past.value.rpc_message == "no container at index 0"
        assert chain.container_range(0, 0) == []
        # a walk of an empty index is empty, not an error
        assert list(chain.range()) == []
        df = chain.range().to_polars()
        assert df.height == 0
        assert df.columns == ["id", "bytes", "timestamp", "index", "encoding"]


def test_index_not_enabled() -> None:
    with ad.Emulator(containers=10) as emu, ad.IndexClient(emu.url) as c:
        chain = c.chain("X/tx")
        assert chain.last_accepted()["index"] == 9
        emu.set_index_enabled(False)
        with pytest.raises(ad.IndexNotEnabledError) as info:
            chain.last_accepted()
        err = info.value
        assert isinstance(err, ad.NotFoundError) and isinstance(err, ad.HTTPStatusError)
        assert err.status == 404
        assert "--index-enabled" in str(err)
        assert err.url.endswith("/ext/index/X/tx")
        with pytest.raises(ad.IndexNotEnabledError):
            list(chain.range(0, 5))
        emu.set_index_enabled(True)
        assert chain.last_accepted() == emu.expected_container("X/tx", 9)


def test_index_disabled_from_start() -> None:
    with ad.Emulator(containers=10, index_enabled=False) as emu, ad.IndexClient(emu.url) as c:
        with pytest.raises(ad.IndexNotEnabledError):
            c.chain("C/block").container(0)


# --- bad input: refused before any request ------------------------------------------------------


def refused(emu: ad.Emulator, call, *words: str) -> ad.InvalidParameterError:
    """Run ``call``; it must raise InvalidParameterError naming ``words`` and send nothing."""
    before = emu.request_count()
    with pytest.raises(ad.InvalidParameterError) as info:
        call()
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    assert emu.request_count() == before, "a request was sent for refused input"
    return info.value


def test_count_above_limit(client: ad.IndexClient, emu: ad.Emulator) -> None:
    err = refused(emu, lambda: client.chain("X/tx").container_range(0, 1025), "count", "1024")
    assert err.param == "count"
    assert err.value in (1025, "1025")


def test_negative_arguments(client: ad.IndexClient, emu: ad.Emulator) -> None:
    chain = client.chain("X/tx")
    assert refused(emu, lambda: chain.container_range(-1, 5), "start").param == "start"
    assert refused(emu, lambda: chain.container_range(0, -5), "count").param == "count"
    assert refused(emu, lambda: chain.container(-1), "index").param == "index"
    assert refused(emu, lambda: list(chain.range(-3, count=10)), "start").param == "start"
    assert refused(emu, lambda: list(chain.range(0, -10)), "stop").param == "stop"
    assert refused(emu, lambda: list(chain.range(0, count=-10)), "count").param == "count"


@pytest.mark.parametrize("bad", [1.5, "3", None, 2.0**70])
def test_non_integer_index(client: ad.IndexClient, emu: ad.Emulator, bad: object) -> None:
    chain = client.chain("X/tx")
    if bad is None:
        # neither index nor id
        refused(emu, lambda: chain.container(), "index", "id")
    else:
        assert refused(emu, lambda: chain.container(bad), "index").param == "index"
        assert refused(emu, lambda: chain.container_range(bad, 3), "start").param == "start"
        assert refused(emu, lambda: chain.container_range(0, bad), "count").param == "count"


def test_index_and_id_together(client: ad.IndexClient, emu: ad.Emulator) -> None:
    cid = emu.expected_container("X/tx", 1)["id"]
    refused(emu, lambda: client.chain("X/tx").container(1, id=cid), "index", "id")


@pytest.mark.parametrize("bad", ["not-an-id", "", "6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzZ", "0OIl"])
def test_bad_cb58_id(client: ad.IndexClient, emu: ad.Emulator, bad: str) -> None:
    chain = client.chain("X/tx")
    assert refused(emu, lambda: chain.container(id=bad), "id").param == "id"
    refused(emu, lambda: chain.index_of(bad), "id")
    refused(emu, lambda: chain.is_accepted(bad), "id")


def test_unknown_chain_path(client: ad.IndexClient, emu: ad.Emulator) -> None:
    err = refused(emu, lambda: client.chain("Y/tx"), "Y/tx", "C/block", "X/vtx")
    assert err.param in ("path", "chain")


@pytest.mark.parametrize("kwargs,param", [({"concurrency": 0}, "concurrency"), ({"batch_size": 0}, "batch_size")])
def test_bad_range_options(client: ad.IndexClient, emu: ad.Emulator, kwargs: dict, param: str) -> None:
    chain = client.chain("X/tx")
    assert refused(emu, lambda: list(chain.range(0, 10, **kwargs)), param).param == param


@pytest.mark.parametrize(
    "kwargs,param",
    [({"concurrency": 0}, "concurrency"), ({"timeout": -1.0}, "timeout"), ({"max_retries": -1}, "max_retries")],
)
def test_bad_client_options(emu: ad.Emulator, kwargs: dict, param: str) -> None:
    assert refused(emu, lambda: ad.IndexClient(emu.url, **kwargs), param).param == param


def test_bad_url(emu: ad.Emulator) -> None:
    refused(emu, lambda: ad.IndexClient("not a url at all"), "url")


def test_zero_count_is_answered_locally(client: ad.IndexClient, emu: ad.Emulator) -> None:
    before = emu.request_count()
    assert client.chain("C/block").container_range(5, 0) == []
    assert emu.request_count() == before


# --- transport ------------------------------------------------------------------------------


def closed_port_url() -> str:
    """A loopback URL on which nothing listens."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_connect_error_without_retries() -> None:
    url = closed_port_url()
    with ad.IndexClient(url, max_retries=0) as c:
        with pytest.raises(ad.ConnectError) as info:
            c.chain("X/tx").last_accepted()
    err = info.value
    assert isinstance(err, ad.TransportError)
    assert err.method == "POST"
    assert url.rsplit(":", 1)[1] in err.url
    assert err.url.endswith("/ext/index/X/tx")


def test_connect_error_after_retries() -> None:
    with ad.IndexClient(closed_port_url(), max_retries=2, backoff=0.01, max_backoff=0.05) as c:
        with pytest.raises(ad.ConnectError):
            c.chain("C/block").container(0)


# --- plugin fixtures ---------------------------------------------------------------------------


def test_plugin_fixtures(avax_emulator: ad.Emulator, avax_index_client: ad.IndexClient) -> None:
    assert isinstance(avax_emulator, ad.Emulator)
    assert avax_emulator.request_count() == 0
    assert avax_index_client.base_url.rstrip("/") == avax_emulator.url.rstrip("/")
    n = avax_emulator.container_count("X/tx")
    assert n > 0
    assert avax_index_client.chain("X/tx").last_accepted() == avax_emulator.expected_container("X/tx", n - 1)
    avax_emulator.advance("X/tx", 3)


def test_plugin_fixtures_are_fresh_per_test(avax_emulator: ad.Emulator, avax_index_client: ad.IndexClient) -> None:
    # the previous test sent requests and advanced X/tx: none of that is visible here
    assert avax_emulator.request_count() == 0
    fresh = ad.Emulator(seed=0)
    try:
        assert avax_emulator.container_count("X/tx") == fresh.container_count("X/tx")
    finally:
        fresh.close()
    avax_index_client.chain("X/tx").last_accepted()
    assert avax_emulator.request_count() == 1
