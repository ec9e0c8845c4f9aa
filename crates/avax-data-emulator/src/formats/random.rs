//! The emulator's deterministic synthetic index: container `i` of a path is a pure function of
//! `(seed, path, i)`, computed on demand in O(1). Nothing is stored, so a million-container index
//! costs no memory (only id lookups keep a map, see `id_index`).
//!
//! `C/block` containers are real coreth blocks and proposervm envelopes of the Data API's C-chain
//! ([`crate::world::cchain`]); [`container`] and [`container_in`] serve them. The rest of this
//! module is the random generator the other paths still use (its `C/block` profile is unused):
//!
//! - **bytes**: two zero bytes (a codec version, as Avalanche containers start) followed by a
//!   ChaCha8 key stream keyed by `(seed, path, i)`; the length is drawn per container from a range
//!   typical of the path (X/tx 250–600, P/block, X/block and X/vtx 200–1500, C/block 600–6000).
//! - **id**: `cb58(sha256(bytes))`, as the node computes it.
//! - **timestamp**: `genesis(path) + i * step(path) + jitter(i)` with `0 <= jitter < step`, so
//!   timestamps strictly increase with `i`; nanosecond resolution.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use avax_data_core::index::cb58;
use avax_data_core::index::{Container, IndexPath};

use super::Source;
use crate::timefmt;

/// 2020-09-21T00:00:00Z (Avalanche mainnet launch), in Unix nanoseconds.
pub const GENESIS_UNIX_NS: i64 = 1_600_646_400 * 1_000_000_000;

/// How the containers of one path look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathProfile {
    /// Smallest container, in bytes.
    pub min_len: usize,
    /// Largest container, in bytes (inclusive).
    pub max_len: usize,
    /// Acceptance time of container 0 before its jitter, Unix nanoseconds.
    pub genesis_ns: i64,
    /// Nominal time between two containers, nanoseconds.
    pub step_ns: i64,
    /// Distinguishes the paths in every derivation.
    tag: u64,
}

const SEC: i64 = 1_000_000_000;

/// The profile of `path`.
pub fn profile(path: IndexPath) -> PathProfile {
    let (min_len, max_len, offset_s, step_ns, tag) = match path {
        IndexPath::CBlock => (600, 6000, 3_600, 2 * SEC, 0x43_2f_62_6c_6f_63_6b),
        IndexPath::PBlock => (200, 1500, 0, 3 * SEC, 0x50_2f_62_6c_6f_63_6b),
        IndexPath::XTx => (250, 600, 120, 3 * SEC / 2, 0x58_2f_74_78),
        IndexPath::XBlock => (200, 1500, 600, 5 * SEC / 2, 0x58_2f_62_6c_6f_63_6b),
        IndexPath::XVtx => (200, 1500, 60, 4 * SEC, 0x58_2f_76_74_78),
    };
    PathProfile { min_len, max_len, genesis_ns: GENESIS_UNIX_NS + offset_s * SEC, step_ns, tag }
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A well-mixed 64-bit value for `(seed, path, index, purpose)`.
fn derive(seed: u64, tag: u64, index: u64, purpose: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(seed ^ purpose) ^ tag) ^ index)
}

const PURPOSE_LEN: u64 = 0x006c_656e;
const PURPOSE_TIME: u64 = 0x7469_6d65;

/// Length in bytes of container `index` (without the checksum).
pub fn len_of(seed: u64, path: IndexPath, index: u64) -> usize {
    let p = profile(path);
    let span = (p.max_len - p.min_len + 1) as u64;
    p.min_len + (derive(seed, p.tag, index, PURPOSE_LEN) % span) as usize
}

/// Acceptance time of container `index`, Unix nanoseconds (UTC). Strictly increasing in `index`.
pub fn timestamp_ns(seed: u64, path: IndexPath, index: u64) -> i64 {
    let p = profile(path);
    let jitter = (derive(seed, p.tag, index, PURPOSE_TIME) % p.step_ns as u64) as i64;
    let index = i64::try_from(index).unwrap_or(i64::MAX);
    p.genesis_ns.saturating_add(index.saturating_mul(p.step_ns)).saturating_add(jitter)
}

/// Writes the bytes of container `index` into `buf` (cleared first; its allocation is reused).
pub fn fill_bytes(seed: u64, path: IndexPath, index: u64, buf: &mut Vec<u8>) {
    let p = profile(path);
    let len = len_of(seed, path, index);
    buf.clear();
    buf.resize(len, 0);
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&p.tag.to_le_bytes());
    key[16..24].copy_from_slice(&index.to_le_bytes());
    key[24..].copy_from_slice(b"avaxdata");
    ChaCha8Rng::from_seed(key).fill_bytes(&mut buf[2..]);
}

/// sha256 of container `index`'s bytes: the raw 32 bytes behind its CB58 id (and, in its last
/// four bytes, the checksum of its hex encoding). `buf` is scratch space.
pub fn raw_id(seed: u64, path: IndexPath, index: u64, buf: &mut Vec<u8>) -> [u8; 32] {
    fill_bytes(seed, path, index, buf);
    cb58::sha256(buf)
}

/// The Data API's default blocks per chain ([`crate::EmulatorConfig`]'s default), which the
/// seed-only [`container`] assumes.
pub const DEFAULT_DATA_BLOCKS: u64 = crate::defaults::DATA_BLOCKS_PER_CHAIN;

/// Container `index` of `path` in the world of `seed` with the default Data API size, and its
/// timestamp exactly as the node serves it (RFC3339Nano in a zone `utc_offset_minutes` east of
/// UTC). For another `data_blocks_per_chain` use [`container_in`].
pub fn container(seed: u64, path: IndexPath, index: u64, utc_offset_minutes: i32) -> (Container, String) {
    container_in(Source::new(seed, DEFAULT_DATA_BLOCKS), path, index, utc_offset_minutes)
}

/// Container `index` of `path` in the world of `source`, and its timestamp as the node serves it.
pub fn container_in(source: Source, path: IndexPath, index: u64, utc_offset_minutes: i32) -> (Container, String) {
    let mut bytes = Vec::new();
    let raw = super::fill(source, path, index, &mut bytes);
    let timestamp_ns = super::timestamp_ns(source, path, index);
    let container = Container { id: cb58::encode(&raw), bytes, timestamp_ns, index, encoding: "hex".to_string() };
    (container, timefmt::rfc3339_nano(timestamp_ns, utc_offset_minutes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_inputs_same_container_and_any_change_gives_another() {
        let (a, ta) = container(7, IndexPath::CBlock, 41, 0);
        let (b, tb) = container(7, IndexPath::CBlock, 41, 0);
        assert_eq!(a, b);
        assert_eq!(ta, tb);
        assert_ne!(container(8, IndexPath::CBlock, 41, 0).0.id, a.id);
        assert_ne!(container(7, IndexPath::CBlock, 42, 0).0.id, a.id);
        assert_ne!(container(7, IndexPath::PBlock, 41, 0).0.id, a.id);
    }

    #[test]
    fn vertex_ids_are_cb58_of_sha256_of_bytes_and_sizes_fit_the_path() {
        for path in [IndexPath::XVtx] {
            let p = profile(path);
            let mut lens = Vec::new();
            for i in 0..300 {
                let (c, _) = container(1, path, i, 0);
                assert_eq!(c.id, cb58::container_id(&c.bytes));
                assert_eq!(c.index, i);
                assert!((p.min_len..=p.max_len).contains(&c.bytes.len()), "{path} {}", c.bytes.len());
                assert_eq!(&c.bytes[..2], &[0, 0]);
                lens.push(c.bytes.len());
            }
            lens.sort_unstable();
            lens.dedup();
            assert!(lens.len() > 100, "lengths vary");
        }
    }

    #[test]
    fn timestamps_strictly_increase_and_keep_nanoseconds() {
        for path in IndexPath::ALL {
            let mut last = i64::MIN;
            let mut with_fraction = 0;
            for i in 0..5_000 {
                let t = timestamp_ns(3, path, i);
                assert!(t > last, "{path} {i}");
                last = t;
                with_fraction += i64::from(t % 1_000 != 0);
            }
            assert!(with_fraction > 4_900);
        }
        let first = timestamp_ns(3, IndexPath::PBlock, 0);
        assert!((GENESIS_UNIX_NS..GENESIS_UNIX_NS + 3 * SEC).contains(&first), "{first}");
    }

    #[test]
    fn timestamp_text_is_go_rfc3339_nano_in_the_node_offset() {
        let (c, text) = container(5, IndexPath::XTx, 10, -7 * 60);
        assert!(text.ends_with("-07:00"), "{text}");
        let parsed = avax_data_core::index::container::parse_timestamp_ns(&text).unwrap();
        assert_eq!(parsed, c.timestamp_ns);
        let (_, utc) = container(5, IndexPath::XTx, 10, 0);
        assert!(utc.ends_with('Z') && utc.starts_with("2020-09-21T"), "{utc}");
    }

    #[test]
    fn fill_bytes_reuses_the_buffer() {
        let mut buf = Vec::with_capacity(8000);
        let ptr = buf.as_ptr();
        for i in 0..50 {
            fill_bytes(9, IndexPath::XVtx, i, &mut buf);
        }
        assert_eq!(buf.as_ptr(), ptr);
        assert_eq!(buf, container(9, IndexPath::XVtx, 49, 0).0.bytes);
    }
}
