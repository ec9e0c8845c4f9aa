"""The emulator speaks the node's wire protocol exactly (ground-truth.md), seen with a raw HTTP
client, and its synthetic world is deterministic and self-consistent."""

from __future__ import annotations

import datetime
import json

import pytest

import avax_data as ad
from _helpers import node_id, rpc, split_hex, wait_until
from avax_data.testing import Emulator
from conftest import PATHS, SIZE

UNMARSHAL = ("couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. "
             "See documentation for example calls")


def ok(url: str, path: str, method: str, params: dict | None = None) -> object:
    """The ``result`` of a successful call (HTTP 200, no error)."""
    status, _, body = rpc(url, path, method, params)
    assert status == 200, body
    answer = json.loads(body)
    assert answer["jsonrpc"] == "2.0" and answer["id"] == 1
    assert "error" not in answer or answer["error"] is None, answer
    return answer["result"]


def err(url: str, path: str, method: str, params: dict | None = None) -> dict:
    """The ``error`` object of a failing call (which still answers HTTP 200)."""
    status, _, body = rpc(url, path, method, params)
    assert status == 200, (status, body)
    answer = json.loads(body)
    assert "result" not in answer or answer["result"] is None, answer
    return answer["error"]


def parse_ts(text: str) -> datetime.datetime:
    """RFC 3339 with up to nanosecond fractions -> datetime (fraction cut to microseconds)."""
    head, _, rest = text.partition(".")
    if rest:
        digits = rest[: len(rest) - len(rest.lstrip("0123456789"))]
        zone = rest[len(digits):]
        text = f"{head}.{digits[:6].ljust(6, '0')}{zone}"
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_emulator_class_is_the_native_one() -> None:
    assert Emulator is ad.Emulator


def test_context_manager_and_url() -> None:
    with Emulator(containers=3) as emu:
        assert emu.url == f"http://127.0.0.1:{emu.port}"
        assert emu.port > 0
        assert ok(emu.url, "X/tx", "index.getLastAccepted", {"encoding": "hex"})["index"] == "2"


@pytest.mark.parametrize("path", PATHS)
def test_wire_container(emu: ad.Emulator, path: str) -> None:
    wire = ok(emu.url, path, "index.getContainerByIndex", {"index": 5, "encoding": "hex"})
    assert set(wire) == {"id", "bytes", "timestamp", "encoding", "index"}
    assert wire["index"] == "5"  # a quoted decimal
    assert wire["encoding"] == "hex"
    data, checksum = split_hex(wire["bytes"])
    import hashlib

    assert checksum == hashlib.sha256(data).digest()[-4:]
    assert wire["id"] == node_id(path, data)
    expected = emu.expected_container(path, 5)
    assert expected["bytes"] == data
    assert expected["id"] == wire["id"]
    assert expected["index"] == 5
    assert parse_ts(wire["timestamp"]) == expected["timestamp"]


@pytest.mark.parametrize("path", PATHS)
def test_expected_containers_are_consistent(emu: ad.Emulator, path: str) -> None:
    previous = None
    sizes = set()
    for i in range(0, SIZE, 50):
        c = emu.expected_container(path, i)
        assert c["id"] == node_id(path, c["bytes"])
        assert c["timestamp"].utcoffset() == datetime.timedelta(0)
        if previous is not None:
            assert c["timestamp"] >= previous, "timestamps go back in time"
        previous = c["timestamp"]
        sizes.add(len(c["bytes"]))
    assert len(sizes) > 1, "all containers have the same size"
    assert min(sizes) >= 32


def test_deterministic_by_seed() -> None:
    with Emulator(seed=7, containers=10) as a, Emulator(seed=7, containers=10) as b, \
            Emulator(seed=8, containers=10) as c:
        assert a.expected_container("C/block", 4) == b.expected_container("C/block", 4)
        assert a.expected_container("C/block", 4)["id"] != c.expected_container("C/block", 4)["id"]


def test_container_is_a_function_of_seed_and_index() -> None:
    with Emulator(seed=1, containers=10) as small, Emulator(seed=1, containers=2_000_000) as big:
        # Bytes and ids are a function of (seed, index); the time of a container is its place on
        # the index's timeline (genesis to Cortina, stretched over the index's length).
        a, b = small.expected_container("X/tx", 9), big.expected_container("X/tx", 9)
        assert (a["id"], a["bytes"], a["index"]) == (b["id"], b["bytes"], b["index"])
        assert a["timestamp"] > b["timestamp"], "a longer X/tx index packs more containers before Cortina"
        tail = ok(big.url, "X/tx", "index.getContainerByIndex", {"index": 1_999_999, "encoding": "hex"})
        assert tail["id"] == big.expected_container("X/tx", 1_999_999)["id"]


def test_range_result_shape(emu: ad.Emulator) -> None:
    result = ok(emu.url, "C/block", "index.getContainerRange", {"startIndex": 3, "numToFetch": 4, "encoding": "hex"})
    assert set(result) == {"containers"}
    assert [c["index"] for c in result["containers"]] == ["3", "4", "5", "6"]


def test_other_methods(emu: ad.Emulator) -> None:
    cid = emu.expected_container("P/block", 11)["id"]
    assert ok(emu.url, "P/block", "index.getIndex", {"id": cid, "encoding": "hex"}) == {"index": "11"}
    assert ok(emu.url, "P/block", "index.isAccepted", {"id": cid, "encoding": "hex"}) == {"isAccepted": True}
    other = emu.expected_container("X/tx", 11)["id"]
    assert ok(emu.url, "P/block", "index.isAccepted", {"id": other, "encoding": "hex"}) == {"isAccepted": False}
    by_id = ok(emu.url, "P/block", "index.getContainerByID", {"id": cid, "encoding": "hex"})
    assert by_id["index"] == "11" and by_id["id"] == cid
    last = ok(emu.url, "P/block", "index.getLastAccepted", {"encoding": "hex"})
    assert last["index"] == str(SIZE - 1)


def test_arguments_as_strings(emu: ad.Emulator) -> None:
    assert ok(emu.url, "X/tx", "index.getContainerByIndex", {"index": "8", "encoding": "hex"})["index"] == "8"
    got = ok(emu.url, "X/tx", "index.getContainerRange", {"startIndex": "1", "numToFetch": "2", "encoding": "hex"})
    assert [c["index"] for c in got["containers"]] == ["1", "2"]


def test_exact_error_messages(emu: ad.Emulator) -> None:
    url = emu.url
    e = err(url, "X/tx", "index.getContainerByIndex", {"index": SIZE, "encoding": "hex"})
    assert (e["code"], e["message"]) == (-32000, f"no container at index {SIZE}")
    e = err(url, "X/tx", "index.getContainerRange", {"startIndex": SIZE + 2, "numToFetch": 5, "encoding": "hex"})
    assert e["message"] == f"start index ({SIZE + 2}) > last accepted index ({SIZE - 1})"
    for n in (0, 1025):
        e = err(url, "X/tx", "index.getContainerRange", {"startIndex": 0, "numToFetch": n, "encoding": "hex"})
        assert (e["code"], e["message"]) == (-32000, f"numToFetch must be in [1,1024] but is {n}")
    unknown = emu.expected_container("C/block", 0)["id"]
    assert err(url, "X/tx", "index.getContainerByID", {"id": unknown, "encoding": "hex"})["message"] == "not found"
    assert err(url, "X/tx", "index.getIndex", {"id": unknown, "encoding": "hex"})["message"] == "not found"
    e = err(url, "X/tx", "index.getContainerByID", {"id": "not-cb58", "encoding": "hex"})
    assert (e["code"], e["message"]) == (-32000, UNMARSHAL)
    e = err(url, "X/tx", "index.getLastAccepted", {"encoding": "base64"})
    assert e["message"] == UNMARSHAL
    # the node upper-cases the method's first letter before looking it up
    e = err(url, "X/tx", "index.foo", {})
    assert (e["code"], e["message"]) == (-32000, 'rpc: can\'t find method "index.Foo"')


def test_range_runs_past_tip_truncated(emu: ad.Emulator) -> None:
    got = ok(emu.url, "X/vtx", "index.getContainerRange", {"startIndex": SIZE - 2, "numToFetch": 50, "encoding": "hex"})
    assert [c["index"] for c in got["containers"]] == [str(SIZE - 2), str(SIZE - 1)]


def test_empty_index_messages() -> None:
    with Emulator(containers=0) as emu:
        assert err(emu.url, "C/block", "index.getLastAccepted", {"encoding": "hex"})["message"] == \
            "no containers have been accepted"
        e = err(emu.url, "C/block", "index.getContainerRange", {"startIndex": 0, "numToFetch": 3, "encoding": "hex"})
        assert e["message"] == "no containers have been accepted"


def test_transport_rules(emu: ad.Emulator) -> None:
    status, _, body = rpc(emu.url, "X/tx", "index.getLastAccepted", {"encoding": "hex"}, content_type=None)
    assert status == 415
    assert body.decode().startswith("rpc: unrecognized Content-Type: ")
    status, _, _ = rpc(emu.url, "X/tx", "index.getLastAccepted", http_method="GET")
    assert status == 405
    status, _, body = rpc(emu.url, "X/tx", "index.getLastAccepted", {"encoding": "hex"}, rid=None)
    assert (status, body) == (200, b"")
    _, _, body = rpc(emu.url, "X/tx", "", raw_body=b"[1, 2")
    assert json.loads(body)["error"]["code"] == -32700
    _, _, body = rpc(emu.url, "X/tx", "", raw_body=json.dumps(
        {"jsonrpc": "1.0", "method": "index.getLastAccepted", "params": {"encoding": "hex"}, "id": 3}).encode())
    assert json.loads(body)["error"]["code"] == -32600


def test_index_switch() -> None:
    with Emulator(containers=4) as emu:
        emu.set_index_enabled(False)
        for path in PATHS:
            assert rpc(emu.url, path, "index.getLastAccepted", {"encoding": "hex"})[0] == 404
        emu.set_index_enabled(True)
        assert ok(emu.url, "X/tx", "index.getLastAccepted", {"encoding": "hex"})["index"] == "3"


def test_advance_and_counts() -> None:
    with Emulator(containers={"X/tx": 5, "C/block": 9}) as emu:
        assert emu.container_count("X/tx") == 5
        assert emu.container_count("C/block") == 9
        assert emu.advance("X/tx", 3) == 8
        assert emu.advance("X/tx") == 9
        assert emu.container_count("X/tx") == 9
        assert emu.container_count("C/block") == 9
        assert ok(emu.url, "X/tx", "index.getLastAccepted", {"encoding": "hex"})["index"] == "8"


def test_tip_rate_grows_the_tip() -> None:
    with Emulator(containers=10, tip_rate=200.0) as emu:
        assert wait_until(lambda: emu.container_count("P/block") >= 30, timeout=30)


def test_request_count() -> None:
    with Emulator(containers=3) as emu:
        assert emu.request_count() == 0
        ok(emu.url, "X/tx", "index.getLastAccepted", {"encoding": "hex"})
        ok(emu.url, "C/block", "index.getContainerByIndex", {"index": 0, "encoding": "hex"})
        assert emu.request_count() == 2


def test_utc_offset_on_the_wire() -> None:
    with Emulator(containers=3, utc_offset_minutes=-420) as emu:
        wire = ok(emu.url, "X/tx", "index.getContainerByIndex", {"index": 1, "encoding": "hex"})
        assert wire["timestamp"].endswith("-07:00")
        expected = emu.expected_container("X/tx", 1)
        assert parse_ts(wire["timestamp"]) == expected["timestamp"]
        with ad.IndexClient(emu.url) as c:
            got = c.chain("X/tx").container(1)
        assert got == expected
        assert got["timestamp"].utcoffset() == datetime.timedelta(0)


def test_latency_setting() -> None:
    with Emulator(containers=3) as emu, ad.IndexClient(emu.url, timeout=0.5, max_retries=0) as c:
        emu.set_latency(3.0)
        with pytest.raises(ad.RequestTimeoutError):
            c.chain("X/tx").last_accepted()
        emu.set_latency(0.0)
        assert c.chain("X/tx").last_accepted()["index"] == 2


@pytest.mark.parametrize("kwargs,param,allowed", [
    ({"seed": "x"}, "seed", "an int >= 0"),
    ({"seed": -1}, "seed", "an int in [0, 2**64 - 1]"),
    ({"fault_seed": 1.5}, "fault_seed", "an int >= 0"),
    ({"latency": "1"}, "latency", "a finite number of seconds >= 0"),
    ({"latency": -0.1}, "latency", "a finite number of seconds >= 0"),
    ({"tip_rate": float("nan")}, "tip_rate", "a finite number of containers per second >= 0"),
    ({"port": 70_000}, "port", "an int in [0, 65535]"),
    ({"utc_offset_minutes": 1440}, "utc_offset_minutes", "an int of minutes in (-1440, 1440)"),
    ({"utc_offset_minutes": 1.5}, "utc_offset_minutes", "an int of minutes in (-1440, 1440)"),
    ({"host": 5}, "host", "a host name or IP address (str)"),
    ({"index_enabled": 1}, "index_enabled", "True or False"),
    ({"data_api_require_key": "yes"}, "data_api_require_key", "True or False"),
    ({"rate_limit": 5}, "rate_limit", "None or (limit, window_seconds)"),
    ({"rate_limit": (0, 60)}, "rate_limit", "None or (limit, window_seconds)"),
    ({"rate_limit": (5, 0)}, "rate_limit", "None or (limit, window_seconds)"),
    ({"rate_limit": (5, 60, 1)}, "rate_limit", "None or (limit, window_seconds)"),
])
def test_bad_emulator_arguments_name_the_parameter(kwargs: dict, param: str, allowed: str) -> None:
    """Every constructor argument is checked with an InvalidParameterError (a ValueError) that
    names the parameter and what it allows, never a bare TypeError."""
    with pytest.raises(ad.InvalidParameterError) as e:
        ad.Emulator(**kwargs)
    assert isinstance(e.value, ValueError) and e.value.param == param
    assert f"invalid {param}=" in str(e.value) and allowed in str(e.value)


def test_set_rate_limit_checks_its_argument() -> None:
    with ad.Emulator(containers=5) as emu:
        with pytest.raises(ad.InvalidParameterError, match="rate_limit"):
            emu.set_rate_limit((1, "60"))  # type: ignore[arg-type]
        emu.set_rate_limit((3, 1.5))
        emu.set_rate_limit(None)
