//! `complete_partitions` and `merge_dataset`: a dataset written in pieces (one staged dataset
//! per Dask task) merged into one directory and manifest, for `avax_data.dask`; and
//! `verify_dataset`, the full check of a dataset directory.

use std::path::PathBuf;

use pyo3::prelude::*;

use super::errors::to_py;
use avax_data_core::dataset::findings::FileFindings;
use avax_data_core::dataset::merge::{complete_partitions as complete, merge_staged};
use avax_data_core::dataset::verify::{verify, Report};

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
///     DatasetLockedError: another writer holds the lock of ``path`` or of a staged directory.
///
/// Example:
///     >>> import os, tempfile
///     >>> out, stage = tempfile.mkdtemp(), tempfile.mkdtemp()
///     >>> _ = ad.IndexClient(emu.url).chain("X/tx").range(100, 150).write_dataset(stage, chunk=100)
///     >>> ad._native.merge_dataset(out, [stage])
///     {'partitions_skipped': 0, 'partitions_written': 1, 'rows_skipped': 0, 'rows_written': 50}
///     >>> sorted(os.listdir(out)), os.path.exists(stage)
///     (['_avax_dataset.json', '_avax_dataset.lock', 'chunk=100'], False)
#[pyfunction]
pub fn merge_dataset(
    #[pyo3(from_py_with = super::args::dir_path)] path: PathBuf,
    staged: Vec<PathBuf>,
) -> PyResult<std::collections::BTreeMap<&'static str, u64>> {
    merge_staged(&path, &staged).map(super::walks::summary_dict).map_err(to_py)
}

/// Check a dataset directory fully: every file against its recorded sha256, files the manifest
/// does not name, and the positions the partitions hold.
///
/// A writer's rerun trusts the fast check (each file's size and modification time); this reads
/// every byte. It holds the directory's shared lock while it reads.
///
/// Args:
///     dir: the dataset directory (str or ``os.PathLike``).
///
/// Returns:
///     dict: ``ok`` (bool: nothing below but ``incomplete`` is non-empty), ``partitions`` and
///     ``rows`` (as recorded), and the lists ``missing`` (recorded files that are not there),
///     ``altered`` (size or sha256 not as recorded, or positions unreadable), ``partial``
///     (temporary files of an interrupted writer), ``extra`` (other files the manifest does not
///     name), ``gaps`` and ``duplicates`` (``(first, next)`` position ranges held by no partition,
///     or more than once), ``incomplete`` (partitions recorded as not yet complete: expected for
///     the newest partition of a list or the current month of a series; not a fault),
///     ``source`` (where the rows come from, as the manifest records it: ``"the network whose
///     container 0 is ..."`` for an index, ``"the service at URL"`` for the Data or Metrics API;
///     ``None`` for a dataset an earlier version wrote) and ``other_source`` (files of partitions
///     recorded as read from another source: rows of two networks or services mixed). Files are
///     relative to ``dir``, with ``/``.
///
/// Raises:
///     InvalidParameterError: ``dir`` is not a dataset directory, or its manifest cannot be read.
///     DatasetLockedError: a writer is at work in ``dir``.
///
/// Example:
///     >>> import os, tempfile
///     >>> out = tempfile.mkdtemp()
///     >>> _ = ad.IndexClient(emu.url).chain("X/tx").range(0, 250).write_dataset(out, chunk=100)
///     >>> report = ad.verify_dataset(out)
///     >>> report["ok"], report["partitions"], report["rows"], report["missing"]
///     (True, 3, 250, [])
///     >>> report["source"].startswith("the network whose container 0 is "), report["other_source"]
///     (True, [])
///     >>> os.remove(os.path.join(out, "chunk=100", "part.parquet"))
///     >>> report = ad.verify_dataset(out)
///     >>> report["ok"], report["missing"]
///     (False, ['chunk=100/part.parquet'])
#[pyfunction]
pub fn verify_dataset<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = super::args::dir_path)] dir: PathBuf,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let report = py.detach(|| verify(&dir)).map_err(to_py)?;
    let out = pyo3::types::PyDict::new(py);
    out.set_item("ok", report.ok())?;
    out.set_item("partitions", report.partitions)?;
    out.set_item("rows", report.rows)?;
    out.set_item("source", report.source.clone())?;
    let Report {
        files: FileFindings { missing, altered, extra },
        partial,
        gaps,
        duplicates,
        incomplete,
        other_source,
        ..
    } = report;
    // The keys in the report's order: the file lists, the position spans, the incomplete ones.
    let files = [("missing", missing), ("altered", altered), ("partial", partial), ("extra", extra)];
    for (key, files) in files.into_iter().chain([("other_source", other_source)]) {
        out.set_item(key, files)?;
    }
    for (key, spans) in [("gaps", gaps), ("duplicates", duplicates)] {
        out.set_item(key, spans)?;
    }
    out.set_item("incomplete", incomplete)?;
    Ok(out)
}
