//! Where the stake slots sit on an emulated P-chain ([`PChainConfig`]): every `stake_spacing`
//! heights from `first_stake_height`, slot `k` carries event `k` of the world's stakes
//! ([`super::p_rewards`]).

use crate::world::Network;

/// Where the eras and the stakes sit on the emulated P-chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PChainConfig {
    /// Network of the txs (network ID, AVAX asset, chain IDs) and of the stakes.
    pub network: Network,
    /// First height built as a Banff block.
    pub banff_height: u64,
    /// Height of stake slot 0.
    pub first_stake_height: u64,
    /// Heights between two stake slots (at least 3).
    pub stake_spacing: u64,
}

impl Default for PChainConfig {
    /// Mainnet, Banff from height 250, a stake every 8 heights from height 50 (both eras get
    /// stakes on both networks).
    fn default() -> Self {
        PChainConfig { network: Network::Mainnet, banff_height: 250, first_stake_height: 50, stake_spacing: 8 }
    }
}

pub(crate) fn slot(cfg: &PChainConfig, height: u64) -> Option<usize> {
    let spacing = cfg.stake_spacing.max(3);
    let d = height.checked_sub(cfg.first_stake_height)?;
    (d % spacing == 0).then_some((d / spacing) as usize)
}

/// Height of stake slot `k` (event `k` of [`p_rewards::lifecycle`] lives there).
pub fn stake_height(cfg: &PChainConfig, k: usize) -> u64 {
    cfg.first_stake_height + k as u64 * cfg.stake_spacing.max(3)
}

/// The stake slot at `height`, if it is one (slot `k` carries event `k` when the world has that
/// many; later slots carry ordinary txs).
pub fn stake_slot(cfg: &PChainConfig, height: u64) -> Option<usize> {
    slot(cfg, height)
}
