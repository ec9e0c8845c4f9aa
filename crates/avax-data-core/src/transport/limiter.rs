//! Client-side rate limits, shared by every request of one client (its transport): a request
//! rate, a compute-unit budget per minute, and the waits the service itself asks for.
//!
//! - **Request rate** (`rate_limit`, requests per second): a GCRA limiter (governor) with a burst
//!   of [`request_burst`] requests (50 ms worth, at least one), so that timer wake-ups a
//!   millisecond late are caught up instead of lowering the rate; over any window of `w` seconds
//!   at most `floor(w * rate) + burst` requests are sent.
//! - **Compute units** (`compute_units_per_minute` = N): each request is charged its operation's
//!   weight ([`super::weights`]) from a bucket of `min(N, 200)` units that refills at N per
//!   minute; over any window of `w` seconds at most `w * N / 60 + min(N, 200)` units are spent. A
//!   request heavier than the bucket is charged the whole bucket.
//! - **The service's waits**: after an answer with `ratelimit-remaining: 0`, no request leaves
//!   before its `ratelimit-reset` (seconds) has passed; without a reset, before the policy's
//!   window (`ratelimit-policy: 100;w=60`) has passed, when that fits the retry budget (it is the
//!   longest the current window can last). After a 429, none before its `Retry-After`.
//!
//! Every wait is a tokio sleep: dropping the request's future cancels it. The service's waits
//! are charged to the request's retry budget; the client's own limits are not (they are the
//! caller's choice).

use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use tokio::time::Instant;

use super::rate_headers::RateLimitInfo;
use super::retry::MAX_RETRY_AFTER_SECS;
use super::weights::MAX_WEIGHT;

/// governor's time source: tokio's clock (so a paused test clock drives the limiter too), as the
/// time since the limiter was made.
#[derive(Debug, Clone, Copy)]
struct TokioClock {
    origin: Instant,
}

impl Clock for TokioClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

type Gcra = RateLimiter<NotKeyed, InMemoryState, TokioClock, NoOpMiddleware<Duration>>;

/// Until when the service asked this client to hold back.
#[derive(Debug, Default, Clone, Copy)]
struct Holds {
    /// From `ratelimit-reset` or a 429's `Retry-After`: the request fails if it cannot wait.
    firm: Option<Instant>,
    /// From the policy's window (an upper bound): skipped if it does not fit the budget.
    soft: Option<Instant>,
}

/// What [`Limiter::admit`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// The request may leave; it waited this long on the service's say-so.
    Go {
        /// Time spent waiting for `ratelimit-reset` or `Retry-After`.
        server_wait: Duration,
    },
    /// The service asked for a wait longer than what is left of the retry budget.
    TooLong {
        /// The wait still asked for.
        wait: Duration,
    },
}

/// The rate limits of one client.
#[derive(Debug)]
pub struct Limiter {
    clock: TokioClock,
    requests: Option<Gcra>,
    units: Option<(Gcra, NonZeroU32)>,
    holds: Mutex<Holds>,
}

/// Requests that may leave together under `rate_limit`: what 50 ms of the rate allows, at least
/// one (one up to 39 requests/s, 2 at 40/s, 5 at 100/s).
pub fn request_burst(rate: f64) -> NonZeroU32 {
    NonZeroU32::new((rate / 20.0).floor().clamp(1.0, f64::from(u32::MAX)) as u32).unwrap_or(NonZeroU32::MIN)
}

/// `1 / per_second` seconds, rounded up to the nanosecond (so the rate is never exceeded).
fn period(seconds_per_cell: f64) -> Duration {
    Duration::from_nanos((seconds_per_cell * 1e9).ceil().clamp(1.0, u64::MAX as f64) as u64)
}

impl Limiter {
    /// A limiter with `rate_limit` requests per second and `compute_units_per_minute`, each
    /// optional (checked by [`super::TransportConfig::checked`]: finite and > 0).
    pub fn new(rate_limit: Option<f64>, compute_units_per_minute: Option<u32>) -> Self {
        let clock = TokioClock { origin: Instant::now() };
        let requests = rate_limit.filter(|r| r.is_finite() && *r > 0.0).and_then(|rate| {
            let quota = Quota::with_period(period(1.0 / rate))?.allow_burst(request_burst(rate));
            Some(RateLimiter::direct_with_clock(quota, clock))
        });
        let units = compute_units_per_minute.and_then(NonZeroU32::new).and_then(|per_minute| {
            let burst = NonZeroU32::new(per_minute.get().min(MAX_WEIGHT))?;
            let quota = Quota::with_period(period(60.0 / f64::from(per_minute.get())))?.allow_burst(burst);
            Some((RateLimiter::direct_with_clock(quota, clock), burst))
        });
        Limiter { clock, requests, units, holds: Mutex::new(Holds::default()) }
    }

    fn holds(&self) -> std::sync::MutexGuard<'_, Holds> {
        self.holds.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// No request leaves before `wait` from now has passed (a wait already longer stays); a
    /// request that cannot wait that long within its budget fails.
    pub fn hold(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut holds = self.holds();
        holds.firm = Some(holds.firm.map_or(until, |u| u.max(until)));
    }

    /// Like [`Limiter::hold`], but a request that cannot wait that long within its budget
    /// leaves without waiting.
    pub fn hold_if_affordable(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut holds = self.holds();
        holds.soft = Some(holds.soft.map_or(until, |u| u.max(until)));
    }

    /// Reads an answer's rate-limit state: `status`, its `ratelimit-*` headers and its
    /// `Retry-After` (already parsed). `unreadable` is the wait taken for a reset that is present
    /// but unusable (the policy's largest backoff, as for `Retry-After`).
    pub fn on_answer(
        &self,
        status: u16,
        info: Option<&RateLimitInfo>,
        retry_after: Option<Duration>,
        unreadable: Duration,
    ) {
        if status == 429 {
            if let Some(wait) = retry_after {
                self.hold(wait);
            }
        }
        let Some(info) = info.filter(|i| i.remaining == Some(0)) else { return };
        match (info.reset, info.policy.as_deref().and_then(policy_window)) {
            (Some(secs), _) if secs as f64 <= MAX_RETRY_AFTER_SECS => self.hold(Duration::from_secs(secs)),
            (Some(_), _) => self.hold(unreadable),
            (None, Some(window)) => self.hold_if_affordable(window),
            (None, None) => {}
        }
    }

    /// Waits until a request of `weight` compute units may leave: first the service's holds
    /// (within `budget_left`), then the compute-unit budget, then the request rate. Cancelled
    /// by dropping the future.
    pub async fn admit(&self, weight: u32, budget_left: Duration) -> Admission {
        let mut server_wait = Duration::ZERO;
        let mut units_taken = self.units.is_none();
        let mut request_taken = self.requests.is_none();
        loop {
            let now = Instant::now();
            let holds = *self.holds();
            if let Some(until) = holds.firm.filter(|u| *u > now) {
                let wait = until - now;
                if server_wait + wait > budget_left {
                    return Admission::TooLong { wait };
                }
                tokio::time::sleep_until(until).await;
                server_wait += wait;
                continue;
            }
            if let Some(until) = holds.soft.filter(|u| *u > now) {
                let wait = until - now;
                if server_wait + wait <= budget_left {
                    tokio::time::sleep_until(until).await;
                    server_wait += wait;
                    continue;
                }
            }
            if !units_taken {
                let (limiter, burst) = self.units.as_ref().expect("units_taken is true without a budget");
                let cells = NonZeroU32::new(weight.clamp(1, burst.get())).unwrap_or(NonZeroU32::MIN);
                match limiter.check_n(cells) {
                    Ok(Ok(())) | Err(_) => units_taken = true,
                    Ok(Err(not_until)) => tokio::time::sleep(not_until.wait_time_from(self.clock.now())).await,
                }
                continue;
            }
            if !request_taken {
                let limiter = self.requests.as_ref().expect("request_taken is true without a rate");
                match limiter.check() {
                    Ok(()) => request_taken = true,
                    Err(not_until) => tokio::time::sleep(not_until.wait_time_from(self.clock.now())).await,
                }
                continue;
            }
            return Admission::Go { server_wait };
        }
    }
}

/// The window of a `ratelimit-policy` value (`100;w=60` → 60 s), if it has a usable one.
pub fn policy_window(policy: &str) -> Option<Duration> {
    let secs = policy
        .split(';')
        .skip(1)
        .filter_map(|param| param.trim().split_once('='))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("w"))?
        .1
        .trim()
        .parse::<f64>()
        .ok()?;
    (secs.is_finite() && secs > 0.0 && secs <= MAX_RETRY_AFTER_SECS).then(|| Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(remaining: u64, reset: Option<u64>, policy: Option<&str>) -> RateLimitInfo {
        RateLimitInfo { policy: policy.map(str::to_string), limit: Some(10), remaining: Some(remaining), reset }
    }

    const BUDGET: Duration = Duration::from_secs(60);

    #[tokio::test(start_paused = true)]
    async fn n_requests_at_rate_r_take_at_least_n_minus_burst_over_r() {
        for (rate, n) in [(5.0, 11u32), (0.5, 4), (3.0, 10), (39.0, 50), (250.0, 100)] {
            let burst = request_burst(rate).get();
            let limiter = Limiter::new(Some(rate), None);
            let start = Instant::now();
            let mut sent = Vec::new();
            for _ in 0..n {
                assert_eq!(limiter.admit(20, BUDGET).await, Admission::Go { server_wait: Duration::ZERO });
                sent.push(start.elapsed());
            }
            let last = sent[n as usize - 1];
            let least = Duration::from_secs_f64(f64::from(n - burst) / rate);
            assert!(last >= least, "rate {rate}: {last:?} < {least:?}");
            // tokio's timer wakes on whole milliseconds: at most 1 ms late per wait.
            let most = least + Duration::from_millis(u64::from(n));
            assert!(last <= most, "rate {rate}: waited too long, {last:?}");
            // Over any window of w seconds, at most floor(w * rate) + burst requests.
            for (i, first) in sent.iter().enumerate() {
                let w = 1.0;
                let within = sent[i..].iter().take_while(|t| (**t - *first).as_secs_f64() < w).count();
                assert!(within as f64 <= (w * rate).floor() + f64::from(burst), "rate {rate}: {within} in {w} s");
            }
        }
        assert_eq!([1.0, 39.9, 40.0, 100.0, 1e9].map(|r| request_burst(r).get()), [1, 1, 2, 5, 50_000_000]);
    }

    #[tokio::test(start_paused = true)]
    async fn concurrent_requests_share_one_rate() {
        let limiter = Limiter::new(Some(10.0), None);
        let start = Instant::now();
        // Eight callers of five requests each, all waiting on the one limiter at once.
        let caller = || async {
            for _ in 0..5 {
                limiter.admit(1, BUDGET).await;
            }
            start.elapsed()
        };
        let last = futures::future::join_all((0..8).map(|_| caller())).await.into_iter().max().unwrap();
        // 40 requests at 10/s: the last leaves 3.9 s after the first.
        assert!(last >= Duration::from_millis(3900), "{last:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn the_compute_unit_budget_charges_each_request_its_weight() {
        // 600 CU/min = 10 CU/s, bucket of 200.
        let limiter = Limiter::new(None, Some(600));
        let start = Instant::now();
        limiter.admit(100, BUDGET).await;
        limiter.admit(100, BUDGET).await;
        assert_eq!(start.elapsed(), Duration::ZERO, "the bucket holds 200 units");
        limiter.admit(20, BUDGET).await;
        assert_eq!(start.elapsed(), Duration::from_secs(2), "20 units at 10/s");
        limiter.admit(1, BUDGET).await;
        assert_eq!(start.elapsed(), Duration::from_millis(2100));
        limiter.admit(100, BUDGET).await;
        assert_eq!(start.elapsed(), Duration::from_millis(12_100));
        // Heavier than the bucket: charged the whole bucket, never stuck.
        let small = Limiter::new(None, Some(30));
        let start = Instant::now();
        small.admit(200, BUDGET).await;
        small.admit(200, BUDGET).await;
        assert_eq!(start.elapsed(), Duration::from_secs(60));
    }

    #[tokio::test(start_paused = true)]
    async fn rate_and_units_apply_together() {
        let limiter = Limiter::new(Some(10.0), Some(60));
        let start = Instant::now();
        for _ in 0..3 {
            limiter.admit(20, BUDGET).await;
        }
        // 60 units in the bucket pay the three at once, and the rate spaces them by 100 ms; the
        // fourth waits 20 s for 20 units.
        assert_eq!(start.elapsed(), Duration::from_millis(200));
        limiter.admit(20, BUDGET).await;
        assert_eq!(start.elapsed(), Duration::from_secs(20));
    }

    #[tokio::test(start_paused = true)]
    async fn remaining_zero_holds_every_request_until_the_reset() {
        let limiter = Limiter::new(None, None);
        let start = Instant::now();
        limiter.on_answer(200, Some(&info(3, None, Some("10;w=60"))), None, BUDGET);
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::ZERO });
        limiter.on_answer(200, Some(&info(0, Some(4), Some("10;w=60"))), None, BUDGET);
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::from_secs(4) });
        assert_eq!(start.elapsed(), Duration::from_secs(4));
        // The hold is over: the next request leaves at once.
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::ZERO });
    }

    #[tokio::test(start_paused = true)]
    async fn a_reset_longer_than_the_budget_fails_without_waiting() {
        let limiter = Limiter::new(None, None);
        limiter.on_answer(200, Some(&info(0, Some(120), None)), None, BUDGET);
        let start = Instant::now();
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::TooLong { wait: Duration::from_secs(120) });
        assert_eq!(start.elapsed(), Duration::ZERO);
        // An unusable reset waits the unreadable fallback instead.
        let limiter = Limiter::new(None, None);
        limiter.on_answer(200, Some(&info(0, Some(u64::MAX), None)), None, Duration::from_secs(10));
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::from_secs(10) });
    }

    #[tokio::test(start_paused = true)]
    async fn without_a_reset_the_window_is_waited_only_when_it_fits_the_budget() {
        let limiter = Limiter::new(None, None);
        limiter.on_answer(200, Some(&info(0, None, Some("10;w=2"))), None, BUDGET);
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::from_secs(2) });
        limiter.on_answer(200, Some(&info(0, None, Some("10;w=3600"))), None, BUDGET);
        let start = Instant::now();
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::ZERO });
        assert_eq!(start.elapsed(), Duration::ZERO);
        // Neither reset nor window: nothing to wait for (the next answer, a 429, will say).
        let limiter = Limiter::new(None, None);
        limiter.on_answer(200, Some(&info(0, None, None)), None, BUDGET);
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::ZERO });
    }

    #[tokio::test(start_paused = true)]
    async fn a_429_holds_every_request_until_retry_after_but_a_503_does_not() {
        let limiter = Limiter::new(None, None);
        limiter.on_answer(503, None, Some(Duration::from_secs(5)), BUDGET);
        assert_eq!(limiter.admit(1, BUDGET).await, Admission::Go { server_wait: Duration::ZERO });
        limiter.on_answer(429, None, Some(Duration::from_secs(5)), BUDGET);
        let start = Instant::now();
        let (a, b) = tokio::join!(limiter.admit(1, BUDGET), limiter.admit(1, BUDGET));
        assert_eq!((a, b), (Admission::Go { server_wait: Duration::from_secs(5) }, a));
        assert_eq!(start.elapsed(), Duration::from_secs(5));
    }

    #[tokio::test(start_paused = true)]
    async fn dropping_a_waiting_request_cancels_its_wait() {
        let limiter = Limiter::new(Some(0.1), None);
        limiter.admit(1, BUDGET).await;
        let waiting = tokio::time::timeout(Duration::from_secs(1), limiter.admit(1, BUDGET)).await;
        assert!(waiting.is_err(), "the second request waits 10 s");
        // The cancelled request took no cell: the next one leaves 10 s after the first.
        let start = Instant::now();
        limiter.admit(1, BUDGET).await;
        assert_eq!(start.elapsed(), Duration::from_secs(9));
    }

    #[test]
    fn policy_windows() {
        assert_eq!(policy_window("100;w=60"), Some(Duration::from_secs(60)));
        assert_eq!(policy_window("100; W=1.5"), Some(Duration::from_millis(1500)));
        assert_eq!(policy_window("100;burst=5;w=10"), Some(Duration::from_secs(10)));
        for bad in ["100", "100;w=", "100;w=-1", "100;w=NaN", "100;w=1e300", "w=60"] {
            assert_eq!(policy_window(bad), None, "{bad}");
        }
    }
}
