//! The full check of a dataset directory: every file against its recorded sha256, every file
//! the manifest does not name, the positions the partitions hold (gaps, duplicates), and each
//! file's rows against the manifest's count.
//!
//! A writer's rerun trusts the fast check (size and modification time); [`verify`] reads every
//! byte. It holds the directory's shared lock while it reads, so it never sees a writer's work
//! half done (a writer at work makes it fail at once with [`Error::DatasetLocked`]).

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;

use super::durable::is_temp_name;
use super::findings::FileFindings;
use super::lock::{DatasetLock, LOCK_FILE};
use super::manifest::{file_digest, io_error, read, Manifest, Partition, MANIFEST};
use crate::error::{Error, Result};

/// What [`verify`] found. The dataset is whole when every list but `incomplete` is empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Partitions the manifest records.
    pub partitions: u64,
    /// Rows the manifest records.
    pub rows: u64,
    /// Where the manifest says its rows come from ([`super::manifest::Origin`], as text), if
    /// it records it.
    pub source: Option<String>,
    /// Files (relative to the directory) against the manifest: `missing`, recorded and not
    /// there; `altered`, whose size or sha256 is not the recorded one, or whose positions cannot
    /// be read; `extra`, files it does not name other than `partial` ones (e.g. a partition
    /// renamed into place by a writer killed before it recorded it; a rerun writes it again).
    pub files: FileFindings,
    /// Position ranges `[first, next)` no partition holds, between the lowest and the highest
    /// position recorded (not checked for lists by month, whose empty months have no partition).
    pub gaps: Vec<(u64, u64)>,
    /// Position ranges `[first, next)` held more than once: spans of two partitions that overlap,
    /// or rows of one index partition repeated.
    pub duplicates: Vec<(u64, u64)>,
    /// Temporary files of a writer that was interrupted (a rerun removes them).
    pub partial: Vec<String>,
    /// Partitions (their files) recorded as read from another source than the dataset's
    /// ([`super::manifest::Origin`]; when the manifest records none, than its first partition
    /// that records one): rows of two networks or services mixed in one dataset.
    pub other_source: Vec<String>,
    /// Partitions recorded as not yet complete (the newest of a list, the current month of a
    /// series): expected, and completed by a later run; they do not make the dataset broken.
    pub incomplete: Vec<String>,
}

impl Report {
    /// Whether the dataset is whole: nothing missing, altered, partial, extra, no gap and no
    /// duplicate.
    pub fn ok(&self) -> bool {
        self.files.recorded_intact()
            && self.files.extra.is_empty()
            && self.partial.is_empty()
            && self.gaps.is_empty()
            && self.duplicates.is_empty()
            && self.other_source.is_empty()
    }
}

/// Checks the dataset directory `dir` fully (see the module docs). Errors: `dir` holds no
/// dataset, its manifest cannot be read, or a writer holds its lock.
pub fn verify(dir: &Path) -> Result<Report> {
    if !dir.is_dir() {
        return Err(Error::invalid_path("dir", dir, "an existing dataset directory"));
    }
    let _reading = DatasetLock::shared(dir)?;
    let manifest = read(dir)?
        .ok_or_else(|| Error::invalid_path("dir", dir, format!("a dataset directory (it has no {MANIFEST})")))?;
    let mut report = Report {
        partitions: manifest.partitions.len() as u64,
        rows: manifest.partitions.iter().map(|p| p.rows).sum(),
        source: manifest.origin.as_ref().map(ToString::to_string),
        ..Report::default()
    };
    let positions_by_index = manifest.walk.kind == "index_range";
    for p in &manifest.partitions {
        if !p.complete {
            report.incomplete.push(p.file.clone());
        }
        let path = dir.join(&p.file);
        match file_digest(&path) {
            Err(_) if !path.exists() => report.files.missing.push(p.file.clone()),
            Ok((bytes, sha256)) if bytes == p.bytes && sha256 == p.sha256 => {
                if positions_by_index {
                    check_index_rows(&path, p, &mut report);
                } else if parquet_rows(&path) != Some(p.rows) {
                    // a list or a series: at least as many rows as recorded (a manifest edited
                    // to claim more, or a file of its hash written with other rows)
                    report.files.altered.push(p.file.clone());
                }
            }
            _ => report.files.altered.push(p.file.clone()),
        }
    }
    report.other_source = other_source(&manifest);
    files_not_named(dir, &manifest, &mut report)?;
    check_spans(&manifest, &mut report);
    report.duplicates = coalesce(std::mem::take(&mut report.duplicates));
    report.gaps = coalesce(std::mem::take(&mut report.gaps));
    Ok(report)
}

/// The files of the partitions recorded as read from another source than the dataset's (see
/// [`Report::other_source`]); partitions that record none (written by an earlier version) are
/// not counted.
fn other_source(manifest: &Manifest) -> Vec<String> {
    let Some(origin) = manifest.origin.as_ref().or_else(|| manifest.partitions.iter().find_map(|p| p.origin.as_ref()))
    else {
        return Vec::new();
    };
    manifest
        .partitions
        .iter()
        .filter(|p| p.origin.as_ref().is_some_and(|o| !o.same_source(origin)))
        .map(|p| p.file.clone())
        .collect()
}

/// Ranges sorted, and those that touch or overlap joined.
fn coalesce(mut ranges: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    ranges.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for (first, next) in ranges {
        match out.last_mut() {
            Some(last) if first <= last.1 => last.1 = last.1.max(next),
            _ => out.push((first, next)),
        }
    }
    out
}

/// Sorts every file under `dir` the manifest does not name into `partial` or `extra`.
fn files_not_named(dir: &Path, manifest: &Manifest, report: &mut Report) -> Result<()> {
    let named: std::collections::HashSet<&str> = manifest.partitions.iter().map(|p| p.file.as_str()).collect();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).map_err(|e| io_error(&at, e))?.flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(path);
                continue;
            }
            let relative = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            let name = entry.file_name().to_string_lossy().into_owned();
            if relative == MANIFEST || relative == LOCK_FILE || named.contains(relative.as_str()) {
                continue;
            }
            if is_temp_name(&name) {
                report.partial.push(relative);
            } else {
                report.files.extra.push(relative);
            }
        }
    }
    report.partial.sort();
    report.files.extra.sort();
    Ok(())
}

/// Overlapping spans are duplicates; for contiguous walks, the holes between spans are gaps.
fn check_spans(manifest: &Manifest, report: &mut Report) {
    let mut spans: Vec<(u64, u64)> =
        manifest.partitions.iter().filter(|p| p.first < p.next).map(|p| (p.first, p.next)).collect();
    spans.sort_unstable();
    let contiguous = manifest.walk.kind != "data_list_by_month";
    let mut reach: Option<u64> = None;
    for (first, next) in spans {
        match reach {
            Some(r) if first < r => report.duplicates.push((first, next.min(r))),
            Some(r) if first > r && contiguous => report.gaps.push((r, first)),
            _ => {}
        }
        reach = Some(reach.map_or(next, |r| r.max(next)));
    }
}

/// The `index` column of an index partition: every position of its span exactly once (when
/// complete), none outside it, as many rows as recorded.
fn check_index_rows(path: &Path, p: &Partition, report: &mut Report) {
    let Some(mut positions) = index_column(path) else {
        report.files.altered.push(p.file.clone());
        return;
    };
    if positions.len() as u64 != p.rows || positions.iter().any(|&i| i < p.first || i >= p.next) {
        report.files.altered.push(p.file.clone());
        return;
    }
    positions.sort_unstable();
    let mut expected = p.first;
    let mut i = 0;
    while i < positions.len() {
        let at = positions[i];
        let mut run = i + 1;
        while run < positions.len() && positions[run] == at {
            run += 1;
        }
        if run - i > 1 {
            report.duplicates.push((at, at + 1));
        }
        if at > expected && p.complete {
            report.gaps.push((expected, at));
        }
        expected = at + 1;
        i = run;
    }
    if p.complete && expected < p.next {
        report.gaps.push((expected, p.next));
    }
}

/// The rows a Parquet file's footer says it holds (`None` when unreadable).
fn parquet_rows(path: &Path) -> Option<u64> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).ok()?).ok()?;
    u64::try_from(builder.metadata().file_metadata().num_rows()).ok()
}

/// The values of the `UInt64` column `index` of a Parquet file (`None` when unreadable).
fn index_column(path: &Path) -> Option<Vec<u64>> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).ok()?).ok()?;
    let at = builder.schema().index_of("index").ok()?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [at]);
    let mut out = Vec::new();
    for batch in builder.with_projection(mask).build().ok()? {
        let batch = batch.ok()?;
        out.extend(batch.column(0).as_primitive_opt::<UInt64Type>()?.values().iter());
    }
    Some(out)
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
