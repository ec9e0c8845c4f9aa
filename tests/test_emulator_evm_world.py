"""The EVM operations of issue 36 §4 answer from the world's C-Chain, the blocks the Index RPC
serves on ``C/block``: a contract's deployment is a transaction of its container that creates the
contract's address, an address's NFTs are its allocation plus what it minted (minus nothing: no
token leaves its minter), a token's metadata is the one its transfers carry, an address's chains
are those it took part in, and every list pages each item once, in order."""

from __future__ import annotations

import json
from typing import Any

import pytest

import avax_data as ad
from _helpers import api_get as get
from _helpers import api_ok as ok
from _helpers import api_pages as pages
from _helpers import keccak256

# Pool address 0 of the world: the most frequent sender on every chain.
ADDRESS = "0x6a2474f3e677ce65e495508043237ea93738a031"
STRANGER = "0x" + "ab" * 20
CHAIN = "43114"
BLOCKS = 400
# Token ids of the collection's mints start above this (`world/nft.rs`).
MINTED_BASE = 100_000_000


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=5, containers=BLOCKS, data_blocks_per_chain=BLOCKS) as emulator:
        yield emulator


def _rlp_created(sender: str, nonce: int) -> str:
    """The address the EVM gives the contract ``sender`` creates with ``nonce``."""
    raw = bytes.fromhex(sender[2:])
    if nonce == 0:
        encoded_nonce = b"\x80"
    elif nonce < 0x80:
        encoded_nonce = bytes([nonce])
    else:
        body = nonce.to_bytes((nonce.bit_length() + 7) // 8, "big")
        encoded_nonce = bytes([0x80 + len(body)]) + body
    payload = b"\x94" + raw + encoded_nonce
    return "0x" + keccak256(bytes([0xC0 + len(payload)]) + payload)[12:].hex()


def test_a_deployment_is_a_transaction_of_its_c_block_that_creates_the_address(emu: Any) -> None:
    contracts = pages(emu.url, f"/v1/chains/{CHAIN}/contracts/{ADDRESS}/deployments", "contracts", pageSize=3)
    assert len(contracts) >= 5, contracts
    with ad.IndexClient(emu.url) as node:
        blocks = node.chain("C/block").range(0, BLOCKS, decode="senders").to_polars()
    txs = ad.transactions(blocks)
    by_hash = {row["hash"]: row for row in txs.iter_rows(named=True)}
    numbers = []
    for contract in contracts:
        address = contract["address"]
        assert contract["ercType"] == "UNKNOWN"
        assert contract["deploymentDetails"]["deployerAddress"] == ADDRESS
        tx = ok(emu.url, f"/v1/chains/{CHAIN}/contracts/{address}/transactions:getDeployment")
        native = tx["nativeTransaction"]
        assert native["txHash"] == contract["deploymentDetails"]["txHash"]
        assert native["from"]["address"] == ADDRESS
        assert tx["internalTransactions"] == [{
            "from": {"address": ADDRESS}, "to": {"address": address}, "internalTxType": "CREATE",
            "value": native["value"], "isReverted": False, "gasUsed": native["gasUsed"],
            "gasLimit": native["gasUsed"]}]
        # The container at that height holds it: no `to`, signed by the deployer, and the
        # deployer's address and nonce give the contract's address.
        decoded = by_hash[native["txHash"]]
        assert decoded["block_number"] == int(native["blockNumber"])
        assert decoded["position"] == native["blockIndex"]
        assert decoded["to"] is None
        assert decoded["from"] == ADDRESS
        assert _rlp_created(ADDRESS, int(decoded["nonce"])) == address
        meta = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{address}")
        assert meta == contract
        numbers.append((int(native["blockNumber"]), native["blockIndex"]))
    assert numbers == sorted(numbers, reverse=True), "newest first"
    # Every deployment of the blocks by the address is listed: the decoded creations it sent.
    created = {row["hash"] for row in txs.iter_rows(named=True) if row["to"] is None and row["from"] == ADDRESS}
    assert created == {c["deploymentDetails"]["txHash"] for c in contracts}


def test_internal_transactions_are_the_creates(emu: Any) -> None:
    contracts = pages(emu.url, f"/v1/chains/{CHAIN}/contracts/{ADDRESS}/deployments", "contracts", pageSize=100)
    internal = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listInternals", "transactions",
                     pageSize=2)
    assert [(t["txHash"], t["to"]["address"]) for t in internal] == \
        [(c["deploymentDetails"]["txHash"], c["address"]) for c in contracts]
    assert {t["internalTxType"] for t in internal} == {"CREATE"}
    numbers = [int(t["blockNumber"]) for t in internal]
    bounded = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listInternals", pageSize=100,
                 startBlock=numbers[-1] + 1, endBlock=numbers[0])["transactions"]
    assert bounded == [t for t in internal if numbers[-1] < int(t["blockNumber"]) < numbers[0]]
    # A created contract's own list holds the CREATE that made it.
    one = internal[0]
    mine = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{one['to']['address']}/transactions:listInternals")
    assert mine["transactions"] == [one]
    assert ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{STRANGER}/transactions:listInternals")["transactions"] == []


def test_an_address_without_a_deployment(emu: Any) -> None:
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/contracts/{ADDRESS}/transactions:getDeployment")
    assert status == 404 and ADDRESS in body["message"], body
    assert ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}") == {"address": ADDRESS, "ercType": "UNKNOWN"}
    assert ok(emu.url, f"/v1/chains/{CHAIN}/contracts/{STRANGER}/deployments")["contracts"] == []
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/addresses/0x12")
    assert status == 400 and "address" in json.dumps(body) and "0x12" in json.dumps(body), body


def test_an_nft_balance_is_the_allocation_plus_mints_minus_transfers_out(emu: Any) -> None:
    collectibles = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listCollectibles",
                         "collectibleBalances", pageSize=100)
    erc721 = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc721", "erc721TokenBalances",
                   pageSize=7)
    erc1155 = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc1155",
                    "erc1155TokenBalances", pageSize=9)
    assert erc721 == [c for c in collectibles if c["ercType"] == "ERC-721"]
    assert erc1155 == [c for c in collectibles if c["ercType"] == "ERC-1155"]
    transfers = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listErc721", "transactions",
                      pageSize=100)
    assert transfers, "pool address 0 mints in 400 blocks"
    collection = transfers[0]["erc721Token"]["address"]
    received = {t["erc721Token"]["tokenId"] for t in transfers if t["to"]["address"] == ADDRESS}
    sent = {t["erc721Token"]["tokenId"] for t in transfers if t["from"]["address"] == ADDRESS}
    held = {b["tokenId"] for b in erc721 if b["address"] == collection and int(b["tokenId"]) > MINTED_BASE}
    assert held == received - sent
    only = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc721", pageSize=100,
              contractAddress=collection.upper().replace("0X", "0x"))
    assert only["erc721TokenBalances"] == [b for b in erc721 if b["address"] == collection]
    native = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:getNative")["nativeTokenBalance"]
    assert only["nativeTokenBalance"] == native
    # The ERC-1155 Items collection's balances are the sum of its logs' transfers, at every block.
    moved = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listErc1155", "transactions",
                  pageSize=10)
    assert moved, "pool address 0 mints Items in 400 blocks"
    numbers = [int(t["blockNumber"]) for t in moved]
    assert numbers == sorted(numbers, reverse=True), "newest first"
    items = moved[0]["erc1155Token"]["address"]

    def summed(upto: int) -> dict[str, int]:
        total: dict[str, int] = {}
        for t in moved:
            if int(t["blockNumber"]) <= upto:
                sign = 1 if t["to"]["address"] == ADDRESS else -1
                token = t["erc1155Token"]["tokenId"]
                total[token] = total.get(token, 0) + sign * int(t["value"])
        return {token: b for token, b in total.items() if b}

    for upto in (BLOCKS - 1, 200, 3):
        held = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc1155",
                     "erc1155TokenBalances", pageSize=9, blockNumber=upto, contractAddress=items)
        assert {b["tokenId"]: int(b["balance"]) for b in held} == summed(upto), upto
    assert summed(BLOCKS - 1) == {c["tokenId"]: int(c["balance"]) for c in collectibles if c["address"] == items}
    early = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc1155", pageSize=100,
               blockNumber=3)
    assert early["nativeTokenBalance"] == ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:getNative",
                                             blockNumber=3)["nativeTokenBalance"]
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc1155", blockNumber=BLOCKS)
    assert status == 404, body
    stranger = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{STRANGER}/balances:listErc721")
    assert stranger["erc721TokenBalances"] == [] and stranger["nativeTokenBalance"]["balance"] == "0"
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc721",
                       contractAddress="punks")
    assert status == 400 and "contractAddress" in json.dumps(body) and "punks" in json.dumps(body), body


def test_token_details_equal_the_transfers_token_metadata(emu: Any) -> None:
    # ERC-20, the spam token included: a contract's metadata is what its transfers carry.
    tokens = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc20",
                filterSpamTokens="false")["erc20TokenBalances"]
    assert {t["symbol"] for t in tokens} >= {"eUSDC", "AIRDROP"}
    for token in tokens:
        transfer = ok(emu.url, f"/v1/chains/{CHAIN}/tokens/{token['address']}/transfers", pageSize=1)["transfers"][0]
        meta = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{token['address']}")
        carried = transfer["erc20Token"]
        assert {k: meta[k] for k in ("address", "name", "symbol", "decimals", "ercType")} == \
            {k: carried[k] for k in ("address", "name", "symbol", "decimals", "ercType")}
        assert meta["logoAsset"]["imageUri"] == carried["logoUri"]
    # NFTs: a minted token's details are the token its mint carries, and the collection lists it.
    transfers = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listErc721", "transactions",
                      pageSize=100)
    collection = transfers[0]["erc721Token"]["address"]
    listed = pages(emu.url, f"/v1/chains/{CHAIN}/nfts/collections/{collection}/tokens", "tokens", pageSize=100)
    ids = [int(t["tokenId"]) for t in listed]
    assert ids == sorted(set(ids)), "each token once, by token id"
    by_id = {t["tokenId"]: t for t in listed}
    for transfer in transfers:
        carried = transfer["erc721Token"]
        details = ok(emu.url, f"/v1/chains/{CHAIN}/nfts/collections/{collection}/tokens/{carried['tokenId']}")
        assert details == by_id[carried["tokenId"]]
        for key in ("address", "name", "symbol", "ercType", "tokenId", "tokenUri", "ownerAddress"):
            assert details[key] == carried[key], key
        assert details["metadata"]["name"] == carried["metadata"]["name"]
    assert ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{collection}")["ercType"] == "ERC-721"
    # Every holder's ERC-721 item of the collection is one listed token, owned by that holder.
    mine = [b for b in pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc721",
                             "erc721TokenBalances", pageSize=100) if b["address"] == collection]
    assert all(by_id[b["tokenId"]]["ownerAddress"] == ADDRESS for b in mine)
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/nfts/collections/{collection}/tokens/{MINTED_BASE}")
    assert status == 404, body
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/nfts/collections/{collection}/tokens/seven")
    assert status == 400 and "tokenId" in json.dumps(body) and "seven" in json.dumps(body), body
    assert ok(emu.url, f"/v1/chains/{CHAIN}/nfts/collections/{STRANGER}/tokens")["tokens"] == []


def test_address_chains_name_the_chains_an_address_took_part_in(emu: Any) -> None:
    chains = ok(emu.url, f"/v1/address/{ADDRESS}/chains")
    ids = [c["chainId"] for c in chains["indexedChains"]]
    assert CHAIN in ids and "43113" in ids
    assert chains["indexedChains"][ids.index(CHAIN)] == ok(emu.url, f"/v1/chains/{CHAIN}")
    assert ok(emu.url, f"/v1/address/{STRANGER}/chains")["indexedChains"] == []
    busy = ok(emu.url, "/v1/address/0xb5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5/chains")["indexedChains"]
    assert [c["chainId"] for c in busy] == [CHAIN]
    status, body = get(emu.url, "/v1/address/nobody/chains")
    assert status == 400 and "nobody" in json.dumps(body), body


def test_transactions_v2_are_the_addresss_part_of_the_blocks(emu: Any) -> None:
    path = f"/v2/chains/{CHAIN}/addresses/{ADDRESS}/transactions"
    desc = pages(emu.url, path, "transactions", pageSize=25)
    asc = pages(emu.url, path, "transactions", pageSize=40, sortOrder="asc")
    assert asc == list(reversed(desc))
    keys = [(int(t["nativeTransaction"]["blockNumber"]), t["nativeTransaction"]["blockIndex"]) for t in desc]
    assert keys == sorted(set(keys), reverse=True), "each once, newest first"
    v1 = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions", "transactions", pageSize=100)
    v1_hashes = {t["nativeTransaction"]["txHash"] for t in v1}
    v2_hashes = {t["nativeTransaction"]["txHash"] for t in desc}
    assert v1_hashes <= v2_hashes
    received = v2_hashes - v1_hashes
    assert received, "the ERC-20 transfers the address received are its transactions too"
    for t in desc:
        for transfer in t.get("erc20Transfers", []):
            assert ADDRESS in (transfer["from"]["address"], transfer["to"]["address"])
            assert transfer["erc20Token"]["tokenReputation"] == "Benign", "the spam token is filtered"
        if t["nativeTransaction"]["txHash"] in received:
            assert t["erc20Transfers"], t
    with_spam = pages(emu.url, path, "transactions", pageSize=100, filterSpamTokens="false")
    spam = [tr for t in with_spam for tr in t.get("erc20Transfers", [])
            if tr["erc20Token"]["tokenReputation"] == "Malicious"]
    assert {tr["value"] for tr in spam} <= {str(2**256 - 1)}
    assert len(with_spam) >= len(desc)
    bounded = pages(emu.url, path, "transactions", pageSize=100, startBlock=100, endBlock=200)
    assert bounded == [t for t in desc if 100 <= int(t["nativeTransaction"]["blockNumber"]) < 200]
    assert ok(emu.url, f"/v2/chains/{CHAIN}/addresses/{STRANGER}/transactions")["transactions"] == []


def test_latest_transactions_of_all_chains_merge_the_chains_newest_first(emu: Any) -> None:
    small = pages(emu.url, "/v1/transactions", "transactions", limit=60, pageSize=7, network="mainnet")
    whole = ok(emu.url, "/v1/transactions", pageSize=63, network="mainnet")["transactions"]
    assert small == whole
    stamps = [t["blockTimestampMilliseconds"] for t in whole]
    assert stamps == sorted(stamps, reverse=True)
    assert len({(t["chainId"], t["txHash"]) for t in whole}) == len(whole)
    chains = {c["chainId"] for c in ok(emu.url, "/v1/chains", network="mainnet")["chains"]}
    assert {t["chainId"] for t in whole} <= chains
    assert len({t["chainId"] for t in whole}) >= 2
    # Each chain's share is the start of that chain's own latest transactions.
    for chain_id in {t["chainId"] for t in whole}:
        mine = [t["txHash"] for t in whole if t["chainId"] == chain_id]
        latest = ok(emu.url, f"/v1/chains/{chain_id}/transactions", pageSize=len(mine))["transactions"]
        assert mine == [t["txHash"] for t in latest]
    failed = ok(emu.url, "/v1/transactions", pageSize=20, status="failed")["transactions"]
    assert failed and all(t["txStatus"] == "0" for t in failed)
    fuji = {c["chainId"] for c in ok(emu.url, "/v1/chains", network="fuji")["chains"]}
    both = {t["chainId"] for t in ok(emu.url, "/v1/transactions", pageSize=100)["transactions"]}
    assert both & fuji and both & chains, "without a network, both networks' chains"


def test_the_client_hands_out_every_item_of_a_transfer_batch(emu: Any) -> None:
    """A TransferBatch log moves several ids: its items share the tx hash and the log's index, and
    the client hands every one of them out (no repeat screen takes them for one item served twice),
    in the service's order, as the raw pages hold them."""
    raw = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listErc1155", "transactions",
                pageSize=7)
    batches: dict[tuple[str, int], int] = {}
    for t in raw:
        batches[(t["txHash"], t["logIndex"])] = batches.get((t["txHash"], t["logIndex"]), 0) + 1
    assert max(batches.values()) > 1, "pool address 0 takes part in a TransferBatch in 400 blocks"
    with ad.DataClient(emu.url) as data:
        walked = list(data.erc1155_transfers(CHAIN, ADDRESS, page_size=7))
        frame = data.erc1155_transfers(CHAIN, ADDRESS, page_size=7).to_polars()
    key = [(t["txHash"], t["logIndex"], t["erc1155Token"]["tokenId"]) for t in raw]
    assert [(t["txHash"], t["logIndex"], str(t["erc1155Token"]["tokenId"])) for t in walked] == key
    assert frame.height == len(raw)
