"""The one conversion rule of the Data and Metrics API answers (issue 20): every value is read
exactly or refused with a ``DecodeError`` naming where it stands, the same way on the dict path
(``list(pager)``, single objects) and the frame path (``pager.to_polars()``).

A scripted server answers ``GET /v1/chains/43114/blocks`` with one page whose JSON text is written
here (raw number literals, escapes, duplicate keys: what ``json.dumps`` cannot write). Documented
conversions against ``json.loads`` of the same text: a JSON integer is an exact ``int``; a number
past ``f64`` (which ``json.loads`` reads as ``inf``) and a lone surrogate escape (which it keeps)
are refused; a key given twice holds its last value at its first place (as ``json.loads``);
the typed fields of the ``block`` schema become ``int`` (decimal strings) and ``datetime``
(Unix seconds, milliseconds).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import avax_data as ad
from _helpers import GetServer

PATH = "/v1/chains/43114/blocks"
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


NOT_FOUND = b'{"message": "Not Found", "statusCode": 404}'


class Server(GetServer):
    """Answers a GET of a path with the body set for it last (status 200), else 404."""

    def __init__(self) -> None:
        self.bodies: dict[str, bytes] = {}
        super().__init__(lambda r: (200, self.bodies[r.path]) if r.path in self.bodies else (404, NOT_FOUND))

    def page(self, items_text: list[str]) -> None:
        self.bodies[PATH] = ('{"blocks": [' + ", ".join(items_text) + '], "nextPageToken": null}').encode()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server() as s:
        yield s


def client(server: Server) -> ad.DataClient:
    return ad.DataClient(server.url, api_key="k", max_retries=0)


# ---- JSON text with what json.dumps cannot write ----


@dataclass
class Lit:
    """A number written as ``text`` (``refused``: past f64)."""

    text: str

    @property
    def refused(self) -> bool:
        return json.loads(self.text) in (float("inf"), float("-inf"))


@dataclass
class Obj:
    """An object as its entries in order (a key may come twice)."""

    entries: list[tuple[str, Any]]


def has_lone_surrogate(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def write(value: Any, ascii_only: bool) -> tuple[str, bool]:
    """JSON text of ``value`` and whether the rule refuses it (anywhere, also in a value a repeated
    key replaces)."""
    if isinstance(value, Lit):
        return value.text, value.refused
    if isinstance(value, str):
        lone = has_lone_surrogate(value)
        return json.dumps(value, ensure_ascii=ascii_only or lone), lone
    if isinstance(value, Obj):
        parts, refused = [], False
        for key, v in value.entries:
            text, r = write(v, ascii_only)
            k, rk = write(key, ascii_only)
            parts.append(f"{k}: {text}")
            refused = refused or r or rk
        return "{" + ", ".join(parts) + "}", refused
    if isinstance(value, list):
        written = [write(v, ascii_only) for v in value]
        return "[" + ", ".join(t for t, _ in written) + "]", any(r for _, r in written)
    return json.dumps(value), False


EDGE_INTS = [0, 1, -1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64 - 1, 2**64, 10**30,
             10**38 - 1, 10**38, -(10**38) + 1, -(10**39), 99999999999999999999999]
EDGE_FLOATS = ["1.7976931348623157e308", "-1.7976931348623157e308", "2.2250738585072011e-308", "5e-324", "1e-400",
               "-0.0", "1E2", "0.1e1", "1.5", "1e400", "-1e400", "1.8e308", "123456789e400"]
LONE = ["\ud800", "\udfff", "a\udc00b", "\ude00\ud83d"]

ints = st.one_of(st.sampled_from(EDGE_INTS), st.integers()).map(lambda i: Lit(str(i)))
floats = st.one_of(st.sampled_from(EDGE_FLOATS).map(Lit),
                   st.floats(allow_nan=False, allow_infinity=False).map(lambda f: Lit(repr(f))))
texts = st.one_of(st.text(max_size=12), st.sampled_from(["😀", "𝄞x", "é\"\\/\n\t\u0000", "\u2028"]),
                  st.sampled_from(LONE))
keys = st.one_of(st.sampled_from(["a", "b", "c", "\u00e9", "😀", "a.b", ""]), st.text(max_size=4))
scalars = st.one_of(st.none(), st.booleans(), ints, floats, texts)
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.lists(st.tuples(keys, inner), max_size=4).map(Obj)), max_leaves=12)

# The block schema's typed fields (src/arrow/data.rs BLOCK): a value each rule takes, or null.
DIGITS = st.one_of(st.integers(0, 10**38 - 1), st.sampled_from(EDGE_INTS)).map(str)
FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "chainId": st.one_of(texts, st.none()),
    "blockHash": st.one_of(texts, st.none()),
    "parentHash": st.one_of(texts, st.none()),
    "blockNumber": st.one_of(DIGITS.filter(lambda d: 0 <= int(d) < 2**64), ints, st.none()),
    "blockTimestamp": st.one_of(st.integers(0, 9_000_000_000).map(lambda i: Lit(str(i))), st.none()),
    "blockTimestampMilliseconds": st.one_of(st.integers(0, 9_000_000_000_000).map(lambda i: Lit(str(i))), st.none()),
    "txCount": st.one_of(ints, st.none()),
    "gasUsed": st.one_of(DIGITS, ints, st.none()),
    "baseFee": st.one_of(DIGITS, ints, st.none()),
    "feesSpent": st.one_of(DIGITS, ints, st.none()),
}
COLUMNS = ["chainId", "blockNumber", "blockTimestamp", "blockTimestampMilliseconds", "blockMinDelayExcess", "blockHash",
           "txCount", "baseFee", "gasUsed", "gasLimit", "gasCost", "parentHash", "feesSpent", "cumulativeTransactions"]
DECIMAL = {"baseFee", "gasUsed", "gasLimit", "gasCost", "feesSpent"}
UINT64 = {"blockNumber", "txCount", "blockMinDelayExcess", "cumulativeTransactions"}
SECONDS, MILLIS = {"blockTimestamp"}, {"blockTimestampMilliseconds"}


@st.composite
def items(draw: st.DrawFn) -> Obj:
    """A block item: some schema fields (a few given twice) and unknown fields of any JSON."""
    entries = [(name, draw(strategy)) for name, strategy in FIELDS.items() if draw(st.booleans())]
    entries += draw(st.lists(st.tuples(st.sampled_from(["extra", "nested", "x", "😀"]), trees), max_size=3))
    if entries and draw(st.booleans()):
        name, _ = draw(st.sampled_from(entries))
        entries.append((name, draw(FIELDS.get(name, trees))))
    return Obj(draw(st.permutations(entries)))


# ---- what the rule makes of json.loads's value ----


def expected(item: dict[str, Any]) -> dict[str, Any]:
    """The dict the rule gives for a parsed item: typed schema fields converted."""
    out = {}
    for key, v in item.items():
        if key in DECIMAL | UINT64 and isinstance(v, str):
            v = int(v)
        elif key in SECONDS and isinstance(v, int):
            v = EPOCH + timedelta(seconds=v)
        elif key in MILLIS and isinstance(v, int):
            v = EPOCH + timedelta(milliseconds=v)
        out[key] = v
    return out


def same(a: Any, b: Any) -> bool:
    """Equal, with the same types at every level (1 is not 1.0 nor True) and the same key order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


FRAME_FITS = {name: (lambda v: 0 <= v < 2**64) for name in UINT64}


def fits_frame(name: str, v: Any) -> bool:
    """Whether a dict value fits its frame column."""
    if v is None or not isinstance(v, int) or isinstance(v, bool):
        return True
    if name in FRAME_FITS:
        return FRAME_FITS[name](v)
    if name in DECIMAL:
        return len(str(abs(v))) <= 38
    return True


def frame_value(v: Any) -> Any:
    return int(v) if isinstance(v, Decimal) else v


@pytest.mark.timeout(900)  # 300 examples, each a client and a page: past 300 s on a loaded machine
@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(page=st.lists(items(), min_size=1, max_size=4), ascii_only=st.booleans())
def test_dicts_equal_json_loads_under_the_rule_and_frames_agree(server: Server, page: list[Obj],
                                                                   ascii_only: bool) -> None:
    # one block twice in a page (by its blockHash, the last one given, and blockNumber) is refused
    # by the pager as a duplicate (tests/test_pager_repeats.py): pages here hold each block once
    hashes = [h for h in (dict(item.entries).get("blockHash") for item in page) if h is not None]
    assume(len(set(hashes)) == len(hashes))
    written = [write(item, ascii_only) for item in page]
    server.page([text for text, _ in written])
    refused = any(r for _, r in written)
    want = [expected(json.loads(text)) for text, _ in written]
    # a block number or count past UInt64 is refused by the one rule of decimal digits on both paths
    # (tests/test_decimal_rule.py); an amount past 38 digits is kept exactly in dicts
    misfit = any(not fits_frame(name, w.get(name)) for w in want for name in UINT64)
    with client(server) as data:
        try:
            dicts = list(data.blocks("43114"))
        except ad.DecodeError as exc:
            assert refused or misfit, f"refused a page the rule reads: {exc}"
            with pytest.raises(ad.DecodeError):
                data.blocks("43114").to_polars()
            return
        assert not refused and not misfit, "read a page the rule refuses"
        assert len(dicts) == len(want)
        for got, w in zip(dicts, want):
            assert same(got, w), (got, w)
        if not all(fits_frame(c, d.get(c)) for d in dicts for c in COLUMNS):
            with pytest.raises(ad.DecodeError):
                data.blocks("43114").to_polars()
            return
        frame = data.blocks("43114").to_polars()
    assert frame.columns == COLUMNS + ["extra"]
    rows = frame.to_dicts()
    assert len(rows) == len(dicts)
    for row, d in zip(rows, dicts):
        for c in COLUMNS:
            assert frame_value(row[c]) == d.get(c), (c, row[c], d.get(c))
        # the fields of no column, by JSON Pointer, as json.loads reads them
        others = {"/" + k.replace("~", "~0").replace("/", "~1"): v for k, v in d.items() if k not in COLUMNS}
        assert (json.loads(row["extra"]) if row["extra"] is not None else {}) == others


# ---- the four rows of issue 20, on both paths ----

BASE = '"chainId": "43114", "blockNumber": "7", "blockHash": "0xab", "blockTimestamp": 1700000000'


@pytest.mark.parametrize("extra,field,value", [
    ('"extra": 1e400', "extra", "1e400"),
    ('"blockHash": "\\ud800"', "blockHash", "\\ud800"),
    ('"deep": {"list": [1, {"x": -1e400}]}', "deep.list[1].x", "-1e400"),
    ('"extra": "ok\\udfff"', "extra", "\\udfff"),
])
def test_values_the_rule_refuses_are_a_decode_error_naming_the_field_on_both_paths(
        server: Server, extra: str, field: str, value: str) -> None:
    server.page(["{" + BASE + ", " + extra + "}"])
    with client(server) as data:
        with pytest.raises(ad.DecodeError) as on_dicts:
            list(data.blocks("43114"))
        with pytest.raises(ad.DecodeError) as on_pages:
            list(data.blocks("43114").pages())
        with pytest.raises(ad.DecodeError) as on_frame:
            data.blocks("43114").to_polars()
    for exc in (on_dicts, on_pages, on_frame):
        message = str(exc.value)
        assert f'field "{field}"' in message or f'field "{field.split(".")[-1]}"' in message, message
        assert value in message, message


def test_json_integers_are_exact_ints_in_dicts_and_decimals_in_frames(server: Server) -> None:
    server.page(["{" + BASE + ', "gasUsed": 123456789012345678901234567890, "txCount": 12, '
                 '"baseFee": 99999999999999999999999999999999999999, "other": 99999999999999999999999}'])
    with client(server) as data:
        (block,) = list(data.blocks("43114"))
        frame = data.blocks("43114").to_polars()
    assert block["gasUsed"] == 123456789012345678901234567890 and type(block["gasUsed"]) is int
    assert block["baseFee"] == 10**38 - 1
    assert block["other"] == 99999999999999999999999 and type(block["other"]) is int
    assert frame["gasUsed"].to_list() == [Decimal(123456789012345678901234567890)]
    assert frame["baseFee"].to_list() == [Decimal(10**38 - 1)]
    assert frame["txCount"].to_list() == [12]


def test_integers_past_their_column_are_refused_in_frames_and_exact_in_dicts(server: Server) -> None:
    # a count (UInt64) past 2^64 is refused by the one rule in both, with one message
    server.page(["{" + BASE + ', "txCount": 99999999999999999999999}'])
    with client(server) as data:
        for read in (lambda: list(data.blocks("43114")), lambda: data.blocks("43114").to_polars()):
            with pytest.raises(ad.DecodeError, match=r'field "txCount": 99999999999999999999999 is not an integer '
                                                     r'in \[0, 2\^64\)'):
                read()
    server.page(["{" + BASE + ', "gasUsed": ' + "9" * 39 + "}"])
    with client(server) as data:
        assert list(data.blocks("43114"))[0]["gasUsed"] == 10**39 - 1
        with pytest.raises(ad.DecodeError, match='field "gasUsed": ' + "9" * 39 + " is not an integer of at most 38"):
            data.blocks("43114").to_polars()


def test_a_key_given_twice_holds_its_last_value_at_its_first_place(server: Server) -> None:
    server.page(['{"txCount": 1, "blockHash": "0x1", "txCount": 2, "x": {"a": 1, "\\u0061": 3}}'])
    with client(server) as data:
        (block,) = list(data.blocks("43114"))
        frame = data.blocks("43114").to_polars()
    assert list(block.items()) == [("txCount", 2), ("blockHash", "0x1"), ("x", {"a": 3})]
    assert frame["txCount"].to_list() == [2]


def test_surrogate_pairs_are_astral_characters_and_floats_correctly_rounded(server: Server) -> None:
    server.page(["{" + BASE.replace('"0xab"', '"\\ud83d\\ude00"') + ', "f": 2.2250738585072011e-308, "g": -0.0}'])
    with client(server) as data:
        (block,) = list(data.blocks("43114"))
        frame = data.blocks("43114").to_polars()
    assert block["blockHash"] == "😀" and frame["blockHash"].to_list() == ["😀"]
    assert block["f"] == json.loads("2.2250738585072011e-308") and str(block["g"]) == "-0.0"


# ---- single objects: the same rule ----

BLOCK_PATH = "/v1/chains/43114/blocks/5"
REQUIRED = ('"chainId": "43114", "blockNumber": "5", "blockTimestamp": 1700000000, "blockHash": "0xab", '
            '"baseFee": "1", "gasUsed": "2", "gasLimit": "3", "gasCost": "4", "parentHash": "0xcd", '
            '"feesSpent": "5", "cumulativeTransactions": "6"')


def test_single_objects_are_exact_or_refused_naming_the_field(server: Server) -> None:
    server.bodies[BLOCK_PATH] = ("{" + REQUIRED + ', "txCount": 1, "unnamedBig": 123456789012345678901234567890}').encode()
    server.bodies["/v1/health-check"] = b'{"status": "ok", "details": {"n": 18446744073709551616, "m": 1e400}}'
    server.bodies["/v1/chains"] = b'{"chains": [{"chainId": "1", "big": 10000000000000000000000}]}'
    with client(server) as data:
        block = data.block("43114", 5)
        assert block["unnamedBig"] == 123456789012345678901234567890 and type(block["unnamedBig"]) is int
        with pytest.raises(ad.DecodeError, match=r'field "details\.m": 1e400 is past the range of a 64-bit float'):
            data.health()
        assert data.chains()[0]["big"] == 10**22
    server.bodies[BLOCK_PATH] = ("{" + REQUIRED + ', "txCount": 1, "note": "\\ud800"}').encode()
    with client(server) as data, pytest.raises(ad.DecodeError, match='field "note": "\\\\ud800" is not valid text'):
        data.block("43114", 5)
