"""The cache of what cannot change (``cache=``): a rerun sends no request for cached containers,
a damaged entry is dropped and fetched again (never returned), the tip is never cached, the size
bound holds, two processes share one directory, and the ``cache`` commands."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import avax_data as ad
from avax_data._native import cache_clear, cache_info

from _cli import cli

MAGIC = b"AVXDC\x00\x00\x01"
PATH = "X/tx"


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    """A read-only emulator of 300 containers per path."""
    with ad.Emulator(seed=3, containers=300) as emulator:
        yield emulator


def key(emu: ad.Emulator, index: int, path: str = PATH) -> str:
    """The cache key of a container: the chain's container 0 id, the path, the position."""
    return f"index/{emu.expected_container(path, 0)['id']}/{path}/{index}"


def entry_file(cache: Path, k: str) -> Path:
    digest = hashlib.sha256(k.encode()).hexdigest()
    return cache / "index" / digest[:2] / digest


def split_entry(data: bytes) -> tuple[bytes, dict]:
    """The key part of an entry's body and its container fields."""
    assert data[:8] == MAGIC and hashlib.sha256(data[40:]).digest() == data[8:40]
    body = data[40:]
    key_len = int.from_bytes(body[:4], "little")
    head, payload = body[: 4 + key_len], body[4 + key_len:]
    id_len = int.from_bytes(payload[:4], "little")
    ident = payload[4: 4 + id_len].decode()
    rest = payload[4 + id_len:]
    ts_len = int.from_bytes(rest[:4], "little")
    ts = rest[4: 4 + ts_len]
    rest = rest[4 + ts_len:]
    return head, {"id": ident, "timestamp": ts, "index": rest[:8], "raw": rest[8:]}


def join_entry(head: bytes, f: dict) -> bytes:
    """An entry with a valid checksum of its own, holding the fields ``f``."""
    ident = f["id"].encode()
    payload = (len(ident).to_bytes(4, "little") + ident + len(f["timestamp"]).to_bytes(4, "little") + f["timestamp"]
               + f["index"] + f["raw"])
    body = head + payload
    return MAGIC + hashlib.sha256(body).digest() + body


def walk(node: ad.IndexClient, emu: ad.Emulator, start: int, count: int | None) -> tuple[list[dict], int]:
    """The containers of a walk and the requests it sent."""
    before = emu.request_count()
    got = list(node.chain(PATH).range(start, count=count))
    return got, emu.request_count() - before


def test_a_rerun_sends_no_request_for_cached_containers(emu: ad.Emulator, tmp_path: Path) -> None:
    expected = [emu.expected_container(PATH, i) for i in range(200)]
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        first, sent = walk(node, emu, 0, 200)
        assert first == expected
        assert sent == 2, "the chain identity probe (container 0) and one range call"
        assert cache_info(tmp_path)["kinds"]["index"]["entries"] == 200
        again, sent = walk(node, emu, 0, 200)
        assert (again, sent) == (expected, 0)
        before = emu.request_count()
        frame = node.chain(PATH).range(50, 150).to_polars()
        assert emu.request_count() == before, "frames (the column path) come from the cache too"
        assert frame["index"].to_list() == list(range(50, 150))
        assert frame["id"].to_list() == [c["id"] for c in expected[50:150]]
    with ad.IndexClient(emu.url, cache=str(tmp_path)) as fresh:
        again, sent = walk(fresh, emu, 0, 200)
        assert (again, sent) == (expected, 1), "a new client reads the chain identity once"
        extended, sent = walk(fresh, emu, 150, 100)
        assert extended == [emu.expected_container(PATH, i) for i in range(150, 250)]
        assert sent == 1, "only the positions not cached are asked for, in one call"


def test_the_tip_is_never_cached_and_is_once_a_later_container_is_accepted(tmp_path: Path) -> None:
    with ad.Emulator(seed=4, containers=60) as emu, ad.IndexClient(emu.url, cache=tmp_path) as node:
        got, _ = walk(node, emu, 0, None)
        assert [c["index"] for c in got] == list(range(60))
        assert entry_file(tmp_path, key(emu, 58)).is_file()
        assert not entry_file(tmp_path, key(emu, 59)).exists(), "the tip (59) is not cached"
        assert cache_info(tmp_path)["entries"] == 59
        again, sent = walk(node, emu, 0, None)
        assert again == got
        assert sent == 2, "the tip read and the call for the tip container"
        emu.advance(PATH, 3)
        more, sent = walk(node, emu, 0, None)
        assert [c["index"] for c in more] == list(range(63))
        assert more[59:] == [emu.expected_container(PATH, i) for i in range(59, 63)]
        assert entry_file(tmp_path, key(emu, 61)).is_file() and not entry_file(tmp_path, key(emu, 62)).exists()
        # A range ending below the tip: the one extra container asked for proves its last is not the tip.
        with ad.IndexClient(emu.url, cache=tmp_path / "b") as other:
            walk(other, emu, 10, 5)
            assert entry_file(tmp_path / "b", key(emu, 14)).is_file()
            assert not entry_file(tmp_path / "b", key(emu, 15)).exists()


def flip_middle(data: bytes) -> bytes:
    i = len(data) // 2
    return data[:i] + bytes([data[i] ^ 0x20]) + data[i + 1:]


def wrong_id(data: bytes, other_id: str) -> bytes:
    head, f = split_entry(data)
    return join_entry(head, {**f, "id": other_id})


def altered_bytes(data: bytes) -> bytes:
    head, f = split_entry(data)
    raw = f["raw"]
    return join_entry(head, {**f, "raw": raw[:10] + bytes([raw[10] ^ 1]) + raw[11:]})


def other_position(data: bytes) -> bytes:
    head, f = split_entry(data)
    return join_entry(head, {**f, "index": (int.from_bytes(f["index"], "little") + 1).to_bytes(8, "little")})


@pytest.mark.parametrize("damage", ["flip", "truncate", "wrong_id", "altered_bytes", "other_position", "empty"])
def test_a_damaged_entry_is_dropped_and_fetched_again(emu: ad.Emulator, tmp_path: Path, damage: str) -> None:
    expected = [emu.expected_container(PATH, i) for i in range(40)]
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        walk(node, emu, 0, 40)
        target = entry_file(tmp_path, key(emu, 17))
        good = target.read_bytes()
        damaged = {
            "flip": lambda d: flip_middle(d),
            "truncate": lambda d: d[: len(d) - 7],
            "wrong_id": lambda d: wrong_id(d, expected[3]["id"]),
            "altered_bytes": altered_bytes,
            "other_position": other_position,
            "empty": lambda d: b"",
        }[damage](good)
        assert damaged != good
        target.write_bytes(damaged)
        got, sent = walk(node, emu, 0, 40)
        assert got == expected, "the damaged entry is never returned"
        assert sent == 1, "positions 17.. are asked for again in one call"
        assert target.read_bytes() == good, "the refetched container is stored again"
        assert walk(node, emu, 0, 40) == (expected, 0)


def test_the_size_bound_holds_and_the_least_recently_used_go_first(emu: ad.Emulator, tmp_path: Path) -> None:
    with ad.IndexClient(emu.url, cache=tmp_path) as probe:
        walk(probe, emu, 0, 10)
    entry_size = cache_info(tmp_path)["bytes"] // 10
    cache_clear(tmp_path)
    limit = entry_size * 40
    with ad.IndexClient(emu.url, cache=tmp_path, cache_max_bytes=limit) as node:
        for start in range(0, 100, 10):
            walk(node, emu, start, 10)
            assert cache_info(tmp_path)["bytes"] <= limit
        latest, sent = walk(node, emu, 80, 10)
        assert sent == 0, "the most recently used entries stay"
        oldest, sent = walk(node, emu, 0, 10)
        assert sent >= 1, "the least recently used were evicted"
        assert oldest == [emu.expected_container(PATH, i) for i in range(10)]


_WRITER = textwrap.dedent("""
    import sys
    import avax_data as ad
    url, cache, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with ad.IndexClient(url, cache=cache, cache_max_bytes=int(sys.argv[4])) as node:
        for k in range(6):
            got = list(node.chain("X/tx").range(start + 7 * k, count=60))
            assert [c["index"] for c in got] == list(range(start + 7 * k, start + 7 * k + 60))
    print("ok")
""")


def test_two_processes_filling_one_cache_leave_a_valid_cache(emu: ad.Emulator, tmp_path: Path) -> None:
    limit = 1 << 20
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, emu.url, str(tmp_path), str(s), str(limit)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for s in (0, 20)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0 and out.strip() == "ok", err
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")], "no temporary file is left"
    for path in (tmp_path / "index").rglob("*"):
        if path.is_file():
            split_entry(path.read_bytes())  # every entry is whole, its checksum right
    expected = [emu.expected_container(PATH, i) for i in range(0, 95)]
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        got, sent = walk(node, emu, 0, 95)
    assert got == expected and sent == 1, "only the chain identity probe"


def test_cache_arguments_and_the_environment(emu: ad.Emulator, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for bad in (True, 3, ""):
        with pytest.raises(ad.InvalidParameterError, match="cache") as err:
            ad.IndexClient(emu.url, cache=bad)
        assert err.value.param == "cache"
    for bad_bound in (0, -1, 1.5, "1GB", True):
        with pytest.raises(ad.InvalidParameterError) as err:
            ad.IndexClient(emu.url, cache=tmp_path, cache_max_bytes=bad_bound)
        assert err.value.param == "cache_max_bytes" and "int >= 1" in str(err.value)
    env_dir = tmp_path / "env"
    monkeypatch.setenv("AVAX_DATA_CACHE", str(env_dir))
    with ad.IndexClient(emu.url) as node:
        walk(node, emu, 0, 5)
    assert cache_info(env_dir)["entries"] == 5
    for off in (False, None):
        with ad.IndexClient(emu.url, cache=off) as node:
            _, sent = walk(node, emu, 0, 5)
        assert sent == 1, "no cache: the range is asked for"
    assert cache_info(env_dir)["entries"] == 5


def test_the_cache_commands(emu: ad.Emulator, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        walk(node, emu, 0, 12)
    done = cli(capsys, "cache", "info", str(tmp_path), "--json")
    assert done.code == 0, done.err
    info = json.loads(done.out)
    assert (info["entries"], info["kinds"]["index"]["entries"], info["kinds"]["metrics"]["entries"]) == (12, 12, 0)
    assert info["bytes"] == info["kinds"]["index"]["bytes"] > 0
    assert info["default_max_bytes"] == 1 << 30
    text = cli(capsys, "cache", "info", str(tmp_path))
    assert text.code == 0 and f"12 entries, {info['bytes']} bytes" in text.out and "index: 12 entries" in text.out
    monkeypatch.delenv("AVAX_DATA_CACHE", raising=False)
    missing = cli(capsys, "cache", "info")
    assert missing.code == 2 and "no cache directory" in missing.err
    monkeypatch.setenv("AVAX_DATA_CACHE", str(tmp_path))
    cleared = cli(capsys, "cache", "clear")
    assert cleared.code == 0 and "deleted 12 entries" in cleared.out
    assert cache_info(tmp_path)["entries"] == 0
    gone = cli(capsys, "cache", "clear", str(tmp_path / "nope"))
    assert gone.code == 2 and "an existing cache directory" in gone.err


def test_the_async_client_shares_the_cache(emu: ad.Emulator, tmp_path: Path) -> None:
    import asyncio

    async def twice() -> tuple[list[dict], list[dict], int]:
        async with ad.AsyncIndexClient(emu.url, cache=tmp_path) as node:
            first = [c async for c in node.chain(PATH).range(5, 35)]
            before = emu.request_count()
            again = [c async for c in node.chain(PATH).range(5, 35)]
            return first, again, emu.request_count() - before

    first, again, sent = asyncio.run(twice())
    assert first == again == [emu.expected_container(PATH, i) for i in range(5, 35)]
    assert sent == 0
    with ad.IndexClient(emu.url, cache=tmp_path) as sync_node:
        assert walk(sync_node, emu, 5, 30) == (first, 1), "the sync client reads the same entries"


def test_a_walk_of_several_full_chunks_is_cached_whole(tmp_path: Path) -> None:
    with ad.Emulator(seed=5, containers=1200) as emu, ad.IndexClient(emu.url, cache=tmp_path) as node:
        first, sent = walk(node, emu, 0, 1100)
        assert sent == 3, "one identity probe (not one per chunk in flight) and two range calls"
        assert cache_info(tmp_path)["entries"] == 1100, "the last of the full chunk too, proven by the next"
        again, sent = walk(node, emu, 0, 1100)
        assert (again, sent) == (first, 0)
        assert [c["index"] for c in again] == list(range(1100))


def test_cache_info_and_cache_clear_default_to_the_clients_cache(emu: ad.Emulator, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # A user's first call is `ad.cache_info()`: the cache the clients use when not told.
    monkeypatch.setenv("AVAX_DATA_CACHE", str(tmp_path))
    with ad.IndexClient(emu.url) as node:
        walk(node, emu, 0, 7)
    assert ad.cache_info()["dir"] == str(tmp_path) and ad.cache_info(None)["entries"] == 7
    assert ad.cache_clear()["entries"] == 7 and ad.cache_info(tmp_path)["entries"] == 0
    monkeypatch.delenv("AVAX_DATA_CACHE")
    for call in (ad.cache_info, ad.cache_clear):
        with pytest.raises(ad.InvalidParameterError) as unset:
            call()
        assert unset.value.param == "dir"
        assert str(unset.value) == ("invalid dir=None: a directory path (str or os.PathLike); None means "
                                    "$AVAX_DATA_CACHE, which is not set")
        with pytest.raises(ad.InvalidParameterError) as wrong:
            call(5)
        assert wrong.value.param == "dir" and "invalid dir=5: a directory path" in str(wrong.value)
