//! The `ratelimit-*` headers a service sends with keyed responses.

use reqwest::header::HeaderMap;

/// The last rate-limit state a service reported.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RateLimitInfo {
    /// `ratelimit-policy`, e.g. `100;w=60`.
    pub policy: Option<String>,
    /// `ratelimit-limit`.
    pub limit: Option<u64>,
    /// `ratelimit-remaining`.
    pub remaining: Option<u64>,
    /// `ratelimit-reset`, seconds until the window resets.
    pub reset: Option<u64>,
}

impl RateLimitInfo {
    /// Reads the headers; `None` when the response carries none of them.
    pub fn from_headers(headers: &HeaderMap) -> Option<Self> {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(|s| s.trim().to_string());
        let number = |name: &str| text(name).and_then(|s| s.parse::<u64>().ok());
        let info = RateLimitInfo {
            policy: text("ratelimit-policy"),
            limit: number("ratelimit-limit"),
            remaining: number("ratelimit-remaining"),
            reset: number("ratelimit-reset"),
        };
        (info != RateLimitInfo::default()).then_some(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn reads_the_four_headers_and_ignores_their_absence() {
        assert_eq!(RateLimitInfo::from_headers(&HeaderMap::new()), None);
        let mut h = HeaderMap::new();
        h.insert("ratelimit-policy", HeaderValue::from_static("100;w=60"));
        h.insert("ratelimit-limit", HeaderValue::from_static("100"));
        h.insert("ratelimit-remaining", HeaderValue::from_static("7"));
        let info = RateLimitInfo::from_headers(&h).unwrap();
        assert_eq!(info.policy.as_deref(), Some("100;w=60"));
        assert_eq!((info.limit, info.remaining, info.reset), (Some(100), Some(7), None));
    }
}
