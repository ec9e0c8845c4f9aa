//! `listHistoricalPrimaryNetworkRewards` (`GET /v1/networks/{network}/rewards`): the rewards of
//! the world's stakes that ended before now. Every stake of the world is still pending at now
//! (its period contains it: `rewards:listPending`, `listActivePrimaryNetworkStakingTransactions`)
//! and the emulated P-Chain pays no reward to one of them, so the list is empty, for every filter.
//!
//! The filters are still checked as the pending list checks them (`rewards.rs`): an `addresses`
//! item that is no P-address of the network or a `nodeIds` item that is no `NodeID-...` is a 400
//! naming it. Either may be left out.

use serde_json::json;

use super::Request;
use crate::data_api::errors::{self, Answer};
use crate::data_api::rewards::reward_filters;
use crate::world::Network;

/// `listHistoricalPrimaryNetworkRewards`.
pub(crate) fn answer(request: &Request) -> Answer {
    let network = Network::parse(request.path("network")).unwrap_or(Network::Mainnet);
    reward_filters(&request.params, network)?;
    // A page token is still checked: none was ever issued for this empty list.
    request.start()?;
    Ok(errors::ok(json!({"historicalRewards": []})))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::rewards::{generate, PendingReward};
    use crate::world::WORLD_NOW_MS;

    /// Whether every stake of `rewards` is still pending at the world's now (none has ended, so
    /// none has a historical reward).
    fn none_ended(rewards: &[PendingReward]) -> bool {
        let now = WORLD_NOW_MS / 1000;
        rewards.iter().all(|r| r.start <= now && now < r.end)
    }

    #[test]
    fn no_stake_of_any_world_has_ended() {
        for seed in [0, 1, 7, 42] {
            for network in Network::ALL {
                assert!(none_ended(&generate(seed, network)), "seed {seed} {network:?}");
            }
        }
    }
}
