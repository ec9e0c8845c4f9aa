//! The HTTP transport shared by the three clients: one pooled reqwest client per client object
//! (keep-alive, HTTP/2 where offered, gzip), timeouts, retries with backoff that honour
//! `Retry-After`, client-side rate limits (request rate, compute units, the service's
//! `ratelimit-*` waits), redirects kept within the origin, bodies read within a limit, error
//! mapping and secret redaction.

pub mod body;
pub mod config;
pub mod limiter;
pub mod policy;
pub mod rate_headers;
pub mod redact;
pub mod redirect;
pub mod retry;
pub mod tls;
pub mod weights;

use std::sync::Mutex;
use std::time::SystemTime;

use backon::Retryable;
use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE, LOCATION};
use reqwest::Method;

pub use config::TransportConfig;
pub use limiter::Limiter;
pub use policy::RetryPolicy;
pub use rate_headers::RateLimitInfo;
pub use redirect::MAX_REDIRECTS;

use crate::error::{Error, Result, TransportKind};
use crate::runtime::PerProcess;

/// Headers whose values are always treated as secrets: never shown, never sent to another origin.
pub const CREDENTIAL_HEADERS: [&str; 3] = ["authorization", "proxy-authorization", "cookie"];

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

/// One service's HTTP connection pool with its retry policy and rate limits.
pub struct Transport {
    base_url: String,
    shown_base_url: String,
    config: TransportConfig,
    client: PerProcess<reqwest::Client>,
    /// Headers sent only to the origin of the base URL (API key, credentials, marked secrets).
    secret_headers: HeaderMap,
    secrets: Vec<String>,
    rate_limit: Mutex<Option<RateLimitInfo>>,
    /// The span of the emulator's world (Unix seconds), once an answer named it.
    world: Mutex<Option<(i64, i64)>>,
    /// The name of the emulator's world, once an answer named it (`x-avax-emulator-world-id`).
    world_id: Mutex<Option<String>>,
    /// The client-side rate limits, shared by every request of this transport.
    limiter: Limiter,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport").field("base_url", &self.shown_base_url).finish_non_exhaustive()
    }
}

fn build_client(config: &TransportConfig, headers: &HeaderMap, roots: &[reqwest::Certificate]) -> reqwest::Client {
    let mut builder = reqwest::Client::builder()
        .timeout(config.timeout)
        .connect_timeout(config.connect_timeout)
        .user_agent(config.user_agent.clone())
        .default_headers(headers.clone())
        .redirect(reqwest::redirect::Policy::none())
        .tls_built_in_root_certs(true)
        .pool_idle_timeout(std::time::Duration::from_secs(60))
        .tcp_nodelay(true);
    for root in roots {
        builder = builder.add_root_certificate(root.clone());
    }
    if config.danger_accept_invalid_certs {
        builder = builder.danger_accept_invalid_certs(true);
    }
    builder.build().expect("reqwest client options are checked in Transport::new")
}

/// The request of one hop of an attempt.
struct Hop {
    method: Method,
    url: url::Url,
    body: Option<Bytes>,
    with_secrets: bool,
}

impl Transport {
    /// A transport for `base_url` (`http://` or `https://`, with an optional path prefix).
    pub fn new(base_url: &str, config: TransportConfig) -> Result<Self> {
        let parsed = url::Url::parse(base_url.trim()).map_err(|e| {
            Error::invalid(
                "url",
                format!("{:?}", redact::redact_url(base_url)),
                format!("an http:// or https:// URL ({e})"),
            )
        })?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(Error::invalid(
                "url",
                format!("{:?}", redact::redact_url(base_url)),
                "an http:// or https:// URL with a host",
            ));
        }
        let config = config.checked()?;
        let mut headers = HeaderMap::new();
        let mut secret_headers = HeaderMap::new();
        let mut secrets = Vec::new();
        for (name, value) in &config.headers {
            let header = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| Error::invalid_text("headers", name, "valid HTTP header names"))?;
            let mut header_value = HeaderValue::from_str(value)
                .map_err(|_| Error::invalid_text("headers", name, "visible ASCII header values"))?;
            let secret = config.secret_headers.iter().any(|s| s.eq_ignore_ascii_case(name))
                || CREDENTIAL_HEADERS.contains(&header.as_str());
            if secret {
                header_value.set_sensitive(true);
                secrets.push(value.clone());
                secret_headers.append(header, header_value);
            } else {
                headers.append(header, header_value);
            }
        }
        // The URL's own credentials (userinfo, a provider's token in the path), where a server echoes them.
        secrets.extend(redact::url_secrets(&parsed));
        let roots = tls::extra_roots(config.ca_bundle.as_deref())?;
        let client_config = config.clone();
        let client = PerProcess::new(move || build_client(&client_config, &headers, &roots));
        let base_url = base_url.trim().trim_end_matches('/').to_string();
        let limiter = Limiter::new(config.rate_limit, config.compute_units_per_minute);
        Ok(Transport {
            shown_base_url: redact::redact_url(&base_url).trim_end_matches('/').to_string(),
            base_url,
            config,
            client,
            secret_headers,
            secrets,
            rate_limit: Mutex::new(None),
            world: Mutex::new(None),
            world_id: Mutex::new(None),
            limiter,
        })
    }

    /// The base URL with secrets hidden.
    // Deliberately the redacted form: this is what errors and reprs show.
    #[allow(clippy::misnamed_getters)]
    pub fn base_url(&self) -> &str {
        &self.shown_base_url
    }

    /// The name of this service in the cache's keys: the base URL redacted, then a digest of
    /// the URL as given ([`redact::keyed_url`]), so two URLs that differ only in a secret are
    /// two services and no secret reaches the disk.
    pub fn cache_name(&self) -> String {
        redact::keyed_url(&self.base_url)
    }

    /// The options this transport was built with.
    pub fn config(&self) -> &TransportConfig {
        &self.config
    }

    /// The last `ratelimit-*` headers seen, if any.
    pub fn rate_limit(&self) -> Option<RateLimitInfo> {
        self.rate_limit.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The span (Unix seconds, first and last) of the emulator's world, once an answer of the
    /// emulator named it (`x-avax-emulator-world`); `None` from the real services.
    pub fn emulator_world(&self) -> Option<(i64, i64)> {
        *self.world.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The name of the emulator's world as the last answer that named it gave it
    /// (`x-avax-emulator-world-id`); `None` from the real services.
    pub fn emulator_world_id(&self) -> Option<String> {
        self.world_id.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Hides secrets (API keys, passwords, secret header values) in any text about to be shown.
    pub fn redact(&self, text: &str) -> String {
        redact::redact_secrets(&redact::redact_url(text), &self.secrets)
    }

    /// `err` with every secret hidden in the texts it carries.
    pub fn redact_error(&self, err: Error) -> Error {
        redact::redact_error(err, |text| redact::redact_secrets(text, &self.secrets))
    }

    /// `POST` a JSON body to `path`, with retries.
    pub async fn post_json(&self, path: &str, body: Bytes) -> Result<Reply> {
        self.send(Method::POST, path, &[], Some(body), Ok).await
    }

    /// `GET` `path` with query parameters, with retries.
    pub async fn get(&self, path: &str, query: &[(&str, String)]) -> Result<Reply> {
        self.send(Method::GET, path, query, None, Ok).await
    }

    /// Sends a request and reads its answer with `decode`, retrying both: an error of `decode`
    /// that the retry policy retries (a cut or truncated body, see [`json_error`]) is retried like
    /// a broken connection. Each attempt first waits for the client's rate limits. Every error
    /// that comes out has its secrets hidden.
    pub async fn send<T>(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<Bytes>,
        decode: impl Fn(Reply) -> Result<T>,
    ) -> Result<T> {
        let mut url = url::Url::parse(&format!("{}{}", self.base_url, path))
            .map_err(|e| Error::invalid("path", path, format!("a URL path ({e})")))?;
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query.iter().map(|(k, v)| (*k, v.as_str())));
        }
        let policy = &self.config.retry;
        let clock = retry::RetryClock::new(policy);
        let weight = weights::weight(method.as_str(), path);
        let decode = &decode;
        let clock = &clock;
        (|| async { decode(self.attempt(method.clone(), url.clone(), body.clone(), weight, clock).await?) })
            .retry(retry::backoff(policy))
            .sleep(tokio::time::sleep)
            .when(|err| policy.retries(err))
            .adjust(|err, scheduled| {
                let wait = clock.next_wait(err, scheduled);
                if let Some(wait) = wait {
                    log::info!("{}; retrying in {:.3} s", self.redact(&err.to_string()), wait.as_secs_f64());
                }
                wait
            })
            .await
            .map_err(|e| self.redact_error(e))
    }

    /// Waits for the rate limits, charging the service's waits to the retry budget; a wait
    /// longer than the budget left fails at once as a 429 that was not sent.
    async fn admit(&self, weight: u32, clock: &retry::RetryClock, method: &Method, shown_url: &str) -> Result<()> {
        let left = clock.left();
        match self.limiter.admit(weight, left).await {
            limiter::Admission::Go { server_wait } => {
                if !server_wait.is_zero() {
                    log::info!(
                        "{method} {shown_url}: waited {:.3} s as the service asked (ratelimit-reset or Retry-After)",
                        server_wait.as_secs_f64()
                    );
                }
                clock.charge(server_wait);
                Ok(())
            }
            limiter::Admission::TooLong { wait } => Err(Error::Http {
                status: 429,
                body: format!(
                    "not sent: the service asked this client to wait {:.3} s more (ratelimit-reset or Retry-After), \
                     longer than what is left of retry_budget ({:.3} s)",
                    wait.as_secs_f64(),
                    left.as_secs_f64()
                ),
                method: method.to_string(),
                url: shown_url.to_string(),
                retry_after: Some(wait),
            }),
        }
    }

    async fn attempt(
        &self,
        method: Method,
        url: url::Url,
        body: Option<Bytes>,
        weight: u32,
        clock: &retry::RetryClock,
    ) -> Result<Reply> {
        let origin = url.clone();
        let mut visited = vec![url.clone()];
        let mut hop = Hop { method, url, body, with_secrets: true };
        loop {
            let shown_url = redact::redact_secrets(&redact::redact_parsed(hop.url.clone()), &self.secrets);
            self.admit(weight, clock, &hop.method, &shown_url).await?;
            let response = self.send_hop(&hop, &shown_url).await?;
            let status = response.status().as_u16();
            log::debug!("{} {shown_url}: HTTP {status}", hop.method);
            let location = response.headers().get(LOCATION).map(|l| String::from_utf8_lossy(l.as_bytes()).into_owned());
            if let (true, Some(location)) = (redirect::is_redirect(status), location) {
                let follow = self.config.follow_cross_origin_redirects;
                let hops = visited.len() as u32 - 1;
                match redirect::next_hop(status, &hop.method, &origin, &hop.url, &location, &visited, follow) {
                    Ok(next) => {
                        log::info!(
                            "{} {shown_url}: HTTP {status}, following the redirect to {}{}",
                            hop.method,
                            self.redact(next.url.as_str()),
                            if next.cross_origin { " (another origin: without the secret headers)" } else { "" }
                        );
                        visited.push(next.url.clone());
                        hop = Hop {
                            body: if next.keep_body { hop.body.take() } else { None },
                            with_secrets: hop.with_secrets && !next.cross_origin,
                            method: next.method,
                            url: next.url,
                        };
                        continue;
                    }
                    Err((kind, to)) => {
                        return Err(Error::Redirect {
                            kind,
                            status,
                            method: hop.method.to_string(),
                            from: shown_url,
                            to: self.redact(&to),
                            hops,
                        })
                    }
                }
            }
            return self.read_answer(response, &hop.method, shown_url).await;
        }
    }

    async fn send_hop(&self, hop: &Hop, shown_url: &str) -> Result<reqwest::Response> {
        let mut request = self.client.get().request(hop.method.clone(), hop.url.clone());
        if hop.with_secrets {
            request = request.headers(self.secret_headers.clone());
        }
        if let Some(body) = &hop.body {
            request = request.header(CONTENT_TYPE, "application/json").body(body.clone());
        }
        request.send().await.map_err(|e| self.transport_error(&e, &hop.method, shown_url))
    }

    async fn read_answer(&self, response: reqwest::Response, method: &Method, shown_url: String) -> Result<Reply> {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let info = RateLimitInfo::from_headers(&headers);
        let unreadable = self.config.retry.max_backoff;
        let retry_after =
            (status >= 400).then(|| retry::parse_retry_after(&headers, SystemTime::now(), unreadable)).flatten();
        self.limiter.on_answer(status, info.as_ref(), retry_after, unreadable);
        if let Some(info) = info {
            *self.rate_limit.lock().unwrap_or_else(|p| p.into_inner()) = Some(info);
        }
        if let Some(span) = world_span(&headers) {
            *self.world.lock().unwrap_or_else(|p| p.into_inner()) = Some(span);
        }
        if let Some(name) = world_id(&headers) {
            *self.world_id.lock().unwrap_or_else(|p| p.into_inner()) = Some(name);
        }
        let limit = self.config.max_response_bytes;
        if !(200..300).contains(&status) {
            // A little more than is kept, so that a secret across the cut is still found whole.
            let start = body::read_start(response, body::ERROR_BODY_KEEP + 1024, limit).await;
            let text = self.redact(&String::from_utf8_lossy(&start.bytes));
            return Err(Error::Http {
                status,
                body: body::cut_text(&text, body::ERROR_BODY_KEEP, start.total, start.stopped),
                method: method.to_string(),
                url: shown_url,
                retry_after,
            });
        }
        let body = body::read_limited(response, limit).await.map_err(|e| match e {
            body::BodyError::TooLarge => {
                Error::BodyTooLarge { limit, method: method.to_string(), url: shown_url.clone() }
            }
            body::BodyError::Broken(e) => self.transport_error(&e, method, &shown_url),
        })?;
        Ok(Reply { status, headers, body, url: shown_url })
    }

    fn transport_error(&self, e: &reqwest::Error, method: &Method, shown_url: &str) -> Error {
        let kind = if e.is_timeout() {
            TransportKind::Timeout
        } else if e.is_connect() {
            TransportKind::Connect
        } else {
            TransportKind::Io
        };
        Error::Transport {
            kind,
            message: self.redact(&error_chain(e)),
            method: method.to_string(),
            url: shown_url.to_string(),
        }
    }
}

/// A JSON body that did not parse: one that ends early (cut or truncated, `is_eof`) becomes a
/// retryable [`Error::Transport`], anything else an [`Error::Decode`] with the start of the body.
pub fn json_error(err: &serde_json::Error, what: &str, method: &str, url: &str, body: &[u8]) -> Error {
    if err.is_eof() {
        return Error::Transport {
            kind: TransportKind::Io,
            message: format!("the body ended early ({} bytes: cut or truncated JSON, {err})", body.len()),
            method: method.to_string(),
            url: url.to_string(),
        };
    }
    Error::Decode { message: format!("{what}: {err}"), url: url.to_string(), body: snippet(body) }
}

/// At most the first 2 KiB of a body, for error messages, marked when cut.
pub fn snippet(body: &[u8]) -> String {
    const MAX: usize = 2048;
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX + 4)]);
    body::cut_text(&text, MAX, body.len() as u64, false)
}

/// A reqwest error and its causes, joined with `: `, without the URL reqwest writes into its
/// text (the caller shows the redacted URL separately).
fn error_chain(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    if let Some(url) = err.url() {
        text = text.replace(&format!(" for url ({url})"), "").replace(url.as_str(), "<url>");
    }
    let mut source = std::error::Error::source(err);
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

/// The emulator's `x-avax-emulator-world: FIRST/LAST` header (Unix seconds), if sent and sound.
fn world_span(headers: &reqwest::header::HeaderMap) -> Option<(i64, i64)> {
    let text = headers.get("x-avax-emulator-world")?.to_str().ok()?;
    let (first, last) = text.split_once('/')?;
    let (first, last) = (first.trim().parse().ok()?, last.trim().parse().ok()?);
    (first <= last).then_some((first, last))
}

/// The emulator's `x-avax-emulator-world-id` header, if sent and sound (1 to 64 letters, digits,
/// `-`, `_` or `.`).
fn world_id(headers: &reqwest::header::HeaderMap) -> Option<String> {
    let text = headers.get("x-avax-emulator-world-id")?.to_str().ok()?;
    let sound = (1..=64).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    sound.then(|| text.to_string())
}
