//! [`verify_checkpoint`]: what an interrupted export's checkpoint says, and whether the output
//! it describes is still as recorded (`avax-data dataset verify OUT.avax-state.json`).

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

use super::{read, state_path, suffixed, Checkpoint, Output, LOCK_SUFFIX, PARTS_SUFFIX, STATE_SUFFIX};
use crate::dataset::findings::FileFindings;
use crate::dataset::manifest::file_digest;
use crate::error::{Error, Result};

/// What [`verify_checkpoint`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointReport {
    /// The checkpoint file read.
    pub path: PathBuf,
    /// The checkpoint.
    pub checkpoint: Checkpoint,
    /// The output against the checkpoint: `missing`, part files it lists that are not there
    /// (Parquet); `altered`, part files whose size or sha256 is not the recorded one (Parquet),
    /// or a CSV / NDJSON output shorter than recorded, whose recorded bytes changed, or with zero
    /// bytes past them ([`super::appended::check`]); `extra`, what was written after the
    /// checkpoint (part files it does not list, bytes past its offset): a resumed run drops it.
    pub files: FileFindings,
}

impl CheckpointReport {
    /// Whether `--resume` can continue from it: nothing missing or altered (extra files and
    /// bytes are dropped by the resumed run).
    pub fn ok(&self) -> bool {
        self.files.recorded_intact()
    }
}

/// Reads the checkpoint `path` (or the checkpoint of the output `path`) and checks the output
/// it describes against it. Errors: no checkpoint there, it is not a checkpoint of this version,
/// or the export is at work (its lock is held).
pub fn verify_checkpoint(path: &Path) -> Result<CheckpointReport> {
    let text = path.to_string_lossy();
    let (state, out) = match text.strip_suffix(STATE_SUFFIX) {
        Some(out) => (path.to_path_buf(), PathBuf::from(out)),
        None => (state_path(path), path.to_path_buf()),
    };
    if let Ok(file) = File::open(suffixed(&out, LOCK_SUFFIX)) {
        if let Err(TryLockError::WouldBlock) = file.try_lock_shared() {
            return Err(Error::DatasetLocked { dir: out.display().to_string(), pid: None, host: None, since: None });
        }
    }
    let checkpoint = read(&state)?.ok_or_else(|| {
        Error::invalid_path("path", path, format!("a checkpoint of an export (there is no {})", state.display()))
    })?;
    let mut report = CheckpointReport { path: state, checkpoint, files: FileFindings::default() };
    match report.checkpoint.output.clone() {
        Output::Parts(parts) => {
            let dir = suffixed(&out, PARTS_SUFFIX);
            for part in &parts {
                match file_digest(&dir.join(&part.file)) {
                    Err(_) => report.files.missing.push(part.file.clone()),
                    Ok((bytes, sha)) if bytes != part.bytes || sha != part.sha256 => {
                        report.files.altered.push(part.file.clone())
                    }
                    Ok(_) => {}
                }
            }
            let mut extra: Vec<String> = std::fs::read_dir(&dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .filter(|name| !parts.iter().any(|p| &p.file == name))
                        .collect()
                })
                .unwrap_or_default();
            extra.sort();
            report.files.extra = extra;
        }
        Output::Bytes(bytes) => {
            let size = std::fs::metadata(&out).map(|m| m.len()).ok();
            let name = out.display().to_string();
            match size {
                None if bytes > 0 => report.files.missing.push(name),
                Some(size) if size < bytes => report.files.altered.push(format!("{name} ({size} of {bytes} bytes)")),
                Some(size) => match super::appended::check(&out, bytes, report.checkpoint.bytes_sha256.as_deref())? {
                    Err(why) => report.files.altered.push(format!("{name} ({why})")),
                    Ok(_) if size > bytes => {
                        report.files.extra.push(format!("{name} ({} bytes past the checkpoint)", size - bytes))
                    }
                    Ok(_) => {}
                },
                None => {}
            }
        }
    }
    Ok(report)
}
