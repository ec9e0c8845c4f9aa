//! A tier's compute-unit budget per minute, as the hosted service enforces one: every Data API
//! request is charged its operation's weight (`x-execution-weight`, the core's
//! [`avax_data_core::transport::weights`]: a list page costs 20) from a bucket per API key (one
//! shared bucket for the requests without a key, the unauthenticated tier).
//!
//! The bucket drains at `units_per_minute / 60` units a second and holds at most a tenth of the
//! minute's units ([`BURST_SHARE`]); a request that would overflow it gets 429 with the
//! service's body and headers (`ratelimit-policy: {units};w=60`, `ratelimit-limit`,
//! `ratelimit-remaining: 0`, `ratelimit-reset` and `retry-after` in whole seconds, at least 1).
//! So over any window of `w` seconds at most `w * units / 60 + units / 10` units are served: a
//! client keeping to the budget with a burst of up to a tenth of a minute (the client's limiter
//! keeps at most 200 units) never sees a 429. The service does not publish its algorithm; this
//! is the emulator's model of it (docs/known-limits.md).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The share of a minute's units the bucket holds: a burst of 6 seconds' worth.
pub const BURST_SHARE: f64 = 0.1;

/// What a metered request was told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Charge {
    /// Served: the units left in the bucket after it.
    Served { remaining: u64 },
    /// Refused: whole seconds until it would fit.
    Refused { retry_secs: u64 },
}

struct Bucket {
    level: f64,
    at: Instant,
}

/// The budget in force (`None`: unmetered) and each key's bucket.
#[derive(Default)]
pub(crate) struct Meter {
    units_per_minute: Mutex<Option<u32>>,
    buckets: Mutex<HashMap<Option<String>, Bucket>>,
    spent: AtomicU64,
    refused: AtomicU64,
}

/// Units spent and requests refused since the budget was set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetUse {
    /// The budget in force, units per minute (`None`: unmetered).
    pub units_per_minute: Option<u32>,
    /// Units charged to served requests.
    pub spent: u64,
    /// Requests refused with 429 for the budget.
    pub refused: u64,
}

impl Meter {
    /// Sets the budget (`None` lifts it) and empties every bucket and count.
    pub(crate) fn set(&self, units_per_minute: Option<u32>) {
        *self.units_per_minute.lock().unwrap_or_else(|e| e.into_inner()) = units_per_minute.filter(|&u| u > 0);
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.spent.store(0, Ordering::SeqCst);
        self.refused.store(0, Ordering::SeqCst);
    }

    /// The budget in force.
    pub(crate) fn units_per_minute(&self) -> Option<u32> {
        *self.units_per_minute.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What was spent and refused.
    pub(crate) fn usage(&self) -> BudgetUse {
        BudgetUse {
            units_per_minute: self.units_per_minute(),
            spent: self.spent.load(Ordering::SeqCst),
            refused: self.refused.load(Ordering::SeqCst),
        }
    }

    /// Charges `weight` units to `key`'s bucket at `now`; `None` when no budget is set.
    pub(crate) fn charge(&self, key: Option<&str>, weight: u32, now: Instant) -> Option<Charge> {
        let units = f64::from(self.units_per_minute()?);
        let (rate, capacity) = (units / 60.0, (units * BURST_SHARE).max(f64::from(weight)));
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let bucket = buckets.entry(key.map(str::to_string)).or_insert(Bucket { level: 0.0, at: now });
        let drained = now.saturating_duration_since(bucket.at).as_secs_f64() * rate;
        bucket.level = (bucket.level - drained).max(0.0);
        bucket.at = now;
        let weight = f64::from(weight);
        if bucket.level + weight <= capacity + 1e-9 {
            bucket.level += weight;
            self.spent.fetch_add(weight as u64, Ordering::SeqCst);
            Some(Charge::Served { remaining: (capacity - bucket.level).max(0.0) as u64 })
        } else {
            self.refused.fetch_add(1, Ordering::SeqCst);
            let wait = (bucket.level + weight - capacity) / rate;
            Some(Charge::Refused { retry_secs: (wait.ceil() as u64).max(1) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_client_at_the_budget_is_served_and_one_past_it_refused() {
        let meter = Meter::default();
        assert_eq!(meter.charge(None, 20, Instant::now()), None, "unmetered until a budget is set");
        meter.set(Some(6_000)); // 100 units a second, a bucket of 600
        let t0 = Instant::now();
        // 30 pages at once fill the bucket; the 31st is refused for a fifth of a second (1 s rounded up)
        for _ in 0..30 {
            assert!(matches!(meter.charge(None, 20, t0), Some(Charge::Served { .. })));
        }
        assert_eq!(meter.charge(None, 20, t0), Some(Charge::Refused { retry_secs: 1 }));
        // at exactly the rate (5 pages a second) for a minute: never refused
        for i in 1..=300u64 {
            let at = t0 + Duration::from_millis(i * 200);
            assert!(matches!(meter.charge(None, 20, at), Some(Charge::Served { .. })), "page {i}");
        }
        // a key has a bucket of its own
        assert!(matches!(meter.charge(Some("k"), 20, t0 + Duration::from_secs(60)), Some(Charge::Served { .. })));
        let usage = meter.usage();
        assert_eq!((usage.units_per_minute, usage.spent, usage.refused), (Some(6_000), 331 * 20, 1));
        meter.set(None);
        assert_eq!(meter.charge(None, 20, t0), None);
    }
}
