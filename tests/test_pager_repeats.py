"""A Data API list whose head grows while it is walked, with page tokens that are offsets in the
list as it stands (tests/_hostile.py): each page after the first begins with the last items of the
page before. Every way of walking a pager (a frame, dicts, async, Parquet, a consumer resumed after
another) hands out each item exactly once, in order: the same rows as a walk of a list that did
not grow. An item served again after new ones is a typed error naming it, never a row twice."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _cli import cli
from _hostile import GrowingList, fetch_list, serve

BLOCKS = "/v1/chains/43114/blocks"
VERTICES = "/v1/networks/mainnet/blockchains/x-chain/vertices"
SHOWN = 230


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=10, data_blocks_per_chain=400) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def items(emu: ad.Emulator) -> list[dict[str, Any]]:
    return fetch_list(emu.url, BLOCKS, "blocks")


@pytest.fixture(scope="module")
def still(emu: ad.Emulator, items: list[dict[str, Any]]) -> pl.DataFrame:
    """The walk of the list as it stood, served by a list that does not grow."""
    fixed = GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=0, tokens="offset")
    with serve(emu.url, [fixed]) as url, ad.DataClient(base_url=url) as data:
        frame = data.blocks("43114", page_size=40).to_polars()
    assert frame["blockNumber"].to_list() == list(range(SHOWN - 1, -1, -1))
    return frame


def growing(items: list[dict[str, Any]]) -> GrowingList:
    """The list with ``SHOWN`` items out, 15 more on its head after each page served."""
    return GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=15, tokens="offset")


def test_a_frame_of_a_growing_list_holds_each_item_once_and_says_it_dropped_repeats(
        emu: ad.Emulator, items: list[dict[str, Any]], still: pl.DataFrame,
        caplog: pytest.LogCaptureFixture) -> None:
    grows = growing(items)
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        pager = data.blocks("43114", page_size=40)
        with caplog.at_level(logging.WARNING, logger="avax_data"):
            ad.reset_logging()
            frame = pager.to_polars()
        ad.reset_logging()
        assert pager.items_read == SHOWN and pager.exhausted
    assert grows.shown > SHOWN, "the head grew while the list was walked"
    assert frame.equals(still)
    said = [r.getMessage() for r in caplog.records if "already had" in r.getMessage()]
    assert said and "a page began with 15 item(s) the walk already had" in said[0]
    assert all(BLOCKS in m for m in said)


def test_dicts_sync_and_async_of_a_growing_list_are_each_item_once_in_order(
        emu: ad.Emulator, items: list[dict[str, Any]], still: pl.DataFrame) -> None:
    want = still["blockHash"].to_list()
    with serve(emu.url, [growing(items)]) as url, ad.DataClient(base_url=url) as data:
        dicts = list(data.blocks("43114", page_size=40))
    assert [d["blockHash"] for d in dicts] == want
    assert [d["blockNumber"] for d in dicts] == list(range(SHOWN - 1, -1, -1))

    async def walk(url: str) -> list[str]:
        async with ad.AsyncDataClient(base_url=url) as data:
            return [d["blockHash"] async for d in data.blocks("43114", page_size=40)]

    with serve(emu.url, [growing(items)]) as url:
        assert asyncio.run(walk(url)) == want


def test_parquet_and_pages_of_a_growing_list_hold_each_item_once(emu: ad.Emulator, items: list[dict[str, Any]],
                                                                  still: pl.DataFrame, tmp_path: Path) -> None:
    with serve(emu.url, [growing(items)]) as url, ad.DataClient(base_url=url) as data:
        assert data.blocks("43114", page_size=40).write_parquet(tmp_path / "b.parquet") == SHOWN
    assert pl.read_parquet(tmp_path / "b.parquet").equals(still)
    with serve(emu.url, [growing(items)]) as url, ad.DataClient(base_url=url) as data:
        pages = list(data.blocks("43114", page_size=40).pages())
    assert [len(p) for p in pages][:3] == [40, 25, 25], "15 repeats left out of each page after the first"
    assert [b["blockHash"] for p in pages for b in p] == still["blockHash"].to_list()


def test_a_consumer_resumed_after_another_hands_out_nothing_again(emu: ad.Emulator, items: list[dict[str, Any]],
                                                                  still: pl.DataFrame) -> None:
    # 6 new items per page served: the iterator's read-ahead (2 pages, and one in flight) may have
    # served 4 pages past the one the next consumer fetches again, and 4 x 6 stays under a page of
    # 40 however far ahead a loaded machine lets it get (4 x 15 did not: a head growing by more
    # than a page is an error, by design)
    grows = GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=6, tokens="offset")
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        pager = data.blocks("43114", page_size=40)
        walk = iter(pager)
        head = [next(walk)["blockHash"] for _ in range(53)]
        walk.close()
        frames = [pager.to_polars(limit=30), pager.to_polars()]
    assert head + [h for f in frames for h in f["blockHash"].to_list()] == still["blockHash"].to_list()


def test_a_limit_on_a_growing_list_hands_out_that_many_items(emu: ad.Emulator, items: list[dict[str, Any]],
                                                             still: pl.DataFrame) -> None:
    with serve(emu.url, [growing(items)]) as url, ad.DataClient(base_url=url) as data:
        frame = data.blocks("43114", page_size=40, limit=100).to_polars()
    assert frame.equals(still.head(100))


def test_a_vertex_list_shifted_by_new_vertices_hands_out_each_vertex_once(emu: ad.Emulator) -> None:
    vertices = fetch_list(emu.url, VERTICES, "vertices")[-300:]
    grows = GrowingList(VERTICES, "vertices", vertices, shown=200, grow=20, tokens="offset")
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        hashes = data.vertices("mainnet", page_size=50).to_polars()["vertexHash"].to_list()
    assert hashes == [v["vertexHash"] for v in vertices[-200:]]


def test_an_item_served_again_after_new_ones_is_an_error_naming_it_on_every_path(
        emu: ad.Emulator, items: list[dict[str, Any]], tmp_path: Path) -> None:
    head = items[:100]
    hostile = [*head[:50], *head[50:60], head[45], *head[60:]]  # a block of page one again in page two
    again = head[45]["blockHash"]
    fixed = GrowingList(BLOCKS, "blocks", hostile, shown=len(hostile), grow=0, tokens="key")
    message = f'serves blockHash "{again}" twice'
    with serve(emu.url, [fixed]) as url, ad.DataClient(base_url=url) as data:
        with pytest.raises(ad.DecodeError, match=message):
            data.blocks("43114", page_size=50).to_polars()
        pager = data.blocks("43114", page_size=50)
        got = []
        with pytest.raises(ad.DecodeError, match=message):
            for block in pager:
                got.append(block["blockHash"])
        assert got == [b["blockHash"] for b in head[:50]], "the page before is handed out, none of the bad one"
        with pytest.raises(ad.DecodeError, match=message):
            data.blocks("43114", page_size=50).write_parquet(tmp_path / "x.parquet")
    written = pl.read_parquet(tmp_path / "x.parquet")["blockHash"].to_list()
    assert written == [b["blockHash"] for b in head[:50]], "the file holds the items before the position, once"


def test_a_pager_resumed_from_its_saved_state_after_the_list_grew_hands_out_nothing_again(
        emu: ad.Emulator, items: list[dict[str, Any]], still: pl.DataFrame) -> None:
    want = still["blockHash"].to_list()
    for stop in (53, 80, 119):
        # the list grows while the walk is stopped (within a walk: the tests above)
        grows = GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=0, tokens="offset")
        with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
            first = data.blocks("43114", page_size=40)
            head = first.to_polars(limit=stop)["blockHash"].to_list()
            state = json.loads(json.dumps(first.resume_state))  # as a file keeps it
            assert (state["items_read"], len(state["handed_out"])) == (stop, stop)
            assert state["handed_out"][-1] == [json.dumps(head[-1]), json.dumps(str(SHOWN - stop))]
            grows.shown += 25  # the list grew while the walk was stopped
            later = data.blocks("43114", page_size=40)
            later.resume(state)
            rest = later.to_polars()["blockHash"].to_list()
            assert later.items_read == SHOWN and later.exhausted
        assert head + rest == want, f"stopped after {stop}"
    # a state without the identities (as older checkpoints hold) resumes from its position alone:
    # the items the list pushed down come again
    grows = GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=0, tokens="offset")
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        first = data.blocks("43114", page_size=40)
        head = first.to_polars(limit=53)["blockHash"].to_list()
        state = {k: v for k, v in first.resume_state.items() if k != "handed_out"}
        grows.shown += 25
        later = data.blocks("43114", page_size=40)
        later.resume(state)
        rest = later.to_polars()["blockHash"].to_list()
    assert len(head + rest) > SHOWN and set(head + rest) == set(want)


def test_a_resume_state_of_another_shape_is_refused_naming_it(emu: ad.Emulator) -> None:
    with ad.DataClient(base_url=emu.url) as data:
        pager = data.blocks("43114", page_size=10)
        bad = [({"next_page_token": "x", "page_offset": 2}, "missing field `items_read`"),
               ({"next_page_token": "x", "page_offset": 3, "items_read": 2}, "page_offset 3 is more than items_read 2"),
               ({"next_page_token": 5, "page_offset": 0, "items_read": 0}, "invalid type"),
               ({"next_page_token": None, "page_offset": 0, "items_read": 0, "extra": 1}, "unknown field `extra`"),
               ({"next_page_token": None, "page_offset": 0, "items_read": 0, "handed_out": [["a"]]}, "invalid length"),
               (object(), "a dict of JSON values")]
        for state, why in bad:
            with pytest.raises(ad.InvalidParameterError, match="state") as caught:
                pager.resume(state)
            assert why in str(caught.value)
            assert isinstance(caught.value, ValueError)
        assert pager.items_read == 0 and pager.next_page_token is None, "nothing moved"


def test_an_export_resumed_after_the_list_grew_writes_each_item_once(
        capsys: pytest.CaptureFixture[str], emu: ad.Emulator, items: list[dict[str, Any]], still: pl.DataFrame,
        tmp_path: Path) -> None:
    for fmt in ("csv", "parquet"):
        out = tmp_path / f"b.{fmt}"
        # pages of 40, chunks of 50 (a chunk's last page asks for what is left); the fifth request fails
        grows = GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=0, tokens="offset", fail_at=4)
        args = ["data", "blocks", "43114", "--page-size", "40", "--chunk-rows", "50", "--max-retries", "0", "-q",
                "-o", str(out)]
        with serve(emu.url, [grows]) as url:
            failed = cli(capsys, *args, "--url", url)
            assert failed.code == 3, failed.err
            state = json.loads(Path(f"{out}.avax-state.json").read_text())
            position = state["position"]
            rows = state["rows_written"]
            assert 0 < rows < SHOWN and position["items_read"] == rows
            assert [h for h, _ in position["handed_out"][-2:]] == [json.dumps(h) for h in still["blockHash"][rows - 2:rows]]
            grows.shown += 25  # new blocks on the head before the resume: the pages shift down
            resumed = cli(capsys, *args, "--url", url, "--resume")
            assert resumed.code == 0, resumed.err
        frame = pl.read_csv(out, infer_schema=False) if fmt == "csv" else pl.read_parquet(out)
        assert frame["blockHash"].to_list() == still["blockHash"].to_list(), fmt


def test_an_async_pager_resumes_from_a_saved_state_without_repeats(emu: ad.Emulator, items: list[dict[str, Any]],
                                                                   still: pl.DataFrame) -> None:
    grows = GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=0, tokens="offset")

    async def walk(url: str) -> list[str]:
        async with ad.AsyncDataClient(base_url=url) as data:
            first = data.blocks("43114", page_size=40)
            head = (await first.to_polars(limit=70))["blockHash"].to_list()
            state = first.resume_state
            grows.shown += 25
            later = data.blocks("43114", page_size=40)
            assert later.resume(state) is None  # at once: nothing to await
            return head + [b["blockHash"] async for b in later]

    with serve(emu.url, [grows]) as url:
        assert asyncio.run(walk(url)) == still["blockHash"].to_list()
