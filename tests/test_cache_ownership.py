"""The cache owns only what it wrote (issue 33, section 3): a directory holding the user's files
is refused and left as it was, counts and deletions see only the cache's entries, a new cache is
private (0700) and another user's is refused, no secret of a URL reaches the disk, an error, a
repr or a log record, ``getTransaction`` (which carries prices) is not cached, and an emulator
restarted on the same port with another seed sees none of the former world's entries."""

from __future__ import annotations

import datetime as dt
import logging
import os
import stat
import urllib.request
from pathlib import Path

import pytest

import avax_data as ad
from avax_data._native import cache_clear, cache_info

from _cli import cli

MARKER = ".avax-data-cache"
C_CHAIN = "43114"
UTC = dt.timezone.utc


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    """A read-only emulator."""
    with ad.Emulator(seed=7, containers=300, data_blocks_per_chain=500) as emulator:
        yield emulator


def project(tmp_path: Path) -> Path:
    """A user's project directory: ``data/raw/survey.csv``."""
    survey = tmp_path / "proj" / "data" / "raw" / "survey.csv"
    survey.parent.mkdir(parents=True)
    survey.write_text("a,b\n1,2\n")
    return tmp_path / "proj"


def test_cache_clear_of_a_project_directory_deletes_nothing(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    proj = project(tmp_path)
    done = cli(capsys, "cache", "clear", str(proj))
    assert done.code == 2, done.out
    assert str(proj) in done.err and "not a cache entry" in done.err and MARKER in done.err
    assert "deleted" not in done.out
    assert (proj / "data" / "raw" / "survey.csv").read_text() == "a,b\n1,2\n"
    info = cli(capsys, "cache", "info", str(proj))
    assert info.code == 2 and "not a cache entry" in info.err
    assert sorted(p.name for p in proj.iterdir()) == ["data"], "nothing written there either"


def test_a_client_refuses_a_directory_that_is_not_a_cache(emu: ad.Emulator, tmp_path: Path) -> None:
    proj = project(tmp_path)
    for make in (lambda: ad.DataClient(base_url=emu.url, cache=proj),
                 lambda: ad.IndexClient(emu.url, cache=proj),
                 lambda: ad.MetricsClient(base_url=emu.url, cache=proj)):
        with pytest.raises(ad.InvalidParameterError) as err:
            make()
        assert err.value.param == "cache" and isinstance(err.value, ValueError)
        assert repr(str(proj)).strip("'") in str(err.value) and str(proj / "data") in str(err.value)
    assert (proj / "data" / "raw" / "survey.csv").read_text() == "a,b\n1,2\n"


def test_counts_eviction_and_clear_see_only_the_caches_entries(emu: ad.Emulator, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with ad.IndexClient(emu.url, cache=cache) as node:
        node.chain("X/tx").range(0, 40).to_polars()
    held = cache_info(cache)
    assert held["entries"] == 40
    shard = next(p for p in (cache / "index").iterdir() if p.is_dir())
    mine = {cache / "notes.md": b"my notes", shard / "survey.csv": b"a,b\n", cache / "index" / "README": b"x",
            shard / (shard.name + "0" * 62): b"\x00" * 4096}
    for path, data in mine.items():
        path.write_bytes(data)
    assert cache_info(cache) == held, "other files are not counted"
    # A bound far below what is held: eviction deletes entries, never the user's files.
    with ad.IndexClient(emu.url, cache=cache, cache_max_bytes=1) as node:
        node.chain("X/tx").range(0, 3).to_polars()
    assert cache_info(cache)["entries"] <= 1
    assert cache_clear(cache)["entries"] <= 1
    assert cache_info(cache)["entries"] == 0
    for path, data in mine.items():
        assert path.read_bytes() == data, path


def test_a_new_cache_is_private_and_marked(emu: ad.Emulator, tmp_path: Path) -> None:
    cache = tmp_path / "new" / "cache"
    data = ad.DataClient(base_url=emu.url, cache=cache)
    data.block(C_CHAIN, 5)
    assert (cache / MARKER).read_text() == "avax-data cache layout 2\n"
    for d in [cache, *[p for p in cache.rglob("*") if p.is_dir()]]:
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d
    assert cache_info(cache)["kinds"]["data"]["entries"] == 1


def test_a_cache_of_the_previous_layout_is_adopted(emu: ad.Emulator, tmp_path: Path) -> None:
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        node.chain("X/tx").range(0, 20).to_polars()
    (tmp_path / MARKER).unlink()  # what an earlier version left: the kind directories, no marker
    before = emu.request_count()
    with ad.IndexClient(emu.url, cache=tmp_path) as node:
        assert node.chain("X/tx").range(0, 20).to_polars().height == 20
    assert emu.request_count() - before == 1, "only the chain's identity is read: the entries serve"
    assert (tmp_path / MARKER).is_file()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can chown to another user")
def test_a_cache_directory_of_another_user_is_refused(emu: ad.Emulator, tmp_path: Path) -> None:
    cache = tmp_path / "theirs"
    ad.DataClient(base_url=emu.url, cache=cache)
    os.chown(cache, 54321, 54321)
    with pytest.raises(ad.InvalidParameterError) as err:
        ad.DataClient(base_url=emu.url, cache=cache)
    assert "owned by uid 54321" in str(err.value) and err.value.param == "cache"
    with pytest.raises(ad.InvalidParameterError, match="owned by uid 54321"):
        cache_clear(cache)


def test_get_transaction_is_not_cached(emu: ad.Emulator, tmp_path: Path) -> None:
    data = ad.DataClient(base_url=emu.url, cache=tmp_path)
    tx_hash = next(iter(data.block_transactions(C_CHAIN, "5", limit=1)))["txHash"]
    for _ in range(2):
        before = emu.request_count()
        answer = data.transaction(C_CHAIN, tx_hash)
        assert emu.request_count() - before == 1, "asked for every time: its answer carries prices"
        assert answer["nativeTransaction"]["txHash"] == tx_hash
    assert cache_info(tmp_path)["kinds"]["data"]["entries"] == 0


SECRET_USER = "alice-the-user"
SECRET_PASSWORD = "hunter2-password"
PATH_TOKEN = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"


def test_no_secret_of_a_url_reaches_the_disk(emu: ad.Emulator, tmp_path: Path) -> None:
    host = emu.url.split("://", 1)[1]
    url = f"http://{SECRET_USER}:{SECRET_PASSWORD}@{host}"
    data = ad.DataClient(base_url=url, cache=tmp_path)
    assert data.block(C_CHAIN, 5)["blockNumber"] == 5
    with ad.IndexClient(url, cache=tmp_path) as node:
        node.chain("X/tx").range(0, 5).to_polars()  # and the plan hint, keyed by the node's URL
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert cache_info(tmp_path)["entries"] == 6 and len(files) > 6
    for path in files:
        raw = path.read_bytes()
        for secret in (SECRET_USER, SECRET_PASSWORD):
            assert secret.encode() not in raw, f"{secret} in {path}"


def test_no_secret_of_a_url_reaches_an_error_a_repr_or_a_log(emu: ad.Emulator,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    host = emu.url.split("://", 1)[1]
    caplog.set_level(logging.DEBUG, logger="avax_data")
    shown: list[str] = []
    for url in (f"http://{host}/ext/bc/C/rpc/{PATH_TOKEN}", f"http://{host}/{PATH_TOKEN}/ext/bc/C/rpc",
                f"http://{SECRET_USER}:{SECRET_PASSWORD}@{host}/ext/bc/C/rpc/{PATH_TOKEN}"):
        with ad.IndexClient(url, max_retries=0) as node:
            with pytest.raises(ad.AvaxDataError) as err:
                node.chain("X/tx").last_accepted()
            shown += [str(err.value), repr(err.value), repr(node), repr(node.chain("X/tx")),
                      str(getattr(err.value, "url", ""))]
        with pytest.raises(ad.AvaxDataError) as err:
            ad.DataClient(base_url=url, max_retries=0).block(C_CHAIN, 5)
        shown += [str(err.value), repr(err.value), str(getattr(err.value, "url", ""))]
    shown += [r.getMessage() for r in caplog.records]
    assert any("***" in text for text in shown), "the URLs are shown, redacted"
    for text in shown:
        for secret in (PATH_TOKEN, SECRET_USER, SECRET_PASSWORD):
            assert secret not in text, text


def world_of(url: str) -> str:
    """The emulator's world as it names it in its answers."""
    with urllib.request.urlopen(f"{url}/v1/health-check") as answer:
        return answer.headers["x-avax-emulator-world-id"]


def test_an_emulator_restarted_with_another_seed_sees_none_of_the_former_worlds_entries(tmp_path: Path) -> None:
    port = 0  # the first emulator takes a free port; the second is started on the same one
    window = dict(interval="hour", start=dt.datetime(2025, 12, 31, 12, tzinfo=UTC),
                  end=dt.datetime(2026, 1, 1, tzinfo=UTC))
    answers = {}
    for seed in (1, 2):
        with ad.Emulator(seed=seed, port=port, containers=10, data_blocks_per_chain=500) as emu:
            port = emu.port
            assert world_of(emu.url) == f"seed{seed}-blocks500"
            plain_data = ad.DataClient(base_url=emu.url, cache=False)
            plain_metrics = ad.MetricsClient(base_url=emu.url, cache=False)
            expected = (plain_data.block(C_CHAIN, 7), list(plain_metrics.metric(C_CHAIN, "txCount", **window)))
            data = ad.DataClient(base_url=emu.url, cache=tmp_path)
            metrics = ad.MetricsClient(base_url=emu.url, cache=tmp_path)
            got = (data.block(C_CHAIN, 7), list(metrics.metric(C_CHAIN, "txCount", **window)))
            assert got == expected, f"seed {seed}: the answers of this world"
            # Within one world the entries serve: no request.
            before = emu.request_count()
            assert (data.block(C_CHAIN, 7), list(metrics.metric(C_CHAIN, "txCount", **window))) == expected
            assert emu.request_count() == before
            answers[seed] = expected
    assert answers[1][0]["blockHash"] != answers[2][0]["blockHash"], "two worlds, two answers"
    assert cache_info(tmp_path)["kinds"]["data"]["entries"] == 2


CACHED_LOOKUPS = ("getBlock", "getTxByHash", "getBlockById", "getVertexByHash")  # docs/guides/cache.md


def test_the_cached_lookups_answer_nothing_that_changes() -> None:
    """The OpenAPI document (spec/openapi): the answers of the cached lookups hold no price and no
    NFT index status, and getTransaction's do (which is why it is not cached)."""
    import json

    doc = json.loads((Path(__file__).resolve().parent.parent / "spec" / "openapi" / "data-api.openapi.json").read_text())
    schemas = doc["components"]["schemas"]

    def fields(node: object, seen: set[str]) -> set[str]:
        out: set[str] = set()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.split("/")[-1] not in seen:
                name = ref.split("/")[-1]
                seen.add(name)
                out |= {f"{name}.{p}" for p in schemas[name].get("properties", {})}
                out |= fields(schemas[name], seen)
            for value in node.values():
                out |= fields(value, seen)
        elif isinstance(node, list):
            for value in node:
                out |= fields(value, seen)
        return out

    def changing(operation_id: str) -> set[str]:
        ops = [op for path in doc["paths"].values() for op in path.values()
               if isinstance(op, dict) and op.get("operationId") == operation_id]
        assert len(ops) == 1, operation_id
        found = fields(ops[0]["responses"]["200"], set())
        return {f for f in found
                if ("price" in f.lower() and not f.endswith(".gasPrice")) or f.endswith(".indexStatus")}

    for operation_id in CACHED_LOOKUPS:
        assert changing(operation_id) == set(), operation_id
    assert {"NetworkTokenDetails.currentPrice", "Erc20Token.price"} <= changing("getTransaction")
