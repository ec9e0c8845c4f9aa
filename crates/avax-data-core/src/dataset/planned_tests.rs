use super::planned::{split, Split};
use super::tests::{identity, temp_dir};
use super::*;

/// A dataset of partitions of 100 over `[0, 500)`: whole ones for `whole`, a partial one (its
/// first 40 positions) for `partial`; the lock released when it returns.
fn dataset(name: &str, whole: &[u64], partial: &[u64]) -> PathBuf {
    let dir = temp_dir(&format!("planned-{name}"));
    let mut set = Dataset::open(&dir, INDEX_KEY, identity(100), None).unwrap();
    for &value in whole {
        std::fs::write(set.temp_path(value).unwrap(), b"rows").unwrap();
        set.commit(value, value, value + 100, 100, true).unwrap();
    }
    for &value in partial {
        std::fs::write(set.temp_path(value).unwrap(), b"some").unwrap();
        set.commit(value, value, value + 40, 40, false).unwrap();
    }
    dir
}

#[test]
fn a_missing_middle_partition_is_the_only_one_fetched() {
    let dir = dataset("middle", &[0, 100, 300, 400], &[]);
    let got = split(&dir, identity(100), 0, 500, 100).unwrap();
    assert_eq!(got.held, vec![(0, 0, 100), (100, 100, 200), (300, 300, 400), (400, 400, 500)]);
    assert_eq!(got.fetched, vec![(200, 200, 300)]);
    assert_eq!((got.held_positions(), got.fetched_positions(), got.calls(30)), (400, 100, 4));
}

#[test]
fn partial_altered_and_unrecorded_partitions_are_fetched_whole() {
    let dir = dataset("mixed", &[0, 100], &[200]);
    // An altered file (another size) is written again by a rerun: the plan fetches it.
    std::fs::write(dir.join("chunk=100/part.parquet"), b"changed bytes").unwrap();
    let got = split(&dir, identity(100), 50, 450, 100).unwrap();
    assert_eq!(got.held, vec![(0, 50, 100)]);
    assert_eq!(got.fetched, vec![(100, 100, 200), (200, 200, 300), (300, 300, 400), (400, 400, 450)]);
    // Each partition is walked on its own: 100 in batches of 30 is 4 calls, 50 is 2.
    assert_eq!(got.calls(30), 4 * 3 + 2);
    assert_eq!(got.held_positions() + got.fetched_positions(), 400);
}

#[test]
fn no_dataset_fetches_everything_and_another_walk_is_refused() {
    let dir = temp_dir("planned-none");
    let got = split(&dir, identity(100), 0, 250, 100).unwrap();
    let fetched = vec![(0, 0, 100), (100, 100, 200), (200, 200, 250)];
    assert_eq!(got, Split { held: vec![], fetched, held_past_end: None });
    assert!(!dir.exists(), "a plan creates nothing");
    let other = dataset("other", &[0], &[]);
    let err = split(&other, identity(50), 0, 100, 50).unwrap_err().to_string();
    assert!(err.contains("same walk"), "{err}");
    assert!(
        matches!(split(&other, identity(100), 0, 10, 0), Err(Error::InvalidArgument { ref param, .. }) if param == "chunk")
    );
}

#[test]
fn a_tip_below_what_the_dataset_holds_skips_the_held_and_says_what_lies_past_it() {
    // written to 500 from one node; the tip a lagging node reads ends the walk at 250
    let dir = dataset("behind", &[0, 100, 200, 300, 400], &[]);
    let got = split(&dir, identity(100), 0, 250, 100).unwrap();
    assert_eq!(got.held, vec![(0, 0, 100), (100, 100, 200), (200, 200, 250)]);
    assert!(got.fetched.is_empty(), "nothing is fetched again, nor cut shorter");
    assert_eq!(got.held_past_end, Some(500));
    assert_eq!(split(&dir, identity(100), 0, 500, 100).unwrap().held_past_end, None);
    assert_eq!(split(&dir, identity(100), 0, 600, 100).unwrap().held_past_end, None);
}
