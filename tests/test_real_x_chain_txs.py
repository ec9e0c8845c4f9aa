"""Three X-Chain transactions the Data API sent (Fuji, ``listLatestPrimaryNetworkTransactions``),
recorded by a wallet's module as test fixtures (``tests/fixtures/real/data_x_tx_fuji_*.json``, the
provenance in each and in the folder's README).

Each record is one item of an answer's ``transactions`` list: the page around it was not kept, so
the replay serves it as the only item of a page (no ``nextPageToken``: the page is not full).
Before the replays, the records are held to the protocol, which is why they are judged real and
complete: each transaction's id recomputes from the record's own fields, each UTXO's id from its
creating transaction and index, each signer's address from its public key; and the three agree.
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _avax_tx import address_of_key, utxo_bytes, utxo_id, x_tx_id
from test_real_answers import recorded, same, serve

UTC = dt.timezone.utc
FUJI_ID = 5
FUJI_X = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"
FUJI_C = "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp"
P_CHAIN_ID = "11111111111111111111111111111111LpoYY"
AVAX_FUJI = "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK"
WALLET = "fuji1utacgpu8arf7sq0vdfh0zk0pukgfk8nyfxsh2k"
PATH = "/v1/networks/fuji/blockchains/x-chain/transactions"
KINDS = ["base", "export", "import"]
#: What a spent output carries and an unspent one leaves out.
SPENT = ("consumingTxHash", "consumingTxTimestamp", "credentials")

#: The frame column types of a replayed X-chain transaction, in one place (the list's frame is the
#: union of the P-, X- and C-chain variants; these are the X-chain's fields).
FRAME_TYPES: dict[str, pl.DataType] = {
    "txHash": pl.String(),
    "chainFormat": pl.String(),
    "blockHash": pl.String(),
    "blockHeight": pl.UInt64(),
    "txType": pl.String(),
    "timestamp": pl.Datetime("ns", "UTC"),
    "sourceChain": pl.String(),
    "destinationChain": pl.String(),
    "memo": pl.String(),
    "extra": pl.String(),
}
#: The types inside a UTXO of ``consumedUtxos``/``emittedUtxos``.
UTXO_TYPES: dict[str, pl.DataType] = {
    "outputIndex": pl.UInt64(),
    "timestamp": pl.Datetime("ns", "UTC"),
    "consumingTxTimestamp": pl.Datetime("ns", "UTC"),
    "locktime": pl.UInt64(),
    "threshold": pl.UInt64(),
    "utxoId": pl.String(),
}


def body(kind: str) -> dict[str, Any]:
    """The recorded transaction ``kind`` (``base``, ``export``, ``import``)."""
    return recorded(f"data_x_tx_fuji_{kind}.json")[1]


def utxos(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [*record["consumedUtxos"], *record["emittedUtxos"]]


# --- the records hold to the protocol (why they are judged real and complete) ----------------------


@pytest.mark.parametrize("kind", KINDS)
def test_each_transaction_id_recomputes_from_its_record(kind: str) -> None:
    provenance, record = recorded(f"data_x_tx_fuji_{kind}.json")
    assert provenance["part"] == "transactions[]" and provenance["trimmed"] is False
    assert x_tx_id(record, FUJI_ID, FUJI_X) == record["txHash"]
    # Adversarial: one nAVAX more on an output, or an input left out, and the id no longer holds.
    changed = {**record, "emittedUtxos": [dict(u) for u in record["emittedUtxos"]]}
    changed["emittedUtxos"][0]["asset"] = {**changed["emittedUtxos"][0]["asset"]}
    changed["emittedUtxos"][0]["asset"]["amount"] = str(int(record["emittedUtxos"][0]["asset"]["amount"]) + 1)
    assert x_tx_id(changed, FUJI_ID, FUJI_X) != record["txHash"]
    assert x_tx_id({**record, "consumedUtxos": []}, FUJI_ID, FUJI_X) != record["txHash"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_utxo_id_derives_from_its_creating_tx_and_index(kind: str) -> None:
    record = body(kind)
    for utxo in utxos(record):
        assert utxo_id(utxo["creationTxHash"], int(utxo["outputIndex"])) == utxo["utxoId"], utxo
    assert [int(u["outputIndex"]) for u in record["emittedUtxos"]] == list(range(len(record["emittedUtxos"])))
    assert all(u["creationTxHash"] == record["txHash"] for u in record["emittedUtxos"])


@pytest.mark.parametrize("kind", KINDS)
def test_each_signer_is_the_owner_of_what_it_spends(kind: str) -> None:
    for utxo in body(kind)["consumedUtxos"]:
        assert [address_of_key("fuji", c["publicKey"]) for c in utxo["credentials"]] == utxo["addresses"]


def test_the_three_records_agree() -> None:
    base, export, imported = body("base"), body("export"), body("import")
    # The export's first output is what the base transaction spends, nine months later: the
    # same id, amount and signature; as an output it carries its spender's hash and time.
    output, spent = export["emittedUtxos"][0], base["consumedUtxos"][0]
    assert output["utxoId"] == spent["utxoId"] and output["asset"] == spent["asset"]
    assert output["credentials"] == spent["credentials"]
    assert (output["consumingTxHash"], output["consumingTxTimestamp"]) == (base["txHash"], base["timestamp"])
    # The export sends its second output to the P-Chain, spent there six seconds later.
    assert (export["destinationChain"], export["emittedUtxos"][1]["consumedOnChainId"]) == (P_CHAIN_ID, P_CHAIN_ID)
    assert export["emittedUtxos"][1]["consumingTxTimestamp"] - export["timestamp"] == 6
    # The import spends an output the C-Chain created.
    assert imported["sourceChain"] == imported["consumedUtxos"][0]["createdOnChainId"] == FUJI_C
    assert {a for r in (base, export, imported) for u in r["consumedUtxos"] for a in u["addresses"]} == {WALLET}


# --- what they teach ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_spent_utxo_in_a_transaction_carries_the_transaction_time(kind: str) -> None:
    record = body(kind)
    for utxo in record["consumedUtxos"]:
        # `timestamp` of an input is the spending transaction's time, not the output's creation.
        assert utxo["timestamp"] == utxo["consumingTxTimestamp"] == record["timestamp"]
        assert utxo["consumingTxHash"] == record["txHash"]
    for utxo in record["emittedUtxos"]:
        assert utxo["timestamp"] == record["timestamp"]
        # An output carries the spent fields all together once spent, and none before.
        assert all(k in utxo for k in SPENT) or not any(k in utxo for k in SPENT), utxo
    assert body("base")["consumedUtxos"][0]["timestamp"] != body("export")["emittedUtxos"][0]["timestamp"]


@pytest.mark.parametrize("kind", KINDS)
def test_amounts_add_up_and_the_fee_is_a_milli_avax(kind: str) -> None:
    record = body(kind)
    total = {side: sum(int(u["asset"]["amount"]) for u in record[side]) for side in ("consumedUtxos", "emittedUtxos")}
    # `amountUnlocked` is what the inputs hold, `amountCreated` every output, exported ones included.
    assert [a["amount"] for a in record["amountUnlocked"]] == [str(total["consumedUtxos"])]
    assert [a["amount"] for a in record["amountCreated"]] == [str(total["emittedUtxos"])]
    assert total["consumedUtxos"] - total["emittedUtxos"] == 1_000_000
    assert {a["assetId"] for a in [*record["amountUnlocked"], *record["amountCreated"]]} == {AVAX_FUJI}
    # Text where the P-Chain sends numbers: the index and the amount; numbers for the height and times.
    assert all(isinstance(u["outputIndex"], str) and isinstance(u["asset"]["amount"], str) for u in utxos(record))
    assert isinstance(record["blockHeight"], int) and record["memo"] == "0x"
    assert ("sourceChain" in record) == ("destinationChain" in record) == (kind != "base")


# --- the replays ----------------------------------------------------------------------------------


def replay(record: dict[str, Any]) -> tuple[list[dict[str, Any]], pl.DataFrame, list[Any]]:
    """The record served as a one-item page: the dicts and the frame the client makes of it."""
    with serve({PATH: {"transactions": [record]}}) as server, ad.DataClient(base_url=server.url) as data:
        rows = list(data.primary_network_transactions("fuji", "x-chain", addresses=WALLET, sort_order="desc"))
        frame = data.primary_network_transactions("fuji", "x-chain", addresses=WALLET, sort_order="desc").to_polars()
    return rows, frame, server.requests


@pytest.mark.parametrize("kind", KINDS)
def test_x_chain_transactions_replay_exactly_as_dicts(kind: str) -> None:
    record = body(kind)
    rows, _, requests = replay(record)
    # One request each (the page has no token), the wallet's query as recorded.
    assert len(requests) == 2 and {r.path for r in requests} == {PATH}
    assert all(r.query["addresses"] == WALLET and r.query["sortOrder"] == "desc" for r in requests)
    assert len(rows) == 1
    same(rows[0], record)
    row = rows[0]
    assert type(row["blockHeight"]) is int and row["timestamp"] == dt.datetime.fromtimestamp(record["timestamp"], UTC)
    spent = row["consumedUtxos"][0]
    # Amounts are exact ints, the index the integer its text spells, the times UTC.
    assert type(spent["asset"]["amount"]) is int and spent["asset"]["amount"] == int(record["consumedUtxos"][0]["asset"]["amount"])
    assert type(spent["outputIndex"]) is int and spent["consumingTxTimestamp"].utcoffset() == dt.timedelta(0)
    # What the answer left out stays out: an unspent output has no spent fields, not nulls.
    unspent = [u for u in row["emittedUtxos"] if "consumingTxHash" not in u]
    assert all(not any(k in u for k in SPENT) for u in unspent)


@pytest.mark.parametrize("kind", KINDS)
def test_x_chain_transactions_replay_exactly_as_frames(kind: str) -> None:
    record = body(kind)
    _, frame, _ = replay(record)
    assert frame.height == 1
    assert set(record) <= set(frame.columns), sorted(set(record) - set(frame.columns))
    row = frame.row(0, named=True)
    for column in frame.columns:
        if column in record:
            same(row[column], record[column], column, frame=True)
        else:
            # The P- and C-chain variants' columns, and `extra`: every field sent is named above.
            assert row[column] is None, (column, row[column])
    assert {c: frame.schema[c] for c in FRAME_TYPES} == FRAME_TYPES
    inner = frame.schema["emittedUtxos"].inner
    assert {f.name: f.dtype for f in inner.fields if f.name in UTXO_TYPES} == UTXO_TYPES
    # A native amount of 9 decimals is exact in Decimal(38, 0).
    assert row["emittedUtxos"][0]["asset"]["amount"] == int(record["emittedUtxos"][0]["asset"]["amount"])


def test_an_output_that_sends_its_bytes_still_reads() -> None:
    # The document names `utxoBytes` (text: "The bytes of the UTXO"); these records leave it out.
    # Adversarial: the base record with its first output's bytes added, as hex text. A walk must
    # not fail on it (it read as an integer before) and keeps the text in dicts and frames.
    record = copy.deepcopy(body("base"))
    output = record["emittedUtxos"][0]
    output["utxoBytes"] = "0x" + utxo_bytes(output).hex()
    rows, frame, _ = replay(record)
    assert rows[0]["emittedUtxos"][0]["utxoBytes"] == output["utxoBytes"]
    assert frame.row(0, named=True)["emittedUtxos"][0]["utxoBytes"] == output["utxoBytes"]
    assert frame.row(0, named=True)["extra"] is None, "a named field, not an extra one"
    with serve({"/v1/networks/fuji/blockchains/x-chain/utxos": {"utxos": [output]}}) as server, \
            ad.DataClient(base_url=server.url) as data:
        utxo_frame = data.utxos("fuji", "x-chain", addresses=[WALLET]).to_polars()
    assert utxo_frame.schema["utxoBytes"] == pl.String()
    assert utxo_frame["utxoBytes"].to_list() == [output["utxoBytes"]]
