//! The world's stakes and their pending rewards (served by `data_api/rewards.rs` as
//! `GET /v1/networks/{network}/rewards:listPending`).
//!
//! Per network, validators ([`node_id`] `0..nodes`: 40 on mainnet, 15 on fuji) each with a
//! `VALIDATOR` stake owned by P-address [`p_address`]`(i % pool)`, and 0..6 delegations each
//! listed twice: a `DELEGATOR` reward for the delegator and a `VALIDATOR_FEE` reward (same
//! `txHash`) for the validator's owner. Every stake is pending at [`WORLD_NOW_MS`] (started before,
//! ends after). Amounts are nAVAX (denomination 9). Stake ids are seed independent (so
//! `node_id(network, 0)` and `p_address(network, 0)` always match something); amounts, periods and
//! delegations depend on the seed.
//!

use serde_json::{json, Value};

use super::{derive, digest, range, skewed, Network, WORLD_NOW_MS};
use avax_data_core::index::cb58;

/// `rewardType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewardType {
    Validator,
    Delegator,
    ValidatorFee,
}

impl RewardType {
    pub fn as_str(self) -> &'static str {
        match self {
            RewardType::Validator => "VALIDATOR",
            RewardType::Delegator => "DELEGATOR",
            RewardType::ValidatorFee => "VALIDATOR_FEE",
        }
    }
}

/// One pending reward.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingReward {
    pub network: Network,
    /// Bech32-looking P-chain addresses without the `P-` prefix (`avax1...` / `fuji1...`).
    pub addresses: Vec<String>,
    /// CB58 id of the staking transaction.
    pub tx_hash: String,
    /// nAVAX.
    pub amount_staked: u64,
    /// `NodeID-...`.
    pub node_id: String,
    /// Unix seconds.
    pub start: i64,
    pub end: i64,
    pub reward_type: RewardType,
    /// Percent of the period elapsed at the world's now.
    pub progress: f64,
    /// Estimated reward, nAVAX.
    pub estimated_reward: u64,
}

/// AVAX's asset id on the network.
pub fn avax_asset_id(network: Network) -> &'static str {
    match network {
        Network::Mainnet => "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
        Network::Fuji => "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK",
    }
}

impl PendingReward {
    /// As `PendingReward` JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "addresses": self.addresses,
            "txHash": self.tx_hash,
            "amountStaked": self.amount_staked.to_string(),
            "nodeId": self.node_id,
            "startTimestamp": self.start,
            "endTimestamp": self.end,
            "rewardType": self.reward_type.as_str(),
            "progress": self.progress,
            "estimatedReward": {
                "assetId": avax_asset_id(self.network),
                "name": "Avalanche",
                "symbol": "AVAX",
                "denomination": 9,
                "type": "secp256k1",
                "amount": self.estimated_reward.to_string(),
            },
        })
    }
}

/// Number of validators of `network`.
pub fn node_count(network: Network) -> u64 {
    match network {
        Network::Mainnet => 40,
        Network::Fuji => 15,
    }
}

/// Size of the P-address pool of `network`.
pub fn p_address_count(network: Network) -> u64 {
    match network {
        Network::Mainnet => 120,
        Network::Fuji => 50,
    }
}

/// P-address `i` of `network`: the bech32 (BIP 173, valid checksum) of a 20-byte short id, with
/// the network's prefix and no `P-`. Entry 0 (owner of node 0, always matching): mainnet
/// `avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr`, fuji `fuji1h9kz4uq54mwef3lhp2u2a6p6rljequplkx4u9p`.
pub fn p_address(network: Network, i: u64) -> String {
    let d = digest("avax-data p address", &[network.tag(), i]);
    // 32 groups of 5 bits (one per data character) are the 160 bits of the short id.
    let (mut short, mut acc, mut bits, mut n) = ([0u8; 20], 0u32, 0u32, 0usize);
    for group in &d {
        acc = (acc << 5) | u32::from(group % 32);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            short[n] = (acc >> bits) as u8;
            n += 1;
        }
    }
    let hrp = bech32::Hrp::parse(network.hrp()).expect("the network prefixes are valid HRPs");
    bech32::encode::<bech32::Bech32>(hrp, &short).expect("a 20-byte address fits bech32")
}

/// Node id `i` of `network`: `NodeID-` + CB58 of 20 bytes. Node 0: mainnet
/// `NodeID-JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE`, fuji `NodeID-PU2427ZfFFgToiaqkFoQCPEmE94ENyw61`.
pub fn node_id(network: Network, i: u64) -> String {
    format!("NodeID-{}", cb58::encode(&digest("avax-data node", &[network.tag(), i])[..20]))
}

const P_STAKE: u64 = 0x0073_7461_6b65;
const DAY: i64 = 86_400;
const NANO: u64 = 1_000_000_000;

/// The yearly reward of a stake, percent of its amount (the pending-rewards rule: a stake earns
/// this share of its amount per 365 days of its period).
pub const ANNUAL_REWARD_RATE_PERCENT: u128 = 8;

fn reward(amount: u64, start: i64, end: i64, share: f64) -> u64 {
    let years = (end - start) as f64 / (365.0 * DAY as f64);
    (amount as f64 * (ANNUAL_REWARD_RATE_PERCENT as f64 / 100.0) * years * share) as u64
}

fn progress(start: i64, end: i64) -> f64 {
    let now = WORLD_NOW_MS / 1000;
    ((now - start) as f64 / (end - start) as f64 * 10_000.0).round() / 100.0
}

/// Every pending reward of `network` in the world of `seed`.
pub fn generate(seed: u64, network: Network) -> Vec<PendingReward> {
    let now = WORLD_NOW_MS / 1000;
    let pool = p_address_count(network);
    let mut out = Vec::new();
    for i in 0..node_count(network) {
        let d = |k: u64| derive(seed, network.tag(), i * 100 + k, P_STAKE);
        let node = node_id(network, i);
        let mut owners = vec![p_address(network, i % pool)];
        if d(1) % 4 == 0 {
            owners.push(p_address(network, (i + 37) % pool));
        }
        let start = now - range(d(2), 1, 200) as i64 * DAY - (d(3) % DAY as u64) as i64;
        let min_days = ((now - start) / DAY + 2).max(14) as u64;
        let end = start + range(d(4), min_days, min_days.max(365)) as i64 * DAY;
        let amount = range(d(5), 2_000, 3_000_000) * NANO;
        let tx = |k: u64| cb58::encode(&digest("avax-data stake tx", &[seed, network.tag(), i, k]));
        out.push(PendingReward {
            network,
            addresses: owners.clone(),
            tx_hash: tx(0),
            amount_staked: amount,
            node_id: node.clone(),
            start,
            end,
            reward_type: RewardType::Validator,
            progress: progress(start, end),
            estimated_reward: reward(amount, start, end, 1.0),
        });
        for j in 0..d(6) % 7 {
            let e = |k: u64| derive(seed, network.tag(), i * 100 + 10 + j * 10 + k, P_STAKE);
            let d_start = start + (e(1) % ((now - start).max(1) as u64)) as i64;
            let d_end = (end - (e(2) % (DAY as u64 * 10)) as i64).max(now + DAY);
            let d_amount = range(e(3), 25, 200_000) * NANO;
            let delegator = p_address(network, skewed(e(4), pool));
            let hash = tx(j + 1);
            for (reward_type, addresses, share) in [
                (RewardType::Delegator, vec![delegator.clone()], 0.98),
                (RewardType::ValidatorFee, owners.clone(), 0.02),
            ] {
                out.push(PendingReward {
                    network,
                    addresses,
                    tx_hash: hash.clone(),
                    amount_staked: d_amount,
                    node_id: node.clone(),
                    start: d_start,
                    end: d_end,
                    reward_type,
                    progress: progress(d_start, d_end),
                    estimated_reward: reward(d_amount, d_start, d_end, share),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_are_pending_and_well_formed() {
        for network in Network::ALL {
            let all = generate(3, network);
            assert!(all.len() > node_count(network) as usize);
            let now = WORLD_NOW_MS / 1000;
            for r in &all {
                assert!(r.start < now && now < r.end, "{r:?}");
                assert!((0.0..=100.0).contains(&r.progress));
                assert!(r.addresses.iter().all(|a| a.starts_with(&format!("{}1", network.hrp())) && a.len() == 43));
                assert!(cb58::decode(r.node_id.strip_prefix("NodeID-").unwrap()).unwrap().len() == 20);
            }
            for t in [RewardType::Validator, RewardType::Delegator, RewardType::ValidatorFee] {
                assert!(all.iter().any(|r| r.reward_type == t));
            }
            assert!(all.iter().any(|r| r.node_id == node_id(network, 0)));
            assert!(all.iter().any(|r| r.addresses.contains(&p_address(network, 0))));
            assert_eq!(all, generate(3, network));
        }
        // Documented, seed-independent ids that always match.
        assert_eq!(p_address(Network::Mainnet, 0), "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr");
        assert_eq!(node_id(Network::Mainnet, 0), "NodeID-JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE");
        assert_eq!(p_address(Network::Fuji, 0), "fuji1h9kz4uq54mwef3lhp2u2a6p6rljequplkx4u9p");
        assert_eq!(node_id(Network::Fuji, 0), "NodeID-PU2427ZfFFgToiaqkFoQCPEmE94ENyw61");
    }
}
