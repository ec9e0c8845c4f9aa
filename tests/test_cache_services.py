"""The cache beyond index walks: Data API lookups of final objects, closed Metrics API buckets,
``container(index|id)`` and ``follow`` of the index client, two networks on one directory. For
each: a rerun sends no request for what is cached (counted by the emulator), a damaged entry is
dropped and fetched again, never returned."""

from __future__ import annotations

import datetime as dt
import hashlib
import subprocess
import sys
import textwrap
import urllib.request
from pathlib import Path

import pytest

import avax_data as ad
from avax_data._native import cache_info

MAGIC = b"AVXDC\x00\x00\x01"
UTC = dt.timezone.utc
C_CHAIN = "43114"
X_CHAIN = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    """A read-only emulator (its Data and Metrics worlds end on 2025-12-31)."""
    with ad.Emulator(seed=5, containers=300) as emulator:
        yield emulator


def sent_by(emu: ad.Emulator, call) -> tuple[object, int]:
    """What ``call()`` returns and the requests it sent."""
    before = emu.request_count()
    out = call()
    return out, emu.request_count() - before


def entry_path(cache: Path, kind: str, key: str) -> Path:
    digest = hashlib.sha256(key.encode()).hexdigest()
    return cache / kind / digest[:2] / digest


def payload_of(raw: bytes) -> bytes:
    """The payload of an entry's bytes."""
    body = raw[40:]
    return body[4 + int.from_bytes(body[:4], "little"):]


def service(client: ad.DataClient | ad.MetricsClient) -> str:
    """The service's name in the cache's keys: the base URL (redacted), a digest of it, and the
    emulator's world as its answers name it."""
    base = client.base_url.rstrip("/")
    with urllib.request.urlopen(f"{base}/v1/health-check") as answer:
        world = answer.headers["x-avax-emulator-world-id"]
    return f"{base}#{hashlib.sha256(base.encode()).hexdigest()[:16]}@world={world}"


def entry(key: str, payload: bytes) -> bytes:
    """An entry with a valid checksum of its own (what a hostile or buggy writer could leave)."""
    body = len(key).to_bytes(4, "little") + key.encode() + payload
    return MAGIC + hashlib.sha256(body).digest() + body


def test_data_lookups_of_final_objects_are_served_from_the_cache(emu: ad.Emulator, tmp_path: Path) -> None:
    plain = ad.DataClient(base_url=emu.url, cache=False)
    data = ad.DataClient(base_url=emu.url, cache=tmp_path)
    block = data.block(C_CHAIN, 5)
    tx_hash = next(iter(data.block_transactions(C_CHAIN, "5", limit=1)))["txHash"]
    vertex_hash = next(iter(data.vertices("mainnet", limit=1)))["vertexHash"]
    expected = {
        "by number": plain.block(C_CHAIN, 7),
        "by hash": plain.block(C_CHAIN, block["blockHash"]),
        "vertex": plain.vertex("mainnet", X_CHAIN, vertex_hash),
    }
    assert expected["by hash"]["blockNumber"] == 5
    calls = {
        "by number": lambda: data.block(C_CHAIN, 7),
        "by hash": lambda: data.block(C_CHAIN, block["blockHash"]),
        "vertex": lambda: data.vertex("mainnet", X_CHAIN, vertex_hash),
    }
    for name, call in calls.items():
        first, sent = sent_by(emu, call)
        assert sent == 1 and first == expected[name], name
        again, sent = sent_by(emu, call)
        assert sent == 0, f"{name}: a rerun sends no request"
        assert again == first, name
    # block 5 (asked for to find its hash) and the three lookups
    assert cache_info(tmp_path)["kinds"]["data"]["entries"] == 4
    # getTransaction is not cached: its answer carries prices (tests/test_cache_ownership.py).
    assert sent_by(emu, lambda: data.transaction(C_CHAIN, tx_hash))[1] == 1
    # A list is never cached.
    _, sent = sent_by(emu, lambda: list(data.block_transactions(C_CHAIN, "5", limit=1)))
    assert sent == 1
    # Another client on the same directory (a rerun of the notebook) asks once, to learn the
    # emulator's world from the answer; then it is served from the disk.
    other = ad.DataClient(base_url=emu.url, cache=tmp_path)
    assert sent_by(emu, lambda: other.block(C_CHAIN, 7)) == (expected["by number"], 1)
    assert sent_by(emu, lambda: other.block(C_CHAIN, block["blockHash"])) == (expected["by hash"], 0)


@pytest.mark.parametrize("damage", ["flipped", "another block", "not json"])
def test_a_damaged_data_entry_is_dropped_and_fetched_again(emu: ad.Emulator, tmp_path: Path, damage: str) -> None:
    data = ad.DataClient(base_url=emu.url, cache=tmp_path)
    expected = data.block(C_CHAIN, 9)
    key = f"data/{service(data)}/v1/chains/{C_CHAIN}/blocks/9"
    path = entry_path(tmp_path, "data", key)
    raw = path.read_bytes()
    if damage == "flipped":
        path.write_bytes(raw[:-3] + bytes([raw[-3] ^ 0x20]) + raw[-2:])
    elif damage == "another block":
        other = entry_path(tmp_path, "data", f"data/{service(data)}/v1/chains/{C_CHAIN}/blocks/8")
        data.block(C_CHAIN, 8)
        payload = payload_of(other.read_bytes())
        assert payload.startswith(b"{") and b'"blockNumber":"8"' in payload
        path.write_bytes(entry(key, payload))
    else:
        path.write_bytes(entry(key, b"[1, 2"))
    got, sent = sent_by(emu, lambda: data.block(C_CHAIN, 9))
    assert got == expected and sent == 1, "the damaged entry is not returned; the block is fetched"
    assert sent_by(emu, lambda: data.block(C_CHAIN, 9)) == (expected, 0), "and stored again"


def hours(day: int, hour: int = 0) -> dt.datetime:
    """A time of December 2025 (the emulator's metric series cover the last hours of its world,
    which ends on 2025-12-31 at midnight)."""
    return dt.datetime(2025, 12, day, hour, tzinfo=UTC)


END_OF_WORLD = dt.datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_rerun_of_a_metric_walk_over_closed_buckets_sends_no_request(emu: ad.Emulator, tmp_path: Path,
                                                                      concurrency: int) -> None:
    plain = ad.MetricsClient(base_url=emu.url, cache=False)
    metrics = ad.MetricsClient(base_url=emu.url, cache=tmp_path)
    window = dict(interval="hour", start=hours(30), end=END_OF_WORLD, page_size=2, concurrency=concurrency)
    expected = list(plain.metric(C_CHAIN, "txCount", **window))
    assert len(expected) >= 3
    first, sent = sent_by(emu, lambda: list(metrics.metric(C_CHAIN, "txCount", **window)))
    assert first == expected and sent >= 1
    again, sent = sent_by(emu, lambda: list(metrics.metric(C_CHAIN, "txCount", **window)))
    assert again == expected and sent == 0, "every bucket is closed: nothing is asked for"
    frame, sent = sent_by(emu, lambda: metrics.metric(C_CHAIN, "txCount", **window).to_polars())
    assert sent == 0 and frame.height == len(expected)
    assert cache_info(tmp_path)["kinds"]["metrics"]["entries"] >= 1


def test_the_open_last_bucket_is_always_fetched(emu: ad.Emulator, tmp_path: Path) -> None:
    metrics = ad.MetricsClient(base_url=emu.url, cache=tmp_path)
    now = dt.datetime.now(UTC)
    window = dict(interval="hour", start=hours(31, 12), end=now)
    first, sent_first = sent_by(emu, lambda: list(metrics.metric(C_CHAIN, "txCount", **window)))
    assert first == list(ad.MetricsClient(base_url=emu.url, cache=False).metric(C_CHAIN, "txCount", **window))
    assert len(first) >= 3 and all(hours(31, 12) <= p["timestamp"] < END_OF_WORLD for p in first)
    again, sent = sent_by(emu, lambda: list(metrics.metric(C_CHAIN, "txCount", **window)))
    assert again == first
    assert sent == 1, "only the shard holding the open bucket (this hour) is asked for"
    assert sent_first > sent


def test_a_damaged_metrics_entry_is_dropped_and_fetched_again(emu: ad.Emulator, tmp_path: Path) -> None:
    metrics = ad.MetricsClient(base_url=emu.url, cache=tmp_path)
    window = dict(interval="hour", start=hours(31, 12), end=END_OF_WORLD, concurrency=1)
    expected = list(metrics.metric(C_CHAIN, "gasUsed", **window))
    assert len(expected) >= 3
    files = [p for p in (tmp_path / "metrics").rglob("*") if p.is_file()]
    assert len(files) == 1
    raw = files[0].read_bytes()
    body = raw[40:]
    key = body[4: 4 + int.from_bytes(body[:4], "little")].decode()
    # A whole entry under the right key whose points lie outside the shard's window.
    files[0].write_bytes(entry(key, b'[{"timestamp": 1000, "value": 1}]'))
    got, sent = sent_by(emu, lambda: list(metrics.metric(C_CHAIN, "gasUsed", **window)))
    assert got == expected and sent == 1
    assert sent_by(emu, lambda: list(metrics.metric(C_CHAIN, "gasUsed", **window))) == (expected, 0)


def test_container_by_index_and_by_id_read_the_cache(emu: ad.Emulator, tmp_path: Path) -> None:
    path = "P/block"
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        chain = node.chain(path)
        first, sent = sent_by(emu, lambda: chain.container(17))
        assert first == emu.expected_container(path, 17)
        assert sent == 2, "the chain identity probe, then one range call that fills the cache"
        assert sent_by(emu, lambda: chain.container(17)) == (first, 0)
        ident = emu.expected_container(path, 40)["id"]
        by_id, sent = sent_by(emu, lambda: chain.container(id=ident))
        assert by_id == emu.expected_container(path, 40) and sent == 1
        assert sent_by(emu, lambda: chain.container(id=ident)) == (by_id, 1), "its position is known, 40 is not"
        assert sent_by(emu, lambda: chain.container(id=ident)) == (by_id, 0)
        tip = emu.container_count(path) - 1
        for _ in range(2):
            got, sent = sent_by(emu, lambda: chain.container(tip))
            assert got == emu.expected_container(path, tip) and sent == 1, "the tip is never cached"
        with pytest.raises(ad.IndexOutOfRangeError):
            chain.container(tip + 5)
    # A position entry that leads to another container is dropped, never believed.
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        chain = node.chain(path)
        chain.container(18)
        zero = emu.expected_container(path, 0)["id"]
        key = f"index/{zero}/{path}/id/{ident}"
        entry_path(tmp_path, "index", key).write_bytes(entry(key, (18).to_bytes(8, "little")))
        assert chain.container(id=ident) == emu.expected_container(path, 40)


def test_follow_catches_up_from_the_cache(tmp_path: Path) -> None:
    # 2,100 containers: an uncached follow needs a tip read and three range calls (1024, 1024,
    # 52); a cached one at most a tip read, one range call for the tip and, depending on timing,
    # the next poll it starts before the loop breaks. The bounds hold however that race falls.
    with ad.Emulator(seed=2, containers=2100) as local:
        tip = local.container_count("X/tx") - 1
        assert tip == 2099

        def follow_to_tip(node: ad.IndexClient) -> tuple[list[int], int]:
            before = local.request_count()
            seen = []
            follow = node.chain("X/tx").follow(0, poll_interval=60.0)
            for c in follow:
                seen.append(c["index"])
                if c["index"] == tip:
                    break
            sent = local.request_count() - before
            follow.close()
            return seen, sent

        with ad.IndexClient(local.url, cache=False) as node:
            seen, uncached = follow_to_tip(node)
        assert seen == list(range(tip + 1))
        with ad.IndexClient(local.url, cache=tmp_path) as node:
            assert len(list(node.chain("X/tx").range(0, tip + 1))) == tip + 1
            seen, sent = follow_to_tip(node)
        assert seen == list(range(tip + 1))
        assert uncached >= 4, "a tip read and three range calls (1024, 1024, then 52)"
        assert sent <= 3, "a tip read, one range call for the tip and at most one poll; the rest is cached"


def test_two_networks_never_share_entries(tmp_path: Path) -> None:
    """Two emulators of different worlds stand for two networks (mainnet and Fuji): the same
    path and positions, other containers. Entries are keyed by the chain's identity on its
    network, so neither is served the other's."""
    with ad.Emulator(seed=11, containers=80) as mainnet, ad.Emulator(seed=12, containers=80) as fuji:
        assert mainnet.expected_container("C/block", 0) != fuji.expected_container("C/block", 0)
        for net in (mainnet, fuji):
            with ad.IndexClient(net.url, cache=tmp_path) as node:
                got = list(node.chain("C/block").range(0, 50))
            assert got == [net.expected_container("C/block", i) for i in range(50)]
        assert cache_info(tmp_path)["kinds"]["index"]["entries"] == 100
        for net in (fuji, mainnet):
            with ad.IndexClient(net.url, cache=tmp_path) as node:
                got, sent = sent_by(net, lambda: list(node.chain("C/block").range(0, 50)))
            assert got == [net.expected_container("C/block", i) for i in range(50)]
            assert sent == 1, "only the chain identity probe"


_SHARER = textwrap.dedent("""
    import sys, datetime as dt
    import avax_data as ad
    url, cache = sys.argv[1], sys.argv[2]
    utc = dt.timezone.utc
    data = ad.DataClient(base_url=url, cache=cache)
    metrics = ad.MetricsClient(base_url=url, cache=cache)
    for n in range(30):
        assert data.block("43114", n)["blockNumber"] == n
    for hour in range(17, 24):
        start = dt.datetime(2025, 12, 31, hour, tzinfo=utc)
        points = list(metrics.metric(43114, "txCount", interval="hour", start=start,
                                     end=start + dt.timedelta(hours=1), concurrency=1))
        assert len(points) <= 2, len(points)
    print("ok")
""")


def test_two_processes_share_one_cache_of_lookups_and_buckets(emu: ad.Emulator, tmp_path: Path) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", _SHARER, emu.url, str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0 and out.strip() == "ok", err
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")], "no temporary file is left"
    info = cache_info(tmp_path)
    assert info["kinds"]["data"]["entries"] == 30 and info["kinds"]["metrics"]["entries"] == 7
    data = ad.DataClient(base_url=emu.url, cache=tmp_path)
    metrics = ad.MetricsClient(base_url=emu.url, cache=tmp_path)
    day = dict(interval="hour", start=hours(31, 22), end=hours(31, 23), concurrency=1)
    # A new client learns the emulator's world from its first answer (docs/guides/cache.md).
    data.block(C_CHAIN, 100)
    list(metrics.metric(C_CHAIN, "gasUsed", **day))
    before = emu.request_count()
    assert [data.block(C_CHAIN, n)["blockNumber"] for n in range(30)] == list(range(30))
    got = list(metrics.metric(C_CHAIN, "txCount", **day))
    assert emu.request_count() == before
    assert got == list(ad.MetricsClient(base_url=emu.url, cache=False).metric(C_CHAIN, "txCount", **day))


def test_cache_arguments_of_the_service_clients(emu: ad.Emulator, tmp_path: Path) -> None:
    for make in (ad.DataClient, ad.MetricsClient, ad.AsyncDataClient, ad.AsyncMetricsClient):
        with pytest.raises(ad.InvalidParameterError) as err:
            make(base_url=emu.url, cache=3)
        assert err.value.param == "cache"
        with pytest.raises(ad.InvalidParameterError) as err:
            make(base_url=emu.url, cache=tmp_path, cache_max_bytes=0)
        assert err.value.param == "cache_max_bytes" and "int >= 1" in str(err.value)
