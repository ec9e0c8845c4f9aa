//! Datasets written in pieces (e.g. one partition per Dask task, each its own staged dataset
//! directory written by the single-process writer) merged into one directory with one manifest,
//! the same a single process would have written, so either writer's rerun recognises it.

use std::path::{Path, PathBuf};

use super::durable::publish;
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

/// Moves the partitions of the staged datasets `staged` into the dataset `dir` and records them
/// in its manifest (a partition of the same hive value is replaced); each staged directory is
/// removed once merged. Every staged dataset must be of the walk `dir` holds (or, for a new
/// `dir`, of one walk), with every file's sha256 as recorded: checked for all of them before
/// anything moves. The lock of `dir` is held throughout (a second writer is refused), and each
/// partition is published as a writer publishes it (fsync, rename, directory fsync, then the
/// manifest).
pub fn merge_staged(dir: &Path, staged: &[PathBuf]) -> Result<DatasetSummary> {
    let (mut pieces, mut locks) = (Vec::new(), Vec::new());
    for path in staged {
        if path.is_dir() {
            // a staged writer still at work is refused, not merged half-written
            locks.push(DatasetLock::acquire(path)?);
        }
        let manifest = read(path)?
            .ok_or_else(|| Error::invalid_path("staged", path, format!("a dataset directory (no {MANIFEST} in it)")))?;
        for p in &manifest.partitions {
            if !digest_matches(path, p) {
                return Err(Error::invalid_path(
                    "staged",
                    path,
                    format!("a dataset whose files are as recorded ({} is not)", p.file),
                ));
            }
        }
        pieces.push((path, manifest));
    }
    let Some(identity) = pieces.first().map(|(_, m)| m.identity.clone()) else {
        return Ok(DatasetSummary::default());
    };
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let _lock = DatasetLock::acquire(dir)?;
    let mut main = Manifest::open(dir, identity)?;
    for (_, m) in &pieces {
        if m.identity != main.identity {
            // the same check (and message) as a rerun of another walk into `dir`
            Manifest::open(dir, m.identity.clone())?;
        }
    }
    let mut summary = DatasetSummary::default();
    for (path, m) in pieces {
        for p in m.partitions {
            let (from, to) = (path.join(&p.file), dir.join(&p.file));
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
            }
            publish(&from, &to, "partition")?;
            summary.partitions_written += 1;
            summary.rows_written += p.rows;
            main.record(p);
            main.save(dir)?;
        }
        std::fs::remove_dir_all(path).map_err(|e| io_error(path, e))?;
        // (its lock file went with it; the lock guard only closes its handle)
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::super::manifest::Identity;
    use super::super::{Dataset, INDEX_KEY};
    use super::*;

    fn identity(chunk: u64) -> Identity {
        Identity {
            kind: "index_range".into(),
            source: "X/tx".into(),
            decode: "raw".into(),
            chunk,
            schema: "cd".repeat(32),
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
        let mut set = Dataset::open(&dir, INDEX_KEY, identity(chunk)).unwrap();
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
        let set = Dataset::open(&dir, INDEX_KEY, identity(10)).unwrap();
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
}
