//! id -> index lookups for one path.
//!
//! Containers are a function of their index, so finding an index from an id needs a reverse map.
//! - Every container the emulator serves is recorded in it on the way out (it was just hashed
//!   anyway), so an id a client got from the emulator is found at once.
//! - Any other id (unknown ones included: proving absence needs every id) makes the lookup hash
//!   every container up to the current tip, in parallel over the available cores; later lookups
//!   only extend it to the new tip. About 0.3 s per million X/tx containers (sha256 of the
//!   bytes). `C/block` ids come from the id chain ([`formats::raw_id`], no signature): about 5 s
//!   per million on two cores once the chain's checkpoints exist (each id re-encodes its block),
//!   and the first walk to a height costs ~12 µs per block, sequential.
//!
//! Keys are the first 8 bytes of the raw id (uniformly random, so they hash as themselves); a
//! hit is confirmed by regenerating that one container and comparing all 32 bytes, so a foreign
//! id sharing 8 bytes is still "not found". Memory: about 36 MB per million containers.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use avax_data_core::index::IndexPath;

use super::formats::{self, Source};

/// Hashes a u64 key that is already uniformly random as itself.
#[derive(Default)]
struct PrefixHasher(u64);

impl Hasher for PrefixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type PrefixMap = HashMap<u64, u64, BuildHasherDefault<PrefixHasher>>;

/// The map key of a raw id.
pub(crate) fn prefix(raw_id: &[u8; 32]) -> u64 {
    u64::from_le_bytes(raw_id[..8].try_into().expect("8 bytes"))
}

#[derive(Default)]
struct Built {
    /// Containers `0..built_to` are in the map.
    built_to: u64,
    map: PrefixMap,
    /// Containers whose 8-byte prefix was already taken (astronomically rare), with full ids.
    collisions: Vec<([u8; 32], u64)>,
}

impl Built {
    fn find(&self, source: Source, path: IndexPath, raw_id: &[u8; 32], tip: u64) -> Option<u64> {
        let mut buf = Vec::new();
        if let Some(&index) = self.map.get(&prefix(raw_id)) {
            if index < tip && formats::raw_id(source, path, index, &mut buf) == *raw_id {
                return Some(index);
            }
        }
        self.collisions.iter().find(|(full, index)| full == raw_id && *index < tip).map(|&(_, index)| index)
    }
}

/// The lazily built reverse map of one path.
#[derive(Default)]
pub(crate) struct IdIndex {
    built: Mutex<Built>,
}

/// Below this many new containers the map is extended on the calling thread alone.
const PARALLEL_THRESHOLD: u64 = 16_384;

fn prefixes(source: Source, path: IndexPath, start: u64, end: u64) -> Vec<u64> {
    let run = |from: u64, to: u64| {
        let mut buf = Vec::with_capacity(8_192);
        (from..to).map(|i| prefix(&formats::raw_id(source, path, i, &mut buf))).collect::<Vec<u64>>()
    };
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(16) as u64;
    let count = end - start;
    if threads < 2 || count < PARALLEL_THRESHOLD {
        return run(start, end);
    }
    let chunk = count.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let from = start + t * chunk;
                let to = (from + chunk).min(end);
                scope.spawn(move || run(from.min(end), to))
            })
            .collect();
        let mut all = Vec::with_capacity(count as usize);
        for handle in handles {
            all.extend(handle.join().expect("id index worker panicked"));
        }
        all
    })
}

impl IdIndex {
    /// Records containers just served, as `(prefix(raw_id), index)`. Never waits: while the map is
    /// being built the record is skipped (the build covers those containers anyway).
    pub(crate) fn record(&self, served: &[(u64, u64)]) {
        let Ok(mut built) = self.built.try_lock() else {
            return;
        };
        for &(key, index) in served {
            // A taken key is either this container or a collision the build will register.
            built.map.entry(key).or_insert(index);
        }
    }

    /// The index of the container whose raw id is `raw_id`, among containers `0..tip`.
    /// Blocking (may hash up to `tip` containers): call it off the async workers.
    pub(crate) fn lookup(&self, source: Source, path: IndexPath, raw_id: &[u8; 32], tip: u64) -> Option<u64> {
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(index) = built.find(source, path, raw_id, tip) {
            return Some(index);
        }
        if built.built_to >= tip {
            return None;
        }
        let start = built.built_to;
        let new = prefixes(source, path, start, tip);
        built.map.reserve(new.len());
        let mut buf = Vec::new();
        for (offset, key) in new.into_iter().enumerate() {
            let index = start + offset as u64;
            match built.map.get(&key) {
                None => {
                    built.map.insert(key, index);
                }
                Some(&existing) if existing != index => {
                    let full = formats::raw_id(source, path, index, &mut buf);
                    built.collisions.push((full, index));
                }
                Some(_) => {}
            }
        }
        built.built_to = tip;
        built.find(source, path, raw_id, tip)
    }

    /// How many containers the map covers.
    #[cfg(test)]
    pub(crate) fn built_to(&self) -> u64 {
        self.built.lock().unwrap_or_else(|e| e.into_inner()).built_to
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(seed: u64) -> Source {
        Source::new(seed, 5_000)
    }

    #[test]
    fn finds_every_container_and_nothing_else() {
        let index = IdIndex::default();
        let mut buf = Vec::new();
        for i in [0u64, 1, 500, 999] {
            let id = formats::raw_id(src(4), IndexPath::XTx, i, &mut buf);
            assert_eq!(index.lookup(src(4), IndexPath::XTx, &id, 1000), Some(i));
        }
        assert_eq!(index.built_to(), 1000);
        let beyond = formats::raw_id(src(4), IndexPath::XTx, 1000, &mut buf);
        assert_eq!(index.lookup(src(4), IndexPath::XTx, &beyond, 1000), None);
        // The tip grows: the map is extended.
        assert_eq!(index.lookup(src(4), IndexPath::XTx, &beyond, 1001), Some(1000));
        // Same 8-byte prefix, different id.
        let mut forged = formats::raw_id(src(4), IndexPath::XTx, 7, &mut buf);
        forged[31] ^= 1;
        assert_eq!(index.lookup(src(4), IndexPath::XTx, &forged, 1001), None);
        // Another seed's container is unknown here.
        let other = formats::raw_id(src(5), IndexPath::XTx, 7, &mut buf);
        assert_eq!(index.lookup(src(4), IndexPath::XTx, &other, 1001), None);
    }

    #[test]
    fn c_block_ids_are_found_before_and_after_the_proposervm_fork() {
        use crate::world::cchain::{FORK_HEIGHT, GRANITE_HEIGHT};
        let index = IdIndex::default();
        let mut buf = Vec::new();
        let tip = GRANITE_HEIGHT + 10;
        for i in [3, FORK_HEIGHT - 1, FORK_HEIGHT, 700, GRANITE_HEIGHT + 5] {
            let id = formats::fill(src(6), IndexPath::CBlock, i, &mut buf);
            assert_eq!(formats::raw_id(src(6), IndexPath::CBlock, i, &mut buf), id);
            assert_eq!(index.lookup(src(6), IndexPath::CBlock, &id, tip), Some(i));
            // The pre-fork id is the eth hash, the post-fork one is not sha256 of the bytes.
            formats::fill(src(6), IndexPath::CBlock, i, &mut buf);
            assert_ne!(id, avax_data_core::index::cb58::sha256(&buf), "{i}");
        }
        let beyond = formats::raw_id(src(6), IndexPath::CBlock, tip, &mut buf);
        assert_eq!(index.lookup(src(6), IndexPath::CBlock, &beyond, tip), None);
        assert_eq!(index.built_to(), tip);
    }

    #[test]
    fn served_containers_are_found_without_a_build() {
        let index = IdIndex::default();
        let mut buf = Vec::new();
        let id = formats::raw_id(src(4), IndexPath::XBlock, 900_000, &mut buf);
        index.record(&[(prefix(&id), 900_000)]);
        assert_eq!(index.lookup(src(4), IndexPath::XBlock, &id, 1_000_000), Some(900_000));
        assert_eq!(index.built_to(), 0, "no build was needed");
        // Beyond the tip it does not exist, whatever was recorded.
        assert_eq!(index.lookup(src(4), IndexPath::XBlock, &id, 10), None);
        assert_eq!(index.built_to(), 10);
        // A wrong record cannot produce a wrong answer.
        let other = formats::raw_id(src(4), IndexPath::XBlock, 5, &mut buf);
        let fresh = IdIndex::default();
        fresh.record(&[(prefix(&other), 6)]);
        assert_eq!(fresh.lookup(src(4), IndexPath::XBlock, &other, 10), Some(5));
    }

    #[test]
    fn parallel_and_sequential_builds_agree() {
        let n = PARALLEL_THRESHOLD + 123;
        let parallel = prefixes(src(2), IndexPath::XTx, 10, 10 + n);
        let mut buf = Vec::new();
        assert_eq!(parallel.len() as u64, n);
        for (k, &p) in parallel.iter().enumerate().step_by(997) {
            assert_eq!(p, prefix(&formats::raw_id(src(2), IndexPath::XTx, 10 + k as u64, &mut buf)));
        }
        assert_eq!(*parallel.last().unwrap(), prefix(&formats::raw_id(src(2), IndexPath::XTx, 9 + n, &mut buf)));
    }
}
