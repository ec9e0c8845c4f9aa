"""``ad.reconcile`` and ``avax-data reconcile``: a node's block index against the Data API.

The emulator's ``C/block`` index and its Data API serve one C-Chain, so a clean range has no
difference. A proxy in front of the Data API alters its answers (a block hash, a transaction
dropped from a page or added to it, a fee, a block gone) and each change must be found exactly
once, with its kind, field and both values.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _cli import cli
from _hostile import serving

SCHEMA = {
    "kind": pl.String, "chain": pl.String, "height": pl.UInt64, "id": pl.String, "field": pl.String,
    "index_value": pl.String, "data_value": pl.String,
}

#: (path, status, answer) -> (status, answer): how the proxy alters one Data API answer.
Rewrite = Callable[[str, int, Any], "tuple[int, Any]"]


@contextmanager
def data_proxy(upstream: str, rewrite: Rewrite) -> Iterator[str]:
    """A Data API in front of ``upstream`` whose JSON answers pass through ``rewrite``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            try:
                with urllib.request.urlopen(upstream + self.path) as answer:
                    status, body = answer.status, json.load(answer)
            except urllib.error.HTTPError as error:
                status, body = error.code, json.load(error)
            status, body = rewrite(self.path.split("?")[0], status, body)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_args: object) -> None:
            pass

    with serving(Handler) as url:
        yield url


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=400, data_blocks_per_chain=400) as emulator:
        yield emulator


def block(emu: ad.Emulator, height: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{emu.url}/v1/chains/43114/blocks/{height}") as answer:
        return json.load(answer)


def block_txs(emu: ad.Emulator, height: int) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{emu.url}/v1/chains/43114/blocks/{height}/transactions?pageSize=100") as answer:
        return json.load(answer)["transactions"]


def busy_height(emu: ad.Emulator, start: int) -> int:
    """The first height from ``start`` whose block holds at least two transactions."""
    return next(h for h in range(start, start + 100) if block(emu, h)["txCount"] >= 2)


def run(emu: ad.Emulator, rewrite: Rewrite | None = None, chain: str = "C", start: int = 90,
        stop: int = 160) -> ad.Reconciliation:
    if rewrite is None:
        with ad.IndexClient(emu.url) as node, ad.DataClient(base_url=emu.url) as data:
            return ad.reconcile(node, data, chain=chain, start=start, stop=stop)
    with data_proxy(emu.url, rewrite) as url, ad.IndexClient(emu.url) as node, \
            ad.DataClient(base_url=url, max_retries=0) as data:
        return ad.reconcile(node, data, chain=chain, start=start, stop=stop)


def rows(result: ad.Reconciliation) -> list[dict[str, Any]]:
    return result.differences.to_dicts()


def test_a_clean_c_chain_range_has_no_difference_and_keeps_its_schema(emu: ad.Emulator) -> None:
    # Crosses ApricotPhase3 (16), the proposervm fork (48) and a chunk boundary (256).
    result = run(emu, start=0, stop=300)
    assert result.differences.is_empty()
    assert dict(result.differences.schema) == SCHEMA
    summary = result.summary
    assert (summary["heights"], summary["index_blocks"], summary["data_blocks"], summary["blocks_compared"]) == (
        300, 300, 300, 300)
    assert summary["index_transactions"] == summary["data_transactions"] > 300
    assert (summary["missing"], summary["extra"], summary["different"]) == (0, 0, 0)
    assert summary["index_requests"] == 4  # the tip, container 0, two chunks
    assert summary["data_requests"] >= 600  # each block and each page of its transactions


def test_a_changed_block_hash_is_one_different_row(emu: ad.Emulator) -> None:
    real = block(emu, 100)["blockHash"]

    def rewrite(path: str, status: int, body: Any) -> tuple[int, Any]:
        if path == "/v1/chains/43114/blocks/100":
            body["blockHash"] = "0x" + "ab" * 32
        return status, body

    assert rows(run(emu, rewrite)) == [{
        "kind": "different", "chain": "C", "height": 100, "id": real, "field": "blockHash",
        "index_value": real, "data_value": "0x" + "ab" * 32,
    }]


def test_a_transaction_dropped_from_a_data_api_page_is_one_missing_row(emu: ad.Emulator) -> None:
    height = busy_height(emu, 110)
    dropped = block_txs(emu, height)[1]["txHash"]

    def rewrite(path: str, status: int, body: Any) -> tuple[int, Any]:
        if path == f"/v1/chains/43114/blocks/{height}/transactions":
            body["transactions"] = [t for t in body["transactions"] if t["txHash"] != dropped]
        return status, body

    result = run(emu, rewrite)
    assert rows(result) == [{
        "kind": "missing", "chain": "C", "height": height, "id": dropped, "field": "transaction",
        "index_value": dropped, "data_value": None,
    }]
    assert result.summary["index_transactions"] == result.summary["data_transactions"] + 1


def test_a_changed_fee_is_one_different_row_per_field(emu: ad.Emulator) -> None:
    height = busy_height(emu, 120)
    real_fee = block(emu, height)["baseFee"]
    tx = block_txs(emu, height)[0]

    def rewrite(path: str, status: int, body: Any) -> tuple[int, Any]:
        if path == f"/v1/chains/43114/blocks/{height}":
            body["baseFee"] = str(int(body["baseFee"]) + 1)
        if path == f"/v1/chains/43114/blocks/{height}/transactions":
            body["transactions"][0]["gasPrice"] = "7"
        return status, body

    assert rows(run(emu, rewrite)) == [
        {"kind": "different", "chain": "C", "height": height, "id": block(emu, height)["blockHash"],
         "field": "baseFee", "index_value": real_fee, "data_value": str(int(real_fee) + 1)},
        {"kind": "different", "chain": "C", "height": height, "id": tx["txHash"], "field": "gasPrice",
         "index_value": tx["gasPrice"], "data_value": "7"},
    ]


def test_a_block_the_data_api_lacks_is_one_missing_row(emu: ad.Emulator) -> None:
    real = block(emu, 140)["blockHash"]

    def rewrite(path: str, status: int, body: Any) -> tuple[int, Any]:
        if path.startswith("/v1/chains/43114/blocks/140"):
            return 404, {"message": "Block 140 not found", "statusCode": 404}
        return status, body

    result = run(emu, rewrite)
    assert rows(result) == [{
        "kind": "missing", "chain": "C", "height": 140, "id": real, "field": "block",
        "index_value": real, "data_value": None,
    }]
    assert (result.summary["index_blocks"], result.summary["data_blocks"]) == (70, 69)


def test_a_transaction_only_the_data_api_lists_is_one_extra_row(emu: ad.Emulator) -> None:
    fake = "0x" + "cd" * 32

    def rewrite(path: str, status: int, body: Any) -> tuple[int, Any]:
        if path == "/v1/chains/43114/blocks/150/transactions":
            body["transactions"].append({**(body["transactions"] or [{}])[-1], "txHash": fake, "gasPrice": "1"})
        return status, body

    assert rows(run(emu, rewrite)) == [{
        "kind": "extra", "chain": "C", "height": 150, "id": fake, "field": "transaction",
        "index_value": None, "data_value": fake,
    }]


def test_blocks_of_a_node_behind_the_data_api_are_extra_rows() -> None:
    with ad.Emulator(containers=300, data_blocks_per_chain=310) as lagging:
        tip = lagging.container_count("C/block")
        result = run(lagging, start=tip - 5, stop=tip + 5)
        assert result.differences.select("kind", "height", "field", "index_value").rows() == [
            ("extra", h, "block", None) for h in range(tip, tip + 5)]
        assert result.differences["data_value"].to_list() == [block(lagging, h)["blockHash"] for h in range(tip, tip + 5)]
        assert (result.summary["index_blocks"], result.summary["data_blocks"], result.summary["extra"]) == (5, 10, 5)


def test_an_unexpected_value_is_a_difference_not_a_crash(emu: ad.Emulator) -> None:
    def rewrite(path: str, status: int, body: Any) -> tuple[int, Any]:
        if path == "/v1/chains/43114/blocks/95":
            body["txCount"] = "many"
            del body["gasUsed"]
        return status, body

    found = run(emu, rewrite).differences.select("height", "field", "data_value").rows()
    assert found == [(95, "txCount", '"many"'), (95, "gasUsed", None)]


def test_a_broken_data_api_raises_instead_of_reporting_blocks_missing(emu: ad.Emulator) -> None:
    def rewrite(path: str, status: int, body: Any) -> tuple[int, Any]:
        return (502, {"message": "bad gateway"}) if path.endswith("/blocks/97") else (status, body)

    with pytest.raises(ad.AvaxDataError, match="502"):
        run(emu, rewrite)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"chain": "Y"}, "invalid chain=\"Y\": one of 'C', 'P', 'X'"),
    ({"start": -1}, "invalid start=-1"),
    ({"start": "5"}, "invalid start='5'"),
    ({"start": 7, "stop": 7}, "invalid stop=7: an int > start (7)"),
    ({"network": "devnet"}, 'invalid network="devnet": one of mainnet, fuji, testnet'),
])
def test_bad_arguments_are_refused_before_any_request(kwargs: dict[str, Any], message: str) -> None:
    # Nothing listens on port 1: a request would be a connection error, not this.
    node, data = ad.IndexClient("http://127.0.0.1:1"), ad.DataClient(base_url="http://127.0.0.1:1")
    with pytest.raises(ad.InvalidParameterError) as raised:
        ad.reconcile(node, data, **{"chain": "C", "start": 0, "stop": 5, **kwargs})
    assert isinstance(raised.value, ValueError)
    assert str(raised.value).startswith(message)


def test_clients_of_the_wrong_service_are_refused() -> None:
    node, data = ad.IndexClient("http://127.0.0.1:1"), ad.DataClient(base_url="http://127.0.0.1:1")
    with pytest.raises(ad.InvalidParameterError, match="invalid node=.*an IndexClient or AsyncIndexClient"):
        ad.reconcile(data, data, start=0, stop=5)
    with pytest.raises(ad.InvalidParameterError, match="invalid data=.*a DataClient or AsyncDataClient"):
        ad.reconcile(node, node, start=0, stop=5)


def test_the_async_form_finds_what_the_sync_form_finds(emu: ad.Emulator) -> None:
    async def main() -> ad.Reconciliation:
        async with ad.AsyncIndexClient(emu.url) as node, ad.AsyncDataClient(base_url=emu.url) as data:
            return await ad.reconcile_async(node, data, chain="C", start=30, stop=60)

    result = asyncio.run(main())
    assert result.differences.is_empty() and dict(result.differences.schema) == SCHEMA
    assert result.summary == run(emu, start=30, stop=60).summary


def test_progress_counts_every_height(emu: ad.Emulator) -> None:
    class Bar:
        def __init__(self) -> None:
            self.done = 0

        def update(self, n: int) -> None:
            self.done += n

    bar = Bar()
    with ad.IndexClient(emu.url) as node, ad.DataClient(base_url=emu.url) as data:
        ad.reconcile(node, data, start=0, stop=300, progress=bar)
    assert bar.done == 300


# The Data API's P- and X-Chain blocks are the index containers (issue 36, section 3).
@pytest.mark.parametrize("chain", ["P", "X"])
def test_primary_network_chains_agree_with_their_index(chain: str) -> None:
    with ad.Emulator(containers=200) as emulator:
        result = run(emulator, chain=chain, start=0, stop=100)
        assert result.differences.is_empty(), result.differences.head(5)
        assert result.summary["blocks_compared"] == 100


def test_a_p_chain_block_altered_by_the_data_api_is_found_field_by_field() -> None:
    path = "/v1/networks/mainnet/blockchains/p-chain/blocks/40"
    dropped: list[str] = []

    def rewrite(at: str, status: int, body: Any) -> tuple[int, Any]:
        if at == path:
            body["blockHash"] = "2" * 49
            dropped.append(body["transactions"][0])
            body["transactions"] = body["transactions"][1:]
        return status, body

    with ad.Emulator(containers=200) as emulator:
        with urllib.request.urlopen(emulator.url + path) as answer:
            real = json.load(answer)["blockHash"]
        result = run(emulator, rewrite, chain="P", start=30, stop=50)
    assert rows(result) == [
        {"kind": "different", "chain": "P", "height": 40, "id": real, "field": "blockHash",
         "index_value": real, "data_value": "2" * 49},
        {"kind": "missing", "chain": "P", "height": 40, "id": dropped[0], "field": "transaction",
         "index_value": dropped[0], "data_value": None},
    ]
    assert (result.summary["blocks_compared"], result.summary["missing"], result.summary["different"]) == (20, 1, 1)
    assert result.summary["index_transactions"] == result.summary["data_transactions"] + 1


def test_the_command_exits_0_when_the_services_agree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "diff.parquet"
    result = cli(capsys, "reconcile", "--emulator", "--emulator-containers", "300", "--emulator-data-blocks", "300",
                 "--chain", "C", "--start", "0", "--stop", "60", "-o", str(out))
    assert result.code == 0, result.err
    frame = pl.read_parquet(out)
    assert frame.is_empty() and dict(frame.schema) == SCHEMA
    assert "reconcile C [0, 60): 60 blocks compared" in result.err and "no difference" in result.err


def test_the_command_exits_1_with_the_differences(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "diff.csv"
    result = cli(capsys, "reconcile", "--emulator", "--emulator-containers", "300", "--emulator-data-blocks", "310",
                 "--start", "298", "--stop", "302", "-o", str(out))
    assert result.code == 1, result.err
    frame = pl.read_csv(out)
    assert frame["kind"].to_list() == ["extra", "extra"] and frame["height"].to_list() == [300, 301]
    assert "2 difference(s): 0 missing, 2 extra, 0 different" in result.err
    ndjson = cli(capsys, "reconcile", "--emulator", "--emulator-containers", "300", "--emulator-data-blocks", "310",
                 "--start", "298", "--stop", "302", "-q")
    assert ndjson.code == 1 and ndjson.err == ""
    assert [json.loads(line)["height"] for line in ndjson.out.splitlines()] == [300, 301]


def test_the_command_refuses_bad_usage(capsys: pytest.CaptureFixture[str]) -> None:
    both = cli(capsys, "reconcile", "--emulator", "--node-url", "http://127.0.0.1:1", "--start", "0", "--stop", "5")
    assert both.code == 2 and "--node-url does not go with --emulator" in both.err
    empty = cli(capsys, "reconcile", "--emulator", "--start", "5", "--stop", "5")
    assert empty.code == 2 and "invalid stop=5: an int > start (5)" in empty.err
