"""A lagging replica behind a load balancer answering the pages of time shards (issue 37,
section 1): the P-Chain's transactions served by two replicas in turn, one lacking the newest
items (not indexed yet), whose page tokens name the next item so either replica can continue
the other's page. A sharded walk hands out each item once, in the list's order, none lost: all
of the window when the fresh replica answered its first page, all but the items the lagging one
had not indexed yet when that one did (the walk ends at the head its first read saw), and the
pages of every lower shard come whole from either replica."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from _hostile import fetch_list, serve

import avax_data as ad

NET, P = "mainnet", "p-chain"
ROUTE, FIELD = f"/v1/networks/{NET}/blockchains/{P}/transactions", "transactions"
PAGE = 25
LAG = 10  # the lagging replica lacks the 10 newest items: fewer than the walk's first page


class TimeReplicas:
    """``ROUTE`` as the list ``items`` (newest first) filtered by ``startTimestamp`` and
    ``endTimestamp`` (both counted in, as the emulator does), served by the replica whose turn it
    is (``order``: ``"f"`` fresh, ``"s"`` stale, cycled); the stale one lacks the newest ``lag``
    items. A page token is the place of the next item in the whole list."""

    def __init__(self, items: list[dict[str, Any]], lag: int, order: str):
        self.route, self.items, self.lag, self.order = ROUTE, items, lag, order
        self.requests = 0
        self.stale_rows = 0
        self.lock = threading.Lock()

    def page(self, query: dict[str, str]) -> dict[str, Any]:
        size = int(query.get("pageSize", "10"))
        start = int(query.get("startTimestamp", "0"))
        end = int(query["endTimestamp"]) if "endTimestamp" in query else None
        with self.lock:
            replica = self.order[self.requests % len(self.order)]
            self.requests += 1
        first = self.lag if replica == "s" else 0
        at = max(first, int(query.get("pageToken", "0")))
        rows: list[dict[str, Any]] = []
        places: list[int] = []
        for place in range(at, len(self.items)):
            second = self.items[place]["blockTimestamp"]
            if second < start:
                break  # newest first: nothing older is in the window
            if end is not None and second > end:
                continue
            if len(rows) == size:
                places.append(place)
                break
            rows.append(self.items[place])
        if replica == "s":
            with self.lock:
                self.stale_rows += len(rows)
        return {FIELD: rows, **({"nextPageToken": str(places[0])} if places else {})}


@pytest.fixture(scope="module")
def world() -> Any:
    with ad.Emulator(seed=5) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def items(world: ad.Emulator) -> list[dict[str, Any]]:
    listed = fetch_list(world.url, ROUTE, FIELD)
    seconds = [-i["blockTimestamp"] for i in listed]
    assert seconds == sorted(seconds), "newest first"
    return listed


@pytest.mark.parametrize("order", ["fs", "ffs", "sf", "sff"])
@pytest.mark.parametrize("concurrency", [4, 1])
def test_time_shards_answered_by_a_lagging_replica_hand_out_each_item_once_in_order_none_lost(
        world: ad.Emulator, items: list[dict[str, Any]], order: str, concurrency: int) -> None:
    replicas = TimeReplicas(items, LAG, order)
    with serve(world.url, [replicas]) as url, ad.DataClient(url, max_retries=0) as data:
        pager = data.primary_network_transactions(NET, P, page_size=PAGE, concurrency=concurrency)
        got = [item["txHash"] for item in pager]
    hashes = [i["txHash"] for i in items]
    # The walk ends at the head its first read saw: the lagging replica's, when it answered first.
    expected = hashes if order[0] == "f" else hashes[LAG:]
    assert len(set(got)) == len(got), "each item once"
    assert got == expected, "in the list's order, none lost"
    assert replicas.stale_rows > 10 * PAGE, "the lagging replica answered many shards' pages"
    if concurrency > 1:
        assert replicas.requests > -(-len(expected) // PAGE), "the walk was cut into shards"


def test_a_window_cut_by_shards_behind_a_lagging_replica_is_the_sequential_walks(
        world: ad.Emulator, items: list[dict[str, Any]]) -> None:
    start, end = items[-1]["blockTimestamp"] + 86_400 * 200, items[0]["blockTimestamp"] - 86_400 * 30
    inside = [i["txHash"] for i in items if start <= i["blockTimestamp"] <= end]
    replicas = TimeReplicas(items, LAG, "sf")
    with serve(world.url, [replicas]) as url, ad.DataClient(url, max_retries=0) as data:
        got = data.primary_network_transactions(NET, P, start=start, end=end, page_size=PAGE,
                                                concurrency=6).to_polars()["txHash"].to_list()
    assert len(inside) > 200
    # The window ends a month before the newest items: the lag does not reach it.
    assert got == inside
