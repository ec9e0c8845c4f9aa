//! Maps crate errors to the exception classes of `avax_data.exceptions`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

use avax_data_core::error::{text_of_literal, Error, RedirectKind, RpcErrorKind, TransportKind};
use avax_data_core::index::{FollowWalk, RangeWalk};
use avax_data_core::paging::Pager;

static EXCEPTIONS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// Converts a crate error into the matching Python exception.
pub fn to_py(err: Error) -> PyErr {
    Python::attach(|py| build(py, &err).unwrap_or_else(|failure| failure))
}

/// What a walk's exceptions carry so the caller can resume: read when the error is raised.
#[derive(Clone)]
pub enum Resume {
    /// An index range: `next_index`.
    Range(RangeWalk),
    /// A follower: `next_index` (`None` until its start is known).
    Follow(FollowWalk),
    /// A pager: `next_page_token`, `page_offset`, `items_read`.
    Pager(Pager),
}

impl Resume {
    /// The index a walk resumes at (`None` for a pager, or a follower not yet anchored).
    pub fn next_index(&self) -> Option<u64> {
        match self {
            Resume::Range(walk) => Some(walk.next_index()),
            Resume::Follow(walk) => walk.next_index(),
            Resume::Pager(_) => None,
        }
    }

    /// What the walk says when a consumer of it ends: a range that met the tip before its end
    /// names where it ended (once).
    pub fn notice(&self) -> Option<String> {
        match self {
            Resume::Range(walk) => walk.tip_notice(),
            Resume::Follow(_) | Resume::Pager(_) => None,
        }
    }

    /// Sets the resume position on `err` (any exception, Ctrl-C's included).
    pub fn annotate(&self, err: PyErr) -> PyErr {
        Python::attach(|py| {
            let value = err.value(py);
            let _ = match self {
                Resume::Range(walk) => value.setattr("next_index", walk.next_index()),
                Resume::Follow(walk) => value.setattr("next_index", walk.next_index()),
                Resume::Pager(pager) => {
                    let at = pager.position();
                    value
                        .setattr("next_page_token", at.next_page_token())
                        .and_then(|()| value.setattr("page_offset", at.offset))
                        .and_then(|()| value.setattr("items_read", at.items_read))
                }
            };
        });
        err
    }
}

fn build(py: Python<'_>, err: &Error) -> PyResult<PyErr> {
    if let Error::Superseded = err {
        return Ok(pyo3::exceptions::PyRuntimeError::new_err(err.to_string()));
    }
    if let Error::Interrupted = err {
        return Ok(crate::interrupt::raised());
    }
    let exceptions = EXCEPTIONS.get_or_try_init(py, || py.import("avax_data.exceptions").map(Bound::unbind))?.bind(py);
    let kwargs = PyDict::new(py);
    let class = match err {
        Error::InvalidArgument { param, value, allowed } => {
            kwargs.set_item("param", param)?;
            kwargs.set_item("value", passed_value(py, value))?;
            kwargs.set_item("allowed", allowed)?;
            exceptions.getattr("InvalidParameterError")?
        }
        Error::Transport { kind, method, url, .. } => {
            request_attrs(&kwargs, method, url)?;
            exceptions.getattr(match kind {
                TransportKind::Connect => "ConnectError",
                TransportKind::Timeout => "RequestTimeoutError",
                TransportKind::Io => "TransportError",
            })?
        }
        Error::Http { status, body, method, url, retry_after } => {
            http_attrs(&kwargs, *status, body, method, url)?;
            kwargs.set_item("retry_after", retry_after.map(|d| d.as_secs_f64()))?;
            exceptions.getattr("http_error_class")?.call1((status,))?
        }
        Error::Redirect { kind, status, method, from, to, hops } => {
            http_attrs(&kwargs, *status, "", method, from)?;
            kwargs.set_item("location", to)?;
            kwargs.set_item("hops", hops)?;
            kwargs.set_item(
                "reason",
                match kind {
                    RedirectKind::CrossOrigin => "cross-origin",
                    RedirectKind::TooMany => "too-many",
                    RedirectKind::Loop => "loop",
                    RedirectKind::BadLocation => "bad-location",
                },
            )?;
            exceptions.getattr("RedirectError")?
        }
        Error::BodyTooLarge { limit, method, url } => {
            kwargs.set_item("limit", limit)?;
            request_attrs(&kwargs, method, url)?;
            exceptions.getattr("ResponseTooLargeError")?
        }
        Error::IndexDisabled { url, body } => {
            http_attrs(&kwargs, 404, body, "POST", url)?;
            exceptions.getattr("IndexNotEnabledError")?
        }
        Error::Rpc { kind, code, message, method, url } => {
            kwargs.set_item("code", code)?;
            kwargs.set_item("rpc_message", message)?;
            request_attrs(&kwargs, method, url)?;
            exceptions.getattr(match kind {
                RpcErrorKind::NotFound => "ContainerNotFoundError",
                RpcErrorKind::PastTip => "IndexOutOfRangeError",
                RpcErrorKind::EmptyIndex => "EmptyIndexError",
                RpcErrorKind::BadArgument | RpcErrorKind::FetchLimit => "RPCInvalidArgumentError",
                RpcErrorKind::MethodNotFound => "MethodNotFoundError",
                RpcErrorKind::InvalidRequest | RpcErrorKind::ParseError | RpcErrorKind::Other => "RPCError",
            })?
        }
        Error::Integrity { url, .. } => {
            kwargs.set_item("url", url)?;
            exceptions.getattr("IntegrityError")?
        }
        Error::PageToken { token, items_read, status, body, url, .. } => {
            http_attrs(&kwargs, *status, body, "GET", url)?;
            kwargs.set_item("page_token", token)?;
            kwargs.set_item("items_read", items_read)?;
            exceptions.getattr("PageTokenError")?
        }
        Error::Closed | Error::Internal(_) | Error::Superseded | Error::Interrupted => {
            exceptions.getattr("AvaxDataError")?
        }
        Error::File { kind, path, reason } => return Ok(file_error(*kind, path, reason)),
        Error::Authentication { operation, .. } => {
            kwargs.set_item("operation", operation)?;
            exceptions.getattr("AuthenticationError")?
        }
        Error::PageTokenLoop { token, .. } => {
            kwargs.set_item("page_token", token)?;
            exceptions.getattr("DecodeError")?
        }
        Error::ContainerDecode { path, index, id, offset, .. } => {
            kwargs.set_item("path", path)?;
            kwargs.set_item("index", index)?;
            kwargs.set_item("id", id)?;
            kwargs.set_item("offset", offset)?;
            exceptions.getattr("DecodeError")?
        }
        Error::Decode { url, body, .. } => {
            kwargs.set_item("url", url)?;
            kwargs.set_item("body", body)?;
            exceptions.getattr("DecodeError")?
        }
        Error::DatasetLocked { dir, pid, host, since } => {
            kwargs.set_item("path", dir)?;
            kwargs.set_item("pid", pid)?;
            kwargs.set_item("host", host)?;
            kwargs.set_item("since", since)?;
            exceptions.getattr("DatasetLockedError")?
        }
    };
    let instance = class.call((err.to_string(),), Some(&kwargs))?;
    Ok(PyErr::from_value(instance))
}

/// A file error as Python's own: `FileNotFoundError`, `PermissionError` or `OSError`, with the
/// errno and the path the user gave as `filename`.
fn file_error(kind: std::io::ErrorKind, path: &str, reason: &str) -> PyErr {
    use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError};
    use std::io::ErrorKind;
    let args = |errno: i32| (errno, reason.to_string(), path.to_string());
    match kind {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(args(2)),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(args(13)),
        ErrorKind::StorageFull => PyOSError::new_err(args(28)),
        _ => PyOSError::new_err(args(5)),
    }
}

/// The attributes of every `HTTPStatusError`: `status`, `body`, `method`, `url`, `api_message`.
fn http_attrs(kwargs: &Bound<'_, PyDict>, status: u16, body: &str, method: &str, url: &str) -> PyResult<()> {
    kwargs.set_item("status", status)?;
    kwargs.set_item("body", body)?;
    request_attrs(kwargs, method, url)?;
    kwargs.set_item("api_message", api_message(kwargs.py(), body)?)
}

/// The request an error is about: `method` and `url`.
fn request_attrs(kwargs: &Bound<'_, PyDict>, method: &str, url: &str) -> PyResult<()> {
    kwargs.set_item("method", method)?;
    kwargs.set_item("url", url)
}

/// The value of an `InvalidArgument` as the user passed it (the convention of
/// `avax_data_core::error::Error::InvalidArgument`): text the core quoted is the `str` itself, a
/// Python literal the bindings wrote (`repr` of a str, int, float, bool, None, list, ...) is that
/// value again, and a value with no literal form (`<bool>`, a naive datetime's description) stays
/// the text shown.
fn passed_value<'py>(py: Python<'py>, shown: &str) -> Bound<'py, PyAny> {
    if let Some(text) = text_of_literal(shown) {
        return pyo3::types::PyString::new(py, &text).into_any();
    }
    let literal = py.import("ast").and_then(|ast| ast.getattr("literal_eval")).and_then(|eval| eval.call1((shown,)));
    literal.unwrap_or_else(|_| pyo3::types::PyString::new(py, shown).into_any())
}

/// The `message` of a JSON error body (`{"message": "..." | [...], ...}`): a str, a list of
/// str, or `None` when the body is not such an object.
fn api_message<'py>(py: Python<'py>, body: &str) -> PyResult<Bound<'py, PyAny>> {
    let value: Option<serde_json::Value> = serde_json::from_str(body).ok();
    match value.as_ref().and_then(|v| v.get("message")) {
        Some(serde_json::Value::String(s)) => Ok(pyo3::types::PyString::new(py, s).into_any()),
        Some(serde_json::Value::Array(items)) => {
            let texts: Vec<String> =
                items.iter().map(|i| i.as_str().map(String::from).unwrap_or_else(|| i.to_string())).collect();
            Ok(pyo3::types::PyList::new(py, texts)?.into_any())
        }
        _ => Ok(py.None().into_bound(py)),
    }
}

/// Shorthand: an `InvalidParameterError` as a `PyErr`.
pub fn invalid(param: &str, value: impl std::fmt::Display, allowed: impl Into<String>) -> PyErr {
    to_py(Error::invalid(param, value, allowed))
}
