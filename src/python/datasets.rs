//! `complete_partitions` and `merge_dataset`: a dataset written in pieces (one staged dataset
//! per Dask task) merged into one directory and manifest, for `avax_data.dask`.

use std::path::PathBuf;

use pyo3::prelude::*;

use super::errors::to_py;
use crate::dataset::merge::{complete_partitions as complete, merge_staged};

/// The complete partitions of a dataset directory whose files are as its manifest records.
///
/// Args:
///     path: the dataset directory (str or ``os.PathLike``).
///
/// Returns:
///     list[tuple[int, int, int, int]]: ``(hive value, first, next, rows)`` each, in value order;
///     empty when ``path`` holds no dataset.
///
/// Raises:
///     InvalidParameterError: the manifest cannot be read.
///
/// Example:
///     >>> import tempfile
///     >>> out = tempfile.mkdtemp()
///     >>> _ = ad.IndexClient(emu.url).chain("X/tx").range(0, 250).write_dataset(out, chunk=100)
///     >>> ad._native.complete_partitions(out)
///     [(0, 0, 100, 100), (100, 100, 200, 100), (200, 200, 250, 50)]
#[pyfunction]
pub fn complete_partitions(
    #[pyo3(from_py_with = super::args::dir_path)] path: PathBuf,
) -> PyResult<Vec<(u64, u64, u64, u64)>> {
    complete(&path).map_err(to_py)
}

/// Move the partitions of staged datasets into one dataset directory and its manifest.
///
/// Each staged directory is a dataset written by the single-process writer (e.g.
/// :meth:`Range.write_dataset` of one chunk, on a Dask worker). All must be of the walk ``path``
/// holds (checked before anything moves); a partition of the same hive value is replaced; each
/// staged directory is removed once merged. The result is the dataset one process would have
/// written: its rerun skips what is complete.
///
/// Args:
///     path: the dataset directory (str or ``os.PathLike``), created when missing.
///     staged: the staged dataset directories.
///
/// Returns:
///     dict: ``partitions_written``, ``partitions_skipped`` (0), ``rows_written``, ``rows_skipped`` (0).
///
/// Raises:
///     InvalidParameterError: a staged directory without a manifest or with a file not as
///         recorded (``staged``), or of another walk than ``path`` (``dataset``).
///
/// Example:
///     >>> import os, tempfile
///     >>> out, stage = tempfile.mkdtemp(), tempfile.mkdtemp()
///     >>> _ = ad.IndexClient(emu.url).chain("X/tx").range(100, 50).write_dataset(stage, chunk=100)
///     >>> ad._native.merge_dataset(out, [stage])
///     {'partitions_skipped': 0, 'partitions_written': 1, 'rows_skipped': 0, 'rows_written': 50}
///     >>> sorted(os.listdir(out)), os.path.exists(stage)
///     (['_avax_dataset.json', 'chunk=100'], False)
#[pyfunction]
pub fn merge_dataset(
    #[pyo3(from_py_with = super::args::dir_path)] path: PathBuf,
    staged: Vec<PathBuf>,
) -> PyResult<std::collections::BTreeMap<&'static str, u64>> {
    merge_staged(&path, &staged).map(super::walks::summary_dict).map_err(to_py)
}
