"""Data API client end to end against the emulator: every endpoint, filter, parameter check,
pagination, resume, token expiry, frames, auth and rate limits."""

from __future__ import annotations

import asyncio
import datetime as dt
import pickle

import polars as pl
import pytest

import avax_data as ad

MAINNET_X = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"
FUJI_X = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"
OWNER = "0x6a2474f3e677ce65e495508043237ea93738a031"
NODE0 = "NodeID-JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE"
PADDR0 = "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr"
KEY = "test-key-0123456789abcdef"


@pytest.fixture(scope="module")
def emu():
    with ad.Emulator(data_blocks_per_chain=60) as e:
        yield e


@pytest.fixture
def data(emu):
    with ad.DataClient(base_url=emu.url, max_retries=0) as c:
        yield c


UTC = dt.timezone.utc
DEC = pl.Decimal(38, 0)
TS = pl.Datetime("ns", "UTC")


# ---- single objects ----

def test_chains_and_filters(data):
    chains = data.chains()
    assert {"43114", "43113"} <= {c["chainId"] for c in chains}
    main = data.chains(network="mainnet")
    assert main and all(not c["isTestnet"] for c in main)
    fuji = data.chains(network="fuji")
    assert fuji and all(c["isTestnet"] for c in fuji)
    for feature in ("nftIndexing", "webhooks", "teleporter"):
        got = data.chains(feature=feature)
        assert got and all(feature in c["enabledFeatures"] for c in got)
    assert {c["chainId"] for c in data.chains(network="testnet")} == {c["chainId"] for c in fuji}


def test_chain_block_by_number_and_hash_and_health(data):
    chain = data.chain("43114")
    assert chain["chainId"] == "43114" and chain["vmName"] == "EVM"
    assert data.chain(chain["platformChainId"])["chainId"] == "43114"
    block = data.block("43114", 5)
    assert block["blockNumber"] == 5 and isinstance(block["gasCost"], int)
    assert block["blockTimestamp"].tzinfo is UTC
    assert data.block("43114", block["blockHash"]) == block
    assert data.block("43114", "5") == block
    health = data.health()
    assert health["status"] == "ok" and health["info"]["database"]["status"] == "up"


def test_not_found_is_typed(data):
    with pytest.raises(ad.NotFoundError) as e:
        data.chain("999999999")
    assert e.value.status == 404 and e.value.api_message
    with pytest.raises(ad.NotFoundError):
        data.block("43114", 10**9)


# ---- parameter checks: refused before any request ----

BAD_CALLS = [
    ("chains network", lambda d: d.chains(network="devnet"), "network"),
    ("chains feature", lambda d: d.chains(feature="nft"), "feature"),
    ("blocks size 0", lambda d: d.blocks("43114", page_size=0), "page_size"),
    ("blocks size 101", lambda d: d.blocks("43114", page_size=101), "page_size"),
    ("blocks size str", lambda d: d.blocks("43114", page_size="5"), "page_size"),
    ("latest network", lambda d: d.latest_blocks(network="main"), "network"),
    ("latest size", lambda d: d.latest_blocks(page_size=101), "page_size"),
    ("collectibles size", lambda d: d.collectibles("43114", OWNER, page_size=501), "page_size"),
    ("rewards network", lambda d: d.pending_rewards("devnet", node_ids=[NODE0]), "network"),
    ("rewards none", lambda d: d.pending_rewards("mainnet"), "addresses/node_ids"),
    ("rewards address", lambda d: d.pending_rewards("mainnet", addresses=["0xabc"]), "addresses"),
    ("rewards hrp", lambda d: d.pending_rewards("mainnet", addresses="P-eth1qqqqqqqq"), "addresses"),
    ("rewards node", lambda d: d.pending_rewards("mainnet", node_ids="JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE"), "node_ids"),
    ("rewards sort", lambda d: d.pending_rewards("mainnet", node_ids=[NODE0], sort_order="up"), "sort_order"),
    ("rewards size", lambda d: d.pending_rewards("mainnet", node_ids=[NODE0], page_size=101), "page_size"),
    ("vertices network", lambda d: d.vertices("devnet"), "network"),
    ("vertices chain", lambda d: d.vertices("mainnet", "p-chain"), "blockchain_id"),
    ("vertices size", lambda d: d.vertices("mainnet", page_size=0), "page_size"),
    ("icm network", lambda d: d.icm_messages(network="x"), "network"),
    ("icm size", lambda d: d.icm_messages(page_size=1000), "page_size"),
    ("icm to", lambda d: d.icm_messages(to=5), "to"),
    ("block id", lambda d: d.block("43114", 1.5), "block_id"),
    ("block neg", lambda d: d.block("43114", -1), "block_id"),
    ("limit", lambda d: d.blocks("43114", limit=-1), "limit"),
    ("token", lambda d: d.blocks("43114", page_token=""), "page_token"),
    ("chain id", lambda d: d.chain("a/b"), "chain_id"),
]


@pytest.mark.parametrize("name,call,param", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_bad_parameters_fail_before_any_request(emu, data, name, call, param):
    before = emu.request_count()
    with pytest.raises(ValueError) as e:
        call(data)
    assert isinstance(e.value, ad.InvalidParameterError)
    assert e.value.param == param and e.value.allowed
    assert emu.request_count() == before


def test_lists_may_be_python_lists_or_comma_strings(data):
    a = list(data.pending_rewards("mainnet", node_ids=[NODE0], addresses=None))
    b = list(data.pending_rewards("mainnet", node_ids=NODE0))
    assert a == b and a
    c = list(data.pending_rewards("mainnet", addresses=[PADDR0, "P-" + PADDR0]))
    d = list(data.pending_rewards("mainnet", addresses=f"{PADDR0}, X-{PADDR0}"))
    assert c == d and c


FUJI_PADDR0 = "fuji1h9kz4uq54mwef3lhp2u2a6p6rljequplkx4u9p"


def one_char_typos(address: str) -> list[str]:
    """Every address made by changing one data character of ``address`` to another bech32 one."""
    data_at = address.rindex("1") + 1
    return [address[:i] + ("q" if address[i] != "q" else "p") + address[i + 1:]
            for i in range(data_at, len(address))]


def test_a_mistyped_address_is_refused_by_its_checksum_before_any_request(emu, data):
    before = emu.request_count()
    typos = one_char_typos(PADDR0)
    assert len(typos) == 38 and PADDR0 not in typos
    for typo in typos + ["P-" + typos[0], "X-" + typos[-1]]:
        with pytest.raises(ad.InvalidParameterError) as e:
            data.pending_rewards("mainnet", addresses=[PADDR0, typo])
        assert e.value.param == "addresses" and typo in str(e.value.value)
        assert "not valid bech32" in str(e.value) and "mainnet addresses like 'avax1...'" in str(e.value)
    assert emu.request_count() == before


def test_addresses_must_carry_the_prefix_of_their_network(emu, data):
    before = emu.request_count()
    with pytest.raises(ad.InvalidParameterError, match=r'the prefix "fuji" is not mainnet\'s'):
        data.pending_rewards("mainnet", addresses=FUJI_PADDR0)
    for network in ("fuji", "testnet"):
        with pytest.raises(ad.InvalidParameterError, match=f"the prefix \"avax\" is not {network}'s"):
            data.pending_rewards(network, addresses=f"P-{PADDR0}")
    with pytest.raises(ad.InvalidParameterError, match='the prefix "local" is not mainnet'):
        data.pending_rewards("mainnet", addresses="X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
    assert emu.request_count() == before
    # the emulator's fuji staker passes the check and matches its rewards
    rewards = list(data.pending_rewards("fuji", addresses=f"P-{FUJI_PADDR0}", limit=5))
    assert rewards and all(FUJI_PADDR0 in r["addresses"] for r in rewards)


# ---- lists, filters, orderings ----

def test_blocks_newest_first_to_the_end(data):
    blocks = list(data.blocks("43114", page_size=7))
    assert [b["blockNumber"] for b in blocks] == list(range(59, -1, -1))
    stamps = [b["blockTimestamp"] for b in blocks]
    assert stamps == sorted(stamps, reverse=True)


def test_latest_blocks_network_filter(data):
    fuji_ids = {c["chainId"] for c in data.chains(network="fuji")}
    got = list(data.latest_blocks(network="fuji", page_size=20, limit=40))
    assert len(got) == 40 and {b["chainId"] for b in got} <= fuji_ids
    assert len({b["chainId"] for b in data.latest_blocks(limit=30)}) > 1


def test_collectibles_both_kinds_and_contract_filter(data):
    items = list(data.collectibles("43114", OWNER, page_size=50))
    # 40 pre-minted items of each of 3 allocated contracts, the ERC-1155 Items ids its logs left the
    # owner (ids 1 to 24), then the tokens it minted (emu.world's shapes)
    minted = [i for i in items if i["tokenId"] > 100_000_000]
    per_contract: dict[str, int] = {}
    for i in items:
        if i["tokenId"] <= 100_000_000:
            per_contract[i["address"]] = per_contract.get(i["address"], 0) + 1
    assert sorted(per_contract.values())[-3:] == [40, 40, 40] and len(per_contract) <= 4 and minted
    assert all(i["ercType"] == "ERC-721" and i["address"] == items[0]["address"] for i in minted)
    kinds = {i["ercType"] for i in items}
    assert {"ERC-721", "ERC-1155"} <= kinds
    assert all(isinstance(i["balance"], int) for i in items if i["ercType"] == "ERC-1155")
    contract = items[0]["address"]
    filtered = list(data.collectibles("43114", OWNER, contract_address=contract, page_size=500))
    assert filtered and all(i["address"] == contract for i in filtered)
    assert list(data.collectibles("43114", "0x000000000000000000000000000000000000dead")) == []


def test_rewards_filters_and_sort_order(data):
    asc = list(data.pending_rewards("mainnet", node_ids=[NODE0], sort_order="asc"))
    desc = list(data.pending_rewards("mainnet", node_ids=[NODE0], sort_order="desc"))
    assert asc and all(r["nodeId"] == NODE0 for r in asc)
    assert [r["startTimestamp"] for r in asc] == sorted(r["startTimestamp"] for r in asc)
    assert [r["startTimestamp"] for r in desc] == sorted((r["startTimestamp"] for r in desc), reverse=True)
    r = asc[0]
    assert isinstance(r["amountStaked"], int) and isinstance(r["estimatedReward"]["amount"], int)
    assert r["startTimestamp"].tzinfo is UTC
    by_address = list(data.pending_rewards("mainnet", addresses=[PADDR0]))
    assert by_address and all(PADDR0 in a for r in by_address for a in [",".join(r["addresses"])])


def test_vertices_alias_and_ids(data):
    alias = list(data.vertices("mainnet", page_size=25))
    assert len(alias) == 60
    assert list(data.vertices("mainnet", MAINNET_X, page_size=25)) == alias
    assert list(data.vertices("fuji", FUJI_X, limit=3))
    heights = [v["vertexHeight"] for v in alias]
    assert heights == sorted(heights, reverse=True)


def test_icm_messages_filters(data):
    msgs = list(data.icm_messages(page_size=100, limit=300))
    assert {"pending", "delivered"} <= {m["status"] for m in msgs}
    m = msgs[0]
    src, dst = m["sourceBlockchainId"], m["destinationBlockchainId"]
    assert all(x["sourceBlockchainId"] == src for x in data.icm_messages(source_blockchain_id=src, limit=50))
    assert all(x["destinationBlockchainId"] == dst for x in data.icm_messages(destination_blockchain_id=dst, limit=50))
    both = list(data.icm_messages(blockchain_id=src, limit=50))
    assert both and all(src in (x["sourceBlockchainId"], x["destinationBlockchainId"]) for x in both)
    assert all(x["to"] == m["to"] for x in data.icm_messages(to=m["to"], limit=20))
    assert all(x["from"] == m["from"] for x in data.icm_messages(from_=m["from"], limit=20))
    fuji = {c["chainId"] for c in data.chains(network="fuji")}
    assert all(x["sourceEvmChainId"] in fuji for x in data.icm_messages(network="fuji", limit=20))


# ---- pagination: limit, pages, resume, prefetch ----

def test_limit_pages_and_resume_from_a_saved_token(data):
    pager = data.blocks("43114", page_size=10, limit=25)
    first = list(pager)
    assert [b["blockNumber"] for b in first] == list(range(59, 34, -1))
    # The last page asked only for the 5 items left, so the walk stops on a page boundary.
    assert pager.items_read == 25 and pager.page_offset == 0 and not pager.exhausted
    token = pager.next_page_token
    assert token
    # A new pager from the saved token starts at item 26.
    rest = list(data.blocks("43114", page_size=10, page_token=token))
    assert [b["blockNumber"] for b in rest] == list(range(34, -1, -1))
    pages = list(data.blocks("43114", page_size=25).pages())
    assert [len(p) for p in pages] == [25, 25, 10]


def test_iteration_resumes_without_loss_or_duplicates(data):
    pager = data.blocks("43114", page_size=8)
    seen = []
    for b in pager:
        seen.append(b["blockNumber"])
        if len(seen) == 13:
            break
    for b in pager:  # resumes inside the second page
        seen.append(b["blockNumber"])
    assert seen == list(range(59, -1, -1))
    assert pager.exhausted and pager.next_page_token is None
    assert list(pager) == []


def test_prefetch_keeps_order_while_the_consumer_is_slow(emu, data):
    emu.set_latency(0.02)
    try:
        got = []
        for b in data.blocks("43114", page_size=5):
            got.append(b["blockNumber"])
        assert got == list(range(59, -1, -1))
    finally:
        emu.set_latency(0.0)


def test_token_expiry_raises_a_typed_error_with_the_position(emu, data):
    pager = data.blocks("43114", page_size=10)
    it = iter(pager)
    for _ in range(10):
        next(it)
    token = pager.next_page_token
    it.close()
    emu.advance_clock(25 * 3600)
    with pytest.raises(ad.PageTokenError) as e:
        list(pager)
    err = e.value
    assert isinstance(err, ad.BadRequestError) and err.status == 400
    assert err.page_token == token and err.items_read == 10
    assert "expired" in str(err.api_message)
    assert pager.next_page_token == token  # position unchanged: nothing silently restarted
    with pytest.raises(ad.PageTokenError):
        data.blocks("43114", page_size=10, page_token=token).to_polars()
    with pytest.raises(ad.BadRequestError):
        list(data.blocks("43114", page_token="not-a-token"))
    pickle.loads(pickle.dumps(err))


def test_async_pager_matches_sync(emu, data):
    async def main():
        async with ad.AsyncDataClient(base_url=emu.url) as c:
            assert (await c.chain("43114"))["chainId"] == "43114"
            assert (await c.block("43114", 3))["blockNumber"] == 3
            assert len(await c.chains(network="mainnet")) == len(data.chains(network="mainnet"))
            assert (await c.health())["status"] == "ok"
            items = [b async for b in c.blocks("43114", page_size=9)]
            pages = [p async for p in c.vertices("mainnet", page_size=20).pages()]
            df = await c.icm_messages(limit=30).to_polars()
            with pytest.raises(ValueError):
                await c.chains(network="nope")
            return items, pages, df

    items, pages, df = asyncio.run(main())
    assert items == list(data.blocks("43114", page_size=9))
    assert [len(p) for p in pages] == [20, 20, 20]
    assert df.height == 30


# ---- frames ----

def test_block_frame_schema(data):
    df = data.blocks("43114", page_size=50).to_polars()
    assert df.height == 60
    s = df.schema
    assert s["blockNumber"] == pl.UInt64 and s["blockTimestamp"] == TS and s["blockTimestampMilliseconds"] == TS
    for col in ("baseFee", "gasUsed", "gasLimit", "gasCost", "feesSpent"):
        assert s[col] == DEC, col
    for col in ("txCount", "cumulativeTransactions", "blockMinDelayExcess"):
        assert s[col] == pl.UInt64, col
    assert s["blockHash"] == pl.String and df.columns[-1] == "extra" and df["extra"].null_count() == df.height
    assert df["blockNumber"].to_list() == list(range(59, -1, -1))
    # the frame agrees with the dicts
    first = data.block("43114", 59)
    assert int(df["feesSpent"][0]) == first["feesSpent"]
    assert df["blockTimestamp"][0] == first["blockTimestamp"]


def test_wei_above_2_pow_64_survive(data):
    df = data.latest_blocks(page_size=100, limit=400).to_polars()
    big = [int(v) for v in df["feesSpent"].to_list() + df["gasCost"].to_list() if v is not None and int(v) >= 2**64]
    dict_big = [b["feesSpent"] for b in data.latest_blocks(page_size=100, limit=400) if b["feesSpent"] >= 2**64]
    assert len(big) >= len(dict_big)


def test_collectible_frame_mixes_kinds(data):
    df = data.collectibles("43114", OWNER, page_size=500).to_polars()
    assert df.height == len(list(data.collectibles("43114", OWNER, page_size=500))) > 120
    s = df.schema
    assert s["balance"] == pl.String and s["balanceFloat"] == pl.Float64 and s["tokenId"] == pl.String
    # uint256 text agrees with the dicts' exact ints
    dicts = list(data.collectibles("43114", OWNER, page_size=500))
    assert [int(t) for t in df["tokenId"]] == [d["tokenId"] for d in dicts]
    assert isinstance(s["metadata"], pl.Struct)
    erc721 = df.filter(pl.col("ercType") == "ERC-721")
    erc1155 = df.filter(pl.col("ercType") == "ERC-1155")
    assert erc721.height and erc1155.height
    assert erc721["balance"].null_count() == erc721.height and erc1155["balance"].null_count() == 0
    meta = df["metadata"].struct.unnest()
    assert meta.schema["metadataLastUpdatedTimestamp"] == TS


def test_reward_vertex_icm_frames(data):
    r = data.pending_rewards("mainnet", node_ids=[NODE0]).to_polars()
    assert r.schema["addresses"] == pl.List(pl.String) and r.schema["amountStaked"] == DEC
    assert r.schema["startTimestamp"] == TS and r.schema["progress"] == pl.Float64
    est = r["estimatedReward"].struct.unnest()
    assert est.schema["amount"] == DEC and est.schema["denomination"] == pl.UInt64
    v = data.vertices("mainnet").to_polars(limit=15)
    assert v.height == 15 and v.schema["parentHashes"] == pl.List(pl.String) and v.schema["vertexTimestamp"] == TS
    m = data.icm_messages(page_size=100).to_polars(limit=300)
    assert m.schema["messageNonce"] == DEC and m.schema["messageExecuted"] == pl.Boolean
    assert isinstance(m.schema["receipts"], pl.List) and isinstance(m.schema["rewardDetails"], pl.Struct)
    pending = m.filter(pl.col("status") == "pending")
    delivered = m.filter(pl.col("status") == "delivered")
    assert pending.height and delivered.height
    assert pending["destinationTransaction"].null_count() == pending.height
    assert delivered["destinationTransaction"].null_count() == 0
    dest = delivered["destinationTransaction"].struct.unnest()
    assert dest.schema["timestamp"] == TS and dest.schema["gasSpent"] == DEC
    price = m["rewardDetails"].struct.field("price").struct.field("value")
    assert price.dtype == pl.Float64


def test_write_parquet(tmp_path, data):
    path = tmp_path / "blocks.parquet"
    pager = data.blocks("43114", page_size=25)
    assert pager.write_parquet(path) == 60
    df = pl.read_parquet(path)
    assert df.height == 60 and df.schema["feesSpent"] == DEC
    assert pager.exhausted


# ---- auth, redaction, rate limits ----

def test_key_required_refused_and_redacted():
    with ad.Emulator(data_blocks_per_chain=5, data_api_require_key=True, data_api_refused_keys=["bad-key-999999"]) as emu:
        with ad.DataClient(base_url=emu.url, max_retries=0) as anon:
            with pytest.raises(ad.UnauthorizedError) as e:
                anon.health()
            assert e.value.status == 401
        with ad.DataClient(emu.url, api_key="bad-key-999999", max_retries=0) as refused:
            with pytest.raises(ad.ForbiddenError) as e:
                refused.chains()
            assert "bad-key-999999" not in str(e.value) and "bad-key-999999" not in repr(refused)
            assert "bad-key-999999" not in (e.value.body or "") + (e.value.url or "")
        with ad.DataClient(emu.url, api_key=KEY) as ok:
            assert ok.chains()
            assert KEY not in repr(ok)


def test_env_key(monkeypatch):
    with ad.Emulator(data_blocks_per_chain=5, data_api_require_key=True) as emu:
        monkeypatch.setenv("AVAX_DATA_API_KEY", KEY)
        with ad.DataClient(base_url=emu.url) as c:
            assert c.health()["status"] == "ok"


def test_rate_limit_headers_a_wait_instead_of_a_429_and_then_error():
    with ad.Emulator(data_blocks_per_chain=5, rate_limit=(2, 1.0)) as emu:
        with ad.DataClient(emu.url, api_key=KEY, max_retries=5, retry_budget=10.0) as c:
            assert c.rate_limit is None
            c.health()
            info = c.rate_limit
            assert info["limit"] == 2 and info["policy"] and info["remaining"] is not None
            before = emu.request_count()
            for _ in range(3):
                c.health()  # after `remaining: 0` the client waits out the window: no 429
            assert emu.request_count() == before + 3
            assert 429 not in [status for _, _, status in emu.request_log(with_status=True)]
        # No budget to wait: the request goes out and meets the 429.
        with ad.DataClient(emu.url, api_key=KEY, max_retries=0, retry_budget=0) as c:
            with pytest.raises(ad.RateLimitError) as e:
                for _ in range(5):
                    c.health()
            assert e.value.status == 429 and e.value.retry_after is not None and e.value.retry_after > 0
        with ad.DataClient(base_url=emu.url, max_retries=0) as anon:
            for _ in range(5):
                anon.health()  # unkeyed requests are not limited


def test_closed_client(emu):
    c = ad.DataClient(base_url=emu.url)
    c.close()
    with pytest.raises(ad.AvaxDataError):
        c.health()
    assert "closed" in repr(c)


def test_to_polars_limit_then_resume_and_pages_with_limit(data):
    pager = data.blocks("43114", page_size=10)
    head = pager.to_polars(limit=15)
    assert head["blockNumber"].to_list() == list(range(59, 44, -1))
    # the second request asked only for the 5 items still wanted: the position is at a page start
    assert pager.items_read == 15 and pager.page_offset == 0 and pager.next_page_token is not None
    rest = pager.to_polars()
    assert rest["blockNumber"].to_list() == list(range(44, -1, -1))
    assert pager.exhausted and pager.to_polars().height == 0
    capped = data.blocks("43114", page_size=10, limit=23)
    assert [len(p) for p in capped.pages()] == [10, 10, 3]
    assert capped.to_polars().height == 0  # the limit is spent


def test_async_resume_after_break(emu):
    async def main():
        async with ad.AsyncDataClient(base_url=emu.url) as c:
            pager = c.blocks("43114", page_size=7)
            seen = []
            async for b in pager:
                seen.append(b["blockNumber"])
                if len(seen) == 10:
                    break
            async for b in pager:
                seen.append(b["blockNumber"])
            return seen, pager.exhausted

    seen, exhausted = asyncio.run(main())
    assert seen == list(range(59, -1, -1)) and exhausted
