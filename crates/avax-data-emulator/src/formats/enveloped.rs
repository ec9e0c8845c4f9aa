//! A linear chain of inner blocks served as an index: raw inner blocks below the proposervm fork
//! height, proposervm envelopes from it on, with the id chain in a [`ChainCache`]. `C/block` uses
//! it ([`crate::world::cchain::EvmChain`]); the P- and X-chain encoders plug in by implementing
//! [`InnerChain`].
//!
//! Ids: below the fork a container's id is its inner id; from the fork on it is the envelope's
//! proposervm id, and the envelope's parent is the previous container's id (so the first
//! envelope's parent is the last raw block's inner id). The inner block's own parent is always
//! the previous inner id.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::chain_cache::ChainCache;
use super::proposervm::{self, Kind};

/// Heights per cached run of served containers.
const SERVED_RUN: u64 = 64;
/// Runs kept (least recently used dropped): 4,096 containers, about 16 MB of `C/block`.
const SERVED_RUNS_KEPT: usize = 64;

/// One run of built containers: `(container id, bytes)` per height.
type Run = Arc<Vec<([u8; 32], Box<[u8]>)>>;

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
pub type Ids = ([u8; 32], [u8; 32]);

/// An [`InnerChain`] with its id chain cached.
pub struct EnvelopedChain<C> {
    inner: C,
    ids: ChainCache<Ids>,
    /// Recently served runs of containers, most recent last: a container is built (and signed)
    /// once and served as bytes from then on while its run is kept.
    served: Mutex<VecDeque<(u64, Run)>>,
}

impl<C: InnerChain> EnvelopedChain<C> {
    pub fn new(inner: C) -> Self {
        let mut buf = Vec::new();
        let genesis = step(&inner, 0, &([0; 32], [0; 32]), &mut buf);
        EnvelopedChain { inner, ids: ChainCache::new(genesis), served: Mutex::new(VecDeque::new()) }
    }

    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// `(inner id, container id)` at `height` (amortised one block per height, see
    /// [`ChainCache`]).
    pub fn ids(&self, height: u64) -> Ids {
        let buf = std::cell::RefCell::new(Vec::with_capacity(4096));
        self.ids.state(height, |h, parent| step(&self.inner, h, parent, &mut buf.borrow_mut()))
    }

    /// Writes container `height` into `buf` (cleared first); returns its id. Containers are
    /// built (a signed envelope costs one signature) a run of [`SERVED_RUN`] heights at a time
    /// and kept in a bounded least-recently-used cache, so a walk builds each container once.
    pub fn container(&self, height: u64, buf: &mut Vec<u8>) -> [u8; 32] {
        let run = self.run(height / SERVED_RUN);
        let (id, bytes) = &run[(height % SERVED_RUN) as usize];
        buf.clear();
        buf.extend_from_slice(bytes);
        *id
    }

    /// The containers of run `k`, from the cache or built (outside the lock).
    fn run(&self, k: u64) -> Run {
        {
            let mut served = self.served.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = served.iter().position(|(key, _)| *key == k) {
                let entry = served.remove(at).expect("a found position");
                let run = entry.1.clone();
                served.push_back(entry);
                return run;
            }
        }
        let base = k * SERVED_RUN;
        let mut parent = base.checked_sub(1).map_or(([0; 32], [0; 32]), |p| self.ids(p));
        let mut run = Vec::with_capacity(SERVED_RUN as usize);
        let mut buf = Vec::with_capacity(4096);
        for height in base..base + SERVED_RUN {
            parent = self.build(height, &parent, &mut buf);
            run.push((parent.1, buf.as_slice().into()));
        }
        let run = Arc::new(run);
        let mut served = self.served.lock().unwrap_or_else(|e| e.into_inner());
        if !served.iter().any(|(key, _)| *key == k) {
            if served.len() >= SERVED_RUNS_KEPT {
                served.pop_front();
            }
            served.push_back((k, run.clone()));
        }
        run
    }

    /// Builds container `height` whose parent has `parent` ids into `buf` (cleared first);
    /// returns its own ids.
    fn build(&self, height: u64, parent: &Ids, buf: &mut Vec<u8>) -> Ids {
        buf.clear();
        if height < self.inner.fork_height() {
            let id = self.inner.inner_block(height, &parent.0, buf);
            return (id, id);
        }
        let mut inner = Vec::with_capacity(4096);
        let inner_id = self.inner.inner_block(height, &parent.0, &mut inner);
        let (kind, time, p_chain_height, signed) = self.inner.envelope(height);
        let id = proposervm::wrap_envelope(
            buf,
            kind,
            &self.inner.chain_id(),
            &parent.1,
            time,
            p_chain_height,
            &inner,
            signed,
        );
        (inner_id, id)
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
}
