//! The world's stakes and their pending rewards (served by `data_api/rewards.rs` as
//! `GET /v1/networks/{network}/rewards:listPending`).
//!
//! Per network, validators ([`node_id`] `0..nodes`: 40 on mainnet, 15 on fuji) each with a
//! `VALIDATOR` stake owned by P-address [`p_address`]`(i % pool)`, and 0..6 delegations each
//! listed twice: a `DELEGATOR` reward for the delegator and a `VALIDATOR_FEE` reward (same
//! `txHash`) for the validator's owner: the stakes pending at [`WORLD_NOW_MS`] (started before,
//! end after). Before its current period, a validator validated 0..2 earlier periods (45..365
//! days each, ended 1..20 days before the next began), each with 0..3 delegations inside it:
//! those stakes **ended** before now ([`PendingReward::ended`]), their rewards paid
//! (`listHistoricalPrimaryNetworkRewards`). Amounts are nAVAX (denomination 9). Stake ids are seed independent (so
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

/// The reward of one stake of the world: pending (the stake is active at now) or paid (it
/// ended before now, [`PendingReward::ended`]).
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
    /// Percent of the period elapsed at the world's now (100 once ended).
    pub progress: f64,
    /// Estimated reward, nAVAX (of an ended stake: the reward paid).
    pub estimated_reward: u64,
}

/// The world's now, Unix seconds.
fn now_s() -> i64 {
    WORLD_NOW_MS / 1000
}

/// AVAX's asset id on the network.
pub fn avax_asset_id(network: Network) -> &'static str {
    match network {
        Network::Mainnet => "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
        Network::Fuji => "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK",
    }
}

impl PendingReward {
    /// The stake ended before the world's now (its reward is paid).
    pub fn ended(&self) -> bool {
        self.end <= now_s()
    }

    /// The stake is active at Unix second `at`: `start <= at < end`.
    pub fn active_at(&self, at: i64) -> bool {
        self.start <= at && at < self.end
    }

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
    let now = now_s().min(end);
    ((now - start) as f64 / (end - start) as f64 * 10_000.0).round() / 100.0
}

/// One validator's period with its delegations (each listed twice: `DELEGATOR` and
/// `VALIDATOR_FEE`), appended to `out`.
struct Period<'a> {
    network: Network,
    node: &'a str,
    owners: &'a [String],
    start: i64,
    end: i64,
    amount: u64,
}

impl Period<'_> {
    fn validator(&self, tx_hash: String) -> PendingReward {
        PendingReward {
            network: self.network,
            addresses: self.owners.to_vec(),
            tx_hash,
            amount_staked: self.amount,
            node_id: self.node.to_string(),
            start: self.start,
            end: self.end,
            reward_type: RewardType::Validator,
            progress: progress(self.start, self.end),
            estimated_reward: reward(self.amount, self.start, self.end, 1.0),
        }
    }

    /// The two rewards of a delegation of `amount` by `delegator` from `start` to `end`.
    fn delegation(
        &self,
        tx_hash: String,
        delegator: String,
        (start, end): (i64, i64),
        amount: u64,
    ) -> [PendingReward; 2] {
        [(RewardType::Delegator, vec![delegator], 0.98), (RewardType::ValidatorFee, self.owners.to_vec(), 0.02)].map(
            |(reward_type, addresses, share)| PendingReward {
                network: self.network,
                addresses,
                tx_hash: tx_hash.clone(),
                amount_staked: amount,
                node_id: self.node.to_string(),
                start,
                end,
                reward_type,
                progress: progress(start, end),
                estimated_reward: reward(amount, start, end, share),
            },
        )
    }
}

/// The reward of every stake of `network` in the world of `seed`: per validator, its current
/// period and delegations (pending at now), then its earlier periods, newest first, each with
/// its delegations (ended).
pub fn generate(seed: u64, network: Network) -> Vec<PendingReward> {
    let now = now_s();
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
        let current = Period { network, node: &node, owners: &owners, start, end, amount };
        out.push(current.validator(tx(0)));
        for j in 0..d(6) % 7 {
            let e = |k: u64| derive(seed, network.tag(), i * 100 + 10 + j * 10 + k, P_STAKE);
            let d_start = start + (e(1) % ((now - start).max(1) as u64)) as i64;
            let d_end = (end - (e(2) % (DAY as u64 * 10)) as i64).max(now + DAY);
            let d_amount = range(e(3), 25, 200_000) * NANO;
            let delegator = p_address(network, skewed(e(4), pool));
            out.extend(current.delegation(tx(j + 1), delegator, (d_start, d_end), d_amount));
        }
        let mut next_start = start;
        for p in 0..d(7) % 3 {
            let f = |k: u64| derive(seed, network.tag(), i * 100 + 80 + p * 5 + k, P_STAKE);
            let p_end = next_start - range(f(0), 1, 20) as i64 * DAY - (f(1) % DAY as u64) as i64;
            let days = range(f(2), 45, 365) as i64;
            let p_start = p_end - days * DAY;
            let p_amount = range(f(3), 2_000, 3_000_000) * NANO;
            let past = Period { network, node: &node, owners: &owners, start: p_start, end: p_end, amount: p_amount };
            out.push(past.validator(tx(100 + p * 10)));
            for j in 0..f(4) % 4 {
                let g = |k: u64| derive(seed, network.tag(), i * 1_000 + 500 + p * 50 + j * 5 + k, P_STAKE);
                let third = days * DAY / 3;
                let d_start = p_start + (g(0) % third as u64) as i64;
                let d_end = p_end - (g(1) % (third.min(10 * DAY) as u64)) as i64;
                let d_amount = range(g(2), 25, 200_000) * NANO;
                let delegator = p_address(network, skewed(g(3), pool));
                out.extend(past.delegation(tx(100 + p * 10 + j + 1), delegator, (d_start, d_end), d_amount));
            }
            next_start = p_start;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_are_pending_or_ended_and_well_formed() {
        for network in Network::ALL {
            let all = generate(3, network);
            assert!(all.len() > node_count(network) as usize);
            let now = WORLD_NOW_MS / 1000;
            let pending = all.iter().filter(|r| !r.ended()).count();
            assert!(pending > node_count(network) as usize && pending < all.len(), "some stakes ended, most did not");
            for r in &all {
                assert!(r.start < r.end && r.start < now, "{r:?}");
                assert_eq!(r.ended(), r.end <= now - DAY, "an end lies a day or more from now: {r:?}");
                assert_eq!(r.active_at(now), !r.ended());
                assert_eq!(r.progress == 100.0, r.ended());
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
            // A node's periods never overlap; each delegation lies inside a period of its node.
            for v in all.iter().filter(|r| r.reward_type == RewardType::Validator) {
                let same = |o: &&PendingReward| o.node_id == v.node_id && o.reward_type == RewardType::Validator;
                assert_eq!(all.iter().filter(same).filter(|o| o.start < v.end && v.start < o.end).count(), 1);
            }
            for d in all.iter().filter(|r| r.reward_type == RewardType::Delegator) {
                assert!(all.iter().any(|v| v.reward_type == RewardType::Validator
                    && v.node_id == d.node_id
                    && v.start <= d.start
                    && d.end <= v.end));
                assert!(!d.ended() || d.end - d.start >= 10 * DAY, "{d:?}");
            }
            let hashes: std::collections::BTreeSet<_> =
                all.iter().map(|r| (&r.tx_hash, r.reward_type.as_str())).collect();
            assert_eq!(hashes.len(), all.len(), "one reward per stake and type");
        }
        // Documented, seed-independent ids that always match.
        assert_eq!(p_address(Network::Mainnet, 0), "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr");
        assert_eq!(node_id(Network::Mainnet, 0), "NodeID-JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE");
        assert_eq!(p_address(Network::Fuji, 0), "fuji1h9kz4uq54mwef3lhp2u2a6p6rljequplkx4u9p");
        assert_eq!(node_id(Network::Fuji, 0), "NodeID-PU2427ZfFFgToiaqkFoQCPEmE94ENyw61");
    }
}
