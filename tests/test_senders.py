"""Senders of C-chain transactions recovered from their signatures (``senders=True``): the same
``from`` the Data API reports for the same transactions, in order, across the upgrades and the
proposervm fork; a bad signature is a DecodeError naming the item and the transaction."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from avax_data import _native
from avax_data.exceptions import DecodeError, InvalidParameterError

# The signed transaction of the EIP-155 text (key 0x4646…46, chain id 1) and its sender.
EIP155_TX = bytes.fromhex(
    "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe"
    "537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83")
EIP155_SENDER = "0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f"


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=3, containers=120, data_blocks_per_chain=120) as emulator:
        yield emulator


def api_senders(url: str, number: int) -> list[str]:
    """The Data API's ``from`` of block ``number``'s transactions, in block order."""
    target = f"{url}/v1/chains/43114/blocks/{number}/transactions?pageSize=100"
    with urllib.request.urlopen(target, timeout=30) as response:
        txs = json.loads(response.read())["transactions"]
    return [t["from"]["address"] for t in sorted(txs, key=lambda t: t["blockIndex"])]


def raw_block(txs: list[bytes]) -> bytes:
    """``rlp([header, [txs], [], 0, ""])`` with a stand-in header, for small tx lists."""
    body = b"".join(txs)
    assert len(body) < 256
    tx_list = bytes([0xF8, len(body)]) + body
    payload = b"\xc1\x80" + tx_list + b"\xc0\x80\x80"
    assert len(payload) < 256
    return bytes([0xF8, len(payload)]) + payload


def test_recovered_senders_are_the_data_apis_from_across_the_fork(emu: Any) -> None:
    blocks = ad.IndexClient(emu.url).chain("C/block").range(10, 60, decode=True).to_polars()
    txs = ad.transactions(blocks, senders=True)
    assert txs.columns[:4] == ["block_number", "position", "hash", "from"]
    assert txs.schema["from"] == pl.String
    assert txs.height == blocks["tx_count"].sum() > 0
    assert set(txs["type"].to_list()) == {0, 2}, "legacy and EIP-1559 transactions"
    for number in (10, 15, 16, 47, 48, 59):
        got = txs.filter(pl.col("block_number") == number).sort("position")["from"].to_list()
        assert got == api_senders(emu.url, number), number
    # Without the option, the columns are unchanged.
    assert "from" not in ad.transactions(blocks).columns


def test_native_senders_keep_item_order_over_threads(emu: Any) -> None:
    raw = ad.IndexClient(emu.url).chain("C/block").range(40, 56).to_polars()["bytes"].to_list()
    one = _native.c_block_senders(raw, threads=1)
    assert _native.c_block_senders(raw, threads=3) == one == _native.c_block_senders(raw)
    assert [s[:1] for s in one if s] == [[api_senders(emu.url, 40 + i)[0]] for i, s in enumerate(one) if s]
    assert _native.c_block_senders([]) == []


def test_the_eip155_vector_recovers_its_published_sender() -> None:
    assert _native.c_block_senders([raw_block([EIP155_TX])]) == [[EIP155_SENDER]]


def test_a_high_s_signature_is_a_decode_error_naming_the_item_and_the_tx() -> None:
    order = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
    s = int.from_bytes(EIP155_TX[-32:], "big")
    high = bytearray(EIP155_TX)
    high[-32:] = (order - s).to_bytes(32, "big")
    high[-67] = 0x26  # v 37 -> 38: the same signer, if high s were allowed
    with pytest.raises(DecodeError) as info:
        _native.c_block_senders([raw_block([EIP155_TX]), raw_block([EIP155_TX, bytes(high)])])
    message = str(info.value)
    assert "item 1" in message and "transaction 1 (0x" in message, message
    assert "above half the curve order (EIP-2)" in message, message


def test_senders_need_the_bytes_column(emu: Any) -> None:
    blocks = ad.IndexClient(emu.url).chain("C/block").range(0, 2, decode=True).to_polars()
    with pytest.raises(InvalidParameterError, match="senders"):
        ad.transactions(blocks.drop("bytes"), senders=True)
