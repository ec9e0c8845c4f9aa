"""``columns=`` on index ranges: every consumer hands out the selected columns with the values
of the full decode, in the order given; a list of structs is named whole or by field; bad
selections are refused before any request, naming the column and what the frame has."""

from __future__ import annotations

import asyncio
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad

N = 300
PICK = ["transactions.to", "number", "transactions.value", "hash"]


@pytest.fixture(scope="module")
def cblock(client: ad.IndexClient):
    return client.chain("C/block")


@pytest.fixture(scope="module")
def full(cblock) -> pl.DataFrame:
    return cblock.range(0, N, decode=True).to_polars()


def expected(full: pl.DataFrame) -> pl.DataFrame:
    """The full decode's values of ``PICK``, in its order."""
    txs = pl.col("transactions").list.eval(pl.struct(pl.element().struct.field("to"), pl.element().struct.field("value")))
    return full.select(txs, "number", "hash")


def test_to_polars_hands_out_the_full_decodes_values_in_the_order_given(cblock, full):
    got = cblock.range(0, N, decode=True, columns=PICK).to_polars()
    assert got.columns == ["transactions", "number", "hash"]
    assert got.schema["transactions"] == pl.List(pl.Struct({"to": pl.String, "value": pl.Decimal(38, 0)}))
    assert got.equals(expected(full))
    assert got["transactions"].list.len().sum() > N, "the emulator's blocks hold transactions"


def test_iteration_batches_and_parquet_hand_out_the_same_columns(cblock, full, tmp_path: Path):
    want = expected(full)
    rows = list(cblock.range(0, 40, decode=True, columns=PICK))
    assert [list(r) for r in rows[:1]] == [["transactions", "number", "hash"]]
    assert [r["number"] for r in rows] == want["number"].to_list()[:40]
    assert [r["hash"] for r in rows] == want["hash"].to_list()[:40]
    assert [[t["to"] for t in r["transactions"]] for r in rows] == [
        [t["to"] for t in ts] for ts in want["transactions"].to_list()[:40]
    ]
    frames = list(cblock.range(0, N, batch_size=128, decode=True, columns=PICK).batches())
    assert [f.height for f in frames] == [128, 128, 44]
    assert pl.concat(frames).equals(want)
    path = tmp_path / "picked.parquet"
    assert cblock.range(0, N, decode=True, columns=PICK).write_parquet(path) == N
    assert pl.read_parquet(path).equals(want)
    done = cblock.range(0, N, decode=True, columns=["number", "tx_count"]).write_dataset(tmp_path / "ds", chunk=100)
    assert done["rows_written"] == N and done["partitions_written"] == 3
    got = pl.read_parquet(tmp_path / "ds" / "**" / "*.parquet").sort("number")
    assert got.columns == ["number", "tx_count"] and got.equals(full.select("number", "tx_count").sort("number"))


def test_a_resumed_walk_keeps_its_selection(cblock, full):
    rng = cblock.range(0, N, batch_size=50, decode=True, columns=["number", "tx_count"])
    for row in rng:
        if row["number"] == full["number"][99]:
            break
    rest = rng.to_polars()
    assert rest.columns == ["number", "tx_count"]
    assert rest.equals(full.select("number", "tx_count")[rng.next_index - rest.height :])
    assert rest["number"].to_list() == full["number"].to_list()[100:]


def test_async_to_polars_and_senders(emu: ad.Emulator, full):
    async def walk() -> tuple[pl.DataFrame, pl.DataFrame]:
        async with ad.AsyncIndexClient(emu.url) as client:
            chain = client.chain("C/block")
            picked = await chain.range(0, N, decode=True, columns=PICK).to_polars()
            senders = await chain.range(0, 60, decode="senders", columns=["transactions.from", "index"]).to_polars()
            whole = await chain.range(0, 60, decode="senders").to_polars()
        return picked, senders.with_columns(whole=whole["transactions"])

    picked, senders = asyncio.run(walk())
    assert picked.equals(expected(full))
    got = senders["transactions"].explode().struct.field("from")
    want = senders["whole"].explode().struct.field("from")
    assert got.drop_nulls().len() == got.len() > 0 and got.equals(want)
    assert senders["index"].to_list() == list(range(60))


def test_raw_walks_select_too(cblock):
    got = cblock.range(0, 10, columns="index,id").to_polars()
    assert got.columns == ["index", "id"] and got["index"].to_list() == list(range(10))


REFUSED = [
    (["number", "gas_usd"], 'invalid columns="gas_usd": one of id, timestamp, index, ', "(did you mean 'gas_used'?)"),
    (["transactions.hsh"], 'invalid columns="transactions.hsh": a field of transactions: one of block_number, ',
     "(did you mean 'hash'?)"),
    (["number", "number"], 'invalid columns="number": each column once', ""),
    (["transactions", "transactions.to"], 'invalid columns="transactions.to": each column once', ""),
    ([], "invalid columns=[]: a list of at least one of id, timestamp, index, ", "decode_error, bytes"),
    (["number", 3], "invalid columns=3: a list of str or a comma-separated str", ""),
]


@pytest.mark.parametrize(("columns", "start", "end"), REFUSED)
def test_bad_selections_are_refused_before_any_request(columns, start, end):
    # Nothing listens there: a request would fail with a connection error, not this one.
    with ad.IndexClient("http://127.0.0.1:9", max_retries=0) as client:
        with pytest.raises(ad.InvalidParameterError) as caught:
            client.chain("C/block").range(0, 10, decode=True, columns=columns)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).startswith(start) and str(caught.value).endswith(end), str(caught.value)


def test_a_decode_override_is_checked_against_the_selection(cblock):
    rng = cblock.range(0, 10, decode=True, columns=["number"])
    with pytest.raises(ad.InvalidParameterError, match='invalid columns="number": one of id, bytes, timestamp, index, encoding$'):
        rng.to_polars(decode=False)
    assert rng.to_polars(decode="strict")["number"].len() == 10
