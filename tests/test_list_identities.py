"""Every generated list operation with an identity (the core's one table of them, exposed as
``identity`` in ``_native.openapi_operations()``) drops the leading repeats of a list that grows
on its head while walked with offset page tokens: operation by operation, the emulator's own items
of that list served by a hostile server whose tokens are offsets in the list as it stands. The
walk hands out each item once, in order: the list as it stood when the walk began."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import avax_data as ad
from _helpers import GetServer
from _hostile import GrowingList
from test_emulator_openapi import BY_ID, _page_bounds, _params, emu, get, request_for, world_ids  # noqa: F401
from test_endpoint_frames import arguments, page_for

OPS = [op for op in ad._native.openapi_operations() if op["identity"]]


def test_the_table_covers_the_lists_the_issue_names() -> None:
    identities = {op["operation_id"]: tuple(op["identity"]) for op in OPS}
    assert len(identities) >= 35
    assert identities["listLatestBlocksAllChains"] == ("blockHash", "blockNumber")
    assert identities["listNativeTransactions"] == ("txHash", None)
    assert identities["listIcmMessages"] == ("messageId", None)
    assert identities["getUtxosByAddresses"] == ("utxoId", None)
    assert identities["listValidators"] == ("txHash", "nodeId")
    assert identities["listErc20Transactions"] == ("txHash", "logIndex")
    assert all(op["is_list"] and op["token_paged"] for op in OPS)


def emulator_items(url: str, op_id: str, ids: dict[str, str], key: str) -> list[dict[str, Any]]:
    """The first items (up to 60) of the list ``op_id`` of the emulator at ``url``, newest first."""
    path, query = request_for(op_id, ids)
    sized = any(p["name"] == "pageSize" for p in _params(BY_ID[op_id][2]))
    if sized:
        query["pageSize"] = min(_page_bounds(BY_ID[op_id][2], BY_ID[op_id][0])[1], 60)
    items: list[dict[str, Any]] = []
    token = None
    while len(items) < 60:
        status, body = get(url, path, {**query, **({"pageToken": token} if token else {})})
        assert status == 200, (op_id, body)
        items.extend(body[key])
        token = body.get("nextPageToken")
        if not token:
            break
    return items[:60]


def padded(items: list[dict[str, Any]], op: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """At least ``n`` items: the emulator's, then copies of them (or, for a list the emulator's
    world leaves empty, of the document's schema-valid item) each with an id of its own."""
    base = items or page_for(op, arguments(op)[1])[1][:1]
    out = list(items)
    field = op["identity"][0]
    for k in range(len(out), n):
        item = copy.deepcopy(base[k % len(base)])
        value = item[field]
        item[field] = (value + 1000 + k if isinstance(value, int)
                       else str(int(value) + 1000 + k) if value.isdigit() else f"{value}-{k}")
        out.append(item)
    return out


def walk(op: dict[str, Any], listed: GrowingList, size: int) -> list[dict[str, Any]]:
    """Every item a walk of the list operation ``op`` hands out, from a server of ``listed``."""
    args, _ = arguments(op)
    if any(p["py_name"] == "page_size" for p in op["params"]):
        args["page_size"] = size
    with GetServer(lambda request: (200, listed.page(request.query))) as server:
        client = (ad.DataClient(server.url, api_key="k", max_retries=0) if op["service"] == "data"
                  else ad.MetricsClient(server.url, max_retries=0))
        with client:
            # This server serves its list whatever window a request asks and in no time order, so
            # a list cut in time shards (each keeping only its own seconds) is walked in sequence
            # here: what this test holds is the offset tokens of one walk.
            concurrency = 1 if op.get("time_windowed") else None
            return list(client._call_list(op["operation_id"], args, None, None, concurrency))


@pytest.mark.parametrize("op", OPS, ids=[op["operation_id"] for op in OPS])
def test_a_growing_list_of_each_operation_hands_out_each_item_once(emu: ad.Emulator, world_ids: dict[str, str],
                                                                  op: dict[str, Any]) -> None:
    op_id, (field, key) = op["operation_id"], op["identity"]
    served = emulator_items(emu.url, op_id, world_ids, op["list_key"])
    names = [(i[field], i.get(key) if key else None) for i in served]
    assert len(set(map(json.dumps, names))) == len(names), f"{op_id}: the emulator serves one {field} twice"
    items = padded(served, op, 24)
    # half the items out at first; each page brings half a page more onto the head
    shown, size = len(items) // 2, 6
    minimum = _page_bounds(BY_ID[op_id][2], BY_ID[op_id][0])[0] if op["service"] == "data" else 1
    assert minimum <= size
    sized = any(p["py_name"] == "page_size" for p in op["params"])
    grows = GrowingList("/", op["list_key"], items, shown=shown, grow=size // 2 if sized else 5, tokens="offset")
    got = walk(op, grows, size)
    assert grows.shown > shown, f"{op_id}: the head grew while the list was walked"
    still = walk(op, GrowingList("/", op["list_key"], items, shown=shown, grow=0, tokens="offset"), size)
    assert len(still) == shown
    assert got == still, f"{op_id}: each item once, in order (the list as it stood)"
