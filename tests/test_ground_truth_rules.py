"""The rules of ``spec/ground-truth.md``, section "Real answers", held against the emulator (its
raw answers, as a service's) and against the client (how it reads answers that follow them).

The emulator is asked over plain HTTP, so what is checked is its answer, not the client's reading
of it. The client is given answers that follow a rule: the emulator's own, or one of them changed
to the rule's edge (a ``platformLocktime`` of ``0``, a block without ``chainId``), served from a
loopback server.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import urllib.request
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
from _avax_tx import address_of_key, utxo_id, x_tx_id
from _helpers import GetRequest, GetServer

UTC = dt.timezone.utc
P_CHAIN_ID = "11111111111111111111111111111111LpoYY"
REAL = Path(__file__).parent / "fixtures" / "real"
HOUR = 3600
CONSUMING = ("consumingTxHash", "consumingBlockNumber", "consumingBlockTimestamp")
#: An X-chain output's fields once spent (all of them, or none).
X_SPENT = ("consumingTxHash", "consumingTxTimestamp", "credentials")
#: Per network: its id, its X-Chain's id and its addresses' prefix.
X_CHAINS = {"mainnet": (1, "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", "avax"),
            "fuji": (5, "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm", "fuji")}

#: How the client types what these rules are about today, in one place (issue 34, section 3
#: changes some: update them here).
TYPES: dict[str, Any] = {
    # An output index is one concept with one type (issue 34, section 3): the X-Chain's text
    # ("57") and the P-Chain's number (57) both read as the integer, in dicts and frames.
    "utxo outputIndex frame": pl.UInt64(),
    "x-chain outputIndex dict": int,
    "p-chain outputIndex dict": int,
    "platformLocktime frame": pl.UInt64(),
}


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(data_blocks_per_chain=25_000) as emulator:
        yield emulator


def get(emu: ad.Emulator, target: str) -> Any:
    """The emulator's answer to ``GET target``, as JSON."""
    with urllib.request.urlopen(emu.url + target, timeout=60) as answer:
        return json.loads(answer.read())


def world_address(emu: ad.Emulator) -> str:
    """A Mainnet P-address of the world that holds P-chain UTXOs (a stake's owner), bech32 without ``P-``."""
    return emu.world["p_addresses"]["mainnet"][0].removeprefix("P-")


def utxo_owners(emu: ad.Emulator) -> list[str]:
    """The world's stake owners, then the owners of the latest P-chain txs' outputs that are not staked."""
    owners = [a.removeprefix("P-") for a in emu.world["p_addresses"]["mainnet"]]
    txs = get(emu, "/v1/networks/mainnet/blockchains/p-chain/transactions?pageSize=100")["transactions"]
    change = sorted({a for tx in txs for u in tx["emittedUtxos"] if u["staked"] is False for a in u["addresses"]})
    assert change, "the latest P-chain txs pay outputs that are not staked"
    return [*owners, *change[:5]]


def x_utxo_owners(emu: ad.Emulator) -> list[str]:
    """The owners of the X-Chain-held outputs of the latest X-Chain txs (the X world pays them)."""
    txs = get(emu, "/v1/networks/mainnet/blockchains/x-chain/transactions?pageSize=20")["transactions"]
    held = [u for tx in txs for u in tx["emittedUtxos"] if u["consumedOnChainId"] == u["createdOnChainId"]]
    owners = sorted({u["addresses"][0] for u in held})
    assert owners, "the latest X-Chain txs pay outputs held on the X-Chain"
    return owners


def utxo_pages(emu: ad.Emulator, chain: str, pages: int = 8) -> list[dict[str, Any]]:
    """The UTXOs of ``pages`` of the world's addresses' first pages on ``chain`` (each address holds its own)."""
    items: list[dict[str, Any]] = []
    for address in (x_utxo_owners(emu) if chain == "x-chain" else utxo_owners(emu))[:pages]:
        items += get(emu, f"/v1/networks/mainnet/blockchains/{chain}/utxos?addresses={address}&pageSize=100")["utxos"]
    return items


# --- the emulator ----------------------------------------------------------------------------------


@pytest.mark.parametrize("network", ["mainnet", "fuji"])
@pytest.mark.parametrize("blockchain", [P_CHAIN_ID, "p-chain"])
def test_emulator_answers_the_real_p_chain_record(emu: ad.Emulator, network: str, blockchain: str) -> None:
    real = json.loads((REAL / "data_blockchain_p_chain.json").read_text())["body"]
    assert get(emu, f"/v1/networks/{network}/blockchains/{blockchain}") == real


def test_emulator_block_numbers_are_decimal_text(emu: ad.Emulator) -> None:
    chains = get(emu, "/v1/networks/mainnet/blockchains?pageSize=25")["blockchains"]
    other = get(emu, f"/v1/networks/mainnet/blockchains/{chains[0]['blockchainId']}")
    for record in [*chains, other]:
        number = record["createBlockNumber"]
        assert number == "-1" or (number.isdigit() and str(int(number)) == number), record


def test_emulator_utxo_output_index_is_text_on_x_and_a_number_on_p(emu: ad.Emulator) -> None:
    x = utxo_pages(emu, "x-chain", 3)
    p = utxo_pages(emu, "p-chain", 3)
    assert x and p
    assert all(isinstance(u["outputIndex"], str) and u["outputIndex"].isdigit() for u in x), x[:2]
    assert all(type(u["outputIndex"]) is int for u in p), p[:2]
    # The X-chain's UTXO is the document's plain `Utxo`: no P-chain fields.
    assert not any("platformLocktime" in u or "staked" in u or "blockNumber" in u for u in x)
    assert all("creationTxHash" in u for u in x)


def test_emulator_p_chain_utxos_send_their_locktime_and_staked_ones_no_consuming_fields(emu: ad.Emulator) -> None:
    items = utxo_pages(emu, "p-chain")
    staked = [u for u in items if u.get("staked") is True]
    unstaked = [u for u in items if u.get("staked") is not True]
    assert staked and unstaked, "the pages hold staked and other UTXOs"
    assert all("platformLocktime" in u and isinstance(u["platformLocktime"], int) for u in items)
    assert not [u for u in staked if any(k in u for k in CONSUMING)]
    # The world never spends its own P-chain outputs (docs/guides/emulator.md): none carries the
    # consuming fields. That a spent one that is not staked keeps them is held on a served answer
    # (test_client_reads_a_staked_utxo_without_consuming_fields).
    assert not [u for u in unstaked if any(k in u for k in CONSUMING)]
    assert {u["utxoType"] for u in staked} == {"STAKE"} and {u["utxoType"] for u in unstaked} == {"TRANSFER"}


def metric_window(emu: ad.Emulator) -> tuple[str, int]:
    """A chain of the emulator and an hour of its hourly series with 2 points after it and 8 before."""
    chain = get(emu, "/v2/chains")["chains"][0]["evmChainId"]
    series = get(emu, f"/v2/chains/{chain}/metrics/txCount?timeInterval=hour&pageSize=2160")["results"]
    assert len(series) >= 11, "the world spans 11 hours"
    return str(chain), series[2]["timestamp"]


def test_emulator_metrics_end_timestamp_is_inclusive(emu: ad.Emulator) -> None:
    chain, end = metric_window(emu)
    path = f"/v2/chains/{chain}/metrics/txCount?timeInterval=hour&pageSize=100"
    got = [p["timestamp"] for p in get(emu, f"{path}&startTimestamp={end - 5 * HOUR}&endTimestamp={end}")["results"]]
    assert got == [end - k * HOUR for k in range(6)], "newest first, the point on endTimestamp included"
    # A window cut at a bucket start tiles with its neighbour when the earlier one asks up to b - 1.
    earlier = [p["timestamp"] for p in get(emu, f"{path}&startTimestamp={end - 5 * HOUR}&endTimestamp={end - 3 * HOUR - 1}")["results"]]
    later = [p["timestamp"] for p in get(emu, f"{path}&startTimestamp={end - 3 * HOUR}&endTimestamp={end}")["results"]]
    assert later + earlier == got


def test_emulator_metrics_without_time_interval_answer_hourly(emu: ad.Emulator) -> None:
    chain, end = metric_window(emu)
    window = f"startTimestamp={end - 7 * HOUR}&endTimestamp={end}&pageSize=100"
    default = get(emu, f"/v2/chains/{chain}/metrics/txCount?{window}")
    hourly = get(emu, f"/v2/chains/{chain}/metrics/txCount?timeInterval=hour&{window}")
    assert default == hourly and len(default["results"]) == 8


def test_emulator_pages_carry_no_token_unless_full(emu: ad.Emulator) -> None:
    chain, end = metric_window(emu)
    window = f"/v2/chains/{chain}/metrics/txCount?timeInterval=hour&startTimestamp={end - 4 * HOUR}&endTimestamp={end}"
    assert "nextPageToken" not in get(emu, f"{window}&pageSize=10")
    assert "nextPageToken" in get(emu, f"{window}&pageSize=2")
    blocks = get(emu, "/v1/chains/43114/blocks?pageSize=5")
    assert "nextPageToken" in blocks
    numbers = [int(b["blockNumber"]) for b in blocks["blocks"]]
    assert numbers == sorted(numbers, reverse=True), "newest first"


def x_tx_violations(record: dict[str, Any], network: str) -> list[str]:
    """How an X-chain transaction record breaks the rules the real ones follow (ground-truth.md,
    "X-Chain transactions"); empty when it follows them all."""
    network_id, x_chain, hrp = X_CHAINS[network]
    bad: list[str] = []
    tx, when = record["txHash"], record["timestamp"]
    for side in ("consumedUtxos", "emittedUtxos"):
        for u in record[side]:
            where = f"{tx} {side} {u.get('utxoId')}"
            index = u["outputIndex"]
            if not (isinstance(index, str) and index.isdigit()) or utxo_id(u["creationTxHash"], int(index)) != u["utxoId"]:
                bad.append(f"{where}: utxoId is not sha256(outputIndex, creationTxHash)")
            if not all(a.startswith(hrp + "1") for a in u["addresses"]):
                bad.append(f"{where}: an address without the {hrp}1 prefix")
            if u["timestamp"] != when:
                bad.append(f"{where}: timestamp {u['timestamp']} is not the transaction's {when}")
            if any(k in u for k in X_SPENT) and not all(k in u for k in X_SPENT):
                bad.append(f"{where}: some of {X_SPENT} but not all")
            credentials = u.get("credentials", [])
            if not all({"publicKey", "signature"} <= set(c) for c in credentials):
                bad.append(f"{where}: a credential without its publicKey or signature")
            elif not {address_of_key(hrp, c["publicKey"]) for c in credentials} <= set(u["addresses"]):
                bad.append(f"{where}: a credential's key is not an owner's")
    for u in record["consumedUtxos"]:
        if (u.get("consumingTxHash"), u.get("consumingTxTimestamp")) != (tx, when):
            bad.append(f"{tx}: the input {u['utxoId']} is not spent by it, then")
    if [u["outputIndex"] for u in record["emittedUtxos"]] != [str(i) for i in range(len(record["emittedUtxos"]))]:
        bad.append(f"{tx}: the outputs are not indexed 0, 1, ...")
    for field, side in (("amountUnlocked", "consumedUtxos"), ("amountCreated", "emittedUtxos")):
        sums: dict[str, int] = {}
        for u in record[side]:
            sums[u["asset"]["assetId"]] = sums.get(u["asset"]["assetId"], 0) + int(u["asset"]["amount"])
        if {a["assetId"]: int(a["amount"]) for a in record[field]} != sums:
            bad.append(f"{tx}: {field} is not the sum of {side}")
    simple = record["txType"] in ("BaseTx", "ImportTx", "ExportTx") and all(
        len(c) == 1 for u in record["consumedUtxos"] for c in [u.get("credentials", [])])
    if simple and not bad and x_tx_id(record, network_id, x_chain) != tx:
        bad.append(f"{tx}: the id does not recompute from the record")
    return bad


def test_the_real_x_chain_records_follow_the_rules_a_changed_one_does_not() -> None:
    records = [json.loads((REAL / f"data_x_tx_fuji_{k}.json").read_text())["body"] for k in ("base", "export", "import")]
    assert [x_tx_violations(r, "fuji") for r in records] == [[], [], []]
    # Adversarial: the input given its creation time (as a client that joined by id would).
    changed = copy.deepcopy(records[0])
    changed["consumedUtxos"][0]["timestamp"] = records[1]["timestamp"]
    assert [v.split(": ")[1] for v in x_tx_violations(changed, "fuji")] == [
        f"timestamp {records[1]['timestamp']} is not the transaction's {records[0]['timestamp']}"]
    spent_half = copy.deepcopy(records[0])
    del spent_half["consumedUtxos"][0]["credentials"]
    assert any("but not all" in v for v in x_tx_violations(spent_half, "fuji"))
    # A memo the transaction did not carry: every rule holds but the id.
    assert x_tx_violations({**records[2], "memo": "0x00"}, "fuji") == [f"{records[2]['txHash']}: the id does not recompute from the record"]


def test_emulator_x_chain_transactions_follow_the_real_rules(emu: ad.Emulator) -> None:
    txs = get(emu, "/v1/networks/mainnet/blockchains/x-chain/transactions?pageSize=25")["transactions"]
    linear = [t for t in txs if t.get("chainFormat") == "linear"]
    assert linear, "the X-Chain's post-Cortina transactions are linear"
    assert [v for t in linear for v in x_tx_violations(t, "mainnet")] == []


# --- the client ------------------------------------------------------------------------------------


def replay(body: Any) -> GetServer:
    """A server answering every GET with ``body``."""

    def answer(_: GetRequest) -> tuple[int, Any]:
        return 200, body

    return GetServer(answer)


def test_client_reads_the_output_index_as_each_chain_sends_it(emu: ad.Emulator) -> None:
    with ad.DataClient(base_url=emu.url) as data:
        for chain in ("x-chain", "p-chain"):
            address = x_utxo_owners(emu)[0] if chain == "x-chain" else world_address(emu)
            raw = get(emu, f"/v1/networks/mainnet/blockchains/{chain}/utxos?addresses={address}&pageSize=100")["utxos"]
            rows = list(data.utxos("mainnet", chain, addresses=[address], page_size=100, limit=len(raw)))
            assert [r["outputIndex"] for r in rows] == [int(u["outputIndex"]) for u in raw]
            assert {type(u["outputIndex"]) for u in raw} == {str if chain == "x-chain" else int}  # as sent
            assert {type(r["outputIndex"]) for r in rows} == {TYPES[f"{chain} outputIndex dict"]}
            frame = data.utxos("mainnet", chain, addresses=[address], page_size=100, limit=len(raw)).to_polars()
            assert frame.schema["outputIndex"] == TYPES["utxo outputIndex frame"]
            assert frame["outputIndex"].to_list() == [int(u["outputIndex"]) for u in raw]


def test_client_keeps_a_zero_platform_locktime(emu: ad.Emulator) -> None:
    address = world_address(emu)
    page = get(emu, f"/v1/networks/mainnet/blockchains/p-chain/utxos?addresses={address}&pageSize=100")
    page = copy.deepcopy(page)
    for utxo in page["utxos"]:
        utxo["platformLocktime"] = 0
    with replay(page) as server, ad.DataClient(base_url=server.url) as data:
        rows = list(data.utxos("mainnet", "p-chain", addresses=[address]))
        frame = data.utxos("mainnet", "p-chain", addresses=[address]).to_polars()
    assert rows and all("platformLocktime" in r and r["platformLocktime"] == 0 for r in rows)
    assert frame.schema["platformLocktime"] == TYPES["platformLocktime frame"]
    assert frame["platformLocktime"].to_list() == [0] * len(rows) and frame["platformLocktime"].null_count() == 0


def test_client_reads_a_staked_utxo_without_consuming_fields(emu: ad.Emulator) -> None:
    address = world_address(emu)
    page = get(emu, f"/v1/networks/mainnet/blockchains/p-chain/utxos?addresses={address}&pageSize=100")
    page = copy.deepcopy(page)
    assert len(page["utxos"]) >= 2, "the world's stake owner holds several UTXOs"
    staked, spent = page["utxos"][0], page["utxos"][1]
    staked["staked"] = True
    for field in CONSUMING:
        staked.pop(field, None)
    # A spent UTXO that is not staked keeps its consuming fields (the world spends none: edited in).
    spent.update(staked=False, utxoType="TRANSFER", consumingTxHash="2bocwH8haadK2qKBXUNdSnPUtPx1MHNAp4XiXQqvzfTiaSzYiE")
    spent.update(consumingBlockNumber="9001", consumingBlockTimestamp=1767000000)
    with replay(page) as server, ad.DataClient(base_url=server.url) as data:
        rows = list(data.utxos("mainnet", "p-chain", addresses=[address]))
        frame = data.utxos("mainnet", "p-chain", addresses=[address]).to_polars()
    assert rows[0]["staked"] is True and not set(CONSUMING) & set(rows[0])
    assert frame.row(0, named=True)["staked"] is True
    assert all(frame[field][0] is None for field in CONSUMING)
    assert rows[1]["staked"] is False
    assert rows[1]["consumingTxHash"] == spent["consumingTxHash"] and rows[1]["consumingBlockNumber"] == 9001
    assert rows[1]["consumingBlockTimestamp"] == dt.datetime.fromtimestamp(1767000000, UTC)
    assert frame.row(1, named=True)["consumingTxHash"] == spent["consumingTxHash"]


def test_client_reads_an_older_block_without_chain_id(emu: ad.Emulator) -> None:
    page = copy.deepcopy(get(emu, "/v1/chains/43114/blocks?pageSize=4"))
    page.pop("nextPageToken", None)
    del page["blocks"][-1]["chainId"]
    with replay(page) as server, ad.DataClient(base_url=server.url) as data:
        rows = list(data.blocks("43114", page_size=4))
        frame = data.blocks("43114", page_size=4).to_polars()
    assert len(server.requests) == 2, "a page without nextPageToken ends the walk: one request per walk"
    assert "chainId" not in rows[-1] and all(r["chainId"] == "43114" for r in rows[:-1])
    assert frame["chainId"].to_list() == ["43114"] * 3 + [None]
    assert frame["blockNumber"].cast(pl.String).to_list() == [b["blockNumber"] for b in page["blocks"]]


def test_client_metric_keeps_the_point_on_end_and_defaults_to_hours(emu: ad.Emulator) -> None:
    chain, end = metric_window(emu)
    start = end - 7 * HOUR
    with ad.MetricsClient(base_url=emu.url) as metrics:
        sequential = metrics.metric(chain, "txCount", interval="hour", start=start, end=end, concurrency=1).to_polars()
        sharded = metrics.metric(chain, "txCount", interval="hour", start=start, end=end, page_size=2).to_polars()
        default = metrics.metric(chain, "txCount", start=start, end=end, page_size=2).to_polars()
    stamps = [int(t.timestamp()) for t in sequential["timestamp"].to_list()]
    assert stamps == [end - k * HOUR for k in range(8)], "newest first, both ends kept"
    assert sharded.equals(sequential) and default.equals(sequential)
