//! Messages collected and hashed four at a time, grouped by their number of Keccak blocks (a
//! four-message call costs the permutations of its longest message).

use crate::{blocks, keccak256, keccak256_x4_on, Path};

/// Messages of 1, 2, 3 blocks each have a group; longer ones share the last.
const GROUPS: usize = 4;

/// Collects messages with an id each and hands out `(id, keccak256)` as groups of four fill up
/// ([`Batch::push`]) and at the end ([`Batch::finish`]). On [`Path::Scalar`] each message is
/// hashed as it is pushed. Every message pushed is hashed exactly once, whatever the path; the
/// order of the hand-outs is not the order of the pushes.
///
/// ```
/// use avax_data_keccak::{keccak256, Batch};
/// let messages: Vec<Vec<u8>> = (0..10).map(|n| vec![n as u8; 40 * n]).collect();
/// let mut hashes = vec![[0u8; 32]; messages.len()];
/// let mut batch = Batch::new();
/// for (id, message) in messages.iter().enumerate() {
///     batch.push(id, message, &mut |id, hash| hashes[id] = hash);
/// }
/// batch.finish(&mut |id, hash| hashes[id] = hash);
/// assert!(messages.iter().zip(&hashes).all(|(m, h)| keccak256(m) == *h));
/// ```
#[derive(Debug)]
pub struct Batch<'a> {
    path: Path,
    pending: [[(usize, &'a [u8]); 4]; GROUPS],
    filled: [usize; GROUPS],
}

impl Default for Batch<'_> {
    fn default() -> Self {
        Batch::new()
    }
}

impl<'a> Batch<'a> {
    /// A batch on the fastest path this CPU has ([`Path::detect`]).
    pub fn new() -> Self {
        Batch::on(Path::detect())
    }

    /// A batch on `path` (a path this CPU lacks runs as [`Path::Scalar`]).
    pub fn on(path: Path) -> Self {
        let path = if path.available() { path } else { Path::Scalar };
        Batch { path, pending: [[(0, &[][..]); 4]; GROUPS], filled: [0; GROUPS] }
    }

    /// The path this batch hashes on.
    pub fn path(&self) -> Path {
        self.path
    }

    /// Adds `message`; when its group has four, hashes them and calls `sink(id, hash)` for each.
    pub fn push(&mut self, id: usize, message: &'a [u8], sink: &mut impl FnMut(usize, [u8; 32])) {
        if self.path == Path::Scalar {
            sink(id, keccak256(message));
            return;
        }
        let group = (blocks(message.len()) - 1).min(GROUPS - 1);
        let n = self.filled[group];
        self.pending[group][n] = (id, message);
        if n + 1 < 4 {
            self.filled[group] = n + 1;
            return;
        }
        self.filled[group] = 0;
        let four = self.pending[group];
        let hashes = keccak256_x4_on(self.path, four.map(|(_, m)| m));
        for ((id, _), hash) in four.into_iter().zip(hashes) {
            sink(id, hash);
        }
    }

    /// Hashes the messages still pending (fewer than four in each group) and calls `sink(id,
    /// hash)` for each: shorter ones first, four at a time where that costs less than one at a
    /// time.
    pub fn finish(mut self, sink: &mut impl FnMut(usize, [u8; 32])) {
        let mut left = [(0usize, &[][..]); 4 * GROUPS];
        let mut n = 0;
        for group in 0..GROUPS {
            for &entry in &self.pending[group][..self.filled[group]] {
                left[n] = entry;
                n += 1;
            }
            self.filled[group] = 0;
        }
        let left = &mut left[..n];
        left.sort_by_key(|(_, m)| m.len());
        for chunk in left.chunks(4) {
            if self.four_at_once_pays(chunk) {
                let messages: [&[u8]; 4] = core::array::from_fn(|i| chunk.get(i).unwrap_or(&chunk[0]).1);
                let hashes = keccak256_x4_on(self.path, messages);
                for (&(id, _), hash) in chunk.iter().zip(hashes) {
                    sink(id, hash);
                }
            } else {
                for &(id, message) in chunk {
                    sink(id, keccak256(message));
                }
            }
        }
    }

    /// Whether one four-lane call over `chunk` (the permutations of its longest message) costs
    /// less than hashing its messages one at a time (measured: a four-lane permutation costs
    /// about 1.7 one-message permutations with AVX-512VL, 3.2 with AVX2; `benches/RESULTS.md`).
    fn four_at_once_pays(&self, chunk: &[(usize, &[u8])]) -> bool {
        let tenths = match self.path {
            Path::Scalar => return false,
            Path::Avx2 => 32,
            Path::Avx512 => 17,
        };
        let longest = chunk.iter().map(|(_, m)| blocks(m.len())).max().unwrap_or(0);
        let one_at_a_time: usize = chunk.iter().map(|(_, m)| blocks(m.len())).sum();
        longest * tenths < one_at_a_time * 10
    }
}
