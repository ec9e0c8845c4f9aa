//! `listHistoricalPrimaryNetworkRewards` (`GET /v1/networks/{network}/rewards`): the rewards of
//! the world's stakes that ended before now ([`crate::world::rewards`]), each paid by the
//! RewardValidatorTx the emulated P-Chain accepted at the stake's end
//! ([`crate::formats::p_rewards`]).
//!
//! One `HistoricalReward` per reward: a validation's `VALIDATOR` reward, a delegation's
//! `DELEGATOR` reward and the `VALIDATOR_FEE` its validator's reward owners got. `txHash` is the
//! staking tx's id, `rewardTxHash` the RewardValidatorTx's, `utxoId`/`outputIndex` the reward
//! UTXO's (held by the staking tx, [`reward_output_index`]), `reward` the AVAX paid (the
//! pending-rewards rule over the whole period).
//!
//! Filters: `addresses` (the reward's owners; an item that is no P-address of the network is a
//! 400 naming it) and `nodeIds` (`NodeID-...`, else a 400), both optional; a reward must match
//! every filter given. `sortOrder` (`asc` by default) sorts by `endTimestamp`, ties by `txHash`
//! and `rewardType`; paged (`pageSize`, `pageToken`).

use std::collections::HashMap;

use serde_json::{json, Value};

use super::Request;
use crate::data_api::errors::{self, Answer};
use crate::data_api::rewards::reward_filters;
use crate::formats::avax_codec::tx_id;
use crate::formats::p_rewards::{reward_output_index, reward_tx_id};
use crate::formats::p_txs::utxo_id;
use crate::formats::pchain::stake_tx;
use crate::formats::ptx::PTx;
use crate::formats::stakes::stakes_cached;
use crate::world::rewards::{avax_asset_id, PendingReward};
use crate::world::Network;
use avax_data_core::index::cb58;

/// The staking txs (Banff form, as the served P-Chain carries them) of `network`'s ended
/// stakes, by CB58 id.
fn ended_staking_txs(seed: u64, network: Network) -> HashMap<String, PTx> {
    let now = (crate::world::WORLD_NOW_MS / 1000) as u64;
    stakes_cached(seed, network)
        .iter()
        .filter(|s| s.end <= now)
        .map(|s| {
            let tx = stake_tx(seed, network, s, true);
            (cb58::encode(&tx_id(&tx.bytes())), tx)
        })
        .collect()
}

/// `r` (an ended stake's reward, `txHash` its staking tx `tx`) as a `HistoricalReward`.
pub(crate) fn historical(r: &PendingReward, tx: &PTx) -> Value {
    let index = reward_output_index(tx, r.reward_type);
    let staker = cb58::decode_id(&r.tx_hash).expect("the world's tx hashes are CB58 ids");
    json!({
        "addresses": r.addresses,
        "txHash": r.tx_hash,
        "amountStaked": r.amount_staked.to_string(),
        "nodeId": r.node_id,
        "startTimestamp": r.start,
        "endTimestamp": r.end,
        "rewardType": r.reward_type.as_str(),
        "utxoId": cb58::encode(&utxo_id(&staker, index)),
        "outputIndex": index,
        "reward": {
            "assetId": avax_asset_id(r.network),
            "name": "Avalanche",
            "symbol": "AVAX",
            "denomination": 9,
            "type": "secp256k1",
            "amount": r.estimated_reward.to_string(),
        },
        "rewardTxHash": cb58::encode(&reward_tx_id(staker)),
    })
}

/// `listHistoricalPrimaryNetworkRewards`.
pub(crate) fn answer(request: &Request) -> Answer {
    let network = Network::parse(request.path("network")).unwrap_or(Network::Mainnet);
    let (addresses, node_ids) = reward_filters(&request.params, network)?;
    let world = &request.state.world;
    let mut items: Vec<&PendingReward> = world
        .stake_rewards(network)
        .iter()
        .filter(|r| r.ended())
        .filter(|r| addresses.is_empty() || r.addresses.iter().any(|a| addresses.contains(a)))
        .filter(|r| node_ids.is_empty() || node_ids.contains(&r.node_id))
        .collect();
    items.sort_by(|a, b| (a.end, &a.tx_hash, a.reward_type.as_str()).cmp(&(b.end, &b.tx_hash, b.reward_type.as_str())));
    if request.params.get("sortOrder") == Some("desc") {
        items.reverse();
    }
    let (range, token) = request.page_of(items.len())?;
    let txs = ended_staking_txs(world.seed(), network);
    let page: Vec<Value> = items[range]
        .iter()
        .map(|r| {
            let tx = txs.get(&r.tx_hash).expect("every ended stake's reward names its staking tx");
            historical(r, tx)
        })
        .collect();
    let mut body = json!({"historicalRewards": page});
    if let Some(token) = token {
        body["nextPageToken"] = Value::String(token);
    }
    Ok(errors::ok(body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pchain::with_p_chain_tx_hashes;
    use crate::world::rewards::{generate, RewardType};

    #[test]
    fn every_ended_reward_names_its_staking_tx_its_reward_tx_and_a_utxo_after_the_stake() {
        for network in Network::ALL {
            let rewards = with_p_chain_tx_hashes(8, network, generate(8, network));
            let txs = ended_staking_txs(8, network);
            let ended: Vec<&PendingReward> = rewards.iter().filter(|r| r.ended()).collect();
            assert!(ended.len() > 10, "{network:?}");
            let mut utxos = std::collections::BTreeSet::new();
            for r in ended {
                let v = historical(r, &txs[&r.tx_hash]);
                assert_eq!(v["txHash"], r.tx_hash.as_str());
                let index = v["outputIndex"].as_u64().unwrap();
                // The decoder's view of the staking tx: its own outputs and stake come first.
                let bytes = [&[0u8, 0][..], &txs[&r.tx_hash].bytes()].concat();
                let decoded = avax_data_core::decode::pchain::decode_tx(&bytes).unwrap();
                let outputs = crate::formats::p_txs::tx_outputs(&decoded).len() as u64;
                assert_eq!(index, outputs + u64::from(r.reward_type == RewardType::ValidatorFee));
                assert_eq!(v["rewardTxHash"], cb58::encode(&reward_tx_id(cb58::decode_id(&r.tx_hash).unwrap())));
                assert!(utxos.insert(v["utxoId"].as_str().unwrap().to_string()), "one UTXO per reward");
                assert!(v["reward"]["amount"].as_str().unwrap().parse::<u64>().unwrap() > 0);
            }
        }
    }
}
