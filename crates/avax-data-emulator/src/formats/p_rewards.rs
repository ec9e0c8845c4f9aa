//! The stake lifecycle on the emulated P-Chain: every stake of the world ([`stakes::stakes`])
//! starts, and the ones whose end is at or before the world's now end, each at its own time (and
//! the world's L1 conversion, [`super::p_l1`], takes a slot at its time as well).
//!
//! The two kinds of event share the stake slots of [`super::pchain`] in time order
//! ([`Lifecycle::events`]): slot `j` carries event `j`. A start is the stake's staking tx (as
//! before the stakes could end); an end is a RewardValidatorTx naming the staking tx's id, alone
//! in a proposal block (Banff: type 29, Apricot: type 0) whose option (the next height) is its
//! Commit, as avalanchego rewards a staker whose period is over. The P-Chain's timeline accepts
//! the slot's block in the event's second ([`super::px_clock`]), so a Banff reward block's `time`
//! is the stake's end.
//!
//! Reward rule (the pending-rewards rule of [`crate::world::rewards`]): a stake earns
//! [`ANNUAL_REWARD_RATE_PERCENT`] of its amount per 365 days of its period; of a delegation's,
//! the delegator gets 98% and the validator's reward owner 2% (its delegation fee,
//! [`super::stakes::DELEGATION_SHARES`]). Reward UTXOs belong to the staking tx, after its own
//! outputs and its stake ([`reward_output_index`]): the validator's or delegator's reward first,
//! then the validator fee of a delegation.
//!
//! [`ANNUAL_REWARD_RATE_PERCENT`]: crate::world::rewards::ANNUAL_REWARD_RATE_PERCENT

use std::sync::{Arc, Mutex};

use super::avax_codec as codec;
use super::p_slots::{stake_slot, PChainConfig};
use super::ptx::{p_tx, PTx};
use super::stakes::{self, cached, SmallCache, Stake};
use crate::world::rewards::RewardType;
use crate::world::{Network, WORLD_NOW_MS};
use avax_data_core::decode::pchain_txs::PTxBody;

/// What happens to stake `k` (its index in [`stakes::stakes`]) at an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StakeEvent {
    /// Its period ended: it is rewarded.
    End(usize),
    /// Its staking tx is accepted; its period begins.
    Start(usize),
    /// The world's ConvertSubnetToL1Tx ([`super::p_l1::conversion`]) is accepted.
    ConvertL1,
}

/// The starts and ends of a network's stakes, in time order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lifecycle {
    /// The stakes, as [`stakes::stakes_cached`].
    pub stakes: Arc<Vec<Stake>>,
    /// `(Unix seconds, event)`, by time (at equal times, ends first, then by stake).
    pub events: Vec<(u64, StakeEvent)>,
    start_event: Vec<usize>,
    end_event: Vec<Option<usize>>,
}

impl Lifecycle {
    fn new(stakes: Arc<Vec<Stake>>, conversion: Option<u64>) -> Lifecycle {
        let now = (WORLD_NOW_MS / 1000) as u64;
        let mut events: Vec<(u64, StakeEvent)> = Vec::with_capacity(stakes.len() * 2 + 1);
        events.extend(conversion.map(|at| (at, StakeEvent::ConvertL1)));
        for (k, s) in stakes.iter().enumerate() {
            events.push((s.start, StakeEvent::Start(k)));
            if s.end <= now {
                events.push((s.end, StakeEvent::End(k)));
            }
        }
        events.sort();
        let mut start_event = vec![0; stakes.len()];
        let mut end_event = vec![None; stakes.len()];
        for (j, (_, e)) in events.iter().enumerate() {
            match *e {
                StakeEvent::Start(k) => start_event[k] = j,
                StakeEvent::End(k) => end_event[k] = Some(j),
                StakeEvent::ConvertL1 => {}
            }
        }
        Lifecycle { stakes, events, start_event, end_event }
    }

    /// The event slot of stake `k`'s start.
    pub fn start_slot(&self, k: usize) -> usize {
        self.start_event[k]
    }

    /// The event slot of stake `k`'s end, if it ended by now.
    pub fn end_slot(&self, k: usize) -> Option<usize> {
        self.end_event[k]
    }
}

/// The lifecycle of `network`'s stakes in the world of `seed` (kept for the last few worlds).
pub fn lifecycle(seed: u64, network: Network) -> Arc<Lifecycle> {
    static CACHE: SmallCache<Lifecycle> = Mutex::new(Vec::new());
    let conversion = || super::p_l1::conversion(network).map(|c| c.time);
    cached(&CACHE, seed, network, || Lifecycle::new(stakes::stakes_cached(seed, network), conversion()))
}

/// Height of event slot `j` (the chain's stake slot `j`).
fn slot_height(cfg: &PChainConfig, j: usize) -> u64 {
    super::p_slots::stake_height(cfg, j)
}

/// Height of the block that carries stake `k`'s staking tx.
pub fn start_height(seed: u64, cfg: &PChainConfig, k: usize) -> u64 {
    slot_height(cfg, lifecycle(seed, cfg.network).start_slot(k))
}

/// Height of the proposal block that rewards stake `k`, if it ended by now.
pub fn end_height(seed: u64, cfg: &PChainConfig, k: usize) -> Option<u64> {
    lifecycle(seed, cfg.network).end_slot(k).map(|j| slot_height(cfg, j))
}

/// The event of the slot at `height`, if it is a slot with an event.
pub fn event_at(seed: u64, cfg: &PChainConfig, height: u64) -> Option<StakeEvent> {
    let j = stake_slot(cfg, height)?;
    lifecycle(seed, cfg.network).events.get(j).map(|(_, e)| *e)
}

/// The stake whose staking tx the block at `height` carries.
pub fn started_at(seed: u64, cfg: &PChainConfig, height: u64) -> Option<Stake> {
    match event_at(seed, cfg, height)? {
        StakeEvent::Start(k) => lifecycle(seed, cfg.network).stakes.get(k).cloned(),
        StakeEvent::End(_) | StakeEvent::ConvertL1 => None,
    }
}

/// The block at `height` rewards a stake (it is a proposal block).
pub fn ends_at(seed: u64, cfg: &PChainConfig, height: u64) -> bool {
    matches!(event_at(seed, cfg, height), Some(StakeEvent::End(_)))
}

/// The RewardValidatorTx (type 20, unsigned, no credentials) that rewards staking tx `staker`.
pub fn reward_tx(staker: [u8; 32]) -> PTx {
    p_tx(20, None, PTxBody::RewardValidator { staker_tx_id: staker }, Vec::new())
}

/// The id of [`reward_tx`]`(staker)`.
pub fn reward_tx_id(staker: [u8; 32]) -> [u8; 32] {
    codec::tx_id(&reward_tx(staker).bytes())
}

/// The block at `height` carries the world's ConvertSubnetToL1Tx (after the ordinary txs of a Banff
/// standard block; a slot before Banff carries only ordinary txs).
pub fn converts_at(seed: u64, cfg: &PChainConfig, height: u64) -> bool {
    height >= cfg.banff_height && matches!(event_at(seed, cfg, height), Some(StakeEvent::ConvertL1))
}

/// The output index of the reward UTXO of `kind` that stake `s`'s staking tx (`tx`) holds: after
/// its BaseTx outputs and its stake outputs, the staker's reward, then (a delegation's) the
/// validator fee.
pub fn reward_output_index(tx: &PTx, kind: RewardType) -> u32 {
    let base = tx.unsigned.base.as_ref().map_or(0, |b| b.outputs.len());
    let stake = match &tx.unsigned.body {
        PTxBody::AddValidator { stake, .. }
        | PTxBody::AddDelegator { stake, .. }
        | PTxBody::AddPermissionlessValidator { stake, .. }
        | PTxBody::AddPermissionlessDelegator { stake, .. } => stake.len(),
        _ => 0,
    };
    (base + stake) as u32 + u32::from(kind == RewardType::ValidatorFee)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stake_starts_once_and_the_ended_ones_end_once_in_time_order() {
        for network in Network::ALL {
            let life = lifecycle(6, network);
            let now = (WORLD_NOW_MS / 1000) as u64;
            assert!(life.events.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
            let ended = life.stakes.iter().filter(|s| s.end <= now).count();
            assert!(ended > 10 && ended < life.stakes.len(), "{network:?}: {ended} ended");
            assert_eq!(life.events.len(), life.stakes.len() + ended + 1, "and the L1 conversion");
            for (k, s) in life.stakes.iter().enumerate() {
                assert_eq!(life.events[life.start_slot(k)], (s.start, StakeEvent::Start(k)));
                match life.end_slot(k) {
                    Some(j) => assert_eq!(life.events[j], (s.end, StakeEvent::End(k))),
                    None => assert!(s.end > now),
                }
            }
            let conversion = super::super::p_l1::conversion(network).map(|c| c.time);
            assert_eq!(*lifecycle(6, network), Lifecycle::new(stakes::stakes_cached(6, network), conversion));
        }
    }
}
