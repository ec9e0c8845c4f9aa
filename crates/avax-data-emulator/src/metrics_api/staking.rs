//! `GET /v2/networks/{network}/metrics/{metric}`: the primary network's staking metrics, day by
//! day, from the world's stakes (the stakes `listValidators` / `listDelegators` list, active or
//! completed, and the P-chain's staking and reward transactions carry, [`crate::world::rewards`]).
//!
//! - `metric`: `validatorCount`, `validatorWeight`, `delegatorCount`, `delegatorWeight` (else 400).
//! - One point a day at 00:00 UTC, from the day of the earliest stake's start to the last day
//!   before the world's now. A day's value holds at its **end** (the next midnight, or now):
//!   the stakes with `start <= t < end` (validators, or delegations), counted or their staked
//!   nAVAX summed. So the newest point equals what `rewards:listPending` holds (the stakes
//!   active at now); the series grows as stakes begin and falls as they end.
//! - `subnetId`: the primary network's (the default); another subnet has no stakes in the world:
//!   an empty list.
//! - `startTimestamp` / `endTimestamp` (Unix seconds, both counted in: the points with
//!   `startTimestamp <= t <= endTimestamp`, as the hosted Metrics API's `endTimestamp`,
//!   `spec/ground-truth.md`), `pageSize` 1..=2160 (default 100), `pageToken`: as the chain
//!   metrics ([`super::metrics`]). Newest first.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};

use super::errors::Answer;
use super::metrics::{in_order, series_page, timestamp, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};
use crate::data_api::paging;
use crate::data_api::params::{path_network, Params};
use crate::data_api::DataApiState;
use crate::world::rewards::{PendingReward, RewardType};
use crate::world::{DataWorld, Network, PRIMARY_NETWORK_SUBNET_ID, WORLD_NOW_MS};

const DAY: i64 = 86_400;

/// A staking metric of `/v2/networks/{network}/metrics/{metric}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StakingMetric {
    ValidatorCount,
    ValidatorWeight,
    DelegatorCount,
    DelegatorWeight,
}

impl StakingMetric {
    /// The four, in the document's order.
    pub const ALL: [StakingMetric; 4] = [
        StakingMetric::DelegatorCount,
        StakingMetric::DelegatorWeight,
        StakingMetric::ValidatorCount,
        StakingMetric::ValidatorWeight,
    ];

    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            StakingMetric::ValidatorCount => "validatorCount",
            StakingMetric::ValidatorWeight => "validatorWeight",
            StakingMetric::DelegatorCount => "delegatorCount",
            StakingMetric::DelegatorWeight => "delegatorWeight",
        }
    }

    /// The metric named `text`.
    pub fn parse(text: &str) -> Option<StakingMetric> {
        StakingMetric::ALL.into_iter().find(|m| m.as_str() == text)
    }
}

/// The daily series of `metric` on `network`, oldest first: `(day, Unix seconds at 00:00 UTC;
/// value at the day's end)`.
pub fn staking_series(world: &DataWorld, network: Network, metric: StakingMetric) -> Vec<(i64, f64)> {
    let delegation = matches!(metric, StakingMetric::DelegatorCount | StakingMetric::DelegatorWeight);
    let wanted = if delegation { RewardType::Delegator } else { RewardType::Validator };
    let stakes: Vec<&PendingReward> = world.stake_rewards(network).iter().filter(|r| r.reward_type == wanted).collect();
    let now = WORLD_NOW_MS / 1000;
    let Some(first) = stakes.iter().map(|r| r.start).min() else { return Vec::new() };
    let mut out = Vec::new();
    let mut day = first - first.rem_euclid(DAY);
    while day < now {
        let at = (day + DAY).min(now);
        let live = stakes.iter().filter(|r| r.active_at(at));
        let value = match metric {
            StakingMetric::ValidatorCount | StakingMetric::DelegatorCount => live.count() as f64,
            StakingMetric::ValidatorWeight | StakingMetric::DelegatorWeight => {
                live.map(|r| r.amount_staked as f64).sum()
            }
        };
        out.push((day, value));
        day += DAY;
    }
    out
}

pub(crate) async fn get_staking_metric(
    State(state): State<Arc<DataApiState>>,
    Path((network, metric_name)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Answer {
    let mut params = Params::parse(query.as_deref());
    let network = path_network(&mut params, &network);
    let metric = StakingMetric::parse(&metric_name);
    if metric.is_none() {
        let names: Vec<&str> = StakingMetric::ALL.iter().map(|m| m.as_str()).collect();
        params.problem(format!("metric must be one of the following values: {}", names.join(", ")));
    }
    let size = if params.get("pageSize").is_some() { params.page_size(MAX_PAGE_SIZE) } else { DEFAULT_PAGE_SIZE };
    let start_ts = timestamp(&mut params, "startTimestamp");
    let end_ts = timestamp(&mut params, "endTimestamp");
    params.finish()?;
    let (Some(network), Some(metric)) = (network, metric) else { unreachable!("checked above") };
    in_order(start_ts, end_ts)?;
    let primary = params.get("subnetId").is_none_or(|s| s == PRIMARY_NETWORK_SUBNET_ID);
    let fingerprint = params.fingerprint(&format!("v2/networks/{}/metrics/{}", network.as_str(), metric.as_str()));
    let start = paging::start(&state, &params, &fingerprint)?;
    let series = if primary { staking_series(&state.world, network, metric) } else { Vec::new() };
    series_page(&state, series, (start_ts, end_ts), (start, size), &fingerprint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::rewards::node_count;

    #[test]
    fn staking_follows_the_stakes_day_by_day_in_time_order() {
        let world = DataWorld::new(3, 10);
        for network in Network::ALL {
            let count = staking_series(&world, network, StakingMetric::ValidatorCount);
            assert!(count.windows(2).all(|w| w[1].0 == w[0].0 + DAY), "consecutive days, oldest first");
            assert!(count.windows(2).any(|w| w[1].1 < w[0].1), "{network:?}: counts fall after an end");
            assert_eq!(count.last().unwrap(), &(WORLD_NOW_MS / 1000 - DAY, node_count(network) as f64));
            let all = world.stake_rewards(network);
            let first = all.iter().map(|r| r.start).min().unwrap();
            assert_eq!(count[0].0, first - first.rem_euclid(DAY));
            assert!(count[0].1 >= 1.0, "the first day holds the first stake");
            // Each day's count is the number of validations active at its end.
            for &(day, value) in &count {
                let at = (day + DAY).min(WORLD_NOW_MS / 1000);
                let active = all.iter().filter(|r| r.reward_type == RewardType::Validator && r.active_at(at)).count();
                assert_eq!(value, active as f64, "{network:?} day {day}");
            }
            // The day after a validation ends holds it no more.
            let ended = all.iter().find(|r| r.reward_type == RewardType::Validator && r.ended()).unwrap();
            let day_of = |t: i64| t - t.rem_euclid(DAY);
            let holds = |t: i64| {
                all.iter()
                    .filter(|r| r.reward_type == RewardType::Validator && r.active_at(t))
                    .any(|r| r.tx_hash == ended.tx_hash)
            };
            assert!(holds(day_of(ended.end)) && !holds(day_of(ended.end) + DAY));
            let weight = staking_series(&world, network, StakingMetric::DelegatorWeight);
            let pending: u64 = world
                .pending_rewards(network)
                .iter()
                .filter(|r| r.reward_type == RewardType::Delegator)
                .map(|r| r.amount_staked)
                .sum();
            assert_eq!(weight.last().unwrap().1, pending as f64);
        }
    }
}
