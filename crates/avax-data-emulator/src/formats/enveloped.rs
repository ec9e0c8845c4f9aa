//! A linear chain of inner blocks served as an index: raw inner blocks below the proposervm fork
//! height, proposervm envelopes from it on, with the id chain in a [`ChainCache`]. `C/block` uses
//! it ([`crate::world::cchain::EvmChain`]); the P- and X-chain encoders plug in by implementing
//! [`InnerChain`].
//!
//! Ids: below the fork a container's id is its inner id; from the fork on it is the envelope's
//! proposervm id, and the envelope's parent is the previous container's id (so the first
//! envelope's parent is the last raw block's inner id). The inner block's own parent is always
//! the previous inner id.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use avax_data_core::index::cb58;

use super::chain_cache::ChainCache;
use super::proposervm::{self, Kind};
use super::served::{Entry, Run, Served, ServedRuns, RUN};

/// The inner VM's chain: its blocks and how each is enveloped.
pub trait InnerChain {
    /// Appends the inner block at `height` whose parent's inner id is `parent` (zero for
    /// height 0); returns the block's inner id (coreth: eth hash; platformvm/avm: sha256).
    fn inner_block(&self, height: u64, parent: &[u8; 32], out: &mut Vec<u8>) -> [u8; 32];
    /// First height served in a proposervm envelope.
    fn fork_height(&self) -> u64;
    /// The blockchain id envelopes are signed for.
    fn chain_id(&self) -> [u8; 32];
    /// Envelope of post-fork height `height`: its kind, unix time (s), P-chain height, signed.
    fn envelope(&self, height: u64) -> (Kind, i64, u64, bool);
}

/// `(inner id, container id)` of one height.
pub use super::served::Ids;

/// The node's checksum of a container's bytes.
type Checksum = [u8; cb58::CHECKSUM_LEN];

/// An [`InnerChain`] with its id chain cached.
pub struct EnvelopedChain<C> {
    inner: C,
    ids: ChainCache<Ids>,
    /// Built containers: a container is built (and signed) once and served as bytes from then
    /// on while its run is kept.
    served: ServedRuns,
    /// Blocks encoded so far, for the id chain and for containers (what walks have cost).
    encoded: AtomicU64,
}

impl<C: InnerChain> EnvelopedChain<C> {
    pub fn new(inner: C) -> Self {
        let mut buf = Vec::new();
        let genesis = step(&inner, 0, &([0; 32], [0; 32]), &mut buf);
        EnvelopedChain {
            inner,
            ids: ChainCache::new(genesis),
            served: ServedRuns::default(),
            encoded: AtomicU64::new(1),
        }
    }

    /// How many inner blocks this chain has encoded (the genesis, the id chain's steps, built
    /// containers): a walk's cost, which a test holds to one block per container walked.
    pub fn blocks_encoded(&self) -> u64 {
        self.encoded.load(Ordering::Relaxed)
    }

    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// `(inner id, container id)` at `height` (amortised one block per height, see
    /// [`ChainCache`]).
    pub fn ids(&self, height: u64) -> Ids {
        let buf = std::cell::RefCell::new(Vec::with_capacity(4096));
        self.ids.state(height, |h, parent| {
            self.encoded.fetch_add(1, Ordering::Relaxed);
            step(&self.inner, h, parent, &mut buf.borrow_mut())
        })
    }

    /// Writes container `height` into `buf` (cleared first); returns its id (see
    /// [`EnvelopedChain::served`]).
    pub fn container(&self, height: u64, buf: &mut Vec<u8>) -> [u8; 32] {
        let served = self.served(height);
        buf.clear();
        buf.extend_from_slice(&served.entry().bytes);
        served.entry().ids.1
    }

    /// Container `height` with its checksum and CB58 id. Containers are built (a signed envelope
    /// costs one signature) a run of [`RUN`] heights at a time and kept in a bounded
    /// least-recently-used cache ([`ServedRuns`]), so a walk builds each container once.
    pub fn served(&self, height: u64) -> Served {
        Served::new(self.run(height / RUN), (height % RUN) as usize)
    }

    /// Whether container `height` is made without walking the id chain: its run is kept, or the
    /// run before it is (a walk's next run), or it is in the first run. A range split across
    /// threads only at such heights builds no container twice; a part starting anywhere else
    /// would rebuild the containers before it from the last checkpoint of the id chain.
    pub fn starts_cheaply(&self, height: u64) -> bool {
        let k = height / RUN;
        k == 0 || self.served.contains(k) || self.served.contains(k - 1)
    }

    /// The containers of run `k`, from the cache or built (outside the lock). The parent of the
    /// run's first height comes from run `k - 1` when that is kept (a walk's previous run), so
    /// a walk does not encode its blocks a second time for the id chain.
    fn run(&self, k: u64) -> Run {
        if let Some(run) = self.served.get(k) {
            return run;
        }
        let base = k * RUN;
        let mut parent = match base.checked_sub(1) {
            None => ([0; 32], [0; 32]),
            Some(p) => match self.served.get(k - 1) {
                Some(previous) => previous.last().expect("a full run").ids,
                None => self.ids(p),
            },
        };
        let mut run = Vec::with_capacity(RUN as usize);
        let (mut buf, mut inner) = (Vec::with_capacity(16 << 10), Vec::with_capacity(16 << 10));
        for height in base..base + RUN {
            let checksum;
            (parent, checksum) = self.build(height, &parent, &mut buf, &mut inner);
            run.push(Entry::with_checksum(parent, &buf, checksum));
        }
        let run = Arc::new(run);
        self.served.insert(k, run.clone());
        run
    }

    /// Builds container `height` whose parent has `parent` ids into `buf` (cleared first, as is
    /// `inner`, the scratch for the inner block of an envelope); returns its own ids and the
    /// checksum of its bytes.
    fn build(&self, height: u64, parent: &Ids, buf: &mut Vec<u8>, inner: &mut Vec<u8>) -> (Ids, Checksum) {
        self.encoded.fetch_add(1, Ordering::Relaxed);
        buf.clear();
        if height < self.inner.fork_height() {
            let id = self.inner.inner_block(height, &parent.0, buf);
            return ((id, id), cb58::checksum(buf));
        }
        inner.clear();
        let inner_id = self.inner.inner_block(height, &parent.0, inner);
        let (kind, time, p_chain_height, signed) = self.inner.envelope(height);
        let wrapped = proposervm::wrap_envelope(
            buf,
            kind,
            &self.inner.chain_id(),
            &parent.1,
            time,
            p_chain_height,
            inner,
            signed,
        );
        ((inner_id, wrapped.id), wrapped.checksum)
    }
}

fn step<C: InnerChain>(inner: &C, height: u64, parent: &Ids, buf: &mut Vec<u8>) -> Ids {
    buf.clear();
    let inner_id = inner.inner_block(height, &parent.0, buf);
    if height < inner.fork_height() {
        return (inner_id, inner_id);
    }
    let (kind, time, p_chain_height, signed) = inner.envelope(height);
    (inner_id, proposervm::envelope_id(kind, &parent.1, time, p_chain_height, buf, signed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// A toy platformvm-like chain: inner block = parent ‖ height, id = sha256.
    struct Toy;

    impl InnerChain for Toy {
        fn inner_block(&self, height: u64, parent: &[u8; 32], out: &mut Vec<u8>) -> [u8; 32] {
            let start = out.len();
            out.extend_from_slice(parent);
            out.extend_from_slice(&height.to_be_bytes());
            Sha256::digest(&out[start..]).into()
        }
        fn fork_height(&self) -> u64 {
            5
        }
        fn chain_id(&self) -> [u8; 32] {
            [1; 32]
        }
        fn envelope(&self, height: u64) -> (Kind, i64, u64, bool) {
            (Kind::Stateless, 1_700_000_000 + height as i64, 10, height.is_multiple_of(2))
        }
    }

    #[test]
    fn ids_chain_through_the_fork_and_match_the_containers() {
        let chain = EnvelopedChain::new(Toy);
        let mut buf = Vec::new();
        let mut prev: Ids = ([0; 32], [0; 32]);
        for h in 0..600 {
            let id = chain.container(h, &mut buf);
            let ids = chain.ids(h);
            assert_eq!(ids.1, id);
            if h < 5 {
                assert_eq!(&buf[..32], &prev.0);
                assert_eq!(id, ids.0);
            } else {
                let (parent, _, inner, _, parsed) = proposervm::tests::parse(&buf);
                assert_eq!((parent, parsed), (prev.1, id));
                assert_eq!(&inner[..32], &prev.0, "the inner parent is the previous inner id");
            }
            prev = ids;
        }
    }

    #[test]
    fn only_heights_after_built_runs_start_cheaply() {
        let chain = EnvelopedChain::new(Toy);
        assert!(chain.starts_cheaply(0) && chain.starts_cheaply(RUN - 1), "the first run needs no id chain");
        assert!(!chain.starts_cheaply(RUN) && !chain.starts_cheaply(5 * RUN + 3));
        chain.served(5 * RUN + 3);
        for h in [5 * RUN, 6 * RUN - 1, 6 * RUN, 7 * RUN - 1] {
            assert!(chain.starts_cheaply(h), "{h}: in or right after the built run 5");
        }
        assert!(!chain.starts_cheaply(7 * RUN) && !chain.starts_cheaply(5 * RUN - 1));
    }

    #[test]
    fn runs_built_in_any_order_chain_the_same_ids_and_bytes() {
        // Forward: each run's parent comes from the kept run before it. Backward: from the id
        // chain. Both must give the containers of a fresh chain asked one height at a time.
        let (forward, backward, single) =
            (EnvelopedChain::new(Toy), EnvelopedChain::new(Toy), EnvelopedChain::new(Toy));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let heights: Vec<u64> = (0..4 * RUN + 3).collect();
        let walked: Vec<_> = heights.iter().map(|&h| (forward.container(h, &mut a), a.clone())).collect();
        for &h in heights.iter().rev() {
            assert_eq!((backward.container(h, &mut b), b.clone()), walked[h as usize], "{h}");
        }
        for h in [RUN * 3 + 1, 2, RUN] {
            let served = single.served(h);
            assert_eq!(served.entry().ids, forward.ids(h));
            assert_eq!(&*served.entry().bytes, walked[h as usize].1.as_slice());
            assert_eq!(served.entry().checksum, avax_data_core::index::cb58::checksum(&walked[h as usize].1));
        }
    }
}
