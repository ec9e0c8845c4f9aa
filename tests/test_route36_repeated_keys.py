"""The emulator reads a list parameter sent as repeated keys (``txTypes=a&txTypes=b``: the form
OpenAPI gives an array parameter by default, which ``avax_data`` and the official SDK send) as it
reads the same items comma-separated: every item counts, for every list parameter it reads (the
primary-network transactions, UTXOs, balances, last activity, chain ids, staking transactions,
rewards, validators, delegators and ERC-20 balances)."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import pytest

import avax_data as ad
from _helpers import api_get, api_ok

NET = "/v1/networks/mainnet"
P = f"{NET}/blockchains/p-chain"
X = f"{NET}/blockchains/x-chain"
C = f"{NET}/blockchains/c-chain"
C_ID = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
AVAX = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"
POOL_0 = "0x6a2474f3e677ce65e495508043237ea93738a031"
STAKES = ("AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx")


@pytest.fixture(scope="module")
def emu() -> Any:
    with ad.Emulator(seed=8) as emulator:
        yield emulator


def _answer(emu: Any, path: str, pairs: list[tuple[str, str]]) -> tuple[int, Any]:
    """(status, body) of ``GET path?pairs`` (keys repeated as given); a page token only as
    whether there is one (each request issues its own)."""
    status, body = api_get(emu.url, f"{path}?{urllib.parse.urlencode(pairs)}")
    if isinstance(body, dict) and "nextPageToken" in body:
        body["nextPageToken"] = bool(body["nextPageToken"])
    return status, body


def _owners(txs: list[dict[str, Any]], keep: Any = lambda u: True) -> list[str]:
    """One owner of an emitted UTXO that ``keep`` keeps per tx (each once, first seen first): no
    two of the same output or tx."""
    seen: dict[str, None] = {}
    for t in txs:
        owners = [a for u in t["emittedUtxos"] if keep(u) for a in u["addresses"] if a not in seen]
        seen.update(dict.fromkeys(owners[:1]))
    return list(seen)


def _holding(emu: Any, chain: str, owners: list[str]) -> list[str]:
    """The first two of ``owners`` that hold a UTXO on ``chain``."""
    return [a for a in owners if api_ok(emu.url, f"{chain}/utxos", addresses=a)["utxos"]][:2]


@pytest.fixture(scope="module")
def cases(emu: Any) -> list[tuple[str, str, list[str], list[tuple[str, str]]]]:
    """``(path, list parameter, two items, other parameters)``: items whose answer together
    differs from the last one's alone."""
    p_txs = api_ok(emu.url, f"{P}/transactions", pageSize=50)["transactions"]
    x_txs = api_ok(emu.url, f"{X}/transactions", pageSize=100)["transactions"]
    exports = api_ok(emu.url, f"{X}/transactions", pageSize=100, txTypes="ExportTx")["transactions"]
    p_two, x_two = _holding(emu, P, _owners(p_txs)), _holding(emu, X, _owners(x_txs))
    c_two = _holding(emu, C, _owners(exports, lambda u: u["consumedOnChainId"] == C_ID))
    # Active stakes: only they have pending rewards (an ended one is in the historical rewards).
    validators = api_ok(emu.url, f"{NET}/validators", pageSize=100, validationStatus="active")["validators"]
    delegators = api_ok(emu.url, f"{NET}/delegators", pageSize=100, delegationStatus="active")["delegators"]
    nodes = list(dict.fromkeys(v["nodeId"] for v in validators))[:2]
    delegated = list(dict.fromkeys(d["nodeId"] for d in delegators))[:2]
    rewarded = list(dict.fromkeys(a for d in delegators for a in d["rewardAddresses"]))[:2]
    staking = api_ok(emu.url, f"{P}/transactions:listStaking", pageSize=100)["transactions"]
    stakers = _owners(staking)[:2]
    tokens = [b["address"] for b in api_ok(emu.url, f"/v1/chains/43114/addresses/{POOL_0}/balances:listErc20",
                                           pageSize=100)["erc20TokenBalances"]][:2]
    for found in (p_two, x_two, c_two, nodes, delegated, rewarded, stakers, tokens):
        assert len(found) == 2, found
    # The newest activity of the two, then the other: the pair's answer is the first's.
    last = [_answer(emu, f"{X}/lastActivityTimestampByAddresses", [("addresses", a)])[1]["timestamp"]
            for a in x_two]
    newest_first = x_two if last[0] > last[1] else x_two[::-1]
    return [
        (f"{P}/transactions", "txTypes", ["ExportTx", "ImportTx"], [("pageSize", "100")]),
        (f"{P}/transactions", "addresses", p_two, [("pageSize", "100")]),
        (f"{X}/transactions", "txTypes", ["BaseTx", "CreateAssetTx"], [("pageSize", "50")]),
        (f"{X}/transactions", "addresses", x_two, [("pageSize", "100")]),
        (f"{X}/assets/{AVAX}/transactions", "txTypes", ["BaseTx", "ExportTx"], [("pageSize", "50")]),
        (f"{P}/utxos", "addresses", p_two, [("pageSize", "100")]),
        (f"{P}/balances", "addresses", p_two, []),
        (f"{X}/utxos", "addresses", x_two, [("pageSize", "100")]),
        (f"{X}/balances", "addresses", x_two, []),
        (f"{C}/utxos", "addresses", c_two, [("pageSize", "100")]),
        (f"{C}/balances", "addresses", c_two, []),
        (f"{X}/lastActivityTimestampByAddresses", "addresses", newest_first, []),
        (f"{NET}/addresses:listChainIds", "addresses", x_two, []),
        (f"{P}/transactions:listStaking", "txTypes", list(STAKES), [("pageSize", "100")]),
        (f"{P}/transactions:listStaking", "addresses", stakers, [("pageSize", "100")]),
        (f"{NET}/rewards:listPending", "nodeIds", nodes, [("pageSize", "100")]),
        (f"{NET}/rewards:listPending", "addresses", rewarded, [("pageSize", "100")]),
        (f"{NET}/validators", "nodeIds", nodes, []),
        (f"{NET}/delegators", "nodeIds", delegated, [("pageSize", "100")]),
        (f"{NET}/delegators", "rewardAddresses", rewarded, [("pageSize", "100")]),
        (f"/v1/chains/43114/addresses/{POOL_0}/balances:listErc20", "contractAddresses", tokens, []),
    ]


def test_every_list_parameter_reads_repeated_keys_as_its_comma_list(emu: Any, cases: Any) -> None:
    for path, name, items, more in cases:
        repeated = _answer(emu, path, [(name, i) for i in items] + more)
        comma = _answer(emu, path, [(name, ",".join(items))] + more)
        last_alone = _answer(emu, path, [(name, items[-1])] + more)
        assert repeated[0] == 200, (path, name, repeated)
        assert repeated == comma, (path, name)
        assert repeated != last_alone, f"{path} {name}: the first item counts too"


def test_a_repeated_item_is_checked_like_the_others(emu: Any) -> None:
    for path in (f"{P}/transactions", f"{X}/transactions"):
        status, body = _answer(emu, path, [("txTypes", "Nope"), ("txTypes", "ImportTx")])
        assert status == 400 and '\\"Nope\\" is no' in json.dumps(body["message"]), (path, body)
    # The document's operations answer class-validator's message, which names no value.
    status, body = _answer(emu, f"{P}/transactions:listStaking", [("txTypes", "ImportTx"), ("txTypes", "Nope")])
    assert status == 400 and body["message"][0].startswith("each value in txTypes must be one of"), body
    for chain in (P, X):
        status, body = _answer(emu, f"{chain}/utxos", [("addresses", "nope"), ("addresses", "avax1x")])
        assert status == 400 and "nope" in json.dumps(body["message"]), body


def test_the_clients_tx_types_filter_by_every_type(emu: Any) -> None:
    with ad.DataClient(emu.url) as data:
        # The client sends a list of tx types as repeated keys.
        both = list(data.primary_network_transactions("mainnet", "p-chain", tx_types=list(STAKES)))
        alone = [list(data.primary_network_transactions("mainnet", "p-chain", tx_types=[k])) for k in STAKES]
    assert {t["txType"] for t in both} == set(STAKES)
    hashes = [t["txHash"] for t in both]
    assert len(set(hashes)) == len(hashes) == sum(map(len, alone))
    assert set(hashes) == {t["txHash"] for one in alone for t in one}
