"""Where the Data API's operations overlap, the emulator answers from one world: an address's
transactions are transactions of the world's blocks (the same as the block's own list, the same as
by hash, the same block hash as ``getBlock``), the latest transactions are the newest blocks'
transactions, the validators and delegators are the stakes behind the pending rewards, and the
ERC-20 transfers (of a token, of an address, inside a transaction) are the ``transfer`` calls among
the world's transactions, with balances that follow from them."""

from __future__ import annotations

from typing import Any

import pytest

import avax_data as ad
from _helpers import api_get as get
from _helpers import api_ok as ok
from _helpers import api_pages as pages

# Pool address 0 of the world: the most frequent sender on every chain.
ADDRESS = "0x6a2474f3e677ce65e495508043237ea93738a031"
CHAIN = "43114"


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=5, data_blocks_per_chain=400) as emulator:
        yield emulator


def block_txs(url: str, number: int | str) -> list[dict[str, Any]]:
    return pages(url, f"/v1/chains/{CHAIN}/blocks/{number}/transactions", "transactions", limit=10_000,
                 pageSize=100)


def test_a_blocks_transactions_add_up_to_the_block(emu: Any) -> None:
    for block in ok(emu.url, f"/v1/chains/{CHAIN}/blocks", pageSize=30)["blocks"]:
        txs = block_txs(emu.url, block["blockHash"])
        assert len(txs) == block["txCount"]
        assert [t["blockIndex"] for t in txs] == list(range(len(txs)))
        assert sum(int(t["gasUsed"]) for t in txs) == int(block["gasUsed"])
        assert sum(int(t["gasUsed"]) * int(t["gasPrice"]) for t in txs) == int(block["feesSpent"])
        assert {(t["blockNumber"], t["blockHash"], t["chainId"]) for t in txs} <= {
            (block["blockNumber"], block["blockHash"], CHAIN)}
        # by number as by hash
        assert block_txs(emu.url, block["blockNumber"]) == txs


def test_an_addresss_transactions_are_transactions_of_the_worlds_blocks(emu: Any) -> None:
    details = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions", "transactions",
                    limit=45, pageSize=15)
    assert len(details) >= 30
    txs = [d["nativeTransaction"] for d in details]
    assert all(ADDRESS in (t["from"]["address"], t["to"]["address"]) for t in txs)
    order = [(int(t["blockNumber"]), t["blockIndex"]) for t in txs]
    assert order == sorted(order, reverse=True) and len(set(order)) == len(order), "newest first, no repeats"
    native = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listNative", "transactions",
                   limit=45, pageSize=15)
    assert native[: len(txs)] == txs
    for tx in txs[:12]:
        block = ok(emu.url, f"/v1/chains/{CHAIN}/blocks/{tx['blockNumber']}")
        assert block["blockHash"] == tx["blockHash"]
        assert block["blockTimestamp"] == tx["blockTimestamp"]
        assert block_txs(emu.url, tx["blockNumber"])[tx["blockIndex"]] == tx
        full = ok(emu.url, f"/v1/chains/{CHAIN}/transactions/{tx['txHash']}")["nativeTransaction"]
        for field in ("blockNumber", "blockHash", "blockIndex", "txHash", "from", "to", "value", "gasUsed",
                      "gasPrice", "blockTimestamp"):
            assert full[field] == tx[field], field
        assert int(full["baseFeePerGas"]) <= int(full["gasPrice"])


def test_block_bounds_filter_an_addresss_transactions(emu: Any) -> None:
    txs = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listNative", "transactions",
                limit=1_000, pageSize=100, startBlock=100, endBlock=150)
    assert txs and all(100 <= int(t["blockNumber"]) < 150 for t in txs), "endBlock is exclusive"
    expected = [t for n in range(149, 99, -1) for t in reversed(block_txs(emu.url, n))
                if ADDRESS in (t["from"]["address"], t["to"]["address"])]
    assert txs == expected


def test_an_address_outside_the_world_has_no_transactions(emu: Any) -> None:
    body = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/0x{'ab' * 20}/transactions")
    assert body == {"transactions": []}


def test_the_latest_transactions_are_the_newest_blocks_transactions(emu: Any) -> None:
    latest = pages(emu.url, f"/v1/chains/{CHAIN}/transactions", "transactions", limit=60, pageSize=7)
    tip = int(ok(emu.url, f"/v1/chains/{CHAIN}/blocks", pageSize=1)["blocks"][0]["blockNumber"])
    expected: list[dict[str, Any]] = []
    number = tip
    while len(expected) < len(latest):
        expected.extend(reversed(block_txs(emu.url, number)))
        number -= 1
    assert latest == expected[: len(latest)]


def test_unknown_transactions_chains_and_blocks(emu: Any) -> None:
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/transactions/0x{'12' * 32}")
    assert (status, body["statusCode"], body["error"]) == (404, 404, "Not Found")
    assert body["message"] == f"Transaction 0x{'12' * 32} not found on chain {CHAIN}"
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/transactions/0x12")
    assert status == 400 and "txHash" in body["message"]
    status, body = get(emu.url, "/v1/chains/999999/addresses/0x1/transactions")
    assert (status, body["message"]) == (404, "Chain 999999 not found")
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/blocks/400/transactions")
    assert (status, body["message"]) == (404, f"Block 400 not found on chain {CHAIN}")


def _pending(url: str, network: str, node_ids: list[str]) -> list[dict[str, Any]]:
    return pages(url, f"/v1/networks/{network}/rewards:listPending", "pendingRewards", limit=100_000,
                 pageSize=100, nodeIds=",".join(node_ids))


@pytest.mark.parametrize("network", ["mainnet", "fuji"])
def test_validators_and_delegators_are_the_worlds_stakes(emu: Any, network: str) -> None:
    validators = pages(emu.url, f"/v1/networks/{network}/validators", "validators", limit=10_000, pageSize=100,
                       validationStatus="active")
    assert validators and all(v["validationStatus"] == "active" for v in validators)
    nodes = [v["nodeId"] for v in validators]
    assert len(set(nodes)) == len(nodes)
    rewards = _pending(emu.url, network, nodes)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for r in rewards:
        by_type.setdefault(r["rewardType"], []).append(r)
    assert {r["txHash"] for r in by_type["VALIDATOR"]} == {v["txHash"] for v in validators}
    stake = {r["txHash"]: r for r in by_type["VALIDATOR"]}
    for v in validators:
        r = stake[v["txHash"]]
        assert (v["nodeId"], v["amountStaked"], v["startTimestamp"], v["endTimestamp"]) == (
            r["nodeId"], r["amountStaked"], r["startTimestamp"], r["endTimestamp"])
        assert v["potentialRewards"]["validationRewardAmount"] == r["estimatedReward"]["amount"]
        assert v["delegatorCount"] == sum(1 for d in by_type.get("DELEGATOR", []) if d["nodeId"] == v["nodeId"])
    starts = [v["startTimestamp"] for v in validators]
    assert starts == sorted(starts)
    delegators = pages(emu.url, f"/v1/networks/{network}/delegators", "delegators", limit=10_000, pageSize=100,
                       delegationStatus="active")
    assert {d["txHash"] for d in delegators} == {r["txHash"] for r in by_type["DELEGATOR"]}
    one = validators[len(validators) // 2]
    single = ok(emu.url, f"/v1/networks/{network}/validators/{one['nodeId']}", validationStatus="active")["validators"]
    assert single == [one]
    mine = ok(emu.url, f"/v1/networks/{network}/delegators", nodeIds=one["nodeId"], pageSize=100,
              delegationStatus="active")["delegators"]
    assert len(mine) == one["delegatorCount"] and all(d["nodeId"] == one["nodeId"] for d in mine)


def test_stakes_of_other_statuses_and_sort_order(emu: Any) -> None:
    assert ok(emu.url, "/v1/networks/mainnet/validators", validationStatus="removed")["validators"] == []
    done = ok(emu.url, "/v1/networks/mainnet/validators", validationStatus="completed", pageSize=100)["validators"]
    assert done and all(v["validationStatus"] == "completed" for v in done)
    assert ok(emu.url, "/v1/networks/mainnet/delegators", delegationStatus="pending")["delegators"] == []
    asc = pages(emu.url, "/v1/networks/fuji/validators", "validators", limit=1000, pageSize=100)
    desc = pages(emu.url, "/v1/networks/fuji/validators", "validators", limit=1000, pageSize=100, sortOrder="desc")
    assert desc == list(reversed(asc))


def balance(url: str, address: str, block: int) -> int:
    body = ok(url, f"/v1/chains/{CHAIN}/addresses/{address}/balances:getNative", blockNumber=block)
    token = body["nativeTokenBalance"]
    assert (token["chainId"], token["symbol"], token["decimals"]) == (CHAIN, "AVAX", 18)
    return int(token["balance"])


def test_a_native_balance_follows_from_the_transactions(emu: Any) -> None:
    """Block by block, the balance moves by what the address received, minus what it sent and the
    fees it paid, in that block's transactions (a failed one moves no value; its fee is paid)."""
    genesis = 10**9 * 10**18

    def moved(tx: dict[str, Any]) -> int:
        return int(tx["value"]) if tx["txStatus"] == "1" else 0

    txs = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listNative", "transactions",
                limit=10_000, pageSize=100)
    latest = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:getNative")["nativeTokenBalance"]
    assert int(latest["balance"]) == balance(emu.url, ADDRESS, 399)
    total = genesis
    assert {tx["txStatus"] for tx in txs} == {"0", "1"}, "the address has failed transactions too"
    for tx in txs:
        if tx["to"]["address"] == ADDRESS:
            total += moved(tx)
        if tx["from"]["address"] == ADDRESS:
            total -= moved(tx) + int(tx["gasUsed"]) * int(tx["gasPrice"])
    assert balance(emu.url, ADDRESS, 399) == total != genesis
    for number in sorted({int(t["blockNumber"]) for t in txs} - {0})[:5]:
        delta = sum((moved(t) if t["to"]["address"] == ADDRESS else 0)
                    - ((moved(t) + int(t["gasUsed"]) * int(t["gasPrice"])) if t["from"]["address"] == ADDRESS
                       else 0)
                    for t in txs if int(t["blockNumber"]) == number)
        assert balance(emu.url, ADDRESS, number) - balance(emu.url, ADDRESS, number - 1) == delta
    assert balance(emu.url, "0x" + "ab" * 20, 399) == 0
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:getNative", blockNumber=400)
    assert (status, body["message"]) == (404, f"Block 400 not found on chain {CHAIN}")


# The world's ERC-20 tokens on the Mainnet C-chain (avax-data-emulator's world/erc20.rs), the spam
# token last.
TOKENS = {"0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b30": ("eUSDC", 6),
          "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b31": ("eWAVAX", 18),
          "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b33": ("eUSDT", 6),
          "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b3f": ("AIRDROP", 18)}
USDC = "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b30"
SPAM = "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b3f"


@pytest.fixture(scope="module")
def world_txs(emu: Any) -> list[dict[str, Any]]:
    """Every transaction of the world's C-chain, newest first (``listLatestTransactions``)."""
    return pages(emu.url, f"/v1/chains/{CHAIN}/transactions", "transactions", limit=100_000, pageSize=100)


def token_transfers(url: str, token: str, **query: Any) -> list[dict[str, Any]]:
    return pages(url, f"/v1/chains/{CHAIN}/tokens/{token}/transfers", "transfers", limit=100_000, pageSize=100,
                 **query)


def test_a_tokens_transfers_are_the_calls_to_its_contract_in_the_worlds_blocks(emu: Any, world_txs: Any) -> None:
    failed = [t for t in world_txs if t["to"]["address"] in TOKENS and t["txStatus"] == "0"]
    assert failed, "some calls to the tokens failed: they emit no Transfer"
    for token, (symbol, decimals) in TOKENS.items():
        transfers = token_transfers(emu.url, token)
        calls = [t for t in world_txs if t["to"]["address"] == token and t["txStatus"] == "1"]
        assert len(transfers) > (5 if symbol == "AIRDROP" else 20)
        assert [t["txHash"] for t in transfers] == [c["txHash"] for c in calls], "one transfer per call, same order"
        assert all(c["value"] == "0" for c in calls), "a transfer call moves no native value"
        for t, c in zip(transfers, calls):
            assert (t["blockNumber"], t["blockHash"], t["blockTimestamp"], t["from"]["address"]) == (
                c["blockNumber"], c["blockHash"], c["blockTimestamp"], c["from"]["address"])
            assert t["erc20Token"]["address"] == token
            assert (t["erc20Token"]["symbol"], t["erc20Token"]["decimals"], t["erc20Token"]["ercType"]) == (
                symbol, decimals, "ERC-20")
            assert int(t["value"]) > 0
    # the transfer inside the transaction, by hash, is the same transfer
    for t in token_transfers(emu.url, USDC)[:8]:
        full = ok(emu.url, f"/v1/chains/{CHAIN}/transactions/{t['txHash']}")
        (inner,) = full["erc20Transfers"]
        assert {k: inner[k] for k in ("from", "to", "logIndex", "value")} == {
            k: t[k] for k in ("from", "to", "logIndex", "value")}
        assert full["nativeTransaction"]["to"]["address"] == USDC
    # a block's log indexes count its logs: its transfers, whatever the token, its NFT mints and
    # its ERC-1155 logs (one per call, a batch's items share it)
    collection = emu.world["shapes"]["nft_collection"]["address"]
    owner = emu.world["shapes"]["busiest_address"]
    items = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{owner}/transactions:listErc1155", "transactions",
                  pageSize=100)[0]["erc1155Token"]["address"]
    for number in {t["blockNumber"] for t in token_transfers(emu.url, USDC)[:10]}:
        in_block = [t for token in TOKENS for t in token_transfers(emu.url, token, startBlock=number, endBlock=int(number) + 1)]
        block = [t for t in world_txs if t["blockNumber"] == number]
        mints = [t for t in block if t["to"]["address"] == collection]
        minted = [ok(emu.url, f"/v1/chains/{CHAIN}/transactions/{t['txHash']}")["erc721Transfers"][0]["logIndex"]
                  for t in mints]
        multi = [t for t in block if t["to"]["address"] == items and t["txStatus"] == "1"]
        multi_logs = [next(m["logIndex"] for m in pages(
            emu.url, f"/v1/chains/{CHAIN}/addresses/{t['from']['address']}/transactions:listErc1155", "transactions",
            pageSize=100, startBlock=number, endBlock=int(number) + 1) if m["txHash"] == t["txHash"]) for t in multi]
        logs = [t["logIndex"] for t in in_block] + minted + multi_logs
        assert sorted(logs) == list(range(len(logs)))
    # a contract that is no token of the world has no transfers
    assert ok(emu.url, f"/v1/chains/{CHAIN}/tokens/0x{'ab' * 20}/transfers") == {"transfers": []}


def test_block_bounds_filter_a_tokens_transfers(emu: Any) -> None:
    every = token_transfers(emu.url, USDC)
    window = token_transfers(emu.url, USDC, startBlock=100, endBlock=250)
    assert window and window == [t for t in every if 100 <= int(t["blockNumber"]) < 250], "endBlock is exclusive"
    times = [t["blockTimestamp"] for t in every]
    assert times == sorted(times, reverse=True)


def test_an_addresss_erc20_transfers_are_the_tokens_transfers_it_sent_or_received(emu: Any) -> None:
    every = [t for token in TOKENS for t in token_transfers(emu.url, token)]
    receiver = every[0]["to"]["address"]
    for address in (ADDRESS, receiver):
        theirs = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{address}/transactions:listErc20", "transactions",
                       limit=100_000, pageSize=37)
        expected = [t for t in every if address in (t["from"]["address"], t["to"]["address"])]
        expected.sort(key=lambda t: (int(t["blockNumber"]), t["logIndex"]), reverse=True)
        assert theirs == expected
    assert any(t["to"]["address"] == receiver for t in theirs)
    mine = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listErc20", "transactions",
                 limit=100_000, pageSize=100)
    assert any(t["from"]["address"] == ADDRESS for t in mine)
    # the transfers it sent are in its transactions' details
    details = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions", "transactions",
                    limit=100_000, pageSize=100)
    sent = {d["nativeTransaction"]["txHash"]: d["erc20Transfers"][0] for d in details if "erc20Transfers" in d}
    assert sent and sent == {t["txHash"]: {k: t[k] for k in ("from", "to", "logIndex", "value", "erc20Token")}
                             for t in mine if t["from"]["address"] == ADDRESS}
    outside = f"/v1/chains/{CHAIN}/addresses/0x{'ab' * 20}/transactions:listErc20"
    assert ok(emu.url, outside) == {"transactions": []}


def erc20_balances(url: str, address: str, **query: Any) -> dict[str, int]:
    body = ok(url, f"/v1/chains/{CHAIN}/addresses/{address}/balances:listErc20", **query)
    return {b["address"]: int(b["balance"]) for b in body["erc20TokenBalances"]}


def test_erc20_balances_follow_from_the_transfers(emu: Any) -> None:
    every = pages(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/transactions:listErc20", "transactions",
                  limit=100_000, pageSize=100)
    mine = [t for t in every if t["erc20Token"]["address"] != SPAM]
    assert len(mine) < len(every), "the address also meets the spam token"
    for token, (_, decimals) in TOKENS.items():
        if token == SPAM:
            continue
        total = 10**9 * 10**decimals
        for t in mine:
            if t["erc20Token"]["address"] == token:
                total += int(t["value"]) * ((t["to"]["address"] == ADDRESS) - (t["from"]["address"] == ADDRESS))
        assert erc20_balances(emu.url, ADDRESS)[token] == total != 10**9 * 10**decimals
    # block by block, the balance moves by that block's transfers
    for t in mine[:4]:
        n, token = int(t["blockNumber"]), t["erc20Token"]["address"]
        delta = sum(int(u["value"]) * ((u["to"]["address"] == ADDRESS) - (u["from"]["address"] == ADDRESS))
                    for u in mine if int(u["blockNumber"]) == n and u["erc20Token"]["address"] == token)
        after, before = (erc20_balances(emu.url, ADDRESS, blockNumber=b)[token] for b in (n, n - 1))
        assert after - before == delta
    body = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc20")
    native = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:getNative")["nativeTokenBalance"]
    assert body["nativeTokenBalance"] == native
    assert [b["symbol"] for b in body["erc20TokenBalances"]] == ["eUSDC", "eWAVAX", "eUSDT"]
    # the spam token's transfers move nothing: listed only on request, balance 0, malicious
    assert erc20_balances(emu.url, ADDRESS, filterSpamTokens="false")[SPAM] == 0
    listed = ok(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc20", filterSpamTokens="false")
    assert [b["tokenReputation"] for b in listed["erc20TokenBalances"]] == ["Benign"] * 3 + ["Malicious"]
    assert list(erc20_balances(emu.url, ADDRESS, contractAddresses=USDC.upper().replace("0X", "0x"))) == [USDC]
    assert erc20_balances(emu.url, "0x" + "ab" * 20) == {}
    status, body = get(emu.url, f"/v1/chains/{CHAIN}/addresses/{ADDRESS}/balances:listErc20", blockNumber=400)
    assert (status, body["message"]) == (404, f"Block 400 not found on chain {CHAIN}")
