//! The world's stakes (`world/rewards.rs`, served as `rewards:listPending`) as the P-chain's
//! staking transactions need them: one [`Stake`] per staking tx (a validator, or one
//! delegation, which the Data API lists twice: `DELEGATOR` and `VALIDATOR_FEE`).
//!
//! Addresses: the Data API's P-addresses are bech32 strings (`avax1` + 32 data characters + a
//! 6-character checksum). [`address_bytes`] reads the 32 data characters as 5-bit groups, exactly
//! the 160 bits of the short ID, so re-encoding the short ID gives back the same string.

use std::sync::{Arc, Mutex};

use crate::world::rewards::{self, RewardType};
use crate::world::Network;
use avax_data_core::index::cb58;

const BECH32: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/// Delegation fee of every emulated validator, parts per million (the Data API's
/// `VALIDATOR_FEE` rewards are 2% of the delegators').
pub const DELEGATION_SHARES: u32 = 20_000;

/// One staking transaction of the world (ended when `end` is at or before the world's now:
/// [`crate::formats::p_rewards`] rewards it at its end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stake {
    /// Validator node.
    pub node_id: [u8; 20],
    /// Unix seconds.
    pub start: u64,
    /// Unix seconds.
    pub end: u64,
    /// Staked nAVAX.
    pub weight: u64,
    /// Reward owner short IDs, sorted (validator: its owners; delegation: the delegator).
    pub reward_addresses: Vec<[u8; 20]>,
    /// A delegation rather than a validator.
    pub delegation: bool,
    /// The stake's id in [`rewards::generate`] (CB58); the Data API names the stake by its
    /// P-chain tx id instead ([`super::pchain::with_p_chain_tx_hashes`]).
    pub data_api_tx_hash: String,
}

/// The 20 bytes behind a P-address string (`P-` optional, any HRP): the first 32 data characters
/// as 5-bit groups. `None` if it has no `1` separator or fewer than 32 bech32 characters after it.
pub fn address_bytes(address: &str) -> Option<[u8; 20]> {
    let bare = address.strip_prefix("P-").or_else(|| address.strip_prefix("X-")).unwrap_or(address);
    let data = &bare[bare.rfind('1')? + 1..];
    if data.len() < 32 {
        return None;
    }
    let mut out = [0u8; 20];
    let (mut acc, mut bits, mut n) = (0u32, 0u32, 0usize);
    for c in data.bytes().take(32) {
        let v = BECH32.iter().position(|&b| b == c)? as u32;
        acc = (acc << 5) | v;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out[n] = (acc >> bits) as u8;
            n += 1;
        }
    }
    Some(out)
}

/// The last few values built per `(seed, network)`.
pub(crate) type SmallCache<T> = Mutex<Vec<((u64, Network), Arc<T>)>>;

/// The value of `(seed, network)` in `cache`, built by `build` (outside the lock) the first time;
/// the cache keeps the last 8.
pub(crate) fn cached<T>(cache: &SmallCache<T>, seed: u64, network: Network, build: impl FnOnce() -> T) -> Arc<T> {
    let key = (seed, network);
    if let Some((_, hit)) = cache.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == key) {
        return hit.clone();
    }
    let fresh = Arc::new(build());
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= 8 {
        cache.remove(0);
    }
    cache.push((key, fresh.clone()));
    fresh
}

/// [`stakes`] behind a small cache (the last few `(seed, network)` pairs), so block builders can
/// look up one stake per slot cheaply.
pub fn stakes_cached(seed: u64, network: Network) -> Arc<Vec<Stake>> {
    static CACHE: SmallCache<Vec<Stake>> = Mutex::new(Vec::new());
    cached(&CACHE, seed, network, || stakes(seed, network))
}

/// Every stake of `network` in the world of `seed`, in the order their txs were accepted on
/// the P-chain: by start time (ties in the Data API's generation order: each validator, then its
/// delegations).
pub fn stakes(seed: u64, network: Network) -> Vec<Stake> {
    let mut out: Vec<Stake> = Vec::new();
    for r in rewards::generate(seed, network) {
        if r.reward_type == RewardType::ValidatorFee {
            continue;
        }
        let node = cb58::decode(r.node_id.trim_start_matches("NodeID-")).expect("world node ids are cb58");
        let mut addresses: Vec<[u8; 20]> =
            r.addresses.iter().map(|a| address_bytes(a).expect("world addresses are bech32-shaped")).collect();
        addresses.sort();
        addresses.dedup();
        out.push(Stake {
            node_id: node.try_into().expect("20-byte node id"),
            start: r.start as u64,
            end: r.end as u64,
            weight: r.amount_staked,
            reward_addresses: addresses,
            delegation: r.reward_type == RewardType::Delegator,
            data_api_tx_hash: r.tx_hash,
        });
    }
    out.sort_by_key(|s| s.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_decode_to_the_bech32_data_bits() {
        // A real bech32 address: its data part is exactly these 20 bytes.
        let a = address_bytes("P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c").unwrap();
        assert_eq!(hex::encode(a), "95a4467dd8f939554ea4e6501c08294386938cbf");
        assert_eq!(address_bytes("avax1short"), None);
    }

    #[test]
    fn one_stake_per_staking_tx_of_the_data_api() {
        for network in Network::ALL {
            let all = rewards::generate(4, network);
            let s = stakes(4, network);
            let hashes: std::collections::BTreeSet<_> = all.iter().map(|r| r.tx_hash.clone()).collect();
            assert_eq!(s.len(), hashes.len());
            let validators = all.iter().filter(|r| r.reward_type == RewardType::Validator).count();
            assert_eq!(s.iter().filter(|x| !x.delegation).count(), validators);
            let now = (crate::world::WORLD_NOW_MS / 1000) as u64;
            let active = s.iter().filter(|x| !x.delegation && x.start <= now && now < x.end).count();
            assert_eq!(active as u64, rewards::node_count(network), "one current period per node");
            assert_eq!(s, stakes(4, network));
            assert_eq!(*stakes_cached(4, network), s);
            assert!(s.windows(2).all(|w| w[0].start <= w[1].start), "in start order");
        }
    }
}
