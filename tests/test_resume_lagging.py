"""A Data API walk resumed from its saved state however much its list grew meanwhile (5,000 items,
five times the identities the state keeps), and a list behind a load balancer whose second
replica lags: each row once, none lost, or a typed error naming what is inconsistent, with the
walk's position where a later resume continues exactly (tests/_hostile.py serves both)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import avax_data as ad
from _hostile import GrowingList, LaggingReplicas, fetch_list, serve

BLOCKS = "/v1/chains/43114/blocks"
SHOWN = 2_500


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=10, data_blocks_per_chain=8_000) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def items(emu: ad.Emulator) -> list[dict[str, Any]]:
    blocks = fetch_list(emu.url, BLOCKS, "blocks")
    assert len(blocks) >= SHOWN + 5_000
    return blocks


def hashes(rows: list[dict[str, Any]]) -> list[str]:
    return [r["blockHash"] for r in rows]


@pytest.mark.parametrize("stop", [1_234, 1_300, 40])
def test_a_resume_after_the_list_grew_by_5000_items_hands_out_each_item_once(
        emu: ad.Emulator, items: list[dict[str, Any]], stop: int) -> None:
    want = hashes(items[len(items) - SHOWN:])
    grows = GrowingList(BLOCKS, "blocks", items, shown=SHOWN, grow=0, tokens="offset")
    with serve(emu.url, [grows]) as url, ad.DataClient(base_url=url) as data:
        first = data.blocks("43114", page_size=100)
        head = first.to_polars(limit=stop)["blockHash"].to_list()
        state = json.loads(json.dumps(first.resume_state))  # as a file keeps it
        assert state["boundary"]["page_offset"] == (stop - 1) % 100, state["boundary"]
        assert len(state["handed_out"]) == min(stop, 1_000)
        grows.shown += 5_000  # five times the identities the state keeps
        later = data.blocks("43114", page_size=100)
        later.resume(state)
        rest = later.to_polars()["blockHash"].to_list()
        assert (later.items_read, later.exhausted) == (SHOWN, True)
    assert head + rest == want, f"stopped after {stop}"


def test_a_page_token_a_lagging_replica_never_issued_is_a_page_token_error_and_the_walk_resumes_exactly(
        emu: ad.Emulator, items: list[dict[str, Any]]) -> None:
    # The balancer sends the second page's request to the stale replica, which does not know the
    # token the fresh one issued: a 400, raised as PageTokenError after the first page's items.
    want = hashes(items[len(items) - SHOWN:])
    replicas = LaggingReplicas(BLOCKS, "blocks", items, shown=SHOWN, lag=700, tokens="issued", order="fs")
    with serve(emu.url, [replicas]) as url, ad.DataClient(base_url=url, max_retries=0) as data:
        pager = data.blocks("43114", page_size=100)
        got: list[str] = []
        with pytest.raises(ad.PageTokenError, match="unknown") as caught:
            for block in pager:
                got.append(block["blockHash"])
        assert got == want[:100] and caught.value.items_read == 100 == pager.items_read
        state = pager.resume_state
        replicas.catch_up()
        later = data.blocks("43114", page_size=100)
        later.resume(state)
        got += later.to_polars()["blockHash"].to_list()
    assert got == want


def test_a_resume_answered_by_a_lagging_replica_is_a_decode_error_naming_the_item_and_then_exact(
        emu: ad.Emulator, items: list[dict[str, Any]]) -> None:
    # Offset tokens: the stale replica's list lacks the 700 newest items, so the item the saved
    # walk stopped after stands 700 places higher there, before where the resume reads from.
    want = hashes(items[len(items) - SHOWN:])
    fresh = LaggingReplicas(BLOCKS, "blocks", items, shown=SHOWN, lag=700, tokens="offset", order="f")
    with serve(emu.url, [fresh]) as url, ad.DataClient(base_url=url) as data:
        first = data.blocks("43114", page_size=100)
        head = first.to_polars(limit=1_234)["blockHash"].to_list()
        state = first.resume_state
    stale = LaggingReplicas(BLOCKS, "blocks", items, shown=SHOWN, lag=700, tokens="offset", order="s")
    with serve(emu.url, [stale]) as url, ad.DataClient(base_url=url) as data:
        later = data.blocks("43114", page_size=100)
        later.resume(state)
        with pytest.raises(ad.DecodeError) as caught:
            later.to_polars()
        message = str(caught.value)
        assert f'stopped after (blockHash "{head[-1]}")' in message, message
        assert "a replica behind the one that served the earlier walk" in message, message
        assert later.items_read == 1_234, "nothing handed out"
        got = []
        with pytest.raises(ad.DecodeError):
            got = [b["blockHash"] for b in later]
        assert got == [] and later.items_read == 1_234
        stale.catch_up()
        rest = later.to_polars()["blockHash"].to_list()
    assert head + rest == want
