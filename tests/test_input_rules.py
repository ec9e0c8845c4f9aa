"""One input rule set on every method, generated or hand-written (issue 34, section 4), and one
name per concept (issue 35, section 3): ``base_url`` on every client, ``start``/``end`` on every
time window.

Each id rule of the core (P-/X-Chain addresses, 0x addresses and hashes, CB58 ids, node ids,
block ids, ICM chains: ``openapi_operations()``'s ``rule``) runs through every method that takes a
parameter of its kind, with values every rule refuses: each call raises an
``InvalidParameterError`` (a ``ValueError``) naming the parameter, the value and what is allowed,
the same message in every method, and the emulator receives no request.
"""

from __future__ import annotations

import asyncio
import warnings
from collections import defaultdict
from typing import Any, Callable

import pytest

import avax_data as ad
from avax_data import _endpoints, _native

from _cli import cli

BAD = ["hello", "11111111111111111111111111111111LpoYZ", "0xabc", "avax1x459sj0ssujguq723cljfty4jlae28evjzt7xz",
       "../x"]
P_CHAIN_ID = "11111111111111111111111111111111LpoYY"
ADDRESS = "avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c"
EVM = "0x000000000000000000000000000000000000dEaD"
GOOD = {"px_address": ADDRESS, "px_or_evm_address": ADDRESS, "evm_address": EVM, "cb58": P_CHAIN_ID,
        "node_id": "NodeID-111111111111111111116DBWJs", "icm_chain": "43114",
        "evm_hash": "0x8bf584d7b14b92a32a339872a66b134a70ba3ba7c305823f348db6f860253f45"}
# What each rule allows, as its message says (after "invalid <param>=<value>: ").
ALLOWED = {
    "px_address": "mainnet addresses like 'avax1...', 'P-avax1...' or 'X-avax1...' (bech32 of a 20-byte address "
                  "with a valid checksum): ",
    "px_or_evm_address": "mainnet addresses like 'avax1...', 'P-avax1...' or 'X-avax1...' (bech32 of a 20-byte "
                         "address with a valid checksum), or a 0x address (40 hex digits): ",
    "evm_address": "a 0x address (40 hex digits)",
    "cb58": "a CB58 ",
    "node_id": "a node id: 'NodeID-' and the CB58 of 20 bytes with a valid checksum, like "
               "'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'",
    "evm_hash": "a 0x transaction hash (64 hex digits)",
    "block_id": "a block number (decimal) or a 0x block hash (64 hex digits)",
    "block_id_primary": "a block number (decimal) or a CB58 block id (32 bytes and a valid checksum)",
    "icm_chain": "a CB58 blockchain id (32 bytes and a valid checksum), an EVM chain id (decimal) or a 0x blockchain "
                 "id (64 hex digits)",
}
OPERATIONS = {op["operation_id"]: op for op in _native.openapi_operations()}


def _valid(op: dict[str, Any], p: dict[str, Any]) -> Any:
    """A valid value of a required parameter."""
    if p["rule"] == "block_id":
        return P_CHAIN_ID if "{network}" in op["path"] else "1"
    if p["rule"]:
        return GOOD[p["rule"]]
    if p["name"] == "network":
        return "mainnet"
    if p["enum"]:
        return p["enum"][0]
    if p["chain_id"]:
        return "43114"
    if p["time"]:
        return 1_700_000_000
    return {"integer": 1, "number": 1, "boolean": True}.get(p["type"], "abc")


Call = Callable[[ad.DataClient, ad.MetricsClient, str], Any]


def _generated_cases() -> list[tuple[str, str, str, Call]]:
    """(rule, parameter, method, call with the bad value) for every generated method's id parameter."""
    cases = []
    for entry in _endpoints._TABLE:
        op = OPERATIONS[entry["operation"]]
        params = {p["py_name"]: p for p in op["params"]}
        for name, p in params.items():
            if not p["rule"]:
                continue
            positional = [(n, _valid(op, params[n])) for n, _ in entry["positional"]]
            keyword = {n: _valid(op, params[n]) for n, _, required in entry["keyword"] if required}

            def call(data: ad.DataClient, metrics: ad.MetricsClient, bad: str, *, entry: dict[str, Any] = entry,
                     name: str = name, positional: list[tuple[str, Any]] = positional,
                     keyword: dict[str, Any] = keyword) -> Any:
                client = data if entry["service"] == "data" else metrics
                args = [bad if n == name else v for n, v in positional]
                options = dict(keyword)
                if name not in dict(positional):
                    options[name] = bad
                return getattr(client, entry["name"])(*args, **options)

            # A block of the P-/X-Chain is named by a CB58 id, an EVM chain's by a 0x hash.
            rule = "block_id_primary" if p["rule"] == "block_id" and "{network}" in op["path"] else p["rule"]
            cases.append((rule, name, entry["name"], call))
    return cases


# The hand-written methods that take an id parameter, each with the rule the table gives it.
HAND: list[tuple[str, str, str, Call]] = [
    ("px_address", "addresses", "pending_rewards", lambda d, m, bad: d.pending_rewards("mainnet", addresses=[bad])),
    ("px_address", "addresses", "pending_rewards",
     lambda d, m, bad: d.pending_rewards("mainnet", addresses=f"{ADDRESS},{bad}")),
    ("node_id", "node_ids", "pending_rewards", lambda d, m, bad: d.pending_rewards("mainnet", node_ids=[bad])),
    ("evm_address", "address", "collectibles", lambda d, m, bad: d.collectibles("43114", bad)),
    ("evm_address", "contract_address", "collectibles",
     lambda d, m, bad: d.collectibles("43114", EVM, contract_address=bad)),
    ("icm_chain", "source_blockchain_id", "icm_messages", lambda d, m, bad: d.icm_messages(source_blockchain_id=bad)),
    ("icm_chain", "destination_blockchain_id", "icm_messages",
     lambda d, m, bad: d.icm_messages(destination_blockchain_id=bad)),
    ("icm_chain", "blockchain_id", "icm_messages", lambda d, m, bad: d.icm_messages(blockchain_id=bad)),
    ("evm_address", "to", "icm_messages", lambda d, m, bad: d.icm_messages(to=bad)),
    ("evm_address", "from_", "icm_messages", lambda d, m, bad: d.icm_messages(from_=bad)),
    ("icm_chain", "src_blockchain_id", "icm_summary", lambda d, m, bad: m.icm_summary(src_blockchain_id=bad)),
    ("icm_chain", "dest_blockchain_id", "icm_summary", lambda d, m, bad: m.icm_summary(dest_blockchain_id=bad)),
    ("block_id", "block_id", "block", lambda d, m, bad: d.block("43114", bad)),
]
CASES = _generated_cases() + HAND


@pytest.fixture(scope="module")
def local() -> Any:
    with ad.Emulator(containers=10, data_blocks_per_chain=20) as emulator:
        yield emulator


def test_every_rule_reaches_every_method_that_takes_its_parameter() -> None:
    methods: dict[str, set[str]] = defaultdict(set)
    for rule, _, method, _ in CASES:
        methods[rule].add(method)
    # Every rule the table names is exercised, and the issue's examples are among them.
    assert set(methods) == set(ALLOWED)
    assert {"utxos", "primary_network_balances", "pending_rewards"} <= methods["px_address"]
    assert {"blockchain", "subnet", "asset"} <= methods["cb58"]
    assert {"validator", "pending_rewards", "historical_rewards", "node_metrics"} <= methods["node_id"]
    assert len(CASES) >= 70


def test_a_bad_id_is_one_message_in_every_method_and_nothing_is_sent(local: ad.Emulator) -> None:
    before = local.request_count()
    messages: dict[tuple[str, str, str], dict[str, str]] = defaultdict(dict)
    with ad.DataClient(local.url, api_key="k") as data, ad.MetricsClient(local.url) as metrics:
        for rule, param, method, call in CASES:
            for bad in BAD:
                with pytest.raises(ad.InvalidParameterError) as caught:
                    call(data, metrics, bad)
                exc = caught.value
                assert isinstance(exc, ValueError)
                assert (exc.param, exc.value) == (param, bad), (method, str(exc))
                text = str(exc)
                assert text.startswith(f'invalid {param}="{bad}": ' + ALLOWED[rule]), (method, text)
                messages[(rule, param, bad)][method] = text
    for key, by_method in messages.items():
        assert len(set(by_method.values())) == 1, (key, by_method)
    assert local.request_count() == before, "a refused call sent a request"


def test_the_issue_examples_now_agree(local: ad.Emulator) -> None:
    with ad.DataClient(local.url) as data:
        refusals = []
        for call in (lambda: data.utxos("mainnet", "p-chain", addresses=["hello"]),
                     lambda: data.primary_network_balances("mainnet", "p-chain", addresses="hello"),
                     lambda: data.pending_rewards("mainnet", addresses=["hello"])):
            with pytest.raises(ad.InvalidParameterError) as caught:
                call()
            refusals.append(str(caught.value))
        assert len(set(refusals)) == 1 and refusals[0].startswith('invalid addresses="hello": mainnet addresses like')
        # The P-Chain's own id (32 zero bytes) is a blockchain id.
        assert "blockchainId" in data.blockchain("mainnet", P_CHAIN_ID)
        # A real address passes (and is sent, checksum and all).
        assert data.utxos("mainnet", "p-chain", addresses=[f"P-{ADDRESS}"], limit=1).to_polars().height <= 1


@pytest.mark.parametrize(("call", "message"), [
    (lambda m, d: m.metric("43114", "txcount"),
     "invalid metric=\"txcount\": one of activeAddresses, "),
    (lambda m, d: m.rolling_window_metric("43114", "txcount"), "invalid metric=\"txcount\": one of "),
    (lambda m, d: d.validators("Mainnet"), "invalid network=\"Mainnet\": one of mainnet, fuji, testnet"),
    (lambda m, d: d.utxos("mainnet", "P-Chain", addresses=[ADDRESS]), "invalid blockchain_id=\"P-Chain\": one of "),
])
def test_an_enum_names_the_word_meant(call: Callable[[Any, Any], Any], message: str, local: ad.Emulator) -> None:
    with ad.MetricsClient(local.url) as metrics, ad.DataClient(local.url) as data:
        with pytest.raises(ad.InvalidParameterError) as caught:
            call(metrics, data)
    text = str(caught.value)
    meant = {"txcount": "txCount", "Mainnet": "mainnet", "P-Chain": "p-chain"}
    assert text.startswith(message), text
    word = next(w for w in meant if f'"{w}"' in text)
    assert text.endswith(f"(did you mean '{meant[word]}'?)"), text


def test_every_time_window_is_start_and_end_and_the_old_names_warn(local: ad.Emulator) -> None:
    windows = [e for e in _endpoints._TABLE if any(n in ("start", "end") for n, _, _ in e["keyword"])]
    assert len(windows) == 16  # 17 operations have a window; the 17th is the hand-written metric()
    for entry in windows:
        names = [n for n, _, _ in entry["keyword"]]
        assert "start" in names and "end" in names and "start_timestamp" not in names, entry["name"]
        assert entry["deprecated"] == [["start_timestamp", "start"], ["end_timestamp", "end"]], entry["name"]
    start, end = "2025-12-01", "2026-01-01T00:00:00Z"  # the world's last month: its staking series come from its stakes
    with ad.MetricsClient(local.url) as metrics:
        new = metrics.staking("mainnet", "validatorCount", start=start, end=end).to_polars()
        with pytest.warns(DeprecationWarning, match=r"staking\(start_timestamp=\.\.\.\) is deprecated: use start="):
            old = metrics.staking("mainnet", "validatorCount", start_timestamp=start, end=end).to_polars()
        assert old.equals(new) and new.height > 0
        with pytest.raises(ad.InvalidParameterError, match=r"invalid end_timestamp=1: only one of end= and"):
            metrics.staking("mainnet", "validatorCount", end=2, end_timestamp=1)
        with pytest.raises(ad.InvalidParameterError, match=r"^invalid start=-5: a time from 1970"):
            metrics.staking("mainnet", "validatorCount", start=-5)


def test_the_cli_takes_start_and_the_old_flag_with_a_warning(capsys: pytest.CaptureFixture[str],
                                                             local: ad.Emulator, tmp_path: Any) -> None:
    common = ["metrics", "staking", "mainnet", "validatorCount", "--base-url", local.url, "--quiet"]
    new = cli(capsys, *common, "--start", "1709000000", "-o", str(tmp_path / "new.csv"))
    assert new.code == 0, new.err
    old = cli(capsys, *common, "--start-timestamp", "1709000000", "-o", str(tmp_path / "old.csv"))
    assert old.code == 0 and "--start-timestamp is deprecated: use --start" in old.err
    assert (tmp_path / "new.csv").read_bytes() == (tmp_path / "old.csv").read_bytes()
    both = cli(capsys, *common, "--start", "1", "--start-timestamp", "1709000000", "-o", str(tmp_path / "x.csv"))
    assert both.code == 2 and "only one of --start and --start-timestamp" in both.err


@pytest.mark.parametrize("cls", [ad.IndexClient, ad.DataClient, ad.MetricsClient,
                                 ad.AsyncIndexClient, ad.AsyncDataClient, ad.AsyncMetricsClient])
def test_every_client_names_its_url_base_url(cls: type, local: ad.Emulator) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        client = cls(base_url=local.url)
        assert client.base_url == cls(local.url).base_url == local.url.rstrip("/")
    if cls in (ad.IndexClient, ad.AsyncIndexClient):
        with pytest.warns(DeprecationWarning, match=r"IndexClient\(url=\.\.\.\) is deprecated: use base_url="):
            assert cls(url=local.url).base_url == client.base_url
        with pytest.warns(DeprecationWarning, match=r"IndexClient\.url is deprecated: use \.base_url"):
            assert client.url == client.base_url
        with pytest.raises(ad.InvalidParameterError, match=r"only one of base_url= and url="):
            cls(base_url=local.url, url=local.url)
    else:  # refused, naming the right name (pyo3's own TypeError only said `url` was unexpected)
        name = cls.__name__
        with pytest.raises(TypeError, match=rf"^{name}\(\) takes the service URL as base_url= \(or first\), not url=$"):
            cls(url=local.url)
    if cls.__name__.startswith("Async"):
        async def close() -> None:
            await client.close()

        asyncio.run(close())
    else:
        client.close()


def test_the_dask_helpers_take_base_url_and_the_old_name_warns(local: ad.Emulator) -> None:
    add = pytest.importorskip("avax_data.dask")
    specs = add.index_chunks(base_url=local.url, path="X/tx", start=0, end=10, chunk=5)
    assert [(s.first, s.next) for s in specs] == [(0, 5), (5, 10)]
    with pytest.warns(DeprecationWarning, match=r"index_chunks\(url=\.\.\.\) is deprecated: use base_url="):
        assert add.index_chunks(url=local.url, path="X/tx", start=0, end=10, chunk=5) == specs
    with pytest.raises(ad.InvalidParameterError, match=r"only one of base_url= and url="):
        add.index_chunks(local.url, "X/tx", url=local.url)
