//! The emulator's Data API (`/v1`), checked over real HTTP: shapes per the OpenAPI document
//! (`spec/openapi/data-api.openapi.json`), filters, orderings, pagination, page-token
//! expiry, error bodies, keys and rate limits, determinism.

use std::collections::HashSet;
use std::time::Duration;

use avax_data_emulator::data_api::{chains, known_owner_addresses, Network};
use avax_data_emulator::world::{self, rewards};
use avax_data_emulator::{Emulator, EmulatorConfig, RateLimit};
use serde_json::Value;

use crate::common;
use common::{all_pages, error, error_body, get, get_with, is_uuid_v4, ok, with};

const BLOCKS: u64 = 230;

async fn start(config: EmulatorConfig) -> Emulator {
    Emulator::start(config).await.expect("emulator starts")
}

async fn start_small() -> Emulator {
    start(EmulatorConfig { seed: 11, data_blocks_per_chain: BLOCKS, default_count: 10, ..Default::default() }).await
}

async fn bad_request(emu: &Emulator, path: &str) -> Value {
    error(emu, path, 400, "Bad Request").await
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_else(|| panic!("{k} is a string in {v}"))
}

fn decimal(v: &Value, k: &str) -> u128 {
    s(v, k).parse().unwrap_or_else(|_| panic!("{k} is a decimal string in {v}"))
}

fn int(v: &Value, k: &str) -> i64 {
    v[k].as_i64().unwrap_or_else(|| panic!("{k} is an integer in {v}"))
}

fn is_hash(t: &str) -> bool {
    t.len() == 66 && t.starts_with("0x") && t[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

fn is_address(t: &str) -> bool {
    t.len() == 42 && t.starts_with("0x") && t[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

fn check_chain(c: &Value) {
    for k in
        ["chainId", "status", "chainName", "description", "vmName", "rpcUrl", "platformChainId", "subnetId", "vmId"]
    {
        s(c, k);
    }
    assert!(["OK", "UNAVAILABLE"].contains(&s(c, "status")));
    assert_eq!(s(c, "vmName"), "EVM");
    assert!(c["isTestnet"].is_boolean() && c["private"] == false);
    let t = &c["networkToken"];
    s(t, "name");
    s(t, "symbol");
    assert!(t["decimals"].is_u64());
    s(&c["utilityAddresses"], "multicall");
    for f in c["enabledFeatures"].as_array().unwrap() {
        assert!(["nftIndexing", "webhooks", "teleporter"].contains(&f.as_str().unwrap()));
    }
}

fn check_block(b: &Value) {
    s(b, "chainId");
    let n = decimal(b, "blockNumber");
    let _ = n;
    assert!(int(b, "blockTimestamp") > 1_700_000_000);
    assert_eq!(int(b, "blockTimestampMilliseconds") / 1000, int(b, "blockTimestamp"));
    assert!(is_hash(s(b, "blockHash")) && is_hash(s(b, "parentHash")));
    assert!(b["txCount"].is_u64());
    assert!(decimal(b, "gasUsed") <= decimal(b, "gasLimit"));
    decimal(b, "baseFee");
    decimal(b, "gasCost");
    decimal(b, "feesSpent");
    assert!(decimal(b, "cumulativeTransactions") >= b["txCount"].as_u64().unwrap() as u128);
}

#[tokio::test(flavor = "multi_thread")]
async fn chains_list_filters_and_lookup() {
    let emu = start_small().await;
    let all = ok(&emu, "/v1/chains").await;
    let list = all["chains"].as_array().unwrap();
    assert_eq!(list.len(), chains().len());
    assert!(all.get("nextPageToken").is_none());
    list.iter().for_each(check_chain);
    let ids: HashSet<&str> = list.iter().map(|c| s(c, "chainId")).collect();
    assert!(ids.contains("43114") && ids.contains("43113"));
    let c = list.iter().find(|c| c["chainId"] == "43114").unwrap();
    assert_eq!(c["platformChainId"], "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5");
    assert!(list.iter().any(|c| c["status"] == "UNAVAILABLE"));
    let symbols: HashSet<&str> = list.iter().map(|c| s(&c["networkToken"], "symbol")).collect();
    assert!(symbols.len() >= 5, "L1s have their own tokens");

    let mainnet = ok(&emu, "/v1/chains?network=mainnet").await["chains"].as_array().unwrap().clone();
    assert!(mainnet.len() >= 3 && mainnet.iter().all(|c| c["isTestnet"] == false));
    let fuji = ok(&emu, "/v1/chains?network=fuji").await;
    assert_eq!(fuji, ok(&emu, "/v1/chains?network=testnet").await);
    assert!(fuji["chains"].as_array().unwrap().iter().all(|c| c["isTestnet"] == true));
    assert!(fuji["chains"].as_array().unwrap().iter().any(|c| c["chainId"] == "43113"));
    for feature in ["nftIndexing", "webhooks", "teleporter"] {
        let l = ok(&emu, &format!("/v1/chains?feature={feature}")).await["chains"].as_array().unwrap().clone();
        assert!(!l.is_empty() && l.len() < list.len(), "{feature}");
        assert!(l.iter().all(|c| c["enabledFeatures"].as_array().unwrap().iter().any(|f| f == feature)));
    }
    let both = ok(&emu, "/v1/chains?network=fuji&feature=teleporter").await["chains"].as_array().unwrap().clone();
    assert!(both.len() >= 2 && both.iter().all(|c| c["isTestnet"] == true));

    let by_evm = ok(&emu, "/v1/chains/43113").await;
    check_chain(&by_evm);
    assert_eq!(by_evm["platformChainId"], "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp");
    assert_eq!(ok(&emu, "/v1/chains/yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp").await, by_evm);

    let m = error_body(&get(&emu, "/v1/chains/999999").await, 404, "Not Found");
    assert!(m.as_str().unwrap().contains("999999"));
    let m = error_body(&get(&emu, "/v1/nothing/here").await, 404, "Not Found");
    assert_eq!(m, "Cannot GET /v1/nothing/here");
    let post = reqwest::Client::new().post(format!("{}/v1/chains", emu.url())).send().await.unwrap();
    assert_eq!(post.status().as_u16(), 404);
    assert_eq!(post.json::<Value>().await.unwrap()["message"], "Cannot POST /v1/chains");
    let m = bad_request(&emu, "/v1/chains?network=devnet&feature=bridges").await;
    let m = m.as_array().expect("validation messages are an array");
    assert_eq!(m.len(), 2);
    assert!(m[0].as_str().unwrap().contains("network must be one of the following values"));
    assert!(m[1].as_str().unwrap().contains("feature must be one of the following values"));
}

#[tokio::test(flavor = "multi_thread")]
async fn chain_blocks_newest_first_consistent_and_paged_to_the_end() {
    let emu = start_small().await;
    let first = ok(&emu, "/v1/chains/43114/blocks").await;
    let blocks = first["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 10, "default pageSize");
    assert_eq!(blocks[0]["blockNumber"], (BLOCKS - 1).to_string());
    assert!(first["nextPageToken"].is_string());

    for chain in ["43114", "4337", "779672"] {
        let (all, pages) = all_pages(&emu, &format!("/v1/chains/{chain}/blocks?pageSize=100"), "blocks").await;
        assert_eq!(all.len() as u64, BLOCKS);
        assert_eq!(pages, 3);
        for (i, b) in all.iter().enumerate() {
            check_block(b);
            assert_eq!(b["chainId"], chain);
            assert_eq!(decimal(b, "blockNumber"), (BLOCKS - 1 - i as u64) as u128, "no gap, no duplicate");
        }
        for pair in all.windows(2) {
            let (newer, older) = (&pair[0], &pair[1]);
            assert_eq!(newer["parentHash"], older["blockHash"]);
            assert!(int(newer, "blockTimestamp") > int(older, "blockTimestamp"));
            assert_eq!(
                decimal(newer, "cumulativeTransactions"),
                decimal(older, "cumulativeTransactions") + newer["txCount"].as_u64().unwrap() as u128
            );
        }
        let genesis = all.last().unwrap();
        assert_eq!(genesis["parentHash"], format!("0x{}", "0".repeat(64)));
        assert_eq!(decimal(genesis, "cumulativeTransactions"), genesis["txCount"].as_u64().unwrap() as u128);
        let c = world::chain(chain.parse().unwrap()).unwrap();
        let w = emu.data_world();
        assert_eq!(w.block(c, 17).unwrap().to_json(), all[(BLOCKS - 1 - 17) as usize]);
        let txs = w.transactions(c, 17).unwrap();
        assert_eq!(txs.len() as u64, all[(BLOCKS - 1 - 17) as usize]["txCount"].as_u64().unwrap());
    }
    // The blockchain id names the same chain, and a page size of 1 works.
    let by_id = ok(&emu, "/v1/chains/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/blocks?pageSize=1").await;
    assert_eq!(by_id["blocks"][0], blocks[0]);
    assert_eq!(by_id["blocks"].as_array().unwrap().len(), 1);

    // Blocks by number and by hash.
    let b = &blocks[3];
    let n = s(b, "blockNumber");
    assert_eq!(&ok(&emu, &format!("/v1/chains/43114/blocks/{n}")).await, b);
    assert_eq!(&ok(&emu, &format!("/v1/chains/43114/blocks/{}", s(b, "blockHash"))).await, b);
    assert_eq!(
        &ok(&emu, &format!("/v1/chains/43114/blocks/{}", s(b, "blockHash").to_uppercase().replacen("0X", "0x", 1)))
            .await,
        b
    );
    let m = error_body(&get(&emu, &format!("/v1/chains/43114/blocks/{BLOCKS}")).await, 404, "Not Found");
    assert!(m.is_string());
    error_body(&get(&emu, &format!("/v1/chains/43113/blocks/{}", s(b, "blockHash"))).await, 404, "Not Found");
    error_body(&get(&emu, &format!("/v1/chains/43114/blocks/0x{}", "ab".repeat(32))).await, 404, "Not Found");
    error_body(&get(&emu, "/v1/chains/1/blocks/1").await, 404, "Not Found");
    error_body(&get(&emu, "/v1/chains/1/blocks").await, 404, "Not Found");
    assert!(bad_request(&emu, "/v1/chains/43114/blocks/latest").await.is_string());

    // pageSize bounds: class-validator arrays.
    assert_eq!(
        bad_request(&emu, "/v1/chains/43114/blocks?pageSize=101").await,
        serde_json::json!(["pageSize must not be greater than 100"])
    );
    assert_eq!(
        bad_request(&emu, "/v1/chains/43114/blocks?pageSize=0").await,
        serde_json::json!(["pageSize must not be less than 1"])
    );
    let m = bad_request(&emu, "/v1/chains/43114/blocks?pageSize=ten").await;
    assert!(m.as_array().unwrap().iter().any(|x| x == "pageSize must be an integer number"));
    assert_eq!(ok(&emu, "/v1/chains/43114/blocks?pageSize=100").await["blocks"].as_array().unwrap().len(), 100);
}

#[tokio::test(flavor = "multi_thread")]
async fn latest_blocks_across_chains() {
    let emu = start_small().await;
    for (network, is_testnet) in [("mainnet", false), ("fuji", true)] {
        let ids: HashSet<String> = chains()
            .iter()
            .filter(|c| (c.network == Network::Fuji) == is_testnet)
            .map(|c| c.evm_chain_id.to_string())
            .collect();
        let (all, _) = all_pages(&emu, &format!("/v1/blocks?network={network}&pageSize=77"), "blocks").await;
        assert_eq!(all.len() as u64, ids.len() as u64 * BLOCKS);
        let mut seen = HashSet::new();
        for b in &all {
            check_block(b);
            assert!(ids.contains(s(b, "chainId")));
            assert!(seen.insert((s(b, "chainId").to_string(), s(b, "blockNumber").to_string())), "duplicate {b}");
        }
        assert!(all
            .windows(2)
            .all(|p| int(&p[0], "blockTimestampMilliseconds") >= int(&p[1], "blockTimestampMilliseconds")));
        let head: HashSet<&str> = all[..20].iter().map(|b| s(b, "chainId")).collect();
        assert!(head.len() >= 2, "the newest blocks come from several chains");
    }
    let every = ok(&emu, "/v1/blocks?pageSize=100").await;
    assert_eq!(every["blocks"].as_array().unwrap().len(), 100);
    assert_eq!(ok(&emu, "/v1/blocks").await["blocks"].as_array().unwrap().len(), 10);
    let m = bad_request(&emu, "/v1/blocks?network=devnet&pageSize=1000").await;
    assert_eq!(m.as_array().unwrap().len(), 2, "{m}");
}

#[tokio::test(flavor = "multi_thread")]
async fn collectibles_of_known_owners() {
    let emu = start_small().await;
    let owner = &known_owner_addresses()[0];
    let path = format!("/v1/chains/43114/addresses/{owner}/balances:listCollectibles");
    let (items, pages) = all_pages(&emu, &with(&path, "pageSize=50"), "collectibleBalances").await;
    // 40 pre-minted items of each of the 3 allocated contracts, then the tokens it minted in the
    // blocks (the ERC-721 collection's and the ERC-1155 Items).
    let c = world::chain(43114).unwrap();
    let held = emu.data_world().collectibles(c, owner).len();
    assert!(held > 120, "{held}");
    assert_eq!((items.len(), pages), (held, held.div_ceil(50)));
    let mut seen = HashSet::new();
    let mut statuses = HashSet::new();
    for item in &items {
        assert!(is_address(s(item, "address")));
        assert_eq!(item["chainId"], "43114");
        s(item, "tokenUri");
        decimal(item, "tokenId");
        let status = s(&item["metadata"], "indexStatus").to_string();
        statuses.insert(status);
        match s(item, "ercType") {
            "ERC-721" => {
                s(item, "name");
                s(item, "symbol");
                assert_eq!(s(item, "ownerAddress"), owner.as_str());
                assert!(item.get("balance").is_none());
            }
            "ERC-1155" => assert!(decimal(item, "balance") >= 1),
            other => panic!("ercType {other}"),
        }
        assert!(seen.insert((s(item, "address").to_string(), s(item, "tokenId").to_string())));
    }
    assert!(statuses.contains("INDEXED") && statuses.len() >= 3, "{statuses:?}");
    assert_eq!(ok(&emu, &with(&path, "pageSize=500")).await["collectibleBalances"].as_array().unwrap().len(), held);

    let contract = s(&items[0], "address").to_string();
    let (only, _) =
        all_pages(&emu, &with(&path, &format!("contractAddress={contract}&pageSize=7")), "collectibleBalances").await;
    let minted = items.iter().filter(|i| s(i, "tokenId").parse::<u128>().unwrap() > 100_000_000).count();
    assert!(minted > 0);
    assert_eq!(only.len(), 40 + minted, "the collection: 40 pre-minted items and the mints");
    assert!(only.iter().all(|i| i["address"] == contract.as_str()));

    for other in &known_owner_addresses()[1..] {
        for chain in ["43114", "4337", "43113", "173750"] {
            let body = ok(&emu, &format!("/v1/chains/{chain}/addresses/{other}/balances:listCollectibles")).await;
            assert!(!body["collectibleBalances"].as_array().unwrap().is_empty(), "{chain} {other}");
        }
    }
    let stranger =
        ok(&emu, "/v1/chains/43114/addresses/0x000000000000000000000000000000000000dEaD/balances:listCollectibles")
            .await;
    assert_eq!(stranger["collectibleBalances"], serde_json::json!([]));
    assert!(stranger.get("nextPageToken").is_none());
    let no_nft = ok(&emu, &format!("/v1/chains/53935/addresses/{owner}/balances:listCollectibles")).await;
    assert_eq!(no_nft["collectibleBalances"], serde_json::json!([]));

    assert_eq!(
        bad_request(&emu, &with(&path, "pageSize=501")).await,
        serde_json::json!(["pageSize must not be greater than 500"])
    );
    assert!(bad_request(&emu, "/v1/chains/43114/addresses/not-an-address/balances:listCollectibles").await.is_string());
    error_body(
        &get(&emu, &format!("/v1/chains/5/addresses/{owner}/balances:listCollectibles")).await,
        404,
        "Not Found",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn pending_rewards_filters_and_order() {
    let emu = start_small().await;
    let addr = rewards::p_address(Network::Mainnet, 0);
    let node = rewards::node_id(Network::Mainnet, 0);
    let path = format!("/v1/networks/mainnet/rewards:listPending?addresses={addr}");
    let (items, _) = all_pages(&emu, &with(&path, "pageSize=3"), "pendingRewards").await;
    let expected =
        emu.data_world().pending_rewards(Network::Mainnet).iter().filter(|r| r.addresses.contains(&addr)).count();
    assert_eq!(items.len(), expected);
    assert!(!items.is_empty());
    for r in &items {
        assert!(r["addresses"].as_array().unwrap().iter().any(|a| a == addr.as_str()));
        assert!(s(r, "nodeId").starts_with("NodeID-"));
        s(r, "txHash");
        assert!(decimal(r, "amountStaked") > 0);
        assert!(int(r, "startTimestamp") < int(r, "endTimestamp"));
        assert!(["VALIDATOR", "DELEGATOR", "VALIDATOR_FEE"].contains(&s(r, "rewardType")));
        assert!(r["progress"].is_number());
        let e = &r["estimatedReward"];
        for k in ["assetId", "name", "symbol", "type", "amount"] {
            s(e, k);
        }
        assert_eq!(e["denomination"], 9);
    }
    assert!(items.windows(2).all(|p| int(&p[0], "startTimestamp") <= int(&p[1], "startTimestamp")), "asc by default");
    // Prefixes P- and X- are optional.
    let with_p = ok(&emu, &format!("/v1/networks/mainnet/rewards:listPending?addresses=P-{addr}&pageSize=100")).await;
    let with_x = ok(&emu, &format!("/v1/networks/mainnet/rewards:listPending?addresses=X-{addr}&pageSize=100")).await;
    assert_eq!(with_p["pendingRewards"].as_array().unwrap().len(), expected);
    assert_eq!(with_p, with_x);

    let by_node = format!("/v1/networks/mainnet/rewards:listPending?nodeIds={node}&pageSize=100");
    let (nodes, _) = all_pages(&emu, &by_node, "pendingRewards").await;
    assert!(nodes.iter().all(|r| r["nodeId"] == node.as_str()));
    assert!(nodes.iter().any(|r| r["rewardType"] == "VALIDATOR"));
    let desc = ok(&emu, &with(&by_node, "sortOrder=desc")).await["pendingRewards"].as_array().unwrap().clone();
    assert!(desc.windows(2).all(|p| int(&p[0], "startTimestamp") >= int(&p[1], "startTimestamp")));
    assert_eq!(desc.len(), nodes.len());
    let node1 = rewards::node_id(Network::Mainnet, 1);
    let two = ok(&emu, &format!("/v1/networks/mainnet/rewards:listPending?nodeIds={node},{node1}&pageSize=100")).await;
    assert!(two["pendingRewards"].as_array().unwrap().len() > nodes.len());
    let both = ok(&emu, &format!("/v1/networks/mainnet/rewards:listPending?nodeIds={node1}&addresses={addr}")).await;
    assert!(both["pendingRewards"].as_array().unwrap().iter().all(|r| r["nodeId"] == node1.as_str()));

    let fuji = format!("/v1/networks/fuji/rewards:listPending?addresses={}", rewards::p_address(Network::Fuji, 0));
    assert!(!ok(&emu, &fuji).await["pendingRewards"].as_array().unwrap().is_empty());
    let testnet = fuji.replace("/fuji/", "/testnet/");
    assert_eq!(ok(&emu, &testnet).await["pendingRewards"], ok(&emu, &fuji).await["pendingRewards"]);

    let m = bad_request(&emu, "/v1/networks/mainnet/rewards:listPending").await;
    assert!(m.as_str().unwrap().contains("addresses or nodeIds"), "{m}");
    assert!(bad_request(
        &emu,
        &format!("/v1/networks/mainnet/rewards:listPending?addresses={}", rewards::p_address(Network::Fuji, 0))
    )
    .await
    .is_string());
    let m = bad_request(&emu, &format!("{path}&sortOrder=up")).await;
    assert_eq!(m, serde_json::json!(["sortOrder must be one of the following values: asc, desc"]));
    let m = bad_request(&emu, &format!("/v1/networks/devnet/rewards:listPending?addresses={addr}&pageSize=0")).await;
    assert_eq!(m.as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn x_chain_vertices() {
    let emu = start_small().await;
    for (network, id) in [
        ("mainnet", "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"),
        ("fuji", "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"),
    ] {
        let path = format!("/v1/networks/{network}/blockchains/{id}/vertices");
        let first = ok(&emu, &path).await;
        assert_eq!(first["chainInfo"], serde_json::json!({"chainName": "x-chain", "network": network}));
        assert_eq!(first["vertices"].as_array().unwrap().len(), 10);
        let alias = ok(&emu, &format!("/v1/networks/{network}/blockchains/x-chain/vertices")).await;
        assert_eq!(alias["vertices"], first["vertices"]);
        let (all, _) = all_pages(&emu, &with(&path, "pageSize=64"), "vertices").await;
        assert_eq!(all.len() as u64, BLOCKS);
        for (i, v) in all.iter().enumerate() {
            assert_eq!(int(v, "vertexHeight"), (BLOCKS - 1 - i as u64) as i64);
            assert_eq!(int(v, "vertexIndex"), int(v, "vertexHeight"));
            assert_eq!(v["txCount"].as_u64().unwrap() as usize, v["transactions"].as_array().unwrap().len());
            assert!(int(v, "vertexSizeBytes") > 0);
            s(v, "vertexHash");
        }
        for p in all.windows(2) {
            assert_eq!(p[0]["parentHashes"][0], p[1]["vertexHash"]);
            assert!(int(&p[0], "vertexTimestamp") > int(&p[1], "vertexTimestamp"));
        }
    }
    let m = bad_request(
        &emu,
        "/v1/networks/mainnet/blockchains/2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm/vertices",
    )
    .await;
    assert!(m.is_string(), "mismatched network and id: {m}");
    let m = bad_request(&emu, "/v1/networks/mainnet/blockchains/p-chain/vertices").await;
    assert!(m.as_array().unwrap()[0].as_str().unwrap().starts_with("blockchainId must be one of the following values"));
    let m = bad_request(&emu, "/v1/networks/devnet/blockchains/x-chain/vertices?pageSize=101").await;
    assert_eq!(m.as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn icm_messages_filters_and_variants() {
    let emu = start(EmulatorConfig { seed: 3, data_blocks_per_chain: 2_000, ..Default::default() }).await;
    let world_msgs = emu.data_world().icm_messages();
    let (all, _) = all_pages(&emu, "/v1/icm/messages?pageSize=100", "messages").await;
    assert_eq!(all.len(), world_msgs.len());
    let ids: HashSet<&str> = all.iter().map(|m| s(m, "messageId")).collect();
    assert_eq!(ids.len(), all.len());
    let mut statuses = HashSet::new();
    let mut big = false;
    for (m, w) in all.iter().zip(world_msgs) {
        assert_eq!(s(m, "messageId"), w.message_id);
        for k in [
            "icmContractAddress",
            "sourceBlockchainId",
            "destinationBlockchainId",
            "sourceEvmChainId",
            "destinationEvmChainId",
            "messageNonce",
            "from",
            "to",
            "data",
        ] {
            s(m, k);
        }
        assert!(m["messageExecuted"].is_boolean() && m["receiptDelivered"].is_boolean());
        for r in m["receipts"].as_array().unwrap() {
            s(r, "receivedMessageNonce");
            s(r, "relayerRewardAddress");
        }
        let rd = &m["rewardDetails"];
        for k in ["address", "name", "symbol", "value"] {
            s(rd, k);
        }
        assert_eq!(rd["ercType"], "ERC-20");
        assert!(rd["price"]["value"].is_number() && rd["price"]["currencyCode"] == "usd");
        big |= decimal(rd, "value") > u64::MAX as u128;
        let status = s(m, "status");
        statuses.insert(status.to_string());
        match status {
            "pending" => {
                assert!(m.get("destinationTransaction").is_none() && m["messageExecuted"] == false);
                int(&m["sourceTransaction"], "timestamp");
            }
            "delivered" | "delivered_source_not_indexed" => {
                let d = &m["destinationTransaction"];
                for k in ["txHash", "gasSpent", "rewardRedeemer", "delivererAddress"] {
                    s(d, k);
                }
                int(d, "timestamp");
                if status == "delivered" {
                    assert!(int(d, "timestamp") >= int(&m["sourceTransaction"], "timestamp"));
                } else {
                    assert!(m.get("sourceTransaction").is_none());
                }
            }
            other => panic!("status {other}"),
        }
        if let Some(t) = m.get("sourceTransaction") {
            // The source transaction is a transaction of a source-chain block, at its timestamp.
            let chain = world::chain(s(m, "sourceEvmChainId").parse().unwrap()).unwrap();
            let block = emu.data_world().block(chain, w.source_block).unwrap();
            assert_eq!(int(t, "timestamp"), block.timestamp());
            let txs = emu.data_world().transactions(chain, w.source_block).unwrap();
            assert!(txs.iter().any(|tx| tx.hash == s(t, "txHash") && tx.from == s(m, "from")));
        }
    }
    assert_eq!(statuses.len(), 3, "{statuses:?}");
    assert!(big, "some reward values exceed 2^64");
    assert!(world_msgs.windows(2).all(|p| p[0].source_timestamp_ms >= p[1].source_timestamp_ms), "newest first");

    // Filters.
    let count = |pred: &dyn Fn(&Value) -> bool| all.iter().filter(|m| pred(m)).count();
    let fetch = |q: String| {
        let emu = &emu;
        async move { all_pages(emu, &format!("/v1/icm/messages?pageSize=100&{q}"), "messages").await.0 }
    };
    let src = fetch("sourceBlockchainId=43114".into()).await;
    assert_eq!(src.len(), count(&|m| m["sourceEvmChainId"] == "43114"));
    assert!(!src.is_empty());
    let c_id = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
    assert_eq!(fetch(format!("sourceBlockchainId={c_id}")).await, src);
    let dst = fetch("destinationBlockchainId=53935".into()).await;
    assert_eq!(dst.len(), count(&|m| m["destinationEvmChainId"] == "53935"));
    let either = fetch(format!("blockchainId={c_id}")).await;
    assert_eq!(either.len(), count(&|m| m["sourceEvmChainId"] == "43114" || m["destinationEvmChainId"] == "43114"));
    let from = s(&all[0], "from").to_uppercase().replacen("0X", "0x", 1);
    let by_from = fetch(format!("from={from}")).await;
    assert_eq!(by_from.len(), count(&|m| m["from"] == all[0]["from"]));
    let to = s(&all[1], "to").to_string();
    assert_eq!(fetch(format!("to={to}")).await.len(), count(&|m| m["to"] == to.as_str()));
    let fuji = fetch("network=fuji".into()).await;
    assert_eq!(fuji.len(), count(&|m| ["43113", "173750", "779672"].contains(&s(m, "sourceEvmChainId"))));
    assert_eq!(fetch("network=testnet".into()).await, fuji);
    assert!(fetch("network=mainnet&sourceBlockchainId=43113".into()).await.is_empty());
    assert!(fetch("sourceBlockchainId=12345".into()).await.is_empty());
    assert!(bad_request(&emu, "/v1/icm/messages?sourceBlockchainId=not_an_id!").await.is_string());
    assert!(bad_request(&emu, "/v1/icm/messages?network=devnet").await.is_array());
    assert!(bad_request(&emu, "/v1/icm/messages?pageSize=101").await.is_array());
}

#[tokio::test(flavor = "multi_thread")]
async fn health_check() {
    let emu = start_small().await;
    let body = ok(&emu, "/v1/health-check").await;
    assert_eq!(body["status"], "ok");
    assert_eq!(body["info"]["database"]["status"], "up");
    assert_eq!(body["info"]["cache"]["status"], "up");
    assert_eq!(body["error"], serde_json::json!({}));
    assert_eq!(body["details"]["database"]["status"], "up");
}

#[tokio::test(flavor = "multi_thread")]
async fn page_tokens_resume_expire_and_belong_to_their_query() {
    let emu = start_small().await;
    let path = "/v1/chains/43114/blocks?pageSize=5";
    let first = ok(&emu, path).await;
    let token = s(&first, "nextPageToken").to_string();
    assert!(is_uuid_v4(&token));
    let second = ok(&emu, &with(path, &format!("pageToken={token}"))).await;
    assert_eq!(second["blocks"][0]["blockNumber"], (BLOCKS - 6).to_string());
    assert_ne!(s(&second, "nextPageToken"), token, "every page gets a fresh token");
    // A saved token resumes at the same place again, even with another pageSize.
    assert_eq!(ok(&emu, &with(path, &format!("pageToken={token}"))).await["blocks"], second["blocks"]);
    let bigger = ok(&emu, &format!("/v1/chains/43114/blocks?pageSize=7&pageToken={token}")).await;
    assert_eq!(bigger["blocks"][0], second["blocks"][0]);
    // The blockchain id names the same chain: same query.
    ok(&emu, &format!("/v1/chains/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/blocks?pageToken={token}")).await;

    // Another query or route: 400.
    let m = bad_request(&emu, &format!("/v1/chains/43113/blocks?pageToken={token}")).await;
    assert!(m.as_str().unwrap().contains("does not match"), "{m}");
    let m = bad_request(&emu, &format!("/v1/blocks?pageToken={token}")).await;
    assert!(m.as_str().unwrap().contains("does not match"));
    let icm = ok(&emu, "/v1/icm/messages?network=mainnet").await;
    let icm_token = s(&icm, "nextPageToken").to_string();
    assert!(bad_request(&emu, &format!("/v1/icm/messages?network=fuji&pageToken={icm_token}")).await.is_string());
    ok(&emu, &format!("/v1/icm/messages?network=mainnet&pageToken={icm_token}")).await;
    // Malformed and unknown tokens.
    let m = bad_request(&emu, "/v1/chains/43114/blocks?pageToken=abc").await;
    assert!(m.as_str().unwrap().to_lowercase().contains("invalid pagetoken"), "{m}");
    let m = bad_request(&emu, "/v1/chains/43114/blocks?pageToken=00000000-0000-4000-8000-000000000000").await;
    assert!(m.as_str().unwrap().to_lowercase().contains("invalid pagetoken"), "{m}");

    // Expiry: 24 h of emulator clock.
    emu.advance_clock(Duration::from_secs(23 * 3600));
    ok(&emu, &with(path, &format!("pageToken={token}"))).await;
    let fresh = s(&ok(&emu, path).await, "nextPageToken").to_string();
    emu.advance_clock(Duration::from_secs(3600 + 5));
    let m = bad_request(&emu, &with(path, &format!("pageToken={token}"))).await;
    assert!(m.as_str().unwrap().contains("expired"), "{m}");
    ok(&emu, &with(path, &format!("pageToken={fresh}"))).await;
    emu.advance_clock(Duration::from_secs(24 * 3600));
    assert!(bad_request(&emu, &with(path, &format!("pageToken={fresh}"))).await.as_str().unwrap().contains("expired"));
    // The last page has no token.
    let last = ok(
        &emu,
        &format!("/v1/chains/43114/blocks?pageSize=100&pageToken={}", {
            let p1 = ok(&emu, "/v1/chains/43114/blocks?pageSize=100").await;
            let p2 =
                ok(&emu, &format!("/v1/chains/43114/blocks?pageSize=100&pageToken={}", s(&p1, "nextPageToken"))).await;
            s(&p2, "nextPageToken").to_string()
        }),
    )
    .await;
    assert!(last.get("nextPageToken").is_none());
    assert_eq!(last["blocks"].as_array().unwrap().len() as u64, BLOCKS - 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_required_refused_and_rate_limited() {
    let emu = start(EmulatorConfig {
        seed: 1,
        data_blocks_per_chain: 50,
        data_api_require_key: true,
        data_api_refused_keys: vec!["banned".into()],
        ..Default::default()
    })
    .await;
    let a = get(&emu, "/v1/chains").await;
    assert!(error_body(&a, 401, "Unauthorized").is_string());
    assert!(a.headers.get("ratelimit-limit").is_none());
    for header in ["x-glacier-api-key", "x-data-api-key"] {
        let a = get_with(&emu, "/v1/health-check", &[(header, "k1")]).await;
        assert_eq!(a.status, 200);
        assert!(a.headers.get("ratelimit-policy").is_none(), "no policy, no headers");
    }
    let a = get_with(&emu, "/v1/chains", &[("x-data-api-key", "banned")]).await;
    assert!(error_body(&a, 403, "Forbidden").is_string());
    // The Index RPC is not behind the keys.
    let index = reqwest::Client::new().post(format!("{}/ext/index/C/block", emu.url())).send().await.unwrap();
    assert_ne!(index.status().as_u16(), 401);

    emu.set_data_api_refused_keys(&["k9".to_string()]);
    assert_eq!(get_with(&emu, "/v1/chains", &[("x-data-api-key", "banned")]).await.status, 200);
    assert_eq!(get_with(&emu, "/v1/chains", &[("x-data-api-key", "k9")]).await.status, 403);
    emu.set_data_api_require_key(false);
    emu.set_rate_limit(Some(RateLimit { limit: 3, window: Duration::from_secs(2) }));
    for remaining in [2, 1, 0] {
        let a = get_with(&emu, "/v1/chains/43114", &[("x-glacier-api-key", "k1")]).await;
        assert_eq!(a.status, 200);
        assert_eq!(a.headers["ratelimit-policy"], "3;w=2");
        assert_eq!(a.headers["ratelimit-limit"], "3");
        assert_eq!(a.headers["ratelimit-remaining"], remaining.to_string().as_str());
    }
    let limited = get_with(&emu, "/v1/chains/43114", &[("x-glacier-api-key", "k1")]).await;
    assert!(error_body(&limited, 429, "Too Many Requests").is_string());
    let retry: u64 = limited.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    assert_eq!(limited.headers["ratelimit-reset"], limited.headers["retry-after"]);
    assert_eq!(limited.headers["ratelimit-remaining"], "0");
    // Other keys and unkeyed requests are not affected.
    let other = get_with(&emu, "/v1/chains/43114", &[("x-data-api-key", "k2")]).await;
    assert_eq!((other.status, other.headers["ratelimit-remaining"].to_str().unwrap()), (200, "2"));
    let unkeyed = get(&emu, "/v1/chains/43114").await;
    assert_eq!(unkeyed.status, 200);
    assert!(unkeyed.headers.get("ratelimit-remaining").is_none());
    // After retry-after, the key is served again.
    tokio::time::sleep(Duration::from_secs(retry) + Duration::from_millis(50)).await;
    let again = get_with(&emu, "/v1/chains/43114", &[("x-glacier-api-key", "k1")]).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.headers["ratelimit-remaining"], "2");
    emu.set_rate_limit(None);
    let free = get_with(&emu, "/v1/chains/43114", &[("x-glacier-api-key", "k1")]).await;
    assert!(free.headers.get("ratelimit-limit").is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_limit_from_the_config() {
    let emu = start(EmulatorConfig {
        data_blocks_per_chain: 20,
        rate_limit: Some(RateLimit { limit: 100, window: Duration::from_secs(60) }),
        ..Default::default()
    })
    .await;
    let a = get_with(&emu, "/v1/blocks", &[("x-data-api-key", "x")]).await;
    assert_eq!(a.headers["ratelimit-policy"], "100;w=60");
    assert_eq!(a.headers["ratelimit-remaining"], "99");
}

#[tokio::test(flavor = "multi_thread")]
async fn same_seed_same_world() {
    let config = |seed| EmulatorConfig { seed, data_blocks_per_chain: 300, ..Default::default() };
    let (a, b, c) = (start(config(5)).await, start(config(5)).await, start(config(6)).await);
    let strip = |mut v: Value| {
        if let Some(o) = v.as_object_mut() {
            o.remove("nextPageToken");
        }
        v
    };
    for path in [
        "/v1/chains/43114/blocks?pageSize=20",
        "/v1/blocks?network=fuji",
        "/v1/icm/messages?pageSize=50",
        "/v1/networks/mainnet/blockchains/x-chain/vertices",
    ] {
        let (x, y, z) = (strip(ok(&a, path).await), strip(ok(&b, path).await), strip(ok(&c, path).await));
        assert_eq!(x, y, "{path}");
        assert_ne!(x, z, "{path}");
    }
    let node = rewards::node_id(Network::Mainnet, 2);
    let path = format!("/v1/networks/mainnet/rewards:listPending?nodeIds={node}");
    assert_eq!(ok(&a, &path).await, ok(&b, &path).await);
    assert_eq!(ok(&a, "/v1/chains").await, ok(&c, "/v1/chains").await, "the chains are fixed");
}
