//! A cost plan before a walk: how many requests it sends, the compute units they cost (each
//! operation's `x-execution-weight`, [`crate::transport::weights`]), the time it takes at the
//! client's own limits and at the tier's per-minute budget, and its share of the tier's daily
//! budget. Plans are made from what a walk knows before its first request; what it cannot know
//! (the length of a Data API list) is said, not guessed.

pub mod metering;
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
    /// At least this many (a newest-first list rerun into a dataset: more when the list grew
    /// at its head since the dataset was written).
    AtLeast(u64),
    /// Not known before walking (a Data API list without a limit).
    Unknown,
}

impl Requests {
    /// The count or bound, if any.
    pub fn count(self) -> Option<u64> {
        match self {
            Requests::Exact(n) | Requests::AtMost(n) | Requests::AtLeast(n) => Some(n),
            Requests::Unknown => None,
        }
    }

    /// A count of the same kind (`Unknown` stays unknown).
    pub fn with_count(self, n: u64) -> Requests {
        match self {
            Requests::Exact(_) => Requests::Exact(n),
            Requests::AtMost(_) => Requests::AtMost(n),
            Requests::AtLeast(_) => Requests::AtLeast(n),
            Requests::Unknown => Requests::Unknown,
        }
    }

    /// `exact`, `at most`, `at least` or `unknown`.
    pub fn kind(self) -> &'static str {
        match self {
            Requests::Exact(_) => "exact",
            Requests::AtMost(_) => "at most",
            Requests::AtLeast(_) => "at least",
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
    /// Whether the service charges compute units ([`metering`]): a node's Index RPC does only
    /// at a hosted endpoint.
    pub metered: bool,
    /// Whether the service is a hosted one ([`metering::is_hosted_service`]): an unbounded list
    /// walk warns there.
    pub hosted: bool,
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
            metered: true,
            hosted: false,
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

/// What a walk will cost, against a [`Budget`]: the walk's request shape and the limits it is
/// measured against.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// What the walk sends (its `page_size` at least 1); `requests` and the figures after it
    /// count only what is still sent once `held` and `cached_items` are taken off.
    pub walk: Walk,
    /// The client's limits and the tier in force.
    pub budget: Budget,
}

impl Plan {
    /// The plan of `walk` against `budget`.
    pub fn new(walk: Walk, budget: &Budget) -> Self {
        Plan { walk: Walk { page_size: walk.page_size.max(1), ..walk }, budget: budget.clone() }
    }

    /// Compute units per minute in force (the tier's, or the `ratelimit` headers').
    pub fn units_per_minute(&self) -> u64 {
        self.budget.units_per_minute().0
    }

    /// Where [`Plan::units_per_minute`] comes from: `tier` or `ratelimit headers`.
    pub fn per_minute_source(&self) -> &'static str {
        self.budget.units_per_minute().1
    }

    /// Compute units per day of the tier.
    pub fn units_per_day(&self) -> u64 {
        self.budget.tier.units_per_day()
    }

    /// The same plan once `held` more items are already held (an existing dataset): they are
    /// not requested.
    pub fn less_held(&self, held: u64) -> Plan {
        let mut out = self.clone();
        if held == 0 {
            // Nothing to take off: the requests stay as counted (less what the cache holds).
            return out;
        }
        let walk = &self.walk;
        let (requests, items, newly) = shapes::less_held(walk.requests, walk.items, walk.page_size, held);
        (out.walk.requests, out.walk.items, out.walk.held) = (requests, items, walk.held + newly);
        out
    }

    /// The same plan once the cache is known to hold `cached_items` of its items: `requests` is
    /// what the walk still sends (counted by [`crate::cache::held`]), of the same kind.
    pub fn less_cached(&self, cached_items: u64, requests: u64) -> Plan {
        let mut out = self.clone();
        out.walk.cached_items = self.walk.cached_items + cached_items;
        out.walk.requests = self.walk.requests.with_count(requests);
        out
    }

    /// The same plan with `requests` more sent before the walk (reads a caller makes around
    /// it), of the same kind (`Unknown` stays unknown).
    pub fn plus_requests(&self, requests: u64) -> Plan {
        let mut out = self.clone();
        if let Some(n) = self.walk.requests.count() {
            out.walk.requests = self.walk.requests.with_count(n + requests);
        }
        out
    }

    /// Whether the service walked charges compute units ([`Budget::metered`]).
    pub fn metered(&self) -> bool {
        self.budget.metered
    }

    /// Compute units of one request: the operation's weight, 0 where nothing is charged.
    pub fn units_per_request(&self) -> u64 {
        if self.metered() {
            self.walk.units_per_request
        } else {
            0
        }
    }

    /// Compute units of the whole walk (a bound when the requests are), `None` when unknown;
    /// 0 where nothing is charged.
    pub fn compute_units(&self) -> Option<u64> {
        if !self.metered() {
            return Some(0);
        }
        self.walk.requests.count().map(|n| n * self.walk.units_per_request)
    }

    /// Requests per 1,000 items handed out.
    pub fn pages_per_1000_items(&self) -> u64 {
        1000u64.div_ceil(self.walk.page_size)
    }

    /// Compute units per 1,000 items handed out.
    pub fn units_per_1000_items(&self) -> u64 {
        self.pages_per_1000_items() * self.units_per_request()
    }

    /// Seconds the walk takes at the client's own limits (the slower of `rate_limit` and
    /// `compute_units_per_minute`); `None` without either, or with the requests unknown.
    pub fn seconds_at_client_limits(&self) -> Option<f64> {
        let n = self.walk.requests.count()? as f64;
        let by_rate = self.budget.rate_limit.map(|r| n / r);
        // The client's own limiter charges each request its weight, metered service or not.
        let by_units =
            self.budget.compute_units_per_minute.map(|u| n * self.walk.units_per_request as f64 * 60.0 / f64::from(u));
        match (by_rate, by_units) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// Seconds the walk takes spending the per-minute budget in force in full; `None` where
    /// nothing is charged (no budget applies).
    pub fn seconds_at_tier_budget(&self) -> Option<f64> {
        self.metered().then_some(())?;
        Some(self.compute_units()? as f64 * 60.0 / self.units_per_minute() as f64)
    }

    /// The walk's compute units as a share of the tier's daily budget (1.0: all of it); `None`
    /// where nothing is charged.
    pub fn daily_share(&self) -> Option<f64> {
        self.metered().then_some(())?;
        Some(self.compute_units()? as f64 / self.units_per_day() as f64)
    }

    /// Which the walk is: metered (in compute units of the tier) or not, and why.
    pub fn metering(&self) -> String {
        if self.metered() {
            format!("metered: compute units of the {} tier", self.budget.tier)
        } else {
            "unmetered: a node's Index RPC charges no compute units (only the hosted endpoints do)".to_string()
        }
    }

    /// The warning to show before the first request when the walk would spend more than the
    /// daily budget; `None` when it fits (or its cost is unknown).
    pub fn over_daily_budget(&self) -> Option<String> {
        self.metered().then_some(())?;
        let units = self.compute_units()?;
        (units > self.units_per_day()).then(|| {
            format!(
                "this walk of {} costs {} {} compute units ({} requests x {}), {:.1}x the {} tier's daily budget \
                 of {}: it will be refused part way; narrow it, or pass tier= if your plan allows more",
                self.walk.operation,
                self.walk.requests.kind(),
                units,
                self.walk.requests.count().unwrap_or(0),
                self.walk.units_per_request,
                units as f64 / self.units_per_day() as f64,
                self.budget.tier,
                self.units_per_day()
            )
        })
    }

    /// Whether the walk has no bound: a list with no limit and no window (its length is
    /// unknown until it ends).
    pub fn unbounded(&self) -> bool {
        self.walk.requests == Requests::Unknown && self.walk.items.is_none() && self.walk.operation.starts_with("GET ")
    }

    /// The warning an unbounded walk of a hosted service gives once before its first request:
    /// its cost per 1,000 items and how to bound it; `None` when bounded or not hosted.
    pub fn unbounded_notice(&self) -> Option<String> {
        (self.budget.hosted && self.unbounded()).then(|| {
            format!(
                "this walk of {} is unbounded (no limit= and no window): it reads the whole list from a hosted \
                 service, {} requests ({} compute units) per 1,000 items; bound it with limit=N (or \
                 to_polars(limit=N)), or a window (start=/end=) where the list takes one",
                self.walk.operation,
                self.pages_per_1000_items(),
                self.units_per_1000_items()
            )
        })
    }

    /// A multi-line human summary (what `--dry-run` prints).
    pub fn summary(&self) -> String {
        let mut out = vec![format!("plan: {}", self.walk.operation)];
        let count = |n: Option<u64>| n.map_or_else(|| "unknown".to_string(), |n| n.to_string());
        let requests = match self.walk.requests {
            Requests::Unknown => "unknown".to_string(),
            r => format!("{} {}", r.kind(), count(r.count())),
        };
        out.push(format!("  requests:        {requests} (page size {})", self.walk.page_size));
        out.push(format!("  metering:        {}", self.metering()));
        out.push(format!(
            "  compute units:   {} ({} per request)",
            count(self.compute_units()),
            self.units_per_request()
        ));
        out.push(format!(
            "  per 1,000 items: {} requests, {} compute units",
            self.pages_per_1000_items(),
            self.units_per_1000_items()
        ));
        if self.walk.held > 0 {
            out.push(format!("  already held:    {} items (not requested)", self.walk.held));
        }
        if self.walk.cached_items > 0 {
            out.push(format!("  from the cache:  {} items (not requested)", self.walk.cached_items));
        }
        let secs = |s: Option<f64>| s.map_or_else(|| "unknown".to_string(), |s| format!("{s:.1} s"));
        if self.budget.rate_limit.is_some() || self.budget.compute_units_per_minute.is_some() {
            out.push(format!("  at client limits: {}", secs(self.seconds_at_client_limits())));
        }
        if self.metered() {
            out.push(format!(
                "  at {} {}/min ({}): {}",
                self.budget.tier,
                self.units_per_minute(),
                self.per_minute_source(),
                secs(self.seconds_at_tier_budget())
            ));
            let share = self.daily_share().map_or_else(|| "unknown".to_string(), |s| format!("{:.2}%", s * 100.0));
            out.push(format!("  daily budget:    {share} of {} units", self.units_per_day()));
        }
        for u in &self.walk.unknown {
            out.push(format!("  unknown:         {u}"));
        }
        out.join("\n")
    }
}

#[cfg(test)]
mod tests;
