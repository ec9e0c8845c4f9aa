//! Datasets written in pieces (e.g. one partition per Dask task, each its own staged dataset
//! directory written by the single-process writer) merged into one directory with one manifest,
//! the same a single process would have written, so either writer's rerun recognises it.

use std::path::{Component, Path, PathBuf};

use super::durable::{crash_point, publish};
use super::lock::DatasetLock;
use super::manifest::{digest_matches, io_error, read, Manifest, MANIFEST};
use super::DatasetSummary;
use crate::error::{Error, Result};

/// The complete partitions of the dataset `dir` whose files are as recorded (the fast check:
/// size and modification time):
/// `(hive value, first, next, rows)` each, in value order (none when `dir` has no manifest).
pub fn complete_partitions(dir: &Path) -> Result<Vec<(u64, u64, u64, u64)>> {
    let Some(manifest) = read(dir)? else { return Ok(Vec::new()) };
    Ok(manifest.partitions.iter().filter(|p| p.whole(dir)).map(|p| (p.value, p.first, p.next, p.rows)).collect())
}

/// What a merge does with one staged partition, decided for all of them before anything moves.
enum Step {
    /// Move its file into the dataset, then record it.
    Move,
    /// An earlier merge that crashed moved its file already (the staged file is gone, the
    /// dataset's has the recorded size and sha256): record it only.
    Record,
}

/// Moves the partitions of the staged datasets `staged` into the dataset `dir` and records them
/// in its manifest (a partition of the same hive value is replaced); each staged directory is
/// removed once merged. Every staged dataset must be of the walk `dir` holds (or, for a new
/// `dir`, of one walk) and of its source ([`super::manifest::Origin`]), name only files inside
/// itself (no `..`, no absolute path, no hive directory that is a symbolic link), with every
/// file's sha256 as recorded: checked for all of them before anything moves. The lock of `dir`
/// is held throughout (a second writer is refused), and each partition is published as a writer
/// publishes it (fsync, rename, directory fsync, then the manifest). A merge killed midway is
/// completed by a rerun with the same staged directories: a partition whose file it had moved
/// already is recorded as it is.
pub fn merge_staged(dir: &Path, staged: &[PathBuf]) -> Result<DatasetSummary> {
    let (mut pieces, mut locks) = (Vec::new(), Vec::new());
    for path in staged {
        if path.is_dir() {
            // a staged writer still at work is refused, not merged half-written
            locks.push(DatasetLock::acquire(path)?);
        }
        let manifest = read(path)?
            .ok_or_else(|| Error::invalid_path("staged", path, format!("a dataset directory (no {MANIFEST} in it)")))?;
        pieces.push((path, manifest));
    }
    let Some(walk) = pieces.first().map(|(_, m)| m.walk.clone()) else {
        return Ok(DatasetSummary::default());
    };
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let _lock = DatasetLock::acquire(dir)?;
    let mut main = Manifest::open(dir, walk)?;
    for (_, m) in &pieces {
        if m.walk != main.walk {
            // the same check (and message) as a rerun of another walk into `dir`
            Manifest::open(dir, m.walk.clone())?;
        }
        // the same check (and message) as a write from another source into `dir`
        main.bind_origin(dir, m.origin.as_ref())?;
    }
    let mut steps = Vec::new();
    for (path, m) in &pieces {
        for p in &m.partitions {
            let (from, to) = (inside(path, &p.file)?, inside(dir, &p.file)?);
            let step = if digest_matches(path, p) {
                Step::Move
            } else if !from.exists() && digest_matches(dir, p) {
                Step::Record
            } else {
                return Err(Error::invalid_path(
                    "staged",
                    path,
                    format!("a dataset whose files are as recorded ({} is not)", p.file),
                ));
            };
            steps.push((from, to, step));
        }
    }
    let mut summary = DatasetSummary::default();
    let mut steps = steps.into_iter();
    for (path, m) in pieces {
        for p in m.partitions {
            let Some((from, to, step)) = steps.next() else { break };
            if let Step::Move = step {
                if let Some(parent) = to.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
                }
                publish(&from, &to, "partition")?;
            }
            summary.partitions_written += 1;
            summary.rows_written += p.rows;
            main.record(p);
            main.save(dir)?;
        }
        crash_point("merge-recorded");
        std::fs::remove_dir_all(path).map_err(|e| io_error(path, e))?;
        // (its lock file went with it; the lock guard only closes its handle)
    }
    Ok(summary)
}

/// `file` (a partition's file as a manifest names it) under `root`, refused unless it stays
/// inside: only plain names (no `..`, no root, no drive), and no directory on the way that is a
/// symbolic link (which could lead anywhere).
fn inside(root: &Path, file: &str) -> Result<PathBuf> {
    let relative = Path::new(file);
    let outside = |why: &str| {
        Error::invalid_path("staged", root, format!("a dataset whose files lie inside it ({file:?} {why})"))
    };
    if file.is_empty() || !relative.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(outside("is not a plain path inside it"));
    }
    let mut at = root.to_path_buf();
    for part in relative.components() {
        at.push(part);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(outside("goes through a symbolic link"));
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::super::manifest::{Origin, WalkKey};
    use super::super::{Dataset, INDEX_KEY};
    use super::*;

    fn identity(chunk: u64) -> WalkKey {
        WalkKey {
            kind: "index_range".into(),
            source: "X/tx".into(),
            decode: "raw".into(),
            chunk,
            schema: "cd".repeat(32),
            ..Default::default()
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("avax-merge-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A staged dataset holding partition `value` of `rows` rows (its file: `rows` bytes).
    fn stage(root: &Path, value: u64, rows: u64, chunk: u64) -> PathBuf {
        let dir = root.join(format!("stage-{value}"));
        let mut set = Dataset::open(&dir, INDEX_KEY, identity(chunk), None).unwrap();
        std::fs::write(set.temp_path(value).unwrap(), vec![b'x'; rows as usize]).unwrap();
        set.commit(value, value, value + rows, rows, rows == chunk).unwrap();
        dir
    }

    #[test]
    fn staged_partitions_land_in_one_manifest_a_rerun_opens() {
        let root = temp_dir("merge");
        let dir = root.join("main");
        let staged = vec![stage(&root, 20, 5, 10), stage(&root, 0, 10, 10), stage(&root, 10, 10, 10)];
        let done = merge_staged(&dir, &staged).unwrap();
        assert_eq!((done.partitions_written, done.rows_written), (3, 25));
        assert!(staged.iter().all(|s| !s.exists()));
        let main = Manifest::open(&dir, identity(10)).unwrap();
        assert_eq!(
            main.partitions.iter().map(|p| (p.value, p.rows, p.complete)).collect::<Vec<_>>(),
            vec![(0, 10, true), (10, 10, true), (20, 5, false)]
        );
        assert_eq!(complete_partitions(&dir).unwrap(), vec![(0, 0, 10, 10), (10, 10, 20, 10)]);
        // a rerun's single-process writer sees them as its own
        let set = Dataset::open(&dir, INDEX_KEY, identity(10), None).unwrap();
        assert!(set.has(0, 0, 10) && set.has(10, 10, 20) && !set.has(20, 20, 30));
        // ... and holds the lock meanwhile: a merge is refused, nothing moves
        let err = merge_staged(&dir, &[stage(&root, 20, 10, 10)]).unwrap_err();
        assert!(matches!(err, Error::DatasetLocked { .. }), "{err}");
        assert!(root.join("stage-20/chunk=20/part.parquet").exists());
        drop(set);

        // the partial partition, staged again whole, replaces the recorded one
        let done = merge_staged(&dir, &[root.join("stage-20")]).unwrap();
        assert_eq!((done.partitions_written, done.rows_written), (1, 10));
        assert_eq!(complete_partitions(&dir).unwrap().len(), 3);
        assert_eq!(std::fs::read(dir.join("chunk=20/part.parquet")).unwrap().len(), 10);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn another_walk_or_an_altered_piece_is_refused_before_anything_moves() {
        let root = temp_dir("refuse");
        let dir = root.join("main");
        merge_staged(&dir, &[stage(&root, 0, 10, 10)]).unwrap();
        let other = stage(&root, 100, 100, 100);
        let err = merge_staged(&dir, &[stage(&root, 10, 10, 10), other.clone()]).unwrap_err().to_string();
        assert!(err.contains("a directory of the same walk") && err.contains("chunk 100"), "{err}");
        assert!(root.join("stage-10/chunk=10/part.parquet").exists(), "nothing moved");
        assert_eq!(complete_partitions(&dir).unwrap().len(), 1);

        std::fs::write(root.join("stage-10/chunk=10/part.parquet"), b"changed!!!").unwrap();
        let err = merge_staged(&dir, &[root.join("stage-10")]).unwrap_err().to_string();
        assert!(err.contains("chunk=10/part.parquet is not"), "{err}");
        let err = merge_staged(&dir, &[root.join("nothing")]).unwrap_err().to_string();
        assert!(err.contains("no _avax_dataset.json"), "{err}");
        assert_eq!(merge_staged(&dir, &[]).unwrap(), DatasetSummary::default());
        assert!(complete_partitions(&root.join("none")).unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&root);
    }

    /// A staged dataset like [`stage`], read from `origin`.
    fn stage_from(root: &Path, value: u64, origin: &Origin) -> PathBuf {
        let dir = root.join(format!("stage-{value}"));
        let mut set = Dataset::open(&dir, INDEX_KEY, identity(10), Some(origin)).unwrap();
        std::fs::write(set.temp_path(value).unwrap(), vec![b'x'; 10]).unwrap();
        set.commit(value, value, value + 10, 10, true).unwrap();
        dir
    }

    #[test]
    fn a_piece_from_another_source_is_refused_naming_both_before_anything_moves() {
        let root = temp_dir("origin");
        let dir = root.join("main");
        let (a, b) = (Origin::Network { container0: "2Za".into() }, Origin::Network { container0: "2Zb".into() });
        merge_staged(&dir, &[stage_from(&root, 0, &a)]).unwrap();
        assert_eq!(read(&dir).unwrap().unwrap().origin.as_ref(), Some(&a));
        let staged = [stage_from(&root, 10, &a), stage_from(&root, 20, &b)];
        let err = merge_staged(&dir, &staged).unwrap_err().to_string();
        assert!(err.contains("come from the network whose container 0 is 2Za") && err.contains("2Zb"), "{err}");
        assert!(root.join("stage-10/chunk=10/part.parquet").exists(), "nothing moved");
        assert_eq!(complete_partitions(&dir).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_piece_naming_files_outside_itself_is_refused() {
        let root = temp_dir("outside");
        let dir = root.join("main");
        let piece = stage(&root, 0, 10, 10);
        let path = piece.join(MANIFEST);
        let text = std::fs::read_to_string(&path).unwrap();
        for (key, file) in [("..", "../x"), ("/etc", "/etc=0/part.parquet"), ("chunk", "chunk=0/../../x")] {
            let bad = text
                .replace("\"key\": \"chunk\"", &format!("\"key\": {key:?}"))
                .replace("\"chunk=0/part.parquet\"", &format!("{file:?}"));
            std::fs::write(&path, &bad).unwrap();
            let err = merge_staged(&dir, std::slice::from_ref(&piece)).unwrap_err().to_string();
            assert!(err.contains("not a manifest") && err.contains(&format!("{file:?}")), "{file}: {err}");
        }
        std::fs::write(&path, &text).unwrap();
        assert!(!dir.join(MANIFEST).exists());
        // a hive directory that is a symbolic link leads outside
        #[cfg(unix)]
        {
            let elsewhere = root.join("elsewhere");
            std::fs::rename(piece.join("chunk=0"), &elsewhere).unwrap();
            std::os::unix::fs::symlink(&elsewhere, piece.join("chunk=0")).unwrap();
            let err = merge_staged(&dir, std::slice::from_ref(&piece)).unwrap_err().to_string();
            assert!(err.contains("goes through a symbolic link"), "{err}");
            assert!(elsewhere.join("part.parquet").exists(), "nothing moved");
        }
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_merge_killed_after_moving_a_file_is_completed_by_a_rerun() {
        let root = temp_dir("rerun");
        let dir = root.join("main");
        let staged = vec![stage(&root, 0, 10, 10), stage(&root, 10, 10, 10)];
        // what a merge killed right after publishing partition 10 leaves: its file moved, not recorded
        std::fs::create_dir_all(dir.join("chunk=10")).unwrap();
        std::fs::rename(root.join("stage-10/chunk=10/part.parquet"), dir.join("chunk=10/part.parquet")).unwrap();
        let done = merge_staged(&dir, &staged).unwrap();
        assert_eq!((done.partitions_written, done.rows_written), (2, 20));
        assert_eq!(complete_partitions(&dir).unwrap(), vec![(0, 0, 10, 10), (10, 10, 20, 10)]);
        assert!(staged.iter().all(|s| !s.exists()));
        // a moved file that is not the one recorded is still refused
        let staged = vec![stage(&root, 20, 10, 10)];
        std::fs::create_dir_all(dir.join("chunk=20")).unwrap();
        std::fs::remove_file(root.join("stage-20/chunk=20/part.parquet")).unwrap();
        std::fs::write(dir.join("chunk=20/part.parquet"), b"another file").unwrap();
        let err = merge_staged(&dir, &staged).unwrap_err().to_string();
        assert!(err.contains("chunk=20/part.parquet is not"), "{err}");
        let _ = std::fs::remove_dir_all(&root);
    }
}
