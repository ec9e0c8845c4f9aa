"""The vendored OpenAPI documents judge the emulator: every GET operation of the Data API and the
Metrics API is called over HTTP with valid parameters built from the documents (known ids of the
emulator's world where the operation names one, else the parameter's first enum value or its
example), and the JSON answer is validated against the operation's 200 response schema with an
independent JSON Schema validator (``jsonschema``, Draft 2020-12, ``$ref`` resolved against the
document). List operations are paged: tokens lead to valid further pages without repeats,
``pageSize`` bounds and bad tokens get the service's 400 body, and operations that need an API key
answer 401 without one."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing
import referencing.jsonschema

import avax_data as ad

SPEC = Path(__file__).resolve().parent.parent / "spec" / "openapi"
DOCUMENTS = {"data": "data-api.openapi.json", "metrics": "metrics-api.openapi.json"}
KEY_HEADER = "x-glacier-api-key"
# The tags whose operations act for an account: the service answers them only with an API key.
KEYED_TAGS = {"Data API Usage Metrics", "Webhooks"}
# Pool address 0 of the emulator's world: the most frequent transaction sender on every chain.
WORLD_ADDRESS = "0x6a2474f3e677ce65e495508043237ea93738a031"


def _load(service: str) -> dict[str, Any]:
    return json.loads((SPEC / DOCUMENTS[service]).read_text())


DOCS = {service: _load(service) for service in DOCUMENTS}


def _registry() -> referencing.Registry:
    resources = [
        (f"urn:avax-data:{service}", referencing.Resource.from_contents(
            doc, default_specification=referencing.jsonschema.DRAFT202012))
        for service, doc in DOCS.items()
    ]
    return referencing.Registry().with_resources(resources)


REGISTRY = _registry()


def _operations() -> list[tuple[str, str, str, dict[str, Any]]]:
    ops = []
    for service, doc in DOCS.items():
        for path, item in doc["paths"].items():
            if "get" in item:
                ops.append((service, item["get"]["operationId"], path, item["get"]))
    return ops


OPERATIONS = _operations()
BY_ID = {op_id: (service, path, op) for service, op_id, path, op in OPERATIONS}


def _resolve(service: str, schema: dict[str, Any]) -> dict[str, Any]:
    doc = DOCS[service]
    while "$ref" in schema:
        node: Any = doc
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _params(op: dict[str, Any]) -> list[dict[str, Any]]:
    return list(op.get("parameters", []))


def _success(op: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The success status the document gives and its JSON schema (``None`` when it has none)."""
    for status in ("200", "201"):
        if status in op["responses"]:
            content = op["responses"][status].get("content", {})
            return status, content.get("application/json", {}).get("schema")
    raise AssertionError(f"{op['operationId']} documents no success answer")


def _paged(op: dict[str, Any]) -> bool:
    return any(p["name"] == "pageToken" for p in _params(op))


def _keyed(op: dict[str, Any]) -> bool:
    return bool(KEYED_TAGS & set(op.get("tags", [])))


def _pointer(path: str, status: str) -> str:
    escaped = path.replace("~", "~0").replace("/", "~1")
    return f"#/paths/{escaped}/get/responses/{status}/content/application~1json/schema"


# A primary-network chain's tag in the names of the variants of a `oneOf` answer.
CHAIN_TAGS = {"p-chain": "PChain", "x-chain": "XChain", "c-chain": "CChain",
              "11111111111111111111111111111111LpoYY": "PChain",
              "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM": "XChain",
              "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm": "XChain",
              "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5": "CChain",
              "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp": "CChain"}


def _variants(op: dict[str, Any], service: str, blockchain_id: str | None) -> dict[str, Any] | None:
    """The answer schema for a request on ``blockchain_id``, when it is one of per-chain variants.

    Some answers are a ``oneOf`` of per-chain variants that do not exclude each other (a P-chain
    balance is also a valid C-chain atomic balance, which has a subset of its required fields), so
    no answer, the service's included, can match exactly one of them. The request names the
    chain, so the answer must be that chain's variant: the variants whose name carries the chain's
    tag, else those that carry no chain tag at all.
    """
    schema = _success(op)[1] or {}
    if "oneOf" not in schema or blockchain_id not in CHAIN_TAGS:
        return None
    names = [v["$ref"] for v in schema["oneOf"]]
    tag = CHAIN_TAGS[blockchain_id]
    chosen = [n for n in names if tag in n] or [n for n in names if not any(t in n for t in CHAIN_TAGS.values())]
    assert chosen, f"no variant of {op['operationId']} for {blockchain_id}"
    return {"oneOf": [{"$ref": f"urn:avax-data:{service}{n}"} for n in chosen]}


def validate(op_id: str, body: Any, blockchain_id: str | None = None) -> None:
    """Raises ``AssertionError`` listing the violations when ``body`` is not a valid success answer
    of ``op_id`` (on ``blockchain_id``, for the operations with per-chain variants)."""
    service, path, op = BY_ID[op_id]
    status, _ = _success(op)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$ref": f"urn:avax-data:{service}{_pointer(path, status)}"}
    variants = _variants(op, service, blockchain_id)
    if variants is not None:
        schema = {"$schema": schema["$schema"], **variants}
    validator = jsonschema.Draft202012Validator(schema, registry=REGISTRY)
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    if errors:
        shown = "\n".join(f"  at {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[-300:]}"
                          for e in errors[:8])
        raise AssertionError(f"{op_id}: {len(errors)} schema violations\n{shown}")


def get(url: str, path: str, query: dict[str, Any] | None = None, *,
        key: str | None = "harness-key") -> tuple[int, Any]:
    """GET ``url + path`` with ``query``: (status, parsed JSON body)."""
    target = url + path
    if query:
        target += "?" + urllib.parse.urlencode({k: str(v) for k, v in query.items()})
    request = urllib.request.Request(target)
    if key is not None:
        request.add_header(KEY_HEADER, key)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def assert_service_error(status: int, body: Any, expected: int) -> None:
    """The service's NestJS error shape: ``{message, error, statusCode}``."""
    assert status == expected, (status, body)
    assert isinstance(body, dict) and body.get("statusCode") == expected, body
    assert isinstance(body.get("error"), str) and body["error"], body
    message = body.get("message")
    assert isinstance(message, str) or (isinstance(message, list) and all(isinstance(m, str) for m in message)), body


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=11, data_blocks_per_chain=2_000) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def world_ids(emu: Any) -> dict[str, str]:
    """Ids the world knows, read from its own list answers (a user's way in)."""
    ids: dict[str, str] = {}
    status, blocks = get(emu.url, "/v1/chains/43114/blocks", {"pageSize": 20})
    assert status == 200, blocks
    block = next(b for b in blocks["blocks"] if b["txCount"] > 0)
    ids["blockHash"] = block["blockHash"]
    status, txs = get(emu.url, f"/v1/chains/43114/blocks/{block['blockHash']}/transactions")
    if status == 200 and txs.get("transactions"):
        ids["txHash"] = txs["transactions"][0]["txHash"]
    status, vertices = get(emu.url, "/v1/networks/mainnet/blockchains/x-chain/vertices")
    if status == 200 and vertices.get("vertices"):
        ids["vertexHash"] = vertices["vertices"][0]["vertexHash"]
    status, messages = get(emu.url, "/v1/icm/messages")
    if status == 200 and messages.get("messages"):
        ids["messageId"] = messages["messages"][0]["messageId"]
    status, p_blocks = get(emu.url, "/v1/networks/mainnet/blockchains/p-chain/blocks")
    if status == 200 and p_blocks.get("blocks"):
        ids["pBlockHash"] = p_blocks["blocks"][0]["blockHash"]
    status, p_txs = get(emu.url, "/v1/networks/mainnet/blockchains/p-chain/transactions")
    if status == 200 and p_txs.get("transactions"):
        ids["pTxHash"] = p_txs["transactions"][0]["txHash"]
    status, validators = get(emu.url, "/v1/networks/mainnet/validators", {"validationStatus": "active"})
    if status == 200 and validators.get("validators"):
        ids["nodeId"] = validators["validators"][0]["nodeId"]
    status, deployed = get(emu.url, f"/v1/chains/43114/contracts/{WORLD_ADDRESS}/deployments")
    if status == 200 and deployed.get("contracts"):
        ids["contract"] = deployed["contracts"][0]["address"]
    status, nfts = get(emu.url, f"/v1/chains/43114/addresses/{WORLD_ADDRESS}/balances:listErc721")
    if status == 200 and nfts.get("erc721TokenBalances"):
        ids["collection"] = nfts["erc721TokenBalances"][0]["address"]
        ids["tokenId"] = nfts["erc721TokenBalances"][0]["tokenId"]
    return ids


# Path parameters the world defines, by operation (others take their enum's first value or the
# document's example).
def _world_path_value(op_id: str, name: str, ids: dict[str, str]) -> str | None:
    if name == "chainId" and not op_id.startswith("getMetricsBy"):
        return "43114"
    # The world's NFT collection and one of its tokens; a contract one of its deployments created.
    if name == "address" and op_id in {"listTokens", "getTokenDetails"}:
        return ids.get("collection")
    if name == "tokenId" and op_id == "getTokenDetails":
        return ids.get("tokenId")
    if name == "address" and op_id == "getDeploymentTransaction":
        return ids.get("contract")
    if name == "address" and op_id not in {"listTokens", "getTokenDetails", "listIcmMessagesByAddress"}:
        return WORLD_ADDRESS
    if name == "blockId" and op_id in {"getBlock", "getTransactionsForBlock"}:
        return ids.get("blockHash")
    if name == "txHash" and op_id == "getTransaction":
        return ids.get("txHash")
    # The P-chain's blocks and transactions are the world's (its `blockchainId` is the enum's first).
    if name == "blockId" and op_id == "getBlockById":
        return ids.get("pBlockHash")
    if name == "txHash" and op_id == "getTxByHash":
        return ids.get("pTxHash")
    # The X world's assets: AVAX's (the document's example names an asset the world lacks).
    if name == "assetId" and op_id in {"getAssetDetails", "listAssetTransactions"}:
        return "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"
    if name in {"vertexHash", "messageId"}:
        return ids.get(name)
    if name == "nodeId" and op_id == "getSingleValidatorDetails":
        return ids.get("nodeId")
    return None


# Query parameters some operations need although the document marks none required.
EXTRA_QUERY = {
    "listPendingPrimaryNetworkRewards": {"nodeIds": "NodeID-111111111111111111116DBWJs"},
    # The world's staker address 0: it holds the stake UTXOs of its validator.
    "getUtxosByAddresses": {"addresses": "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr"},
    "getBalancesByAddresses": {"addresses": "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr"},
    "getLastActivityTimestampByAddresses": {"addresses": "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr"},
}


def _example(param: dict[str, Any], schema: dict[str, Any]) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    for source in (param, schema):
        if "example" in source:
            value = source["example"]
            return ",".join(map(str, value)) if isinstance(value, list) else value
        if source.get("examples"):
            return source["examples"][0]
    if schema.get("type") == "array":
        return _example({}, _resolve("data", schema["items"]))
    raise AssertionError(f"no value for required parameter {param['name']}")


def request_for(op_id: str, ids: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The path and query of a valid request of ``op_id``."""
    service, path, op = BY_ID[op_id]
    query: dict[str, Any] = dict(EXTRA_QUERY.get(op_id, {}))
    for param in _params(op):
        schema = _resolve(service, param.get("schema", {}))
        if param["in"] == "path":
            value = _world_path_value(op_id, param["name"], ids)
            value = _example(param, schema) if value is None else value
            path = path.replace("{" + param["name"] + "}", urllib.parse.quote(str(value), safe=""))
        elif param["in"] == "query" and param.get("required"):
            query[param["name"]] = _example(param, schema)
    return path, query


def _blockchain_id(op_id: str, ids: dict[str, str]) -> str | None:
    path, _ = request_for(op_id, ids)
    template = BY_ID[op_id][1].split("/")
    for name, value in zip(template, path.split("/")):
        if name == "{blockchainId}":
            return urllib.parse.unquote(value)
    return None


def _list_key(op_id: str, body: dict[str, Any]) -> str:
    keys = [k for k, v in body.items() if isinstance(v, list) and k != "nextPageToken"]
    assert len(keys) == 1, f"{op_id}: expected one list property, got {sorted(body)}"
    return keys[0]


def _page_bounds(op: dict[str, Any], service: str) -> tuple[int, int]:
    param = next(p for p in _params(op) if p["name"] == "pageSize")
    schema = _resolve(service, param["schema"])
    return int(schema.get("minimum", 1)), int(schema["maximum"])


IDS = [op_id for _, op_id, _, _ in OPERATIONS]
PAGED = [op_id for _, op_id, _, op in OPERATIONS if _paged(op)]
# Paged operations with a pageSize (the Metrics API's listChains has none: one page of chains).
SIZED = [op_id for op_id in PAGED if any(p["name"] == "pageSize" for p in _params(BY_ID[op_id][2]))]
KEYED = [op_id for _, op_id, _, op in OPERATIONS if _keyed(op)]


def test_the_documents_have_every_get_operation() -> None:
    counts = {service: sum(1 for s, *_ in OPERATIONS if s == service) for service in DOCS}
    assert counts == {"data": 70, "metrics": 15}
    assert len(set(IDS)) == len(IDS)
    assert set(KEYED) == {"getApiUsageMetrics", "getApiLogs", "getSubnetRpcUsageMetrics",
                          "getPrimaryNetworkRpcUsageMetrics", "listWebhooks", "getWebhook",
                          "getSharedSecret", "getAddressesFromWebhook"}


def test_the_validator_refuses_what_breaks_the_contract() -> None:
    """The judge itself: a wrong type, a missing required field and a value outside an enum fail."""
    good = {"blocks": [], "nextPageToken": "x"}
    validate("listLatestBlocksAllChains", good)
    with pytest.raises(AssertionError, match="schema violations"):
        validate("listLatestBlocksAllChains", {"blocks": "none"})
    with pytest.raises(AssertionError, match="schema violations"):
        validate("getChainInfo", {"chainId": "43114"})
    with pytest.raises(AssertionError, match="is not one of"):
        validate("data-health-check", {"status": "bad-status"})


@pytest.mark.parametrize("op_id", IDS)
def test_every_operation_answers_validly(emu: Any, world_ids: dict[str, str], op_id: str) -> None:
    path, query = request_for(op_id, world_ids)
    status, body = get(emu.url, path, query)
    expected, schema = _success(BY_ID[op_id][2])
    assert status == int(expected), f"{op_id} {path}?{query}: {status} {body}"
    if schema is not None:
        validate(op_id, body, _blockchain_id(op_id, world_ids))
    # Deterministic: the same request gets the same answer (page tokens aside).
    again = get(emu.url, path, query)[1]
    if isinstance(body, dict) and isinstance(again, dict):
        body.pop("nextPageToken", None)
        again.pop("nextPageToken", None)
    assert again == body


@pytest.mark.parametrize("op_id", PAGED)
def test_list_operations_page_with_tokens(emu: Any, world_ids: dict[str, str], op_id: str) -> None:
    service, _, op = BY_ID[op_id]
    path, query = request_for(op_id, world_ids)
    sized = op_id in SIZED
    size = max(_page_bounds(op, service)[0], 2) if sized else 100
    if sized:
        query["pageSize"] = size
    status, body = get(emu.url, path, query)
    assert status == 200, body
    key = _list_key(op_id, body)
    seen: list[str] = []
    pages = 0
    while True:
        validate(op_id, body, _blockchain_id(op_id, world_ids))
        items = body[key]
        assert len(items) <= size
        seen.extend(json.dumps(item, sort_keys=True) for item in items)
        pages += 1
        token = body.get("nextPageToken")
        if not token or pages == 3:
            break
        assert len(items) == size, f"{op_id}: a short page ({len(items)}) before the end"
        status, body = get(emu.url, path, {**query, "pageToken": token})
        assert status == 200, body
    assert len(seen) == len(set(seen)), f"{op_id}: an item repeated across pages"
    if pages == 1 and len(seen) == size:
        # A full page without a token must hold the whole list (a page one larger holds no more).
        status, whole = get(emu.url, path, {**query, "pageSize": size + 1})
        assert status == 200 and len(whole[key]) == size, f"{op_id}: a full first page without a next token"


@pytest.mark.parametrize("op_id", SIZED)
def test_list_operations_refuse_bad_page_sizes_and_tokens(emu: Any, world_ids: dict[str, str],
                                                          op_id: str) -> None:
    service, _, op = BY_ID[op_id]
    path, query = request_for(op_id, world_ids)
    low, high = _page_bounds(op, service)
    status, body = get(emu.url, path, {**query, "pageSize": high + 1})
    assert_service_error(status, body, 400)
    assert f"pageSize must not be greater than {high}" in json.dumps(body)
    status, body = get(emu.url, path, {**query, "pageSize": low - 1})
    assert_service_error(status, body, 400)
    assert f"pageSize must not be less than {low}" in json.dumps(body)
    status, body = get(emu.url, path, {**query, "pageToken": "not-a-token"})
    assert_service_error(status, body, 400)
    assert "pageToken" in json.dumps(body)


def _enum_query_params() -> list[tuple[str, str]]:
    out = []
    for service, op_id, _, op in OPERATIONS:
        for param in _params(op):
            schema = _resolve(service, param.get("schema", {}))
            if param["in"] == "query" and "enum" in schema:
                out.append((op_id, param["name"]))
    return out


@pytest.mark.parametrize(("op_id", "name"), _enum_query_params())
def test_a_value_outside_an_enum_is_a_400_naming_the_parameter(emu: Any, world_ids: dict[str, str],
                                                                 op_id: str, name: str) -> None:
    path, query = request_for(op_id, world_ids)
    status, body = get(emu.url, path, {**query, name: "no-such-value"})
    assert_service_error(status, body, 400)
    assert f"{name} must be one of the following values" in json.dumps(body)


@pytest.mark.parametrize("op_id", KEYED)
def test_account_operations_need_an_api_key(emu: Any, world_ids: dict[str, str], op_id: str) -> None:
    path, query = request_for(op_id, world_ids)
    status, body = get(emu.url, path, query, key=None)
    assert_service_error(status, body, 401)
    assert KEY_HEADER in body["message"]
    status, body = get(emu.url, path, query)
    assert status == 200, body


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_operation_answers_validly_in_other_worlds(world_ids: dict[str, str], seed: int) -> None:
    """Other seeds give other generated answers (other variants, optional fields left out): all
    valid. Ids of the module's world are unknown here, so operations on them may answer 404."""
    with ad.Emulator(seed=seed, data_blocks_per_chain=300) as other:
        for op_id in IDS:
            path, query = request_for(op_id, world_ids)
            if op_id in SIZED:
                query["pageSize"] = 50
            status, body = get(other.url, path, query)
            if status == 404 and op_id in {"getBlock", "getTransaction", "getTransactionsForBlock",
                                            "getBlockById", "getTxByHash", "getVertexByHash",
                                            "getIcmMessage", "getDeploymentTransaction"}:
                continue
            assert status == int(_success(BY_ID[op_id][2])[0]), (op_id, status, body)
            if _success(BY_ID[op_id][2])[1] is not None:
                validate(op_id, body, _blockchain_id(op_id, world_ids))


def test_the_fault_layer_covers_every_operation(world_ids: dict[str, str]) -> None:
    with ad.Emulator(seed=11, data_blocks_per_chain=2_000, faults={"503": 1.0}) as emu:
        paths = set()
        for op_id in IDS:
            path, query = request_for(op_id, world_ids)
            status, body = get(emu.url, path, query)
            assert_service_error(status, body, 503)
            paths.add(path)
        counted = {p for (kind, p) in emu.fault_counts_by_path() if kind == "503"}
        assert counted == paths


def test_a_repeated_token_fault_on_a_generated_list(emu: Any, world_ids: dict[str, str]) -> None:
    path, query = request_for("listErc20Transactions", world_ids)
    status, first = get(emu.url, path, {**query, "pageSize": 1})
    assert status == 200 and first.get("nextPageToken"), first
    token = first["nextPageToken"]
    emu.set_faults({"repeated_token": 1.0})
    try:
        status, body = get(emu.url, path, {**query, "pageSize": 1, "pageToken": token})
    finally:
        emu.set_faults(None)
    assert status == 200 and body["nextPageToken"] == token
    status, body = get(emu.url, path, {**query, "pageSize": 1, "pageToken": token})
    assert status == 200 and body.get("nextPageToken") != token
