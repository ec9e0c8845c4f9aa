//! The emulator's shared, thread-safe state: knobs that tests turn while it runs, the growing tip
//! of each index, counters. Handlers and the [`super::Emulator`] handle share one `Arc` of it;
//! the Data and Metrics API routers get only their part ([`DataApiState`]), so the services do
//! not depend on this module.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use avax_data_core::index::IndexPath;

use super::config::EmulatorConfig;
use super::data_api::DataApiState;
use super::faults::FaultState;
use super::formats::Source;
use super::id_index::IdIndex;

fn slot(path: IndexPath) -> usize {
    match path {
        IndexPath::CBlock => 0,
        IndexPath::PBlock => 1,
        IndexPath::XTx => 2,
        IndexPath::XBlock => 3,
        IndexPath::XVtx => 4,
    }
}

/// State shared by every handler of one emulator.
pub(crate) struct EmulatorState {
    /// Seed of the synthetic world.
    pub(crate) seed: u64,
    /// Zone the node formats timestamps in, minutes east of UTC.
    pub(crate) utc_offset_minutes: i32,
    started: Instant,
    tip_rate: f64,
    /// Containers per path before the tip-rate growth: initial + advanced.
    base_counts: [AtomicU64; 5],
    index_enabled: AtomicBool,
    latency_ns: AtomicU64,
    requests: AtomicU64,
    id_indexes: [IdIndex; 5],
    /// Initial counts of `P/block`, `X/block` and `X/tx`: their timelines end just before now.
    px_spans: [u64; 3],
    /// The Data API's world, page tokens, clock, keys and rate limits (the Metrics API serves
    /// the same world and tokens); its routers hold this `Arc`.
    pub(crate) data: Arc<DataApiState>,
    /// The fault plan, its counters and the request log.
    pub(crate) faults: FaultState,
}

impl EmulatorState {
    pub(crate) fn new(config: &EmulatorConfig) -> Self {
        let base_counts =
            IndexPath::ALL.map(|p| AtomicU64::new(config.containers.get(&p).copied().unwrap_or(config.default_count)));
        let px_spans = [IndexPath::PBlock, IndexPath::XBlock, IndexPath::XTx]
            .map(|p| config.containers.get(&p).copied().unwrap_or(config.default_count));
        let tip_rate = if config.tip_rate.is_finite() && config.tip_rate > 0.0 { config.tip_rate } else { 0.0 };
        EmulatorState {
            seed: config.seed,
            utc_offset_minutes: config.utc_offset_minutes,
            started: Instant::now(),
            tip_rate,
            base_counts,
            index_enabled: AtomicBool::new(config.index_enabled),
            latency_ns: AtomicU64::new(duration_ns(config.latency)),
            requests: AtomicU64::new(0),
            id_indexes: Default::default(),
            px_spans,
            data: Arc::new(
                DataApiState::new(
                    config.seed,
                    world_blocks(config),
                    config.data_api_require_key,
                    &config.data_api_refused_keys,
                    config.rate_limit,
                )
                .with_px_spans(px_spans),
            ),
            faults: FaultState::new(config.faults.clone()),
        }
    }

    fn grown(&self) -> u64 {
        if self.tip_rate == 0.0 {
            return 0;
        }
        // `as` saturates; floor keeps the count monotonic.
        (self.tip_rate * self.started.elapsed().as_secs_f64()).floor() as u64
    }

    /// Containers accepted so far on `path`.
    pub(crate) fn container_count(&self, path: IndexPath) -> u64 {
        self.base_counts[slot(path)].load(Ordering::Acquire).saturating_add(self.grown())
    }

    /// Accepts `n` more containers on `path`; returns the new count.
    pub(crate) fn advance(&self, path: IndexPath, n: u64) -> u64 {
        let counter = &self.base_counts[slot(path)];
        let mut current = counter.load(Ordering::Acquire);
        loop {
            let next = current.saturating_add(n);
            match counter.compare_exchange_weak(current, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return next.saturating_add(self.grown()),
                Err(seen) => current = seen,
            }
        }
    }

    /// The reverse id map of `path`.
    pub(crate) fn id_index(&self, path: IndexPath) -> &IdIndex {
        &self.id_indexes[slot(path)]
    }

    /// What the index's containers are generated from.
    pub(crate) fn source(&self) -> Source {
        Source::new(self.seed, self.data.world.c_span()).with_px_spans(self.px_spans)
    }

    pub(crate) fn index_enabled(&self) -> bool {
        self.index_enabled.load(Ordering::Acquire)
    }

    pub(crate) fn set_index_enabled(&self, enabled: bool) {
        self.index_enabled.store(enabled, Ordering::Release);
    }

    pub(crate) fn latency(&self) -> Duration {
        Duration::from_nanos(self.latency_ns.load(Ordering::Acquire))
    }

    pub(crate) fn set_latency(&self, latency: Duration) {
        self.latency_ns.store(duration_ns(latency), Ordering::Release);
    }

    /// Counts one request; returns the new total.
    pub(crate) fn count_request(&self) -> u64 {
        self.requests.fetch_add(1, Ordering::AcqRel) + 1
    }

    pub(crate) fn request_count(&self) -> u64 {
        self.requests.load(Ordering::Acquire)
    }
}

/// The Data API's blocks per chain and the C-Chain's timeline in blocks: the `C/block` index
/// holds the Data API's C-Chain (43114), so the timeline spans the larger of the two and its last
/// block is just before the world's now. With the defaults (equal) the index and the Data API end
/// on the same block; an index started longer than the Data API leaves the Data API's C-Chain
/// behind it (as an indexer lagging the node), never a container after now.
pub(crate) fn world_blocks(config: &EmulatorConfig) -> (u64, u64) {
    let c_blocks = config.containers.get(&IndexPath::CBlock).copied().unwrap_or(config.default_count);
    let blocks = config.data_blocks_per_chain.max(1);
    (blocks, blocks.max(c_blocks))
}

fn duration_ns(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}
