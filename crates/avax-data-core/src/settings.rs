//! Every default, environment variable, limit and shared parameter rule of the clients, in one
//! place. The Python bindings read them from here and add none of their own, so a client built
//! from Rust with no arguments ([`crate::index::IndexClient::from_defaults`], ...) and one built
//! from Python with no arguments report the same [`Settings`].

use std::time::Duration;

use crate::error::{Error, Result};
use crate::transport::{RetryPolicy, Transport, TransportConfig};

/// The node an [`crate::index::IndexClient`] talks to when neither a URL nor [`NODE_URL_ENV`] is given.
pub const DEFAULT_NODE_URL: &str = "https://api.avax.network";
/// The environment variable naming the node URL (used when no URL is given and it is not blank).
pub const NODE_URL_ENV: &str = "AVAX_NODE_URL";
/// The environment variable naming the Data API's base URL.
pub const DATA_URL_ENV: &str = "AVAX_DATA_API_URL";
/// The environment variable holding the Data API key.
pub const DATA_API_KEY_ENV: &str = "AVAX_DATA_API_KEY";
/// The environment variable naming the Metrics API's base URL.
pub const METRICS_URL_ENV: &str = "AVAX_METRICS_API_URL";
/// Most calls in flight a user may ask for (`concurrency=` of range walks and metric series).
pub const MAX_CONCURRENCY: usize = 64;
/// Default calls in flight of an index client's range walks.
pub const DEFAULT_INDEX_CONCURRENCY: usize = 4;

/// `given`, else the variable `var` when it is set and not blank.
fn given_or_env(given: Option<String>, var: &str) -> Option<String> {
    given.or_else(|| std::env::var(var).ok().filter(|v| !v.trim().is_empty()))
}

/// The node URL: `given`, else `$AVAX_NODE_URL` when not blank, else [`DEFAULT_NODE_URL`].
pub fn node_url(given: Option<String>) -> String {
    given_or_env(given, NODE_URL_ENV).unwrap_or_else(|| DEFAULT_NODE_URL.to_string())
}

/// The Data API base URL: `given`, else `$AVAX_DATA_API_URL` when not blank; `None`: the
/// client's default ([`crate::data::DEFAULT_DATA_URL`]).
pub fn data_url(given: Option<String>) -> Option<String> {
    given_or_env(given, DATA_URL_ENV)
}

/// The Data API key: `given`, else `$AVAX_DATA_API_KEY`; a blank key is no key.
pub fn data_api_key(given: Option<String>) -> Option<String> {
    given.or_else(|| std::env::var(DATA_API_KEY_ENV).ok()).filter(|k| !k.trim().is_empty())
}

/// The Metrics API base URL: `given`, else `$AVAX_METRICS_API_URL` when not blank; `None`: the
/// client's default ([`crate::metrics::DEFAULT_METRICS_URL`]).
pub fn metrics_url(given: Option<String>) -> Option<String> {
    given_or_env(given, METRICS_URL_ENV)
}

/// The loose retry options (`max_retries=`, `backoff=`, `max_backoff=`, `retry_budget=`) a
/// client takes besides a whole [`RetryPolicy`] (`retry=`); each unset one keeps the default.
#[derive(Debug, Clone, Default)]
pub struct RetryOverrides {
    /// Retries of one request.
    pub max_retries: Option<u32>,
    /// First backoff delay.
    pub backoff: Option<Duration>,
    /// Longest backoff delay.
    pub max_backoff: Option<Duration>,
    /// Most time one request waits on the service's say-so.
    pub retry_budget: Option<Duration>,
}

impl RetryOverrides {
    /// The policy in force: `retry` as given, or the default with the overrides. Both at once
    /// is refused, naming the first loose option given.
    pub fn resolve(&self, retry: Option<RetryPolicy>) -> Result<RetryPolicy> {
        let given = [
            ("max_retries", self.max_retries.is_some()),
            ("backoff", self.backoff.is_some()),
            ("max_backoff", self.max_backoff.is_some()),
            ("retry_budget", self.retry_budget.is_some()),
        ];
        match retry {
            Some(policy) => match given.iter().find(|(_, is_given)| *is_given) {
                Some((name, _)) => Err(Error::invalid(
                    "retry",
                    format!("{policy:?} with {name}="),
                    "a RetryPolicy, or max_retries/backoff/max_backoff/retry_budget, not both",
                )),
                None => Ok(policy),
            },
            None => {
                let default = RetryPolicy::default();
                Ok(RetryPolicy {
                    max_retries: self.max_retries.unwrap_or(default.max_retries),
                    backoff: self.backoff.unwrap_or(default.backoff),
                    max_backoff: self.max_backoff.unwrap_or(default.max_backoff),
                    retry_budget: self.retry_budget.unwrap_or(default.retry_budget),
                    ..default
                })
            }
        }
    }
}

/// What a client was built with, as named rows of text (secrets left out: header names only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    rows: Vec<(&'static str, String)>,
}

impl Settings {
    /// The settings of a transport, with the client's own rows (`concurrency`, ...) after them.
    pub(crate) fn of(transport: &Transport, own: Vec<(&'static str, String)>) -> Settings {
        let config: &TransportConfig = transport.config();
        let mut headers: Vec<&str> = config.headers.iter().map(|(name, _)| name.as_str()).collect();
        headers.sort_unstable();
        let mut rows = vec![
            ("url", transport.base_url().to_string()),
            ("timeout", format!("{:?}", config.timeout)),
            ("connect_timeout", format!("{:?}", config.connect_timeout)),
            ("retry", format!("{:?}", config.retry)),
            ("rate_limit", format!("{:?}", config.rate_limit)),
            ("compute_units_per_minute", format!("{:?}", config.compute_units_per_minute)),
            ("header_names", headers.join(",")),
            ("user_agent", config.user_agent.clone()),
            ("max_response_bytes", config.max_response_bytes.to_string()),
            ("ca_bundle", format!("{:?}", config.ca_bundle)),
            ("danger_accept_invalid_certs", config.danger_accept_invalid_certs.to_string()),
            ("follow_cross_origin_redirects", config.follow_cross_origin_redirects.to_string()),
        ];
        rows.extend(own);
        Settings { rows }
    }

    /// The rows, in a fixed order.
    pub fn rows(&self) -> &[(&'static str, String)] {
        &self.rows
    }

    /// One row's value.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.rows.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loose_retry_options_and_a_policy_exclude_each_other() {
        let loose = RetryOverrides { backoff: Some(Duration::from_millis(5)), ..Default::default() };
        let err = loose.resolve(Some(RetryPolicy::default())).unwrap_err().to_string();
        assert!(err.starts_with("invalid retry=RetryPolicy {"), "{err}");
        assert!(
            err.ends_with("with backoff=: a RetryPolicy, or max_retries/backoff/max_backoff/retry_budget, not both")
        );
        let policy = RetryPolicy { max_retries: 9, ..RetryPolicy::default() };
        assert_eq!(RetryOverrides::default().resolve(Some(policy.clone())).unwrap().max_retries, 9);
        let resolved = RetryOverrides { max_retries: Some(0), ..Default::default() }.resolve(None).unwrap();
        assert_eq!((resolved.max_retries, resolved.backoff), (0, RetryPolicy::default().backoff));
    }

    #[test]
    fn a_given_value_wins_over_the_environment_and_the_default() {
        // The variable is read, not written: a given value never consults it.
        assert_eq!(node_url(Some("http://n:1".into())), "http://n:1");
        assert_eq!(data_api_key(Some("  ".into())), None);
        assert_eq!(data_url(Some("http://d".into())).as_deref(), Some("http://d"));
    }
}
