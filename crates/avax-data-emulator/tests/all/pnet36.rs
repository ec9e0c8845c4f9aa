//! The P-Chain and network operations from the world (issue 36, sections 3 and 4): active staking
//! txs found in the `P/block` containers, network details equal to the validators, delegators
//! and staking metrics, subnets whose blockchains are the blockchains list's, the AVAX supply
//! from what the P- and C-Chain burned, ICM messages by id and address equal to the list's items,
//! and the world's one L1.

use std::collections::BTreeSet;

use avax_data_core::decode::{pchain as pdecode, proposervm as penv};
use avax_data_core::index::{cb58, IndexPath};
use avax_data_emulator::formats::pxchains;
use avax_data_emulator::world::WORLD_NOW_MS;
use avax_data_emulator::{Emulator, EmulatorConfig};
use serde_json::Value;

use crate::common::{all_pages, error, ok};

const NOW_S: i64 = WORLD_NOW_MS / 1000;

async fn start(seed: u64) -> Emulator {
    Emulator::start(EmulatorConfig { seed, ..Default::default() }).await.expect("emulator starts")
}

fn text_u128(v: &Value) -> u128 {
    v.as_str().unwrap_or_else(|| panic!("decimal text: {v}")).parse().unwrap()
}

/// AVAX decimal text as nAVAX.
fn nano(v: &Value) -> u128 {
    let s = v.as_str().unwrap();
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    assert!(frac.len() <= 9, "{s}");
    whole.parse::<u128>().unwrap() * 1_000_000_000 + format!("{frac:0<9}").parse::<u128>().unwrap()
}

/// The tx ids of the `P/block` container at height `h`.
fn p_block_tx_ids(emu: &Emulator, h: u64) -> Vec<String> {
    let (c, _) = emu.expected_container(IndexPath::PBlock, h).unwrap();
    let inner = if h < pxchains::P_FORK_HEIGHT { &c.bytes[..] } else { penv::parse(&c.bytes).unwrap().inner };
    pdecode::decode_block(inner).unwrap().txs.iter().map(|t| cb58::encode(&t.tx_id)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pnet36_active_staking_txs_are_the_p_blocks_stakes_active_at_now() {
    let emu = start(4).await;
    let path = "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?pageSize=7";
    let (txs, pages) = all_pages(&emu, path, "transactions").await;
    let pending = emu.data_world().pending_rewards(avax_data_emulator::world::Network::Mainnet);
    let stakes: BTreeSet<&str> =
        pending.iter().filter(|r| r.reward_type.as_str() != "VALIDATOR_FEE").map(|r| r.tx_hash.as_str()).collect();
    assert_eq!(txs.len(), stakes.len(), "every stake of the world is active at now");
    assert!(pages > 3);
    let hashes: BTreeSet<&str> = txs.iter().map(|t| t["txHash"].as_str().unwrap()).collect();
    assert_eq!(hashes, stakes, "each stake's tx once");
    let heights: Vec<u64> = txs.iter().map(|t| t["blockNumber"].as_str().unwrap().parse().unwrap()).collect();
    assert!(heights.windows(2).all(|w| w[0] > w[1]), "newest first");
    for t in &txs {
        let h: u64 = t["blockNumber"].as_str().unwrap().parse().unwrap();
        assert!(p_block_tx_ids(&emu, h).contains(&t["txHash"].as_str().unwrap().to_string()), "in its block");
        let (start, end) = (t["startTimestamp"].as_i64().unwrap(), t["endTimestamp"].as_i64().unwrap());
        assert!(start <= NOW_S && NOW_S < end, "{t}");
        assert_eq!(t["blockTimestamp"].as_i64(), Some(start));
        assert!(t["txType"].as_str().unwrap().starts_with("AddPermissionless"));
    }
    // The same tx as getTxByHash answers it.
    let first = &txs[0];
    let one = ok(
        &emu,
        &format!("/v1/networks/mainnet/blockchains/p-chain/transactions/{}", first["txHash"].as_str().unwrap()),
    )
    .await;
    assert_eq!(&one, first);
    // Filters: type, an owner, a time window, oldest first.
    let validators = all_pages(&emu, &format!("{path}&txTypes=AddPermissionlessValidatorTx"), "transactions").await.0;
    assert_eq!(validators.len(), pending.iter().filter(|r| r.reward_type.as_str() == "VALIDATOR").count());
    let owner = pending[0].addresses[0].clone();
    let mine = all_pages(&emu, &format!("{path}&addresses=P-{owner}"), "transactions").await.0;
    assert!(!mine.is_empty() && mine.len() < txs.len());
    assert!(mine.iter().all(|t| t.to_string().contains(&owner)));
    let mid = txs[txs.len() / 2]["blockTimestamp"].as_i64().unwrap();
    let late = all_pages(&emu, &format!("{path}&startTimestamp={mid}&sortOrder=asc"), "transactions").await.0;
    assert_eq!(late.len(), txs.iter().filter(|t| t["blockTimestamp"].as_i64().unwrap() >= mid).count());
    assert_eq!(late.first().unwrap()["blockTimestamp"].as_i64(), Some(mid), "oldest first");
    let m = error(
        &emu,
        "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?addresses=fuji1abcdefghijk",
        400,
        "Bad Request",
    )
    .await;
    assert!(m.as_str().unwrap().contains("fuji1abcdefghijk"), "{m}");
    error(&emu, "/v1/networks/mainnet/blockchains/x-chain/transactions:listStaking", 400, "Bad Request").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pnet36_network_details_equal_the_validators_delegators_and_staking_metrics() {
    let emu = start(5).await;
    for network in ["mainnet", "fuji"] {
        let details = ok(&emu, &format!("/v1/networks/{network}")).await;
        let validators = all_pages(
            &emu,
            &format!("/v1/networks/{network}/validators?pageSize=100&validationStatus=active"),
            "validators",
        )
        .await
        .0;
        let delegators = all_pages(
            &emu,
            &format!("/v1/networks/{network}/delegators?pageSize=100&delegationStatus=active"),
            "delegators",
        )
        .await
        .0;
        let v = &details["validatorDetails"];
        let d = &details["delegatorDetails"];
        assert_eq!(v["validatorCount"].as_u64(), Some(validators.len() as u64));
        assert_eq!(d["delegatorCount"].as_u64(), Some(delegators.len() as u64));
        let own: u128 = validators.iter().map(|x| text_u128(&x["amountStaked"])).sum();
        let delegated: u128 = delegators.iter().map(|x| text_u128(&x["amountDelegated"])).sum();
        assert_eq!(text_u128(&v["totalAmountStaked"]), own);
        assert_eq!(text_u128(&d["totalAmountStaked"]), delegated);
        assert_eq!(text_u128(&v["estimatedAnnualStakingReward"]), (own + delegated) * 8 / 100);
        // Each version's validators are those listValidators reports with it.
        for row in v["stakingDistributionByVersion"].as_array().unwrap() {
            let mine: Vec<&Value> = validators.iter().filter(|x| x["avalancheGoVersion"] == row["version"]).collect();
            assert_eq!(row["validatorCount"].as_u64(), Some(mine.len() as u64));
            let amount: u128 =
                mine.iter().map(|x| text_u128(&x["amountStaked"]) + text_u128(&x["amountDelegated"])).sum();
            assert_eq!(text_u128(&row["amountStaked"]), amount);
        }
        // The staking metrics' newest point.
        for (metric, want) in [
            ("validatorCount", validators.len() as u128),
            ("validatorWeight", own),
            ("delegatorCount", delegators.len() as u128),
            ("delegatorWeight", delegated),
        ] {
            let body = ok(&emu, &format!("/v2/networks/{network}/metrics/{metric}?pageSize=1")).await;
            assert_eq!(body["results"][0]["value"].as_f64(), Some(want as f64), "{network} {metric}");
        }
        let ratio: f64 = v["stakingRatio"].as_str().unwrap().parse().unwrap();
        assert!(ratio > 0.0 && ratio < 1.0, "{ratio}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pnet36_subnets_hold_the_blockchains_list_and_resolve_by_id() {
    let emu = start(6).await;
    let (subnets, _) = all_pages(&emu, "/v1/networks/mainnet/subnets?pageSize=2", "subnets").await;
    let (chains, _) = all_pages(&emu, "/v1/networks/mainnet/blockchains", "blockchains").await;
    assert!(subnets.len() >= 2);
    assert_eq!(subnets[0]["subnetId"], "11111111111111111111111111111111LpoYY");
    let mut held = Vec::new();
    for s in &subnets {
        let id = s["subnetId"].as_str().unwrap();
        assert_eq!(&ok(&emu, &format!("/v1/networks/mainnet/subnets/{id}")).await, s);
        for c in s["blockchains"].as_array().unwrap() {
            assert_eq!(c["subnetId"], s["subnetId"]);
            held.push(c.clone());
        }
    }
    let key = |c: &Value| c["blockchainId"].as_str().unwrap().to_string();
    let mut a: Vec<String> = held.iter().map(key).collect();
    let mut b: Vec<String> = chains.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "each blockchain of the list in exactly its subnet");
    let desc = all_pages(&emu, "/v1/networks/mainnet/subnets?sortOrder=desc", "subnets").await.0;
    assert_eq!(desc.iter().rev().cloned().collect::<Vec<_>>(), subnets);
    let m = error(
        &emu,
        "/v1/networks/mainnet/subnets/2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM",
        404,
        "Not Found",
    )
    .await;
    assert_eq!(m, "Subnet 2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM not found");
    // One subnet is an L1 (stake36.rs): its validators are read at the P-Chain's newest height.
    assert_eq!(subnets.iter().filter(|s| s["isL1"] == true).count(), 1);
    let l1 = ok(&emu, "/v1/networks/mainnet/l1Validators").await;
    assert_eq!(l1["blockHeight"], (emu.container_count(IndexPath::PBlock) - 1).to_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pnet36_icm_messages_by_id_and_address_are_the_lists_items() {
    let emu = start(7).await;
    let (all, _) = all_pages(&emu, "/v1/icm/messages?pageSize=100", "messages").await;
    assert!(all.len() > 100);
    for m in all.iter().step_by(37) {
        let id = m["messageId"].as_str().unwrap();
        assert_eq!(&ok(&emu, &format!("/v1/icm/messages/{id}")).await, m);
        assert_eq!(&ok(&emu, &format!("/v1/icm/messages/0x{}", id.to_uppercase())).await, m, "any case");
    }
    let from = all[0]["from"].as_str().unwrap().to_string();
    let want: Vec<&Value> = all.iter().filter(|m| m["from"] == from.as_str() || m["to"] == from.as_str()).collect();
    let path = format!("/v1/icm/addresses/{}/messages?pageSize=3", from.to_uppercase().replace("0X", "0x"));
    let (got, _) = all_pages(&emu, &path, "messages").await;
    assert_eq!(got.iter().collect::<Vec<_>>(), want, "the list's items, in its order");
    let unknown = "acf1c8b06f9aec48e9fcbefbbe576ae8a7ca3b327fcae111396e7cc99956674d";
    let m = error(&emu, &format!("/v1/icm/messages/{unknown}"), 404, "Not Found").await;
    assert_eq!(m, format!("ICM message {unknown} not found"));
    let m = error(&emu, "/v1/icm/addresses/0x1234/messages", 400, "Bad Request").await;
    assert!(m.as_str().unwrap().contains("0x1234"), "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pnet36_avax_supply_follows_the_genesis_the_stakes_and_the_burned_fees() {
    let emu = start(8).await;
    let s = ok(&emu, "/v1/avax/supply").await;
    let (txs, _) =
        all_pages(&emu, "/v1/networks/mainnet/blockchains/p-chain/transactions?pageSize=100", "transactions").await;
    let p_burned: u128 =
        txs.iter().flat_map(|t| t["amountBurned"].as_array().unwrap().iter()).map(|a| text_u128(&a["amount"])).sum();
    assert!(p_burned > 0);
    assert_eq!(nano(&s["totalPBurned"]), p_burned, "the P-Chain txs' amountBurned");
    assert_eq!(nano(&s["genesisUnlock"]), 360_000_000 * 1_000_000_000);
    let (paid, _) = all_pages(&emu, "/v1/networks/mainnet/rewards?pageSize=100", "historicalRewards").await;
    assert!(!paid.is_empty());
    let rewards: u128 = paid.iter().map(|r| text_u128(&r["reward"]["amount"])).sum();
    assert_eq!(nano(&s["totalRewards"]), rewards, "the rewards of the stakes that ended");
    let burned =
        ["totalPBurned", "totalCBurned", "totalXBurned", "l1ValidatorFees"].iter().map(|k| nano(&s[*k])).sum::<u128>();
    assert!(nano(&s["totalCBurned"]) > 0);
    assert_eq!(nano(&s["totalSupply"]), nano(&s["genesisUnlock"]) + nano(&s["totalRewards"]) - burned);
    assert_eq!(nano(&s["circulatingSupply"]), nano(&s["totalSupply"]) - nano(&s["totalLocked"]));
    let details = ok(&emu, "/v1/networks/mainnet").await;
    let staked = text_u128(&details["validatorDetails"]["totalAmountStaked"])
        + text_u128(&details["delegatorDetails"]["totalAmountStaked"]);
    assert_eq!(nano(&s["totalStaked"]), staked);
    assert!(staked < nano(&s["totalSupply"]));
    assert_eq!(s["lastUpdated"], "2026-01-01T00:00:00Z");
    // A node's historical rewards are the paid ones of that node; bad filters are a 400.
    let node = paid[0]["nodeId"].as_str().unwrap();
    let (mine, _) =
        all_pages(&emu, &format!("/v1/networks/mainnet/rewards?pageSize=7&nodeIds={node}"), "historicalRewards").await;
    let want: Vec<&Value> = paid.iter().filter(|r| r["nodeId"] == node).collect();
    assert_eq!(mine.iter().collect::<Vec<_>>(), want);
    let m = error(&emu, "/v1/networks/mainnet/rewards?nodeIds=Node-1", 400, "Bad Request").await;
    assert!(m.as_str().unwrap().contains("Node-1"), "{m}");
}
