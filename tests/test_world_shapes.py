"""The shapes a data scientist meets on the emulator's C-Chain (issue 36, section 5), against
``ad.Emulator()``: heavy-tailed activity (a few busy addresses, many one-time ones), a spam token
whose transfers carry 2^256-1, failed transactions, contract deployments and an NFT collection,
each named in ``emu.world["shapes"]`` and each the same fact in the Data API and the ``C/block``
index."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

import polars as pl
import pytest

import avax_data as ad

MAX_U256 = 2**256 - 1
C = "43114"
ZERO = "0x" + "0" * 40


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator() as emulator:
        yield emulator


@pytest.fixture(scope="module")
def data(emu: Any) -> Any:
    with ad.DataClient(emu.url) as client:
        yield client


@pytest.fixture(scope="module")
def shapes(emu: Any) -> dict[str, Any]:
    return emu.world["shapes"]


def decoded_tx(emu: Any, block: int, index: int) -> dict[str, Any]:
    """Transaction ``index`` of C/block container ``block``, decoded."""
    with ad.IndexClient(emu.url) as node:
        frame = node.chain("C/block").range(block, block + 1, decode=True).to_polars()
    txs = ad.transactions(frame, senders=True)
    return txs.filter(pl.col("position") == index).to_dicts()[0]


def test_the_world_names_each_shape(emu: Any, shapes: dict[str, Any]) -> None:
    world = emu.world
    spam = [t for t in world["tokens"] if t["spam"]]
    assert [t["address"] for t in spam] == [shapes["spam_token"]["address"]]
    assert int(shapes["spam_token"]["value"]) == MAX_U256
    assert shapes["busiest_address"] == world["addresses"][0]
    tip = next(c for c in world["chains"] if c["evm_chain_id"] == 43114)["last_block"]
    for key in ("failed_tx", "deployment", "nft_mint"):
        assert 0 <= shapes[key]["block"] <= tip, key
        assert shapes[key]["hash"].startswith("0x") and len(shapes[key]["hash"]) == 66
    # The same world names the same things.
    with ad.Emulator() as again:
        assert again.world["shapes"] == shapes


def test_spam_transfers_carry_2_256_minus_1_in_dicts_and_frames(data: Any, shapes: dict[str, Any]) -> None:
    spam = shapes["spam_token"]["address"]
    rows = list(data.token_transfers(C, spam, limit=30))
    assert len(rows) == 30
    assert all(r["value"] == MAX_U256 for r in rows)
    assert all(r["erc20Token"]["address"] == spam for r in rows)
    frame = data.token_transfers(C, spam, limit=30).to_polars()
    assert frame.schema["value"] == pl.String and frame.schema["valueFloat"] == pl.Float64
    assert frame["value"].to_list() == [str(MAX_U256)] * 30
    assert frame["valueFloat"][0] == pytest.approx(float(MAX_U256), rel=1e-15)
    # An address's transfers mix it with real amounts: the spam is the outlier by 50 orders.
    receiver = rows[0]["to"]["address"]
    mine = data.erc20_transfers(C, receiver, limit=400).to_polars()
    real = mine.filter(pl.col("erc20Token").struct.field("address") != spam)
    assert mine.filter(pl.col("value") == str(MAX_U256)).height >= 1
    assert real.height > 0 and real["valueFloat"].max() < 1e30
    # Nobody holds it: its logs move no balance; the Data API calls it malicious and leaves it
    # out of the balances unless asked (filterSpamTokens defaults to true).
    assert spam not in {b["address"] for b in data.erc20_balances(C, receiver)}
    listed = list(data.erc20_balances(C, receiver, filter_spam_tokens=False))
    row = next(b for b in listed if b["address"] == spam)
    assert (int(row["balance"]), row["tokenReputation"]) == (0, "Malicious")
    assert {b["tokenReputation"] for b in listed if b["address"] != spam} == {"Benign"}


def test_a_failed_transaction_has_status_0_and_still_pays_its_gas(emu: Any, data: Any,
                                                                 shapes: dict[str, Any]) -> None:
    failed = shapes["failed_tx"]
    tx = data.transaction(C, failed["hash"])
    native = tx["nativeTransaction"]
    assert native["txStatus"] == "0"
    assert int(native["gasUsed"]) > 0
    assert "erc20Transfers" not in tx, "a failed call emits no Transfer log"
    listed = [t for t in data.block_transactions(C, failed["block"])]
    assert [t["txStatus"] for t in listed if t["txHash"] == failed["hash"]] == ["0"]
    assert {t["txStatus"] for t in listed} <= {"0", "1"}
    # The index's block holds it: same hash, same sender, its gas in the block's gasUsed.
    decoded = decoded_tx(emu, failed["block"], failed["index"])
    assert (decoded["hash"], decoded["from"]) == (failed["hash"], failed["from"])
    assert decoded["gas"] == int(native["gasUsed"])


def test_a_deployment_has_no_to_and_names_its_contract(emu: Any, data: Any, shapes: dict[str, Any]) -> None:
    dep = shapes["deployment"]
    tx = data.transaction(C, dep["hash"])
    assert tx["nativeTransaction"]["to"]["address"] == ZERO
    created = tx["internalTransactions"]
    assert [(c["internalTxType"], c["to"]["address"]) for c in created] == [("CREATE", dep["contract_address"])]
    assert created[0]["from"]["address"] == dep["from"]
    decoded = decoded_tx(emu, dep["block"], dep["index"])
    assert decoded["hash"] == dep["hash"]
    assert decoded["to"] is None, "a deployment's coreth transaction has no recipient"
    # The created contract's address (keccak256(rlp([sender, nonce]))[12:], checked against
    # known vectors in the Rust tests) is an address of its own.
    assert len(dep["contract_address"]) == 42 and dep["contract_address"] not in (ZERO, dep["from"])


def test_the_busiest_address_is_in_far_more_transactions_than_the_median_one(data: Any,
                                                                               shapes: dict[str, Any]) -> None:
    txs = list(data.chain_transactions(C, limit=4_000))
    seen: Counter[str] = Counter()
    for t in txs:
        seen[t["from"]["address"]] += 1
        if t["to"]["address"] != ZERO:
            seen[t["to"]["address"]] += 1
    counts = sorted(seen.values(), reverse=True)
    median = statistics.median(counts)
    assert counts[0] >= 30 * median, (counts[:5], median)
    assert seen.most_common(1)[0][0] == shapes["busiest_address"]
    once = sum(1 for c in counts if c == 1)
    assert once >= len(counts) // 5, f"{once} one-time addresses of {len(counts)}"


def test_nft_mints_are_erc721_transfers_and_collectibles_of_the_minter(data: Any,
                                                                       shapes: dict[str, Any]) -> None:
    mint = shapes["nft_mint"]
    collection = shapes["nft_collection"]["address"]
    owner = mint["from"]
    transfers = list(data.erc721_transfers(C, owner, limit=200))
    ours = [t for t in transfers if t["txHash"] == mint["hash"]]
    assert len(ours) == 1
    t = ours[0]
    assert (t["from"]["address"], t["to"]["address"]) == (ZERO, owner)
    assert t["erc721Token"]["address"] == collection and str(t["erc721Token"]["tokenId"]) == mint["token_id"]
    held = list(data.collectibles(C, owner, contract_address=collection))
    assert mint["token_id"] in {str(h["tokenId"]) for h in held}
    # Every token it minted (as the transfers list them) is among its collectibles.
    minted = {str(t["erc721Token"]["tokenId"]) for t in transfers if t["from"]["address"] == ZERO}
    assert minted <= {str(h["tokenId"]) for h in held}
    tx = data.transaction(C, mint["hash"])
    assert [x["erc721Token"]["tokenId"] for x in tx["erc721Transfers"]] == [t["erc721Token"]["tokenId"]]
    assert tx["nativeTransaction"]["to"]["address"] == collection
