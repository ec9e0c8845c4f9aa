//! Retry policy: jittered exponential backoff (backon) that honours `Retry-After`, within a
//! bounded total wait.

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use backon::{BackoffBuilder, ExponentialBuilder};
use reqwest::header::{HeaderMap, RETRY_AFTER};

use super::policy::RetryPolicy;
use crate::error::Error;

/// Largest `Retry-After` taken as asked (about 31 years); a larger one is treated as unreadable.
pub const MAX_RETRY_AFTER_SECS: f64 = 1e9;

/// Parses `Retry-After` (RFC 9110): delay seconds (integer or decimal) or an HTTP date. A date in
/// the past is no wait. A value that is present but unusable (negative, NaN, infinite, beyond
/// [`MAX_RETRY_AFTER_SECS`], or not a number nor a date) is `unreadable`: the caller's largest
/// backoff. Never panics, whatever the header holds.
pub fn parse_retry_after(headers: &HeaderMap, now: SystemTime, unreadable: Duration) -> Option<Duration> {
    let raw = headers.get(RETRY_AFTER)?;
    let Ok(text) = raw.to_str() else { return Some(unreadable) };
    let text = text.trim();
    if let Ok(secs) = text.parse::<f64>() {
        let usable = secs.is_finite() && (0.0..=MAX_RETRY_AFTER_SECS).contains(&secs);
        return Some(if usable { Duration::from_secs_f64(secs) } else { unreadable });
    }
    match httpdate::parse_http_date(text) {
        Ok(when) => {
            let wait = when.duration_since(now).unwrap_or(Duration::ZERO);
            Some(if wait.as_secs_f64() <= MAX_RETRY_AFTER_SECS { wait } else { unreadable })
        }
        Err(_) => Some(unreadable),
    }
}

/// The backoff schedule of a policy: `max_retries` delays from `backoff`, doubling to
/// `max_backoff`, with jitter when the policy says so.
pub fn backoff(policy: &RetryPolicy) -> ExponentialBuilder {
    let builder = ExponentialBuilder::default()
        .with_min_delay(policy.backoff)
        .with_max_delay(policy.max_backoff.max(policy.backoff))
        .with_factor(2.0)
        .with_max_times(policy.max_retries as usize);
    if policy.jitter {
        builder.with_jitter()
    } else {
        builder
    }
}

/// Decides each wait: the schedule's delay, raised to the server's `Retry-After`, and none at all
/// once the total would pass the retry budget (so a `Retry-After` longer than what is left of the
/// budget ends the retries at once, with the error carrying it, instead of sleeping). The
/// limiter's waits for `ratelimit-reset` are charged to the same budget ([`RetryClock::charge`]).
pub struct RetryClock {
    budget: Duration,
    spent: Mutex<Duration>,
}

impl RetryClock {
    /// A clock with the policy's budget.
    pub fn new(policy: &RetryPolicy) -> Self {
        RetryClock { budget: policy.retry_budget, spent: Mutex::new(Duration::ZERO) }
    }

    fn spent(&self) -> std::sync::MutexGuard<'_, Duration> {
        self.spent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What is left of the budget.
    pub fn left(&self) -> Duration {
        self.budget.saturating_sub(*self.spent())
    }

    /// Counts a wait taken outside the retry schedule (the service's `ratelimit-reset`).
    pub fn charge(&self, wait: Duration) {
        *self.spent() += wait;
    }

    /// The wait before the next attempt after `err`, or `None` to give up.
    pub fn next_wait(&self, err: &Error, scheduled: Option<Duration>) -> Option<Duration> {
        let scheduled = scheduled?;
        let wait = match err.retry_after() {
            Some(asked) => asked.max(scheduled),
            None => scheduled,
        };
        let mut spent = self.spent();
        if *spent + wait > self.budget {
            return None;
        }
        *spent += wait;
        Some(wait)
    }
}

/// Builds the schedule of one request (a helper so callers need not import backon).
pub fn schedule(policy: &RetryPolicy) -> impl Iterator<Item = Duration> {
    backoff(policy).build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn with_retry_after(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(RETRY_AFTER, HeaderValue::from_str(value).unwrap());
        h
    }

    #[test]
    fn retry_after_in_seconds_and_as_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let cap = Duration::from_secs(10);
        let parse = |v: &str| parse_retry_after(&with_retry_after(v), now, cap);
        assert_eq!(parse("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse(" 0.5 "), Some(Duration::from_millis(500)));
        assert_eq!(parse("86400"), Some(Duration::from_secs(86_400)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(7));
        assert_eq!(parse(&later), Some(Duration::from_secs(7)));
        let earlier = httpdate::fmt_http_date(now - Duration::from_secs(7));
        assert_eq!(parse(&earlier), Some(Duration::ZERO));
        assert_eq!(parse_retry_after(&HeaderMap::new(), now, cap), None);
    }

    #[test]
    fn unusable_retry_after_values_become_the_largest_backoff_without_panicking() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let cap = Duration::from_millis(1234);
        for bad in
            ["1e20", "-1", "-0.5", "NaN", "nan", "inf", "-inf", "infinity", "1e309", "soon", "", "0x10", "1000000001"]
        {
            assert_eq!(parse_retry_after(&with_retry_after(bad), now, cap), Some(cap), "{bad:?}");
        }
        let mut h = HeaderMap::new();
        h.insert(RETRY_AFTER, HeaderValue::from_bytes(b"\xff\xfe").unwrap());
        assert_eq!(parse_retry_after(&h, now, cap), Some(cap));
    }

    proptest::proptest! {
        #[test]
        fn any_header_text_parses_without_panicking(text in "[ -~]{0,40}") {
            let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
            if let Ok(value) = HeaderValue::from_str(&text) {
                let mut h = HeaderMap::new();
                h.insert(RETRY_AFTER, value);
                let wait = parse_retry_after(&h, now, Duration::from_secs(10)).unwrap();
                proptest::prop_assert!(wait.as_secs_f64() <= MAX_RETRY_AFTER_SECS);
            }
        }
    }

    #[test]
    fn schedule_has_max_retries_entries_within_bounds() {
        let policy = RetryPolicy {
            max_retries: 5,
            backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(400),
            ..RetryPolicy::default()
        };
        let delays: Vec<Duration> = schedule(&policy).collect();
        assert_eq!(delays.len(), 5);
        for d in &delays {
            // jitter adds up to one more delay on top of the base
            assert!(*d >= Duration::from_millis(100) && *d <= Duration::from_millis(800), "{d:?}");
        }
        let none = RetryPolicy { max_retries: 0, ..RetryPolicy::default() };
        assert_eq!(schedule(&none).count(), 0);
    }

    #[test]
    fn without_jitter_the_schedule_doubles_exactly_up_to_max_backoff() {
        let policy = RetryPolicy {
            max_retries: 5,
            backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(400),
            jitter: false,
            ..RetryPolicy::default()
        };
        let delays: Vec<u128> = schedule(&policy).map(|d| d.as_millis()).collect();
        assert_eq!(delays, vec![100, 200, 400, 400, 400]);
    }

    #[test]
    fn retry_after_raises_the_wait_and_the_budget_caps_the_total() {
        let policy = RetryPolicy { retry_budget: Duration::from_secs(5), ..RetryPolicy::default() };
        let clock = RetryClock::new(&policy);
        let rate_limited = Error::Http {
            status: 429,
            body: String::new(),
            method: "GET".into(),
            url: "u".into(),
            retry_after: Some(Duration::from_secs(3)),
        };
        assert_eq!(clock.next_wait(&rate_limited, Some(Duration::from_millis(200))), Some(Duration::from_secs(3)));
        // 3 s spent; another 3 s would pass the 5 s budget
        assert_eq!(clock.next_wait(&rate_limited, Some(Duration::from_millis(400))), None);
        assert_eq!(clock.next_wait(&rate_limited, None), None);
        assert_eq!(clock.left(), Duration::from_secs(2));
        clock.charge(Duration::from_millis(1500));
        assert_eq!(clock.left(), Duration::from_millis(500));
    }
}
