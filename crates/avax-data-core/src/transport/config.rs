//! Options of the shared HTTP transport.

use std::time::Duration;

use super::policy::RetryPolicy;
use crate::error::{Error, Result};

/// Timeouts, retries and headers of one client.
#[derive(Debug, Clone)]
pub struct TransportConfig {
    /// Whole-request timeout (connect, send, receive the full body).
    pub timeout: Duration,
    /// Connect timeout.
    pub connect_timeout: Duration,
    /// When and how failed requests are retried.
    pub retry: RetryPolicy,
    /// Client-side request rate, in requests per second (> 0), shared by every request of the
    /// client; `None`: no limit. See [`super::limiter`].
    pub rate_limit: Option<f64>,
    /// Client-side budget of compute units per minute (> 0), each request charged its
    /// operation's weight ([`super::weights`]); `None`: no budget.
    pub compute_units_per_minute: Option<u32>,
    /// Extra headers sent with every request.
    pub headers: Vec<(String, String)>,
    /// Header names whose values are secrets: sent, but never shown.
    pub secret_headers: Vec<String>,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Largest response body read, counted while streaming and after gzip decompression; a
    /// larger one fails with [`Error::BodyTooLarge`].
    pub max_response_bytes: u64,
    /// Extra root certificates (a PEM file) trusted besides the platform's store and the bundled
    /// web roots. `SSL_CERT_FILE`, when set, is trusted as well.
    pub ca_bundle: Option<std::path::PathBuf>,
    /// Accept any TLS certificate, even an invalid or self-signed one. Dangerous: anyone on the
    /// path can read and change the traffic, API key included.
    pub danger_accept_invalid_certs: bool,
    /// Follow a redirect to another origin (scheme, host, port), without the API key, the
    /// `Authorization`, `Proxy-Authorization` and `Cookie` headers and any header marked secret.
    /// Off: such a redirect fails with [`Error::Redirect`].
    pub follow_cross_origin_redirects: bool,
    /// The subscription tier whose published limits plans are measured against
    /// ([`crate::plan`]); `None`: `free` with an API key, `unauthenticated` without.
    pub tier: Option<crate::plan::ServiceTier>,
}

/// Default [`TransportConfig::max_response_bytes`]: 256 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 256 * 1024 * 1024;

impl Default for TransportConfig {
    fn default() -> Self {
        TransportConfig {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            retry: RetryPolicy::default(),
            rate_limit: None,
            compute_units_per_minute: None,
            headers: Vec::new(),
            secret_headers: Vec::new(),
            user_agent: concat!("avax-data/", env!("CARGO_PKG_VERSION")).to_string(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            ca_bundle: None,
            danger_accept_invalid_certs: false,
            follow_cross_origin_redirects: false,
            tier: None,
        }
    }
}

impl TransportConfig {
    /// The config with its retry policy normalised, or the first refused option (named as the
    /// Python keyword is).
    pub fn checked(mut self) -> Result<Self> {
        if self.max_response_bytes == 0 {
            return Err(Error::invalid("max_response_bytes", 0, "an int >= 1 (bytes)"));
        }
        if let Some(rate) = self.rate_limit {
            if !(rate.is_finite() && rate > 0.0 && rate <= MAX_RATE_LIMIT) {
                return Err(Error::invalid(
                    "rate_limit",
                    rate,
                    format!("a finite number of requests per second > 0 and <= {MAX_RATE_LIMIT:e}"),
                ));
            }
        }
        if self.compute_units_per_minute == Some(0) {
            return Err(Error::invalid("compute_units_per_minute", 0, "an int >= 1 (compute units per minute)"));
        }
        self.retry = self.retry.checked()?;
        Ok(self)
    }
}

/// Largest `rate_limit` accepted, in requests per second (one request per nanosecond).
pub const MAX_RATE_LIMIT: f64 = 1e9;

/// Seconds given as `f64` to a [`Duration`], refusing negative, NaN and infinite values.
pub fn seconds(param: &str, value: f64, allow_zero: bool) -> Result<Duration> {
    let ok = value.is_finite() && (value > 0.0 || (allow_zero && value == 0.0)) && value < 1e9;
    if !ok {
        let allowed = if allow_zero { "a finite number of seconds >= 0" } else { "a finite number of seconds > 0" };
        return Err(Error::invalid(param, value, allowed));
    }
    Ok(Duration::from_secs_f64(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limit_and_compute_units_are_checked() {
        let ok = TransportConfig { rate_limit: Some(0.5), compute_units_per_minute: Some(1), ..Default::default() };
        assert!(ok.checked().is_ok());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 2e9] {
            let err = TransportConfig { rate_limit: Some(bad), ..Default::default() }.checked().unwrap_err();
            assert!(err.to_string().starts_with(&format!("invalid rate_limit={bad}: a finite number")), "{err}");
        }
        let err = TransportConfig { compute_units_per_minute: Some(0), ..Default::default() }.checked().unwrap_err();
        assert_eq!(err.to_string(), "invalid compute_units_per_minute=0: an int >= 1 (compute units per minute)");
    }

    #[test]
    fn seconds_refuses_bad_values_with_the_parameter_name() {
        assert_eq!(seconds("timeout", 1.5, false).unwrap(), Duration::from_millis(1500));
        assert_eq!(seconds("backoff", 0.0, true).unwrap(), Duration::ZERO);
        let err = seconds("timeout", 0.0, false).unwrap_err().to_string();
        assert_eq!(err, "invalid timeout=0: a finite number of seconds > 0");
        assert!(seconds("timeout", f64::NAN, false).is_err());
        assert!(seconds("backoff", -1.0, true).is_err());
    }
}
