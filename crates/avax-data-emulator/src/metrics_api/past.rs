//! The buckets of a chain's metric series before its first block, from the world's history
//! ([`crate::world::history`]): from the bucket holding the chain's launch through the bucket
//! holding its first block, whose part before that block is added to what the blocks hold (so the
//! first bucket of the blocks is not a partial one that looks like an outage).
//!
//! A bucket is the sum of its hours (the hour holding the first block counts for the share of it
//! before the block, rounded), so hour, day, week and month sums agree. Cumulative series are
//! running sums from the launch; the other series build only the buckets of the window asked.

use super::metric::Metric;
use crate::world::history::{self, SENDER_SHARE};
use crate::world::Chain;
use avax_data_core::metrics::params::Interval;

/// One bucket of history of one chain (the part before its first block).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Past {
    /// Bucket start, Unix seconds.
    pub start: i64,
    /// Seconds of the bucket before the chain's first block.
    pub seconds: i64,
    pub txs: f64,
    pub gas: f64,
    pub fees: f64,
    /// Sum of price times transactions (for the mean price).
    pub price_sum: f64,
    pub price_max: f64,
    pub contracts: f64,
    pub max_gps: f64,
    pub max_tps: f64,
}

impl Past {
    /// Distinct active addresses of the bucket.
    pub fn active(&self, seed: u64, chain: &Chain) -> f64 {
        history::distinct(seed, chain, self.start, self.seconds, self.txs)
    }

    /// Distinct senders.
    pub fn senders(&self, seed: u64, chain: &Chain) -> f64 {
        (self.active(seed, chain) * SENDER_SHARE).round()
    }

    /// Distinct deployers.
    pub fn deployers(&self) -> f64 {
        (self.contracts * 0.7).round()
    }

    /// Addresses seen for the first time in the bucket: a share of its active addresses that
    /// shrinks as the chain ages.
    pub fn new_addresses(&self, seed: u64, chain: &Chain) -> f64 {
        let age = history::trend(chain, self.start).min(1.0);
        (self.active(seed, chain) * (0.25 - 0.2 * age)).round()
    }
}

/// The history buckets of `chain` at `interval` from its launch, stopping at `first_ms` (the
/// chain's first block): every bucket when `metric` is cumulative, else only those whose start
/// lies in `window` (`start <= t < end`). Oldest first.
pub(super) fn past_buckets(
    seed: u64,
    chain: &Chain,
    interval: Interval,
    first_ms: i64,
    metric: Metric,
    window: (Option<i64>, Option<i64>),
) -> Vec<Past> {
    let cumulative = metric.cumulative();
    let mut out = Vec::new();
    let mut start = interval.floor(history::launch_s(chain));
    while start * 1000 < first_ms {
        let next = interval.next(start);
        let wanted = cumulative || (window.0.is_none_or(|s| start >= s) && window.1.is_none_or(|e| start < e));
        if wanted {
            out.push(bucket(seed, chain, start, next, first_ms));
        } else if window.1.is_some_and(|e| start >= e) {
            break;
        }
        start = next;
    }
    out
}

/// The bucket `[start, end)` (seconds), cut at `first_ms`.
fn bucket(seed: u64, chain: &Chain, start: i64, end: i64, first_ms: i64) -> Past {
    let launch = history::launch_s(chain);
    let mut b = Past { start, ..Past::default() };
    let mut hour = start.max(launch);
    while hour < end && hour * 1000 < first_ms {
        let f = history::hour(seed, chain, hour);
        let ms = (first_ms - hour * 1000).min(3_600_000);
        let share = ms as f64 / 3_600_000.0;
        let (txs, gas) =
            if ms == 3_600_000 { (f.txs, f.gas) } else { ((f.txs * share).round(), (f.gas * share).round()) };
        b.seconds += ms / 1000;
        b.txs += txs;
        b.gas += gas;
        b.fees += gas * f.price;
        b.price_sum += txs * f.price;
        b.price_max = b.price_max.max(f.price_max);
        b.contracts += (txs * history::CONTRACT_SHARE).round();
        b.max_gps = b.max_gps.max(f.gas / 3_600.0 * 4.0);
        b.max_tps = b.max_tps.max(f.txs / 3_600.0 * 4.0);
        hour += 3_600;
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::chain;

    #[test]
    fn buckets_start_at_launch_and_stop_at_the_first_block() {
        let c = chain(43114).unwrap();
        let first_ms = 1_767_200_000_500; // 2025-12-31T16:53:20.5Z
        let days = past_buckets(0, c, Interval::Day, first_ms, Metric::TxCount, (None, None));
        assert_eq!(days[0].start, history::launch_s(c));
        assert_eq!(days.last().unwrap().start, 1_767_139_200, "the day holding the first block");
        assert_eq!(days.last().unwrap().seconds, 16 * 3_600 + 53 * 60 + 20);
        // Hours sum to days, days to months.
        let hours = past_buckets(0, c, Interval::Hour, first_ms, Metric::TxCount, (None, None));
        let months = past_buckets(0, c, Interval::Month, first_ms, Metric::TxCount, (None, None));
        let sum = |v: &[Past]| v.iter().map(|b| b.txs).sum::<f64>();
        assert_eq!(sum(&hours), sum(&days));
        assert_eq!(sum(&months), sum(&days));
        // A window builds only its buckets.
        let window =
            past_buckets(0, c, Interval::Day, first_ms, Metric::TxCount, (Some(1_735_689_600), Some(1_767_225_600)));
        assert_eq!(window.len(), 365);
        assert_eq!(window[0], days[days.iter().position(|d| d.start == 1_735_689_600).unwrap()]);
    }
}
