//! Metric time series computed from the Data API's world: bucketing and the 17 metrics.
//!
//! Per chain, one pass over its blocks builds **hour buckets** (txs, gas, fees, distinct
//! addresses / senders / deployers as bitsets over the shared address pool, contract creations,
//! gas-price sum and max, per-block max GPS/TPS, first and last block time); day, week and month
//! buckets are unions of hour buckets (hours nest in all three). Buckets are cached per
//! `(seed, blocks_per_chain, chain, interval)` for the life of the process (the world is a pure
//! function of the first two), so only the first request of a chain pays for the pass.
//!
//! Buckets: every bucket from the one holding the chain's first block through the one holding its
//! last block (consecutive; a bucket without blocks would report zeros — with 2–6 s block gaps
//! none is empty). Timestamps: Unix seconds on the hour; day = 00:00 UTC; week = Monday 00:00 UTC;
//! month = the 1st 00:00 UTC.
//!
//! Definitions (per chain): `txCount`, `gasUsed`, `feesPaid` (sum of `gas_used * gas_price`, wei),
//! `contracts` (contract-creation transactions), sums over the bucket; `activeAddresses`
//! (distinct `from` and `to` in the address pool: the token contract an ERC-20 transfer calls is
//! not counted), `activeSenders` (distinct `from`), `deployers` (distinct `from` of
//! creations); `cumulative*` = the same from genesis through the end of the day (running total /
//! running union); `avgGps`/`avgTps` = the day's gas / txs over the seconds between the last block
//! of the previous day and the last block of this day (the first block of the day for the
//! chain's first day; 0 when that span is 0); `maxGps`/`maxTps` = max over the day's blocks of
//! gas / txs over the seconds since the previous block (block 0 has no previous block and is
//! skipped); `avgGasPrice` = mean of the transactions' gas prices (0 without transactions),
//! `maxGasPrice` = their max. Block times are the blocks' millisecond timestamps.
//!
//! Aggregates (`total`, `mainnet`, `testnet`): buckets are the union of the chains' buckets; sums
//! add up (counts, gas, fees, contracts, cumulative tx count and contracts, and also `avgGps` /
//! `avgTps`: the network's throughput is the sum of its chains'); distinct-address metrics count
//! distinct addresses over the union of the chains (the address pool is shared, so an address
//! active on two chains counts once); `maxGps` / `maxTps` / `maxGasPrice` are the max over the
//! chains; `avgGasPrice` is the mean over all the chains' transactions.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use super::past;
use crate::world::{base_fee, chain, chains, tx_count, tx_facts, Chain, DataWorld, Network, TxFacts};

pub use super::metric::Metric;

/// `timeInterval`: the core's, so that the emulator cuts buckets by the rule the client plans with.
pub use avax_data_core::metrics::params::Interval;

/// The `chainId` of a metrics request: one chain, every chain, or one network's chains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChainSelector {
    /// An EVM chain id of the world.
    Chain(u64),
    /// `total`: every chain.
    Total,
    /// `mainnet` or `testnet` (= fuji).
    Network(Network),
}

impl ChainSelector {
    /// `total`, `mainnet`, `testnet` or a decimal EVM chain id (of any chain; see
    /// [`ChainSelector::chains`]); `None` for other text.
    pub fn parse(text: &str) -> Option<ChainSelector> {
        match text {
            "total" => Some(ChainSelector::Total),
            "mainnet" => Some(ChainSelector::Network(Network::Mainnet)),
            "testnet" => Some(ChainSelector::Network(Network::Fuji)),
            t if !t.is_empty() && t.len() <= 20 && t.bytes().all(|b| b.is_ascii_digit()) => {
                t.parse().ok().map(ChainSelector::Chain)
            }
            _ => None,
        }
    }

    /// The chains selected (empty for an EVM chain id the world does not have).
    pub fn chains(self) -> Vec<&'static Chain> {
        match self {
            ChainSelector::Chain(id) => chain(id).into_iter().collect(),
            ChainSelector::Total => chains().iter().collect(),
            ChainSelector::Network(n) => chains().iter().filter(|c| c.network == n).collect(),
        }
    }
}

const WORDS: usize = 16;
type Bits = [u64; WORDS];

fn set(bits: &mut Bits, i: u64) {
    bits[(i / 64) as usize % WORDS] |= 1 << (i % 64);
}

fn union(a: &mut Bits, b: &Bits) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

fn count(bits: &Bits) -> u64 {
    bits.iter().map(|w| w.count_ones() as u64).sum()
}

/// One chain's facts over one bucket.
#[derive(Debug, Clone)]
struct Bucket {
    start: i64,
    txs: u64,
    gas: u64,
    fees: u128,
    active: Bits,
    senders: Bits,
    contracts: u64,
    deployers: Bits,
    price_sum: u128,
    price_max: u128,
    max_gps: f64,
    max_tps: f64,
    first_ms: Option<i64>,
    last_ms: Option<i64>,
}

impl Bucket {
    fn empty(start: i64) -> Bucket {
        Bucket {
            start,
            txs: 0,
            gas: 0,
            fees: 0,
            active: [0; WORDS],
            senders: [0; WORDS],
            contracts: 0,
            deployers: [0; WORDS],
            price_sum: 0,
            price_max: 0,
            max_gps: 0.0,
            max_tps: 0.0,
            first_ms: None,
            last_ms: None,
        }
    }

    fn merge(&mut self, o: &Bucket) {
        self.txs += o.txs;
        self.gas += o.gas;
        self.fees += o.fees;
        union(&mut self.active, &o.active);
        union(&mut self.senders, &o.senders);
        self.contracts += o.contracts;
        union(&mut self.deployers, &o.deployers);
        self.price_sum += o.price_sum;
        self.price_max = self.price_max.max(o.price_max);
        self.max_gps = self.max_gps.max(o.max_gps);
        self.max_tps = self.max_tps.max(o.max_tps);
        self.first_ms = match (self.first_ms, o.first_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.last_ms = self.last_ms.max(o.last_ms);
    }
}

/// The facts of every transaction of block `number` (the world's [`tx_facts`], which
/// `block_transactions` encodes), into `out`.
fn block_tx_facts(seed: u64, chain: &Chain, number: u64, out: &mut Vec<TxFacts>) {
    out.clear();
    let base = base_fee(seed, chain, number);
    out.extend((0..tx_count(seed, chain, number)).map(|k| tx_facts(seed, chain, number, k, base)));
}

/// Hour buckets of `chain`, consecutive from its first block's hour to its last block's.
fn hour_buckets(world: &DataWorld, chain: &Chain) -> Vec<Bucket> {
    let seed = world.seed();
    let mut out: Vec<Bucket> = Vec::new();
    let mut txs = Vec::new();
    let mut prev_ms: Option<i64> = None;
    for n in 0..world.blocks_per_chain() {
        let ts_ms = world.block_timestamp_ms(chain, n);
        let start = Interval::Hour.floor(ts_ms.div_euclid(1000));
        while out.last().is_none_or(|b| b.start < start) {
            let next = out.last().map_or(start, |b| b.start + 3_600);
            out.push(Bucket::empty(next));
        }
        let b = out.last_mut().unwrap();
        block_tx_facts(seed, chain, n, &mut txs);
        let mut gas = 0u64;
        for t in &txs {
            gas += t.gas_used;
            b.fees += t.gas_used as u128 * t.gas_price;
            set(&mut b.active, t.from);
            set(&mut b.senders, t.from);
            if let Some(to) = t.to {
                set(&mut b.active, to);
            }
            if t.contract_creation {
                b.contracts += 1;
                set(&mut b.deployers, t.from);
            }
            b.price_sum += t.gas_price;
            b.price_max = b.price_max.max(t.gas_price);
        }
        b.txs += txs.len() as u64;
        b.gas += gas;
        if let Some(p) = prev_ms {
            let secs = (ts_ms - p) as f64 / 1000.0;
            if secs > 0.0 {
                b.max_gps = b.max_gps.max(gas as f64 / secs);
                b.max_tps = b.max_tps.max(txs.len() as f64 / secs);
            }
        }
        b.first_ms.get_or_insert(ts_ms);
        b.last_ms = Some(ts_ms);
        prev_ms = Some(ts_ms);
    }
    out
}

type CacheKey = (u64, u64, u64, Interval);

fn cache() -> &'static Mutex<HashMap<CacheKey, Arc<Vec<Bucket>>>> {
    static CACHE: OnceLock<Mutex<HashMap<CacheKey, Arc<Vec<Bucket>>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The buckets of `chain` for `interval`, cached.
fn buckets(world: &DataWorld, chain: &Chain, interval: Interval) -> Arc<Vec<Bucket>> {
    let key = (world.seed(), world.blocks_per_chain(), chain.evm_chain_id, interval);
    if let Some(b) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return b.clone();
    }
    let built = if interval == Interval::Hour {
        hour_buckets(world, chain)
    } else {
        let hours = buckets(world, chain, Interval::Hour);
        let mut out: Vec<Bucket> = Vec::new();
        for h in hours.iter() {
            let start = interval.floor(h.start);
            while out.last().is_none_or(|b| b.start < start) {
                let next = out.last().map_or(start, |b| interval.next(b.start));
                out.push(Bucket::empty(next));
            }
            out.last_mut().unwrap().merge(h);
        }
        out
    };
    let built = Arc::new(built);
    cache().lock().unwrap_or_else(|e| e.into_inner()).insert(key, built.clone());
    built
}

/// A per-chain value before aggregation over chains.
#[derive(Clone)]
enum Cell {
    Sum(f64),
    /// Distinct addresses: the blocks' set, plus a count of the history's.
    Set(Box<Bits>, f64),
    Max(f64),
    Mean(u128, u64),
    /// An amount over seconds (one chain's average rate; chains' rates add up as [`Cell::Sum`]).
    Rate(f64, f64),
}

impl Cell {
    fn combine(&mut self, other: Cell) {
        match (self, other) {
            (Cell::Sum(a), Cell::Sum(b)) => *a += b,
            (Cell::Set(a, x), Cell::Set(b, y)) => {
                union(a, &b);
                *x += y;
            }
            (Cell::Max(a), Cell::Max(b)) => *a = a.max(b),
            (Cell::Mean(s, n), Cell::Mean(s2, n2)) => {
                *s += s2;
                *n += n2;
            }
            (Cell::Rate(a, s), Cell::Rate(b, t)) => {
                *a += b;
                *s += t;
            }
            _ => unreachable!("one metric, one kind of cell"),
        }
    }

    fn value(&self) -> f64 {
        match self {
            Cell::Sum(v) | Cell::Max(v) => *v,
            Cell::Set(b, extra) => count(b) as f64 + extra,
            Cell::Mean(s, n) => {
                if *n == 0 {
                    0.0
                } else {
                    *s as f64 / *n as f64
                }
            }
            Cell::Rate(a, s) => {
                if *s > 0.0 {
                    a / s
                } else {
                    0.0
                }
            }
        }
    }

    /// One chain's cell of a bucket from its history (`self`) and from its blocks (`blocks`):
    /// as [`Cell::combine`], but a distinct count is the larger of the two (the history's
    /// addresses are the pool's, as the blocks' are), not their sum.
    fn combine_within_chain(&mut self, blocks: Cell) {
        match (self, blocks) {
            (Cell::Set(a, x), Cell::Set(b, y)) => {
                union(a, &b);
                *x = (*x + y - count(a) as f64).max(y);
            }
            (me, other) => me.combine(other),
        }
    }

    /// The cell as it adds up over chains: a rate becomes its value.
    fn across_chains(self) -> Cell {
        match self {
            Cell::Rate(..) => Cell::Sum(self.value()),
            other => other,
        }
    }
}

/// A distinct-address cell of the history: no block's set, `extra` addresses.
fn counted(extra: f64) -> Cell {
    Cell::Set(Box::new([0; WORDS]), extra)
}

/// Running totals of a chain's history, which its blocks' cumulative series continue.
#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    txs: f64,
    contracts: f64,
    addresses: f64,
    deployers: f64,
}

/// One chain's history cells of `metric` (oldest first, the bucket of the first block last), and
/// the running totals through its first block. A cumulative metric's cells stop before the
/// bucket of the first block (whose cell the blocks give, on top of the totals).
fn past_cells(
    world: &DataWorld,
    chain: &Chain,
    metric: Metric,
    interval: Interval,
    window: (Option<i64>, Option<i64>),
) -> (Vec<(i64, Cell)>, Totals) {
    let seed = world.seed();
    let first_ms = world.block_timestamp_ms(chain, 0);
    let mut totals = Totals::default();
    let mut out = Vec::new();
    let last_start = interval.floor(first_ms.div_euclid(1000));
    for b in past::past_buckets(seed, chain, interval, first_ms, metric, window) {
        totals.txs += b.txs;
        totals.contracts += b.contracts;
        totals.addresses += b.new_addresses(seed, chain);
        totals.deployers += (b.deployers() * 0.5).round();
        let cell = match metric {
            Metric::ActiveAddresses => counted(b.active(seed, chain)),
            Metric::ActiveSenders => counted(b.senders(seed, chain)),
            Metric::CumulativeTxCount => Cell::Sum(totals.txs),
            Metric::CumulativeAddresses => counted(totals.addresses),
            Metric::CumulativeContracts => Cell::Sum(totals.contracts),
            Metric::CumulativeDeployers => counted(totals.deployers),
            Metric::Contracts => Cell::Sum(b.contracts),
            Metric::Deployers => counted(b.deployers()),
            Metric::GasUsed => Cell::Sum(b.gas),
            Metric::TxCount => Cell::Sum(b.txs),
            Metric::AvgGps => Cell::Rate(b.gas, b.seconds as f64),
            Metric::MaxGps => Cell::Max(b.max_gps),
            Metric::AvgTps => Cell::Rate(b.txs, b.seconds as f64),
            Metric::MaxTps => Cell::Max(b.max_tps),
            Metric::AvgGasPrice => Cell::Mean(b.price_sum as u128, b.txs as u64),
            Metric::MaxGasPrice => Cell::Max(b.price_max),
            Metric::FeesPaid => Cell::Sum(b.fees),
        };
        if !(metric.cumulative() && b.start == last_start) {
            out.push((b.start, cell));
        }
    }
    (out, totals)
}

/// One chain's cells of `metric` from its blocks, oldest first; cumulative series continue the
/// history's `totals`.
fn chain_cells(buckets: &[Bucket], metric: Metric, totals: Totals) -> Vec<(i64, Cell)> {
    let mut out = Vec::with_capacity(buckets.len());
    let mut cum_txs = 0u64;
    let mut cum_contracts = 0u64;
    let mut cum_active: Bits = [0; WORDS];
    let mut cum_deployers: Bits = [0; WORDS];
    let mut prev_last: Option<i64> = None;
    for b in buckets {
        cum_txs += b.txs;
        cum_contracts += b.contracts;
        union(&mut cum_active, &b.active);
        union(&mut cum_deployers, &b.deployers);
        let span_s = match (prev_last.or(b.first_ms), b.last_ms) {
            (Some(from), Some(to)) if to > from => (to - from) as f64 / 1000.0,
            _ => 0.0,
        };
        let cell = match metric {
            Metric::ActiveAddresses => Cell::Set(Box::new(b.active), 0.0),
            Metric::ActiveSenders => Cell::Set(Box::new(b.senders), 0.0),
            Metric::CumulativeTxCount => Cell::Sum(totals.txs + cum_txs as f64),
            Metric::CumulativeAddresses => Cell::Set(Box::new(cum_active), totals.addresses),
            Metric::CumulativeContracts => Cell::Sum(totals.contracts + cum_contracts as f64),
            Metric::CumulativeDeployers => Cell::Set(Box::new(cum_deployers), totals.deployers),
            Metric::Contracts => Cell::Sum(b.contracts as f64),
            Metric::Deployers => Cell::Set(Box::new(b.deployers), 0.0),
            Metric::GasUsed => Cell::Sum(b.gas as f64),
            Metric::TxCount => Cell::Sum(b.txs as f64),
            Metric::AvgGps => Cell::Rate(b.gas as f64, span_s),
            Metric::MaxGps => Cell::Max(b.max_gps),
            Metric::AvgTps => Cell::Rate(b.txs as f64, span_s),
            Metric::MaxTps => Cell::Max(b.max_tps),
            Metric::AvgGasPrice => Cell::Mean(b.price_sum, b.txs),
            Metric::MaxGasPrice => Cell::Max(b.price_max as f64),
            Metric::FeesPaid => Cell::Sum(b.fees as f64),
        };
        out.push((b.start, cell));
        if b.last_ms.is_some() {
            prev_last = b.last_ms;
        }
    }
    out
}

/// Why a series cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeriesError {
    /// The metric supports only `timeInterval=day`.
    DayOnly(Metric, Interval),
    /// An EVM chain id the world does not have.
    UnknownChain(u64),
}

impl std::fmt::Display for SeriesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeriesError::DayOnly(m, i) => write!(
                f,
                "timeInterval {} is not supported for metric {}: only timeInterval=day is supported",
                i.as_str(),
                m.as_str()
            ),
            SeriesError::UnknownChain(id) => write!(f, "Chain {id} not found"),
        }
    }
}

/// The full series of `metric` for `selector` at `interval`: `(bucket start, Unix seconds;
/// value)`, **oldest first** (the HTTP endpoint serves it newest first), from the launch of the
/// oldest chain selected to the world's now. Values are exactly what
/// `/v2/chains/{chainId}/metrics/{metric}` answers. The first call for a chain walks its blocks
/// (about 0.1–0.3 s per 100,000 blocks); later calls use the cache, and the history before the
/// blocks costs only its own buckets.
pub fn metric_series(
    world: &DataWorld,
    selector: ChainSelector,
    metric: Metric,
    interval: Interval,
) -> Result<Vec<(i64, f64)>, SeriesError> {
    metric_series_in(world, selector, metric, interval, (None, None))
}

/// [`metric_series`] restricted to the buckets whose start `t` satisfies `start <= t < end`
/// (either bound optional): only those buckets of the history are built (a cumulative series
/// still sums from each chain's launch).
pub fn metric_series_in(
    world: &DataWorld,
    selector: ChainSelector,
    metric: Metric,
    interval: Interval,
    window: (Option<i64>, Option<i64>),
) -> Result<Vec<(i64, f64)>, SeriesError> {
    if metric.day_only() && interval != Interval::Day {
        return Err(SeriesError::DayOnly(metric, interval));
    }
    let selected = selector.chains();
    if selected.is_empty() {
        if let ChainSelector::Chain(id) = selector {
            return Err(SeriesError::UnknownChain(id));
        }
    }
    // The pages of one series ask for it again: the last few series are kept.
    type Key = (String, ChainSelector, Metric, Interval, (Option<i64>, Option<i64>));
    type Kept = Vec<(Key, Arc<Vec<(i64, f64)>>)>;
    static RECENT: Mutex<Kept> = Mutex::new(Vec::new());
    let key: Key = (world.name(), selector, metric, interval, window);
    if let Some((_, hit)) = RECENT.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == key) {
        return Ok(hit.as_ref().clone());
    }
    let series = compute(world, &selected, metric, interval, window);
    let mut recent = RECENT.lock().unwrap_or_else(|e| e.into_inner());
    if recent.len() >= 16 {
        recent.remove(0);
    }
    recent.push((key, Arc::new(series.clone())));
    Ok(series)
}

/// The series of `metric` over the `selected` chains (see [`metric_series_in`]).
fn compute(
    world: &DataWorld,
    selected: &[&'static Chain],
    metric: Metric,
    interval: Interval,
    window: (Option<i64>, Option<i64>),
) -> Vec<(i64, f64)> {
    let inside = |t: i64| window.0.is_none_or(|s| t >= s) && window.1.is_none_or(|e| t < e);
    // Build the chains' hour buckets in parallel the first time.
    let per_chain: Vec<Arc<Vec<Bucket>>> = std::thread::scope(|s| {
        let handles: Vec<_> = selected.iter().map(|c| s.spawn(move || buckets(world, c, interval))).collect();
        handles.into_iter().map(|h| h.join().expect("metrics computation panicked")).collect()
    });
    let mut merged: BTreeMap<i64, Cell> = BTreeMap::new();
    for (chain, blocks) in selected.iter().zip(&per_chain) {
        let (past, totals) = past_cells(world, chain, metric, interval, window);
        let mut cells: BTreeMap<i64, Cell> = past.into_iter().collect();
        for (ts, cell) in chain_cells(blocks, metric, totals) {
            if !inside(ts) {
                continue;
            }
            match cells.get_mut(&ts) {
                Some(existing) => existing.combine_within_chain(cell),
                None => {
                    cells.insert(ts, cell);
                }
            }
        }
        for (ts, cell) in cells.into_iter().filter(|(t, _)| inside(*t)) {
            let cell = cell.across_chains();
            match merged.get_mut(&ts) {
                Some(existing) => existing.combine(cell),
                None => {
                    merged.insert(ts, cell);
                }
            }
        }
    }
    merged.into_iter().map(|(ts, c)| (ts, c.value())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data_api::block_transactions;

    #[test]
    fn fast_path_equals_block_transactions() {
        let w = DataWorld::new(5, 400);
        let mut facts = Vec::new();
        for c in chains() {
            for n in 0..400 {
                let txs = block_transactions(5, c.evm_chain_id, n);
                block_tx_facts(5, c, n, &mut facts);
                assert_eq!(txs.len(), facts.len());
                for (t, f) in txs.iter().zip(&facts) {
                    assert_eq!(w.pool_index(&t.from), Some(f.from));
                    let called = t.erc20.is_some()
                        || t.nft.is_some()
                        || t.erc1155.is_some()
                        || (t.failed && (f.erc20.is_some() || f.erc1155.is_some()));
                    let pool_to = t.to.as_ref().filter(|_| !called).map(|a| w.pool_index(a).unwrap());
                    assert_eq!(pool_to, f.to);
                    assert_eq!(t.contract_creation, f.contract_creation);
                    assert_eq!(t.contract_creation, t.to.is_none());
                    assert_eq!((t.gas_used, t.gas_price), (f.gas_used, f.gas_price));
                }
            }
        }
        assert!(chains().iter().all(|c| c.address_pool as usize <= WORDS * 64));
    }

    #[test]
    fn bucket_starts() {
        // 2026-01-01T00:00:00Z is a Thursday; the Monday before is 2025-12-29.
        let now = 1_767_225_600;
        assert_eq!(Interval::Day.floor(now + 5_000), now);
        assert_eq!(Interval::Week.floor(now + 5_000), now - 3 * 86_400);
        assert_eq!(Interval::Month.floor(now - 1), now - 31 * 86_400);
        assert_eq!(Interval::Month.next(now - 31 * 86_400), now);
        assert_eq!(Interval::Hour.floor(now + 3_599), now);
    }
}
