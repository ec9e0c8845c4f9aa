//! The primary network's validators and delegators are the world's stakes: the rewards of
//! `rewards:listPending` and `listHistoricalPrimaryNetworkRewards` (the same stakes the P-chain
//! index serves as staking transactions, `formats/stakes.rs`). A stake is `active` while the
//! world's now lies in its period and `completed` once its period ended (its reward paid by the
//! P-Chain's RewardValidatorTx, `formats/p_rewards.rs`); `pending` and `removed` list nothing.
//! Without `validationStatus` / `delegationStatus` every status is listed.
//!
//! - `listValidators`: one `ActiveValidatorDetails` or `CompletedValidatorDetails` per
//!   `VALIDATOR` stake (`nodeIds` filters; `sortOrder` by start time, `asc` by default);
//!   `getSingleValidatorDetails`: those of one node;
//! - `listDelegators`: one `ActiveDelegatorDetails` or `CompletedDelegatorDetails` per
//!   delegation (`nodeIds` and `rewardAddresses` filter).
//!
//! A validator's delegations are those to its node inside its period. Amounts, times, node ids,
//! transaction ids, reward addresses, rewards and delegator counts are the world's; an active
//! validator's uptime, health and geolocation come from the schema generator.

use serde_json::{json, Value};

use super::{respond_with, Request};
use crate::data_api::errors::Answer;
use crate::formats::p_rewards::reward_tx_id;
use crate::formats::stakes::DELEGATION_SHARES;
use crate::world::rewards::{PendingReward, RewardType};
use crate::world::{Network, PRIMARY_NETWORK_SUBNET_ID};
use avax_data_core::index::cb58;

/// `active` or `completed` at the world's now.
fn status(r: &PendingReward) -> &'static str {
    if r.ended() {
        "completed"
    } else {
        "active"
    }
}

pub(crate) fn answer(request: &Request) -> Answer {
    let network = Network::parse(request.path("network")).unwrap_or(Network::Mainnet);
    let rewards = request.state.world.stake_rewards(network);
    let list = |name: &str| request.params.list(name);
    let mut nodes = list("nodeIds");
    if request.op.id == "getSingleValidatorDetails" {
        nodes = vec![request.path("nodeId").to_string()];
    }
    let addresses: Vec<String> =
        list("rewardAddresses").iter().map(|a| a.strip_prefix("P-").unwrap_or(a).to_string()).collect();
    let delegators = request.op.id == "listDelegators";
    let wanted_status = request.params.get(if delegators { "delegationStatus" } else { "validationStatus" });
    let wanted = if delegators { RewardType::Delegator } else { RewardType::Validator };
    let mut stakes: Vec<&PendingReward> = rewards
        .iter()
        .filter(|r| r.reward_type == wanted)
        .filter(|r| wanted_status.is_none_or(|s| s == status(r)))
        .filter(|r| nodes.is_empty() || nodes.contains(&r.node_id))
        .filter(|r| addresses.is_empty() || r.addresses.iter().any(|a| addresses.contains(a)))
        .collect();
    stakes.sort_by(|a, b| (a.start, &a.tx_hash).cmp(&(b.start, &b.tx_hash)));
    if request.params.get("sortOrder") == Some("desc") {
        stakes.reverse();
    }
    let (range, token) = request.page_of(stakes.len())?;
    let page: Vec<Value> =
        stakes[range].iter().map(|r| if delegators { delegator(r) } else { validator(request, rewards, r) }).collect();
    let key = if delegators { "delegators" } else { "validators" };
    let mut body = json!({ key: page });
    if let Some(token) = token {
        body["nextPageToken"] = Value::String(token);
    }
    Ok(respond_with(request.op, body))
}

fn salt(r: &PendingReward) -> u64 {
    r.start as u64 ^ r.amount_staked
}

/// The delegation fee as the lists write it (`2.0`).
fn delegation_fee() -> String {
    format!("{:.1}", f64::from(DELEGATION_SHARES) / 10_000.0)
}

/// The RewardValidatorTx id that paid stake `r` (named by its staking tx id).
fn reward_tx_hash(r: &PendingReward) -> String {
    cb58::encode(&reward_tx_id(cb58::decode_id(&r.tx_hash).expect("the world's tx hashes are CB58 ids")))
}

fn validator(request: &Request, all: &[PendingReward], r: &PendingReward) -> Value {
    let in_period = |d: &&PendingReward| d.node_id == r.node_id && r.start <= d.start && d.end <= r.end;
    let delegations: Vec<&PendingReward> =
        all.iter().filter(|d| d.reward_type == RewardType::Delegator).filter(in_period).collect();
    let fees: u64 = all
        .iter()
        .filter(|d| d.reward_type == RewardType::ValidatorFee)
        .filter(in_period)
        .map(|d| d.estimated_reward)
        .sum();
    let delegated: u64 = delegations.iter().map(|d| d.amount_staked).sum();
    if r.ended() {
        return json!({
            "txHash": r.tx_hash,
            "nodeId": r.node_id,
            "subnetId": PRIMARY_NETWORK_SUBNET_ID,
            "amountStaked": r.amount_staked.to_string(),
            "delegationFee": delegation_fee(),
            "startTimestamp": r.start,
            "endTimestamp": r.end,
            "delegatorCount": delegations.len(),
            "amountDelegated": delegated.to_string(),
            "rewards": {
                "validationRewardAmount": r.estimated_reward.to_string(),
                "delegationRewardAmount": fees.to_string(),
                "rewardAddresses": r.addresses,
                "rewardTxHash": reward_tx_hash(r),
            },
            "validationStatus": "completed",
        });
    }
    let total: u64 =
        all.iter().filter(|d| d.reward_type != RewardType::ValidatorFee && !d.ended()).map(|d| d.amount_staked).sum();
    let mut v = request.component("ActiveValidatorDetails", salt(r));
    let facts = [
        ("txHash", Value::from(r.tx_hash.clone())),
        ("nodeId", Value::from(r.node_id.clone())),
        ("subnetId", Value::from(PRIMARY_NETWORK_SUBNET_ID)),
        ("amountStaked", Value::from(r.amount_staked.to_string())),
        ("delegationFee", Value::from(delegation_fee())),
        ("startTimestamp", Value::from(r.start)),
        ("endTimestamp", Value::from(r.end)),
        ("stakePercentage", Value::from(r.amount_staked as f64 * 100.0 / total.max(1) as f64)),
        ("delegatorCount", Value::from(delegations.len())),
        ("amountDelegated", Value::from(delegated.to_string())),
        ("delegationCapacity", Value::from((r.amount_staked * 4).saturating_sub(delegated).to_string())),
        (
            "potentialRewards",
            json!({
                "validationRewardAmount": r.estimated_reward.to_string(),
                "delegationRewardAmount": fees.to_string(),
                "rewardAddresses": r.addresses,
            }),
        ),
        ("validationStatus", Value::from("active")),
        ("avalancheGoVersion", Value::from(super::pnet_network::avalanchego_version(&r.node_id))),
    ];
    if let Some(obj) = v.as_object_mut() {
        for (key, fact) in facts {
            obj.insert(key.to_string(), fact);
        }
    }
    v
}

fn delegator(r: &PendingReward) -> Value {
    let gross = (r.estimated_reward as f64 / 0.98) as u64;
    let rewards = if r.ended() {
        [("grossReward", gross), ("netReward", r.estimated_reward)]
    } else {
        [("estimatedGrossReward", gross), ("estimatedNetReward", r.estimated_reward)]
    };
    let mut v = json!({
        "txHash": r.tx_hash,
        "nodeId": r.node_id,
        "rewardAddresses": r.addresses.iter().map(|a| format!("P-{a}")).collect::<Vec<_>>(),
        "amountDelegated": r.amount_staked.to_string(),
        "delegationFee": delegation_fee(),
        "startTimestamp": r.start,
        "endTimestamp": r.end,
        "delegationStatus": status(r),
    });
    for (key, amount) in rewards {
        v[key] = json!(amount.to_string());
    }
    v
}

#[cfg(test)]
mod tests {
    use crate::formats::stakes;
    use crate::world::rewards::{self, RewardType};
    use crate::world::Network;
    use avax_data_core::index::cb58;

    #[test]
    fn the_validators_and_delegators_served_are_the_stakes_of_the_p_chain() {
        for network in Network::ALL {
            let served = crate::formats::pchain::with_p_chain_tx_hashes(4, network, rewards::generate(4, network));
            let chain_stakes = stakes::stakes(4, network);
            let id = |s: &stakes::Stake| cb58::encode(&crate::formats::pchain::stake_tx_id(4, network, s));
            for r in served.iter().filter(|r| r.reward_type != RewardType::ValidatorFee) {
                let stake = chain_stakes.iter().find(|s| id(s) == r.tx_hash);
                let stake = stake.unwrap_or_else(|| panic!("{} is not a staking tx of the P-chain", r.tx_hash));
                assert_eq!(stake.delegation, r.reward_type == RewardType::Delegator);
                assert_eq!((stake.start, stake.end, stake.weight), (r.start as u64, r.end as u64, r.amount_staked));
            }
        }
    }
}
