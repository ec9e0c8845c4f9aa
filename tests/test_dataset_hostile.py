"""Datasets, plans and the cache against hostile servers (tests/_hostile.py): a Data API list
whose head grows while it is written (page tokens by key, and by offset, which repeats items),
and an Index node behind a load balancer whose second node lags (a tip below what the dataset
or the cache holds). Nothing is dropped, duplicated, cut shorter or rewritten."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _hostile import GrowingList, LaggingBalancer, fetch_list, serve
from avax_data._native import cache_info

BLOCKS = "/v1/chains/43114/blocks"
MANIFEST = "_avax_dataset.json"


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=10, data_blocks_per_chain=600) as emulator:
        yield emulator


def numbers(ds: Path, column: str = "blockNumber") -> list[object]:
    return pl.scan_parquet(f"{ds}/**/*.parquet", hive_partitioning=True).collect()[column].sort().to_list()


def partitions(ds: Path) -> list[tuple[int, int, bool]]:
    return [(p["value"], p["rows"], p["complete"]) for p in json.loads((ds / MANIFEST).read_text())["partitions"]]


def test_a_head_growing_during_and_after_the_write_is_neither_dropped_nor_repeated(emu: ad.Emulator,
                                                                                     tmp_path: Path) -> None:
    items = fetch_list(emu.url, BLOCKS, "blocks")
    assert [int(b["blockNumber"]) for b in items] == list(range(599, -1, -1))
    grows = GrowingList(BLOCKS, "blocks", items, shown=350, grow=20, tokens="key")
    ds = tmp_path / "blocks"
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        first = data.blocks("43114", page_size=50).write_dataset(ds, chunk=100)
        # the walk went down from the head it found (349); what came on top meanwhile is the rerun's
        assert first == {"partitions_written": 4, "partitions_skipped": 0, "rows_written": 350, "rows_skipped": 0}
        assert numbers(ds) == list(range(350))
        assert partitions(ds) == [(0, 100, True), (100, 100, True), (200, 100, True), (300, 50, False)]
        head = grows.shown
        assert head > 350, "the head grew while the dataset was written"

        # between the plan and the write the head grows again: the plan says "at least"
        pager = data.blocks("43114", page_size=50)
        plan = pager.plan(dataset=ds, chunk=100)
        assert plan.requests_kind == "at least" and plan.held == 300
        grows.shown = head + 60
        pages = grows.pages
        again = pager.write_dataset(ds, chunk=100)
        sent = grows.pages - pages
        assert plan.requests <= sent
        # from the head it found (head + 59) down to 300; 200.. and below are whole and kept
        new = head + 60 - 300
        assert again == {"partitions_written": (new + 99) // 100, "partitions_skipped": 3, "rows_written": new,
                         "rows_skipped": 300}
    assert numbers(ds) == list(range(head + 60))
    frame = pl.scan_parquet(f"{ds}/**/*.parquet", hive_partitioning=True).collect()
    by_number = {int(b["blockNumber"]): b["blockHash"] for b in items}
    assert all(by_number[n] == h for n, h in zip(frame["blockNumber"], frame["blockHash"]))
    assert ad.verify_dataset(ds)["ok"]


def test_offset_tokens_repeat_items_when_the_head_grows_and_the_repeats_are_not_written_twice(
        emu: ad.Emulator, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    items = fetch_list(emu.url, BLOCKS, "blocks")
    grows = GrowingList(BLOCKS, "blocks", items, shown=350, grow=20, tokens="offset")
    ds = tmp_path / "blocks"
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        with caplog.at_level(logging.WARNING, logger="avax_data"):
            ad.reset_logging()
            done = data.blocks("43114", page_size=50).write_dataset(ds, chunk=100)
        ad.reset_logging()
    # every page after the first began with the 20 items that came on top of it
    assert "a page began with 20 item(s) the walk already had" in caplog.text
    assert done == {"partitions_written": 4, "partitions_skipped": 0, "rows_written": 350, "rows_skipped": 0}
    assert numbers(ds) == list(range(350))
    assert ad.verify_dataset(ds)["ok"]


def test_a_vertex_list_shifted_by_new_vertices_keeps_each_vertex_once(emu: ad.Emulator, tmp_path: Path) -> None:
    route = "/v1/networks/mainnet/blockchains/x-chain/vertices"
    items = fetch_list(emu.url, route, "vertices")[-600:]
    grows = GrowingList(route, "vertices", items, shown=300, grow=20, tokens="offset")
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        done = data.vertices("mainnet", page_size=50).write_dataset(tmp_path)
    hashes = numbers(tmp_path, "vertexHash")
    assert len(hashes) == len(set(hashes)) == 300 == done["rows_written"]
    assert set(hashes) == {v["vertexHash"] for v in items[-300:]}


def test_a_page_serving_an_item_twice_is_an_error_not_a_duplicate_row(emu: ad.Emulator, tmp_path: Path) -> None:
    items = fetch_list(emu.url, BLOCKS, "blocks")[:100]
    hostile = [*items[:30], items[10], *items[30:]]  # block 589 again, after 570
    grows = GrowingList(BLOCKS, "blocks", hostile, shown=len(hostile), grow=0, tokens="key")
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data, \
            pytest.raises(ad.DecodeError, match="blockHash .* twice"):
        data.blocks("43114", page_size=50).write_dataset(tmp_path, chunk=100)


@pytest.fixture(scope="module")
def nodes() -> Iterator[tuple[ad.Emulator, ad.Emulator]]:
    """Two nodes of one network: ``ahead`` has accepted 3,500 X/tx containers, ``behind`` 2,500."""
    with ad.Emulator(containers=3_500) as ahead, ad.Emulator(containers=2_500) as behind:
        assert ahead.expected_container("X/tx", 2_000) == behind.expected_container("X/tx", 2_000)
        yield ahead, behind


def test_a_tip_below_the_datasets_top_partition_keeps_every_partition(nodes: tuple[ad.Emulator, ad.Emulator],
                                                                       tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    ahead, behind = nodes
    ds = tmp_path / "xtx"
    ad.IndexClient(ahead.url).chain("X/tx").range(0).write_dataset(ds, chunk=1_000)
    manifest = (ds / MANIFEST).read_text()
    stats = {p: p.stat().st_mtime_ns for p in ds.glob("*/part.parquet")}
    with serve(ahead.url, balancer=LaggingBalancer(ahead.url, behind.url, alternate=False)) as url:
        node = ad.IndexClient(url)
        plan = node.chain("X/tx").range(0, 2_500).plan(dataset=ds, chunk=1_000)
        # nothing to fetch: only the read of container 0 that checks the dataset's network
        assert (plan.requests, plan.held) == (1, 2_500)
        assert any("holds positions up to 3500, past this walk's end 2500" in u for u in plan.unknown)
        before = ahead.request_count()
        with caplog.at_level(logging.WARNING, logger="avax_data"):
            ad.reset_logging()
            done = node.chain("X/tx").range(0).write_dataset(ds, chunk=1_000)
        ad.reset_logging()
        assert ahead.request_count() - before <= 1, "nothing fetched again (container 0 at most)"
    assert done == {"partitions_written": 0, "partitions_skipped": 3, "rows_written": 0, "rows_skipped": 2_500}
    assert "past this walk's end 2500" in caplog.text and "never shorter" in caplog.text
    assert (ds / MANIFEST).read_text() == manifest
    assert {p: p.stat().st_mtime_ns for p in ds.glob("*/part.parquet")} == stats
    report = ad.verify_dataset(ds)
    assert report["ok"] and report["rows"] == 3_500
    # the node caught up: the rerun finds everything whole
    done = ad.IndexClient(ahead.url).chain("X/tx").range(0).write_dataset(ds, chunk=1_000)
    assert done == {"partitions_written": 0, "partitions_skipped": 4, "rows_written": 0, "rows_skipped": 3_500}


def test_a_tip_below_what_the_cache_holds_drops_no_entry(nodes: tuple[ad.Emulator, ad.Emulator],
                                                          tmp_path: Path) -> None:
    ahead, behind = nodes
    truth = ad.IndexClient(ahead.url).chain("X/tx").range(0, 3_000).to_polars()
    with ad.IndexClient(ahead.url, cache=tmp_path) as node:
        assert node.chain("X/tx").range(0, 3_000).to_polars().equals(truth)
    held = cache_info(tmp_path)["kinds"]["index"]["entries"]
    assert held >= 2_999
    with serve(ahead.url, balancer=LaggingBalancer(ahead.url, behind.url, alternate=False)) as url, \
            ad.IndexClient(url, cache=tmp_path) as lagging:
        before = (ahead.request_count(), behind.request_count())
        to_tip = lagging.chain("X/tx").range(0).to_polars()
        assert to_tip.equals(truth.head(2_500)), "the walk ends at the lagging tip, nothing lost below it"
        # cached containers past the lagging tip are accepted ones: served, not refetched
        past = lagging.chain("X/tx").range(2_400, 2900).to_polars()
        assert past.equals(truth.slice(2_400, 500))
        sent = (ahead.request_count() - before[0], behind.request_count() - before[1])
        assert sent[1] == 1, "one tip read, from the lagging node"
        assert sent[0] <= 1, "at most the chain's identity: no container asked again"
    assert cache_info(tmp_path)["kinds"]["index"]["entries"] == held, "no entry dropped as beyond the tip"


def test_follow_behind_a_balancer_with_a_lagging_node_never_goes_back_or_repeats() -> None:
    with ad.Emulator(containers=300) as ahead, ad.Emulator(containers=200) as behind, \
            serve(ahead.url, balancer=LaggingBalancer(ahead.url, behind.url, alternate=True)) as url, \
            ad.IndexClient(url) as node:
        follow = node.chain("X/tx").follow(start=150, poll_interval=0.02, max_poll_interval=0.05)
        got = [next(follow)["index"] for _ in range(150)]
        ahead.advance("X/tx", 20)
        got += [next(follow)["index"] for _ in range(20)]
        follow.close()
        assert got == list(range(150, 320))
        assert follow.next_index == 320


def test_a_manifest_edited_to_claim_more_rows_than_a_list_file_holds_fails_verify(emu: ad.Emulator,
                                                                                  tmp_path: Path) -> None:
    ad.DataClient(base_url=emu.url).blocks("43114", page_size=100).write_dataset(tmp_path, chunk=200)
    assert ad.verify_dataset(tmp_path)["ok"]
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["partitions"][1]["rows"] += 50  # sha256 and size still those of the file
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    report = ad.verify_dataset(tmp_path)
    assert report["altered"] == ["block=200/part.parquet"] and not report["ok"]
    assert report["rows"] == 650, "the report says what the manifest claims"
