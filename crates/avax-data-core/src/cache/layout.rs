//! The cache's claim on its directory: the marker file that says a directory is a cache (with
//! the layout's version), the exact path shape of its files, and the checks that decide what it
//! may count or delete. The cache touches only what it can prove it wrote: inside a marked
//! directory, a file at `{kind}/{hh}/{sha256 hex}` (or `hints/{sha256 hex}`) that starts with the
//! entry tag ([`super::entry::MAGIC`]), or a temporary file of its own name pattern there. Any
//! other file or directory is never counted, moved or deleted.
//!
//! Opening a directory as a cache ([`claim`]): a missing or empty directory becomes one (made
//! with mode 0700 on POSIX, and the marker written); a marked one of this layout is used; a
//! cache of the previous layout (the kind directories without a marker) is adopted when every
//! file in it is one of its entries; anything else is refused with an error naming the
//! directory and the first file that is not the cache's. A directory owned by another user, or
//! marked by a newer layout, is refused too.

use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use super::entry::MAGIC;
use super::kind::{Kind, HINTS_DIR};
use crate::dataset::durable::temp_beside;
use crate::error::{Error, Result};

/// The marker file at the root of every cache directory.
pub const MARKER: &str = ".avax-data-cache";

/// The layout this version writes and reads. Version 1 was the unmarked layout (the kind
/// directories alone), which [`claim`] adopts.
pub const VERSION: u32 = 2;

/// The lock file of a cache directory (never removed; locked while evicting or clearing).
pub const LOCK_FILE: &str = ".lock";

/// The marker's first words; the version follows.
const MARKER_TAG: &str = "avax-data cache layout";

/// The marker's text for this layout.
pub fn marker_text() -> String {
    format!("{MARKER_TAG} {VERSION}\n")
}

/// The layout version a marker's text declares; `None` when it is not a marker.
pub fn marker_version(text: &str) -> Option<u32> {
    let rest = text.strip_prefix(MARKER_TAG)?.strip_prefix(' ')?;
    let digits = rest.strip_suffix('\n').unwrap_or(rest);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// What a directory is to the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// It does not exist.
    Missing,
    /// It exists and holds nothing.
    Empty,
    /// It holds the marker of this layout.
    Marked,
    /// No marker, but every file in it is an entry of the previous layout (or its lock).
    PreviousLayout,
}

/// Whether `name` is an entry's file name: 64 lower-case hex digits (a sha256).
pub fn is_entry_name(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Whether `name` is a shard directory's name: two lower-case hex digits.
fn is_shard_name(name: &str) -> bool {
    name.len() == 2 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Whether `name` is a temporary file the cache writes beside `target` (a name of
/// [`is_entry_name`] when `None`): `.{target}.{pid}-{n}.tmp`.
pub fn is_own_temp(name: &str, target: Option<&str>) -> bool {
    let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else { return false };
    let Some((base, tag)) = inner.rsplit_once('.') else { return false };
    let Some((pid, n)) = tag.split_once('-') else { return false };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let base_ok = match target {
        Some(target) => base == target,
        None => is_entry_name(base),
    };
    base_ok && digits(pid) && digits(n)
}

/// Whether the file at `path` starts with the entry tag (or, shorter than the tag, is a start
/// of it: an entry cut short, which the cache may delete as damaged).
pub fn has_entry_tag(path: &Path) -> bool {
    let mut head = Vec::with_capacity(MAGIC.len());
    let read = fs::File::open(path).and_then(|f| f.take(MAGIC.len() as u64).read_to_end(&mut head));
    read.is_ok() && MAGIC.starts_with(&head)
}

/// Whether the file `name` in the shard `shard` (or the hints directory, `shard` `None`) is an
/// entry the cache wrote: the exact name shape, in the shard of its first two digits, with the
/// entry tag.
pub fn is_own_entry(path: &Path, name: &str, shard: Option<&str>) -> bool {
    is_entry_name(name) && shard.is_none_or(|s| name.starts_with(s)) && has_entry_tag(path)
}

/// The names in `dir` with their paths; a directory that does not exist (or was just removed)
/// has none.
pub fn children(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    match fs::read_dir(dir) {
        Ok(entries) => Ok(entries
            .filter_map(|e| e.ok())
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
            .collect()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(Error::file(dir, &e)),
    }
}

/// What `dir` is to the cache; an error when it cannot be one (another user's, a newer layout's,
/// a file, or a directory holding what is not the cache's). `param` names the argument in errors.
pub fn inspect(dir: &Path, param: &str) -> Result<State> {
    let meta = match fs::metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(State::Missing),
        Err(e) => return Err(Error::file(dir, &e)),
    };
    if !meta.is_dir() {
        return Err(Error::invalid_path(param, dir, "a cache directory (this is not a directory)"));
    }
    check_owner(dir, &meta, param)?;
    match fs::read_to_string(dir.join(MARKER)) {
        Ok(text) => {
            return match marker_version(&text) {
                Some(VERSION) => Ok(State::Marked),
                Some(v) if v > VERSION => Err(Error::invalid_path(
                    param,
                    dir,
                    format!(
                        "a cache of layout version {VERSION} (this avax-data's); its marker {MARKER} says version {v}, \
                         written by a newer avax-data: upgrade avax-data, or use another directory"
                    ),
                )),
                _ => Err(Error::invalid_path(
                    param,
                    dir,
                    format!(
                        "a cache of layout version {VERSION}; its marker {MARKER} does not name a layout this \
                         avax-data reads ({text:?}): use another directory"
                    ),
                )),
            };
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(Error::file(&dir.join(MARKER), &e)),
    }
    let top = children(dir)?;
    if top.is_empty() {
        return Ok(State::Empty);
    }
    match first_foreign(&top)? {
        None => Ok(State::PreviousLayout),
        // Another process marked the directory meanwhile (its marker, or the temporary file it
        // renames into the marker, was listed above): read the marker again rather than take
        // either for a foreign file. The marker arrives whole, by a rename.
        Some(_) if dir.join(MARKER).is_file() => inspect(dir, param),
        Some(foreign) => Err(Error::invalid_path(
            param,
            dir,
            format!(
                "an empty or new directory, or an avax-data cache (marked by its file {MARKER}); this one has no \
                 marker and holds {}, which is not a cache entry: nothing in it was touched. Give the cache a \
                 directory of its own (for example {})",
                foreign.display(),
                dir.join("avax-data-cache").display()
            ),
        )),
    }
}

/// The first path under an unmarked directory (whose names are `top`) that is not a file of the
/// previous layout; `None` when every one is.
fn first_foreign(top: &[(String, PathBuf)]) -> Result<Option<PathBuf>> {
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    for (name, path) in top {
        let is_dir = path.is_dir() && !path.is_symlink();
        let own = if kinds.contains(&name.as_str()) && is_dir {
            for (shard, shard_path) in children(path)? {
                if !is_shard_name(&shard) || !shard_path.is_dir() || shard_path.is_symlink() {
                    return Ok(Some(shard_path));
                }
                if let Some(foreign) = foreign_file(&shard_path, Some(&shard))? {
                    return Ok(Some(foreign));
                }
            }
            true
        } else if name == HINTS_DIR && is_dir {
            if let Some(foreign) = foreign_file(path, None)? {
                return Ok(Some(foreign));
            }
            true
        } else {
            (name == LOCK_FILE || is_own_temp(name, Some(MARKER))) && path.is_file()
        };
        if !own {
            return Ok(Some(path.clone()));
        }
    }
    Ok(None)
}

/// The first file in `dir` (a shard, or the hints) that is neither an entry nor a temporary
/// file of the cache.
fn foreign_file(dir: &Path, shard: Option<&str>) -> Result<Option<PathBuf>> {
    for (name, path) in children(dir)? {
        let file = path.is_file() && !path.is_symlink();
        if !(file && (is_own_temp(&name, None) || is_own_entry(&path, &name, shard))) {
            return Ok(Some(path));
        }
    }
    Ok(None)
}

/// Refuses a directory owned by another user (POSIX).
#[cfg(unix)]
fn check_owner(dir: &Path, meta: &fs::Metadata, param: &str) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(Error::invalid_path(
            param,
            dir,
            format!(
                "a cache directory owned by this user (uid {me}); this one is owned by uid {}, so its entries \
                 could be written by someone else: use a directory of your own",
                meta.uid()
            ),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_owner(_dir: &Path, _meta: &fs::Metadata, _param: &str) -> Result<()> {
    Ok(())
}

/// Makes `dir` and its missing parents, each with mode 0700 on POSIX.
pub fn create_dirs(dir: &Path) -> Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|e| Error::file(dir, &e))
}

/// Creates (or truncates) the file `path` with mode 0600 on POSIX and writes `bytes`.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(bytes)
}

/// Sets mode 0700 on `dir` (POSIX).
fn make_private(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(|e| Error::file(dir, &e))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Writes the marker of this layout into `dir` (a temporary name, then a rename).
fn write_marker(dir: &Path) -> Result<()> {
    let path = dir.join(MARKER);
    let tmp = temp_beside(&path);
    let written = write_private(&tmp, marker_text().as_bytes()).and_then(|()| fs::rename(&tmp, &path));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(Error::file(&path, &e));
    }
    Ok(())
}

/// Opens `dir` as a cache by the module's rule (`param` names it in errors): made when missing
/// or empty (mode 0700, marked), adopted when it is a cache of the previous layout (marked, its
/// directories set to 0700), used when marked; refused otherwise.
pub fn claim(dir: &Path, param: &str) -> Result<()> {
    match inspect(dir, param)? {
        State::Marked => Ok(()),
        State::Missing => {
            create_dirs(dir)?;
            write_marker(dir)
        }
        State::Empty => {
            make_private(dir)?;
            write_marker(dir)
        }
        State::PreviousLayout => {
            make_private(dir)?;
            for kind in Kind::ALL.iter().map(|k| k.name()).chain([HINTS_DIR]) {
                let root = dir.join(kind);
                if root.is_dir() {
                    make_private(&root)?;
                    for (_, shard) in children(&root)? {
                        if shard.is_dir() {
                            make_private(&shard)?;
                        }
                    }
                }
            }
            write_marker(dir)?;
            log::info!("cache {}: adopted a cache of the previous layout (marked it {MARKER})", dir.display());
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_names_its_version_and_nothing_else_reads_as_one() {
        assert_eq!(marker_text(), "avax-data cache layout 2\n");
        assert_eq!(marker_version(&marker_text()), Some(VERSION));
        assert_eq!(marker_version("avax-data cache layout 17"), Some(17));
        for bad in ["", "avax-data cache layout", "avax-data cache layout x\n", "avax-data cache layout -1", "layout 2"]
        {
            assert_eq!(marker_version(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn only_the_caches_own_names_are_its_own() {
        let name = "ab".to_string() + &"0".repeat(62);
        assert!(is_entry_name(&name));
        assert!(!is_entry_name(&name.to_uppercase()) && !is_entry_name(&name[1..]) && !is_entry_name("survey.csv"));
        assert!(is_own_temp(&format!(".{name}.123-4.tmp"), None));
        assert!(is_own_temp("..avax-data-cache.9-0.tmp", Some(MARKER)));
        for other in [
            format!(".{name}.tmp"),
            format!(".{name}.1-x.tmp"),
            ".survey.csv.1-2.tmp".into(),
            format!("{name}.1-2.tmp"),
        ] {
            assert!(!is_own_temp(&other, None), "{other}");
        }
    }
}
