"""Ids by the rule of each index, and decoding, against a scripted node serving real-format
containers: the published coreth blocks (pre-fork: id = Ethereum hash), the proposervm vectors
(signed: id = sha256 without the signature) and the constructed Granite envelope."""

from __future__ import annotations

import asyncio
import datetime
import decimal
import hashlib
import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _helpers import StubNode, cb58, to_wire_hex

DATA = Path(__file__).parent / "data" / "decode"
UTC = datetime.timezone.utc


def vectors(name: str) -> list[dict[str, Any]]:
    return json.loads((DATA / name).read_text())["vectors"]


def cb58_of_hex(hex_hash: str) -> str:
    return cb58(bytes.fromhex(hex_hash.removeprefix("0x")))


def c_chain_items() -> list[tuple[bytes, str]]:
    """(bytes, published id) of real-format C/block containers, in a fixed order."""
    items = []
    for v in vectors("cchain_blocks.json"):
        if v["name"].startswith("synchronoustest"):
            items.append((bytes.fromhex(v["hex"]), cb58_of_hex(v["expected"]["hash"])))
    granite = next(v for v in vectors("constructed_examples.json") if v["expected"]["typeID"] == 2)
    items.append((bytes.fromhex(granite["hex"]), granite["decoded"]["blockID"]))
    signed = next(v for v in vectors("proposervm_blocks.json") if v["expected"].get("typeID") == 0)
    items.append((bytes.fromhex(signed["hex"]), signed["decoded"]["blockID"]))
    return items


ITEMS = c_chain_items()


def wire(i: int, data: bytes, id_: str) -> dict[str, Any]:
    ts = datetime.datetime(2024, 1, 1, tzinfo=UTC) + datetime.timedelta(seconds=2 * i)
    return {"id": id_, "bytes": to_wire_hex(data), "timestamp": ts.isoformat().replace("+00:00", "Z"),
            "encoding": "hex", "index": str(i)}


@pytest.fixture
def node() -> StubNode:
    with StubNode() as stub:
        stub.containers = [wire(i, data, id_) for i, (data, id_) in enumerate(ITEMS)]
        yield stub


def client(node: StubNode, **kwargs: Any) -> ad.IndexClient:
    return ad.IndexClient(node.url, backoff=0.01, max_backoff=0.05, **kwargs)


def test_real_format_ids_verify_by_the_rule_of_their_kind(node: StubNode) -> None:
    # None of these ids is sha256(bytes): pre-fork blocks carry their Ethereum hash, signed
    # and Granite envelopes the sha256 of their bytes without the signature.
    for data, id_ in ITEMS:
        assert cb58(hashlib.sha256(data).digest()) != id_
    with client(node) as c:
        rows = list(c.chain("C/block").range(0))
    assert [r["id"] for r in rows] == [id_ for _, id_ in ITEMS]
    assert [r["bytes"] for r in rows] == [data for data, _ in ITEMS]


def test_an_id_that_matches_no_rule_raises_integrity_error_naming_rule_and_expected_id(node: StubNode) -> None:
    wrong = cb58(hashlib.sha256(ITEMS[2][0]).digest())  # sha256(bytes): not the rule for a raw C block
    node.containers[2]["id"] = wrong
    with client(node) as c:
        with pytest.raises(ad.IntegrityError) as info:
            c.chain("C/block").container(2)
    message = str(info.value)
    assert f"C/block container 2: id {wrong} does not match keccak256 of the RLP header" in message
    assert f"expected {ITEMS[2][1]}" in message
    # verify_ids=False is the way out for chains whose VM derives ids another way
    with client(node, verify_ids=False) as c:
        assert c.chain("C/block").container(2)["id"] == wrong


def test_signed_envelope_with_a_wrong_id_names_the_envelope_rule(node: StubNode) -> None:
    last = len(ITEMS) - 1
    data = ITEMS[last][0]
    node.containers[last]["id"] = cb58(hashlib.sha256(data).digest())
    with client(node) as c, pytest.raises(ad.IntegrityError) as info:
        c.chain("C/block").last_accepted()
    assert "sha256 of the proposervm block without its signature: expected " + ITEMS[last][1] in str(info.value)


def test_decoded_frame_has_typed_columns_and_published_values(node: StubNode) -> None:
    with client(node) as c:
        df = c.chain("C/block").range(0, decode=True).to_polars()
    assert df.height == len(ITEMS)
    assert df.columns[:3] == ["id", "timestamp", "index"]
    assert df.schema["number"] == pl.UInt64
    assert df.schema["time"] == pl.Datetime("ns", "UTC")
    assert df.schema["base_fee"] == pl.Decimal(38, 0)
    blocks = vectors("cchain_blocks.json")
    fixture = [v for v in blocks if v["name"].startswith("synchronoustest")]
    n = len(fixture)
    assert df["number"].to_list()[:n] == [v["expected"]["number"] for v in fixture]
    assert df["hash"].to_list()[:n] == [v["expected"]["hash"] for v in fixture]
    assert df["block_kind"].to_list() == ["pre_fork"] * n + ["granite", "stateless"]
    # the Granite envelope wraps a real coreth block; the signed vector wraps a 1-byte test block
    assert df["number"][n] == 3 and df["epoch_number"][n] == 1 and df["pchain_height"][n] == 101
    assert df["proposer"][n] is None
    assert df["proposer"][n + 1] == "NodeID-KYh7jUWY3yE1YDvNT8WqADkgkiFMqYTkV"
    assert df["decode_error"][n + 1].startswith("block: expected an RLP list")
    assert df["number"][n + 1] is None
    assert df["decode_error"][:n + 1].null_count() == n + 1
    # Granite header fields appear only on the Granite block of the fixture
    granite_row = df.filter(pl.col("hash") == fixture[-1]["expected"]["hash"])
    assert granite_row["time_milliseconds"].to_list() == [1608354000000]
    pre_ap3 = df.filter(pl.col("number") == 2)
    assert pre_ap3["base_fee"].to_list() == [None]
    txs = ad.transactions(df)
    assert txs.height == int(df["tx_count"].sum())
    expected_hashes = [h for v in fixture for h in v["expected"].get("txHashes_from_rpc", [])]
    assert sorted(txs["hash"].to_list()) == sorted(expected_hashes + [
        t["hash"] for v in blocks if v["name"] == "TestBlockEncoding" for t in v["decoded"]["transactions"]])
    assert txs.schema["value"] == pl.Decimal(38, 0)
    assert set(txs["type"].to_list()) == {0, 2}


def test_iteration_batches_and_parquet_agree_with_to_polars(node: StubNode, tmp_path: Path) -> None:
    with client(node) as c:
        chain = c.chain("C/block")
        whole = chain.range(0, decode=True).to_polars()
        rows = list(chain.range(0, decode=True))
        batches = pl.concat(list(chain.range(0, batch_size=4).batches(decode=True)))
        written = chain.range(0).write_parquet(tmp_path / "c.parquet", decode=True)
        raw = chain.range(0).to_polars()
    assert [r["number"] for r in rows] == whole["number"].to_list()
    assert isinstance(rows[0]["base_fee"], (decimal.Decimal, type(None)))
    assert rows[-1]["decode_error"] is not None
    assert batches.equals(whole)
    assert written == len(ITEMS)
    assert pl.read_parquet(tmp_path / "c.parquet")["hash"].to_list() == whole["hash"].to_list()
    assert "encoding" in raw.columns and "number" not in raw.columns


def test_strict_decoding_raises_decode_error_with_the_index(node: StubNode) -> None:
    last = len(ITEMS) - 1
    with client(node) as c:
        chain = c.chain("C/block")
        with pytest.raises(ad.DecodeError) as info:
            chain.range(0).to_polars(decode="strict")
        assert info.value.index == last
        assert info.value.id == ITEMS[last][1]
        assert info.value.path == "C/block"
        assert "could not decode C/block container" in str(info.value)
        assert chain.range(0, last, decode="strict").to_polars().height == last


def test_single_containers_decode(node: StubNode) -> None:
    with client(node) as c:
        chain = c.chain("C/block")
        first = chain.container(0, decode=True)
        by_id = chain.container(id=ITEMS[1][1], decode=True)
        last = chain.last_accepted(decode=True)
    assert first["number"] == 0 and first["index"] == 0 and first["decode_error"] is None
    assert by_id["number"] == 2 and by_id["hash"] == "0x" + bytes.fromhex(
        vectors("cchain_blocks.json")[7]["expected"]["hash"][2:]).hex()
    assert last["block_kind"] == "stateless" and last["proposer"].startswith("NodeID-")


def test_bad_decode_arguments_fail_before_any_request(node: StubNode) -> None:
    with client(node) as c:
        with pytest.raises(ad.InvalidParameterError) as info:
            c.chain("C/block").range(0, decode="yes")
        assert info.value.param == "decode"
        with pytest.raises(ad.InvalidParameterError) as info:
            c.chain("X/vtx").range(0, decode=True)
        assert info.value.param == "path" and "X/vtx" in str(info.value)
        with pytest.raises(ad.InvalidParameterError):
            c.chain("X/vtx").last_accepted(decode=True)
    assert node.requests == []


def test_async_twins_decode_the_same(node: StubNode) -> None:
    async def main() -> tuple[pl.DataFrame, list[dict[str, Any]], dict[str, Any], list[pl.DataFrame]]:
        async with ad.AsyncIndexClient(node.url) as c:
            chain = c.chain("C/block")
            df = await chain.range(0, decode=True).to_polars()
            rows = [r async for r in chain.range(0, decode=True)]
            one = await chain.container(0, decode=True)
            frames = [b async for b in chain.range(0).batches(decode=True)]
            return df, rows, one, frames

    df, rows, one, frames = asyncio.run(main())
    with client(node) as c:
        expected = c.chain("C/block").range(0, decode=True).to_polars()
    assert df.equals(expected)
    assert [r["hash"] for r in rows] == expected["hash"].to_list()
    assert one["number"] == 0
    assert pl.concat(frames).equals(expected)


def test_follow_decodes(node: StubNode) -> None:
    with client(node) as c:
        follower = c.chain("C/block").follow(0, decode=True, poll_interval=0.01)
        got = [next(follower) for _ in range(3)]
        follower.close()
    assert [r["index"] for r in got] == [0, 1, 2]
    assert [r["number"] for r in got] == [0, 2, 3]


def test_bytes_you_already_have() -> None:
    data, id_ = ITEMS[0]
    row = ad.decode_container("C/block", data)
    assert row["number"] == 0 and row["inner_id"] == id_ and row["bytes"] == data
    frame = pl.DataFrame({"tag": ["a", "b"], "bytes": [data, b"\x00\x01"]})
    decoded = ad.decode_frame("C/block", frame)
    assert decoded["tag"].to_list() == ["a", "b"]
    assert decoded["number"].to_list() == [0, None]
    assert decoded["decode_error"][1] is not None
    with pytest.raises(ad.DecodeError) as info:
        ad.decode_frame("C/block", frame, strict=True)
    assert info.value.index is None and "item 1" in str(info.value)
    with pytest.raises(ad.InvalidParameterError) as info:
        ad.decode_frame("C/block", frame, column="tag")
    assert info.value.param == "column"
    with pytest.raises(ad.InvalidParameterError):
        ad.decode_container("Q/block", data)


def colliding_apricot_block() -> bytes:
    """An ApricotProposalBlock (a RewardValidatorTx) whose bytes are also, in full, an unsigned
    stateless proposervm envelope: type id 0 in both codecs, the envelope reading zero certificate
    and inner lengths and a 20-byte signature out of the staker tx id."""
    staker = bytearray(b"\x5a" * 32)
    staker[4:12] = bytes(8)
    staker[12:16] = (20).to_bytes(4, "big")
    return (bytes(6) + b"\x11" * 32 + (1234).to_bytes(8, "big") + (20).to_bytes(4, "big")
            + bytes(staker) + bytes(4))


@pytest.mark.parametrize("path", ["C/block", "P/block", "X/block"])
def test_a_signed_block_labelled_sha256_of_all_its_bytes_is_refused_on_every_block_index(path: str) -> None:
    signed = [v for v in vectors("proposervm_blocks.json") if "error" not in v["decoded"]]
    assert len(signed) == 2
    with StubNode() as stub:
        stub.containers = [wire(i, bytes.fromhex(v["hex"]), cb58(hashlib.sha256(bytes.fromhex(v["hex"])).digest()))
                           for i, v in enumerate(signed)]
        with ad.IndexClient(stub.url, max_retries=0) as c:
            for i, v in enumerate(signed):
                with pytest.raises(ad.IntegrityError) as info:
                    c.chain(path).container(i)
                message = str(info.value)
                assert f"{path} container {i}: id {stub.containers[i]['id']} does not match sha256 of the " \
                       f"proposervm block without its signature: expected {v['decoded']['blockID']}" in message
            with pytest.raises(ad.IntegrityError):
                c.chain(path).range(0).to_polars()
        # labelled by the envelope rule, the same bytes pass
        for i, v in enumerate(signed):
            stub.containers[i]["id"] = v["decoded"]["blockID"]
        with ad.IndexClient(stub.url, max_retries=0) as c:
            assert [r["id"] for r in c.chain(path).range(0)] == [v["decoded"]["blockID"] for v in signed]


def test_an_envelope_shaped_apricot_block_keeps_its_sha256_id_on_p_block_only() -> None:
    data = colliding_apricot_block()
    id_ = cb58(hashlib.sha256(data).digest())
    row = ad.decode_container("P/block", data)
    assert row["block_kind"] == "pre_fork" and row["inner_id"] == id_ and row["height"] == 1234
    with StubNode() as stub:
        stub.containers = [wire(0, data, id_)]
        with ad.IndexClient(stub.url, max_retries=0) as c:
            got = c.chain("P/block").container(0)
            assert (got["id"], got["bytes"]) == (id_, data)
            for path in ("X/block", "C/block"):
                with pytest.raises(ad.IntegrityError, match=f"{path} container 0: id {id_} does not match sha256 "
                                                             "of the proposervm block without its signature"):
                    c.chain(path).container(0)
