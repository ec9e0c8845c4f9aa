//! `progress=`: a tqdm bar (``tqdm.auto``, a widget in Jupyter) that a walk's consumer advances
//! by the rows it hands out. tqdm stays optional; a bar given by the caller is used as it is.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use super::args::shown;
use super::errors::invalid;

/// A progress bar and how to learn the walk's total once it is known.
pub struct Bar {
    bar: Py<PyAny>,
    owned: bool,
    total: Box<dyn Fn() -> Option<u64> + Send + Sync>,
    total_set: AtomicBool,
    closed: AtomicBool,
}

impl Bar {
    fn set_total(&self, py: Python<'_>) {
        if self.total_set.load(Ordering::Relaxed) {
            return;
        }
        if let Some(total) = (self.total)() {
            // No refresh here: the update that follows draws the bar with its total. Drawing it
            // now as well printed a second 0% line wherever stderr is not a terminal.
            let _ = self.bar.bind(py).setattr("total", total);
            self.total_set.store(true, Ordering::Relaxed);
        }
    }

    /// `n` more rows handed out. A bar that fails is ignored: progress never breaks a walk.
    pub fn advance(&self, py: Python<'_>, n: u64) {
        self.set_total(py);
        let _ = self.bar.bind(py).call_method1("update", (n,));
    }

    /// `n` more rows, from a thread without the GIL.
    pub fn advance_detached(&self, n: u64) {
        Python::attach(|py| self.advance(py, n));
    }

    /// The consumer is done: a bar made here is closed (one given by the caller stays open).
    pub fn finish(&self, py: Python<'_>) {
        self.set_total(py);
        if self.owned && !self.closed.swap(true, Ordering::Relaxed) {
            let _ = self.bar.bind(py).call_method0("close");
        }
    }
}

/// The bar of `progress=`: `None`/`False` none, `True` a new `tqdm.auto.tqdm` named `desc`, or
/// any object with `update(n)` (a tqdm bar of the caller's). `total` tells the walk's total rows
/// once known.
pub fn bar(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    desc: &str,
    total: impl Fn() -> Option<u64> + Send + Sync + 'static,
) -> PyResult<Option<Arc<Bar>>> {
    let Some(progress) = progress.filter(|p| !p.is_none()) else { return Ok(None) };
    let (bar, owned) = match progress.cast::<PyBool>() {
        Ok(flag) if !flag.is_true() => return Ok(None),
        Ok(_) => {
            let tqdm = py.import("tqdm.auto").map_err(|e| {
                pyo3::exceptions::PyImportError::new_err(format!("progress=True needs tqdm (pip install tqdm): {e}"))
            })?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("desc", desc)?;
            kwargs.set_item("unit", " rows")?;
            kwargs.set_item("unit_scale", true)?;
            kwargs.set_item("total", total())?;
            (tqdm.getattr("tqdm")?.call((), Some(&kwargs))?.unbind(), true)
        }
        Err(_) if progress.hasattr("update")? => (progress.clone().unbind(), false),
        Err(_) => return Err(invalid("progress", shown(progress), "True, False, None or a tqdm bar")),
    };
    Ok(Some(Arc::new(Bar {
        bar,
        owned,
        total: Box::new(total),
        total_set: AtomicBool::new(false),
        closed: AtomicBool::new(false),
    })))
}

/// The core's row hook for a consumer with `bar` (nothing, without one).
pub fn on_rows(bar: &Option<Arc<Bar>>) -> impl FnMut(u64) + Send + 'static {
    let bar = bar.clone();
    move |n| {
        if let Some(bar) = &bar {
            bar.advance_detached(n)
        }
    }
}

/// `fut` (a consumer counting rows on `bar`), closing the bar when it ends, well or not.
pub async fn finished<T>(bar: Option<Arc<Bar>>, fut: impl std::future::Future<Output = T>) -> T {
    let out = fut.await;
    if let Some(bar) = &bar {
        Python::attach(|py| bar.finish(py));
    }
    out
}
