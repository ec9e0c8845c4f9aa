//! `cache=` and `cache_max_bytes=` of the clients, and the cache directory functions behind
//! `avax-data cache info` and `cache clear`: argument and type adaptation only (the rules are in
//! `crate::cache`).

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};

use super::args::shown;
use super::errors::invalid;
use avax_data_core::cache::{CacheChoice, Info, Store};

/// `cache=`: a directory path (str or os.PathLike), or ``False``/``None`` for no cache. Left
/// out, the core's rule applies (`$AVAX_DATA_CACHE`).
pub fn cache_arg(value: &Bound<'_, PyAny>) -> PyResult<CacheChoice> {
    let what = "a directory path (str or os.PathLike), or False or None for no cache";
    if value.is_none() {
        return Ok(CacheChoice::Off);
    }
    if value.is_instance_of::<PyBool>() {
        return match value.extract::<bool>()? {
            false => Ok(CacheChoice::Off),
            true => Err(invalid("cache", shown(value), what)),
        };
    }
    if value.is_instance_of::<PyInt>() {
        return Err(invalid("cache", shown(value), what));
    }
    match value.extract::<PathBuf>() {
        Ok(dir) if !dir.as_os_str().is_empty() => Ok(CacheChoice::Dir(dir)),
        _ => Err(invalid("cache", shown(value), what)),
    }
}

/// `cache_max_bytes=`: an int >= 1, or ``None`` for the default (1 GiB).
pub fn max_bytes_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    let what = "an int >= 1 (bytes), or None for 1 GiB";
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(invalid("cache_max_bytes", shown(value), what));
    }
    match value.extract::<u64>() {
        Ok(n) if n >= 1 => Ok(Some(n)),
        _ => Err(invalid("cache_max_bytes", shown(value), what)),
    }
}

/// The cache in force for these arguments (opened and bounded), if any.
pub fn open(choice: &CacheChoice, max_bytes: Option<u64>) -> PyResult<Option<Arc<Store>>> {
    choice.resolve(max_bytes).map_err(super::errors::to_py)
}

fn info_dict<'py>(py: Python<'py>, dir: &std::path::Path, info: &Info) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("dir", dir.display().to_string())?;
    out.set_item("entries", info.entries())?;
    out.set_item("bytes", info.bytes())?;
    let kinds = PyDict::new(py);
    for (name, k) in &info.kinds {
        let d = PyDict::new(py);
        d.set_item("entries", k.entries)?;
        d.set_item("bytes", k.bytes)?;
        kinds.set_item(*name, d)?;
    }
    out.set_item("kinds", kinds)?;
    out.set_item("default_max_bytes", avax_data_core::cache::DEFAULT_MAX_BYTES)?;
    Ok(out)
}

/// What a cache directory holds: ``{"dir", "entries", "bytes", "kinds": {kind: {"entries",
/// "bytes"}}, "default_max_bytes"}`` with the kinds ``index``, ``metrics`` and ``data``; the
/// bound is each client's ``cache_max_bytes=`` (``default_max_bytes`` when not given).
///
/// Only the cache's own entries count (docs/guides/cache.md): any other file is not.
///
/// Args:
///     dir: the cache directory (str or os.PathLike); a directory that does not exist, or an
///         empty one, holds nothing. Default ``None``: the clients' default cache,
///         ``$AVAX_DATA_CACHE``.
///
/// Raises:
///     InvalidParameterError: ``dir`` is not a cache directory: it holds other files and no
///         cache marker (``.avax-data-cache``), another user owns it, or a newer avax-data
///         marked it; or it is left out and ``$AVAX_DATA_CACHE`` is not set.
///
/// Example:
///     >>> import tempfile
///     >>> info = ad.cache_info(tempfile.mkdtemp())
///     >>> info["entries"], info["bytes"], sorted(info["kinds"])
///     (0, 0, ['data', 'index', 'metrics'])
#[pyfunction]
#[pyo3(signature = (dir = None))]
pub fn cache_info<'py>(py: Python<'py>, dir: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyDict>> {
    let dir = cache_dir(dir)?;
    let info = py.detach(|| avax_data_core::cache::info(&dir)).map_err(super::errors::to_py)?;
    info_dict(py, &dir, &info)
}

/// Deletes every entry of a cache directory (under its lock, so no other process evicts
/// meanwhile); returns what was deleted, as :func:`cache_info` shows it. Only the cache's own
/// entries (and its stale temporary files) are deleted: any other file is left alone.
///
/// Args:
///     dir: the cache directory (str or os.PathLike), which must exist. Default ``None``: the
///         clients' default cache, ``$AVAX_DATA_CACHE``.
///
/// Raises:
///     InvalidParameterError: ``dir`` is not an existing directory, or not a cache directory
///         (other files and no cache marker, another user's, or marked by a newer avax-data);
///         nothing in it is deleted then. Or it is left out and ``$AVAX_DATA_CACHE`` is not set.
///
/// Example:
///     >>> import tempfile
///     >>> ad.cache_clear(tempfile.mkdtemp())["entries"]
///     0
#[pyfunction]
#[pyo3(signature = (dir = None))]
pub fn cache_clear<'py>(py: Python<'py>, dir: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyDict>> {
    let dir = cache_dir(dir)?;
    let info = py.detach(|| avax_data_core::cache::clear(&dir)).map_err(super::errors::to_py)?;
    info_dict(py, &dir, &info)
}

/// `dir=` of [`cache_info`] and [`cache_clear`]: a directory path, or (`None`, left out) the
/// cache the clients use when not told, `$AVAX_DATA_CACHE` (the core's rule).
fn cache_dir(dir: Option<&Bound<'_, PyAny>>) -> PyResult<PathBuf> {
    match dir.filter(|d| !d.is_none()) {
        Some(d) => super::args::dir_path(d).map_err(|_| {
            invalid("dir", shown(d), "a directory path (str or os.PathLike), or None for $AVAX_DATA_CACHE")
        }),
        None => CacheChoice::FromEnv.dir().ok_or_else(|| {
            invalid(
                "dir",
                "None",
                "a directory path (str or os.PathLike); None means $AVAX_DATA_CACHE, which is not set",
            )
        }),
    }
}

/// The cache directory clients use when not told (``$AVAX_DATA_CACHE``), or ``None``.
///
/// Example:
///     >>> ad._native.cache_default_dir() is None or isinstance(ad._native.cache_default_dir(), str)
///     True
#[pyfunction]
pub fn cache_default_dir() -> Option<String> {
    CacheChoice::FromEnv.dir().map(|d| d.display().to_string())
}
