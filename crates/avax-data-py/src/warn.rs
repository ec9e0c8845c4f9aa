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
