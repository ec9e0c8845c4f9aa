//! One writer per dataset directory: an advisory lock (`flock`, through std's
//! [`File::try_lock`]) on the file `_avax_dataset.lock` in the directory, which names its holder
//! (pid, host, since when) while it is held.
//!
//! The lock is taken at once or refused: a second writer gets [`Error::DatasetLocked`] naming
//! the holder, before it sends any request. The operating system releases the lock when its
//! process ends, however it ends; a lock file that still names a holder when the lock is free was
//! left by a writer that died, and is taken over with a log line naming it. The file itself is
//! never removed (removing a lock file races with a writer opening it); a released lock leaves it
//! empty.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::manifest::io_error;
use crate::error::{Error, Result};

/// The lock file's name inside the dataset directory.
pub const LOCK_FILE: &str = "_avax_dataset.lock";

/// Who holds (or last held) a dataset's lock, as its lock file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// The holder's process id.
    pub pid: u32,
    /// The holder's host name.
    pub host: String,
    /// When it took the lock (RFC 3339, UTC).
    pub since: String,
}

impl Holder {
    /// This process, now.
    pub fn me() -> Holder {
        Holder {
            pid: std::process::id(),
            host: host_name(),
            since: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }
    }

    /// Reads a lock file's text: `None` when empty or not written by a holder.
    fn parse(text: &str) -> Option<Holder> {
        serde_json::from_str(text.trim()).ok()
    }
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pid {} on host {} since {}", self.pid, self.host, self.since)
    }
}

/// The name of this machine (`unknown` when the system does not say).
pub fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buffer = [0u8; 256];
        // SAFETY: the buffer is valid for its whole length; gethostname writes at most that much.
        let rc = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) };
        if rc == 0 {
            let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
            let name = String::from_utf8_lossy(&buffer[..end]).into_owned();
            if !name.is_empty() {
                return name;
            }
        }
    }
    std::env::var("HOSTNAME").or_else(|_| std::env::var("COMPUTERNAME")).unwrap_or_else(|_| "unknown".into())
}

/// The held write lock of a dataset directory; released (its file emptied) when dropped.
#[derive(Debug)]
pub struct DatasetLock {
    file: File,
    path: PathBuf,
}

impl DatasetLock {
    /// Takes the write lock of the dataset directory `dir` (which must exist), or fails at once
    /// with [`Error::DatasetLocked`] naming the holder.
    pub fn acquire(dir: &Path) -> Result<DatasetLock> {
        Self::acquire_file(&dir.join(LOCK_FILE), dir, "dataset", log::Level::Warn)
    }

    /// Takes the write lock of the lock file `path` (created when missing) that guards `owner`
    /// (a dataset directory, or the output of an export: [`crate::checkpoint`]), or fails at once
    /// with [`Error::DatasetLocked`] naming `owner` and the holder. Taking over the lock file of
    /// a writer that died is logged at `takeover` level, as `{what} {owner}: taking over ...`.
    pub fn acquire_file(path: &Path, owner: &Path, what: &str, takeover: log::Level) -> Result<DatasetLock> {
        let dir = owner;
        let path = path.to_path_buf();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| io_error(&path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(locked(dir, &read_text(&mut file))),
            Err(TryLockError::Error(e)) => return Err(io_error(&path, e)),
        }
        let previous = read_text(&mut file);
        if let Some(old) = Holder::parse(&previous) {
            log::log!(
                takeover,
                "{} {}: taking over the lock left by {old}, which no longer holds it (the writer died)",
                what,
                dir.display()
            );
        }
        let me = serde_json::to_string(&Holder::me()).map_err(|e| Error::Internal(e.to_string()))?;
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(me.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(|e| io_error(&path, e))?;
        Ok(DatasetLock { file, path })
    }

    /// Checks that no writer holds the lock of `dir` and keeps it from starting while the
    /// returned guard lives (a shared lock); `None` when `dir` has no lock file (never written
    /// by this version) or it cannot be opened for reading.
    pub fn shared(dir: &Path) -> Result<Option<SharedLock>> {
        let path = dir.join(LOCK_FILE);
        let Ok(mut file) = File::open(&path) else { return Ok(None) };
        match file.try_lock_shared() {
            Ok(()) => Ok(Some(SharedLock { _file: file })),
            Err(TryLockError::WouldBlock) => Err(locked(dir, &read_text(&mut file))),
            Err(TryLockError::Error(e)) => Err(io_error(&path, e)),
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for DatasetLock {
    fn drop(&mut self) {
        // Empty first, then unlock: a file naming a holder while unlocked means a dead writer.
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

/// A shared (reader's) lock of a dataset directory: no writer starts while it lives.
#[derive(Debug)]
pub struct SharedLock {
    _file: File,
}

fn read_text(file: &mut File) -> String {
    let mut bytes = Vec::new();
    let _ = file.seek(SeekFrom::Start(0)).and_then(|_| file.take(4096).read_to_end(&mut bytes));
    String::from_utf8_lossy(&bytes).into_owned()
}

fn locked(dir: &Path, text: &str) -> Error {
    let holder = Holder::parse(text);
    Error::DatasetLocked {
        dir: dir.display().to_string(),
        pid: holder.as_ref().map(|h| h.pid),
        host: holder.as_ref().map(|h| h.host.clone()),
        since: holder.map(|h| h.since),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("avax-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_second_writer_is_refused_with_the_holder_named() {
        let dir = temp_dir("second");
        let first = DatasetLock::acquire(&dir).unwrap();
        let written: Holder = serde_json::from_str(&std::fs::read_to_string(first.path()).unwrap()).unwrap();
        assert_eq!((written.pid, written.host.clone()), (std::process::id(), host_name()));
        // another open file description of the same process conflicts as another process does
        match DatasetLock::acquire(&dir).unwrap_err() {
            Error::DatasetLocked { dir: d, pid, host, since } => {
                assert_eq!(d, dir.display().to_string());
                assert_eq!((pid, host, since), (Some(written.pid), Some(written.host.clone()), Some(written.since)));
            }
            other => panic!("not DatasetLocked: {other}"),
        }
        let err = DatasetLock::shared(&dir).unwrap_err().to_string();
        assert!(err.contains(&format!("pid {}", std::process::id())), "{err}");
        drop(first);
        assert_eq!(std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap(), "", "a released lock is empty");
        let reader = DatasetLock::shared(&dir).unwrap();
        assert!(reader.is_some());
        assert!(matches!(DatasetLock::acquire(&dir), Err(Error::DatasetLocked { pid: None, .. })));
        drop(reader);
        let again = DatasetLock::acquire(&dir).unwrap();
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_lock_file_left_by_a_dead_writer_is_taken_over() {
        let dir = temp_dir("stale");
        let dead = Holder { pid: 999_999_999, host: "elsewhere".into(), since: "2020-01-01T00:00:00Z".into() };
        std::fs::write(dir.join(LOCK_FILE), serde_json::to_string(&dead).unwrap()).unwrap();
        let lock = DatasetLock::acquire(&dir).unwrap();
        let now: Holder = serde_json::from_str(&std::fs::read_to_string(lock.path()).unwrap()).unwrap();
        assert_eq!(now.pid, std::process::id());
        // garbage in the lock file is no holder, and no obstacle
        drop(lock);
        std::fs::write(dir.join(LOCK_FILE), "\u{fffd}not json\0").unwrap();
        drop(DatasetLock::acquire(&dir).unwrap());
        assert!(DatasetLock::shared(&dir.join("missing")).unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_refusal_names_the_directory_and_the_holder() {
        let err = locked(Path::new("/d"), r#"{"pid": 42, "host": "h1", "since": "2026-01-02T03:04:05Z"}"#).to_string();
        assert!(err.contains("/d") && err.contains("pid 42 on host h1 since 2026-01-02T03:04:05Z"), "{err}");
        let err = locked(Path::new("/d"), "").to_string();
        assert!(err.contains("another writer"), "{err}");
    }
}
