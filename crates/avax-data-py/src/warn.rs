//! Warnings the core's rules ask for, shown as Python `UserWarning`s at the caller's line.

use std::ffi::CString;

use pyo3::exceptions::{PyDeprecationWarning, PyUserWarning};
use pyo3::prelude::*;
use pyo3::BoundObject;

/// Shows `notice` (the core's text, e.g. why a walk hands out nothing) as a `UserWarning`.
pub fn user_warning(py: Python<'_>, notice: Option<String>) -> PyResult<()> {
    let Some(notice) = notice else { return Ok(()) };
    let text = CString::new(notice.replace('\0', " ")).unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyUserWarning>().into_any(), &text, 1)
}

/// Shows `notice` as a `DeprecationWarning` (an old name still taken for one release).
pub fn deprecation_warning(py: Python<'_>, notice: &str) -> PyResult<()> {
    let text = CString::new(notice.replace('\0', " ")).unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyDeprecationWarning>().into_any(), &text, 1)
}

/// A result that shows a warning when it reaches Python (at the caller's line for a sync call,
/// when the awaitable completes for an async one): the warning goes with the value it is about.
pub struct Warned<T>(pub T, pub Option<String>);

impl<'py, T: IntoPyObject<'py>> IntoPyObject<'py> for Warned<T> {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, PyErr> {
        user_warning(py, self.1)?;
        Ok(self.0.into_pyobject(py).map_err(Into::into)?.into_bound().into_any())
    }
}

/// The user's line a warning shown later belongs to: the innermost Python frame outside the
/// installed packages, the standard library and this package, found when a call is made. An
/// Arrow stream is read by a library's code (polars' constructor, or a thread with no Python
/// frame at all), so a warning raised where the stream ends would name that code or `sys:1`;
/// raised at the `Caller` found when the stream was asked for, it names the user's
/// `pl.DataFrame(rng)` line, as every other consumer's warning does.
pub struct Caller {
    /// The caller's line, or `None` where no Python frame called (the warning is then raised
    /// where it is shown).
    at: Option<Site>,
}

/// A line of Python code as `warnings.warn_explicit` takes it.
struct Site {
    filename: Py<PyAny>,
    lineno: Py<PyAny>,
    module: Py<PyAny>,
    registry: Py<PyAny>,
}

/// The directories whose frames are not the user's: the standard library, the installed
/// packages and this package (`sysconfig`'s paths and `avax_data`'s directory), read once.
fn library_dirs(py: Python<'_>) -> PyResult<&Vec<String>> {
    static DIRS: pyo3::sync::PyOnceLock<Vec<String>> = pyo3::sync::PyOnceLock::new();
    DIRS.get_or_try_init(py, || {
        let paths = py.import("sysconfig")?.call_method0("get_paths")?;
        let mut dirs = Vec::new();
        for key in ["stdlib", "platstdlib", "purelib", "platlib"] {
            if let Ok(Some(dir)) = paths.get_item(key).and_then(|d| d.extract::<Option<String>>()) {
                dirs.push(dir);
            }
        }
        let package = py.import("os.path")?.call_method1("dirname", (py.import("avax_data")?.getattr("__file__")?,))?;
        dirs.push(package.extract()?);
        Ok(dirs.into_iter().filter(|d| !d.is_empty()).map(|d| format!("{}/", d.trim_end_matches('/'))).collect())
    })
}

impl Caller {
    /// The caller of the running call (see [`Caller`]).
    pub fn here(py: Python<'_>) -> PyResult<Caller> {
        let dirs = library_dirs(py)?;
        // No Python frame: a call from a thread of native code.
        let Ok(mut frame) = py.import("sys")?.call_method1("_getframe", (0,)) else { return Ok(Caller { at: None }) };
        loop {
            let filename: String = frame.getattr("f_code")?.getattr("co_filename")?.extract()?;
            let back = frame.getattr("f_back")?;
            if back.is_none() || !dirs.iter().any(|d| filename.starts_with(d.as_str())) {
                break;
            }
            frame = back;
        }
        let globals = frame.getattr("f_globals")?;
        let registry = globals.call_method1("setdefault", ("__warningregistry__", pyo3::types::PyDict::new(py)))?;
        let module = globals.call_method1("get", ("__name__", "<unknown>"))?;
        let filename = frame.getattr("f_code")?.getattr("co_filename")?;
        let at = Site {
            filename: filename.unbind(),
            lineno: frame.getattr("f_lineno")?.unbind(),
            module: module.unbind(),
            registry: registry.unbind(),
        };
        Ok(Caller { at: Some(at) })
    }

    /// Shows `notice` as a `UserWarning` at the caller's line (with the filters and the
    /// once-per-line registry of that module, as `warnings.warn` would).
    pub fn warn(&self, py: Python<'_>, notice: &str) -> PyResult<()> {
        let Some(at) = &self.at else {
            return user_warning(py, Some(notice.to_string()));
        };
        let args = (notice, py.get_type::<PyUserWarning>(), &at.filename, &at.lineno, &at.module, &at.registry);
        py.import("warnings")?.call_method1("warn_explicit", args).map(drop)
    }

    /// What an Arrow stream does at its end: `notice()`, read then, shown at the caller's line.
    /// A warning the filters turn into an error ends the stream as an error naming it.
    pub fn at_end(
        self,
        notice: impl FnOnce() -> Option<String> + Send + 'static,
    ) -> avax_data_core::arrow::reader::AtEnd {
        Box::new(move || match notice() {
            None => Ok(()),
            Some(text) => self.show(&text),
        })
    }

    /// [`Caller::warn`] from any thread, its failure (a warning turned into an error) as the
    /// core's error.
    pub fn show(&self, notice: &str) -> avax_data_core::Result<()> {
        Python::attach(|py| self.warn(py, notice)).map_err(|e| {
            avax_data_core::error::Error::Internal(format!("the warning at the end of the stream was raised: {e}"))
        })
    }
}
