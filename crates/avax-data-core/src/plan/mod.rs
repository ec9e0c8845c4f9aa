//! A cost plan before a walk: how many requests it sends, the compute units they cost (each
//! operation's `x-execution-weight`, [`crate::transport::weights`]), the time it takes at the
//! client's own limits and at the tier's per-minute budget, and its share of the tier's daily
//! budget. Plans are made from what a walk knows before its first request; what it cannot know
//! (the length of a Data API list) is said, not guessed.

pub mod shapes;
pub mod sources;
pub mod tier;

pub use shapes::Walk;
pub use tier::{ServiceTier, TIER_ENV, TIER_NAMES};

use crate::transport::{RateLimitInfo, TransportConfig};

/// How many requests a walk sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requests {
    /// Exactly this many (an Index range of known end).
    Exact(u64),
    /// At most this many (a list walk with a limit, a window of buckets that may have gaps).
    AtMost(u64),
    /// Not known before walking (a Data API list without a limit).
    Unknown,
}

impl Requests {
    /// The count or bound, if any.
    pub fn count(self) -> Option<u64> {
        match self {
            Requests::Exact(n) | Requests::AtMost(n) => Some(n),
            Requests::Unknown => None,
        }
    }

    /// `exact`, `at most` or `unknown`.
    pub fn kind(self) -> &'static str {
        match self {
            Requests::Exact(_) => "exact",
            Requests::AtMost(_) => "at most",
            Requests::Unknown => "unknown",
        }
    }
}

/// The limits a plan is measured against.
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    /// The client's `rate_limit` (requests per second).
    pub rate_limit: Option<f64>,
    /// The client's `compute_units_per_minute`.
    pub compute_units_per_minute: Option<u32>,
    /// The tier in force.
    pub tier: ServiceTier,
    /// Compute units per minute the service announced in its `ratelimit-*` headers, which
    /// override the tier's figure.
    pub header_units_per_minute: Option<u64>,
}

impl Budget {
    /// The budget of a client: its transport options, the tier chosen (else the default for
    /// whether it has an API key) and the last `ratelimit-*` headers it saw.
    pub fn of(config: &TransportConfig, has_api_key: bool, headers: Option<&RateLimitInfo>) -> Self {
        Budget {
            rate_limit: config.rate_limit,
            compute_units_per_minute: config.compute_units_per_minute,
            tier: ServiceTier::resolve(config.tier, has_api_key),
            header_units_per_minute: headers.and_then(header_units_per_minute),
        }
    }

    /// The per-minute figure in force and where it comes from.
    pub fn units_per_minute(&self) -> (u64, &'static str) {
        match self.header_units_per_minute {
            Some(n) => (n, "ratelimit headers"),
            None => (self.tier.units_per_minute(), "tier"),
        }
    }
}

/// Compute units per minute from `ratelimit-limit` over the `ratelimit-policy` window (60 s
/// when the policy names none).
pub fn header_units_per_minute(info: &RateLimitInfo) -> Option<u64> {
    let limit = info.limit.filter(|&l| l > 0)?;
    let window = info
        .policy
        .as_deref()
        .and_then(crate::transport::limiter::policy_window)
        .map_or(60.0, |w| w.as_secs_f64())
        .max(1e-3);
    Some(((limit as f64) * 60.0 / window).round().max(1.0) as u64)
}

/// What a walk will cost, against a [`Budget`].
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The operation walked (`GET /v1/chains/43114/blocks`).
    pub operation: String,
    /// Requests sent.
    pub requests: Requests,
    /// Compute units of one request.
    pub units_per_request: u64,
    /// Items asked per request.
    pub page_size: u64,
    /// Items the walk would hand out, when known.
    pub items: Option<u64>,
    /// Items already held (an existing dataset) and not requested again.
    pub held: u64,
    /// Items the walk hands out from the cache (`cache=`), without a request; `requests` and
    /// the figures after it count only what is still sent.
    pub cached_items: u64,
    /// The tier the budget figures are of.
    pub tier: ServiceTier,
    /// Compute units per minute in force.
    pub units_per_minute: u64,
    /// `tier` or `ratelimit headers`.
    pub per_minute_source: &'static str,
    /// Compute units per day of the tier.
    pub units_per_day: u64,
    /// The client's `rate_limit` and `compute_units_per_minute`.
    pub client_limits: (Option<f64>, Option<u32>),
    /// What the plan cannot know.
    pub unknown: Vec<String>,
}

impl Plan {
    /// The plan of `walk` against `budget`.
    pub fn new(walk: Walk, budget: &Budget) -> Self {
        let (units_per_minute, per_minute_source) = budget.units_per_minute();
        Plan {
            operation: walk.operation,
            requests: walk.requests,
            units_per_request: walk.units_per_request,
            page_size: walk.page_size.max(1),
            items: walk.items,
            held: walk.held,
            cached_items: walk.cached_items,
            tier: budget.tier,
            units_per_minute,
            per_minute_source,
            units_per_day: budget.tier.units_per_day(),
            client_limits: (budget.rate_limit, budget.compute_units_per_minute),
            unknown: walk.unknown,
        }
    }

    /// The same plan once `held` more items are already held (an existing dataset): they are
    /// not requested.
    pub fn less_held(&self, held: u64) -> Plan {
        let mut out = self.clone();
        if held == 0 {
            // Nothing to take off: the requests stay as counted (less what the cache holds).
            return out;
        }
        let (requests, items, newly) = shapes::less_held(self.requests, self.items, self.page_size, held);
        (out.requests, out.items, out.held) = (requests, items, self.held + newly);
        out
    }

    /// The same plan once the cache is known to hold `cached_items` of its items: `requests` is
    /// what the walk still sends (counted by [`crate::cache::held`]), of the same kind.
    pub fn less_cached(&self, cached_items: u64, requests: u64) -> Plan {
        let mut out = self.clone();
        out.cached_items = self.cached_items + cached_items;
        out.requests = match self.requests {
            Requests::Exact(_) => Requests::Exact(requests),
            Requests::AtMost(_) => Requests::AtMost(requests),
            Requests::Unknown => Requests::Unknown,
        };
        out
    }

    /// Compute units of the whole walk (a bound when the requests are), `None` when unknown.
    pub fn compute_units(&self) -> Option<u64> {
        self.requests.count().map(|n| n * self.units_per_request)
    }

    /// Requests per 1,000 items handed out.
    pub fn pages_per_1000_items(&self) -> u64 {
        1000u64.div_ceil(self.page_size)
    }

    /// Compute units per 1,000 items handed out.
    pub fn units_per_1000_items(&self) -> u64 {
        self.pages_per_1000_items() * self.units_per_request
    }

    /// Seconds the walk takes at the client's own limits (the slower of `rate_limit` and
    /// `compute_units_per_minute`); `None` without either, or with the requests unknown.
    pub fn seconds_at_client_limits(&self) -> Option<f64> {
        let n = self.requests.count()? as f64;
        let by_rate = self.client_limits.0.map(|r| n / r);
        let by_units = self.client_limits.1.map(|u| n * self.units_per_request as f64 * 60.0 / f64::from(u));
        match (by_rate, by_units) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// Seconds the walk takes spending the per-minute budget in force in full.
    pub fn seconds_at_tier_budget(&self) -> Option<f64> {
        Some(self.compute_units()? as f64 * 60.0 / self.units_per_minute as f64)
    }

    /// The walk's compute units as a share of the tier's daily budget (1.0: all of it).
    pub fn daily_share(&self) -> Option<f64> {
        Some(self.compute_units()? as f64 / self.units_per_day as f64)
    }

    /// The warning to show before the first request when the walk would spend more than the
    /// daily budget; `None` when it fits (or its cost is unknown).
    pub fn over_daily_budget(&self) -> Option<String> {
        let units = self.compute_units()?;
        (units > self.units_per_day).then(|| {
            format!(
                "this walk of {} costs {} {} compute units ({} requests x {}), {:.1}x the {} tier's daily budget \
                 of {}: it will be refused part way; narrow it, or pass tier= if your plan allows more",
                self.operation,
                self.requests.kind(),
                units,
                self.requests.count().unwrap_or(0),
                self.units_per_request,
                units as f64 / self.units_per_day as f64,
                self.tier,
                self.units_per_day
            )
        })
    }

    /// A multi-line human summary (what `--dry-run` prints).
    pub fn summary(&self) -> String {
        let mut out = vec![format!("plan: {}", self.operation)];
        let count = |n: Option<u64>| n.map_or_else(|| "unknown".to_string(), |n| n.to_string());
        let requests = match self.requests {
            Requests::Unknown => "unknown".to_string(),
            r => format!("{} {}", r.kind(), count(r.count())),
        };
        out.push(format!("  requests:        {requests} (page size {})", self.page_size));
        out.push(format!(
            "  compute units:   {} ({} per request)",
            count(self.compute_units()),
            self.units_per_request
        ));
        out.push(format!(
            "  per 1,000 items: {} requests, {} compute units",
            self.pages_per_1000_items(),
            self.units_per_1000_items()
        ));
        if self.held > 0 {
            out.push(format!("  already held:    {} items (not requested)", self.held));
        }
        if self.cached_items > 0 {
            out.push(format!("  from the cache:  {} items (not requested)", self.cached_items));
        }
        let secs = |s: Option<f64>| s.map_or_else(|| "unknown".to_string(), |s| format!("{s:.1} s"));
        if self.client_limits.0.is_some() || self.client_limits.1.is_some() {
            out.push(format!("  at client limits: {}", secs(self.seconds_at_client_limits())));
        }
        out.push(format!(
            "  at {} {}/min ({}): {}",
            self.tier,
            self.units_per_minute,
            self.per_minute_source,
            secs(self.seconds_at_tier_budget())
        ));
        let share = self.daily_share().map_or_else(|| "unknown".to_string(), |s| format!("{:.2}%", s * 100.0));
        out.push(format!("  daily budget:    {share} of {} units", self.units_per_day));
        for u in &self.unknown {
            out.push(format!("  unknown:         {u}"));
        }
        out.join("\n")
    }
}

#[cfg(test)]
mod tests;
