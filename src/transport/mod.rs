//! The HTTP transport shared by the three clients: one pooled reqwest client per client object
//! (keep-alive, HTTP/2 where offered, gzip), timeouts, retries with backoff that honour
//! `Retry-After`, error mapping and secret redaction.

pub mod config;
pub mod rate_headers;
pub mod redact;
pub mod retry;

use std::sync::Mutex;
use std::time::SystemTime;

use backon::Retryable;
use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use reqwest::Method;

pub use config::TransportConfig;
pub use rate_headers::RateLimitInfo;

use crate::error::{Error, Result, TransportKind};
use crate::runtime::PerProcess;

/// A successful (2xx) HTTP answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Response headers.
    pub headers: HeaderMap,
    /// The whole body.
    pub body: Bytes,
    /// The request URL, secrets redacted.
    pub url: String,
}

/// One service's HTTP connection pool with its retry policy.
pub struct Transport {
    base_url: String,
    shown_base_url: String,
    config: TransportConfig,
    client: PerProcess<reqwest::Client>,
    secrets: Vec<String>,
    rate_limit: Mutex<Option<RateLimitInfo>>,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport").field("base_url", &self.shown_base_url).finish_non_exhaustive()
    }
}

fn build_client(config: &TransportConfig, headers: &HeaderMap) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(config.timeout)
        .connect_timeout(config.connect_timeout)
        .user_agent(config.user_agent.clone())
        .default_headers(headers.clone())
        .pool_idle_timeout(std::time::Duration::from_secs(60))
        .tcp_nodelay(true)
        .build()
        .expect("reqwest client options are static and valid")
}

impl Transport {
    /// A transport for `base_url` (`http://` or `https://`, with an optional path prefix).
    pub fn new(base_url: &str, config: TransportConfig) -> Result<Self> {
        let parsed = url::Url::parse(base_url.trim()).map_err(|e| {
            Error::invalid("url", format!("{:?}", redact::redact_url(base_url)), format!("an http:// or https:// URL ({e})"))
        })?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(Error::invalid(
                "url",
                format!("{:?}", redact::redact_url(base_url)),
                "an http:// or https:// URL with a host",
            ));
        }
        let mut headers = HeaderMap::new();
        let mut secrets = Vec::new();
        for (name, value) in &config.headers {
            let header = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| Error::invalid("headers", format!("{name:?}"), "valid HTTP header names"))?;
            let mut header_value = HeaderValue::from_str(value)
                .map_err(|_| Error::invalid("headers", format!("{name:?}"), "visible ASCII header values"))?;
            if config.secret_headers.iter().any(|s| s.eq_ignore_ascii_case(name)) {
                header_value.set_sensitive(true);
                secrets.push(value.clone());
            }
            headers.append(header, header_value);
        }
        if let Some(password) = parsed.password() {
            secrets.push(password.to_string());
        }
        let client_config = config.clone();
        let client = PerProcess::new(move || build_client(&client_config, &headers));
        let base_url = base_url.trim().trim_end_matches('/').to_string();
        Ok(Transport {
            shown_base_url: redact::redact_url(&base_url).trim_end_matches('/').to_string(),
            base_url,
            config,
            client,
            secrets,
            rate_limit: Mutex::new(None),
        })
    }

    /// The base URL with secrets hidden.
    pub fn base_url(&self) -> &str {
        &self.shown_base_url
    }

    /// The options this transport was built with.
    pub fn config(&self) -> &TransportConfig {
        &self.config
    }

    /// The last `ratelimit-*` headers seen, if any.
    pub fn rate_limit(&self) -> Option<RateLimitInfo> {
        self.rate_limit.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Hides secrets (API keys, passwords) in any text about to be shown.
    pub fn redact(&self, text: &str) -> String {
        redact::redact_secrets(&redact::redact_url(text), &self.secrets)
    }

    /// `POST` a JSON body to `path`, with retries.
    pub async fn post_json(&self, path: &str, body: Bytes) -> Result<Reply> {
        self.execute(Method::POST, path, &[], Some(body)).await
    }

    /// `GET` `path` with query parameters, with retries.
    pub async fn get(&self, path: &str, query: &[(&str, String)]) -> Result<Reply> {
        self.execute(Method::GET, path, query, None).await
    }

    async fn execute(&self, method: Method, path: &str, query: &[(&str, String)], body: Option<Bytes>) -> Result<Reply> {
        let mut url = url::Url::parse(&format!("{}{}", self.base_url, path))
            .map_err(|e| Error::invalid("path", path, format!("a URL path ({e})")))?;
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query.iter().map(|(k, v)| (*k, v.as_str())));
        }
        let mut clock = retry::RetryClock::new(&self.config);
        (|| self.attempt(method.clone(), url.clone(), body.clone()))
            .retry(retry::backoff(&self.config))
            .sleep(tokio::time::sleep)
            .when(Error::is_retryable)
            .adjust(|err, scheduled| clock.next_wait(err, scheduled))
            .await
    }

    async fn attempt(&self, method: Method, url: url::Url, body: Option<Bytes>) -> Result<Reply> {
        let shown_url = self.redact(url.as_str());
        let mut request = self.client.get().request(method.clone(), url);
        if let Some(body) = body {
            request = request.header(CONTENT_TYPE, "application/json").body(body);
        }
        let transport_error = |e: reqwest::Error| Error::Transport {
            kind: if e.is_timeout() {
                TransportKind::Timeout
            } else if e.is_connect() {
                TransportKind::Connect
            } else {
                TransportKind::Io
            },
            message: self.redact(&error_chain(&e.without_url())),
            method: method.to_string(),
            url: shown_url.clone(),
        };
        let response = request.send().await.map_err(transport_error)?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        if let Some(info) = RateLimitInfo::from_headers(&headers) {
            *self.rate_limit.lock().unwrap_or_else(|p| p.into_inner()) = Some(info);
        }
        let body = response.bytes().await.map_err(transport_error)?;
        if !(200..300).contains(&status) {
            return Err(Error::Http {
                status,
                body: self.redact(&String::from_utf8_lossy(&body)),
                method: method.to_string(),
                url: shown_url,
                retry_after: retry::parse_retry_after(&headers, SystemTime::now()),
            });
        }
        Ok(Reply { status, headers, body, url: shown_url })
    }
}

/// An error and its causes, joined with `: `.
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
