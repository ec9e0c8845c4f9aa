//! Fault injection: which faults exist, the seeded plan of their rates, the decision for each
//! request, and the counters and request log tests read.
//!
//! Each kind has its own rate (a probability per request). Request number `n` (counted from the
//! last [`FaultState::set_plan`]) draws one uniform number per kind from a ChaCha8 stream keyed by
//! the plan's seed and `n`, so a client that sends its requests in the same order meets the same
//! faults on every run; changing one kind's rate does not move another kind's decisions. When
//! several kinds fire on one request, the first that applies to it (in [`FaultKind::ALL`] order)
//! is produced. The middleware that produces them is `fault_layer.rs`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

avax_data_core::named_enum! {
    /// One kind of fault, named as Python and the command line name it (see [`FaultKind::name`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum FaultKind {
        /// `reset`: the connection is dropped (TCP RST) before any answer.
        Reset => "reset",
        /// `500`: HTTP 500 in the service's error shape.
        Http500 => "500",
        /// `502`: HTTP 502, as a proxy in front of the service answers.
        Http502 => "502",
        /// `503`: HTTP 503.
        Http503 => "503",
        /// `429`: HTTP 429 with `retry-after` and `ratelimit-*` headers.
        Http429 => "429",
        /// `redirect_same_origin`: 307 to the same URL with a marker query (then served normally).
        RedirectSameOrigin => "redirect_same_origin",
        /// `redirect_cross_origin`: 307 to the same path on the emulator's second listener.
        RedirectCrossOrigin => "redirect_cross_origin",
        /// `rpc_error` (Index RPC): a JSON-RPC error object under HTTP 200.
        RpcError => "rpc_error",
        /// `lagging_tip` (Index RPC): the call is answered by a node behind the tip.
        LaggingTip => "lagging_tip",
        /// `short_batch` (Index RPC): `getContainerRange` answers a correct, shorter prefix.
        ShortBatch => "short_batch",
        /// `bad_checksum` (Index RPC): one container's hex checksum is corrupted.
        BadChecksum => "bad_checksum",
        /// `repeated_token` (Data and Metrics APIs): `nextPageToken` is the token the request sent.
        RepeatedToken => "repeated_token",
        /// `cut`: the headers and part of the body, then the connection closes.
        Cut => "cut",
        /// `truncated_json`: a complete HTTP answer whose JSON ends early.
        TruncatedJson => "truncated_json",
        /// `malformed_json`: a complete HTTP answer whose JSON does not parse.
        MalformedJson => "malformed_json",
        /// `slow_body`: the body trickles out in pieces with pauses.
        SlowBody => "slow_body",
        /// `oversized`: the answer padded with JSON whitespace to well past its size.
        Oversized => "oversized",
        /// `gzip_bomb`: a small `content-encoding: gzip` body that inflates hugely.
        GzipBomb => "gzip_bomb",
    }
    /// Every kind, in the order they are tried on a request.
    ALL;
    /// The kind's name: `"500"`, `"reset"`, `"short_batch"`, ...
    fn name;
}

impl FaultKind {
    /// The kind named `name` (exactly as [`FaultKind::name`] spells it).
    pub fn parse(name: &str) -> Result<FaultKind, FaultError> {
        FaultKind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| FaultError {
            parameter: "faults",
            value: format!("{name:?}"),
            expected: format!("a fault kind, one of {}", FaultKind::names().join(", ")),
        })
    }

    /// Every kind's name, in [`FaultKind::ALL`] order.
    pub fn names() -> Vec<&'static str> {
        FaultKind::ALL.iter().map(|k| k.name()).collect()
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A refused fault setting: which parameter, the value given, what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultError {
    /// `faults` or `fault_options`.
    pub parameter: &'static str,
    /// The value given, as text.
    pub value: String,
    /// What the parameter allows.
    pub expected: String,
}

impl fmt::Display for FaultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}: {} (expected {})", self.parameter, self.value, self.expected)
    }
}

impl std::error::Error for FaultError {}

/// The sizes and timings of the faults that have any.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaultOptions {
    /// `retry_after`: seconds sent in `retry-after` (and `ratelimit-reset`) with a `429` fault.
    pub retry_after_secs: u64,
    /// `lag`: how many containers a `lagging_tip` node is behind (it keeps at least one).
    pub lag: u64,
    /// `oversized_bytes`: bytes of whitespace an `oversized` answer adds.
    pub oversized_bytes: u64,
    /// `gzip_bomb_bytes`: bytes a `gzip_bomb` body inflates to.
    pub gzip_bomb_bytes: u64,
    /// `slow_body_pause`: the pause between the pieces of a `slow_body` answer.
    pub slow_body_pause: Duration,
}

impl Default for FaultOptions {
    fn default() -> Self {
        FaultOptions {
            retry_after_secs: 1,
            lag: 10,
            oversized_bytes: 16 << 20,
            gzip_bomb_bytes: 256 << 20,
            slow_body_pause: Duration::from_millis(20),
        }
    }
}

impl FaultOptions {
    /// The option names [`FaultOptions::set`] takes.
    pub const NAMES: [&'static str; 5] =
        ["retry_after", "lag", "oversized_bytes", "gzip_bomb_bytes", "slow_body_pause"];

    /// Sets the option `name` to `value` (seconds for `retry_after` and `slow_body_pause`).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), FaultError> {
        let refuse = |expected: &str| FaultError {
            parameter: "fault_options",
            value: format!("{name}={value}"),
            expected: expected.to_string(),
        };
        let whole = |max: f64| {
            (value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= max).then_some(value as u64)
        };
        match name {
            "retry_after" => {
                self.retry_after_secs = whole(86_400.0).ok_or_else(|| refuse("whole seconds in [0, 86400]"))?
            }
            "lag" => {
                self.lag = whole(1e15).filter(|v| *v >= 1).ok_or_else(|| refuse("a whole number of containers >= 1"))?
            }
            "oversized_bytes" => {
                self.oversized_bytes = whole((1u64 << 40) as f64).ok_or_else(|| refuse("whole bytes in [0, 2**40]"))?
            }
            "gzip_bomb_bytes" => {
                self.gzip_bomb_bytes =
                    whole((1u64 << 40) as f64).filter(|v| *v >= 1).ok_or_else(|| refuse("whole bytes in [1, 2**40]"))?
            }
            "slow_body_pause" => {
                if !(value.is_finite() && (0.0..=10.0).contains(&value)) {
                    return Err(refuse("seconds in [0, 10]"));
                }
                self.slow_body_pause = Duration::from_secs_f64(value);
            }
            _ => {
                return Err(FaultError {
                    parameter: "fault_options",
                    value: format!("{name:?}"),
                    expected: format!("an option, one of {}", FaultOptions::NAMES.join(", ")),
                })
            }
        }
        Ok(())
    }
}

/// What to inject: a rate per kind, the seed of the decisions, and the options.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultPlan {
    rates: [f64; FaultKind::ALL.len()],
    /// Seed of the per-request decisions.
    pub seed: u64,
    /// Sizes and timings.
    pub options: FaultOptions,
}

impl Default for FaultPlan {
    fn default() -> Self {
        FaultPlan { rates: [0.0; FaultKind::ALL.len()], seed: 0, options: FaultOptions::default() }
    }
}

impl FaultPlan {
    /// A plan from `(kind name, rate)` pairs; each rate is a probability in `[0, 1]`.
    pub fn new<'a>(rates: impl IntoIterator<Item = (&'a str, f64)>, seed: u64) -> Result<FaultPlan, FaultError> {
        let mut plan = FaultPlan { seed, ..FaultPlan::default() };
        for (name, rate) in rates {
            let kind = FaultKind::parse(name)?;
            plan.set_rate(kind, rate)?;
        }
        Ok(plan)
    }

    /// Sets one kind's rate, a probability in `[0, 1]`.
    pub fn set_rate(&mut self, kind: FaultKind, rate: f64) -> Result<(), FaultError> {
        if !(rate.is_finite() && (0.0..=1.0).contains(&rate)) {
            return Err(FaultError {
                parameter: "faults",
                value: format!("{}={rate}", kind.name()),
                expected: "a rate (probability per request) in [0, 1]".to_string(),
            });
        }
        self.rates[kind as usize] = rate;
        Ok(())
    }

    /// The rate of `kind`.
    pub fn rate(&self, kind: FaultKind) -> f64 {
        self.rates[kind as usize]
    }

    /// The kinds with a rate above 0 and their rates.
    pub fn rates(&self) -> BTreeMap<FaultKind, f64> {
        FaultKind::ALL.into_iter().filter(|k| self.rate(*k) > 0.0).map(|k| (k, self.rate(k))).collect()
    }

    fn is_active(&self) -> bool {
        self.rates.iter().any(|r| *r > 0.0)
    }

    /// The decision for request number `n`.
    pub fn draw(&self, n: u64) -> FaultDraw {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&self.seed.to_le_bytes());
        key[8..16].copy_from_slice(b"faults\0\0");
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(n);
        let mut fired = 0u32;
        for kind in FaultKind::ALL {
            // 53 random bits: a uniform number in [0, 1); rate 1 always fires, rate 0 never.
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if u < self.rate(kind) {
                fired |= kind.bit();
            }
        }
        FaultDraw { fired, salt: rng.next_u64() }
    }
}

/// The kinds that fired on one request, and a random number for the choices a fault makes (how
/// short a batch, which container's checksum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FaultDraw {
    fired: u32,
    /// Seeded randomness of this request.
    pub salt: u64,
}

impl FaultDraw {
    /// Whether `kind` fired.
    pub fn fired(&self, kind: FaultKind) -> bool {
        self.fired & kind.bit() != 0
    }

    /// The kinds that fired, in [`FaultKind::ALL`] order.
    pub fn kinds(&self) -> impl Iterator<Item = FaultKind> + '_ {
        FaultKind::ALL.into_iter().filter(|k| self.fired(*k))
    }

    /// Whether nothing fired.
    pub fn is_empty(&self) -> bool {
        self.fired == 0
    }
}

/// One request as the log keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedRequest {
    /// Seconds since the emulator started.
    pub time_s: f64,
    /// HTTP method.
    pub method: String,
    /// URL path (no query).
    pub path: String,
    /// The status of the emulator's answer (`None` while it is being served). A `reset` or
    /// `cut` fault shows the status of the answer whose connection it broke.
    pub status: Option<u16>,
}

/// The request log keeps at most this many entries (the oldest are dropped).
pub const REQUEST_LOG_CAPACITY: usize = 1_000_000;

/// The plan in force, the decision counter, what was injected where, and the request log.
pub(crate) struct FaultState {
    plan: RwLock<FaultPlan>,
    next: AtomicU64,
    counts: Mutex<BTreeMap<(FaultKind, String), u64>>,
    /// The log, and the sequence number of its first entry (entries dropped so far).
    log: Mutex<(std::collections::VecDeque<LoggedRequest>, u64)>,
    started: Instant,
    /// The two listeners' base URLs: `[primary, second]`, set once both listen.
    pub(crate) origins: OnceLock<[String; 2]>,
    bomb: Mutex<Option<(u64, bytes::Bytes)>>,
}

impl FaultState {
    pub(crate) fn new(plan: FaultPlan) -> FaultState {
        FaultState {
            plan: RwLock::new(plan),
            next: AtomicU64::new(0),
            counts: Mutex::new(BTreeMap::new()),
            log: Mutex::new(Default::default()),
            started: Instant::now(),
            origins: OnceLock::new(),
            bomb: Mutex::new(None),
        }
    }

    /// Replaces the plan and restarts the decision counter (request 0 is the next one).
    pub(crate) fn set_plan(&self, plan: FaultPlan) {
        let mut current = self.plan.write().unwrap_or_else(|e| e.into_inner());
        *current = plan;
        self.next.store(0, Ordering::Release);
    }

    pub(crate) fn plan(&self) -> FaultPlan {
        self.plan.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The decision for the next request (`None` when no kind has a rate), with the options.
    pub(crate) fn draw(&self) -> Option<(FaultDraw, FaultOptions)> {
        let plan = self.plan.read().unwrap_or_else(|e| e.into_inner());
        if !plan.is_active() {
            return None;
        }
        let n = self.next.fetch_add(1, Ordering::AcqRel);
        Some((plan.draw(n), plan.options))
    }

    /// Records that `kind` was injected into a request for `path`.
    pub(crate) fn count(&self, kind: FaultKind, path: &str) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *counts.entry((kind, path.to_string())).or_insert(0) += 1;
    }

    /// Faults injected so far, by kind and path.
    pub(crate) fn counts_by_path(&self) -> BTreeMap<(FaultKind, String), u64> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Appends a request to the log; returns its sequence number, for [`FaultState::log_status`].
    pub(crate) fn log(&self, method: &str, path: &str) -> u64 {
        let entry = LoggedRequest {
            time_s: self.started.elapsed().as_secs_f64(),
            method: method.to_string(),
            path: path.to_string(),
            status: None,
        };
        let mut guard = self.log.lock().unwrap_or_else(|e| e.into_inner());
        let (log, first) = &mut *guard;
        if log.len() >= REQUEST_LOG_CAPACITY {
            log.pop_front();
            *first += 1;
        }
        log.push_back(entry);
        *first + log.len() as u64 - 1
    }

    /// Records the status answered to the request logged as `seq` (if it is still in the log).
    pub(crate) fn log_status(&self, seq: u64, status: u16) {
        let mut guard = self.log.lock().unwrap_or_else(|e| e.into_inner());
        let (log, first) = &mut *guard;
        if let Some(entry) = seq.checked_sub(*first).and_then(|i| log.get_mut(i as usize)) {
            entry.status = Some(status);
        }
    }

    pub(crate) fn request_log(&self) -> Vec<LoggedRequest> {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).0.iter().cloned().collect()
    }

    /// The gzip bomb of `size` inflated bytes (built once per size, then shared).
    pub(crate) fn bomb(&self, size: u64) -> bytes::Bytes {
        let mut cached = self.bomb.lock().unwrap_or_else(|e| e.into_inner());
        match &*cached {
            Some((n, body)) if *n == size => body.clone(),
            _ => {
                let body = super::fault_bodies::gzip_of_spaces(size);
                *cached = Some((size, body.clone()));
                body
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_ones_name_the_allowed_kinds() {
        for kind in FaultKind::ALL {
            assert_eq!(FaultKind::parse(kind.name()), Ok(kind));
        }
        let err = FaultKind::parse("404").unwrap_err();
        assert_eq!(err.parameter, "faults");
        assert!(err.to_string().contains("\"404\"") && err.to_string().contains("short_batch"), "{err}");
    }

    #[test]
    fn rates_outside_0_1_are_refused() {
        for bad in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            let err = FaultPlan::new([("502", bad)], 0).unwrap_err();
            assert!(err.to_string().contains("502=") && err.expected.contains("[0, 1]"), "{err}");
        }
        assert!(FaultPlan::new([("502", 0.0), ("reset", 1.0)], 0).is_ok());
    }

    #[test]
    fn decisions_are_a_function_of_seed_and_request_number() {
        let plan = FaultPlan::new([("502", 0.3), ("cut", 0.3)], 7).unwrap();
        let a: Vec<_> = (0..200).map(|n| plan.draw(n)).collect();
        let b: Vec<_> = (0..200).map(|n| plan.draw(n)).collect();
        assert_eq!(a, b);
        let other = FaultPlan::new([("502", 0.3), ("cut", 0.3)], 8).unwrap();
        assert_ne!(a, (0..200).map(|n| other.draw(n)).collect::<Vec<_>>());
        // Another kind's rate does not move this kind's decisions.
        let more = FaultPlan::new([("502", 0.3), ("cut", 0.9)], 7).unwrap();
        for n in 0..200 {
            assert_eq!(plan.draw(n).fired(FaultKind::Http502), more.draw(n).fired(FaultKind::Http502));
        }
    }

    #[test]
    fn options_are_checked() {
        let mut options = FaultOptions::default();
        options.set("lag", 3.0).unwrap();
        options.set("slow_body_pause", 0.5).unwrap();
        assert_eq!((options.lag, options.slow_body_pause), (3, Duration::from_millis(500)));
        assert!(options.set("lag", 0.0).is_err());
        assert!(options.set("retry_after", 1.5).is_err());
        let err = options.set("bogus", 1.0).unwrap_err();
        assert!(err.to_string().contains("gzip_bomb_bytes"), "{err}");
    }
}
