"""The documents judge the frames: for every list operation of both vendored OpenAPI documents, a
page that is valid per the operation's response schema (checked with ``jsonschema`` first) but
adversarial — every variant of the items, optional fields absent, explicit nulls where the schema
allows them, unknown enum values, fields the document does not have, integers past 2^63 and
decimal amounts past 2^64 — is served by one scripted server, and the frame must have exactly
the documented columns, in the document's property order (a uint256 amount's Float64 companion
after it, a series' timestamp first, ``extra`` last, holding the fields the document does not
name by their JSON Pointer), with the dtypes the schema rule (docs/guides/endpoints.md) names,
holding the values sent; the dict path must give the same values and keep the unknown fields."""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import json
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _helpers import GetServer
from test_emulator_openapi import BY_ID, DOCS, EXTRA_QUERY, _example, _resolve, _success, _variants, validate

# ---- the schema rule, restated from the docs table (independent of the Rust implementation) ----

# Decimal-string amounts the documents give no digit example for (the docs table names them).
DECIMAL_NAMES = {"amount", "amountStaked", "amountDelegated", "totalAmountStaked", "messageNonce",
                 "receivedMessageNonce", "gasUsed", "gasSpent", "gasLimit", "gasCost", "gasPrice", "feesSpent",
                 "baseFee", "baseFeePerGas", "maxFeePerGas", "maxPriorityFeePerGas", "value", "balance",
                 "delegationCapacity", "grossReward", "netReward", "estimatedGrossReward", "estimatedNetReward",
                 "estimatedReward", "validationRewardAmount", "delegationRewardAmount"}
# uint256 fields (exact decimal text) and the amounts among them (a Float64 companion follows).
U256_NAMES = {"value", "balance", "tokenId"}
U256_AMOUNTS = {"value", "balance"}
# Integers that may be negative (Int64).
SIGNED_NAMES = {"createBlockNumber", "createBlockIndex", "balanceChange"}
# A size in bytes is a count (`blockSizeBytes`); a field of bytes (`utxoBytes`, hex text) is not.
INTEGER_SUFFIXES = ("Block", "BlockNumber", "blockNumber", "Height", "height", "Index", "Count", "ecimals",
                    "SizeBytes", "Requests", "ocktime", "Code", "Validators", "AccruedFees", "Balance")
INTEGER_NAMES = {"txType", "threshold", "weight", "denomination", "groupId", "evmChainId", "apiCreditsConsumed",
                 "apiCreditsUsed", "apiCreditsWasted", "totalAddresses", "totalCount", "totalHolders", "totalTokens",
                 "cumulativeTransactions"}
FLOAT_PARTS = ("Percent", "progress", "latitude", "longitude", "PerSecond", "Performance", "Msecs")
TS = pl.Datetime("ns", "UTC")
JSON = "json"  # a column of JSON text (polars String)
U256 = "u256"  # a uint256's exact decimal text (polars String)
U256F = "u256f"  # its Float64 companion, read from the field before it
EXTRA = "extra"  # the last column: the fields the document does not name, by JSON Pointer (String)
UNKNOWN_FIELD = "zzFieldTheDocumentDoesNotHave"
UNKNOWN_ENUM = "SOME_FUTURE_VALUE"


def _type(schema: dict[str, Any]) -> str | None:
    t = schema.get("type")
    if isinstance(t, list):
        real = [x for x in t if x != "null"]
        return real[0] if len(real) == 1 else None
    return t


def _examples(schema: dict[str, Any]) -> list[Any]:
    if isinstance(schema.get("examples"), list):
        return schema["examples"]
    return [schema[k] for k in ("examples", "example") if k in schema][:1]


def _digits(v: Any) -> bool:
    return isinstance(v, str) and v.removeprefix("-").isdigit()


def _integer_name(name: str) -> bool:
    return name in INTEGER_NAMES or name.endswith(INTEGER_SUFFIXES)


def _moment(name: str) -> bool:
    return len(name) > 2 and name.endswith("At") and name[:-2].isalpha()


def _number(name: str, schema: dict[str, Any]) -> Any:
    """A JSON ``number``: timestamps, fractions, amounts, then integers by name or example."""
    ex = _examples(schema)
    if name == "timestamp" or name.endswith(("Timestamp", "TimestampMilliseconds")):
        return TS
    if _moment(name):  # `createdAt`: no unit given, seconds or milliseconds by size
        return TS
    if name == "value" or any(p in name for p in FLOAT_PARTS):
        return pl.Float64
    if name == "chainId":
        return pl.String
    if name in SIGNED_NAMES:
        return pl.Int64
    if name in DECIMAL_NAMES:
        return pl.Decimal(38, 0)
    if _integer_name(name) or (ex and all(isinstance(e, int) and not isinstance(e, bool) for e in ex)):
        return pl.UInt64
    return pl.Float64


def _settled(fields: list[list[Any]]) -> list[list[Any]]:
    """A float companion stays only right after a uint256 field."""
    return [f for i, f in enumerate(fields) if f[1] != U256F or (i > 0 and fields[i - 1][1] == U256)]


class Rule:
    """The column kind of a schema: a polars dtype, ``JSON``, or ``("struct", fields)`` /
    ``("list", kind)`` where ``fields`` is a list of ``(name, kind, schemas)`` in the document's order."""

    def __init__(self, service: str) -> None:
        self.service = service

    def r(self, schema: dict[str, Any]) -> dict[str, Any]:
        return _resolve(self.service, schema)

    def kind(self, name: str, schema: dict[str, Any], depth: int = 0) -> Any:
        schema = self.r(schema)
        if depth > 8:
            return JSON
        if "allOf" in schema:
            members = schema["allOf"]
            if len(members) == 1:
                return self.kind(name, members[0], depth)
            return self.struct([self.r(m) for m in members], None, depth)
        union = schema.get("oneOf") or schema.get("anyOf")
        if union:
            members = [self.r(m) for m in union]
            if all(_type(m) == "object" or "properties" in m for m in members):
                return self.struct(members, (schema.get("discriminator") or {}).get("propertyName"), depth)
            kinds = [self.kind(name, m, depth + 1) for m in union]
            return kinds[0] if all(self.dtype(k) == self.dtype(kinds[0]) for k in kinds) else JSON
        t = _type(schema)
        if t == "string":
            ex = _examples(schema)
            id_like = name.endswith(("Id", "Index", "Status")) or name == "type"
            open_ = "enum" not in schema
            digits = all(map(_digits, ex)) if ex else True
            if schema.get("format") == "date-time":
                return TS
            if open_ and name in U256_NAMES and digits:
                return U256
            if open_ and name in SIGNED_NAMES:
                return pl.Int64
            if open_ and _integer_name(name) and digits:
                return pl.UInt64
            if open_ and not id_like and (all(map(_digits, ex)) if ex else name in DECIMAL_NAMES):
                return pl.Decimal(38, 0)
            return pl.String
        if t == "integer":
            return pl.UInt64 if schema.get("minimum", -1) >= 0 else pl.Int64
        if t == "number":
            return _number(name, schema)
        if t == "boolean":
            return pl.Boolean
        if t == "array":
            if "items" not in schema:
                return JSON
            inner = self.kind(name, schema["items"], depth + 1)
            return JSON if inner == JSON else ("list", inner)
        if t in ("object", None) and "properties" in schema:
            return self.struct([schema], None, depth)
        return JSON

    def struct(self, members: list[dict[str, Any]], discriminator: str | None, depth: int) -> Any:
        fields: list[list[Any]] = []
        for member in members:
            member = self.r(member)
            if "properties" in member:
                for name, prop in member["properties"].items():
                    kind = self.kind(name, prop, depth + 1)
                    self.add(fields, [name, kind])
                    if kind == U256 and name in U256_AMOUNTS:
                        self.add(fields, [f"{name}Float", U256F])
            elif isinstance(member.get("allOf"), list):
                inner = self.struct([self.r(m) for m in member["allOf"]], None, depth)
                if inner == JSON:
                    return JSON
                for f in inner[1]:
                    self.add(fields, list(f))
        if discriminator and all(f[0] != discriminator for f in fields):
            fields.append([discriminator, pl.String])
        fields = _settled(fields)
        return ("struct", [tuple(f) for f in fields]) if fields else JSON

    def add(self, fields: list[list[Any]], new: list[Any]) -> None:
        have = next((f for f in fields if f[0] == new[0]), None)
        if have is None:
            fields.append(new)
        elif self.dtype(have[1]) == self.dtype(new[1]):
            pass
        elif isinstance(have[1], tuple) and isinstance(new[1], tuple) and have[1][0] == new[1][0] == "struct":
            merged = [list(f) for f in have[1][1]]
            for f in new[1][1]:
                self.add(merged, list(f))
            have[1] = ("struct", [tuple(f) for f in _settled(merged)])
        elif (isinstance(have[1], tuple) and isinstance(new[1], tuple) and have[1][0] == new[1][0] == "list"
              and isinstance(have[1][1], tuple) and isinstance(new[1][1], tuple)):
            merged = [list(f) for f in have[1][1][1]]
            for f in new[1][1][1]:
                self.add(merged, list(f))
            have[1] = ("list", ("struct", [tuple(f) for f in _settled(merged)]))
        else:
            have[1] = JSON

    def dtype(self, kind: Any) -> pl.DataType:
        if kind in (JSON, U256, EXTRA):
            return pl.String
        if kind == U256F:
            return pl.Float64
        if isinstance(kind, tuple) and kind[0] == "struct":
            return pl.Struct({name: self.dtype(k) for name, k in kind[1]})
        if isinstance(kind, tuple) and kind[0] == "list":
            return pl.List(self.dtype(kind[1]))
        return kind


# ---- adversarial but schema-valid answers ----

BIG_DECIMAL = "98765432109876543210987654321098765"  # 35 digits: past 2^64, inside Decimal(38, 0)


class Maker:
    """Builds instances of a schema: ``full`` (every property, first enum value, big numbers, an
    unknown extra field), ``minimal`` (required properties only; ``null`` wherever the schema allows
    it) and, from ``full``, ``unknown_enums`` (every enum value replaced by one the document lacks)."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    def value(self, name: str, schema: dict[str, Any], full: bool, variant: int, depth: int) -> Any:
        schema = self.rule.r(schema)
        if not full and self.nullable(schema):
            return None
        if "allOf" in schema:
            out: dict[str, Any] = {}
            for m in schema["allOf"]:
                v = self.value(name, m, full, variant, depth)
                if isinstance(v, dict):
                    out.update(v)
                else:
                    return v
            return out
        union = schema.get("oneOf") or schema.get("anyOf")
        if union:
            return self.value(name, union[variant % len(union)], full, 0, depth)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return schema["enum"][0]
        t = _type(schema)
        kind = self.rule.kind(name, schema)
        if t == "string":
            if kind == TS:
                return "2024-02-29T23:59:58.123Z"
            if kind == pl.Decimal(38, 0):
                return BIG_DECIMAL if full else "0"
            if kind == U256:
                return str(2**256 - 64) if full else "0"  # room for the ids _distinct makes
            if kind == pl.UInt64:
                return str(2**64 - 1) if full else "0"
            if kind == pl.Int64:
                return "-1" if full else "0"
            ex = _examples(schema)
            return ex[0] if ex and isinstance(ex[0], str) else f"text of {name}"
        if t == "integer":
            if kind == pl.UInt64:
                return min(2**64 - 1, schema.get("maximum", 2**64 - 1)) if full else schema.get("minimum", 0)
            return max(-(2**63), schema.get("minimum", -(2**63))) if full else 0
        if t == "number":
            if kind == TS:
                millis = name.endswith("Milliseconds") or (_moment(name) and full)
                return 1709251198123 if millis else 1709251198
            if kind == pl.UInt64:
                return 2**63 + 5 if full else 18.0  # an integer sent as a float is read as the integer
            if kind == pl.Int64:
                return -(2**62) if full else 0
            if kind == pl.Decimal(38, 0):
                return int(BIG_DECIMAL) if full else 0
            if kind == pl.String:
                return 43114 if full else 0  # a number where the concept is text: its JSON text
            return 12.5 if full else 0
        if t == "boolean":
            return full
        if t == "array":
            if depth > 6 or "items" not in schema:
                return []
            items = self.rule.r(schema["items"])
            n = len(items.get("oneOf") or items.get("anyOf") or [0])
            return [self.value(name, schema["items"], True, i, depth + 1) for i in range(n)] + \
                [self.value(name, schema["items"], False, 0, depth + 1)]
        if "properties" in schema:
            return self.object(schema, full, depth)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            # A map of the document's values (e.g. a genesis `alloc`): kept as JSON text.
            return {"0x00000000000000000000000000000000000000aa": self.value(name, extra, full, 0, depth + 1)}
        # A free-form object (or anything the rule keeps as JSON text).
        return {"free": [1, {"form": None}], "big": 2**70}

    def object(self, schema: dict[str, Any], full: bool, depth: int, skip: str | None = None) -> dict[str, Any]:
        required = set(schema.get("required", []))
        out: dict[str, Any] = {}
        for name, prop in schema["properties"].items():
            if name == skip:
                continue
            if full or name in required:
                out[name] = self.value(name, prop, full, 0, depth + 1)
            else:
                nullable = self.nullable(prop)
                if nullable:
                    out[name] = None
        if full and schema.get("additionalProperties") is not False:
            out[UNKNOWN_FIELD] = {"kept": [1, 2], "in": "dicts"}
        return out

    def nullable(self, prop: dict[str, Any]) -> bool:
        prop = self.rule.r(prop)
        t = prop.get("type")
        return isinstance(t, list) and "null" in t and ("enum" not in prop or None in prop["enum"])

    def unknown_enums(self, instance: Any, schema: dict[str, Any]) -> Any:
        """``instance`` with every enum-typed string replaced by ``UNKNOWN_ENUM`` (discriminators kept)."""
        schema = self.rule.r(schema)
        if isinstance(instance, dict):
            props: dict[str, Any] = {}
            for s in [schema, *schema.get("allOf", []), *schema.get("oneOf", []), *schema.get("anyOf", [])]:
                props.update(self.rule.r(s).get("properties", {}))
            disc = (schema.get("discriminator") or {}).get("propertyName")
            out = {}
            for k, v in instance.items():
                prop = self.rule.r(props[k]) if k in props else {}
                if k != disc and isinstance(v, str) and "enum" in prop:
                    out[k] = UNKNOWN_ENUM
                else:
                    out[k] = self.unknown_enums(v, prop)
            return out
        if isinstance(instance, list):
            return [self.unknown_enums(v, schema.get("items", {})) for v in instance]
        return instance


# ---- the operations and their pages ----

LIST_OPS = [op for op in ad._native.openapi_operations() if op["is_list"]]
CHAIN_VALUES = {"blockchain_id": "p-chain"}


def _item_schemas(service: str, answer: dict[str, Any], list_key: str) -> list[dict[str, Any]]:
    """The item schema of the list property of one answer schema."""
    answer = _resolve(service, answer)
    items = _resolve(service, answer["properties"][list_key]["items"])
    return [items]


def _answer_variants(service: str, op: dict[str, Any]) -> list[dict[str, Any]]:
    schema = _resolve(service, _success(op)[1])
    return [_resolve(service, v) for v in schema.get("oneOf", [schema])]


def arguments(op: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """Python arguments of a valid call (path and required parameters) and its blockchain id."""
    service, _, doc_op = BY_ID[op["operation_id"]]
    doc_params = {p["name"]: p for p in doc_op.get("parameters", [])}
    args: dict[str, Any] = {}
    chain = None
    for p in op["params"]:
        extra = EXTRA_QUERY.get(op["operation_id"], {})
        if p["location"] == "path" or p["required"] or p["name"] in extra:
            d = doc_params[p["name"]]
            value = extra.get(p["name"]) or _example(d, _resolve(service, d.get("schema", {})))
            args[p["py_name"]] = value
            if p["name"] == "blockchainId":
                chain = value
    return args, chain


def page_for(op: dict[str, Any], chain: str | None) -> tuple[dict[str, Any], list[Any], list[Any]]:
    """A schema-valid answer (validated here), its items as served, and the items' expected kinds."""
    service, _, doc_op = BY_ID[op["operation_id"]]
    maker = Maker(Rule(service))
    answers = _answer_variants(service, doc_op)
    chosen = _variants(doc_op, service, chain)
    if chosen is not None:
        refs = {v["$ref"].split(service, 1)[1].split("/")[-1] for v in chosen["oneOf"]}
        answer_schema = next(a for a in answers if any(a is DOCS[service]["components"]["schemas"].get(r)
                                                       for r in refs))
    else:
        answer_schema = answers[0]
    key = op["list_key"]
    item_schema = answer_schema["properties"][key]["items"]
    resolved = _resolve(service, item_schema)
    n = len(resolved.get("oneOf") or resolved.get("anyOf") or [0])
    full = [maker.value(key, item_schema, True, i, 0) for i in range(n)]
    items = [*full, maker.value(key, item_schema, False, 0, 0)]
    body = maker.object(answer_schema, False, 0, skip=key)
    body[key] = items
    body.pop("nextPageToken", None)
    validate(op["operation_id"], body, chain)
    # The same first item with enum values the document does not know (valid but for them).
    body[key] = [*items, maker.unknown_enums(full[0], item_schema)]
    _distinct(body[key], op.get("identity"))
    return body, body[key], rule_columns(service, doc_op, key)


def _distinct(items: list[Any], identity: list[str | None] | None) -> None:
    """Gives each item an id of its own: the maker's items copy the document's examples, and a
    page serving one item twice is refused by the repeat screen of a list with an identity."""
    field = identity[0] if identity else None
    for k, item in enumerate(items):
        value = item.get(field) if field and isinstance(item, dict) else None
        if k == 0 or value is None or isinstance(value, bool):
            continue
        if isinstance(value, int):
            item[field] = value + k
        elif isinstance(value, str):
            item[field] = str(int(value) + k) if value.isdigit() else f"{value}{k}"



def rule_columns(service: str, doc_op: dict[str, Any], key: str) -> list[tuple[str, Any]]:
    """The documented item columns: every answer variant's item variants, merged by the rule."""
    rule = Rule(service)
    items = [a["properties"][key]["items"] for a in _answer_variants(service, doc_op)]
    fields: list[list[Any]] = []
    for item in items:
        kind = rule.kind("", item)
        assert isinstance(kind, tuple) and kind[0] == "struct", (doc_op["operationId"], kind)
        for f in kind[1]:
            rule.add(fields, list(f))
    fields = _settled(fields)
    if service == "metrics":  # a series puts its timestamp first
        fields.sort(key=lambda f: f[0] != "timestamp")
    return [tuple(f) for f in fields] + [("extra", EXTRA)]


def unknowns(kind: Any, v: Any, path: str = "") -> dict[str, Any]:
    """The fields of ``v`` no column of ``kind`` names, at any depth, by their JSON Pointer."""
    out: dict[str, Any] = {}
    if isinstance(kind, tuple) and kind[0] == "struct" and isinstance(v, dict):
        documented = {f: k for f, k in kind[1] if k not in (U256F, EXTRA)}
        for key, value in v.items():
            here = f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
            if key in documented:
                out.update(unknowns(documented[key], value, here))
            else:
                out[here] = value
    elif isinstance(kind, tuple) and kind[0] == "list" and isinstance(v, list):
        for i, value in enumerate(v):
            out.update(unknowns(kind[1], value, f"{path}/{i}"))
    return out


# ---- expected values ----

def _ts(v: Any, kind: Any, name: str) -> dt.datetime:
    if isinstance(v, str):
        return dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
    millis = name.endswith("Milliseconds") or (_moment(name) and abs(v) >= 10**11)
    seconds = v / 1000 if millis else v
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc)


def expected(kind: Any, v: Any, name: str) -> Any:
    """What a frame cell holds for the sent JSON value ``v`` of a field of ``kind``."""
    if v is None:
        return None
    if kind == JSON:
        return v  # compared after parsing the cell's JSON text
    if isinstance(kind, tuple) and kind[0] == "struct":
        out = {}
        for i, (f, k) in enumerate(kind[1]):
            if k == EXTRA:
                out[f] = unknowns(kind, v) or None
                continue
            base = v.get(kind[1][i - 1][0]) if k == U256F else None
            out[f] = (None if base is None else float(int(base))) if k == U256F else expected(k, v.get(f), f)
        return out
    if isinstance(kind, tuple) and kind[0] == "list":
        return [expected(kind[1], x, name) for x in v]
    if kind == TS:
        return _ts(v, kind, name)
    if kind == pl.Decimal(38, 0):
        return decimal.Decimal(v)
    if kind == U256:
        return str(int(v))
    if kind in (pl.UInt64, pl.Int64):
        return int(v)
    if kind == pl.String and not isinstance(v, str):
        return json.dumps(v)
    if kind == pl.Float64:
        return float(v)
    return v


def same(kind: Any, cell: Any, want: Any, where: str) -> None:
    if kind in (JSON, EXTRA) and cell is not None:
        assert json.loads(cell) == want, where
    elif isinstance(kind, tuple) and kind[0] == "struct" and cell is not None and want is not None:
        assert list(cell) == [f for f, _ in kind[1]], where
        for f, k in kind[1]:
            same(k, cell[f], want[f], f"{where}.{f}")
    elif isinstance(kind, tuple) and kind[0] == "list" and cell is not None and want is not None:
        assert len(cell) == len(want), where
        for i, (c, w) in enumerate(zip(cell, want)):
            same(kind[1], c, w, f"{where}[{i}]")
    else:
        assert cell == want and type(cell) is type(want), f"{where}: {cell!r} != {want!r}"


def same_dict(kind: Any, got: Any, sent: Any, where: str) -> None:
    """The dict path: the documented fields typed by the rule, unknown fields kept as sent."""
    if sent is None:
        assert got is None, where
    elif kind == JSON:
        assert got == sent, where
    elif isinstance(kind, tuple) and kind[0] == "struct":
        documented = dict(kind[1])
        assert set(got) == set(sent), f"{where}: {sorted(got)} != {sorted(sent)}"
        for f, v in sent.items():
            if f in documented:
                same_dict(documented[f], got[f], v, f"{where}.{f}")
            else:
                assert got[f] == v, f"{where}.{f}"
    elif isinstance(kind, tuple) and kind[0] == "list":
        assert len(got) == len(sent), where
        for i, (g, s) in enumerate(zip(got, sent)):
            same_dict(kind[1], g, s, f"{where}[{i}]")
    elif kind == U256:
        assert got == int(sent) and type(got) is int, f"{where}: {got!r} != {sent!r}"
    elif kind == pl.String and not isinstance(sent, str):
        assert got == sent, where  # a dict keeps the number as sent
    else:
        want = expected(kind, sent, where.rsplit(".", 1)[-1])
        assert got == want, f"{where}: {got!r} != {want!r}"


# ---- one server, every list operation ----

class Server(GetServer):
    """Answers every GET with the page set last (status 200)."""

    def __init__(self) -> None:
        self.body: Any = None
        super().__init__(lambda request: (200, self.body))


@pytest.fixture(scope="module")
def server():
    with Server() as s:
        yield s


@pytest.fixture(scope="module")
def clients(server):
    with ad.DataClient(server.url, api_key="k", max_retries=0) as data, \
            ad.MetricsClient(server.url, max_retries=0) as metrics:
        yield {"data": data, "metrics": metrics}


def test_every_list_operation_of_both_documents_is_judged() -> None:
    assert len(LIST_OPS) >= 40
    assert {op["service"] for op in LIST_OPS} == {"data", "metrics"}


def test_the_maker_is_honest_about_the_schema() -> None:
    """The crafted answers are checked: a page that breaks the schema is refused by the judge."""
    op = next(o for o in LIST_OPS if o["operation_id"] == "listErc20Transactions")
    body, items, _ = page_for(op, None)
    assert any(UNKNOWN_FIELD in i for i in items) and items[-1]["erc20Token"]["ercType"] == UNKNOWN_ENUM
    broken = copy.deepcopy(body)
    broken["transactions"] = broken["transactions"][:1]
    broken["transactions"][0]["blockNumber"] = 5
    with pytest.raises(AssertionError, match="schema violations"):
        validate("listErc20Transactions", broken)


@pytest.mark.parametrize("op", LIST_OPS, ids=[o["operation_id"] for o in LIST_OPS])
def test_the_frame_has_the_documented_columns_types_and_values(server, clients, op) -> None:
    args, chain = arguments(op)
    body, items, columns = page_for(op, chain)
    server.body = body
    client = clients[op["service"]]
    frame = client._call_list(op["operation_id"], args, None, None).to_polars()
    rule = Rule(op["service"])
    # Exactly the documented columns, in the document's order, typed by the rule.
    assert frame.columns == [name for name, _ in columns]
    assert dict(frame.schema) == {name: rule.dtype(kind) for name, kind in columns}
    assert frame.height == len(items)
    rows = frame.rows(named=True)
    for i, (row, sent) in enumerate(zip(rows, items)):
        want = expected(("struct", columns), sent, "")
        for name, kind in columns:
            same(kind, row[name], want[name], f"{op['operation_id']}[{i}].{name}")
    # The dict path: the same values, typed by the same rule, and the unknown fields kept.
    dicts = list(client._call_list(op["operation_id"], args, None, None))
    assert len(dicts) == len(items)
    whole = ("struct", columns)
    for i, (got, sent) in enumerate(zip(dicts, items)):
        same_dict(whole, got, sent, f"{op['operation_id']}[{i}]")


def test_every_generated_method_reads_the_emulators_answers() -> None:
    """The emulator's answers fit the frames and dicts of every generated method (called with the
    documents' example arguments; a block, a transaction and a P-address of the emulator's world
    where the operation names one), e.g. a decimal amount the emulator made up is digits."""
    from avax_data import _endpoints

    table = {o["operation_id"]: o for o in ad._native.openapi_operations()}
    with ad.Emulator(containers=100, data_blocks_per_chain=200) as emu, \
            ad.DataClient(emu.url, api_key="k") as data, ad.MetricsClient(emu.url) as metrics:
        block = next(b for b in data.blocks("43114") if b["txCount"] > 0)
        tx = next(iter(data.block_transactions("43114", block["blockHash"])))
        p_block = next(iter(data.primary_network_blocks("mainnet", "p-chain")))
        p_tx = next(iter(data.primary_network_transactions("mainnet", "p-chain")))
        holder = emu.world["p_addresses"]["mainnet"][:1]  # holds P-chain UTXOs (the world's stake owner)
        message = next(iter(data.icm_messages()))  # getIcmMessage answers the world's messages only
        world = {"getTransactionsForBlock": {"block_id": block["blockHash"]},
                 "getTransaction": {"tx_hash": tx["txHash"]},
                 "getBlockById": {"block_id": p_block["blockHash"]},
                 "getTxByHash": {"tx_hash": p_tx["txHash"]},
                 "getUtxosByAddresses": {"addresses": holder},
                 "getBalancesByAddresses": {"addresses": holder},
                 # The X world's assets and vertices (the documents' examples name none of them).
                 "getAssetDetails": {"asset_id": "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"},
                 "listAssetTransactions": {"asset_id": "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"},
                 "getVertexByHash": {"vertex_hash": next(iter(data.vertices("mainnet", "x-chain")))["vertexHash"]},
                 "getIcmMessage": {"message_id": message["messageId"]},
                 # The world's deployed contract and minted NFT (these answer from the world).
                 "getDeploymentTransaction": {"address": emu.world["shapes"]["deployment"]["contract_address"]},
                 "getTokenDetails": {"address": emu.world["shapes"]["nft_collection"]["address"],
                                     "token_id": emu.world["shapes"]["nft_mint"]["token_id"]}}
        clients = {"data": data, "metrics": metrics}
        read = []
        for (service, method), (op_id, positional, _keywords, is_list) in _endpoints.SPECS.items():
            args, _ = arguments(table[op_id])
            args.update(world.get(op_id, {}))
            call = getattr(clients[service], method)
            answer = call(*[args.pop(p) for p in positional], **args)
            if is_list:
                frame = answer.to_polars()
                assert frame.columns == [c for c, _ in rule_columns(service, BY_ID[op_id][2], table[op_id]["list_key"])]
                read.append(frame.height)
            else:
                assert isinstance(answer, dict) and answer, op_id
    assert len(read) >= 35 and sum(read) > 0
