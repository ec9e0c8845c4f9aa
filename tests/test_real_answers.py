"""Answers the live services sent, recorded in public sources (``tests/fixtures/real/``, each with
its provenance; the index is that folder's README), replayed through the public methods.

A loopback server sends each body as it was recorded; the test calls the method a user would
(``DataClient(base_url=...).network_details("mainnet")``, ``IndexClient(url).chain("X/tx")...``)
and holds the dicts, and the frames of the lists, to the recorded values exactly: every field
there, none added, none dropped, numbers and amounts to the last digit. How a wire value may be
typed (an amount's decimal text as an ``int``, Unix seconds as a UTC ``datetime``) is one rule,
:func:`same`; the frame column types of today are the one table :data:`FRAME_TYPES` (issue 34,
section 3 changes some of them: update them there).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _helpers import GetRequest, GetServer, StubNode

REAL = Path(__file__).parent / "fixtures" / "real"
UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)
P_CHAIN_ID = "11111111111111111111111111111111LpoYY"

#: The frame column types of the replayed lists, in one place.
FRAME_TYPES: dict[str, dict[str, pl.DataType]] = {
    "listBlockchains": {
        "createBlockTimestamp": pl.Datetime("ns", "UTC"),
        "createBlockNumber": pl.Int64(),  # the P-Chain sends "-1"
        "blockchainId": pl.String(),
        "vmId": pl.String(),
        "subnetId": pl.String(),
        "blockchainName": pl.String(),
        "evmChainId": pl.UInt64(),
    },
}


def recorded(name: str) -> tuple[dict[str, Any], Any]:
    """The provenance and the answer body of fixture ``name``."""
    record = json.loads((REAL / name).read_text(encoding="utf-8"))
    return record["provenance"], record["body"]


def same(got: Any, wire: Any, where: str = "$", *, frame: bool = False) -> None:
    """``got`` (what the client gave) holds exactly the recorded ``wire`` value.

    Objects have the same keys (in a frame's struct, keys the answer did not send are null);
    lists the same items in the same order. A wire string is kept as it is, or read as the exact
    ``int``/``Decimal`` it spells; a wire number is equal in value (an integral float only when
    exact) or, under a ``...Timestamp`` or ``timestamp`` name, the UTC ``datetime`` of those Unix
    seconds.
    """
    if isinstance(wire, dict):
        assert isinstance(got, dict), (where, got)
        if frame:
            assert set(wire) <= set(got), (where, sorted(set(wire) - set(got)))
            assert all(got[k] is None for k in set(got) - set(wire)), (where, got)
        else:
            assert list(got) == list(wire), (where, list(got), list(wire))
        for key, value in wire.items():
            same(got[key], value, f"{where}.{key}", frame=frame)
    elif isinstance(wire, list):
        assert isinstance(got, list) and len(got) == len(wire), (where, got)
        for i, (g, w) in enumerate(zip(got, wire, strict=True)):
            same(g, w, f"{where}[{i}]", frame=frame)
    elif isinstance(wire, bool) or wire is None:
        assert got is wire, (where, got, wire)
    elif isinstance(wire, str):
        if isinstance(got, (int, Decimal)) and not isinstance(got, bool):
            assert str(got) == wire, (where, got, wire)
        else:
            assert got == wire, (where, got, wire)
    elif isinstance(got, dt.datetime):
        assert re.sub(r"\[\d+\]$", "", where).lower().endswith("timestamp"), (where, got)
        assert got == EPOCH + dt.timedelta(seconds=wire), (where, got, wire)
    else:
        assert isinstance(got, (int, float)) and not isinstance(got, bool), (where, got)
        assert got == wire and (not isinstance(got, float) or got.is_integer() or isinstance(wire, float)), (where, got)


def serve(routes: dict[str, Any]) -> GetServer:
    """A server answering each path of ``routes`` with its recorded body (status 200), any other
    path with the service's 404."""

    def answer(request: GetRequest) -> tuple[int, Any]:
        if request.path in routes:
            return 200, json.dumps(routes[request.path]).encode()
        return 404, {"message": f"Cannot GET {request.path}", "statusCode": 404, "error": "Not Found"}

    return GetServer(answer)


# --- Data API objects ------------------------------------------------------------------------------


@pytest.mark.parametrize("network", ["mainnet", "fuji"])
def test_network_details_replay_exactly(network: str) -> None:
    provenance, body = recorded(f"data_network_details_{network}.json")
    assert provenance["operation"] == "getNetworkDetails" and provenance["trimmed"] is False
    with serve({f"/v1/networks/{network}": body}) as server, ad.DataClient(base_url=server.url) as data:
        got = data.network_details(network)
    assert server.paths == [f"/v1/networks/{network}"]
    same(got, body)
    validators, delegators = got["validatorDetails"], got["delegatorDetails"]
    # Stakes pass 2^53: an f64 would round them; they arrive as exact ints.
    assert validators["totalAmountStaked"] == int(body["validatorDetails"]["totalAmountStaked"])
    assert type(validators["totalAmountStaked"]) is int
    # The ratio is decimal text with 20 fractional digits; a float keeps 17 at most.
    assert str(validators["stakingRatio"]) == body["validatorDetails"]["stakingRatio"]
    assert not isinstance(validators["stakingRatio"], float)
    # What the answer teaches: the distribution by version counts every validator ("offline"
    # is one of its versions) and the stake of the validators and of their delegators.
    versions = validators["stakingDistributionByVersion"]
    assert "offline" in [v["version"] for v in versions]
    assert sum(v["validatorCount"] for v in versions) == validators["validatorCount"]
    assert sum(int(v["amountStaked"]) for v in versions) == (
        int(validators["totalAmountStaked"]) + int(delegators["totalAmountStaked"]))


def test_the_p_chain_record_replays_exactly() -> None:
    _, body = recorded("data_blockchain_p_chain.json")
    path = f"/v1/networks/mainnet/blockchains/{P_CHAIN_ID}"
    with serve({path: body}) as server, ad.DataClient(base_url=server.url) as data:
        got = data.blockchain("mainnet", P_CHAIN_ID)
    same(got, body)
    assert str(got["createBlockNumber"]) == "-1" and got["vmId"] == "platformvm"


@pytest.mark.parametrize("name", ["data_asset_fuji_smk.json", "data_asset_fuji_avax.json", "data_asset_fuji_jov.json"])
def test_x_chain_assets_replay_exactly(name: str) -> None:
    _, body = recorded(name)
    path = f"/v1/networks/fuji/blockchains/x-chain/assets/{body['assetId']}"
    with serve({path: body}) as server, ad.DataClient(base_url=server.url) as data:
        got = data.asset("fuji", "x-chain", body["assetId"])
    assert server.paths == [path]
    same(got, body)
    assert got["createdAtTimestamp"].tzinfo is not None and got["denomination"] == 9
    if body["symbol"] == "AVAX":  # AVAX was created with the network: Fuji shares Mainnet's genesis time
        assert got["createdAtTimestamp"] == dt.datetime(2020, 9, 10, tzinfo=UTC)


def test_chain_ids_of_addresses_replay_exactly() -> None:
    provenance, body = recorded("data_chain_ids_mainnet.json")
    address = body["addresses"][0]["address"]
    with serve({"/v1/networks/mainnet/addresses:listChainIds": body}) as server, \
            ad.DataClient(base_url=server.url) as data:
        got = data.chain_ids_of_addresses("mainnet", addresses=address)
    assert server.requests[0].query == {"addresses": address}
    assert address in provenance["request"]
    same(got, body)
    # The answer names chains by CB58 id (here the P-Chain's), never by alias.
    assert got["addresses"][0]["blockchainIds"] == [P_CHAIN_ID]


# --- Data API lists: dicts and frames --------------------------------------------------------------


def test_blockchains_page_replays_as_dicts_and_frame() -> None:
    _, body = recorded("data_blockchains_mainnet_page.json")
    items = body["blockchains"]
    with serve({"/v1/networks/mainnet/blockchains": body}) as server, ad.DataClient(base_url=server.url) as data:
        rows = list(data.blockchains("mainnet", limit=len(items)))
        frame = data.blockchains("mainnet", limit=len(items)).to_polars()
    # `limit` is the page: one request each, the page's token left unused.
    assert [r.query.get("pageToken") for r in server.requests] == [None, None]
    same(rows, items)
    # evmChainId is absent (not null) for a chain that is not EVM, and stays absent in the dict.
    assert "evmChainId" in rows[0] and "evmChainId" not in rows[1]
    assert frame.height == len(items)
    for column in frame.columns:
        same(frame[column].to_list(), [item.get(column) for item in items], column, frame=True)
    assert {k for item in items for k in item} <= set(frame.columns), "a recorded field left out of the frame"
    assert {c: frame.schema[c] for c in FRAME_TYPES["listBlockchains"]} == FRAME_TYPES["listBlockchains"]
    # Newest first.
    assert frame["createBlockTimestamp"].is_sorted(descending=True)


# --- Index RPC -------------------------------------------------------------------------------------


def rfc3339_ns(text: str) -> int:
    """Nanoseconds since the epoch of an RFC 3339 time with up to 9 fractional digits."""
    match = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)", text)
    assert match, text
    whole = dt.datetime.fromisoformat(match[1] + match[3].replace("Z", "+00:00"))
    return int(whole.timestamp()) * 10**9 + int((match[2] or "0").ljust(9, "0"))


@pytest.fixture
def node() -> StubNode:
    """A node whose every answer to the recorded methods is the recorded body, verbatim (its
    JSON-RPC ``id`` included)."""
    stub = StubNode()
    files = {"index.getContainerRange": "index_x_tx_container_range_array.json",
             "index.getIndex": "index_x_tx_get_index.json", "index.isAccepted": "index_x_tx_is_accepted.json"}

    def answer(_: int, envelope: Any) -> tuple[int, dict[str, str], bytes] | None:
        method = envelope.get("method") if isinstance(envelope, dict) else None
        name = files.get(method)
        if method == "index.getContainerByIndex":
            name = f"index_x_tx_container_by_index_{envelope['params']['index']}.json"
        if name is None:
            return None
        return 200, {"Content-Type": "application/json"}, json.dumps(recorded(name)[1]).encode()

    stub.handler = answer
    yield stub
    stub.close()


@pytest.mark.parametrize("index", [0, 1])
def test_index_containers_replay_exactly(node: StubNode, index: int) -> None:
    provenance, body = recorded(f"index_x_tx_container_by_index_{index}.json")
    wire = body["result"]
    with ad.IndexClient(node.url) as client:
        got = client.chain("X/tx").container(index)
    assert node.requests[-1][0] == "/ext/index/X/tx"
    assert node.requests[-1][2]["params"] == {"encoding": "hex", "index": index}
    assert set(got) == set(wire)
    assert (got["id"], got["encoding"], got["index"]) == (wire["id"], "hex", int(wire["index"]))
    # The bytes without their 4-byte checksum (the last 8 hex digits).
    assert got["bytes"] == bytes.fromhex(wire["bytes"][2:-8])
    # The dict keeps microseconds, in UTC, whatever offset the node wrote.
    ns = rfc3339_ns(wire["timestamp"])
    assert got["timestamp"] == EPOCH + dt.timedelta(microseconds=ns // 1000)
    assert got["timestamp"].utcoffset() == dt.timedelta(0)
    if index == 1:
        assert "indexer-demo.avax.network" in provenance["request"]


def test_index_range_in_the_bare_array_form_replays_exactly(node: StubNode) -> None:
    _, body = recorded("index_x_tx_container_range_array.json")
    wire = body["result"]
    assert isinstance(wire, list)
    with ad.IndexClient(node.url) as client:
        chain = client.chain("X/tx")
        got = chain.container_range(0, 100)
        frame = chain.range(0, 1).to_polars()
    assert [c["id"] for c in got] == [w["id"] for w in wire]
    assert [c["bytes"] for c in got] == [bytes.fromhex(w["bytes"][2:-8]) for w in wire]
    assert frame["id"].to_list() == [w["id"] for w in wire]
    assert frame["index"].to_list() == [int(w["index"]) for w in wire]
    assert frame["bytes"].to_list() == [bytes.fromhex(w["bytes"][2:-8]) for w in wire]
    # The frame keeps every recorded digit of the time.
    assert frame["timestamp"].cast(pl.Int64).to_list() == [rfc3339_ns(w["timestamp"]) for w in wire]


def test_index_lookups_replay_exactly(node: StubNode) -> None:
    _, index = recorded("index_x_tx_get_index.json")
    _, accepted = recorded("index_x_tx_is_accepted.json")
    container = "6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY"
    with ad.IndexClient(node.url) as client:
        chain = client.chain("X/tx")
        assert chain.index_of(container) == int(index["result"]["index"]) == 0
        assert chain.is_accepted(container) is accepted["result"]["isAccepted"] is True


def test_every_fixture_has_its_provenance_and_an_entry_in_the_index() -> None:
    readme = (REAL / "README.md").read_text(encoding="utf-8")
    names = sorted(p.name for p in REAL.glob("*.json"))
    assert len(names) >= 12
    for name in names:
        provenance, body = recorded(name)
        assert {"repository", "path", "commit", "request", "operation", "method", "kind", "trimmed"} <= set(provenance)
        assert len(provenance["commit"]) == 40 and all(c in "0123456789abcdef" for c in provenance["commit"])
        assert isinstance(provenance["trimmed"], bool) and body
        # A body that is one item of a list says where it sits and why it is judged real.
        assert "part" not in provenance or (provenance["part"].endswith("[]") and provenance["evidence"])
        assert f"`{name}`" in readme, f"{name} is not in the README's index"
