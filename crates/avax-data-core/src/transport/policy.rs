//! The public retry policy of a client: how often, how long and on which answers to retry.

use std::time::Duration;

use crate::error::{Error, Result};

/// The HTTP statuses retried by default: 429 and every 5xx.
pub const DEFAULT_RETRY_STATUSES: std::ops::RangeInclusive<u16> = 500..=599;

/// When and how a failed request is tried again.
///
/// Connection failures, timeouts and cut bodies are always retried (within `max_retries` and
/// `retry_budget`); an HTTP error status only when it is in `statuses`. Each wait is the
/// exponential backoff (`backoff`, doubling up to `max_backoff`, with jitter when `jitter` is
/// on), raised to the service's `Retry-After`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 turns retrying off).
    pub max_retries: u32,
    /// First backoff delay; it doubles each retry.
    pub backoff: Duration,
    /// Largest single backoff delay; also the wait taken for an unreadable `Retry-After`.
    pub max_backoff: Duration,
    /// Adds a random part (up to one more delay) to each backoff, so that many clients do not
    /// retry in step.
    pub jitter: bool,
    /// Most time one request spends waiting on the service's say-so: backoff delays,
    /// `Retry-After` and `ratelimit-reset` waits. A wait that would pass it is not taken: the
    /// error is raised at once, carrying the wait asked for.
    pub retry_budget: Duration,
    /// HTTP statuses that are retried, sorted (default: 429 and 500 to 599).
    pub statuses: Vec<u16>,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
            jitter: true,
            retry_budget: Duration::from_secs(60),
            statuses: std::iter::once(429).chain(DEFAULT_RETRY_STATUSES).collect(),
        }
    }
}

/// Largest `max_retries` accepted.
pub const MAX_RETRIES: u32 = 100;

impl RetryPolicy {
    /// Whether `err` may be tried again under this policy (the count and the budget aside).
    pub fn retries(&self, err: &Error) -> bool {
        match err {
            Error::Transport { .. } => true,
            Error::Http { status, .. } => self.statuses.binary_search(status).is_ok(),
            _ => false,
        }
    }

    /// The policy with `statuses` sorted and deduplicated, or the first refused field: each error
    /// names the field, the value and what is allowed.
    pub fn checked(mut self) -> Result<Self> {
        if self.max_retries > MAX_RETRIES {
            return Err(Error::invalid("max_retries", self.max_retries, format!("an int in [0, {MAX_RETRIES}]")));
        }
        for (name, value) in
            [("backoff", self.backoff), ("max_backoff", self.max_backoff), ("retry_budget", self.retry_budget)]
        {
            if value.as_secs_f64() >= 1e9 {
                return Err(Error::invalid(name, value.as_secs_f64(), "a finite number of seconds >= 0 and < 1e9"));
            }
        }
        if let Some(bad) = self.statuses.iter().find(|s| !(400..=599).contains(*s)) {
            return Err(Error::invalid("statuses", bad, "HTTP error statuses, ints in [400, 599]"));
        }
        self.statuses.sort_unstable();
        self.statuses.dedup();
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(status: u16) -> Error {
        Error::Http { status, body: String::new(), method: "GET".into(), url: "u".into(), retry_after: None }
    }

    #[test]
    fn the_default_retries_429_and_every_5xx_and_nothing_else() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.statuses.len(), 101);
        for status in [429, 500, 501, 502, 503, 504, 520, 599] {
            assert!(policy.retries(&http(status)), "{status}");
        }
        for status in [400, 401, 403, 404, 408, 418] {
            assert!(!policy.retries(&http(status)), "{status}");
        }
        assert!(!policy.retries(&Error::Closed));
        let broken = Error::Transport {
            kind: crate::error::TransportKind::Io,
            message: "reset".into(),
            method: "GET".into(),
            url: "u".into(),
        };
        assert!(policy.retries(&broken));
    }

    #[test]
    fn chosen_statuses_are_retried_and_others_are_not() {
        let policy = RetryPolicy { statuses: vec![503, 429, 503], ..RetryPolicy::default() }.checked().unwrap();
        assert_eq!(policy.statuses, vec![429, 503]);
        assert!(policy.retries(&http(503)) && policy.retries(&http(429)));
        assert!(!policy.retries(&http(502)) && !policy.retries(&http(500)));
    }

    #[test]
    fn bad_fields_are_refused_with_their_name() {
        let err = RetryPolicy { statuses: vec![429, 200], ..RetryPolicy::default() }.checked().unwrap_err();
        assert_eq!(err.to_string(), "invalid statuses=200: HTTP error statuses, ints in [400, 599]");
        let err = RetryPolicy { max_retries: 101, ..RetryPolicy::default() }.checked().unwrap_err();
        assert_eq!(err.to_string(), "invalid max_retries=101: an int in [0, 100]");
    }
}
