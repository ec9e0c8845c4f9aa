//! The one error type of the crate. Every failure a user can act on has its own variant with the
//! facts needed to act (status, body, method, URL with secrets redacted).

use std::time::Duration;

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Which way a request failed below HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    /// Could not connect (refused, DNS, TLS handshake).
    Connect,
    /// The connect or request timeout ran out.
    Timeout,
    /// The connection broke while sending or receiving.
    Io,
}

impl std::fmt::Display for TransportKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TransportKind::Connect => "connect",
            TransportKind::Timeout => "timeout",
            TransportKind::Io => "connection",
        })
    }
}

/// Why a redirect was not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    /// It pointed to another origin (scheme, host or port) and following such redirects is off.
    CrossOrigin,
    /// More hops than allowed ([`crate::transport::MAX_REDIRECTS`]).
    TooMany,
    /// It pointed back to a URL already visited by this request.
    Loop,
    /// Its `Location` was not a usable http(s) URL.
    BadLocation,
}

impl std::fmt::Display for RedirectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RedirectKind::CrossOrigin => "cross-origin",
            RedirectKind::TooMany => "too-many",
            RedirectKind::Loop => "loop",
            RedirectKind::BadLocation => "bad-location",
        })
    }
}

/// What a JSON-RPC error from the index API means, told apart by its exact message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RpcErrorKind {
    /// `not found`: unknown container id.
    NotFound,
    /// `no container at index N`, `start index (S) > last accepted index (L)`.
    PastTip,
    /// `no containers have been accepted`.
    EmptyIndex,
    /// `couldn't unmarshal an argument ...`.
    BadArgument,
    /// `rpc: can't find method "..."`.
    MethodNotFound,
    /// `numToFetch must be in [1,1024] but is N`.
    FetchLimit,
    /// -32600: the envelope was not JSON-RPC 2.0.
    InvalidRequest,
    /// -32700: the body was not a JSON object.
    ParseError,
    /// Any other message.
    Other,
}

impl RpcErrorKind {
    /// Classifies a node error by its code and exact message (see ground-truth.md).
    pub fn classify(code: i64, message: &str) -> Self {
        match code {
            -32700 => return RpcErrorKind::ParseError,
            -32600 => return RpcErrorKind::InvalidRequest,
            _ => {}
        }
        if message == "not found" {
            RpcErrorKind::NotFound
        } else if message.starts_with("no container at index")
            || (message.starts_with("start index") && message.contains("> last accepted index"))
        {
            RpcErrorKind::PastTip
        } else if message == "no containers have been accepted" {
            RpcErrorKind::EmptyIndex
        } else if message.starts_with("couldn't unmarshal an argument") {
            RpcErrorKind::BadArgument
        } else if message.starts_with("rpc: can't find method") {
            RpcErrorKind::MethodNotFound
        } else if message.starts_with("numToFetch must be in") {
            RpcErrorKind::FetchLimit
        } else {
            RpcErrorKind::Other
        }
    }
}

/// Every failure of the crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A parameter was refused before any request was sent.
    #[error("invalid {param}={value}: {allowed}")]
    InvalidArgument {
        /// The parameter's name as the user wrote it.
        param: String,
        /// The value given, written as a literal so that it reads back as the value the user
        /// passed: text quoted by [`Error::invalid_text`] (`"devnet"`, `".."`, `""`; read back
        /// with [`text_of_literal`]), a number bare (`5000`), a value of the binding's language
        /// as that language writes it (Python's `repr`), and a value with no literal form as a
        /// description (`<bool>`, `2024-01-01T00:00:00.000000 (naive)`).
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// The request never got an HTTP answer.
    #[error("{kind} error on {method} {url}: {message}")]
    Transport {
        /// Connect, timeout or broken connection.
        kind: TransportKind,
        /// What the HTTP stack said.
        message: String,
        /// HTTP method.
        method: String,
        /// Request URL, secrets redacted.
        url: String,
    },
    /// An operation that needs an API key was called without one (nothing was sent).
    #[error("{operation} (GET {path}) needs an API key and none is set: pass api_key= or set {env}")]
    Authentication {
        /// The operationId.
        operation: String,
        /// The path template.
        path: String,
        /// The environment variable the client reads the key from.
        env: String,
    },
    /// The server answered with a non-success status.
    #[error("HTTP {status} on {method} {url}: {body}")]
    Http {
        /// HTTP status code.
        status: u16,
        /// Response body as text, secrets redacted; at most 64 KiB, a longer one ends with
        /// `…[cut: N bytes total]`.
        body: String,
        /// HTTP method.
        method: String,
        /// Request URL, secrets redacted.
        url: String,
        /// Seconds the server asked us to wait (`Retry-After`), if it said.
        retry_after: Option<Duration>,
    },
    /// A redirect that was not followed: to another origin (unless allowed), a loop, too many
    /// hops or an unusable `Location`.
    #[error("{}", redirect_message(*kind, *status, method, from, to, *hops))]
    Redirect {
        /// Why it was not followed.
        kind: RedirectKind,
        /// The redirect's HTTP status (301, 302, 303, 307, 308).
        status: u16,
        /// HTTP method of the request that was redirected.
        method: String,
        /// The URL that answered with the redirect, secrets redacted.
        from: String,
        /// Where it pointed (its `Location`, resolved), secrets redacted.
        to: String,
        /// Redirects followed before this one.
        hops: u32,
    },
    /// A response body passed `max_response_bytes` (counted after decompression); reading stopped
    /// there.
    #[error("the answer to {method} {url} is larger than max_response_bytes={limit}; reading stopped there (raise max_response_bytes if such answers are expected)")]
    BodyTooLarge {
        /// The limit in bytes.
        limit: u64,
        /// HTTP method.
        method: String,
        /// Request URL, secrets redacted.
        url: String,
    },
    /// The index path answered 404: the node runs without `--index-enabled` (or the URL given
    /// is not the node's root, e.g. its EVM RPC `/ext/bc/C/rpc`).
    #[error("{}", index_disabled_message(url))]
    IndexDisabled {
        /// Request URL.
        url: String,
        /// Response body.
        body: String,
    },
    /// A JSON-RPC error object.
    #[error("JSON-RPC error {code} from {method} at {url}: {message}")]
    Rpc {
        /// What the message means.
        kind: RpcErrorKind,
        /// JSON-RPC code.
        code: i64,
        /// The node's exact message.
        message: String,
        /// JSON-RPC method.
        method: String,
        /// Request URL.
        url: String,
    },
    /// Data failed a checksum or id check.
    #[error("integrity check failed at {url}: {message}")]
    Integrity {
        /// What did not match.
        message: String,
        /// Request URL.
        url: String,
    },
    /// The client was closed before this call.
    #[error("the client is closed")]
    Closed,
    /// A file or directory the user named could not be written (or read): a missing directory,
    /// no permission, a full disk. `path` is the path as the user gave it, never a temporary
    /// file's name.
    #[error("{path}: {reason}")]
    File {
        /// What went wrong, as the operating system says (`NotFound`, `PermissionDenied`, ...).
        kind: std::io::ErrorKind,
        /// The path the user gave.
        path: String,
        /// What went wrong, in words.
        reason: String,
    },
    /// A bug: a background task failed unexpectedly. Reported, never a crash.
    #[error("internal error (please report it): {0}")]
    Internal(String),
    /// A paginated call was refused because its page token expired or is unknown (the service
    /// answers 400; tokens live 24 hours). Carries the token: the walk is never restarted from
    /// the first page silently, which would repeat rows.
    #[error("page token {token:?} was refused (expired or invalid) at {url} after {items_read} items: {message}; start a new walk without page_token")]
    PageToken {
        /// The refused page token.
        token: String,
        /// Items handed out by this walk before the refusal.
        items_read: u64,
        /// The service's message.
        message: String,
        /// HTTP status (400).
        status: u16,
        /// Response body.
        body: String,
        /// Request URL, secrets redacted.
        url: String,
    },
    /// Container bytes that did not decode (`decode="strict"`).
    #[error("could not decode {path} {position}: {message} at byte {offset}")]
    ContainerDecode {
        /// The index path, e.g. `C/block`.
        path: String,
        /// `container 41 (<id>)` for walks, `item 3` for bytes given by the caller.
        position: String,
        /// The container's index in the node's index, when known.
        index: Option<u64>,
        /// The container's id, when known.
        id: Option<String>,
        /// Byte offset where decoding stopped.
        offset: usize,
        /// What was wrong there.
        message: String,
    },
    /// A paged walk was handed a next page token it had already used: the server loops.
    #[error("the service answered page token {token:?} again after {pages} pages: it loops; the walk stops here instead of repeating rows")]
    PageTokenLoop {
        /// The repeated token.
        token: String,
        /// Distinct tokens used by the walk so far.
        pages: u64,
    },
    /// A newer consumer (iteration, `to_polars`, export) of the same walk took over its position.
    #[error(
        "this iterator was superseded: a newer iteration, to_polars() or write_parquet() of the same walk took \
         over its position (use one consumer at a time)"
    )]
    Superseded,
    /// The work was stopped on request ([`crate::stop::Stop`]): Ctrl-C, or its consumer went
    /// away. The bindings raise the caller's own interruption (`KeyboardInterrupt`) for it.
    #[error("interrupted: the work was stopped on request (Ctrl-C, or its consumer went away)")]
    Interrupted,
    /// A success answer that could not be decoded.
    #[error("could not decode the answer{}: {message}", of_url(url))]
    Decode {
        /// What went wrong.
        message: String,
        /// Request URL.
        url: String,
        /// The start of the body, for diagnosis.
        body: String,
    },
    /// Another writer holds the lock of a dataset directory or of an export's output
    /// ([`crate::dataset::lock`], [`crate::checkpoint`]).
    #[error("{}", dataset_locked_message(dir, *pid, host.as_deref(), since.as_deref()))]
    DatasetLocked {
        /// The dataset directory, or the output file of an export.
        dir: String,
        /// The holder's process id, when its lock file names it.
        pid: Option<u32>,
        /// The holder's host name, when its lock file names it.
        host: Option<String>,
        /// When the holder took the lock (RFC 3339, UTC), when its lock file names it.
        since: Option<String>,
    },
}

fn dataset_locked_message(dir: &str, pid: Option<u32>, host: Option<&str>, since: Option<&str>) -> String {
    let holder = match (pid, host, since) {
        (Some(pid), Some(host), Some(since)) => format!("pid {pid} on host {host} since {since}"),
        _ => "a writer that has not yet written its name".to_string(),
    };
    format!(
        "{dir} is locked by another writer ({holder}): one writer at a time; wait for it to finish or write \
         elsewhere"
    )
}

/// A value the rule of [`crate::exact`] refuses, as a decode error naming its path (the caller
/// that knows the request adds nothing: items are read after their page's request ended).
impl From<crate::exact::ExactError> for Error {
    fn from(e: crate::exact::ExactError) -> Self {
        Error::Decode { message: e.to_string(), url: String::new(), body: String::new() }
    }
}

fn index_disabled_message(url: &str) -> String {
    if let Some(at) = url.find("/ext/bc/") {
        let root = &url[..at];
        let tail = url.rsplit("/ext/index/").next().unwrap_or("C/block");
        return format!(
            "{url} answered HTTP 404: the node URL given ends in an EVM RPC path (/ext/bc/.../rpc), not the node's root; \
             the index API is at /ext/index/{tail}: pass the node's root URL, {root}"
        );
    }
    format!("index API not enabled on this node ({url} answered HTTP 404): start the node with --index-enabled=true")
}

fn redirect_message(kind: RedirectKind, status: u16, method: &str, from: &str, to: &str, hops: u32) -> String {
    match kind {
        RedirectKind::CrossOrigin => format!(
            "HTTP {status} on {method} {from} redirects to another origin, {to}: not followed, so no API key or credential \
             goes there (use that URL as the base URL, or pass follow_cross_origin_redirects=True to follow it without \
             secrets)"
        ),
        RedirectKind::TooMany => {
            format!("HTTP {status} on {method} {from} redirects to {to} after {hops} redirects already: too many, stopped")
        }
        RedirectKind::Loop => {
            format!("HTTP {status} on {method} {from} redirects to {to}, already visited: a redirect loop, stopped")
        }
        RedirectKind::BadLocation => {
            format!("HTTP {status} on {method} {from} redirects to {to:?}, which is not an http(s) URL: stopped")
        }
    }
}

impl Error {
    /// The failure `e` of writing (or reading) `path`, the path the user gave; a missing
    /// directory is named as such.
    pub fn file(path: &std::path::Path, e: &std::io::Error) -> Self {
        let kind = e.kind();
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        let reason = match (kind, parent) {
            (std::io::ErrorKind::NotFound, Some(dir)) if !dir.is_dir() => {
                format!("the directory {} does not exist", dir.display())
            }
            (std::io::ErrorKind::PermissionDenied, _) => format!("permission denied ({e})"),
            _ => e.to_string(),
        };
        Error::File { kind, path: path.display().to_string(), reason }
    }

    /// Shorthand for [`Error::InvalidArgument`] whose value is a number or a literal already
    /// written (text goes through [`Error::invalid_text`]).
    pub fn invalid(param: &str, value: impl std::fmt::Display, allowed: impl Into<String>) -> Self {
        Error::InvalidArgument { param: param.to_string(), value: value.to_string(), allowed: allowed.into() }
    }

    /// [`Error::InvalidArgument`] refusing the text `text`, written quoted (the one way text is
    /// shown in a refusal; [`text_of_literal`] reads it back).
    ///
    /// ```
    /// use avax_data_core::error::{text_of_literal, Error};
    /// let err = Error::invalid_text("network", "dev\"net", "one of mainnet, fuji, testnet");
    /// assert_eq!(err.to_string(), r#"invalid network="dev\"net": one of mainnet, fuji, testnet"#);
    /// let Error::InvalidArgument { value, .. } = err else { unreachable!() };
    /// assert_eq!(text_of_literal(&value).as_deref(), Some("dev\"net"));
    /// ```
    pub fn invalid_text(param: &str, text: &str, allowed: impl Into<String>) -> Self {
        Error::invalid(param, format!("{text:?}"), allowed)
    }

    /// [`Error::invalid_text`] refusing the file or directory `path`, as the user gave it.
    pub fn invalid_path(param: &str, path: &std::path::Path, allowed: impl Into<String>) -> Self {
        Error::invalid_text(param, &path.display().to_string(), allowed)
    }

    /// Whether a retry may succeed: transport failures, 5xx and 429.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Transport { .. } => true,
            Error::Http { status, .. } => *status == 429 || (500..=599).contains(status),
            _ => false,
        }
    }

    /// The server's `Retry-After`, if this error carries one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Error::Http { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// The text a quoted value of [`Error::invalid_text`] stands for (the inverse of Rust's `{:?}` of
/// a `str`), or `None` when `shown` is not such a literal (a number, a description, a literal of
/// another language).
pub fn text_of_literal(shown: &str) -> Option<String> {
    let inner = shown.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return None,
            '\\' => out.push(match chars.next()? {
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                '0' => '\0',
                c @ ('\\' | '"' | '\'') => c,
                'u' => {
                    let rest = chars.as_str().strip_prefix('{')?;
                    let (hex, after) = rest.split_once('}')?;
                    chars = after.chars();
                    char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                }
                _ => return None,
            }),
            c => out.push(c),
        }
    }
    Some(out)
}

/// ` of URL`, or nothing when the URL is not known.
fn of_url(url: &str) -> String {
    if url.is_empty() {
        String::new()
    } else {
        format!(" of {url}")
    }
}
