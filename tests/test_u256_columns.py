"""uint256 amounts and ids are held exactly whatever their size (issue 34, section 1): a page
mixing 2^256 - 1, 10^38, 10^38 - 1 and 0 walks through iteration, ``to_polars``,
``write_parquet`` and the CLI (scripted server), each amount as its exact decimal text with a
``Float64`` companion, the dicts as exact ``int``s; the schema is the same on every page."""

from __future__ import annotations

import polars as pl
import pytest

from _cli import cli
from test_endpoints import OWNER, scripted  # noqa: F401  (the scripted-server fixture)

import avax_data as ad

MAX = 2**256 - 1
VALUES = [MAX, 10**38, 10**38 - 1, 0]
ROUTE = f"/v1/chains/43114/addresses/{OWNER}/transactions:listErc20"
TX_ROUTE = f"/v1/chains/43114/addresses/{OWNER}/transactions"


def transfer(n: int, value: int | str | None) -> dict[str, object]:
    return {"blockNumber": str(1000 - n), "blockTimestamp": 1700000000 - n, "txHash": f"0x{n:064x}",
            "logIndex": n, "value": str(value) if isinstance(value, int) else value,
            "erc20Token": {"address": "0x" + "1" * 40, "decimals": 18, "symbol": "SPAM"}}


def serve(scripted, values: list[int | str | None]) -> None:  # noqa: F811
    """The transfers of ``values`` as pages of two (the last page shorter)."""
    pages: dict[str | None, object] = {}
    for k in range(0, len(values), 2):
        token = None if k == 0 else f"p{k}"
        page: dict[str, object] = {"transactions": [transfer(k + j, v) for j, v in enumerate(values[k:k + 2])]}
        if k + 2 < len(values):
            page["nextPageToken"] = f"p{k + 2}"
        pages[token] = page
    scripted.pages[ROUTE] = pages


def test_every_size_of_uint256_reaches_frames_dicts_and_parquet_exactly(scripted, tmp_path) -> None:  # noqa: F811
    mixed = VALUES + [None, 5, MAX - 1]
    serve(scripted, mixed)
    with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
        frame = data.erc20_transfers("43114", OWNER).to_polars()
        rows = list(data.erc20_transfers("43114", OWNER))
        written = data.erc20_transfers("43114", OWNER).write_parquet(tmp_path / "t.parquet")
    assert frame.schema["value"] == pl.String and frame.schema["valueFloat"] == pl.Float64
    assert frame.columns.index("valueFloat") == frame.columns.index("value") + 1
    want = [None if v is None else str(v) for v in mixed]
    assert frame["value"].to_list() == want
    assert frame["valueFloat"].to_list() == [None if v is None else float(v) for v in mixed]
    assert frame["valueFloat"][0] == pytest.approx(1.157920892373162e77, rel=1e-15)
    # dicts: exact ints of any size, and no companion (it is a frame column)
    assert [r["value"] for r in rows] == mixed and all("valueFloat" not in r for r in rows)
    assert written == len(mixed)
    back = pl.read_parquet(tmp_path / "t.parquet")
    assert back.equals(frame) and back.schema == frame.schema
    # an exact sort by the recipe of the guide: the float, then the text's length, then the text
    ordered = frame.drop_nulls("value").sort(["valueFloat", pl.col("value").str.len_chars(), "value"])
    assert [int(v) for v in ordered["value"]] == sorted(v for v in mixed if v is not None)


def test_each_page_alone_has_the_schema_of_all(scripted) -> None:  # noqa: F811
    schemas = []
    for values in ([0], [MAX], [None], [10**38 - 1]):
        serve(scripted, values)
        with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
            schemas.append(data.erc20_transfers("43114", OWNER).to_polars().schema)
    assert all(s == schemas[0] for s in schemas)


@pytest.mark.parametrize("bad, shown", [(str(2**256), str(2**256)), ("-1", '"-1"'), ("1.5", '"1.5"'),
                                        ("0x10", '"0x10"')])
def test_what_is_no_uint256_is_refused_naming_field_and_value(scripted, bad, shown) -> None:  # noqa: F811
    serve(scripted, [1, bad])
    with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
        with pytest.raises(ad.DecodeError, match=r'field "value": .* is not an integer in \[0, 2\^256\)'):
            data.erc20_transfers("43114", OWNER).to_polars()
        with pytest.raises(ad.DecodeError, match=r'is not an integer in \[0, 2\^256\)'):
            list(data.erc20_transfers("43114", OWNER))


def test_nested_transfers_of_a_transaction_keep_their_amounts(scripted) -> None:  # noqa: F811
    native = {"blockNumber": "7", "blockTimestamp": 1700000000, "txHash": "0x" + "a" * 64, "value": "0",
              "txType": 2}
    scripted.pages[TX_ROUTE] = {None: {"transactions": [
        {"nativeTransaction": native, "erc20Transfers": [{"value": str(MAX), "logIndex": 3}, {"value": "0"}]}]}}
    with ad.DataClient(base_url=scripted.url, max_retries=0) as data:
        frame = data.transactions("43114", OWNER).to_polars()
        row = next(iter(data.transactions("43114", OWNER)))
    transfers = frame["erc20Transfers"][0]
    assert [t["value"] for t in transfers] == [str(MAX), "0"]
    assert [t["valueFloat"] for t in transfers] == [float(MAX), 0.0]
    assert [t["logIndex"] for t in transfers] == [3, None]
    assert frame["nativeTransaction"].struct.field("txType").dtype == pl.UInt64
    assert row["erc20Transfers"][0]["value"] == MAX and row["nativeTransaction"]["value"] == 0


def test_the_cli_exports_uint256_exactly(scripted, capsys, tmp_path) -> None:  # noqa: F811
    serve(scripted, VALUES)
    for suffix in ("parquet", "csv", "jsonl"):
        out = tmp_path / f"x.{suffix}"
        result = cli(capsys, "data", "erc20-transfers", "43114", OWNER, "--base-url", scripted.url,
                     "--out", str(out), "--quiet")
        assert result.code == 0, result.err
        if suffix == "parquet":
            frame = pl.read_parquet(out)
        elif suffix == "csv":
            frame = pl.read_csv(out, infer_schema=False)
        else:
            frame = pl.read_ndjson(out, infer_schema_length=None)
        assert [str(v) for v in frame["value"].to_list()] == [str(v) for v in VALUES], suffix
