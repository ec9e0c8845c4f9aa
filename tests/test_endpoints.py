"""Every GET operation of the vendored OpenAPI documents is a method (sync and async), its
arguments are checked from the document before any request, the account operations want a key,
and frames of schema-valid answers have the documented columns and types (scripted server)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import polars as pl
import pytest

import avax_data as ad
from _helpers import GetAnswer, GetRequest, GetServer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gen_endpoints  # noqa: E402

sys.path.pop(0)

# Nothing listens here: a check that let a request through would raise ConnectError instead.
NOWHERE = "http://127.0.0.1:9"
OWNER = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F"


def documents() -> dict[str, dict[str, Any]]:
    return {name: json.loads((ROOT / "spec" / "openapi" / f"{name}-api.openapi.json").read_text())
            for name in ("data", "metrics")}


def get_operations() -> list[tuple[str, str, str]]:
    """(service, operationId, path) of every GET operation, read from the documents themselves."""
    return [(service, item["get"]["operationId"], path)
            for service, doc in documents().items()
            for path, item in doc["paths"].items() if "get" in item]


def test_every_get_operation_of_both_documents_has_a_method() -> None:
    ops = get_operations()
    assert (sum(s == "data" for s, _, _ in ops), sum(s == "metrics" for s, _, _ in ops)) == (70, 15)
    classes = {"data": (ad.DataClient, ad.AsyncDataClient), "metrics": (ad.MetricsClient, ad.AsyncMetricsClient)}
    missing = []
    for service, op_id, path in ops:
        name = gen_endpoints.method_name({"operation_id": op_id})
        for cls in classes[service]:
            method = getattr(cls, name, None)
            if method is None:
                missing.append(f"{cls.__name__}.{name} ({op_id}, GET {path})")
            elif (service, op_id) not in gen_endpoints.HAND_WRITTEN:
                assert f"``{op_id}``" in method.__doc__ and f"``GET {path}``" in method.__doc__, name
    assert not missing, "GET operations without a method: " + ", ".join(missing)


def test_the_generated_methods_stubs_and_readme_table_are_fresh() -> None:
    result = subprocess.run([sys.executable, "tools/gen_endpoints.py", "--check"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr


def test_the_freshness_check_can_fail() -> None:
    ops = gen_endpoints.operations()
    module = gen_endpoints.module_text(ops)
    assert module == gen_endpoints.MODULE.read_text()
    assert gen_endpoints.module_text(ops[:-1]) != module
    readme = gen_endpoints.README.read_text()
    assert gen_endpoints.readme_text(readme, ops) == readme
    stale = readme.replace("| `erc20_transfers` |", "| `x` |")
    assert stale != readme and gen_endpoints.readme_text(stale, ops) == readme


def test_signatures_put_path_parameters_first_and_the_rest_keyword_only() -> None:
    import inspect

    sig = inspect.signature(ad.DataClient.erc20_transfers)
    kinds = {name: p.kind for name, p in sig.parameters.items()}
    assert list(kinds)[:3] == ["self", "chain_id", "address"]
    assert kinds["chain_id"] == inspect.Parameter.POSITIONAL_OR_KEYWORD
    for name in ("start_block", "end_block", "page_size", "page_token", "limit"):
        assert kinds[name] == inspect.Parameter.KEYWORD_ONLY, name
    sig = inspect.signature(ad.MetricsClient.staking)
    assert list(sig.parameters)[:3] == ["self", "network", "metric"]
    assert ad.DataClient.erc20_transfers.__name__ == "erc20_transfers"
    assert "listErc20Transactions" in ad.DataClient.erc20_transfers.__doc__


@pytest.mark.parametrize(
    "call,param,value,allowed",
    [
        (lambda d: d.validators("devnet"), "network", '"devnet"', "one of mainnet, fuji, testnet"),
        (lambda d: d.validators("mainnet", validation_status="ACTIVE"), "validation_status", '"ACTIVE"',
         "one of completed, active, pending, removed"),
        (lambda d: d.erc20_transfers("43114", OWNER, page_size=0), "page_size", "0", "an int in [1, 100]"),
        (lambda d: d.erc20_transfers("43114", OWNER, page_size="ten"), "page_size", '"ten"', "an int in [1, 100]"),
        (lambda d: d.erc20_transfers("43114", OWNER, page_size=True), "page_size", "true", "an int in [1, 100]"),
        (lambda d: d.validators("mainnet", max_fee_percentage=1.5), "max_fee_percentage", "1.5",
         "a number in [2, 100]"),
        (lambda d: d.utxos("mainnet", "p-chain", addresses="avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c",
                           include_spent="yes"), "include_spent", '"yes"', "a bool"),
        (lambda d: d.primary_network_transactions("mainnet", "p-chain", tx_types=["AddValidatorTx", "Nope"]),
         "tx_types", '"Nope"', "a list (or comma-separated text) of which each item is one of AddValidatorTx"),
        (lambda d: d.erc20_transfers("43114", "0xabc"), "address", '"0xabc"', "a 0x address (40 hex digits)"),
        (lambda d: d.erc20_transfers("../v2", OWNER), "chain_id", '"../v2"', "an EVM chain id"),
        (lambda d: d.validator("mainnet", None), "node_id", "None", "required"),
        (lambda d: d.primary_network_transaction("mainnet", "q-chain", "abc"), "blockchain_id", '"q-chain"',
         "one of 11111111111111111111111111111111LpoYY"),
        (lambda d: d.validators("mainnet", subnet_id=object()), "subnet_id", None, "a str, int, float, bool"),
    ],
)
def test_arguments_are_checked_from_the_document_before_any_request(call, param, value, allowed) -> None:
    with ad.DataClient(base_url=NOWHERE, max_retries=0) as data:
        with pytest.raises(ad.InvalidParameterError) as caught:
            call(data)
    err = caught.value
    assert err.param == param
    if value is not None:
        assert str(err).startswith(f"invalid {param}={value}: "), str(err)
    assert allowed in err.allowed, err.allowed


def test_metrics_arguments_are_checked_too() -> None:
    with ad.MetricsClient(base_url=NOWHERE, max_retries=0) as metrics:
        with pytest.raises(ad.InvalidParameterError) as caught:
            metrics.staking("mainnet", "validatorAge")
    assert caught.value.param == "metric"
    assert caught.value.allowed == "one of delegatorCount, delegatorWeight, validatorCount, validatorWeight"
    with pytest.raises(ad.InvalidParameterError, match="^invalid start=-5: "):
        ad.MetricsClient(base_url=NOWHERE).staking("mainnet", "validatorCount", start=-5)


def test_account_operations_raise_authentication_error_without_a_key(monkeypatch) -> None:
    monkeypatch.delenv("AVAX_DATA_API_KEY", raising=False)
    with ad.DataClient(base_url=NOWHERE, max_retries=0) as data:
        for call, op_id in [(lambda: data.webhooks(), "listWebhooks"), (lambda: data.api_logs(), "getApiLogs"),
                            (lambda: data.shared_secret(), "getSharedSecret"),
                            (lambda: data.webhook("w1"), "getWebhook")]:
            with pytest.raises(ad.AuthenticationError) as caught:
                call()
            assert caught.value.operation == op_id
            assert "needs an API key and none is set: pass api_key= or set AVAX_DATA_API_KEY" in str(caught.value)
    # With a key the request is sent (and here finds nobody listening).
    with ad.DataClient(NOWHERE, api_key="some-key", max_retries=0, connect_timeout=2) as keyed:
        with pytest.raises(ad.ConnectError):
            keyed.shared_secret()

    async def main() -> str:
        async with ad.AsyncDataClient(base_url=NOWHERE, max_retries=0) as data:
            try:
                data.webhooks()
            except ad.AuthenticationError as exc:
                return str(exc.operation)
        return "not raised"

    assert asyncio.run(main()) == "listWebhooks"


# ---- frames and dicts from a scripted server ----

TRANSFER = {
    "blockNumber": "339", "blockTimestamp": 1648672486, "blockHash": "0xb1", "txHash": "0xt1",
    "from": {"address": OWNER, "name": "Alice"}, "to": {"address": "0x2"}, "logIndex": 3,
    "value": "10000000000000000000000",
    "erc20Token": {"address": "0xe", "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18,
                   "ercType": "ERC-7777", "price": {"currencyCode": "usd", "value": 12.5}},
    "aFieldTheDocumentDoesNotHave": {"x": [1, 2]},
}


class Scripted(GetServer):
    """Answers pages of list paths from their bodies (by the page token), recording queries."""

    def __init__(self) -> None:
        self.pages: dict[str, dict[str | None, Any]] = {}
        super().__init__(self.respond)

    def respond(self, request: GetRequest) -> GetAnswer:
        body = self.pages.get(request.path, {}).get(request.query.get("pageToken"))
        return (200, body) if body is not None else (404, {"message": "Not Found"})

    @property
    def queries(self) -> list[dict[str, list[str]]]:
        """Each request's query, every value of each parameter."""
        return [parse_qs(urlsplit(r.target).query) for r in self.requests]


@pytest.fixture
def scripted():
    with Scripted() as script:
        yield script


def item_properties(op_id: str) -> set[str]:
    """The documented fields of one list item: every variant's properties."""
    doc = documents()["data"]
    schemas = doc["components"]["schemas"]
    resolve = lambda s: schemas[s["$ref"].split("/")[-1]] if "$ref" in s else s  # noqa: E731
    op = next(item["get"] for item in doc["paths"].values() if item.get("get", {}).get("operationId") == op_id)
    answer = resolve(op["responses"]["200"]["content"]["application/json"]["schema"])
    names: set[str] = set()
    for variant in [resolve(v) for v in answer.get("oneOf", [answer])]:
        for key, prop in variant["properties"].items():
            if prop.get("type") == "array" and key != "nextPageToken":
                items = resolve(prop["items"])
                for member in [resolve(m) for m in items.get("oneOf", items.get("anyOf", [items]))]:
                    names |= set(member.get("properties", {}))
    return names


def test_frames_of_schema_valid_pages_have_the_documented_columns_and_types(scripted) -> None:
    path = f"/v1/chains/43114/addresses/{OWNER}/transactions:listErc20"
    scripted.pages[path] = {
        None: {"transactions": [TRANSFER, {"blockNumber": "338", "txHash": "0xt0", "value": None,
                                           "erc20Token": None}], "nextPageToken": "p2"},
        "p2": {"transactions": [{"blockNumber": "337", "blockTimestamp": 1648672000, "logIndex": 0.0}]},
    }
    with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
        pager = data.erc20_transfers("43114", OWNER, start_block=100)
        frame = pager.to_polars()
    assert scripted.queries[0] == {"startBlock": ["100"], "pageSize": ["100"]}
    assert scripted.queries[1]["pageToken"] == ["p2"]
    assert set(frame.columns) == item_properties("listErc20Transactions") | {"valueFloat", "extra"}
    assert frame.columns[-1] == "extra" and "aFieldTheDocumentDoesNotHave" not in frame.columns
    # the field the document does not name is kept, by its JSON Pointer, in `extra`
    assert json.loads(frame["extra"][0]) == {"/aFieldTheDocumentDoesNotHave": {"x": [1, 2]}}
    assert frame["extra"][1:].to_list() == [None, None]
    schema = frame.schema
    assert schema["blockNumber"] == pl.UInt64 and schema["value"] == pl.String
    assert schema["valueFloat"] == pl.Float64
    assert schema["blockTimestamp"] == pl.Datetime("ns", "UTC")
    assert schema["txHash"] == pl.String and schema["logIndex"] == pl.UInt64
    assert isinstance(schema["erc20Token"], pl.Struct) and isinstance(schema["from"], pl.Struct)
    assert frame["blockNumber"].to_list() == [339, 338, 337]
    assert frame["value"].to_list()[:2] == ["10000000000000000000000", None]
    assert frame["valueFloat"].to_list()[:2] == [1e22, None]
    assert frame["logIndex"].to_list()[2] == 0  # sent as 0.0
    token = frame["erc20Token"].to_list()
    assert token[0]["ercType"] == "ERC-7777" and token[0]["decimals"] == 18 and token[1] is None
    assert frame["blockTimestamp"].to_list()[0] == dt.datetime(2022, 3, 30, 20, 34, 46, tzinfo=dt.timezone.utc)
    # Dicts keep every field and type the documented ones.
    with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
        first = next(iter(data.erc20_transfers("43114", OWNER, limit=1)))
    assert first["blockNumber"] == 339 and first["aFieldTheDocumentDoesNotHave"] == {"x": [1, 2]}
    assert first["blockTimestamp"].year == 2022


def test_a_value_that_breaks_its_column_is_a_decode_error_naming_it(scripted) -> None:
    path = f"/v1/chains/43114/addresses/{OWNER}/transactions:listErc20"
    scripted.pages[path] = {None: {"transactions": [{"blockNumber": "1.5"}]}}
    with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
        with pytest.raises(ad.DecodeError, match=r'field "blockNumber": "1.5" is not an integer'):
            data.erc20_transfers("43114", OWNER).to_polars()


def test_union_items_merge_every_variant_and_objects_come_back_as_dicts(scripted) -> None:
    scripted.pages["/v1/networks/mainnet/blockchains/p-chain/transactions"] = {None: {"transactions": [
        {"txHash": "a", "txType": "AddPermissionlessValidatorTx", "blockTimestamp": 1700000000,
         "amountStaked": [{"assetId": "x", "amount": "2000000000000"}], "nodeId": "NodeID-1"},
        {"txHash": "b", "txType": "SomeFutureTx"},
    ]}}
    scripted.pages["/v1/avax/supply"] = {None: {"circulatingSupply": "454257251.71", "totalSupply": "720000000",
                                                "totalPBurned": "1.5", "totalCBurned": "2", "totalXBurned": "3",
                                                "totalStaked": "4", "totalLocked": "5", "totalRewards": "6",
                                                "lastUpdated": "2025-02-01T00:00:00.000Z",
                                                "genesisUnlock": "7", "l1ValidatorFees": "8"}}
    with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
        frame = data.primary_network_transactions("mainnet", "p-chain", tx_types="AddPermissionlessValidatorTx"
                                                  ).to_polars()
        supply = data.avax_supply()
    assert scripted.queries[0]["txTypes"] == ["AddPermissionlessValidatorTx"]
    assert frame["txType"].to_list() == ["AddPermissionlessValidatorTx", "SomeFutureTx"]
    assert set(item_properties("listLatestPrimaryNetworkTransactions")) | {"extra"} == set(frame.columns)
    assert frame["blockTimestamp"].dtype == pl.Datetime("ns", "UTC")
    assert supply["totalSupply"] == "720000000"  # its example has a fraction: text, not a decimal
    assert supply["lastUpdated"] == dt.datetime(2025, 2, 1, tzinfo=dt.timezone.utc)


def test_async_twins_walk_and_await(scripted) -> None:
    path = f"/v1/chains/43114/addresses/{OWNER}/transactions:listErc20"
    scripted.pages[path] = {None: {"transactions": [TRANSFER]}}
    scripted.pages["/v1/avax/supply"] = {None: {"totalSupply": "1"}}

    async def main() -> tuple[int, Any]:
        async with ad.AsyncDataClient(base_url=scripted.url, max_retries=0) as data:
            frame = await data.erc20_transfers("43114", OWNER).to_polars()
            supply = await data.avax_supply()
            return frame.height, supply["totalSupply"]

    assert asyncio.run(main()) == (1, "1")


def test_the_cli_exports_any_list_operation_and_prints_any_object(scripted, capsys, tmp_path) -> None:
    from _cli import cli

    path = f"/v1/chains/43114/addresses/{OWNER}/transactions:listErc20"
    scripted.pages[path] = {None: {"transactions": [TRANSFER], "nextPageToken": "p2"},
                            "p2": {"transactions": [{"blockNumber": "5", "value": "7"}]}}
    scripted.pages["/v1/avax/supply"] = {None: {"totalSupply": "1", "lastUpdated": "2025-02-01T00:00:00Z"}}
    out = tmp_path / "x.parquet"
    result = cli(capsys, "data", "erc20-transfers", "43114", OWNER, "--start-block", "100", "--base-url",
                 scripted.url, "--out", str(out), "--quiet")
    assert result.code == 0, result.err
    frame = pl.read_parquet(out)
    assert frame["blockNumber"].to_list() == [339, 5] and frame.schema["value"] == pl.String
    assert scripted.queries[0]["startBlock"] == ["100"]
    result = cli(capsys, "data", "avax-supply", "--base-url", scripted.url)
    assert result.code == 0, result.err
    assert json.loads(result.out)["totalSupply"] == "1"
    result = cli(capsys, "data", "validators", "devnet", "--base-url", NOWHERE, "--out", str(tmp_path / "v.parquet"))
    assert result.code != 0 and 'invalid network="devnet": one of mainnet, fuji, testnet' in result.err


def test_the_columns_table_of_the_guide_is_the_cores() -> None:
    """docs/guides/endpoints.md's table of every operation's columns is what the core types them as."""
    result = subprocess.run([sys.executable, "tools/endpoint_columns.py", "--check"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    table = (ROOT / "docs" / "guides" / "endpoints.md").read_text()
    assert "| `DataClient.erc20_transfers` | `listErc20Transactions` | list | " in table
    assert "`value` String (uint256)<br>`valueFloat` Float64 (uint256)" in table
    assert "| `MetricsClient.staking` | `getStakingMetrics` | list | `timestamp` Datetime(ns, UTC)<br>" in table
