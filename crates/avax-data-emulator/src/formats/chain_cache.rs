//! A lazily filled table of a chain's state every [`CHECKPOINT_EVERY`] heights, so that state(h)
//! of a hash chain (each block's id depends on its parent's) costs O(K) from the nearest
//! checkpoint below instead of O(h), and a million-block chain keeps only ~4,000 states.
//!
//! Generic over the state `S` and the step `next(height, &state_of_parent) -> state`, so the
//! coreth hash chain, the proposervm id chains and the P-/X-chain block chains share it.

use std::sync::{Arc, Mutex};

/// Distance between two checkpoints.
pub const CHECKPOINT_EVERY: u64 = 256;

/// Whole segments (all states of `CHECKPOINT_EVERY` consecutive heights) kept for revisits.
const RECENT_SEGMENTS: usize = 4;

/// Checkpoints of one chain. `state(0)` is `genesis`; `state(h) = step(h, &state(h - 1))`.
///
/// Besides the table, the last [`RECENT_SEGMENTS`] segments touched are kept whole, so walking
/// a chain in either direction costs one step per height (amortised).
pub struct ChainCache<S> {
    genesis: S,
    /// `table[k]` = state at height `k * CHECKPOINT_EVERY`.
    table: Mutex<Vec<S>>,
    /// `(k, states of heights k*K .. (k+1)*K)`, most recent last.
    recent: Mutex<Vec<(u64, Arc<Vec<S>>)>>,
}

impl<S: Clone> ChainCache<S> {
    /// A chain whose height-0 state is `genesis`.
    pub fn new(genesis: S) -> Self {
        ChainCache { table: Mutex::new(vec![genesis.clone()]), genesis, recent: Mutex::new(Vec::new()) }
    }

    /// The nearest checkpoint at or below `height`, filling the table up to it.
    fn checkpoint(&self, height: u64, step: &impl Fn(u64, &S) -> S) -> (u64, S) {
        let k = (height / CHECKPOINT_EVERY) as usize;
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        while table.len() <= k {
            let base = (table.len() as u64 - 1) * CHECKPOINT_EVERY;
            let mut state = table.last().expect("genesis").clone();
            for h in base + 1..=base + CHECKPOINT_EVERY {
                state = step(h, &state);
            }
            table.push(state);
        }
        (k as u64 * CHECKPOINT_EVERY, table[k].clone())
    }

    /// All states of segment `k` (heights `k*K .. (k+1)*K`), from the recent ones or computed.
    fn segment(&self, k: u64, step: &impl Fn(u64, &S) -> S) -> Arc<Vec<S>> {
        {
            let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = recent.iter().position(|(key, _)| *key == k) {
                let entry = recent.remove(at);
                let states = entry.1.clone();
                recent.push(entry);
                return states;
            }
        }
        let (base, mut state) = self.checkpoint(k * CHECKPOINT_EVERY, step);
        let mut states = Vec::with_capacity(CHECKPOINT_EVERY as usize);
        states.push(state.clone());
        for h in base + 1..base + CHECKPOINT_EVERY {
            state = step(h, &state);
            states.push(state.clone());
        }
        let states = Arc::new(states);
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        if recent.len() >= RECENT_SEGMENTS {
            recent.remove(0);
        }
        recent.push((k, states.clone()));
        states
    }

    /// State at `height`.
    pub fn state(&self, height: u64, step: impl Fn(u64, &S) -> S) -> S {
        if height == 0 {
            return self.genesis.clone();
        }
        let k = height / CHECKPOINT_EVERY;
        self.segment(k, &step)[(height - k * CHECKPOINT_EVERY) as usize].clone()
    }

    /// States at heights `from..=to` (one walk from the checkpoint below `from`).
    pub fn states(&self, from: u64, to: u64, step: impl Fn(u64, &S) -> S) -> Vec<S> {
        let mut out = Vec::with_capacity(to.saturating_sub(from) as usize + 1);
        if from > to {
            return out;
        }
        let mut state = self.state(from, &step);
        out.push(state.clone());
        for h in from + 1..=to {
            state = step(h, &state);
            out.push(state.clone());
        }
        out
    }

    /// Checkpoints held (memory use is this times the size of `S`).
    pub fn checkpoints(&self) -> usize {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(h: u64, s: &u64) -> u64 {
        s.wrapping_mul(6364136223846793005).wrapping_add(h)
    }

    #[test]
    fn states_equal_the_sequential_walk_and_the_table_stays_small() {
        let cache = ChainCache::new(7u64);
        let mut walk = vec![7u64];
        for h in 1..3_000 {
            walk.push(step(h, &walk[h as usize - 1]));
        }
        for h in [2_999u64, 0, 1, 255, 256, 257, 1_000, 512] {
            assert_eq!(cache.state(h, step), walk[h as usize], "{h}");
        }
        assert_eq!(cache.states(250, 700, step), walk[250..=700]);
        assert!(cache.states(5, 4, step).is_empty());
        assert_eq!(cache.checkpoints(), 3_000 / 256 + 1);
    }
}
