//! Publishing files so that a crash or power loss never leaves a name pointing at bytes that did
//! not reach the disk: unique temporary names, file fsync, rename, directory fsync. And the crash
//! hook the tests use to kill a writer between those steps.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::error::{Error, Result};

/// The environment variable of the crash hook (a test hook): `<step>[:<n>]` kills the process
/// with SIGKILL the `n`-th time (default the first) a dataset writer reaches `step`, one of
/// [`CRASH_STEPS`].
pub const CRASH_ENV: &str = "AVAX_DATA_CRASH_AT";

/// The steps of publishing a partition, in order, where the crash hook can stop a writer (and
/// `merge-recorded`: a merge that recorded a staged dataset's partitions, before it removes that
/// staged directory).
pub const CRASH_STEPS: [&str; 7] = [
    "partition-written",
    "partition-synced",
    "partition-renamed",
    "manifest-written",
    "manifest-synced",
    "manifest-renamed",
    "merge-recorded",
];

/// A temporary name beside `path`, unique to this process and call: `.{name}.{pid}-{n}.tmp`.
pub fn temp_beside(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// Whether a file name is a temporary file of a writer (its own, [`temp_beside`], or a Parquet
/// sink's `.partial`): hidden and ending in `.tmp` or `.partial`.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && (name.ends_with(".tmp") || name.ends_with(".partial"))
}

/// Flushes the file at `path` to the disk.
pub fn sync_file(path: &Path) -> Result<()> {
    std::fs::File::open(path).and_then(|f| f.sync_all()).map_err(|e| Error::file(path, &e))
}

/// Flushes the directory `dir`'s entries (the names created or renamed in it) to the disk.
pub fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir).and_then(|f| f.sync_all()).map_err(|e| Error::file(dir, &e))
    }
    #[cfg(not(unix))]
    {
        // Directories cannot be opened as files here; renames are durable on their own.
        let _ = dir;
        Ok(())
    }
}

/// Publishes the written temporary file `tmp` as `path`: fsync of the file, rename, fsync of the
/// directory. The crash hook steps `{what}-synced` and `{what}-renamed` are on either side of
/// the rename.
pub fn publish(tmp: &Path, path: &Path, what: &str) -> Result<()> {
    sync_file(tmp)?;
    crash_point(&format!("{what}-synced"));
    std::fs::rename(tmp, path).map_err(|e| Error::file(path, &e))?;
    // a bare file name (`x.csv.avax-state.json`) has the empty path as its parent: the current directory
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    sync_dir(parent)?;
    crash_point(&format!("{what}-renamed"));
    Ok(())
}

/// The crash hook: kills this process with SIGKILL when [`CRASH_ENV`] names `step` and this is
/// its `n`-th time. For tests of crash safety only.
pub fn crash_point(step: &str) {
    static SEEN: Mutex<Vec<(String, u64)>> = Mutex::new(Vec::new());
    let Ok(wanted) = std::env::var(CRASH_ENV) else { return };
    let (name, nth) = match wanted.split_once(':') {
        Some((name, n)) => (name, n.trim().parse::<u64>().unwrap_or(1)),
        None => (wanted.as_str(), 1),
    };
    if name.trim() != step {
        return;
    }
    let count = {
        let mut seen = SEEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match seen.iter_mut().find(|(s, _)| s == step) {
            Some((_, count)) => {
                *count += 1;
                *count
            }
            None => {
                seen.push((step.to_string(), 1));
                1
            }
        }
    };
    if count == nth {
        log::error!("{CRASH_ENV}={wanted}: killing this process at {step}");
        #[cfg(unix)]
        // SAFETY: kill(2) with this process's own id and a constant signal.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
        std::process::abort();
    }
}

/// Writes `value` as pretty JSON to `path` atomically and durably: a temporary file of a unique
/// name, fsynced, renamed over `path`, the directory fsynced. The crash hook's steps are
/// `{what}-written`, `{what}-synced` and `{what}-renamed` ([`crate::dataset::durable`]). Dataset
/// manifests and export checkpoints ([`crate::checkpoint`]) are both written this way.
pub fn save_json<T: serde::Serialize>(path: &Path, value: &T, what: &str) -> Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Error::Internal(e.to_string()))?;
    let tmp = temp_beside(path);
    if let Err(e) = std::fs::write(&tmp, text) {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::file(&tmp, &e));
    }
    crash_point(&format!("{what}-written"));
    publish(&tmp, path, what).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_unique_hidden_and_recognised() {
        let a = temp_beside(Path::new("/d/chunk=0/part.parquet"));
        let b = temp_beside(Path::new("/d/chunk=0/part.parquet"));
        assert_ne!(a, b);
        assert_eq!(a.parent(), Some(Path::new("/d/chunk=0")));
        let name = a.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with(&format!(".part.parquet.{}-", std::process::id())), "{name}");
        assert!(is_temp_name(name) && is_temp_name("..part.parquet.1-2.tmp.partial"));
        assert!(!is_temp_name("part.parquet") && !is_temp_name("_avax_dataset.json") && !is_temp_name("x.tmp"));
    }

    #[test]
    fn a_published_file_is_under_its_name_and_the_temporary_is_gone() {
        let dir = std::env::temp_dir().join(format!("avax-durable-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        let tmp = temp_beside(&path);
        std::fs::write(&tmp, b"bytes").unwrap();
        publish(&tmp, &path, "partition").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"bytes");
        assert!(!tmp.exists());
        assert!(publish(&tmp, &path, "partition").is_err(), "a missing temporary file is an error");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
