//! The P world's stake lifecycle (issue 36 §2/§3): stakes whose period ended are rewarded by a
//! RewardValidatorTx in a P-Chain proposal block accepted at the end (found by walking the
//! `P/block` index and decoding it), their rewards are the historical rewards, the validators
//! and delegators lists tell `completed` from `active`, and the staking metrics fall after an
//! end; one subnet per network is converted to an L1 whose validators `listL1Validators` lists.

use std::collections::HashMap;

use avax_data_core::decode::{pchain as pdecode, proposervm as penv};
use avax_data_core::index::{cb58, IndexPath};
use avax_data_emulator::formats::p_rewards::{end_height, lifecycle, reward_tx_id};
use avax_data_emulator::formats::pchain::staker_tx_id;
use avax_data_emulator::formats::px_clock::MIN_SPAN;
use avax_data_emulator::formats::pxchains;
use avax_data_emulator::world::{Network, WORLD_NOW_MS};
use avax_data_emulator::{Emulator, EmulatorConfig};
use serde_json::Value;

use crate::common::{all_pages, error, ok};

const SEC: i64 = 1_000_000_000;

async fn start(seed: u64) -> Emulator {
    Emulator::start(EmulatorConfig { seed, ..Default::default() }).await.expect("emulator starts")
}

/// A RewardValidatorTx found in the walk: `(height, block type, block time, tx id)`.
type Reward = (u64, &'static str, Option<u64>, [u8; 32]);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stake36_each_ended_stake_is_rewarded_in_a_proposal_block_at_its_end() {
    let emu = start(4).await;
    let chain = pxchains::p_chain(4, Network::Mainnet, MIN_SPAN);
    let cfg = *chain.inner().config();
    let life = lifecycle(4, Network::Mainnet);
    // Every RewardValidatorTx of the walk, by the staking tx it names: (height, block kind, time).
    let mut found: HashMap<[u8; 32], Vec<Reward>> = HashMap::new();
    let first = (0..life.stakes.len()).filter_map(|k| end_height(4, &cfg, k)).min().unwrap();
    for h in first..emu.container_count(IndexPath::PBlock) {
        let (container, _) = emu.expected_container(IndexPath::PBlock, h).unwrap();
        let bytes = container.bytes;
        let block = pdecode::decode_block(penv::parse(&bytes).unwrap().inner).unwrap();
        for tx in &block.txs {
            if let pdecode::PTxBody::RewardValidator { staker_tx_id } = tx.body {
                found.entry(staker_tx_id).or_default().push((h, block.type_name, block.time, tx.tx_id));
            }
        }
    }
    let mut rewarded = 0;
    for (k, stake) in life.stakes.iter().enumerate() {
        let Some(h) = end_height(4, &cfg, k) else {
            assert!(stake.end as i64 * 1000 > WORLD_NOW_MS, "stake {k} ended but is not rewarded");
            continue;
        };
        let staker = staker_tx_id(4, &cfg, k);
        let hits = found.get(&staker).unwrap_or_else(|| panic!("no reward names stake {k}"));
        assert_eq!(hits.len(), 1, "stake {k} rewarded once");
        let (height, kind, time, id) = hits[0];
        assert_eq!((height, kind, time), (h, "BanffProposalBlock", Some(stake.end)), "stake {k}");
        assert_eq!(id, reward_tx_id(staker));
        let (container, _) = emu.expected_container(IndexPath::PBlock, h).unwrap();
        assert_eq!(container.timestamp_ns.div_euclid(SEC), stake.end as i64, "accepted in the second it ends");
        let (option, _) = emu.expected_container(IndexPath::PBlock, h + 1).unwrap();
        let commit = pdecode::decode_block(penv::parse(&option.bytes).unwrap().inner).unwrap();
        assert_eq!(commit.type_name, "BanffCommitBlock", "the reward is committed");
        rewarded += 1;
    }
    assert!(rewarded > 20, "{rewarded} stakes ended");
}

fn text_u64(v: &Value) -> u64 {
    v.as_str().unwrap_or_else(|| panic!("{v} is text")).parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stake36_historical_rewards_are_paid_by_the_reward_txs_of_the_p_chain() {
    let emu = start(5).await;
    let (paid, pages) = all_pages(&emu, "/v1/networks/mainnet/rewards?pageSize=13", "historicalRewards").await;
    assert!(pages > 2 && paid.len() > 40, "{} rewards", paid.len());
    let now_s = WORLD_NOW_MS / 1000;
    let ends: Vec<i64> = paid.iter().map(|r| r["endTimestamp"].as_i64().unwrap()).collect();
    assert!(ends.windows(2).all(|w| w[0] <= w[1]), "oldest end first");
    assert!(ends.iter().all(|&e| e < now_s));
    let mut utxos = std::collections::BTreeSet::new();
    for r in &paid {
        assert!(utxos.insert(r["utxoId"].as_str().unwrap().to_string()), "one UTXO per reward");
        assert!(["VALIDATOR", "DELEGATOR", "VALIDATOR_FEE"].contains(&r["rewardType"].as_str().unwrap()));
        assert_eq!(r["reward"]["symbol"], "AVAX");
        // The reward rule: 8% a year of the stake (98% / 2% of a delegation's).
        let years =
            (r["endTimestamp"].as_i64().unwrap() - r["startTimestamp"].as_i64().unwrap()) as f64 / (365.0 * 86_400.0);
        let share = match r["rewardType"].as_str().unwrap() {
            "VALIDATOR" => 1.0,
            "DELEGATOR" => 0.98,
            _ => 0.02,
        };
        let want = (text_u64(&r["amountStaked"]) as f64 * 0.08 * years * share) as u64;
        assert!(text_u64(&r["reward"]["amount"]).abs_diff(want) <= 1, "{r}");
    }
    // The reward tx and the staking tx, by hash, on the Data API's P-Chain.
    for r in paid.iter().step_by(9) {
        let tx_path =
            |hash: &Value| format!("/v1/networks/mainnet/blockchains/p-chain/transactions/{}", hash.as_str().unwrap());
        let reward = ok(&emu, &tx_path(&r["rewardTxHash"])).await;
        assert_eq!(reward["txType"], "RewardValidatorTx");
        assert_eq!(reward["stakingTxHash"], r["txHash"]);
        assert_eq!(reward["blockTimestamp"], r["endTimestamp"], "paid at the stake's end");
        let staking = ok(&emu, &tx_path(&r["txHash"])).await;
        assert_eq!(staking["nodeId"], r["nodeId"]);
        assert_eq!(staking["startTimestamp"], r["startTimestamp"]);
        assert_eq!(staking["endTimestamp"], r["endTimestamp"]);
        let staker = cb58::decode_id(r["txHash"].as_str().unwrap()).unwrap();
        assert_eq!(r["rewardTxHash"], cb58::encode(&reward_tx_id(staker)));
    }
    // Filters: a node's and an address's rewards are those of the whole list, in its order.
    let node = paid[3]["nodeId"].as_str().unwrap();
    let (mine, _) =
        all_pages(&emu, &format!("/v1/networks/mainnet/rewards?nodeIds={node}&pageSize=2"), "historicalRewards").await;
    assert_eq!(mine, paid.iter().filter(|r| r["nodeId"] == node).cloned().collect::<Vec<_>>());
    let address = paid[5]["addresses"][0].as_str().unwrap();
    let (held, _) = all_pages(
        &emu,
        &format!("/v1/networks/mainnet/rewards?addresses=P-{address}&pageSize=100"),
        "historicalRewards",
    )
    .await;
    assert!(!held.is_empty());
    assert_eq!(
        held,
        paid.iter()
            .filter(|r| r["addresses"].as_array().unwrap().iter().any(|a| a == address))
            .cloned()
            .collect::<Vec<_>>()
    );
    let (desc, _) =
        all_pages(&emu, "/v1/networks/mainnet/rewards?pageSize=100&sortOrder=desc", "historicalRewards").await;
    assert_eq!(desc, paid.iter().rev().cloned().collect::<Vec<_>>());
    let m = error(&emu, "/v1/networks/mainnet/rewards?addresses=0xabc", 400, "Bad Request").await;
    assert!(m.as_str().unwrap().contains("0xabc"), "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stake36_validators_and_delegators_are_completed_or_active_by_now() {
    let emu = start(5).await;
    let now_s = WORLD_NOW_MS / 1000;
    for (path, field, status) in
        [("validators", "validators", "validationStatus"), ("delegators", "delegators", "delegationStatus")]
    {
        let (every, _) = all_pages(&emu, &format!("/v1/networks/mainnet/{path}?pageSize=100"), field).await;
        let (active, _) =
            all_pages(&emu, &format!("/v1/networks/mainnet/{path}?pageSize=100&{status}=active"), field).await;
        let (done, _) =
            all_pages(&emu, &format!("/v1/networks/mainnet/{path}?pageSize=100&{status}=completed"), field).await;
        assert!(!active.is_empty() && !done.is_empty(), "{path}");
        assert_eq!(every.len(), active.len() + done.len(), "{path}: every status when none is asked");
        for v in &active {
            assert_eq!(v[status], "active");
            assert!(v["startTimestamp"].as_i64().unwrap() <= now_s && now_s < v["endTimestamp"].as_i64().unwrap());
        }
        for v in &done {
            assert_eq!(v[status], "completed");
            assert!(v["endTimestamp"].as_i64().unwrap() <= now_s);
        }
        let (pending, _) =
            all_pages(&emu, &format!("/v1/networks/mainnet/{path}?pageSize=100&{status}=pending"), field).await;
        assert!(pending.is_empty());
    }
    // A completed validator's rewards are its historical rewards.
    let (done, _) =
        all_pages(&emu, "/v1/networks/mainnet/validators?pageSize=100&validationStatus=completed", "validators").await;
    let (paid, _) = all_pages(&emu, "/v1/networks/mainnet/rewards?pageSize=100", "historicalRewards").await;
    for v in done.iter().take(10) {
        let own: Vec<&Value> = paid.iter().filter(|r| r["txHash"] == v["txHash"]).collect();
        assert_eq!(own.len(), 1);
        assert_eq!(own[0]["reward"]["amount"], v["rewards"]["validationRewardAmount"]);
        assert_eq!(own[0]["rewardTxHash"], v["rewards"]["rewardTxHash"]);
        let fees: u64 = paid
            .iter()
            .filter(|r| r["rewardType"] == "VALIDATOR_FEE" && r["nodeId"] == v["nodeId"])
            .filter(|r| r["startTimestamp"].as_i64() >= v["startTimestamp"].as_i64())
            .filter(|r| r["endTimestamp"].as_i64() <= v["endTimestamp"].as_i64())
            .map(|r| text_u64(&r["reward"]["amount"]))
            .sum();
        assert_eq!(text_u64(&v["rewards"]["delegationRewardAmount"]), fees);
    }
    // One node's periods: getSingleValidatorDetails lists each, none overlapping.
    let node = done[0]["nodeId"].as_str().unwrap();
    let periods = ok(&emu, &format!("/v1/networks/mainnet/validators/{node}")).await;
    let periods = periods["validators"].as_array().unwrap();
    assert!(periods.len() >= 2, "a completed period and the current one");
    assert!(periods.windows(2).all(|w| w[0]["endTimestamp"].as_i64() < w[1]["startTimestamp"].as_i64()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stake36_staking_metrics_count_the_stakes_active_each_day() {
    let emu = start(5).await;
    let (every, _) = all_pages(&emu, "/v1/networks/mainnet/validators?pageSize=100", "validators").await;
    let (items, _) = all_pages(&emu, "/v2/networks/mainnet/metrics/validatorCount?pageSize=500", "results").await;
    let points: Vec<(i64, f64)> =
        items.iter().map(|p| (p["timestamp"].as_i64().unwrap(), p["value"].as_f64().unwrap())).collect();
    assert!(points.len() > 300);
    let now_s = WORLD_NOW_MS / 1000;
    for &(day, value) in &points {
        let at = (day + 86_400).min(now_s);
        let active = every
            .iter()
            .filter(|v| v["startTimestamp"].as_i64().unwrap() <= at && at < v["endTimestamp"].as_i64().unwrap())
            .count();
        assert_eq!(value, active as f64, "day {day}");
    }
    // Counts fall the day a validation ends.
    assert!(points.windows(2).any(|w| w[0].1 < w[1].1), "newest first: an older day counted more");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stake36_one_subnet_is_converted_to_an_l1_whose_validators_are_listed() {
    let emu = start(5).await;
    let (subnets, _) = all_pages(&emu, "/v1/networks/mainnet/subnets", "subnets").await;
    let l1: Vec<&Value> = subnets.iter().filter(|s| s["isL1"] == true).collect();
    assert_eq!(l1.len(), 1);
    let subnet = l1[0]["subnetId"].as_str().unwrap();
    let manager = &l1[0]["l1ValidatorManagerDetails"];
    assert!(l1[0]["blockchains"].as_array().unwrap().iter().any(|c| c["blockchainId"] == manager["blockchainId"]));
    // The conversion tx is a P-Chain tx of the Data API and of a `P/block` container.
    let hash = l1[0]["l1ConversionTransactionHash"].as_str().unwrap();
    let tx = ok(&emu, &format!("/v1/networks/mainnet/blockchains/p-chain/transactions/{hash}")).await;
    assert_eq!(tx["txType"], "ConvertSubnetToL1Tx");
    let height: u64 = tx["blockNumber"].as_str().unwrap().parse().unwrap();
    let (container, _) = emu.expected_container(IndexPath::PBlock, height).unwrap();
    let block = pdecode::decode_block(penv::parse(&container.bytes).unwrap().inner).unwrap();
    let convert = block.txs.iter().find(|t| cb58::encode(&t.tx_id) == hash).expect("the tx is in its block");
    let pdecode::PTxBody::ConvertSubnetToL1 { subnet_id, validators, .. } = &convert.body else {
        panic!("{:?}", convert.body)
    };
    assert_eq!(cb58::encode(subnet_id), subnet);
    let (listed, pages) = all_pages(&emu, "/v1/networks/mainnet/l1Validators?pageSize=3", "validators").await;
    assert!(pages >= 2);
    assert_eq!(listed.len(), validators.len());
    for (i, (v, from_tx)) in listed.iter().zip(validators).enumerate() {
        assert_eq!(v["subnetId"], subnet);
        assert_eq!(v["nodeId"], format!("NodeID-{}", cb58::encode(&from_tx.node_id)));
        assert_eq!(v["weight"].as_u64(), Some(from_tx.weight));
        let mut bytes = cb58::decode_id(subnet).unwrap().to_vec();
        bytes.extend_from_slice(&(i as u32).to_be_bytes());
        assert_eq!(v["validationId"], cb58::encode(&cb58::sha256(&bytes)), "sha256(subnetID ‖ index)");
        let created = v["creationTimestamp"].as_i64().unwrap();
        assert_eq!(created, tx["blockTimestamp"].as_i64().unwrap());
        let paid = (WORLD_NOW_MS / 1000 - created) as u64 * 512;
        assert_eq!(v["remainingBalance"].as_u64(), Some(from_tx.balance.saturating_sub(paid)));
    }
    let one = listed[2]["validationId"].as_str().unwrap();
    let by_id = ok(&emu, &format!("/v1/networks/mainnet/l1Validators?l1ValidationId={one}")).await;
    assert_eq!(by_id["validators"], serde_json::json!([listed[2]]));
    let node = listed[1]["nodeId"].as_str().unwrap();
    let by_node = ok(&emu, &format!("/v1/networks/mainnet/l1Validators?nodeId={node}")).await;
    assert_eq!(by_node["validators"], serde_json::json!([listed[1]]));
    let other = ok(&emu, "/v1/networks/mainnet/l1Validators?subnetId=11111111111111111111111111111111LpoYY").await;
    assert_eq!(other["validators"], serde_json::json!([]));
}
