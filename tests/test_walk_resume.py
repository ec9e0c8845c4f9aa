"""The walk contract against a scripted node that misbehaves once in the middle of a walk: the
position is exactly what was handed over, every error carries ``next_index``, ``to_polars`` is
all or nothing, ``write_parquet`` leaves a valid file of the rows before the position, short and
lagging answers are re-requested, and two consumers of one range never get the same rows."""

from __future__ import annotations

import datetime
import hashlib
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from avax_data import Emulator
from _helpers import StubNode, container_id, superseded, to_wire_hex

N = 3000


def synthetic(i: int) -> dict[str, Any]:
    data = b"\x00\x00" + i.to_bytes(8, "big") + hashlib.sha256(str(i).encode()).digest()
    ts = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=i)
    return {"id": container_id(data), "bytes": to_wire_hex(data), "timestamp": ts.isoformat().replace("+00:00", "Z"),
            "encoding": "hex", "index": str(i)}


@pytest.fixture
def node() -> StubNode:
    with StubNode() as stub:
        stub.containers = [synthetic(i) for i in range(N)]
        yield stub


def client(node: StubNode) -> ad.IndexClient:
    return ad.IndexClient(node.url, max_retries=0, backoff=0.01, max_backoff=0.02, concurrency=1)


def fail_once(node: StubNode, start_index: int, status: int = 502) -> None:
    """The first range call from ``start_index`` answers ``status``; later ones are served."""
    state = {"failed": False}

    def handler(_: int, env: Any) -> Any:
        params = (env or {}).get("params") or {}
        if (env or {}).get("method") == "index.getContainerRange" and int(params.get("startIndex", -1)) == start_index \
                and not state["failed"]:
            state["failed"] = True
            return status, {"Content-Type": "text/plain"}, b"bad gateway"
        return None

    node.handler = handler


def test_to_polars_is_all_or_nothing_and_a_second_call_returns_everything(node: StubNode) -> None:
    fail_once(node, 1024)
    with client(node) as c:
        rng = c.chain("X/tx").range(0, N)
        with pytest.raises(ad.ServerError) as info:
            rng.to_polars()
        assert info.value.next_index == 0 and rng.next_index == 0
        df = rng.to_polars()
    assert df["index"].to_list() == list(range(N))
    assert rng.next_index == N


def test_write_parquet_keeps_a_valid_file_of_the_rows_before_the_position(node: StubNode, tmp_path: Path) -> None:
    fail_once(node, 2048)
    with client(node) as c:
        rng = c.chain("X/tx").range(0, N)
        with pytest.raises(ad.ServerError) as info:
            rng.write_parquet(tmp_path / "part1.parquet")
        assert info.value.next_index == 2048 == rng.next_index
        first = pl.read_parquet(tmp_path / "part1.parquet")
        assert first["index"].to_list() == list(range(2048))
        assert rng.write_parquet(tmp_path / "part2.parquet") == N - 2048
    both = pl.concat([first, pl.read_parquet(tmp_path / "part2.parquet")])
    assert both["index"].to_list() == list(range(N))
    assert both["id"].n_unique() == N


def test_iteration_error_carries_the_position_and_resumes_exactly(node: StubNode) -> None:
    fail_once(node, 1024)
    got: list[int] = []
    with client(node) as c:
        rng = c.chain("X/tx").range(0, N)
        with pytest.raises(ad.ServerError) as info:
            for row in rng:
                got.append(row["index"])
        assert info.value.next_index == 1024 == len(got) == rng.next_index
        got.extend(row["index"] for row in rng)
    assert got == list(range(N))


def test_batches_error_carries_the_position_and_resumes_exactly(node: StubNode) -> None:
    fail_once(node, 2048)
    frames: list[pl.DataFrame] = []
    with client(node) as c:
        rng = c.chain("X/tx").range(0, N)
        with pytest.raises(ad.ServerError) as info:
            for frame in rng.batches():
                frames.append(frame)
        assert info.value.next_index == 2048 == rng.next_index
        frames.extend(rng.batches())
    assert pl.concat(frames)["index"].to_list() == list(range(N))


def test_short_answers_are_re_requested_not_taken_for_the_end(node: StubNode) -> None:
    def capped(_: int, env: Any) -> Any:
        if (env or {}).get("method") != "index.getContainerRange":
            return None
        start, count = int(env["params"]["startIndex"]), int(env["params"]["numToFetch"])
        items = [node.wire(i) for i in range(start, min(N, start + min(count, 100)))]
        return node.reply({"containers": items}, env.get("id"))

    node.handler = capped
    with client(node) as c:
        assert c.chain("X/tx").range(0, N).to_polars()["index"].to_list() == list(range(N))
        assert c.chain("X/tx").range(0).to_polars().height == N


def test_a_lagging_node_behind_a_balancer_is_waited_for(node: StubNode) -> None:
    calls = {"n": 0}

    def lagging(_: int, env: Any) -> Any:
        if (env or {}).get("method") == "index.getContainerRange" and int(env["params"]["startIndex"]) >= 2048:
            calls["n"] += 1
            if calls["n"] <= 2:
                return node.error("start index (2048) > last accepted index (2047)", rid=env.get("id"))
        return None

    node.handler = lagging
    with client(node) as c:
        df = c.chain("X/tx").range(0).to_polars()
    assert df.height == N and calls["n"] == 3


def test_two_iterators_of_one_range_never_hand_out_the_same_rows(node: StubNode) -> None:
    with client(node) as c:
        a, b, refusal = superseded(c.chain("X/tx").range(0, N), "index", 10)
        assert refusal.next_index == 10
    assert a == list(range(10)) and b == list(range(10, N))


def test_async_for_hands_out_buffered_items_in_order_and_resumes_exactly(node: StubNode) -> None:
    import asyncio

    # The resumed walk starts at 100 and asks 100, 1124, 2148, ...: the call from 1124 fails once.
    fail_once(node, 1124)

    async def main() -> tuple[list[int], int, int]:
        async with ad.AsyncIndexClient(node.url, max_retries=0, concurrency=1) as c:
            rng = c.chain("X/tx").range(0, N)
            got: list[int] = []
            try:
                async for row in rng:
                    got.append(row["index"])
                    if len(got) == 100:
                        break
                async for row in rng:  # resumes at 100
                    got.append(row["index"])
            except ad.ServerError as exc:
                failed_at = exc.next_index
            async for row in rng:
                got.append(row["index"])
            return got, failed_at, rng.next_index

    got, failed_at, end = asyncio.run(main())
    assert failed_at == 1124
    assert got == list(range(N)) and end == N


@pytest.mark.parametrize(("limit", "page_size", "requests"), [(5, None, 1), (25, 10, 3), (100, None, 1), (101, None, 2)])
def test_a_pager_limit_costs_no_request_it_does_not_need(limit: int, page_size: int | None, requests: int) -> None:
    """No page is fetched past `limit=`, and the default page size is the service's largest (100)."""
    with Emulator(data_blocks_per_chain=1_000, containers=10) as emu, ad.DataClient(base_url=emu.url) as data:
        before = len(emu.request_log())
        pager = data.blocks("43114", page_size=page_size, limit=limit)
        rows = list(pager)
        assert len(rows) == limit
        # The pager fetches in the background, a page ahead of the consumer: a walk that did not
        # stop at the limit would have asked for the next page as soon as the last one it needed
        # came back, before that page's rows reached the consumer. The emulator's log shows each
        # request it received with the status it answered (None while serving): every request
        # is answered, and there is exactly one per page the limit needed.
        log = emu.request_log(with_status=True)[before:]
        assert [(path, status) for _, path, status in log] == [("/v1/chains/43114/blocks", 200)] * requests
        # The spent pager asks for nothing more.
        assert list(pager) == []
        assert emu.request_count() == before + requests


def test_a_resumed_walk_to_the_tip_keeps_the_end_its_first_walk_read(node: StubNode) -> None:
    """A range without a count walks to the tip read when it starts; a consumer resuming it
    after a break must not take a later, older tip (a lagging node behind a balancer) for its
    end, which would end the walk early without a word."""
    with client(node) as c:
        rng = c.chain("X/tx").range(0)
        got = []
        for row in rng:
            got.append(row["index"])
            if len(got) == 1500:
                break

        def lagging(_: int, env: Any) -> Any:
            if (env or {}).get("method") == "index.getLastAccepted":
                return node.reply(node.wire(999), env.get("id"))
            return None

        node.handler = lagging
        got.extend(row["index"] for row in rng)
    assert got == list(range(N)), (len(got), got[-1])


def test_a_pager_to_polars_that_fails_hands_out_nothing_so_the_next_one_gets_everything() -> None:
    """A pager's ``to_polars()`` is all or nothing: when a page fails mid-walk, the position
    stays where the call started, so the pages before it are not lost with the failed call."""
    with Emulator(data_blocks_per_chain=600, containers=10) as emu, \
            ad.DataClient(base_url=emu.url, max_retries=0) as data:
        truth = data.blocks("43114", page_size=50).to_polars()
        emu.set_faults({"malformed_json": 0.2}, fault_seed=2)  # the 4th page is malformed
        pager = data.blocks("43114", page_size=50)
        with pytest.raises(ad.DecodeError) as failed:
            pager.to_polars()
        assert (pager.items_read, pager.next_page_token) == (0, None)
        assert (failed.value.items_read, failed.value.next_page_token) == (0, None)
        emu.set_faults(None)
        rest = pager.to_polars()
    assert rest["blockNumber"].to_list() == truth["blockNumber"].to_list()


def test_a_pager_write_parquet_that_fails_keeps_a_valid_file_of_the_rows_before_the_position(tmp_path: Path) -> None:
    """A pager's ``write_parquet()`` that fails leaves a finalised file holding exactly the rows
    before the position it reports; the rest, written to a second file, completes the walk."""
    with Emulator(data_blocks_per_chain=600, containers=10) as emu, \
            ad.DataClient(base_url=emu.url, max_retries=0) as data:
        truth = data.blocks("43114", page_size=50).to_polars()
        emu.set_faults({"malformed_json": 0.2}, fault_seed=2)  # the 4th page is malformed
        pager = data.blocks("43114", page_size=50)
        first, second = tmp_path / "part1.parquet", tmp_path / "part2.parquet"
        with pytest.raises(ad.DecodeError) as failed:
            pager.write_parquet(first)
        written = pl.read_parquet(first)
        assert 0 < written.height == pager.items_read == failed.value.items_read < 600
        assert failed.value.next_page_token == pager.next_page_token is not None
        emu.set_faults(None)
        assert pager.write_parquet(second) == 600 - written.height
        rest = pl.concat([written, pl.read_parquet(second)])
    assert rest["blockNumber"].to_list() == truth["blockNumber"].to_list()
