//! [`ExportCheckpoint`]: the checkpoint of one export at work, its lock held.

use std::path::{Path, PathBuf};

use super::appended::{self, Appended};
use super::{
    part_name, read, save_json, state_path, suffixed, Checkpoint, Origin, Output, Part, Position, Request,
    CHECKPOINT_VERSION, EXPORT_KIND, LOCK_SUFFIX, PARTS_SUFFIX,
};
use crate::dataset::lock::DatasetLock;
use crate::dataset::manifest::file_digest;
use crate::error::{Error, Result};

/// The checkpoint of the export of `request` to its output: one writer at a time (the lock
/// `OUT.avax-lock` is held from [`ExportCheckpoint::open`] to [`ExportCheckpoint::finish`],
/// [`ExportCheckpoint::discard`] or the drop).
#[derive(Debug)]
pub struct ExportCheckpoint {
    out: PathBuf,
    path: PathBuf,
    request: Request,
    saved: Option<Checkpoint>,
    output: Output,
    rows: u64,
    /// The running sha256 of a CSV or NDJSON output's recorded bytes.
    appended: Appended,
    lock: Option<DatasetLock>,
}

impl ExportCheckpoint {
    /// Takes the lock of the export to `request.output` (or fails with
    /// [`Error::DatasetLocked`] naming the holder) and reads its checkpoint, if an earlier run
    /// left one (an error when it is not a checkpoint of this version).
    pub fn open(request: Request) -> Result<ExportCheckpoint> {
        let out = PathBuf::from(&request.output);
        let lock_path = suffixed(&out, LOCK_SUFFIX);
        let lock = DatasetLock::acquire_file(&lock_path, &out, "export to", log::Level::Info)?;
        let path = state_path(&out);
        let saved = match read(&path) {
            Ok(saved) => saved,
            Err(e) => {
                // Refused: leave no lock file behind (removed while still held, as `release` does).
                let _ = std::fs::remove_file(&lock_path);
                drop(lock);
                return Err(e);
            }
        };
        let output = if request.format == "parquet" { Output::Parts(Vec::new()) } else { Output::Bytes(0) };
        let appended = Appended::default();
        Ok(ExportCheckpoint { out, path, request, saved, output, rows: 0, appended, lock: Some(lock) })
    }

    /// Sets where the export's rows come from (learnt after the lock is taken: for an index,
    /// by a request): recorded by every save, and checked by [`ExportCheckpoint::resume`]
    /// against the earlier run's.
    pub fn set_source(&mut self, source: Option<Origin>) {
        self.request.source = source;
    }

    /// The checkpoint file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The checkpoint an earlier, unfinished run left (as read by [`ExportCheckpoint::open`]).
    pub fn saved(&self) -> Option<&Checkpoint> {
        self.saved.as_ref()
    }

    /// Continues the earlier run: checks that it asked the same of the same source (else an
    /// error listing what differs, both sources named) and that its output is as recorded
    /// (every part file there with its size and sha256; a CSV or NDJSON file whose first bytes
    /// have the recorded sha256, with no zero byte past them: [`appended::check`]), then drops
    /// what was written after the checkpoint (part files it does not list; the bytes past its
    /// offset). Returns where the walk continues and the rows already written.
    pub fn resume(&mut self) -> Result<(Position, u64)> {
        let saved = self
            .saved
            .clone()
            .ok_or_else(|| Error::invalid_path("checkpoint", &self.path, "an existing checkpoint to resume"))?;
        let differ = saved.request.differences(&self.request);
        if !differ.is_empty() {
            return Err(self.refused(format!(
                "the checkpoint of this export (it belongs to another export: {})",
                differ.join("; ")
            )));
        }
        match &saved.output {
            Output::Parts(parts) => self.restore_parts(parts)?,
            Output::Bytes(bytes) => self.restore_bytes(*bytes, saved.bytes_sha256.as_deref())?,
        }
        if self.request.source.is_none() {
            self.request.source = saved.request.source.clone();
        }
        self.output = saved.output.clone();
        self.rows = saved.rows_written;
        Ok((saved.position, saved.rows_written))
    }

    fn refused(&self, allowed: String) -> Error {
        Error::invalid_path("checkpoint", &self.path, allowed)
    }

    fn restore_parts(&self, parts: &[Part]) -> Result<()> {
        let dir = suffixed(&self.out, PARTS_SUFFIX);
        let damaged: Vec<&str> = parts
            .iter()
            .filter(|p| !file_digest(&dir.join(&p.file)).is_ok_and(|(b, sha)| b == p.bytes && sha == p.sha256))
            .map(|p| p.file.as_str())
            .collect();
        if let Some(first) = damaged.first() {
            return Err(self.refused(format!(
                "a checkpoint whose part files are as it records ({} part file(s) in {} are missing or altered, \
                 first {first}); delete it to start the export over",
                damaged.len(),
                dir.display()
            )));
        }
        if !dir.is_dir() {
            return Ok(()); // stopped before its first part: the resumed run makes the directory
        }
        let entries = std::fs::read_dir(&dir).map_err(|e| Error::file(&dir, &e))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !parts.iter().any(|p| p.file == name) {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|e| Error::file(&path, &e))?;
            }
        }
        Ok(())
    }

    fn restore_bytes(&mut self, bytes: u64, sha256: Option<&str>) -> Result<()> {
        let damage = if bytes > 0 && !self.out.is_file() {
            Ok(Err("it is not there".to_string()))
        } else {
            appended::check(&self.out, bytes, sha256)
        };
        self.appended = damage?.map_err(|why| {
            self.refused(format!(
                "a checkpoint of the file it describes ({}: {why}); delete it and the file to start the export over",
                self.out.display()
            ))
        })?;
        if bytes == 0 && !self.out.exists() {
            return Ok(()); // stopped before its first chunk
        }
        let file = std::fs::OpenOptions::new().write(true).open(&self.out).map_err(|e| Error::file(&self.out, &e))?;
        file.set_len(bytes).map_err(|e| Error::file(&self.out, &e))
    }

    /// Records the walk's position with the output as it stands (at the start of a run).
    pub fn save(&mut self, position: Position) -> Result<()> {
        let checkpoint = Checkpoint {
            version: CHECKPOINT_VERSION,
            kind: EXPORT_KIND.into(),
            request: self.request.clone(),
            position,
            rows_written: self.rows,
            output: self.output.clone(),
            bytes_sha256: matches!(self.output, Output::Bytes(_)).then(|| self.appended.digest()),
            updated: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        };
        save_json(&self.path, &checkpoint, "checkpoint")
    }

    /// The name the next part file of a Parquet export is to be written under (in `OUT.parts/`).
    pub fn next_part(&self) -> Result<String> {
        match &self.output {
            Output::Parts(parts) => Ok(part_name(parts.len())),
            Output::Bytes(_) => Err(Error::Internal("part files asked of a CSV or NDJSON export".into())),
        }
    }

    /// Records the part file [`ExportCheckpoint::next_part`] named, written with `rows` rows (its
    /// size and sha256 read now), and the position after it.
    pub fn add_part(&mut self, rows: u64, position: Position) -> Result<()> {
        let file = self.next_part()?;
        let (bytes, sha256) = file_digest(&suffixed(&self.out, PARTS_SUFFIX).join(&file))?;
        if let Output::Parts(parts) = &mut self.output {
            parts.push(Part { file, rows, bytes, sha256 });
        }
        self.rows += rows;
        self.save(position)
    }

    /// Records that `OUT` (CSV or NDJSON) holds `bytes` bytes after a chunk of `rows` rows (the
    /// chunk's bytes read into the running sha256; the writer made them durable first), and the
    /// position after it.
    pub fn add_bytes(&mut self, bytes: u64, rows: u64, position: Position) -> Result<()> {
        match &mut self.output {
            Output::Bytes(at) if bytes >= *at => *at = bytes,
            _ => return Err(Error::Internal(format!("a byte offset {bytes} that does not follow the output"))),
        }
        self.appended.advance(&self.out, bytes)?;
        self.rows += rows;
        self.save(position)
    }

    /// Rows safely written.
    pub fn rows_written(&self) -> u64 {
        self.rows
    }

    /// The export is complete: removes the checkpoint and the lock file, and releases the lock.
    pub fn finish(&mut self) -> Result<()> {
        if let Err(e) = std::fs::remove_file(&self.path) {
            if e.kind() != std::io::ErrorKind::NotFound {
                return Err(Error::file(&self.path, &e));
            }
        }
        self.release();
        Ok(())
    }

    /// The export stopped before its first chunk: like [`ExportCheckpoint::finish`], nothing
    /// is left to resume.
    pub fn discard(&mut self) -> Result<()> {
        self.finish()
    }

    /// Releases the lock and removes its file (a removed lock
    /// file can be raced by a writer that opened it just before; the window is a few
    /// instructions, and the lock is a guard against mistakes, not against an adversary).
    pub fn release(&mut self) {
        if self.lock.is_some() {
            let _ = std::fs::remove_file(suffixed(&self.out, LOCK_SUFFIX));
        }
        self.lock = None;
    }
}

impl Drop for ExportCheckpoint {
    fn drop(&mut self) {
        self.release();
    }
}
