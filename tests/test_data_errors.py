"""Data API client against a scripted HTTP server: each error status, both forms of the error
body's ``message``, undecodable answers, key headers, and unknown fields / enum values."""

from __future__ import annotations


import polars as pl
import pytest

import avax_data as ad
from _helpers import GetServer

KEY = "scripted-key-abcdef012345"


NOT_FOUND = (404, {"message": "Not Found", "error": "Not Found", "statusCode": 404}, {})


class Script(GetServer):
    """Answers each path with what ``on`` set for it (404 otherwise)."""

    def __init__(self):
        self.routes = {}
        super().__init__(lambda request: self.routes.get(request.path, NOT_FOUND))

    def on(self, path, status=200, body=None, headers=None):
        self.routes[path] = (status, body, headers or {})


@pytest.fixture
def server():
    with Script() as script:
        yield script


def body(status, error, message):
    return {"message": message, "error": error, "statusCode": status}


@pytest.mark.parametrize(
    "status,cls",
    [(400, ad.BadRequestError), (401, ad.UnauthorizedError), (403, ad.ForbiddenError), (404, ad.NotFoundError),
     (429, ad.RateLimitError), (500, ad.ServerError), (502, ad.ServerError), (503, ad.ServerError)],
)
@pytest.mark.parametrize("message", ["one message", ["first problem", "second problem"]])
def test_each_status_maps_to_its_exception_with_the_api_message(server, status, cls, message):
    server.on("/v1/health-check", status, body(status, "Some Error", message), {"retry-after": "7"} if status == 429 else {})
    with ad.DataClient(server.url, api_key=KEY, max_retries=0) as c:
        with pytest.raises(cls) as e:
            c.health()
    err = e.value
    assert err.status == status and err.api_message == message
    assert err.method == "GET" and err.url.endswith("/v1/health-check")
    if status == 429:
        assert err.retry_after == 7.0
    assert KEY not in str(err) and KEY not in repr(err)


def test_both_key_headers_are_sent(server):
    server.on("/v1/health-check", 200, {"status": "ok", "info": {}, "error": {}, "details": {}},
              {"ratelimit-policy": "100;w=60", "ratelimit-limit": "100", "ratelimit-remaining": "99"})
    with ad.DataClient(server.url, api_key=KEY) as c:
        c.health()
        assert c.rate_limit == {"policy": "100;w=60", "limit": 100, "remaining": 99, "reset": None}
    headers = {k.lower(): v for k, v in server.requests[-1].headers.items()}
    assert headers["x-glacier-api-key"] == KEY and headers["x-data-api-key"] == KEY
    with ad.DataClient(base_url=server.url) as anon:
        anon.health()
    headers = {k.lower() for k in server.requests[-1].headers}
    assert "x-glacier-api-key" not in headers and "x-data-api-key" not in headers


def test_undecodable_answers_are_decode_errors(server):
    server.on("/v1/health-check", 200, b"<html>oops</html>")
    server.on("/v1/chains", 200, {"nope": []})
    with ad.DataClient(base_url=server.url, max_retries=0) as c:
        with pytest.raises(ad.DecodeError):
            c.health()
        with pytest.raises(ad.DecodeError):
            c.chains()


def test_unknown_fields_and_enum_values_are_kept(server):
    block = {"chainId": "1", "blockNumber": "7", "blockTimestamp": 1700000000, "blockHash": "0xh", "txCount": 1,
             "baseFee": "1", "gasUsed": "2", "gasLimit": "3", "gasCost": "4", "parentHash": "0xp",
             "feesSpent": "36893488147419103232", "cumulativeTransactions": "9", "brandNewField": {"x": 1}}
    server.on("/v1/chains/1/blocks", 200, {"blocks": [block], "nextPageToken": ""})
    msg = {"messageId": "m", "messageNonce": "1", "status": "some_future_status", "receipts": [],
           "messageExecuted": True, "receiptDelivered": True,
           "rewardDetails": {"address": "0x", "decimals": 18, "ercType": "ERC-9999", "price": {"currencyCode": "usd", "value": "1.5"}, "value": "0"}}
    server.on("/v1/icm/messages", 200, {"messages": [msg]})
    with ad.DataClient(base_url=server.url) as c:
        [b] = list(c.blocks("1"))
        assert b["brandNewField"] == {"x": 1} and b["feesSpent"] == 2**65
        df = c.blocks("1").to_polars()
        assert "brandNewField" not in df.columns and int(df["feesSpent"][0]) == 2**65
        [m] = list(c.icm_messages())
        assert m["status"] == "some_future_status" and m["rewardDetails"]["price"]["value"] == 1.5
        df = c.icm_messages().to_polars()
        assert df["status"].to_list() == ["some_future_status"]
        assert df["rewardDetails"].struct.field("ercType").to_list() == ["ERC-9999"]
        assert df["destinationTransaction"].null_count() == 1
        assert df.schema["destinationTransaction"] == pl.Struct


def test_page_token_error_with_list_message(server):
    server.on("/v1/chains/1/blocks", 400, body(400, "Bad Request", ["pageToken is invalid"]))
    with ad.DataClient(base_url=server.url) as c:
        with pytest.raises(ad.PageTokenError) as e:
            list(c.blocks("1", page_token="11111111-2222-4333-8444-555555555555"))
        assert e.value.page_token == "11111111-2222-4333-8444-555555555555"
        assert e.value.api_message == ["pageToken is invalid"]
        # without a token a 400 stays a plain BadRequestError
        with pytest.raises(ad.BadRequestError) as e:
            list(c.blocks("1"))
        assert not isinstance(e.value, ad.PageTokenError)


DATA_NATIVE = ["DataClient", "AsyncDataClient", "Pager", "PagerIterator", "PageIterator", "AsyncPager",
               "AsyncPagerIterator", "AsyncPageIterator"]


def test_data_classes_are_exported_and_documented():
    import inspect

    for name in DATA_NATIVE + ["PageTokenError"]:
        assert name in ad.__all__ and getattr(ad, name) is not None
    for name in DATA_NATIVE:
        cls = getattr(ad, name)
        assert cls is getattr(ad._native, name) and inspect.getdoc(cls), name
        for attr, member in vars(cls).items():
            if not attr.startswith("_"):
                assert inspect.getdoc(member), f"{name}.{attr} has no docstring"
    for attr in ("advance_clock", "set_rate_limit", "set_data_api_require_key", "set_data_api_refused_keys"):
        assert inspect.getdoc(getattr(ad.Emulator, attr)), attr


def test_a_value_too_wide_for_the_frame_is_a_decode_error_not_a_truncation(server):
    server.on("/v1/chains/1/blocks", 200, {"blocks": [{"blockNumber": "1", "feesSpent": "9" * 39}]})
    with ad.DataClient(base_url=server.url) as c:
        pager = c.blocks("1")
        with pytest.raises(ad.DecodeError) as e:
            pager.to_polars()
        assert "feesSpent" in str(e.value)
        assert pager.items_read == 0 and not pager.exhausted  # position unchanged
        [b] = list(pager)  # dicts hold any width (a uint256 amount)
        assert b["feesSpent"] == int("9" * 39)


def test_a_server_that_answers_the_same_next_page_token_forever_raises_after_the_new_rows(server):
    # Every page says nextPageToken "again": the second page would repeat forever.
    server.on("/v1/chains/43114/blocks", body={"blocks": [{"blockNumber": "9"}], "nextPageToken": "again"})
    with ad.DataClient(base_url=server.url, max_retries=0) as data:
        pager = data.blocks("43114", page_size=1)
        got = []
        with pytest.raises(ad.DecodeError, match="answered page token \"again\" again") as info:
            for block in pager:
                got.append(block["blockNumber"])
        assert info.value.page_token == "again"
        # The first page only: the page fetched with 'again' names itself as the next one, so it
        # is not handed out (a resumed walk would otherwise hand its rows out a second time).
        assert got == [9] and pager.items_read == 1 and pager.next_page_token == "again"
        assert len(server.requests) == 2
        with pytest.raises(ad.DecodeError, match="again"):
            got.extend(block["blockNumber"] for block in pager)
        assert got == [9]


def test_a_numeric_next_page_token_is_an_error_not_the_end(server):
    server.on("/v1/chains/43114/blocks", body={"blocks": [{"blockNumber": "9"}], "nextPageToken": 12})
    with ad.DataClient(base_url=server.url, max_retries=0) as data:
        with pytest.raises(ad.DecodeError, match="nextPageToken must be a string, found 12"):
            data.blocks("43114").to_polars()


def test_a_decimal_string_longer_than_python_converts_is_a_decode_error_not_a_bare_value_error() -> None:
    """Python refuses to turn more than 4300 digits into an int (a ValueError): a server sending
    such a blockNumber gets a DecodeError naming the field, in dicts as in frames (the one rule of
    decimal digits refuses it first: it is no UInt64), never a bare ValueError."""
    block = {"chainId": "43114", "blockNumber": "9" * 5000, "blockTimestamp": 1_700_000_000,
             "blockHash": "0x" + "ab" * 32, "txCount": 1, "baseFee": "1", "gasUsed": "2", "gasLimit": "3",
             "gasCost": "4", "parentHash": "0x" + "cd" * 32, "feesSpent": "5", "cumulativeTransactions": "6"}

    with GetServer(lambda request: (200, block if "/blocks/" in request.path else {"blocks": [block]})) as server:
        with ad.DataClient(base_url=server.url, max_retries=0) as data:
            refused = r'field "blockNumber": "9{99}\.\.\. \(5002 bytes\) is not an integer in \[0, 2\^64\)'
            with pytest.raises(ad.DecodeError, match=refused):
                data.block("43114", 5)
            with pytest.raises(ad.DecodeError, match=refused):
                list(data.blocks("43114"))
            with pytest.raises(ad.DecodeError, match="blockNumber"):
                data.blocks("43114").to_polars()
